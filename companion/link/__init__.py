"""The light-and-keypad board on USB serial: protocol core and the host-side link.

See docs/light-protocol.md for the wire format and firmware/README.md for the board.
"""

from .board import (
    DEFAULT_PORT,
    NAMED_COLOURS,
    BoardInfo,
    KeyEvent,
    KnobButtons,
    LightBoard,
    LinkStatus,
    NullLightBoard,
    colour_arg,
    open_light_board,
    status_text,
)

__all__ = [
    "DEFAULT_PORT",
    "NAMED_COLOURS",
    "BoardInfo",
    "KeyEvent",
    "KnobButtons",
    "LightBoard",
    "LinkStatus",
    "NullLightBoard",
    "colour_arg",
    "open_light_board",
    "status_text",
]
