"""TOML text written by the companion (the owner's cards, `companion config show`), and read
from the files a person writes (config.toml, pins.toml)."""

from __future__ import annotations

import json
import os
import stat

from companion.i18n import _


def quoted(text: str) -> str:
    """``text`` as a TOML basic string that reads back the same, on one line.

    JSON's string escapes are TOML's (a newline as ``\\n``, other control characters as
    ``\\u00XX``); TOML also wants DEL escaped, which JSON leaves as it is.

    >>> quoted('a "b"\\n\\x7f')
    '"a \\\\"b\\\\"\\\\n\\\\u007f"'
    """
    return json.dumps(str(text), ensure_ascii=False).replace("\x7f", "\\u007f")


def key(name: str) -> str:
    """``name`` as a TOML key: bare when TOML allows it (ASCII letters, digits, _ and -),
    quoted otherwise."""
    if name and all(c.isascii() and (c.isalnum() or c in "_-") for c in name):
        return name
    return quoted(name)


# --- reading a TOML file a person wrote -------------------------------------------------------

#: A config or pin map is a few KB; anything far bigger is not one (or is a device that never
#: ends, such as /dev/zero).
MAX_BYTES = 1 << 20

_BOM = b"\xef\xbb\xbf"


class TextFileError(ValueError):
    """A file that is not a TOML text file a person wrote: not a regular file, too big, or not
    UTF-8. The message says what is wrong and what to do, without the path (the caller adds
    it)."""


def read(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> str:
    """The text of a TOML file: a regular file of at most ``limit`` bytes, UTF-8, a leading
    byte-order mark (as Notepad writes one) dropped.

    OSError (no such file, no permission) is raised as it is; TextFileError for a file that is
    not a text file of a sane size, or not UTF-8 (the line and column of the first bad byte).
    """
    # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise TextFileError(_("a folder, not a file; give the path of a TOML text file")
                                if stat.S_ISDIR(info.st_mode) else
                                _("a device or a pipe, not a file; give the path of a TOML text "
                                  "file"))
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as file:
        data = file.read(limit + 1)  # never more, whatever the size said a moment ago
    if len(data) > limit:
        raise TextFileError(_("more than {size} bytes, not a TOML text file of a few KB; give "
                              "the path of one").format(size=f"{limit:,}"))
    return decode(data)


def decode(data: bytes) -> str:
    """UTF-8 bytes as text, a leading byte-order mark dropped; TextFileError naming the line
    and column of the first byte that is not UTF-8.

    >>> decode(b"\\xef\\xbb\\xbf[table]\\n")
    '[table]\\n'
    >>> decode(b'[table]\\npack = "d\\xe9mo"\\n')
    Traceback (most recent call last):
    ...
    companion.toml_text.TextFileError: not UTF-8 text: byte 0xe9 at line 2, column 10; save \
the file as UTF-8 (in Notepad: Save as, Encoding UTF-8)
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise TextFileError(_("UTF-16 text, not UTF-8; save the file as UTF-8 (in Notepad: "
                              "Save as, Encoding UTF-8)"))
    data = data.removeprefix(_BOM)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        start = before.rfind(b"\n") + 1
        column = len(before[start:].decode("utf-8", "replace")) + 1
        raise TextFileError(_("not UTF-8 text: byte {byte} at line {line}, column {column}; "
                              "save the file as UTF-8 (in Notepad: Save as, Encoding UTF-8)")
                            .format(byte=f"0x{data[exc.start]:02x}", line=line,
                                    column=column)) from None
