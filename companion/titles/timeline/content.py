"""The Card Game's content pack: ``[[event]]``, ``[[identity]]`` and ``[[card]]`` sections.

The entries are described in ``model.py`` and ``docs/titles/timeline.md``. The printed TimeLine
events, ID cards and most game cards are not public: the owner registers their own box; the
built-in demo pack is invented except the entries the rulebook states (``source = "rulebook"``).
"""

from __future__ import annotations

from typing import Any

from companion.titles.timeline.model import (
    BOX_COUNTS,
    TYPE_NAMES,
    check_content,
    validate_card,
    validate_event,
    validate_identity,
)
from companion.titles.timeline.rules import HAND_SIZE

SECTIONS = {"event": validate_event, "identity": validate_identity, "card": validate_card}


def _list(text: str) -> list[str]:
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def _requires(text: str) -> dict[str, str]:
    out = {}
    for part in _list(text):
        if "=" not in part:
            raise ValueError(
                f"--requires {text!r}: write events and sides like A-1=altered,C-5=original"
            )
        eid, side = (x.strip() for x in part.split("=", 1))
        out[eid.upper()] = side
    return out


def _flag(text: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "true", "yes", "y", ""):
        return True
    if value in ("0", "false", "no", "n"):
        return False
    raise ValueError(f"{text!r}: write yes or no")


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a whole number") from exc


# `companion cards add` fields: flag -> (section, help, parser of the flag's text). The section
# of an entry is the one its flags name; ``note`` (section None) goes with any of them.
FIELDS: dict[str, tuple[str | None, str, Any]] = {
    "kind": ("event", '"linchpin" or "ripple"', str),
    "original": ("event", "the headline of the original (blue or purple) side", str),
    "altered": ("event", "the headline of the altered side", str),
    "ripples": ("event", "the events a Linchpin's card lists, in order, e.g. A-6,A-5", _list),
    "pair": ("event", '"and" or "or", on a Ripplepoint depending on two Linchpins', str),
    "holder": ("event", "the Item only whose holder may flip this Linchpin", str),
    "character": ("identity", "the character on the ID card, e.g. Verne Brown", str),
    "requires": ("identity", "the events and sides, e.g. A-1=altered,A-5=altered,C-5=original",
                 _requires),
    "name": ("card", "the card's name as printed", str),
    "type": ("card", "item, time_machine, doubleback, action or power_action", str),
    "count": ("card", "how many copies the box has", _number),
    "memo": ("card", "yes if it cancels the card being played", _flag),
    "draw_bonus": ("card", "Item: extra cards drawn at the start of each of your turns", _number),
    "only": ("card", "Time Machine: the only Linchpins it flips, e.g. A-1,A-2", _list),
    "never": ("card", "Time Machine: Linchpins it cannot flip, e.g. B-1", _list),
    "needs": ("card", "Time Machine: the Item you must have in front of you", str),
    "linchpin": ("card", "DoubleBack: the Linchpin it flips", str),
    "item": ("card", "DoubleBack: the Item that gives it a second flip", str),
    "hitch": ("card", "yes: flip a Linchpin if the previous player changed the TimeLine", _flag),
    "steal": ("card", "yes: take an Item from in front of another player", _flag),
    "trash": ("card", "yes: another player discards an Item from in front of them", _flag),
    "replay": ("card", '"discard" or "deck": play a card chosen from there', str),
    "draw": ("card", "cards to draw", _number),
    "extra_play": ("card", "more plays this turn", _number),
    "out_of_turn": ("card", "Power Action: yes if it may be played when it is not your turn",
                    _flag),
    "note": (None, "anything to remember about the entry", str),
}


def parse_field(name: str, text: str) -> Any:
    """The value of a ``cards add`` flag, from the text typed."""
    if name not in FIELDS:
        raise ValueError(f"unknown field --{name}; known: {', '.join(FIELDS)}")
    return FIELDS[name][2](text)


def section_of(fields: dict[str, Any]) -> str:
    """The section an entry made of these ``cards add`` fields belongs to."""
    named = {FIELDS[f][0] for f in fields if f in FIELDS and FIELDS[f][0]}
    if len(named) != 1:
        raise ValueError(
            "give the fields of one kind of entry: an event (--kind ...), an ID card "
            "(--character ...) or a game card (--type ...)"
        )
    return named.pop()


def describe(section: str, entry: dict[str, Any]) -> str:
    """One line for ``companion cards list``."""
    if section == "event":
        if entry["kind"] == "linchpin":
            what = f"Linchpin -> {', '.join(entry.get('ripples', []))}"
            if entry.get("holder"):
                what += f" (holder of {entry['holder']})"
        else:
            pair = f" ({entry['pair'].upper()})" if entry.get("pair") else ""
            what = f"Ripplepoint{pair}"
        sides = f"{entry.get('original', '')} / {entry.get('altered', '')}"
        return f"{entry['id']:<4} {what:<34} {sides}"
    if section == "identity":
        needs = ", ".join(
            f"{'alt ' if side == 'altered' else ''}{eid}" for eid, side in entry["requires"].items()
        )
        return f"{entry['character']:<22} {needs}"
    kind = TYPE_NAMES[entry["type"]]
    count = f"x{entry.get('count', 1)}"
    does = [
        key if value is True else f"{key}={','.join(value) if isinstance(value, list) else value}"
        for key, value in entry.items()
        if key not in ("id", "source", "note", "name", "type", "count")
    ]
    return f"{entry['name']:<30} {kind:<13} {count:<4} {' '.join(does)}"


def check_pack(pack) -> None:
    """Whole-pack checks: the ripple graph, the ID cards' events, the cards' Items."""
    check_content(pack.entries("event"), pack.entries("identity"), pack.entries("card"))


def playable(pack, players: int) -> str | None:
    """Why the pack cannot serve a game of ``players`` players (None: it can)."""
    events = pack.entries("event")
    if not any(e["kind"] == "linchpin" for e in events):
        return "the pack has no TimeLine Linchpins; register the TimeLine events first"
    ids = len(pack.entries("identity"))
    if ids < players:
        return f"{players} players need {players} ID cards and the pack has {ids}"
    cards = sum(c.get("count", 1) for c in pack.entries("card"))
    need = HAND_SIZE * players + 1
    if cards < need:
        return (
            f"{players} players need at least {need} game cards (3 each and a draw pile) and "
            f"the pack has {cards}"
        )
    return None


def box_counts(pack) -> dict[str, int]:
    """Game cards per type, counting copies (the printed box: see ``model.BOX_COUNTS``)."""
    out = dict.fromkeys(BOX_COUNTS, 0)
    for card in pack.entries("card"):
        out[card["type"]] += card.get("count", 1)
    return out
