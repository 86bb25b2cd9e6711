"""The OLED: screens drawn from plain data, and the backends that show them.

    >>> from companion.display import open_display, screens
    >>> with open_display({"backend": "dummy"}) as oled:
    ...     oled.show(screens.turn("Ana"))
    True

See ``docs/display.md``.
"""

from companion.display.backends import (
    BACKENDS,
    Display,
    DisplayConfigError,
    DisplayError,
    DisplayUnavailable,
    DummyDisplay,
    LumaDisplay,
    RecorderDisplay,
    TerminalDisplay,
    open_display,
    to_text,
)
from companion.display.sequence import lock_summary, named_screens_for, screens_for

__all__ = [
    "BACKENDS",
    "Display",
    "DisplayConfigError",
    "DisplayError",
    "DisplayUnavailable",
    "DummyDisplay",
    "LumaDisplay",
    "RecorderDisplay",
    "TerminalDisplay",
    "lock_summary",
    "named_screens_for",
    "open_display",
    "screens_for",
    "to_text",
]
