"""Arcade buttons through gpiozero's own MockFactory, and the keyboard stand-in."""

from __future__ import annotations

import os
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.buttons import ButtonError, GpioButtons, KeyboardButtons

PINS = {"confirm": 5, "end": 6, "back": 13, "next": 19, "prev": 26}


@pytest.fixture
def rig():
    factory = MockFactory()
    buttons = GpioButtons(PINS, bounce_s=None, hold_s=0.1, pin_factory=factory)
    yield factory, buttons
    buttons.close()


def tap(factory, pin):
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def hold(factory, pin, seconds=0.3):
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()


def wait_for(buttons, count, timeout=2.0):
    got = []
    end = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < end:
        got += buttons.poll()
        time.sleep(0.01)
    return got


def test_each_button_gives_its_press(rig):
    factory, buttons = rig
    for name in ("confirm", "end", "back", "next", "prev"):
        tap(factory, PINS[name])
    assert wait_for(buttons, 5) == ["confirm", "end", "back", "next", "prev"]


def test_long_press_of_back_is_undo_and_of_confirm_is_menu_never_also_short(rig):
    factory, buttons = rig
    hold(factory, PINS["back"])
    hold(factory, PINS["confirm"])
    got = wait_for(buttons, 2)
    time.sleep(0.1)
    got += buttons.poll()
    assert got == ["undo", "menu"]


def test_long_press_of_next_is_redo_and_long_end_and_prev_stay_themselves(rig):
    factory, buttons = rig
    hold(factory, PINS["next"])
    hold(factory, PINS["end"])
    hold(factory, PINS["prev"])
    got = wait_for(buttons, 3)
    time.sleep(0.1)
    got += buttons.poll()
    assert got == ["redo", "end", "prev"]


def test_bounce_is_filtered():
    factory = MockFactory()
    buttons = GpioButtons(PINS, bounce_s=0.05, hold_s=1.0, pin_factory=factory)
    try:
        pin = factory.pin(PINS["next"])
        pin.drive_low()
        for _ in range(5):  # contact chatter right after the press
            pin.drive_high()
            pin.drive_low()
        time.sleep(0.1)
        pin.drive_high()
        time.sleep(0.1)
        assert buttons.poll().count("next") == 1
    finally:
        buttons.close()


def test_missing_or_clashing_pins_give_a_clear_error():
    with pytest.raises(ButtonError, match="no pin given for button"):
        GpioButtons({"confirm": 5}, pin_factory=MockFactory())
    with pytest.raises(ButtonError, match="GPIO5"):
        GpioButtons({**PINS, "end": 5}, pin_factory=MockFactory())


def test_keyboard_keys_become_presses():
    read, write = os.pipe()
    with os.fdopen(read, "r") as stream:
        keys = KeyboardButtons(stream)
        for key in (b"n", b"\n", b"e", b"u", b"r", b"\x1b[D", b"x"):
            os.write(write, key)
            time.sleep(0.01)
            assert keys.poll() == ({"n": ["next"], "\n": ["confirm"], "e": ["end"], "u": ["undo"],
                                    "r": ["redo"], "\x1b[D": ["prev"], "x": []}[key.decode()])
        os.close(write)
        keys.close()


def test_gpiozeros_warnings_go_to_the_log_not_to_the_terminal(caplog, recwarn):
    """Off a Pi gpiozero warns on stderr for every pin library it lacks before the failure
    the doctor and the daemon say in one line: those warnings are logged instead."""
    import logging
    import warnings

    class Warning_(MockFactory):
        def pin(self, spec, **kwargs):
            warnings.warn("Falling back from lgpio: No module named 'lgpio'", RuntimeWarning,
                          stacklevel=2)
            return super().pin(spec, **kwargs)

    with caplog.at_level(logging.INFO, logger="companion.buttons"):
        buttons = GpioButtons(PINS, pin_factory=Warning_())
        buttons.close()
    assert not [w for w in recwarn if "Falling back" in str(w.message)]
    assert "gpiozero: Falling back from lgpio" in caplog.text
