"""What to show after an action: ``screens_for(view, effects)`` turns the engine's effects and the
new public view into the screens to show, in order, so the daemon only has to show them.

    >>> players = [{"name": n, "cards_completed": 0, "step": 0, "steps": 3, "needs": 2}
    ...            for n in ("Ana", "Ben")]
    >>> view = {"phase": "roll", "turn": "Ben", "players": players, "pending": [],
    ...         "odds": None, "free_dice": 6, "doubleback": False, "winner": None}
    >>> effects = [{"kind": "turn", "text": "Ben - ROLL!", "player": "Ben"}]
    >>> [name for name, _ in named_screens_for(view, effects)]
    ['players', 'turn']

Merging: ripples of the same number in one batch become one notice ("RIPPLE: 4 -> Ana +1,
Ben +1"); instructions for the same player become one ("DOC: Next card 2 right") unless that
player completes a card in between; the advances of a lock are summed on the lock screen; the
losses of a paradox are shown on its last frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.display import screens as shared
from companion.titles.outatime import screens as s

Effect = dict[str, Any]


def _ripple_groups(effects: Sequence[Effect]) -> dict[int, list[tuple[str, int]]]:
    """Ripple gains by number, in order of first appearance; gains per player summed."""
    groups: dict[int, dict[str, int]] = {}
    for e in effects:
        if e["kind"] == "ripple":
            names = groups.setdefault(e["number"], {})
            names[e["player"]] = names.get(e["player"], 0) + 1
    return {n: list(g.items()) for n, g in groups.items()}


def lock_summary(effects: Sequence[Effect]) -> dict[str, Any] | None:
    """The lock in ``effects`` as the lock screen's arguments (dice, steps, player, ripples,
    paradox), or None. Useful for a proposal: apply the lock to a copy of the state and pass
    the effects here.
    """
    start = next((i for i, e in enumerate(effects) if e["kind"] == "lock"), None)
    if start is None:
        return None
    lock = effects[start]
    rest = []
    for e in effects[start + 1 :]:
        if e["kind"] in ("lock", "turn"):
            break
        rest.append(e)
    player = lock.get("player")
    steps = sum(1 for e in rest if e["kind"] == "advance" and e.get("player") == player)
    ripples: dict[str, int] = {}
    for e in rest:
        if e["kind"] == "ripple":
            ripples[e["player"]] = ripples.get(e["player"], 0) + 1
    paradox = next((e.get("size", 1) for e in rest if e["kind"] == "paradox"), 0)
    return {
        "dice": list(lock.get("dice", [])),
        "steps": steps,
        "player": player,
        "ripples": list(ripples.items()),
        "paradox": paradox,
    }


def _status(view: dict[str, Any]) -> list[tuple[str, Image.Image]]:
    """The screen that stays up: a decision to make, the odds, or whose turn it is."""
    pending = view.get("pending") or []
    if pending:
        d = pending[0]
        who = str(d.get("player", "")).upper()
        if d.get("decision") == "next":
            return [("menu_next", shared.menu(f"{who}: NEXT CARD", d["options"], 0))]
        if d.get("decision") == "target":
            return [("menu_target", shared.menu(f"{who}: WHO LOSES 1?", d["options"], 0))]
        return [("menu", shared.menu(f"{who}: CHOOSE", d.get("options", []), 0))]
    if view.get("odds"):
        return [("odds", s.odds(view["odds"], view.get("turn")))]
    return []


def named_screens_for(
    view: dict[str, Any], effects: Sequence[Effect]
) -> list[tuple[str, Image.Image]]:
    """Like ``screens_for`` with a short name for each screen (for files and logs)."""
    out: list[tuple[str, Image.Image]] = []
    ripples = _ripple_groups(effects)
    shown_ripples: set[int] = set()
    # instruction merging: (player, segment) -> total spaces; segment changes on completion
    segment: dict[str, int] = {}
    spaces: dict[tuple[str, int], int] = {}
    for e in effects:
        if e["kind"] == "instruction":
            key = (e["player"], segment.get(e["player"], 0))
            spaces[key] = spaces.get(key, 0) + e["spaces"]
        elif e["kind"] == "complete":
            segment[e["player"]] = segment.get(e["player"], 0) + 1
    shown_instr: set[tuple[str, int]] = set()
    segment.clear()
    losses: list[tuple[str, int]] = []
    last_turn = max((i for i, e in enumerate(effects) if e["kind"] == "turn"), default=-1)

    for i, e in enumerate(effects):
        kind = e["kind"]
        name = str(e.get("player", ""))
        if kind == "turn":
            if i != last_turn:
                continue
            if view.get("players"):
                out.append(("players", s.players(view)))
            dice = view.get("free_dice", 6) if view.get("turn") == name else 6
            out.append(("turn", s.turn(name, dice or 6, bool(view.get("doubleback")))))
        elif kind == "roll":
            out.append(("roll", s.roll(e.get("dice", []), name)))
        elif kind == "lock":
            summary = lock_summary(effects[i:])
            out.append(("lock", s.lock(confirmed=True, **summary)))
        elif kind == "ripple":
            if e["number"] not in shown_ripples:
                shown_ripples.add(e["number"])
                out.append(("ripple", s.ripple(e["number"], ripples[e["number"]])))
        elif kind == "instruction":
            key = (name, segment.get(name, 0))
            if key not in shown_instr and spaces[key]:
                shown_instr.add(key)
                out.append(("instruction", s.instruction(name, spaces[key])))
        elif kind == "stall":
            for k, img in enumerate(s.stall(name, e.get("loss", 1), e.get("moved"))):
                out.append((f"stall_{k}", img))
        elif kind == "paradox":
            losses = []
            for later in effects[i + 1 :]:
                if later["kind"] == "paradox_loss":
                    losses.append((later["player"], later.get("moved", 0)))
                elif later["kind"] in ("turn", "lock", "paradox"):
                    break
            gain = e.get("size", 1)
            for k, img in enumerate(s.paradox(name, gain, losses)):
                out.append((f"paradox_{k}", img))
        elif kind == "complete":
            segment[name] = segment.get(name, 0) + 1
            out.append(("complete", s.card_complete(name, e.get("count", 0), e["text"])))
        elif kind == "next":
            card = e["text"].split(": ", 1)[-1]
            out.append(("next", shared.notice(name.upper(), card)))
        elif kind == "last":
            out.append(("last", shared.notice("LAST CARD", name.upper(), "no Next card")))
        elif kind == "six":
            detail = e["text"].split(": ", 1)[-1]
            out.append(("six", shared.notice("ALL SIX!", name.upper(), detail)))
        elif kind == "doubleback":
            out.append(
                (
                    "doubleback",
                    shared.notice("DOUBLEBACK", name.upper(), f"reroll {e.get('dice', '')} dice"),
                )
            )
        elif kind == "no_die":
            out.append(("no_die", shared.notice("NO DIE FITS", name.upper(), "turn passes")))
        elif kind == "win":
            out.append(("win", shared.winner(name)))
            return out
        elif kind in ("advance", "paradox_loss"):
            continue  # on the lock screen / the paradox's last frame
        elif kind == "setup":
            out.append(("setup", shared.notice("SETUP", "CHOOSE CARDS", e["text"])))
        else:  # an effect this display does not know yet: its text, readable
            out.extend((kind, img) for img in shared.pages(kind.upper(), e.get("text", kind)))
    out.extend(_status(view))
    return out


def screens_for(view: dict[str, Any], effects: Sequence[Effect]) -> list[Image.Image]:
    """The screens to show, in order, after ``effects``; the last one stays up."""
    return [img for _, img in named_screens_for(view, effects)]
