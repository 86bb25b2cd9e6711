"""The Card Game's content pack: ``[[event]]``, ``[[identity]]`` and ``[[card]]`` sections.

The entries are described in ``model.py`` and ``docs/titles/timeline.md``. The printed TimeLine
events, ID cards and most game cards are not public: the owner registers their own box; the
built-in demo pack is invented except the entries the rulebook states (``source = "rulebook"``).
"""

from __future__ import annotations

from typing import Any

from companion.i18n import N_, _
from companion.titles.timeline.model import (
    BOX_COUNTS,
    check_content,
    validate_card,
    validate_event,
    validate_identity,
)
from companion.titles.timeline.rules import HAND_SIZE, type_word

SECTIONS = {"event": validate_event, "identity": validate_identity, "card": validate_card}


def _list(text: str) -> list[str]:
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def _requires(text: str) -> dict[str, str]:
    out = {}
    for part in _list(text):
        if "=" not in part:
            raise ValueError(
                _("--requires {text}: write events and sides like A-1=altered,C-5=original")
                .format(text=repr(text))
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
    raise ValueError(_("{text}: write yes or no").format(text=repr(text)))


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError as exc:
        raise ValueError(_("{text} is not a whole number").format(text=repr(text))) from exc


# `companion cards add` fields: flag -> (section, help, parser of the flag's text). The section
# of an entry is the one its flags name; ``note`` (section None) goes with any of them.
FIELDS: dict[str, tuple[str | None, str, Any]] = {
    "kind": ("event", N_('"linchpin" or "ripple"'), str),
    "original": ("event", N_("the headline of the original (blue or purple) side"), str),
    "altered": ("event", N_("the headline of the altered side"), str),
    "ripples": ("event", N_("the events a Linchpin's card lists, in order, e.g. A-6,A-5"), _list),
    "pair": ("event", N_('"and" or "or", on a Ripplepoint depending on two Linchpins'), str),
    "holder": ("event", N_("the Item only whose holder may flip this Linchpin"), str),
    "character": ("identity", N_("the character on the ID card, e.g. Verne Brown"), str),
    "requires": ("identity", N_("the events and sides, e.g. A-1=altered,A-5=altered,C-5=original"),
                 _requires),
    "name": ("card", N_("the card's name as printed"), str),
    "type": ("card", N_("item, time_machine, doubleback, action or power_action"), str),
    "count": ("card", N_("how many copies the box has"), _number),
    "memo": ("card", N_("yes if it cancels the card being played"), _flag),
    "draw_bonus": ("card", N_("Item: more cards drawn at the start of your turns"), _number),
    "only": ("card", N_("Time Machine: the only Linchpins it flips, e.g. A-1,A-2"), _list),
    "never": ("card", N_("Time Machine: Linchpins it cannot flip, e.g. B-1"), _list),
    "needs": ("card", N_("Time Machine: the Item you must have in front of you"), str),
    "linchpin": ("card", N_("DoubleBack: the Linchpin it flips"), str),
    "item": ("card", N_("DoubleBack: the Item that gives it a second flip"), str),
    "hitch": ("card", N_("yes: flip a Linchpin if the last player changed the TimeLine"), _flag),
    "steal": ("card", N_("yes: take an Item from in front of another player"), _flag),
    "trash": ("card", N_("yes: another player discards an Item from in front of them"), _flag),
    "replay": ("card", N_('"discard" or "deck": play a card chosen from there'), str),
    "draw": ("card", N_("cards to draw"), _number),
    "extra_play": ("card", N_("more plays this turn"), _number),
    "out_of_turn": ("card", N_("Power Action: yes if it may be played when it is not your turn"),
                    _flag),
    "note": (None, N_("anything to remember about the entry"), str),
}


def parse_field(name: str, text: str) -> Any:
    """The value of a ``cards add`` flag, from the text typed."""
    if name not in FIELDS:
        raise ValueError(
            _("unknown field --{name}; known: {known}").format(name=name, known=", ".join(FIELDS))
        )
    return FIELDS[name][2](text)


def section_of(fields: dict[str, Any]) -> str:
    """The section an entry made of these ``cards add`` fields belongs to."""
    named = {FIELDS[f][0] for f in fields if f in FIELDS and FIELDS[f][0]}
    if len(named) != 1:
        raise ValueError(
            _(
                "give the fields of one kind of entry: an event (--kind ...), an ID card "
                "(--character ...) or a game card (--type ...)"
            )
        )
    return named.pop()


def describe(section: str, entry: dict[str, Any]) -> str:
    """One line for ``companion cards list``."""
    if section == "event":
        if entry["kind"] == "linchpin":
            what = _("Linchpin -> {ripples}").format(ripples=", ".join(entry.get("ripples", [])))
            if entry.get("holder"):
                what += " " + _("(holder of {item})").format(item=entry["holder"])
        else:
            pair = f" ({entry['pair'].upper()})" if entry.get("pair") else ""
            what = _("Ripplepoint") + pair
        sides = f"{entry.get('original', '')} / {entry.get('altered', '')}"
        return f"{entry['id']:<4} {what:<34} {sides}"
    if section == "identity":
        needs = ", ".join(
            f"{'alt ' if side == 'altered' else ''}{eid}" for eid, side in entry["requires"].items()
        )
        return f"{entry['character']:<22} {needs}"
    kind = type_word(entry)
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
        return _("the pack has no TimeLine Linchpins; register the TimeLine events first")
    ids = len(pack.entries("identity"))
    if ids < players:
        return _("{players} players need {players} ID cards and the pack has {ids}").format(
            players=players, ids=ids
        )
    cards = sum(c.get("count", 1) for c in pack.entries("card"))
    need = HAND_SIZE * players + 1
    if cards < need:
        return _(
            "{players} players need at least {need} game cards (3 each and a draw pile) and "
            "the pack has {cards}"
        ).format(players=players, need=need, cards=cards)
    return None


def box_counts(pack) -> dict[str, int]:
    """Game cards per type, counting copies (the printed box: see ``model.BOX_COUNTS``)."""
    out = dict.fromkeys(BOX_COUNTS, 0)
    for card in pack.entries("card"):
        out[card["type"]] += card.get("count", 1)
    return out
