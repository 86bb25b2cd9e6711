"""What ``companion replay`` reads: one JSON value per line, checked before any engine sees it.

A replay script is written by hand, by another program, or by someone trying to break it. Its
contract is one: a line that cannot be used stops the replay with exit code 2 and a message
``file:line: reason``, never a traceback. This module checks what the replay itself reads (the
JSON, how deep it nests, how long its numbers are, and the setup line: players, pack and
options); the rules engine answers every action it is given with a ``RuleError``.

    >>> read_line('{"type": "end"}')
    {'type': 'end'}
    >>> read_line("[" * 40 + "]" * 40)
    Traceback (most recent call last):
    ...
    companion.replay.LineError: nested more than 32 deep; an action nests a few levels at most
    >>> shorten("no player called " + repr("A" * 1000))
    "no player called 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA... (1,002 characters)"
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion.i18n import _

MAX_DEPTH = 32  # an action nests a few levels (object, list, object); a script never needs more
MAX_DIGITS = 30  # no count, step or id in any game needs a longer integer
SETUP_KEYS = ("type", "players", "pack", "options")
LONGEST_WORD = 60  # a run of characters without a space longer than this is cut in messages
LONGEST_MESSAGE = 600


class LineError(ValueError):
    """A line of a script that cannot be used; the message says why (without the place)."""


class NotedAction(dict):
    """An action line that notes which of its fields the rules read.

    The engines read an action's fields by name, and only those their rule needs, so a field
    no rule looked at had no effect: misspelt, or meant for another action. Whatever reads
    the line whole (copies, compares or prints it) counts as reading every field.

    >>> action = NotedAction({"type": "move", "tile": "marty-3", "escrot": "george"})
    >>> action["type"], action.get("tile")
    ('move', 'marty-3')
    >>> action.unread()
    ['escrot']
    """

    def __init__(self, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self._read: set[Any] = set()
        self._whole = False

    def __getitem__(self, key: Any) -> Any:
        self._read.add(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._read.add(key)
        return super().get(key, default)

    def __contains__(self, key: Any) -> bool:
        self._read.add(key)
        return super().__contains__(key)

    def _all(self) -> NotedAction:
        self._whole = True
        return self

    # Read whole: every field counts as read (dict(action) and json.dumps go through these).
    def __iter__(self):
        return dict.__iter__(self._all())

    def keys(self):
        return dict.keys(self._all())

    def items(self):
        return dict.items(self._all())

    def values(self):
        return dict.values(self._all())

    def copy(self) -> dict[str, Any]:
        return dict.copy(self._all())

    def __eq__(self, other: object) -> bool:
        return dict.__eq__(self._all(), other)

    def __ne__(self, other: object) -> bool:
        return dict.__ne__(self._all(), other)

    __hash__ = None  # type: ignore[assignment]  (as dict's)

    def unread(self) -> list[str]:
        """The fields nothing read, in the line's order."""
        if self._whole:
            return []
        return [str(key) for key in dict.keys(self) if key not in self._read]


def read_line(text: str) -> Any:
    """The JSON value of one line; LineError when it is not JSON a script may hold."""
    try:
        value = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise LineError(_("not valid JSON ({reason})").format(reason=exc.msg)) from None
    except RecursionError:
        raise LineError(_("nested more than {most} deep; an action nests a few levels at "
                          "most").format(most=MAX_DEPTH)) from None
    except LineError:
        raise
    except ValueError as exc:  # e.g. an integer beyond Python's int-string limit
        raise LineError(_("not valid JSON ({reason})").format(reason=shorten(str(exc)))) from None
    if _depth(value) > MAX_DEPTH:
        raise LineError(_("nested more than {most} deep; an action nests a few levels at "
                          "most").format(most=MAX_DEPTH))
    return value


def _integer(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > MAX_DIGITS:
        raise LineError(_("a number of {count} digits; no game needs one longer than "
                          "{most}").format(count=f"{count:,}", most=MAX_DIGITS))
    return int(digits)


def _constant(name: str) -> float:
    raise LineError(_("{name} is not a JSON number; write a number or text in quotes").format(
        name=name))


def _depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (0 for a plain value), without recursion."""
    deepest = 0
    todo = [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            return level
        todo.extend((child, level + 1) for child in children)
    return deepest


def setup_fields(line: dict[str, Any], options: dict[str, Any]) -> tuple[list[str], str, dict]:
    """The players, pack name and options of a setup line, each checked for its kind.

    ``options`` are the title's declared options with their defaults: an option must be one
    of them and have its default's kind (the engine checks its meaning when the game starts).
    """
    unknown = [key for key in line if key not in SETUP_KEYS]
    if unknown:
        raise LineError(_("the setup line has no field {field}; its fields are {known}").format(
            field=quoted(unknown[0]), known=", ".join(SETUP_KEYS)))
    players = line.get("players")
    example = '"players": ["Ana", "Ben"]'
    if not isinstance(players, list) or not players:
        raise LineError(_("players is a list of names in seating order, e.g. {example}; got "
                          "{value}").format(example=example, value=quoted(players)))
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise LineError(_("each player is a name in quotes, e.g. {example}; got {value}")
                            .format(example=example, value=quoted(name)))
    pack = line.get("pack", "demo")
    if not isinstance(pack, str) or not pack.strip() or "\0" in pack:
        raise LineError(_("pack is {demo}, {owner} or the path of a pack TOML file; got "
                          "{value}").format(demo='"demo"', owner='"owner"', value=quoted(pack)))
    given = line.get("options", {})
    if not isinstance(given, dict):
        raise LineError(_("options is a JSON object of option names and values, e.g. {example}; "
                          "got {value}").format(example='"options": {}', value=quoted(given)))
    for key, value in given.items():
        if key not in options:
            known = ", ".join(options) or _("none")
            raise LineError(_("unknown option {option}; this title's options: {known}").format(
                option=quoted(key), known=known))
        if not same_kind(value, options[key]):
            raise LineError(_("option {option} is {kind}, like its default {default}; got "
                              "{value}").format(option=key, kind=kind_of(options[key]),
                                                default=json.dumps(options[key]),
                                                value=quoted(value)))
    return list(players), pack, dict(given)


def same_kind(value: Any, default: Any) -> bool:
    """Is ``value`` of ``default``'s JSON kind (a list: every item of its items' kind)?"""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    if isinstance(default, list):
        return isinstance(value, list) and all(
            same_kind(v, default[0]) for v in value) if default else isinstance(value, list)
    return type(value) is type(default)


def kind_of(default: Any) -> str:
    if isinstance(default, bool):
        return _("true or false")
    if isinstance(default, int):
        return _("a whole number")
    if isinstance(default, float):
        return _("a number")
    if isinstance(default, str):
        return _("text in quotes")
    return _("a list")


def quoted(value: Any, most: int = 40) -> str:
    """A value as a message quotes it (JSON), cut short: a script may hold megabytes."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) <= most:
        return text
    return _("{start}... ({count} characters)").format(start=text[: most - 3],
                                                      count=f"{len(text):,}")


_LONG_WORD = re.compile(r"\S{" + str(LONGEST_WORD + 1) + ",}")


def shorten(message: str) -> str:
    """``message`` with every overlong word (a name or path of megabytes) and the whole cut
    short, so a hostile script never has its input echoed back whole."""
    def cut(match: re.Match) -> str:
        word = match.group(0)
        return _("{start}... ({count} characters)").format(start=word[:LONGEST_WORD - 9],
                                                          count=f"{len(word):,}")

    message = _LONG_WORD.sub(cut, message)
    if len(message) > LONGEST_MESSAGE:
        message = _("{start}... ({count} characters)").format(
            start=message[:LONGEST_MESSAGE - 30], count=f"{len(message):,}")
    return message
