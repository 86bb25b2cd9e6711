"""Writing a file so that a crash, a full disk or a size limit never leaves half of it."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path


def write_atomically(path: str | Path, data: bytes) -> Path:
    """``data`` as the file ``path`` (through a symbolic link, to the file it points to):
    written to a temporary file of its own beside it, flushed to the disk, then renamed over
    the old one, keeping its permissions. A failure leaves the old file as it was and no
    temporary file behind, and raises OSError naming ``path``. Returns the file written."""
    path = Path(path)
    target = Path(os.path.realpath(path))
    try:
        mode: int | None = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = None  # a new file: the umask's permissions
    # of its own: two writers at once never share (and lose) a temporary file
    tmp = target.with_name(f"{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        exc.filename = str(path)  # the file the user named, not the one beside it
        raise
    fsync_folder(target.parent)
    return target


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: some file systems refuse)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
