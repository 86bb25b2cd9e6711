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
