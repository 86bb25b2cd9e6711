"""OUTATIME's content pack: the Power cards, as ``[[card]]`` entries.

A card is ``id``, ``kind`` ("0.2", "0.3", "0.4" or "td"), ``steps`` (the die numbers in the
order they are completed: left to right, bottom to top on a Temporal Displacement card) and an
optional ``note``. The printed sequences are not public: the owner registers their own box.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import N_, _
from companion.titles.outatime.rules import HAND, KINDS, validate_card

SECTIONS = {"card": validate_card}

# `companion cards add` fields: flag -> (section, help (translated where shown), parser)
FIELDS = {
    "kind": ("card", N_('"0.2", "0.3", "0.4" or "td"'), str),
    "steps": ("card", N_("die numbers in the order they are completed, e.g. 3,4,2,5"), None),
    "note": ("card", N_("anything to remember about the card"), str),
}


def parse_field(name: str, text: str) -> Any:
    """The value of a ``cards add`` flag, from the text typed."""
    if name == "steps":
        try:
            return [int(s) for s in text.replace("-", ",").replace(" ", ",").split(",") if s]
        except ValueError as exc:
            raise ValueError(_("--steps {text}: write die numbers like 3,4,2,5").format(
                text=repr(text))) from exc
    return text


def describe(section: str, entry: dict[str, Any]) -> str:
    """One line for ``companion cards list``."""
    steps = "-".join(str(s) for s in entry.get("steps", []))
    return f"{entry.get('kind', ''):<4} {steps:<16}"


def playable(pack, players: int) -> str | None:
    """Why the pack cannot deal a game of ``players`` (None: it can)."""
    for kind in KINDS:
        have = sum(1 for c in pack.cards if c["kind"] == kind)
        need = HAND[kind] * players
        if have < need and players > 2:
            return _(
                "{players} players need {need} {kind} cards and the pack has {have}; register "
                "more cards with {command} or play with fewer players"
            ).format(players=players, need=need, kind=kind, have=have,
                     command="`companion cards add`")
        if have < need:  # the fewest players the game takes
            return _(
                "{players} players need {need} {kind} cards and the pack has {have}; register "
                "more cards with {command}"
            ).format(players=players, need=need, kind=kind, have=have,
                     command="`companion cards add`")
    return None
