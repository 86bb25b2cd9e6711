"""Helpers for the Back in Time scenario tests: a table set up from the demo pack, actions in
their JSON form, and the words the table is told.

The demo board is a 5 x 4 grid (rows top to bottom, links between side-by-side places):

    george-house  elm-st     hill-valley-high  oak-st     lorraine-house
    pine-st       maple-ave  town-square       cedar-ln   birch-rd
    doc-house     river-rd   clock-tower       walnut-st  south-shops
    main-st-1     main-st-2  main-st-3         main-st-4  main-st-5

The DeLorean track is elm-st, maple-ave, pine-st, doc-house, main-st-1 .. main-st-5 (Ready Zone:
main-st-3 to main-st-5). Dice: each colour's symbol three times, wild twice, Biff once.
"""

from __future__ import annotations

import copy
from typing import Any

from companion.content import demo_pack
from companion.titles.back_in_time import rules

PACK = demo_pack("back_in_time")
NAMES = ("Ana", "Ben", "Cy", "Dee")
CHARACTERS = ("marty", "doc", "jennifer", "einstein")
END = {"type": "end"}
READY = {"type": "ready"}
RESOLVE = {"type": "resolve"}


def sections(**changes: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The demo pack's entries by section, with whole sections replaced by ``changes``."""
    out = copy.deepcopy(PACK.to_setup())
    out.update(changes)
    return out


def table(players: int = 2, characters: tuple[str, ...] = CHARACTERS,
          opportunities: tuple[str, ...] = ("opp-01", "opp-02", "opp-03"),
          options: dict[str, Any] | None = None, content: Any = PACK) -> rules.State:
    """A game after setup: characters chosen in seat order, the Opportunity cards laid out."""
    state = rules.new_game(list(NAMES[:players]), options or {}, content)
    for name, character in zip(NAMES[:players], characters, strict=False):
        state = play(state, {"type": "character", "player": name, "character": character})
    for card in opportunities:
        state = play(state, {"type": "draw", "deck": "opportunity", "card": card})
    return state


def run(state: rules.State, *actions: dict[str, Any]) -> tuple[rules.State, list[dict]]:
    """Apply ``actions`` in turn; the final state and every effect, in order."""
    effects: list[dict] = []
    for action in actions:
        state, more = rules.apply(state, action)
        effects += more
    return state, effects


def play(state: rules.State, *actions: dict[str, Any]) -> rules.State:
    return run(state, *actions)[0]


def texts(effects: list[dict]) -> list[str]:
    return [e["text"] for e in effects]


def kinds(effects: list[dict]) -> list[str]:
    return [e["kind"] for e in effects]


def arrange(state: rules.State, **where: Any) -> rules.State:
    """A copy of ``state`` with movers placed: player names or george/lorraine/biff -> place;
    any other keyword sets that state field (love=..., delorean=..., parts=...)."""
    new = state.clone()
    for key, value in where.items():
        if key in ("george", "lorraine", "biff"):
            new.npcs[key] = value
        elif key in NAMES:
            new.player(key).place = value
        else:
            setattr(new, key, value)
    return new


def give(state: rules.State, player: str, tiles=(), items=()) -> rules.State:
    """A copy of ``state`` where ``player`` also holds these tiles / items (face up)."""
    new = state.clone()
    p = new.player(player)
    for t in tiles:
        for q in new.players:
            if t in q.tiles:
                q.tiles.remove(t)
        if t in new.decks["tile"]:
            new.decks["tile"].remove(t)
        p.tiles.append(t)
    for i in items:
        new.items_left = tuple(x for x in new.items_left if x != i)
        p.items.append(i)
    return new


def roll(*dice: str) -> dict[str, Any]:
    """A roll action from "colour:face" words, e.g. roll("love:wild", "love:biff")."""
    out = []
    for d in dice:
        colour, _sep, face = d.partition(":")
        out.append({"colour": colour, "face": face})
    return {"type": "roll", "dice": out}


def challenge(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": "challenge", "challenge": kind, **fields}


def add(tile: str | None = None, item: str | None = None, player: str | None = None) -> dict:
    action: dict[str, Any] = {"type": "add"}
    if tile:
        action["tile"] = tile
    if item:
        action["item"] = item
    if player:
        action["player"] = player
    return action


def attempt(state: rules.State, kind: str, tiles: list[str], dice: list[str],
            **fields: Any) -> tuple[rules.State, list[dict]]:
    """Start a challenge, add the current player's ``tiles``, roll ``dice``: the rolled state."""
    return run(state, challenge(kind, **fields), *(add(t) for t in tiles), READY, roll(*dice))


def next_turn(state: rules.State, turns: int = 1) -> rules.State:
    """End ``turns`` turns, drawing the first card of each pile the tracker asks for."""
    for _ in range(turns):
        state = play(state, END)
        while state.queue and state.queue[0]["step"] == "draw":
            deck = state.queue[0]["deck"]
            state = play(state, {"type": "draw", "deck": deck, "card": state.decks[deck][0]})
    return state


def table_session(journal, characters=("marty", "doc"),
                  cards=("opp-01", "opp-02", "opp-03"), actions=(), pack=PACK):
    """A table session (companion.session) whose game has these characters, Opportunity cards
    and actions recorded in ``journal``; a card the tracker or a reward asks for is the first
    of its pile unless the next scripted action draws it."""
    from companion.match import Match
    from companion.session import Session

    names = list(NAMES[:len(characters)])
    match = Match.new(journal, "back_in_time", names, {}, pack)
    for name, character in zip(names, characters, strict=True):
        match.push({"type": "character", "player": name, "character": character})
    for card in cards:
        match.push({"type": "draw", "deck": "opportunity", "card": card})
    for i, action in enumerate(actions):
        match.push(action)
        if i + 1 < len(actions) and actions[i + 1]["type"] == "draw":
            continue  # the script says which card
        while match.state.queue and match.state.queue[0]["step"] == "draw":
            deck = match.state.queue[0]["deck"]
            match.push({"type": "draw", "deck": deck, "card": match.state.decks[deck][0]})
    return Session(journal, names, lambda key: pack, title="back_in_time")
