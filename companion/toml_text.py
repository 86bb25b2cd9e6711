"""TOML text written by the companion (the owner's cards, `companion config show`)."""

from __future__ import annotations

import json


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
