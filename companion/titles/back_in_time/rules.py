"""Back in Time, the cooperative game: the complete rules as a pure engine.

The rules are those of the rulebook; where it is silent or ambiguous the decision taken is
written in ``docs/rules/back_in_time.md`` and tested. The board, the tracker columns, the cards
and the dice's faces come from a content pack (``data``). Actions are small JSON objects:

============  ==========================================================  ======================
type          fields                                                      who
============  ==========================================================  ======================
character     player, character (marty, doc, jennifer, einstein)          each player at setup
draw          deck, card                                                  chance (a card drawn)
move          tile or item; path, escort (optional)                       current player
step          to (an adjacent place)                                      current player, moving
escort        who (george or lorraine)                                    current player, moving
drop          -                                                           current player, moving
stop          -                                                           current player, moving
power         to; who (Jennifer's power)                                  current player
challenge     challenge (love, delorean, biff, part, opportunity,         current player
              trouble); part or card
add           tile or item; player (an assisting player)                  current player
cancel        -                                                           before the roll
ready         -                                                           dice chosen: roll them
roll          dice: [{colour, face}, ...] (the dice rolled)               chance (the camera)
reroll        dice: positions of the dice to reroll                       current player, once
modify        tile or item; player; die (position)                        current player
resolve       -                                                           current player
discard       player, tile                                                a player over the limit
end           -                                                           current player
============  ==========================================================  ======================

Faces: ``speed``, ``knowledge``, ``courage``, ``love``, ``wild``, ``biff``; a die's colour is
the name of its symbol.

    >>> from companion.content import demo_pack
    >>> state = new_game(["Ana", "Ben"], {}, demo_pack("back_in_time"))
    >>> actor(state), [a["character"] for a in legal_actions(state)]
    ('Ana', ['marty', 'doc', 'jennifer', 'einstein'])
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion.i18n import N_, _, ngettext
from companion.titles.api import (
    CHANCE,
    TERMINAL,
    Action,
    ContentCache,
    Effect,
    Facts,
    RuleError,
    check_players,
    known_options,
)
from companion.titles.back_in_time import data, odds
from companion.titles.back_in_time.data import (
    BIFF,
    CHARACTERS,
    DICE_PER_COLOUR,
    KNOCKDOWN_TOKENS,
    LOVE_PLAIN_TOP,
    LOVE_TOP,
    PARTS,
    PHOTOS,
    TRACKER_SPACES,
    WILD,
    Content,
)

facts = Facts(
    key="back_in_time",
    name="Back in Time",
    min_players=2,
    max_players=4,
    cooperative=True,
    dice="back_in_time",
    chance="coloured challenge dice read by the camera; cards and Power Tiles drawn",
    options={"final_turn_actions": False},
)

TOP = LOVE_TOP
DECKS = ("opportunity", "movement", "trouble1", "trouble2", "trouble3", "tile")


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Player:
    name: str
    character: str | None = None
    place: str = ""
    tiles: list[str] | None = None
    down: list[str] | None = None  # face-down (exhausted) tiles
    items: list[str] | None = None
    items_down: list[str] | None = None  # face-down items (used, or gained this turn)

    def clone(self) -> Player:
        return Player(self.name, self.character, self.place, list(self.tiles or ()),
                      list(self.down or ()), list(self.items or ()), list(self.items_down or ()))


@dataclass(slots=True)
class State:
    content: Content
    options: dict[str, Any]
    players: list[Player]
    phase: str = "characters"  # characters, play, over
    turn: int = 0
    turns: int = 0  # turns begun after the first
    tracker: int = 1
    love: int = 0
    photos: int = PHOTOS
    delorean: int = 0  # index on the DeLorean track
    parts: tuple[str, ...] = ()  # Parts already at Doc's House
    npcs: dict[str, str] | None = None
    biff_down: bool = False
    tokens: int = 0
    opportunities: tuple[str, ...] = ()
    trouble: str | None = None
    decks: dict[str, list[str]] | None = None
    movement_discard: tuple[str, ...] = ()
    items_left: tuple[str, ...] = ()  # the Item stack, top first
    power_used: bool = False
    moving: dict[str, Any] | None = None  # {"left": n, "escort": npc or None}
    challenge: dict[str, Any] | None = None
    queue: tuple[dict[str, Any], ...] = ()
    final_turn: bool = False
    result: str | None = None  # "won" or "lost"
    reason: str = ""

    def clone(self) -> State:
        ch = self.challenge
        if ch is not None:
            ch = {**ch, "dice": [dict(d) for d in ch["dice"]], "roll": list(ch["roll"])}
        return State(
            self.content, self.options, [p.clone() for p in self.players], self.phase,
            self.turn, self.turns, self.tracker, self.love, self.photos, self.delorean,
            self.parts, dict(self.npcs or {}), self.biff_down, self.tokens, self.opportunities,
            self.trouble, dict(self.decks or {}), self.movement_discard, self.items_left,
            self.power_used, dict(self.moving) if self.moving else None, ch, self.queue,
            self.final_turn, self.result, self.reason,
        )

    @property
    def current(self) -> Player:
        return self.players[self.turn]

    def player(self, name: Any) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise RuleError(
            _("no player called {name!r} (players: {names})").format(
                name=name, names=", ".join(p.name for p in self.players)
            )
        )

    def by_character(self, character: str) -> Player | None:
        for p in self.players:
            if p.character == character:
                return p
        return None

    def limit(self, p: Player) -> int:
        extra = any(self.content.items[i]["kind"] == "backpack" for i in p.items or ())
        return data.TILE_LIMIT + (data.BACKPACK_EXTRA if extra else 0)


# A content pack's checked entries and lookups, kept while the pack object lives: a simulator
# starts many games from one pack. (A recorded setup's plain dict is checked every time.)
_COMPILED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _sections(content: Any) -> dict[str, list[dict[str, Any]]]:
    try:
        sections = data.sections_of(content)
        data.check_consistent(sections)
    except ValueError as exc:
        raise RuleError(str(exc)) from exc
    return sections


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options over their defaults (one, ``final_turn_actions``, true or false)."""
    return known_options(facts, options)


def new_game(players: list[str], options: dict[str, Any], content: Any) -> State:
    """A new game; ``content`` is a content pack or its entries by section."""
    check_players(facts, players)
    opts = check_options(options)
    cached = _COMPILED.get(content) if hasattr(content, "sections") else None
    sections = cached[0] if cached else _sections(content)
    why = data.missing(sections, len(players))
    if why:
        raise RuleError(why)
    c = cached[1] if cached else Content(sections)
    if cached is None and hasattr(content, "sections"):
        _COMPILED[content] = (sections, c)
    return State(c, opts, [Player(n) for n in players],
                 tracker=c.trackers[len(players)]["start"], love=c.love_start)


# --------------------------------------------------------------------------- queries


def actor(state: State) -> str:
    if state.phase == "over":
        return TERMINAL
    if state.phase == "characters":
        return next(p.name for p in state.players if p.character is None)
    if state.queue:
        step = state.queue[0]
        return step["player"] if step["step"] == "limit" else CHANCE
    if state.challenge is not None and state.challenge["stage"] == "roll":
        return CHANCE
    return state.current.name


def is_terminal(state: State) -> bool:
    return state.phase == "over"


def winners(state: State) -> list[str]:
    return [p.name for p in state.players] if state.result == "won" else []


def zone(state: State) -> str:
    """The Love Meter zone: ``negative`` (double photo), ``plain`` (0-12) or ``heart``."""
    return _zone(state.love)


def _zone(love: int) -> str:
    return "negative" if love < 0 else "plain" if love <= LOVE_PLAIN_TOP else "heart"


def delorean_place(state: State) -> str:
    return state.content.track[state.delorean]


def delorean_limit(state: State) -> int:
    """How far along its track the DeLorean may go now: Doc's House without all three Parts."""
    c = state.content
    return len(c.track) - 1 if len(state.parts) == len(PARTS) else c.doc_index


def participants(state: State) -> list[Player]:
    """The current player and everyone at their place (who may assist)."""
    here = state.current.place
    return [state.current] + [p for p in state.players if p is not state.current
                              and p.place == here]


def available_challenges(state: State) -> list[Action]:
    """Challenges the current player may attempt where they stand."""
    if state.phase != "play" or state.queue or state.challenge is not None:
        return []
    p = state.current
    if not _die_sources(state, p, p):
        return []
    return _challenges_here(state, p)


def _challenges_here(state: State, p: Player) -> list[Action]:
    c = state.content
    here = p.place
    npcs = state.npcs
    out: list[Action] = []
    if npcs["george"] == here and npcs["lorraine"] == here:
        out.append({"type": "challenge", "challenge": "love"})
    if delorean_place(state) == here:
        out.append({"type": "challenge", "challenge": "delorean"})
    if npcs["biff"] == here and not state.biff_down:
        out.append({"type": "challenge", "challenge": "biff"})
    for part in PARTS:
        if part not in state.parts and c.part_place[part] == here:
            out.append({"type": "challenge", "challenge": "part", "part": part})
    for card in state.opportunities:
        entry = c.opportunity[card]
        if entry["place"] == here and _character_here(state, entry.get("character"), here):
            out.append({"type": "challenge", "challenge": "opportunity", "card": card})
    if state.trouble and c.trouble[state.trouble]["place"] == here:
        out.append({"type": "challenge", "challenge": "trouble", "card": state.trouble})
    return out


def _character_here(state: State, character: str | None, here: str) -> bool:
    if character is None:
        return True
    p = state.by_character(character)
    return p is not None and p.place == here


def need_of(state: State, ch: dict[str, Any]) -> tuple[dict[str, int], str | None, int]:
    """(symbols needed to succeed, the symbol counted by a count challenge, its useful room)."""
    kind = ch["kind"]
    c = state.content
    if kind == "love":
        return {"love": 1}, "love", TOP - state.love
    if kind == "delorean":
        return {"speed": 1}, "speed", delorean_limit(state) - state.delorean
    if kind == "biff":
        return {"courage": 1}, "courage", 1 + KNOCKDOWN_TOKENS
    if kind == "part":
        return {"knowledge": c.part_cost[ch["target"]]}, None, 0
    card = c.opportunity[ch["target"]] if kind == "opportunity" else c.trouble[ch["target"]]
    return dict(card["need"]), None, 0


def reroll_need(state: State, ch: dict[str, Any]) -> dict[str, int]:
    """The need a proposed reroll aims at: the challenge's own, or for a count challenge as many
    symbols as can still help (the most the dice can give, capped by the room on the board)."""
    need, symbol, room = need_of(state, ch)
    if symbol is None:
        return need
    dice = sum(1 for d in ch["dice"] if d["face"] != BIFF)
    return {symbol: min(room, dice)} if room > 0 and dice else {}


def odds_now(state: State) -> dict[str, Any] | None:
    """Exact odds for the challenge in hand: before rolling, the chance that the chosen dice meet
    the challenge with the best use of the reroll; after the first roll, the best reroll."""
    ch = state.challenge
    if ch is None or not ch["dice"]:
        return None
    layout = state.content.faces
    need, symbol, room = need_of(state, ch)
    colours = [d["colour"] for d in ch["dice"]]
    if ch["stage"] in ("dice", "roll") and not ch["rolled"]:
        out: dict[str, Any] = {"chance": round(odds.chance(layout, colours, need), 4),
                               "need": need}
        if symbol is not None:
            most = min(room, len(colours))
            out["at_least"] = [round(p, 4) for p in odds.at_least(layout, colours, symbol, most)]
        return out
    if ch["stage"] == "rolled":
        rolled = [(d["colour"], d["face"]) for d in ch["dice"]]
        dice, p = odds.best_reroll(layout, rolled, reroll_need(state, ch))
        return {"need": need, "met": odds.meets([d["face"] for d in ch["dice"]], need),
                "reroll": list(dice), "chance_after": p}
    return None


def legal_actions(state: State) -> list[Action]:
    """The decisions open to the actor (for chance: one template)."""
    if state.phase == "over":
        return []
    if state.phase == "characters":
        p = next(p for p in state.players if p.character is None)
        taken = {q.character for q in state.players}
        return [{"type": "character", "player": p.name, "character": c}
                for c in CHARACTERS if c not in taken]
    if state.queue:
        step = state.queue[0]
        if step["step"] == "limit":
            p = state.player(step["player"])
            return [{"type": "discard", "player": p.name, "tile": t} for t in p.tiles]
        return [{"type": "draw", "deck": step["deck"]}]
    ch = state.challenge
    if ch is not None:
        if ch["stage"] == "roll":
            return [{"type": "roll"}]
        return _challenge_actions(state, ch)
    return _turn_actions(state)


def _turn_actions(state: State) -> list[Action]:
    p = state.current
    c = state.content
    out: list[Action] = []
    mv = state.moving
    if mv is not None:
        if mv["left"] > 0:
            for n in c.nbr[p.place]:
                if not (mv["escort"] and n == c.town):
                    out.append({"type": "step", "to": n})
        if mv["escort"]:
            out.append({"type": "drop"})
        else:
            for npc in ("george", "lorraine"):
                if state.npcs[npc] == p.place:
                    out.append({"type": "escort", "who": npc})
        out.append({"type": "stop"})
    for t in p.tiles:
        if t not in p.down and c.tiles[t]["move"]:
            out.append({"type": "move", "tile": t})
    for i in p.items:
        if i not in p.items_down and c.items[i]["kind"] == "move":
            out.append({"type": "move", "item": i})
    out.extend(available_challenges(state))
    out.extend(_power_actions(state))
    out.append({"type": "end"})
    return out


def _power_actions(state: State) -> list[Action]:
    if state.power_used:
        return []
    p = state.current
    c = state.content
    if p.character == "marty":
        return [{"type": "power", "to": t}
                for t in _toward(c, state.npcs["lorraine"], p.place, npc=True)]
    if p.character == "doc":
        return [{"type": "power"}] if p.place != delorean_place(state) else []
    if p.character == "jennifer":
        return [{"type": "power", "who": q.name, "to": t}
                for q in state.players if q is not p
                for t in _toward(c, q.place, p.place, npc=False)]
    if p.character == "einstein":
        return [{"type": "power", "to": t} for t in _bark_places(state)]
    return []


def plain_dice(ch: dict[str, Any]) -> list[int]:
    """The positions of the challenge's dice that are neither a Biff nor wild: those a
    reroll would be for."""
    return [i for i, d in enumerate(ch["dice"]) if d["face"] not in (BIFF, WILD)]


def _challenge_actions(state: State, ch: dict[str, Any]) -> list[Action]:
    stage = ch["stage"]
    active = state.current
    out: list[Action] = []
    if stage == "dice":
        for q in participants(state):
            who = {} if q is active else {"player": q.name}
            for kind, ident, _colour in _die_sources(state, q, active, ch):
                out.append({"type": "add", kind: ident, **who})
        if any(d["player"] == active.name for d in ch["dice"]):
            out.append({"type": "ready"})
        out.append({"type": "cancel"})
        return out
    if stage == "rolled":
        # "Reroll any unlocked dice": every set of them, the best reroll first and then every
        # die that is neither a Biff nor already wild (what a player most often means).
        proposal = odds_now(state) or {}
        best = list(proposal.get("reroll") or [])
        every = plain_dice(ch)
        free = [i for i, d in enumerate(ch["dice"]) if d["face"] != BIFF]
        every_set = (c for n in range(1, len(free) + 1) for c in combinations(free, n))
        listed: set[tuple[int, ...]] = set()
        for dice in (tuple(best), tuple(every), *every_set):
            if dice and dice not in listed:
                listed.add(dice)
                out.append({"type": "reroll", "dice": list(dice)})
    out.extend(_modify_actions(state, ch))
    out.append({"type": "resolve"})
    return out


def _die_sources(state: State, q: Player, active: Player,
                 ch: dict[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """(kind, id, colour) for every face-up tile or item with which ``q`` may add a die."""
    c = state.content
    full = set()
    if ch is not None:
        counts: dict[str, int] = {}
        for d in ch["dice"]:
            counts[d["colour"]] = counts.get(d["colour"], 0) + 1
        full = {col for col, n in counts.items() if n >= DICE_PER_COLOUR}
    out = []
    for t in q.tiles:
        die = c.tiles[t]["die"]
        if die and t not in q.down and die not in full:
            out.append(("tile", t, die))
    for i in q.items:
        item = c.items[i]
        if (item["kind"] == "die" and i not in q.items_down and item["arg"] not in full
                and (q is active or item["assist"])):
            out.append(("item", i, item["arg"]))
    return out


def _modifier_sources(state: State, q: Player, active: Player) -> list[tuple[str, str, str]]:
    c = state.content
    out = []
    for t in q.tiles:
        mod = c.tiles[t]["modifier"]
        if mod and t not in q.down:
            out.append(("tile", t, mod))
    for i in q.items:
        item = c.items[i]
        if (item["kind"] in data.MODIFIERS and i not in q.items_down
                and (q is active or item["assist"])):
            out.append(("item", i, item["kind"]))
    return out


def _modify_actions(state: State, ch: dict[str, Any]) -> list[Action]:
    active = state.current
    out: list[Action] = []
    dice = ch["dice"]
    for q in participants(state):
        who = {} if q is active else {"player": q.name}
        for kind, ident, mod in _modifier_sources(state, q, active):
            if mod == "reroll_all":
                out.append({"type": "modify", kind: ident, **who})
                continue
            seen = set()
            for i, d in enumerate(dice):
                if d["face"] in (BIFF, WILD):
                    continue
                key = (d["colour"], d["face"]) if mod == "reroll" else d["face"]
                if key not in seen:
                    seen.add(key)
                    out.append({"type": "modify", kind: ident, "die": i, **who})
    return out


# --------------------------------------------------------------------------- geometry


def _toward(c: Content, start: str, target: str, npc: bool, most: int = 2) -> list[str]:
    """Places reachable from ``start`` in 1..``most`` steps that each bring the mover closer to
    ``target`` (an NPC never enters Town Square), nearest first."""
    dist = c.npc_dist[target] if npc else c.dist[target]
    nbr = c.npc_nbr if npc else c.nbr
    out: list[str] = []
    layer = [start]
    for _step in range(most):
        nxt = []
        for here in layer:
            for n in nbr[here]:
                if dist[n] == dist[here] - 1 and n not in nxt and n not in out:
                    nxt.append(n)
        out.extend(nxt)
        layer = nxt
    return out


def _step_toward(c: Content, start: str, target: str) -> str | None:
    """One NPC step from ``start`` toward ``target`` (first in board order on a tie)."""
    dist = c.npc_dist[target]
    if start == target or dist[start] >= data.INF:
        return None
    for n in c.npc_nbr[start]:
        if dist[n] == dist[start] - 1:
            return n
    return None


def _bark_places(state: State) -> list[str]:
    c = state.content
    p = state.current
    biff = state.npcs["biff"]
    if c.dist[p.place][biff] > 1:
        return []
    dist = c.npc_dist[biff]
    return [x for x in c.place_ids if x != c.town and 1 <= dist[x] <= 2]


def _nearest_couple(state: State) -> str | None:
    """George or Lorraine, whichever Biff reaches in fewer steps (George on a tie)."""
    c = state.content
    biff = state.npcs["biff"]
    best = None
    for npc in ("george", "lorraine"):
        d = c.npc_dist[state.npcs[npc]][biff]
        if d < data.INF and (best is None or d < best[0]):
            best = (d, npc)
    return best[1] if best else None


# --------------------------------------------------------------------------- chance


def sample_chance(state: State, rng: random.Random) -> Action:
    if state.queue and state.queue[0]["step"] == "draw":
        deck = state.queue[0]["deck"]
        return {"type": "draw", "deck": deck, "card": rng.choice(sorted(state.decks[deck]))}
    ch = state.challenge
    if ch is not None and ch["stage"] == "roll":
        faces = state.content.faces
        dice = [ch["dice"][i]["colour"] for i in ch["roll"]]
        return {"type": "roll", "dice": [{"colour": col, "face": rng.choice(faces[col])}
                                         for col in dice]}
    raise RuleError(_("no chance outcome is due now"))


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> tuple[State, list[Effect]]:
    """Apply one action; returns (new state, effects). ``state`` is left unchanged."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RuleError(_('an action is a JSON object with a "type", e.g. {example}').format(
            example='{"type": "end"}'))
    kind = action["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise RuleError(_("unknown action type {kind!r}; known: {known}").format(
            kind=kind, known=", ".join(sorted(_HANDLERS))))
    if state.phase == "over":
        raise RuleError(_("the game is over: {result}").format(result=_result_text(state)))
    if state.phase == "characters" and kind != "character":
        p = next(p for p in state.players if p.character is None)
        raise RuleError(_("{player} must first choose a character").format(player=p.name))
    if state.queue:
        step = state.queue[0]
        if step["step"] == "limit" and kind != "discard":
            raise RuleError(_("{player} holds too many Power Tiles and must first discard one")
                            .format(player=step["player"]))
        if step["step"] == "draw" and kind != "draw":
            raise RuleError(_("first draw the {deck} card").format(deck=_deck_name(step["deck"])))
    if kind in _CURRENT_PLAYER and state.phase == "play":
        who = action.get("player", state.current.name)
        if who != state.current.name and kind not in ("add", "modify"):
            if kind == "power":
                raise RuleError(_("special powers are used only in your own turn; it is "
                                  "{player}'s turn").format(player=state.current.name))
            raise RuleError(_("it is {player}'s turn").format(player=state.current.name))
    new = state.clone()
    effects: list[Effect] = []
    handler(new, action, effects)
    return new, effects


# actions taken by the current player (add and modify may name an assisting player)
_CURRENT_PLAYER = frozenset({"move", "step", "escort", "drop", "stop", "power", "challenge",
                             "cancel", "ready", "reroll", "resolve", "end", "add", "modify"})


def _effect(effects: list[Effect], kind: str, text: str, **fields: Any) -> None:
    effects.append({"kind": kind, "text": text, **fields})


def _str(action: Action, key: str, what: str) -> str:
    value = action.get(key)
    if not isinstance(value, str) or not value:
        raise RuleError(_('{what}: give "{key}" as text').format(what=what, key=key))
    return value


def _result_text(state: State) -> str:
    return _("the players won") if state.result == "won" else _("the players lost")


def _deck_name(deck: str) -> str:
    names = {
        "opportunity": _("Opportunity"),
        "movement": _("Movement"),
        "trouble1": _("level 1 Trouble"),
        "trouble2": _("level 2 Trouble"),
        "trouble3": _("level 3 Trouble"),
        "tile": _("Power Tile"),
    }
    return names.get(deck, deck)


def _place(state: State, place: str) -> str:
    return state.content.name(place)


def _need_play(state: State, what: str) -> None:
    if state.phase != "play":
        raise RuleError(_("cannot {what} now").format(what=what))
    if state.challenge is not None:
        raise RuleError(_("cannot {what} during a challenge: finish it first (RESOLVE the "
                          "roll, or CALL OFF before READY)").format(what=what))


def _end_move(state: State, effects: list[Effect]) -> None:
    mv = state.moving
    if mv is not None:
        state.moving = None
        if mv["escort"]:
            p = state.current
            _effect(effects, "drop", _("{npc} stays at {place}").format(
                npc=data.npc_name(mv["escort"]).upper(), place=_place(state, p.place)),
                npc=mv["escort"], place=p.place)


# ----- setup


def _do_character(state: State, action: Action, effects: list[Effect]) -> None:
    if state.phase != "characters":
        raise RuleError(_("characters are chosen at setup only"))
    p = next(p for p in state.players if p.character is None)
    if action.get("player", p.name) != p.name:
        raise RuleError(_("{player} chooses a character next (seating order)").format(
            player=p.name))
    character = action.get("character")
    if character not in CHARACTERS:
        raise RuleError(_("choose one of {chars}").format(chars=", ".join(CHARACTERS)))
    taken = {q.character: q.name for q in state.players if q.character}
    if character in taken:
        raise RuleError(_("{name} is already played by {player}").format(
            name=data.character_name(character), player=taken[character]))
    c = state.content
    p.character = character
    p.place = c.town
    p.tiles = list(c.starters[character])
    p.down, p.items, p.items_down = [], [], []
    _effect(effects, "character", _("{player} plays {name}: take 5 starter tiles face up")
            .format(player=p.name, name=data.character_name(character)),
            player=p.name, character=character)
    if all(q.character for q in state.players):
        _setup(state, effects)


def _setup(state: State, effects: list[Effect]) -> None:
    c = state.content
    state.phase = "play"
    state.npcs = {npc: c.role[role] for npc, role in data.NPC_HOMES.items()}
    state.decks = {
        "opportunity": sorted(c.opportunity),
        "movement": sorted(c.movement),
        "trouble1": sorted(c.trouble_levels[1]),
        "trouble2": sorted(c.trouble_levels[2]),
        "trouble3": sorted(c.trouble_levels[3]),
        "tile": sorted(c.standard),
    }
    state.items_left = tuple(c.item_order)
    n = len(state.players)
    lines = [
        _("SETUP: movers at {place}").format(place=_place(state, c.town)),
        _("GEORGE at {a}, LORRAINE at {b}, BIFF at {c}").format(
            a=_place(state, state.npcs["george"]), b=_place(state, state.npcs["lorraine"]),
            c=_place(state, state.npcs["biff"])),
        _("DELOREAN at the track start: {place}").format(place=_place(state, c.track[0])),
        _("PARTS face up: Cable at {a}, Gasoline at {b}, Hook at {c}").format(
            a=_place(state, c.part_place["cable"]), b=_place(state, c.part_place["gasoline"]),
            c=_place(state, c.part_place["hook"])),
        _("LOVE cube on Start ({n}), 6 photos face up").format(n=state.love),
        _("TURN TRACKER {n}P: cube on space {s}").format(n=n, s=state.tracker),
        _("SHUFFLE the decks; lay out 3 Opportunity cards"),
    ]
    for line in lines:
        _effect(effects, "setup", line)
    draws = [{"step": "draw", "deck": "opportunity"} for _ in range(3)]
    state.queue = (*draws, {"step": "turn"})
    _run(state, effects)


# ----- the queue: tracker icons, rewards, Biff dice, draws


def _run(state: State, effects: list[Effect]) -> None:
    """Carry out queued steps until one waits for a card draw or a player's decision."""
    while state.queue and state.phase != "over":
        step = state.queue[0]
        kind = step["step"]
        if kind == "draw":
            deck = step["deck"]
            if not state.decks[deck] and deck == "movement" and state.movement_discard:
                state.decks["movement"] = sorted(state.movement_discard)
                state.movement_discard = ()
                _effect(effects, "shuffle", _("SHUFFLE the Movement discards: a new pile"))
            if state.decks[deck]:
                text = (_("{player}: DRAW 1 Power Tile").format(player=step["player"])
                        if deck == "tile" else
                        _("DRAW 1 {deck} card").format(deck=_deck_name(deck)))
                _effect(effects, "draw", text, deck=deck,
                        **({"player": step["player"]} if deck == "tile" else {}))
                return
            state.queue = state.queue[1:]
            text = (_("no Power Tile left in the pile") if deck == "tile" else
                    _("no {deck} card left").format(deck=_deck_name(deck)))
            _effect(effects, "empty", text, deck=deck)
            continue
        if kind == "limit":
            p = state.player(step["player"])
            if len(p.tiles) > state.limit(p):
                _effect(effects, "limit", _("{player}: DISCARD 1 Power Tile (max {n})").format(
                    player=p.name, n=state.limit(p)), player=p.name)
                return
            state.queue = state.queue[1:]
            continue
        state.queue = state.queue[1:]
        if kind == "term":
            _term(state, step["term"], step["player"], effects)
        elif kind == "love_check":
            _love_check(state, effects)
        elif kind == "biff":
            _biff_dice(state, step["n"], effects)
        elif kind == "final":
            _final(state, effects)
        elif kind == "turn":
            name = state.current.name
            _effect(effects, "turn", _("{player}'s turn").format(player=name), player=name)


def _push_front(state: State, steps: list[dict[str, Any]]) -> None:
    state.queue = tuple(steps) + state.queue


def _do_draw(state: State, action: Action, effects: list[Effect]) -> None:
    if not state.queue or state.queue[0]["step"] != "draw":
        raise RuleError(_("no card is to be drawn now"))
    step = state.queue[0]
    deck = step["deck"]
    if action.get("deck", deck) != deck:
        raise RuleError(_("the card to draw now is a {deck} card").format(deck=_deck_name(deck)))
    card = action.get("card")
    pile = state.decks[deck]
    if not isinstance(card, str) or card not in pile:
        raise RuleError(_("{card!r} is not in the {deck} pile; it holds {cards}").format(
            card=card, deck=_deck_name(deck), cards=", ".join(pile)))
    state.decks[deck] = [x for x in pile if x != card]
    state.queue = state.queue[1:]
    if deck == "opportunity":
        state.opportunities = (*state.opportunities, card)
        entry = state.content.opportunity[card]
        _effect(effects, "opportunity", _("OPPORTUNITY {card} at {place}").format(
            card=_card_name(entry), place=_place(state, entry["place"])),
            card=card, place=entry["place"], name=_card_name(entry))
    elif deck == "movement":
        _movement_card(state, card, effects)
    elif deck == "tile":
        p = state.player(step["player"])
        p.tiles.append(card)
        tile = state.content.tiles[card]
        _effect(effects, "tile", _("{player} takes Power Tile {tile} face up").format(
            player=p.name, tile=_tile_text(tile)), player=p.name, tile=card)
        _push_front(state, [{"step": "limit", "player": p.name}])
    else:
        _new_trouble(state, card, effects)
    _run(state, effects)


def _card_name(entry: dict[str, Any]) -> str:
    return str(entry.get("name") or entry["id"])


def _tile_text(tile: dict[str, Any]) -> str:
    bits = []
    if tile["move"]:
        bits.append(_("move {n}").format(n=tile["move"]))
    if tile["die"]:
        bits.append(_("{colour} die").format(colour=tile["die"]))
    if tile["modifier"]:
        bits.append(_modifier_name(tile["modifier"]))
    return "{id} ({what})".format(id=tile["id"], what=" / ".join(bits))


def _modifier_name(mod: str) -> str:
    return {"wild": _("Change to Wild"), "reroll": _("Reroll 1"),
            "reroll_all": _("Reroll All")}[mod]


def _movement_card(state: State, card: str, effects: list[Effect]) -> None:
    c = state.content
    _effect(effects, "movement", _("MOVEMENT card {card}").format(card=card), card=card)
    for who, steps, toward in c.movement[card]:
        if who == "biff" and state.biff_down:
            _effect(effects, "npc", _("BIFF is knocked down and stays"), npc="biff", steps=0,
                    place=state.npcs["biff"])
            continue
        if toward == "nearest":
            toward = _nearest_couple(state) or "george"
        target = state.npcs[toward] if toward in state.npcs else toward
        _npc_walk(state, who, target, steps, effects)
    state.movement_discard = (*state.movement_discard, card)


def _npc_walk(state: State, who: str, target: str, steps: int, effects: list[Effect]) -> None:
    c = state.content
    start = state.npcs[who]
    moved = 0
    for _i in range(steps):
        nxt = _step_toward(c, state.npcs[who], target)
        if nxt is None:
            break
        state.npcs[who] = nxt
        moved += 1
    here = state.npcs[who]
    if moved:
        text = ngettext("{npc} {n} step to {place}", "{npc} {n} steps to {place}", moved)
    else:
        text = _("{npc} stays at {place}")
    _effect(effects, "npc", text.format(npc=data.npc_name(who).upper(), n=moved,
                                        place=_place(state, here)),
            npc=who, steps=moved, place=here, start=start)


def _new_trouble(state: State, card: str, effects: list[Effect]) -> None:
    c = state.content
    if state.trouble is not None:
        _effect(effects, "trouble_discard", _("DISCARD Trouble {card}: not resolved").format(
            card=_card_name(c.trouble[state.trouble])), card=state.trouble,
            name=_card_name(c.trouble[state.trouble]))
    state.trouble = card
    entry = c.trouble[card]
    _effect(effects, "trouble", _("TROUBLE {card} at {place}").format(
        card=_card_name(entry), place=_place(state, entry["place"])), card=card,
        place=entry["place"], level=entry["level"], name=_card_name(entry))
    _push_front(state, [{"step": "term", "term": t, "player": state.current.name}
                        for t in entry["effect"]])


# ----- effects on the board


def _term(state: State, term: str, player: str, effects: list[Effect]) -> None:
    kind, n, item = data.parse_term(term)
    if kind == "love":
        _love(state, n, effects)
    elif kind == "delorean":
        _delorean(state, n, effects)
    elif kind == "photo":
        if n < 0:
            _flip_down(state, -n, effects)
        else:
            up = min(n, PHOTOS - state.photos)
            state.photos += up
            _effect(effects, "photo_up", ngettext("FLIP {n} PHOTO face up",
                                                  "FLIP {n} PHOTOS face up", up).format(n=up)
                    if up else _("all photos are face up already"), count=up)
    elif kind == "tile":
        _push_front(state, [{"step": "draw", "deck": "tile", "player": player}
                            for _i in range(n)])
    elif kind == "item":
        _gain_item(state, state.player(player), item, effects)
    elif kind == "biff":
        _biff_walk(state, n, effects)


def _love(state: State, n: int, effects: list[Effect]) -> None:
    low = state.content.love_bottom
    new = max(low, min(TOP, state.love + n))
    moved = new - state.love
    state.love = new
    if moved:
        _effect(effects, "love", _("LOVE {n:+d}").format(n=moved), delta=moved, space=new)
    elif n > 0:
        _effect(effects, "love", _("LOVE is at the top: no change"), delta=0, space=new)
    else:
        _effect(effects, "love", _("LOVE is at the bottom: no change"), delta=0, space=new)


def _delorean(state: State, n: int, effects: list[Effect]) -> None:
    c = state.content
    limit = delorean_limit(state)
    new = max(0, min(limit, state.delorean + n)) if n > 0 else max(0, state.delorean + n)
    moved = new - state.delorean
    state.delorean = new
    if moved:
        _effect(effects, "delorean", _("DELOREAN {n:+d} to {place}").format(
            n=moved, place=_place(state, c.track[new])), delta=moved, place=c.track[new],
            space=new)
    if n > 0 and moved < n:
        if new == c.doc_index and len(state.parts) < len(PARTS):
            _effect(effects, "delorean_blocked",
                    _("DELOREAN stops at Doc's House: it needs all 3 Parts"), place=c.track[new])
        elif new == len(c.track) - 1:
            _effect(effects, "delorean_end", _("DELOREAN is at the end of its track"),
                    place=c.track[new])


def _flip_down(state: State, n: int, effects: list[Effect]) -> None:
    flipped = min(n, state.photos)
    state.photos -= flipped
    _effect(effects, "photo", ngettext("FLIP {n} PHOTO", "FLIP {n} PHOTOS", flipped).format(
        n=flipped), count=flipped, left=state.photos)
    if state.photos == 0:
        _game_over(state, "lost", _("the last photo is face down: Marty fades away"), effects)


def _love_check(state: State, effects: list[Effect]) -> None:
    z = zone(state)
    if z == "heart":
        _effect(effects, "love_check", _("LOVE CHECK: Heart Zone, no flip"), zone=z)
        return
    n = 2 if z == "negative" else 1
    _effect(effects, "love_check", ngettext("LOVE CHECK: {n} photo", "LOVE CHECK: {n} photos", n)
            .format(n=n), zone=z)
    _flip_down(state, n, effects)


def _gain_item(state: State, p: Player, item: str | None, effects: list[Effect]) -> None:
    left = state.items_left
    if item is None:
        item = left[0] if left else None
    if item is None or item not in left:
        _effect(effects, "item", _("no such Item card left"), player=p.name)
        return
    state.items_left = tuple(i for i in left if i != item)
    p.items.append(item)
    p.items_down.append(item)
    _effect(effects, "item", _("{player} takes ITEM {name} face down").format(
        player=p.name, name=state.content.items[item]["name"]), player=p.name, item=item)


def _biff_walk(state: State, n: int, effects: list[Effect]) -> None:
    """Biff ``n`` steps toward the nearer of George and Lorraine (a Trouble effect)."""
    if state.biff_down:
        _effect(effects, "npc", _("BIFF is knocked down and stays"), npc="biff", steps=0,
                place=state.npcs["biff"])
        return
    for _i in range(n):
        if not _biff_step(state, effects):
            break


def _biff_step(state: State, effects: list[Effect]) -> bool:
    c = state.content
    biff = state.npcs["biff"]
    if biff in (state.npcs["george"], state.npcs["lorraine"]):
        return False
    who = _nearest_couple(state)
    nxt = _step_toward(c, biff, state.npcs[who]) if who else None
    if nxt is None:
        _effect(effects, "npc", _("BIFF cannot reach George or Lorraine"), npc="biff", steps=0,
                place=biff)
        return False
    state.npcs["biff"] = nxt
    _effect(effects, "npc", _("BIFF 1 step to {npc} ({place})").format(
        npc=data.npc_name(who), place=_place(state, nxt)), npc="biff", steps=1, place=nxt,
        start=biff, toward=who)
    return True


def _biff_dice(state: State, n: int, effects: list[Effect]) -> None:
    """Each Biff die in turn: a token off a knocked-down Biff (none left: he stands up), else
    Biff one step toward the nearer of George and Lorraine, or Love -1 when he is with them."""
    for _i in range(n):
        if state.biff_down:
            if state.tokens:
                state.tokens -= 1
                _effect(effects, "token_off", _("BIFF die: TAKE 1 KNOCKDOWN TOKEN off Biff"),
                        tokens=state.tokens)
            else:
                state.biff_down = False
                _effect(effects, "biff_up", _("BIFF die: BIFF STANDS UP"))
            continue
        biff = state.npcs["biff"]
        if biff in (state.npcs["george"], state.npcs["lorraine"]):
            with_ = [data.npc_name(x) for x in ("george", "lorraine") if state.npcs[x] == biff]
            _effect(effects, "biff_love", _("BIFF die: Biff is with {who}").format(
                who=_(" and ").join(with_)))
            _love(state, -1, effects)
            if state.phase == "over":
                return
        else:
            _biff_step(state, effects)


def _game_over(state: State, result: str, reason: str, effects: list[Effect]) -> None:
    state.result = result
    state.reason = reason
    state.phase = "over"
    state.queue = ()
    state.challenge = None
    state.moving = None
    kind = "win" if result == "won" else "lose"
    head = _("YOU WIN! Back to 1985") if result == "won" else _("GAME LOST")
    _effect(effects, kind, f"{head}: {reason}", reason=reason)


def _final(state: State, effects: list[Effect], now: bool = False) -> None:
    """Lightning strikes at 10:04 p.m.: won or lost (option ``final_turn_actions``: the player
    whose turn brought the tracker there plays it first, and lightning strikes at its end)."""
    if state.options.get("final_turn_actions") and not now:
        state.final_turn = True
        _effect(effects, "final_turn", _("10:04 p.m.: LAST TURN, lightning strikes at its end"))
        return
    _effect(effects, "lightning", _("10:04 p.m.: LIGHTNING STRIKES THE CLOCK TOWER"))
    fails = []
    if zone(state) != "heart":
        fails.append(_("Love is not in the Heart Zone"))
    if state.delorean not in state.content.ready:
        fails.append(_("the DeLorean is not in the Ready Zone"))
    if fails:
        _game_over(state, "lost", "; ".join(fails), effects)
    else:
        _game_over(state, "won", _("George and Lorraine are in love and the DeLorean is ready"),
                   effects)


# ----- moving


def _do_move(state: State, action: Action, effects: list[Effect]) -> None:
    _need_play(state, _("move"))
    p = state.current
    c = state.content
    kind, ident = _source(action, "move")
    if kind == "tile":
        if ident not in p.tiles:
            raise RuleError(_("{player} holds no Power Tile {tile!r}").format(
                player=p.name, tile=ident))
        if ident in p.down:
            raise RuleError(_("Power Tile {tile} is face down (used); it turns up at the end of "
                              "{player}'s turn").format(tile=ident, player=p.name))
        value = c.tiles[ident]["move"]
        if not value:
            raise RuleError(_("Power Tile {tile} shows no movement").format(tile=ident))
    else:
        value = _usable_item(state, p, ident, "move")
    _end_move(state, effects)
    _exhaust(p, kind, ident)
    state.moving = {"left": value, "escort": None}
    _effect(effects, "move", ngettext("{player} may move {n} space",
                                      "{player} may move up to {n} spaces", value).format(
        player=p.name, n=value), player=p.name, spaces=value, **{kind: ident})
    escort = action.get("escort")
    if escort is not None:
        _escort(state, escort, effects)
    path = action.get("path")
    if path is not None:
        if not isinstance(path, list):
            raise RuleError(_('"path" lists the places to step through, in order'))
        for place in path:
            if state.moving is None:
                raise RuleError(_("the path is longer than the {n} spaces of this move").format(
                    n=value))
            _step(state, place, effects)


def _source(action: Action, what: str) -> tuple[str, str]:
    tile, item = action.get("tile"), action.get("item")
    if (tile is None) == (item is None):
        raise RuleError(_('{what}: name one "tile" or one "item"').format(what=what))
    ident = tile if tile is not None else item
    if not isinstance(ident, str):
        raise RuleError(_("{what}: a tile or item is named by its id (text)").format(what=what))
    return ("tile" if tile is not None else "item"), ident


def _usable_item(state: State, p: Player, ident: str, use: str | tuple[str, ...]) -> Any:
    if ident not in p.items:
        raise RuleError(_("{player} holds no Item {item!r}").format(player=p.name, item=ident))
    item = state.content.items[ident]
    uses = (use,) if isinstance(use, str) else use
    if item["kind"] not in uses:
        raise RuleError(_("Item {name} is not used that way (it is {use})").format(
            name=item["name"], use=item["use"]))
    if ident in p.items_down:
        raise RuleError(_("Item {name} is face down: used this turn, or gained this turn")
                        .format(name=item["name"]))
    return item["arg"]


def _exhaust(p: Player, kind: str, ident: str) -> None:
    if kind == "tile":
        p.down.append(ident)
    else:
        p.items_down.append(ident)


def _do_step(state: State, action: Action, effects: list[Effect]) -> None:
    _need_play(state, _("step"))
    if state.moving is None:
        raise RuleError(_("not moving: use a Power Tile to move (movement ends when you stop to "
                          "take an action)"))
    _step(state, action.get("to"), effects)


def _step(state: State, to: Any, effects: list[Effect]) -> None:
    c = state.content
    p = state.current
    mv = state.moving
    if not isinstance(to, str) or to not in c.nbr:
        raise RuleError(_("{to!r} is not a place on the board").format(to=to))
    if to not in c.nbr[p.place]:
        raise RuleError(_("{to} is not next to {here} (diagonal spaces are not adjacent)").format(
            to=_place(state, to), here=_place(state, p.place)))
    if mv["escort"] and to == c.town:
        raise RuleError(_("{npc} cannot be escorted into or through {place}").format(
            npc=data.npc_name(mv["escort"]), place=_place(state, to)))
    p.place = to
    mv["left"] -= 1
    if mv["escort"]:
        state.npcs[mv["escort"]] = to
        _effect(effects, "step", _("{player} and {npc} to {place}").format(
            player=p.name, npc=data.npc_name(mv["escort"]).upper(), place=_place(state, to)),
            player=p.name, place=to, escort=mv["escort"])
    else:
        _effect(effects, "step", _("{player} to {place}").format(
            player=p.name, place=_place(state, to)), player=p.name, place=to)
    if mv["left"] == 0:
        _end_move(state, effects)


def _do_escort(state: State, action: Action, effects: list[Effect]) -> None:
    _need_play(state, _("escort"))
    if state.moving is None:
        raise RuleError(_("George or Lorraine are escorted while moving: use a Power Tile first"))
    _escort(state, action.get("who"), effects)


def _escort(state: State, who: Any, effects: list[Effect]) -> None:
    p = state.current
    mv = state.moving
    if who == "biff":
        raise RuleError(_("Biff cannot be escorted: only George or Lorraine"))
    if who not in ("george", "lorraine"):
        raise RuleError(_('escort "george" or "lorraine"'))
    if mv["escort"] == who:
        raise RuleError(_("{npc} is already with {player}").format(
            npc=data.npc_name(who), player=p.name))
    if state.npcs[who] != p.place:
        raise RuleError(_("{npc} is at {place}, not with {player}").format(
            npc=data.npc_name(who), place=_place(state, state.npcs[who]), player=p.name))
    if mv["escort"]:
        raise RuleError(_("one at a time: drop {npc} first").format(
            npc=data.npc_name(mv["escort"])))
    mv["escort"] = who
    _effect(effects, "escort", _("{player} escorts {npc}").format(
        player=p.name, npc=data.npc_name(who).upper()), player=p.name, npc=who)


def _do_drop(state: State, action: Action, effects: list[Effect]) -> None:
    _need_play(state, _("drop"))
    if state.moving is None or not state.moving["escort"]:
        raise RuleError(_("nobody is being escorted"))
    who = state.moving["escort"]
    state.moving["escort"] = None
    p = state.current
    _effect(effects, "drop", _("{npc} stays at {place}").format(
        npc=data.npc_name(who).upper(), place=_place(state, p.place)), npc=who, place=p.place)


def _do_stop(state: State, action: Action, effects: list[Effect]) -> None:
    _need_play(state, _("stop"))
    if state.moving is None:
        raise RuleError(_("not moving"))
    _end_move(state, effects)


# ----- powers


def _do_power(state: State, action: Action, effects: list[Effect]) -> None:
    _need_play(state, _("use a power"))
    p = state.current
    c = state.content
    if state.power_used:
        raise RuleError(_("{player} has used {name}'s power this turn (once per turn)").format(
            player=p.name, name=data.character_name(p.character)))
    to = action.get("to")
    if p.character == "doc":
        here = delorean_place(state)
        if p.place == here:
            raise RuleError(_("Doc is already at the DeLorean"))
        _end_move(state, effects)
        p.place = here
        _effect(effects, "power", _("GREAT SCOTT! {player} to the DeLorean at {place}").format(
            player=p.name, place=_place(state, here)), player=p.name, place=here)
    elif p.character == "marty":
        options = _toward(c, state.npcs["lorraine"], p.place, npc=True)
        if state.npcs["lorraine"] == p.place:
            raise RuleError(_("Lorraine is already with Marty at {place}: THIS IS HEAVY has "
                              "nothing to do").format(place=_place(state, p.place)))
        if not options:
            raise RuleError(_("Lorraine never enters Town Square: she is as near Marty as THIS "
                              "IS HEAVY can bring her"))
        if to not in options:
            raise RuleError(_("THIS IS HEAVY moves Lorraine up to 2 spaces toward Marty, never "
                              "through Town Square: choose {places}").format(
                places=_places(state, options)))
        _end_move(state, effects)
        state.npcs["lorraine"] = to
        _effect(effects, "power", _("THIS IS HEAVY! LORRAINE to {place}").format(
            place=_place(state, to)), npc="lorraine", place=to)
    elif p.character == "jennifer":
        if "who" not in action:
            raise RuleError(_('FOLLOW ME moves another player\'s mover: name them, e.g. '
                              '{example}').format(example='"who": "Ben"'))
        q = state.player(action.get("who"))
        if q is p:
            raise RuleError(_("FOLLOW ME moves another player's mover toward Jennifer"))
        if q.place == p.place:
            raise RuleError(_("{player} is already with Jennifer at {place}: FOLLOW ME moves "
                              "a player who is elsewhere").format(
                player=q.name, place=_place(state, p.place)))
        options = _toward(c, q.place, p.place, npc=False)
        if to not in options:
            raise RuleError(_("FOLLOW ME moves {player} up to 2 spaces toward Jennifer: choose "
                              "{places}").format(player=q.name, places=_places(state, options)))
        _end_move(state, effects)
        q.place = to
        _effect(effects, "power", _("FOLLOW ME! {player} to {place}").format(
            player=q.name, place=_place(state, to)), player=q.name, place=to)
    else:  # einstein
        if c.dist[p.place][state.npcs["biff"]] > 1:
            raise RuleError(_("BARK BARK needs Biff within 1 space of Einstein"))
        options = _bark_places(state)
        if to not in options:
            raise RuleError(_("BARK BARK moves Biff up to 2 spaces, never through Town Square: "
                              "choose {places}").format(places=_places(state, options)))
        _end_move(state, effects)
        state.npcs["biff"] = to
        _effect(effects, "power", _("BARK! BARK! BIFF to {place}").format(
            place=_place(state, to)), npc="biff", place=to)
    state.power_used = True


def _places(state: State, places: list[str]) -> str:
    return ", ".join(places) if places else _("(none now)")


# ----- challenges


_CHALLENGE_NAMES = {
    "love": N_("Influence Love"),
    "delorean": N_("Move DeLorean"),
    "biff": N_("Fight Biff"),
    "part": N_("Prepare DeLorean"),
    "opportunity": N_("Opportunity"),
    "trouble": N_("Trouble"),
}


def challenge_name(kind: str) -> str:
    return _(_CHALLENGE_NAMES[kind])


def _do_challenge(state: State, action: Action, effects: list[Effect]) -> None:
    _need_play(state, _("start a challenge"))
    kind = action.get("challenge")
    if kind not in data.CHALLENGES:
        raise RuleError(_("challenge must be one of {kinds}").format(
            kinds=", ".join(data.CHALLENGES)))
    p = state.current
    c = state.content
    here = p.place
    target = None
    if kind == "love":
        if not (state.npcs["george"] == here and state.npcs["lorraine"] == here):
            raise RuleError(_("Influence Love needs George and Lorraine both at {place}").format(
                place=_place(state, here)))
    elif kind == "delorean":
        if delorean_place(state) != here:
            raise RuleError(_("the DeLorean is at {place}").format(
                place=_place(state, delorean_place(state))))
    elif kind == "biff":
        if state.npcs["biff"] != here:
            raise RuleError(_("Biff is at {place}").format(place=_place(state, state.npcs["biff"])))
        if state.biff_down:
            raise RuleError(_("Biff is knocked down: there is no fight until he stands up"))
    elif kind == "part":
        target = action.get("part")
        if not isinstance(target, str) or target not in PARTS:
            raise RuleError(_("part must be one of {parts}").format(parts=", ".join(PARTS)))
        if target in state.parts:
            raise RuleError(_("the {part} is already at Doc's House").format(
                part=data.part_name(target)))
        if c.part_place[target] != here:
            raise RuleError(_("the {part} tile is at {place}").format(
                part=data.part_name(target), place=_place(state, c.part_place[target])))
    elif kind == "opportunity":
        target = action.get("card")
        if not isinstance(target, str) or target not in state.opportunities:
            raise RuleError(_("no face-up Opportunity card {card!r}; face up: {cards}").format(
                card=target, cards=", ".join(state.opportunities)))
        entry = c.opportunity[target]
        if entry["place"] != here:
            raise RuleError(_("Opportunity {card} is at {place}").format(
                card=_card_name(entry), place=_place(state, entry["place"])))
        if not _character_here(state, entry.get("character"), here):
            raise RuleError(_("Opportunity {card} needs {name} at {place}").format(
                card=_card_name(entry), name=data.character_name(entry["character"]),
                place=_place(state, here)))
    else:
        if state.trouble is None:
            raise RuleError(_("no Trouble card is out: choose another challenge"))
        target = action.get("card", state.trouble)
        if target != state.trouble:
            raise RuleError(_("the Trouble card out is {out}, not {card}").format(
                out=state.trouble, card=target))
        entry = c.trouble[target]
        if entry["place"] != here:
            raise RuleError(_("Trouble {card} is at {place}").format(
                card=_card_name(entry), place=_place(state, entry["place"])))
    if not _die_sources(state, p, p):
        raise RuleError(_("{player} has no face-up Power Tile or Item that gives a die").format(
            player=p.name))
    _end_move(state, effects)
    state.challenge = {"kind": kind, "target": target, "stage": "dice", "dice": [], "roll": [],
                       "rolled": False, "rerolled": False}
    _effect(effects, "challenge", _("{player}: {name} - choose the dice").format(
        player=p.name, name=challenge_name(kind)), player=p.name, challenge=kind, target=target)


def _need_stage(state: State, stages: tuple[str, ...], what: str) -> dict[str, Any]:
    ch = state.challenge
    if ch is None:
        raise RuleError(_("{what}: no challenge is being attempted").format(what=what))
    if ch["stage"] not in stages:
        why = {
            "dice": _("the dice are still being chosen (READY rolls them)"),
            "roll": _("the dice are to be rolled"),
            "rolled": _("the roll is in: REROLL, MODIFY or RESOLVE"),
            "modify": _("the reroll is used: MODIFY or RESOLVE"),
        }[ch["stage"]]
        raise RuleError(_("{what}: {why}").format(what=what, why=why))
    return ch


def _assistant(state: State, action: Action) -> Player:
    active = state.current
    q = state.player(action.get("player", active.name))
    if q is not active and q.place != active.place:
        raise RuleError(_("{player} is at {place}: only players at {here} may assist").format(
            player=q.name, place=_place(state, q.place), here=_place(state, active.place)))
    return q


def _do_add(state: State, action: Action, effects: list[Effect]) -> None:
    ch = _need_stage(state, ("dice",), _("add a die"))
    active = state.current
    q = _assistant(state, action)
    kind, ident = _source(action, _("add a die"))
    c = state.content
    if kind == "tile":
        if ident not in q.tiles:
            raise RuleError(_("{player} holds no Power Tile {tile!r}").format(
                player=q.name, tile=ident))
        if ident in q.down:
            raise RuleError(_("Power Tile {tile} is face down (used)").format(tile=ident))
        col = c.tiles[ident]["die"]
        if not col:
            raise RuleError(_("Power Tile {tile} shows no die").format(tile=ident))
    else:
        col = _usable_item(state, q, ident, "die")
        if q is not active and not c.items[ident]["assist"]:
            raise RuleError(_("Item {name} cannot be used to assist").format(
                name=c.items[ident]["name"]))
    if sum(1 for d in ch["dice"] if d["colour"] == col) >= DICE_PER_COLOUR:
        raise RuleError(_("at most 2 {colour} dice in one roll").format(colour=col))
    _exhaust(q, kind, ident)
    ch["dice"].append({"colour": col, "face": None, "player": q.name, kind: ident})
    _effect(effects, "add", _("{player}: +1 {colour} die").format(player=q.name, colour=col),
            player=q.name, colour=col, **{kind: ident})


def _do_cancel(state: State, action: Action, effects: list[Effect]) -> None:
    if state.challenge is not None and state.challenge["stage"] == "roll":
        raise RuleError(_("too late to call off: READY was pressed; roll the dice and enter "
                          "them (or UNDO READY)"))
    ch = _need_stage(state, ("dice",), _("cancel"))
    for d in ch["dice"]:
        q = state.player(d["player"])
        if "tile" in d:
            q.down.remove(d["tile"])
        else:
            q.items_down.remove(d["item"])
    state.challenge = None
    _effect(effects, "cancel", _("challenge called off: the tiles turn back up"))


def _do_ready(state: State, action: Action, effects: list[Effect]) -> None:
    ch = _need_stage(state, ("dice",), _("roll"))
    active = state.current
    if not any(d["player"] == active.name for d in ch["dice"]):
        raise RuleError(_("{player} must roll at least 1 die").format(player=active.name))
    ch["stage"] = "roll"
    ch["roll"] = list(range(len(ch["dice"])))
    _effect(effects, "ready", _("ROLL {dice}").format(dice=_dice_list(ch["dice"])),
            dice=[d["colour"] for d in ch["dice"]])


def _dice_list(dice: list[dict[str, Any]]) -> str:
    counts: dict[str, int] = {}
    for d in dice:
        counts[d["colour"]] = counts.get(d["colour"], 0) + 1
    return ", ".join(f"{n} {col}" for col, n in counts.items())


def _reading(value: Any) -> tuple[str, str]:
    if isinstance(value, str) and ":" in value:
        col, _sep, f = value.partition(":")
    elif isinstance(value, dict):
        col, f = value.get("colour"), value.get("face")
    else:
        raise RuleError(_('each die is {example} (or "colour:face")').format(
            example='{"colour": "love", "face": "wild"}'))
    try:
        return data.colour(col), data.face(f)
    except ValueError as exc:
        raise RuleError(str(exc)) from exc


def _do_roll(state: State, action: Action, effects: list[Effect]) -> None:
    ch = state.challenge
    if ch is None or ch["stage"] != "roll":
        raise RuleError(_("no dice are to be rolled now"))
    readings = action.get("dice")
    todo = ch["roll"]
    wanted = sorted(ch["dice"][i]["colour"] for i in todo)
    if not isinstance(readings, list) or len(readings) != len(todo):
        raise RuleError(_("{n} dice are to be rolled: {dice}").format(
            n=len(todo), dice=", ".join(wanted)))
    read = [_reading(r) for r in readings]
    if sorted(col for col, _f in read) != wanted:
        raise RuleError(_("the dice to roll are {wanted}, not {got}").format(
            wanted=", ".join(wanted), got=", ".join(sorted(col for col, _f in read))))
    layout = state.content.faces
    for col, f in read:
        if f not in layout[col]:
            raise RuleError(_("the {colour} die has no {face} face (its faces: {faces}); check "
                              "the reading").format(colour=col, face=f,
                                                   faces=", ".join(layout[col])))
    pool = list(read)
    for i in todo:
        col = ch["dice"][i]["colour"]
        j = next(k for k, (c2, _f) in enumerate(pool) if c2 == col)
        ch["dice"][i]["face"] = pool.pop(j)[1]
    faces = [ch["dice"][i]["face"] for i in todo]
    _effect(effects, "roll", _("ROLLED {faces}").format(
        faces=", ".join(f.upper() if f == BIFF else f for f in faces)),
        dice=[{"colour": ch["dice"][i]["colour"], "face": ch["dice"][i]["face"]} for i in todo])
    biffs = faces.count(BIFF)
    if biffs:
        _effect(effects, "lock", ngettext("LOCK {n} BIFF die: set it aside",
                                          "LOCK {n} BIFF dice: set them aside", biffs).format(
            n=biffs), count=biffs)
    ch["stage"] = "modify" if ch["rolled"] else "rolled"
    ch["rolled"] = True
    ch["roll"] = []


def _positions(ch: dict[str, Any], value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not value:
        raise RuleError(_("{what}: list the positions of the dice (0 = first)").format(what=what))
    out = []
    for v in value:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < len(ch["dice"]):
            raise RuleError(_("{what}: {v!r} is not a die position 0-{last}").format(
                what=what, v=v, last=len(ch["dice"]) - 1))
        if v in out:
            raise RuleError(_("{what}: die {v} is listed twice").format(what=what, v=v))
        out.append(v)
    return sorted(out)


def _do_reroll(state: State, action: Action, effects: list[Effect]) -> None:
    ch = _need_stage(state, ("rolled",), _("reroll"))
    dice = _positions(ch, action.get("dice"), _("reroll"))
    if any(ch["dice"][i]["face"] == BIFF for i in dice):
        raise RuleError(_("Biff dice are locked and are never rerolled (only Reroll All can)"))
    ch["stage"] = "roll"
    ch["roll"] = dice
    ch["rerolled"] = True
    _effect(effects, "reroll", ngettext("REROLL {n} die: {dice}", "REROLL {n} dice: {dice}",
                                        len(dice)).format(
        n=len(dice), dice=", ".join(ch["dice"][i]["colour"] for i in dice)),
        dice=dice)


def _do_modify(state: State, action: Action, effects: list[Effect]) -> None:
    ch = _need_stage(state, ("rolled", "modify"), _("modify"))
    active = state.current
    q = _assistant(state, action)
    kind, ident = _source(action, _("modify"))
    c = state.content
    if kind == "tile":
        if ident not in q.tiles:
            raise RuleError(_("{player} holds no Power Tile {tile!r}").format(
                player=q.name, tile=ident))
        if ident in q.down:
            raise RuleError(_("Power Tile {tile} is face down (used)").format(tile=ident))
        mod = c.tiles[ident]["modifier"]
        if not mod:
            raise RuleError(_("Power Tile {tile} does not modify rolls").format(tile=ident))
    else:
        _usable_item(state, q, ident, data.MODIFIERS)
        mod = c.items[ident]["kind"]
        if q is not active and not c.items[ident]["assist"]:
            raise RuleError(_("Item {name} cannot be used to assist").format(
                name=c.items[ident]["name"]))
    if mod == "reroll_all":
        targets = list(range(len(ch["dice"])))
        text = _("REROLL ALL {n} dice, Biffs too").format(n=len(targets))
    else:
        die = action.get("die")
        if not isinstance(die, int) or isinstance(die, bool) or not 0 <= die < len(ch["dice"]):
            raise RuleError(_('{mod}: give "die", the position of the die (0 = first)').format(
                mod=_modifier_name(mod)))
        d = ch["dice"][die]
        if d["face"] == BIFF:
            raise RuleError(_("Biff dice are locked: only Reroll All rerolls them"))
        if mod == "wild":
            if d["face"] == WILD:
                raise RuleError(_("that die is wild already"))
            d["face"] = WILD
            text = _("TURN the {colour} die to WILD").format(colour=d["colour"])
        else:
            targets = [die]
            text = _("REROLL the {colour} die").format(colour=d["colour"])
    _exhaust(q, kind, ident)
    _effect(effects, "modify", text, player=q.name, modifier=mod, **{kind: ident})
    ch["stage"] = "modify"
    if mod != "wild":
        ch["stage"] = "roll"
        ch["roll"] = targets


def _do_resolve(state: State, action: Action, effects: list[Effect]) -> None:
    ch = _need_stage(state, ("rolled", "modify"), _("resolve"))
    c = state.content
    p = state.current
    faces = [d["face"] for d in ch["dice"]]
    kind = ch["kind"]
    steps: list[dict[str, Any]] = []
    if kind == "love":
        n = odds.count(faces, "love")
        _effect(effects, "result", ngettext("{n} love symbol", "{n} love symbols", n).format(n=n),
                count=n)
        if n:
            _love(state, n, effects)
    elif kind == "delorean":
        n = odds.count(faces, "speed")
        _effect(effects, "result", ngettext("{n} speed symbol", "{n} speed symbols", n).format(
            n=n), count=n)
        if n:
            _delorean(state, n, effects)
    elif kind == "biff":
        n = odds.count(faces, "courage")
        _effect(effects, "result", ngettext("{n} courage symbol", "{n} courage symbols", n)
                .format(n=n), count=n)
        if n:
            state.biff_down = True
            state.tokens = min(KNOCKDOWN_TOKENS, n - 1)
            _effect(effects, "knockdown", _("KNOCK BIFF DOWN (lay his mover down)"))
            if state.tokens:
                _effect(effects, "tokens", ngettext("PUT {n} KNOCKDOWN TOKEN on Biff",
                                                    "PUT {n} KNOCKDOWN TOKENS on Biff",
                                                    state.tokens).format(n=state.tokens),
                        tokens=state.tokens)
    else:
        need, _symbol, _room = need_of(state, ch)
        ok = odds.meets(faces, need)
        _effect(effects, "result", _("SUCCESS") if ok else _("FAILED"), success=ok)
        if ok and kind == "part":
            state.parts = (*state.parts, ch["target"])
            _effect(effects, "part", _("FLIP the {part} tile and put it at Doc's House").format(
                part=data.part_name(ch["target"])), part=ch["target"])
        elif ok and kind == "opportunity":
            entry = c.opportunity[ch["target"]]
            state.opportunities = tuple(o for o in state.opportunities if o != ch["target"])
            _effect(effects, "discard_card", _("DISCARD Opportunity {card}").format(
                card=_card_name(entry)), card=ch["target"], name=_card_name(entry))
            steps += [{"step": "term", "term": t, "player": p.name} for t in entry["reward"]]
            steps.append({"step": "draw", "deck": "opportunity"})
        elif ok:
            entry = c.trouble[ch["target"]]
            state.trouble = None
            _effect(effects, "discard_card", _("DISCARD Trouble {card} (no new one)").format(
                card=_card_name(entry)), card=ch["target"], name=_card_name(entry))
            steps += [{"step": "term", "term": t, "player": p.name} for t in entry["reward"]]
    biffs = faces.count(BIFF)
    if biffs:
        steps.append({"step": "biff", "n": biffs})
    state.challenge = None
    _push_front(state, steps)
    _run(state, effects)


def _do_discard(state: State, action: Action, effects: list[Effect]) -> None:
    if not state.queue or state.queue[0]["step"] != "limit":
        raise RuleError(_("nobody needs to discard now"))
    p = state.player(state.queue[0]["player"])
    if action.get("player", p.name) != p.name:
        raise RuleError(_("{player} discards now").format(player=p.name))
    tile = action.get("tile")
    if not isinstance(tile, str) or tile not in p.tiles:
        raise RuleError(_("{player} holds no Power Tile {tile!r}").format(player=p.name, tile=tile))
    p.tiles.remove(tile)
    if tile in p.down:
        p.down.remove(tile)
    _effect(effects, "discard", _("{player}: RETURN Power Tile {tile} to the box").format(
        player=p.name, tile=tile), player=p.name, tile=tile)
    _run(state, effects)


def _do_end(state: State, action: Action, effects: list[Effect]) -> None:
    _need_play(state, _("end the turn"))
    _end_move(state, effects)
    p = state.current
    if p.down or p.items_down:
        _effect(effects, "refresh", _("{player}: TURN your tiles and items face up").format(
            player=p.name), player=p.name)
    p.down = []
    p.items_down = []
    if state.final_turn:
        state.final_turn = False
        _final(state, effects, now=True)
        return
    state.turn = (state.turn + 1) % len(state.players)
    state.turns += 1
    state.power_used = False
    name = state.current.name
    _effect(effects, "turn", _("{player}'s turn").format(player=name), player=name)
    state.tracker += 1
    last = state.tracker == TRACKER_SPACES
    _effect(effects, "tracker", (_("TURN TRACKER to space {n}: 10:04 p.m.") if last else
                                 _("TURN TRACKER to space {n} of 21")).format(n=state.tracker),
            space=state.tracker)
    column = state.content.trackers[len(state.players)]["columns"][state.tracker - 1]
    steps: list[dict[str, Any]] = []
    for icon in column:
        if icon.startswith("trouble"):
            steps.append({"step": "draw", "deck": icon})
        elif icon.startswith("move"):
            steps += [{"step": "draw", "deck": "movement"}] * (2 if icon == "move2" else 1)
        else:
            steps += [{"step": "love_check"}] * (2 if icon == "love2" else 1)
    if last:
        steps.append({"step": "final"})
    _push_front(state, steps)
    _run(state, effects)


_HANDLERS = {
    "character": _do_character,
    "draw": _do_draw,
    "move": _do_move,
    "step": _do_step,
    "escort": _do_escort,
    "drop": _do_drop,
    "stop": _do_stop,
    "power": _do_power,
    "challenge": _do_challenge,
    "add": _do_add,
    "cancel": _do_cancel,
    "ready": _do_ready,
    "roll": _do_roll,
    "reroll": _do_reroll,
    "modify": _do_modify,
    "resolve": _do_resolve,
    "discard": _do_discard,
    "end": _do_end,
}


# --------------------------------------------------------------------------- JSON and views


def to_json(state: State) -> dict[str, Any]:
    return {
        "title": facts.key,
        "content": state.content.sections,
        "options": dict(state.options),
        "players": [
            {"name": p.name, "character": p.character, "place": p.place,
             "tiles": list(p.tiles or ()), "down": list(p.down or ()),
             "items": list(p.items or ()), "items_down": list(p.items_down or ())}
            for p in state.players
        ],
        "phase": state.phase,
        "turn": state.turn,
        "turns": state.turns,
        "tracker": state.tracker,
        "love": state.love,
        "photos": state.photos,
        "delorean": state.delorean,
        "parts": list(state.parts),
        "npcs": dict(state.npcs or {}),
        "biff_down": state.biff_down,
        "tokens": state.tokens,
        "opportunities": list(state.opportunities),
        "trouble": state.trouble,
        "decks": {k: list(v) for k, v in (state.decks or {}).items()},
        "movement_discard": list(state.movement_discard),
        "items_left": list(state.items_left),
        "power_used": state.power_used,
        "moving": dict(state.moving) if state.moving else None,
        "challenge": (
            {**state.challenge, "dice": [dict(d) for d in state.challenge["dice"]],
             "roll": list(state.challenge["roll"])} if state.challenge else None),
        "queue": [dict(s) for s in state.queue],
        "final_turn": state.final_turn,
        "result": state.result,
        "reason": state.reason,
    }


# the compiled content of a recorded state's sections: the same sections are compiled once
_CACHED_CONTENT: ContentCache[Content] = ContentCache(Content)


def from_json(d: dict[str, Any]) -> State:
    players = [Player(p["name"], p["character"], p["place"], list(p["tiles"]), list(p["down"]),
                      list(p["items"]), list(p["items_down"])) for p in d["players"]]
    return State(
        _CACHED_CONTENT(data.sections_of(d["content"])), dict(d["options"]), players, d["phase"],
        d["turn"], d["turns"], d["tracker"], d["love"], d["photos"], d["delorean"],
        tuple(d["parts"]), dict(d["npcs"]), d["biff_down"], d["tokens"],
        tuple(d["opportunities"]), d["trouble"], {k: list(v) for k, v in d["decks"].items()},
        tuple(d["movement_discard"]), tuple(d["items_left"]), d["power_used"],
        dict(d["moving"]) if d["moving"] else None,
        ({**d["challenge"], "dice": [dict(x) for x in d["challenge"]["dice"]],
          "roll": list(d["challenge"]["roll"])} if d["challenge"] else None),
        tuple(dict(s) for s in d["queue"]), d["final_turn"], d["result"], d["reason"],
    )


def secrets(state: State) -> dict[str, list[str]]:
    """Nothing is secret in Back in Time: every tile, item and card is on the table."""
    return {p.name: [] for p in state.players}


def view(state: State, observer: str | None = None) -> dict[str, Any]:
    """The table as everyone sees it (the OLED, the replay command, a bot)."""
    c = state.content
    players = []
    for p in state.players:
        players.append({
            "name": p.name,
            "character": p.character,
            "place": p.place or None,
            "tiles": [{**_tile_view(c.tiles[t]), "up": t not in (p.down or ())}
                      for t in (p.tiles or ())],
            "items": [{"id": i, "name": c.items[i]["name"], "use": c.items[i]["use"],
                       "up": i not in (p.items_down or ())} for i in (p.items or ())],
        })
    waiting = None
    if state.queue:
        step = state.queue[0]
        waiting = ({"discard": step["player"]} if step["step"] == "limit"
                   else {"draw": step["deck"]})
    ch = state.challenge
    challenge = None
    if ch is not None:
        need, symbol, _room = need_of(state, ch)
        challenge = {
            "kind": ch["kind"],
            "target": ch["target"],
            "need": need,
            "symbol": symbol,
            "stage": ch["stage"],
            "dice": [{"colour": d["colour"], "face": d["face"], "player": d["player"],
                      "locked": d["face"] == BIFF} for d in ch["dice"]],
            "to_roll": list(ch["roll"]),
            "rerolled": ch["rerolled"],
            "odds": odds_now(state),
        }
    started = state.phase != "characters"
    return {
        "title": facts.key,
        "phase": state.phase,
        "actor": actor(state),
        "turn": state.current.name if state.phase == "play" else None,
        "tracker": {"space": state.tracker, "of": TRACKER_SPACES,
                    "final": state.tracker == TRACKER_SPACES},
        "love": {"space": state.love, "zone": zone(state), "bottom": c.love_bottom, "top": TOP},
        "photos": state.photos,
        "delorean": {"space": state.delorean, "place": delorean_place(state),
                     "track": len(c.track), "ready": state.delorean in c.ready,
                     "limit": delorean_limit(state)},
        "parts": {part: (c.role["doc_house"] if part in state.parts else c.part_place[part])
                  for part in PARTS},
        "npcs": dict(state.npcs or {}) if started else None,
        "places": dict(c.names),
        "biff": {"down": state.biff_down, "tokens": state.tokens},
        "players": players,
        "opportunities": [_card_view(state, c.opportunity[o]) for o in state.opportunities],
        "trouble": _card_view(state, c.trouble[state.trouble]) if state.trouble else None,
        "moving": dict(state.moving) if state.moving else None,
        "power_used": state.power_used,
        "challenge": challenge,
        "waiting": waiting,
        "result": state.result,
        "reason": state.reason or None,
        "winners": winners(state),
    }


def _tile_view(tile: dict[str, Any]) -> dict[str, Any]:
    return {"id": tile["id"], "move": tile["move"], "die": tile["die"],
            "modifier": tile["modifier"]}


def _card_view(state: State, entry: dict[str, Any]) -> dict[str, Any]:
    out = {"id": entry["id"], "name": _card_name(entry), "place": entry["place"],
           "need": dict(entry["need"]), "reward": list(entry["reward"])}
    if entry.get("character"):
        out["character"] = entry["character"]
    if entry.get("level"):
        out["level"] = entry["level"]
    return out

