"""Argument types the command-line parsers share: a number is refused when it is read, with
what a good one looks like (exit 2), not later as a traceback."""

from __future__ import annotations

import argparse

from companion.i18n import _


def game_number(text: str) -> int:
    """A game's number as ``journal list`` shows it: a whole number from 1."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 1 <= number < 2**63:
        raise argparse.ArgumentTypeError(_("{value!r}: a game's number, as `companion journal "
                                           "list` shows it").format(value=text))
    return number


def positive_seconds(text: str) -> float:
    """An argparse type: a time in seconds, more than 0 and finite."""
    return _positive(text, _("seconds"))


def positive_hours(text: str) -> float:
    """An argparse type: a time in hours, more than 0 and finite."""
    return _positive(text, _("hours"))


def _positive(text: str, unit: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(_("{value}: give a number of {unit} above 0").format(
            value=text, unit=unit))
    return value


def seconds_or_zero(text: str) -> float:
    """An argparse type: 0 (no limit) or a time in seconds above 0, finite."""
    try:
        if float(text) == 0.0:
            return 0.0
    except ValueError:
        pass
    try:
        return _positive(text, _("seconds"))
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(_("{value}: give a number of seconds above 0, or 0 "
                                           "for no limit").format(value=text)) from None


def seconds_within_a_day(text: str) -> float:
    """An argparse type: a time in seconds a person waits for, 0 to a day (not inf or nan)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 86400.0:  # (false for nan too)
        raise argparse.ArgumentTypeError(_("{value!r}: seconds, from 0 to 86400").format(
            value=text))
    return value


def whole_number(lo: int, hi: int):
    """An argparse type: a whole number from ``lo`` to ``hi``."""

    def number(text: str) -> int:
        digits = text.strip().removeprefix("-")
        # ASCII digits only: int() also reads "1_000" and other scripts' digits ("٣")
        value = int(text) if digits.isascii() and digits.isdigit() and len(digits) < 20 \
            else lo - 1
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(_("{value!r}: a whole number from {lo} to {hi}")
                                             .format(value=text, lo=lo, hi=hi))
        return value

    return number
