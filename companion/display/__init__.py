"""The OLED: screens drawn from plain data, and the backends that show them.

    >>> from companion.display import open_display, screens
    >>> with open_display({"backend": "dummy"}) as oled:
    ...     oled.show(screens.notice("ANA", "ROLL!"))
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
    "open_display",
    "to_text",
]
