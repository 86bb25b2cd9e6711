"""Arcade buttons (gpiozero) and the keyboard, both turned into the same presses.

Five buttons: confirm, end turn, undo/back, next, previous. A long press of confirm opens the
menu; a long press of undo/back takes back the last confirmed action, and a long press of next
puts it back (redo).

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> factory = MockFactory()
    >>> buttons = GpioButtons({"confirm": 5, "end": 6, "back": 13, "next": 19, "prev": 26},
    ...                       bounce_s=None, hold_s=0.5, pin_factory=factory)
    >>> factory.pin(5).drive_low(); factory.pin(5).drive_high()
    >>> buttons.poll()
    ['confirm']
    >>> buttons.close()
"""

from __future__ import annotations

import logging
import os
import queue
import select
import sys
import time
import warnings
from typing import Any

from companion.i18n import N_, _

log = logging.getLogger("companion.buttons")

CONFIRM, END, BACK, NEXT, PREV = "confirm", "end", "back", "next", "prev"
UNDO, MENU, REDO = "undo", "menu", "redo"  # long presses of back, confirm and next
PRESSES = (CONFIRM, END, BACK, UNDO, REDO, NEXT, PREV, MENU)
BUTTONS = ("confirm", "end", "back", "next", "prev")  # the physical buttons
# What a long press means, where it means more than the short one.
LONG = {"confirm": MENU, "back": UNDO, "next": REDO}


class ButtonError(RuntimeError):
    """Buttons that cannot be opened; the message says which pin and what to check."""


class GpioButtons:
    """The five arcade buttons on BCM pins, each wired from the pin to ground (pull-up)."""

    def __init__(self, pins: dict[str, int], bounce_s: float | None = 0.04, hold_s: float = 0.8,
                 pin_factory: Any = None):
        from gpiozero import Button  # imported here so machines without GPIO can load this file

        missing = [name for name in BUTTONS if name not in pins]
        if missing:
            raise ButtonError(_("no pin given for button(s) {buttons}").format(
                buttons=", ".join(missing)))
        self._presses: queue.Queue[str] = queue.Queue()
        self._held = dict.fromkeys(BUTTONS, False)  # a long press must not also count as short
        # Contact chatter: the Pi's GPIO driver filters it too, but not every pin factory does.
        # A contact closed for less than the bounce time was no press at all.
        self._bounce_s = bounce_s or 0.0
        self._down = dict.fromkeys(BUTTONS, 0.0)
        self._buttons = []
        for name in BUTTONS:
            try:
                # gpiozero warns on stderr for each pin library it tries and lacks; said in the
                # log instead (the reason a failure gives below names what is wrong)
                with warnings.catch_warnings(record=True) as tried:
                    warnings.simplefilter("always")
                    button = Button(pins[name], pull_up=True, bounce_time=bounce_s,
                                    hold_time=hold_s, pin_factory=pin_factory)
            except Exception as exc:  # gpiozero raises many kinds here (busy, no chip, bad pin)
                self.close()
                raise ButtonError(
                    _("button {button} on {pin}: {reason}. Check the pin map "
                      "(hardware/pins.toml) and that the user is in the gpio group.").format(
                        button=repr(name), pin=f"GPIO{pins[name]}", reason=exc)
                ) from exc
            finally:
                for said in tried:
                    log.info("gpiozero: %s", said.message)
            button.when_pressed = self._pressed_handler(name)
            button.when_held = self._held_handler(name)
            button.when_released = self._released_handler(name)
            self._buttons.append(button)

    def _pressed_handler(self, name: str):
        def pressed() -> None:
            self._down[name] = time.monotonic()

        return pressed

    def _held_handler(self, name: str):
        def held() -> None:
            self._held[name] = True
            self._presses.put(LONG.get(name, name))

        return held

    def _released_handler(self, name: str):
        def released() -> None:
            pressed_for = time.monotonic() - self._down[name]
            if not self._held[name] and pressed_for >= self._bounce_s:
                self._presses.put(name)
            self._held[name] = False

        return released

    def poll(self) -> list[str]:
        """Presses since the last poll, oldest first."""
        out = []
        while True:
            try:
                out.append(self._presses.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []


KEYS = {
    "\r": CONFIRM, "\n": CONFIRM, " ": CONFIRM, "c": CONFIRM,
    "e": END, "u": UNDO, "r": REDO, "b": BACK, "\x7f": BACK,
    "n": NEXT, "\x1b[C": NEXT, "\x1b[B": NEXT,
    "p": PREV, "\x1b[D": PREV, "\x1b[A": PREV,
    "m": MENU,
}
# Shown under the panel in a terminal: one line of 80 columns at most. Translators: the keys
# stay as they are (enter, e, b, u, r, n, p, m).
KEY_HELP = N_("keys: enter confirm, e end turn, b back, u undo, r redo, n/p next/prev, m menu")


class KeyboardButtons:
    """Keys on a terminal as buttons (the simulator's stand-in for the arcade buttons)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stdin
        self._saved = None
        if self.stream.isatty():
            import termios
            import tty

            fd = self.stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)

    def poll(self) -> list[str]:
        out = []
        try:
            fd = self.stream.fileno()
        except (OSError, ValueError):
            return out
        while select.select([fd], [], [], 0)[0]:
            data = os.read(fd, 16).decode(errors="ignore")
            if not data:
                break
            press = KEYS.get(data) or KEYS.get(data[:1].lower())
            if press:
                out.append(press)
        return out

    def close(self) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None


class NoButtons:
    """No buttons at all (a table driven by the light board's encoder, or a bot)."""

    def poll(self) -> list[str]:
        return []

    def close(self) -> None:
        pass
