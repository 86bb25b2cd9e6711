"""The era card game's content pack: character cards, event cards and VP tokens.

Every entry is a ``[[card]]`` table with a ``kind``:

- ``character``: ``role`` (marty, doc, george, lorraine, biff, jennifer), ``era`` (1955, 1985,
  2015, or ``any`` for the infinity mark), ``power``, ``clocks`` (the clock icons: the card's time
  cost, and the time it pays when discarded) and ``vp``;
- ``event``: ``era`` (the stack it belongs to), ``role`` (the character it needs) and ``effect``
  (its B side, one of the effects the rulebook lists for that era; needed for the advanced
  rules only);
- ``vp``: a VP token, ``era`` and ``value``, listed top first as the era's stack is built.

Optional ``name`` and ``note`` are for people. None of the printed contents are in the rulebook
summary: the owner registers their own box; the demo pack is invented and says so.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import _
from companion.titles.eras.rules import (
    EFFECTS,
    ERAS,
    EVENTS_PER_ERA,
    content_problem,
    facts,
    validate_entry,
)

SECTIONS = {"card": validate_entry}

# `companion cards add` fields: flag -> (section, help, parser of the flag's text)
FIELDS = {
    "kind": ("card", '"character", "event" or "vp"', str),
    "role": ("card", "marty, doc, george, lorraine, biff or jennifer", str),
    "era": ("card", "1955, 1985 or 2015 (a character card may say any: the infinity mark)", str),
    "power": ("card", "character: the power it pays when discarded to move the DeLorean", int),
    "clocks": ("card", "character: its clock icons (its time cost, and the time it pays)", int),
    "vp": ("card", "character: its victory points", int),
    "effect": ("card", "event: its B side, e.g. draw-1 (see docs/titles/eras.md)", str),
    "value": ("card", "vp token: its victory points", int),
    "name": ("card", "the name printed on the card, to find it by", str),
    "note": ("card", "anything to remember about the entry", str),
}


def parse_field(name: str, text: str) -> Any:
    """The value of a ``cards add`` flag, from the text typed."""
    if name in ("power", "clocks", "vp", "value"):
        try:
            return int(text)
        except ValueError as exc:
            raise ValueError(
                _("--{name} {text}: write a whole number, e.g. 2").format(name=name,
                                                                         text=repr(text))
            ) from exc
    return text


def describe(section: str, entry: dict[str, Any]) -> str:
    """One line for ``companion cards list``."""
    kind = entry.get("kind")
    if kind == "character":
        return _("character {role:<8} {era:<4} power {power} clocks {clocks} vp {vp}").format(
            role=entry["role"], era=entry["era"], power=entry["power"], clocks=entry["clocks"],
            vp=entry["vp"])
    if kind == "event":
        effect = entry.get("effect")
        side = _(EFFECTS[effect][1]) if effect else _("(B side not registered)")
        return _("event     {era} {role:<8} B: {side}").format(era=entry["era"],
                                                               role=entry["role"], side=side)
    return _("vp token  {era} value {value}").format(era=entry["era"], value=entry["value"])


def _split(pack) -> tuple[list, list, list]:
    entries = pack.entries("card")
    return (
        [e for e in entries if e["kind"] == "character"],
        [e for e in entries if e["kind"] == "event"],
        [e for e in entries if e["kind"] == "vp"],
    )


def check_pack(pack) -> None:
    """Whole-pack checks that hold even while an owner is still registering their box."""
    events = _split(pack)[1]
    for era in ERAS:
        n = sum(1 for e in events if e["era"] == era)
        if n > EVENTS_PER_ERA:
            raise ValueError(
                _("{n} event cards for {era}: the game has {most} per era; remove the extra "
                  "ones").format(n=n, era=era, most=EVENTS_PER_ERA)
            )


def playable(pack, players: int) -> str | None:
    """Why the pack cannot serve a game of ``players`` (None: it can)."""
    if not facts.min_players <= players <= facts.max_players:
        return _("the game takes {low}-{high} players, not {n}").format(
            low=facts.min_players, high=facts.max_players, n=players)
    characters, events, tokens = _split(pack)
    for era in ERAS:
        n = sum(1 for e in events if e["era"] == era)
        if n != EVENTS_PER_ERA:
            return _("{era} has {n} event cards registered; the game has {need}: register the "
                     "rest with `companion cards add`").format(era=era, n=n, need=EVENTS_PER_ERA)
        t = sum(1 for e in tokens if e["era"] == era)
        if t < EVENTS_PER_ERA:
            return _("{era} has {n} VP tokens registered; it needs {need}, one per "
                     "event").format(era=era, n=t, need=EVENTS_PER_ERA)
    return content_problem(characters, events, tokens, players, facts.options["hand"])
