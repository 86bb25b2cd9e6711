"""Back to the Future: The Card Game, the complete rules as a pure engine.

The rules are those of the rulebook and its FAQ; where they are silent or ambiguous the decision
taken is written in ``docs/rules/timeline.md`` and tested. The TimeLine, the ID cards and the
game cards come from a content pack (``model.py``); B-1, the stack that ends the game, is part of
the rules.

**Hidden cards.** The companion never needs a hidden card until it is played. A draw (a chance
action) may name the card drawn or not: at the table it does not (the hand is a count); in a
simulation it does, and ``secrets`` lists it for its holder only. The same holds for ID cards.
A play always names the card, which is public from then on. So one engine serves the table,
where hands are counts, and the simulator, whose bots know their own hands.

Actions are JSON objects with a ``type``; ``player`` may be left out where only one player can
act (it is checked when given). Cards are named by their id (any copy) or a copy (``memo#2``).

=============  ========================================================  ===================
type           fields                                                    who
=============  ========================================================  ===================
draw           player, card (optional: which card was drawn)             chance
deal_id        player, id (optional: which ID card was dealt)            chance
keep           player (optional: without it, everyone still deciding)    a player at setup
mulligan       player                                                    a player at setup
play           player, card, and its target (event / item / pick)       current player (or
                                                                         an out-of-turn card
                                                                         while one is pending)
draw_instead   player                                                    current player
target         event (a Linchpin) / item (an Item in play) / pick (a     the card's player
               card to replay)
memo           player, card (a Memo in hand, or a Memo Item in front)    any other player
                                                                         while a card is
                                                                         pending
pass           player (optional: without it, nobody plays a Memo)        a player asked
use            player, card (the DoubleBack's Item), event               current player
skip           player                                                    current player
reveal         card: "dud" or "clock" (the top B-1 card)                 chance
claim          player, id                                                after the clock
=============  ========================================================  ===================

    >>> from companion.content import demo_pack
    >>> state = new_game(["Ana", "Ben"], {}, demo_pack("timeline"))
    >>> actor(state), legal_actions(state)
    ('chance', [{'type': 'draw', 'player': 'Ana'}])
"""

from __future__ import annotations

import random
from dataclasses import dataclass
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
from companion.titles.timeline.graph import B1, POSITIONS, ROWS
from companion.titles.timeline.model import TYPE_NAMES, Content, target_kind

HAND_SIZE = 3  # game cards dealt to each player
B1_CARDS = 5  # the B-1 stack: one clock and four duds
DUD = "dud"
CLOCK = "clock"
# The B-1 cards, as the rulebook names them.
B1_EVENT = N_("Emmett Brown Invents the Flux Capacitor")
DUD_NAME = N_("Mysterious Forces Prevent You From Changing This Event At This Time")
CLOCK_NAME = N_("Emmett Brown Hangs a Clock in his Bathroom")

facts = Facts(
    key="timeline",
    name="Back to the Future: The Card Game",
    min_players=2,
    max_players=6,
    chance="cards drawn from the shuffled deck (named in a simulation, counted at the table); "
    "ID cards dealt; the top card of the B-1 stack",
    options={"b1_cards": B1_CARDS},
    plate="CARD GAME",
)


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Player:
    name: str
    hand: tuple[str, ...] = ()  # cards known to be in the hand
    unknown: int = 0  # cards in the hand the companion has not seen (at the table: all)
    items: tuple[str, ...] = ()  # Items in front of the player, in the order played
    identity: str | None = None  # the ID card, when known (simulation, or shown in a claim)
    has_id: bool = False
    aside: tuple[str, ...] = ()  # IDs set aside by a mulligan, when known
    mulligan: bool = False  # the identity mulligan has been used
    shown: bool = False  # the ID card has been shown to everyone (a claim)

    def clone(self) -> Player:
        return Player(
            self.name,
            self.hand,
            self.unknown,
            self.items,
            self.identity,
            self.has_id,
            self.aside,
            self.mulligan,
            self.shown,
        )

    @property
    def cards(self) -> int:
        return len(self.hand) + self.unknown


@dataclass(slots=True)
class State:
    players: list[Player]
    content: Content  # never changed
    options: dict[str, Any]
    phase: str = "setup"  # setup, play, claims, over
    turn: int = 0  # index of the player whose turn it is
    altered: frozenset[str] = frozenset()  # Linchpins showing their altered side
    b1_left: int = B1_CARDS  # cards in the B-1 stack (the clock is always among them)
    b1_aside: int = 0  # "Mysterious Forces" cards set aside
    deck: int = 0  # cards in the draw pile
    discard: tuple[str, ...] = ()
    stack: tuple[dict[str, Any], ...] = ()  # cards being played, the most recent last
    agenda: tuple[dict[str, Any], ...] = ()  # what happens next, first first
    plays: int = 0  # plays still owed this turn (besides one being asked for)
    changed: bool = False  # the current player changed the TimeLine this turn
    last_changed: bool = False  # the previous turn's player changed it in their turn
    previous: str | None = None  # whose turn was before this one
    ids_out: int = 0  # ID cards dealt or set aside
    met: tuple[str, ...] = ()  # after the clock: other players whose ID is met
    winner: str | None = None
    turns: int = 0  # turns completed
    owned: int = -1  # bit i set: players[i] belongs to this state (else shared with its parent)

    def clone(self) -> State:
        """A copy to change; players are copied when first asked for (``player``)."""
        return State(
            list(self.players),
            self.content,
            self.options,
            self.phase,
            self.turn,
            self.altered,
            self.b1_left,
            self.b1_aside,
            self.deck,
            self.discard,
            self.stack,
            self.agenda,
            self.plays,
            self.changed,
            self.last_changed,
            self.previous,
            self.ids_out,
            self.met,
            self.winner,
            self.turns,
            0,
        )

    @property
    def current(self) -> Player:
        return self._own(self.turn)

    def _own(self, index: int) -> Player:
        if not self.owned >> index & 1:
            self.players[index] = self.players[index].clone()
            self.owned |= 1 << index
        return self.players[index]

    def find(self, name: str) -> Player:
        """The player called ``name``, to read only."""
        for p in self.players:
            if p.name == name:
                return p
        raise RuleError(_("no player called {name}").format(name=repr(name)))

    def player(self, name: Any) -> Player:
        """The player called ``name``, ready to be changed in this state."""
        for index, p in enumerate(self.players):
            if p.name == name:
                return self._own(index)
        raise RuleError(
            _("no player called {name} (players: {names})").format(
                name=repr(name), names=", ".join(p.name for p in self.players)
            )
        )


def type_word(card: dict) -> str:
    """A card's type as the players' language names it."""
    kind = TYPE_NAMES[card["type"]]
    return _(kind)


def side_word(wrong: dict) -> str:
    """The side an ID's event needs, in the players' language."""
    side = wrong["needs"]
    return _(side)


def _content(content: Any) -> Content:
    if isinstance(content, Content):
        return content
    if hasattr(content, "sections"):  # a content pack
        sections = content.sections
    elif isinstance(content, dict):  # a recorded setup's entries by section
        sections = content
    else:
        raise RuleError(
            _(
                "this title needs its whole content pack (the TimeLine events, the ID cards and "
                "the game cards), not a list of cards"
            )
        )
    try:
        return Content(sections)
    except (ValueError, KeyError, TypeError) as exc:
        raise RuleError(_("the content pack cannot be used: {why}").format(why=exc)) from exc


# the checked content of a recorded state's sections: the same sections are checked once
_CACHED_CONTENT: ContentCache[Content] = ContentCache(_content)


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options over their defaults: ``b1_cards``, the B-1 stack, holds 2 to 5 cards."""
    opts = known_options(facts, options)
    b1 = opts["b1_cards"]
    if isinstance(b1, bool) or not isinstance(b1, int) or not 2 <= b1 <= B1_CARDS:
        raise RuleError(
            _("b1_cards is the size of the B-1 stack: a whole number from 2 to 5 (5 as in the "
              "box, 3 or 2 for a shorter game)")
        )
    return opts


def new_game(players: list[str], options: dict[str, Any], content: Any) -> State:
    """A new game, before the deal. ``content`` is a pack or its entries by section."""
    check_players(facts, players)
    opts = check_options(options)
    pack = _content(content)
    if not pack.graph.linchpins:
        raise RuleError(_("the content pack has no TimeLine: register its events first"))
    if len(pack.identities) < len(players):
        raise RuleError(
            _("{n} players need {n} ID cards; the pack has {have}").format(
                n=len(players), have=len(pack.identities)
            )
        )
    if len(pack.instances) < HAND_SIZE * len(players):
        raise RuleError(
            _("{n} players need at least {need} game cards to deal; the pack has {have}").format(
                n=len(players), need=HAND_SIZE * len(players), have=len(pack.instances)
            )
        )
    state = State([Player(name) for name in players], pack, opts)
    state.b1_left = opts["b1_cards"]
    state.deck = len(pack.instances)
    agenda: list[dict[str, Any]] = []
    for _round in range(HAND_SIZE):
        agenda += [{"step": "draw", "player": name, "deal": True} for name in players]
    agenda += [{"step": "deal_id", "player": name} for name in players]
    agenda += [{"step": "mulligan", "player": name} for name in players]
    state.agenda = tuple(agenda)
    return state


# --------------------------------------------------------------------------- queries


def actor(state: State) -> str:
    if state.phase == "over":
        return TERMINAL
    head = state.agenda[0]
    step = head["step"]
    if step in ("draw", "deal_id", "reveal"):
        return CHANCE
    if step == "respond":
        return head["responders"][0]
    if step == "target":
        return state.stack[-1]["player"]
    return head["player"]


def is_terminal(state: State) -> bool:
    return state.phase == "over"


def winners(state: State) -> list[str]:
    return [state.winner] if state.winner else []


def _head(state: State) -> dict[str, Any] | None:
    return state.agenda[0] if state.agenda else None


def sides(state: State) -> frozenset[str]:
    """Every event showing its altered side."""
    return state.content.graph.sides(state.altered)


def clock_odds(state: State) -> float:
    """The probability that the top B-1 card is the one that ends the game."""
    return b1_odds(state.b1_left)


def b1_odds(cards_left: int) -> float:
    """The probability that the top of a shuffled B-1 stack of ``cards_left`` is the clock."""
    return 1.0 / cards_left if cards_left > 0 else 0.0


def check_identity(state: State, identity: str) -> list[dict[str, str]]:
    """What an ID card still needs: each required event not showing its side, in order."""
    ident = state.content.identities.get(identity)
    if ident is None:
        raise RuleError(_("no ID card {id} in this game").format(id=repr(identity)))
    return [
        {"event": eid, "needs": ident["requires"][eid], "headline": _headline(state, eid, ident)}
        for eid in state.content.graph.wrong(state.altered, ident["requires"])
    ]


def _headline(state: State, eid: str, ident: dict[str, Any]) -> str:
    return state.content.headline(eid, ident["requires"][eid] == "altered")


def flip_preview(state: State, linchpin: str) -> list[str]:
    """The cards a flip of ``linchpin`` would turn over, in order (nothing is changed)."""
    if linchpin == B1:
        return [B1]
    if linchpin not in state.content.graph.linchpins:
        raise RuleError(_("{event} is not a Linchpin").format(event=linchpin))
    return state.content.graph.preview(state.altered, linchpin)


def play_refusal(state: State, player: str, card: str) -> str | None:
    """Why ``player`` may not play ``card`` now, in words for the players (None: they may).

    The table shows it when a player picks a card the rules refuse, e.g.
    "Hitch a Ride: Ben did not change the TimeLine".
    """
    try:
        apply(state, {"type": "play", "player": player, "card": card})
    except RuleError as exc:
        return str(exc)
    return None


def flip_text(flips: list[str]) -> str:
    """The instruction for turning cards over: "FLIP A-2 · then A-6, A-5"."""
    if len(flips) == 1:
        return _("FLIP {event}").format(event=flips[0])
    return _("FLIP {event} · then {ripples}").format(
        event=flips[0], ripples=", ".join(flips[1:])
    )


def timeline_map(state: State) -> list[str]:
    """The 4x6 TimeLine, one string per row A-D: '.' original, 'X' altered, '#' B-1, ' ' none."""
    shown = sides(state)
    graph = state.content.graph
    rows = []
    for row in ROWS:
        cells = []
        for col in range(1, 7):
            eid = f"{row}-{col}"
            if eid == B1:
                cells.append("#")
            elif eid not in graph.events:
                cells.append(" ")
            else:
                cells.append("X" if eid in shown else ".")
        rows.append("".join(cells))
    return rows


# --------------------------------------------------------------------------- cards and places


def _located(state: State) -> set[str]:
    out: set[str] = set(state.discard)
    for p in state.players:
        out.update(p.hand)
        out.update(p.items)
    for entry in state.stack:
        if "card" in entry:
            out.add(entry["card"])
        if "pick" in entry:
            out.add(entry["pick"])
    return out


def _unseen(state: State) -> list[str]:
    """Copies not seen anywhere: in the draw pile or in a hand the companion has not seen."""
    located = _located(state)
    return [i for i in state.content.instances if i not in located]


def _copies(state: State, name: Any) -> list[str]:
    content = state.content
    if not isinstance(name, str) or not name:
        raise RuleError(_("name the card by its id, e.g. \"card\": \"time-train\""))
    if name in content.entry:
        return [name]
    if name in content.copies:
        return content.copies[name]
    raise RuleError(
        _("no card {card} in this game; see `companion cards list --title timeline`").format(
            card=repr(name)
        )
    )


def _where(state: State, inst: str) -> str:
    for p in state.players:
        if inst in p.hand:  # whose hand is not said: the panel is seen by the whole table
            return _("in another player's hand")
        if inst in p.items:
            return _("in front of {player}").format(player=p.name)
    if inst in state.discard:
        return _("in the discard pile")
    if any(e.get("card") == inst for e in state.stack):
        return _("being played")
    return _("in the draw pile")


def _from_hand(state: State, p: Player, name: Any) -> str:
    """The copy of card ``name`` that ``p`` plays from their hand (checked, not yet moved)."""
    copies = _copies(state, name)
    for inst in copies:
        if inst in p.hand:
            return inst
    if p.unknown:
        located = _located(state)
        for inst in copies:
            if inst not in located:
                return inst
    inst = copies[0]
    if not p.cards:
        raise RuleError(_("{player} has no cards in hand: draw instead").format(
            player=p.name))
    where = _where(state, inst) if len(copies) == 1 else _("all in play or known elsewhere")
    raise RuleError(
        _("{player} does not hold {card}: it is {where}").format(
            player=p.name, card=state.content.name(inst), where=where
        )
    )


def _without(values: tuple[str, ...], value: str) -> tuple[str, ...]:
    """``values`` less one ``value``."""
    index = values.index(value)
    return values[:index] + values[index + 1 :]


def _take_from_hand(p: Player, inst: str) -> None:
    if inst in p.hand:
        p.hand = _without(p.hand, inst)
    else:
        p.unknown -= 1


def _holder_of(state: State, inst: str) -> Player | None:
    for p in state.players:
        if inst in p.items:
            return p
    return None


def _has_item(p: Player, state: State, card_id: str) -> bool:
    return any(state.content.entry[i]["id"] == card_id for i in p.items)


def _item_copy(p: Player, state: State, card_id: str) -> str | None:
    for i in p.items:
        if state.content.entry[i]["id"] == card_id:
            return i
    return None


# --------------------------------------------------------------------------- what may be played


def _target_kind(card: dict[str, Any]) -> str | None:
    return target_kind(card)


def _may_flip(state: State, p: Player, event: str) -> str | None:
    """Why ``p`` may not flip ``event`` now (None: they may)."""
    if event == B1:
        return None
    holder = state.content.graph.events[event].get("holder")
    if holder and not _has_item(p, state, holder):
        return _("only the holder of {item} may change {event}").format(
            item=state.content.cards[holder]["name"], event=event
        )
    return None


def _event_options(
    state: State, p: Player, card: dict[str, Any], exclude: str = "", first: bool = False
) -> list[str]:
    out = []
    only, never = card.get("only"), card.get("never", ())
    for event in state.content.linchpins:
        if event == exclude or event in never or (only and event not in only):
            continue
        if _may_flip(state, p, event) is None:
            out.append(event)
            if first:
                break
    return out


def _item_options(state: State, p: Player) -> list[str]:
    return [i for q in state.players if q.name != p.name for i in q.items]


def _pick_options(state: State, p: Player, card: dict[str, Any], first: bool = False) -> list[str]:
    """One copy of each card ``p`` may replay: never a Power Action, and only a playable one."""
    if card["replay"] == "discard":
        pool = state.discard
    elif state.deck == 0:
        return []
    else:
        pool = _unseen(state)
    out, seen = [], set()
    entry = state.content.entry
    for inst in pool:
        picked = entry[inst]
        if picked["type"] == "power_action" or picked["id"] in seen:
            continue
        seen.add(picked["id"])
        if _why_not(state, p, picked) is None:
            out.append(inst)
            if first:
                break
    return out


def _target_options(
    state: State, p: Player, card: dict[str, Any], first: bool = False
) -> list[str]:
    """Every target ``p`` may choose for ``card`` (with ``first``: one is enough)."""
    kind = state.content.target[card["id"]]
    if kind == "event":
        return _event_options(state, p, card, first=first)
    if kind == "item":
        return _item_options(state, p)
    if kind == "pick":
        return _pick_options(state, p, card, first=first)
    return []


def _why_not(state: State, p: Player, card: dict[str, Any], response: bool = False) -> str | None:
    """Why ``p`` may not play ``card`` now (None: they may)."""
    name = card["name"]
    if card.get("memo") and card["type"] != "item":
        return _("{card} is played against a card being played, never as your play").format(
            card=name)
    if response and not card.get("out_of_turn"):
        return _("{card} cannot be played when it is not your turn").format(card=name)
    if response and p.name == state.current.name and state.plays < 1:
        # on your own turn a Power Action is not out of turn: it is one of your plays
        return _("{card}: on your own turn it is a play, and {player} has no play left "
                 "this turn").format(card=name, player=p.name)
    if card["type"] == "doubleback":
        return _may_flip(state, p, card["linchpin"])
    if card.get("needs") and not _has_item(p, state, card["needs"]):
        return _("{card} needs {item} in front of you").format(
            card=name, item=state.content.cards[card["needs"]]["name"]
        )
    if card.get("hitch") and not state.last_changed:
        if state.previous is None:
            return _("{card}: no one has changed the TimeLine before this turn").format(card=name)
        return _("{card}: {player} did not change the TimeLine").format(
            card=name, player=state.previous
        )
    kind = state.content.target[card["id"]]
    if kind == "pick" and card["replay"] != "discard" and state.deck == 0:
        return _("{card}: the draw pile is empty").format(card=name)
    if kind and not _target_options(state, p, card, first=True):
        return {
            "event": _("{card}: there is no Linchpin it may flip"),
            "item": _("{card}: no other player has an Item in front of them"),
            "pick": _("{card}: there is no card it may replay (never a Power Action)"),
        }[kind].format(card=name)
    return None


def _responders(state: State, top: dict[str, Any]) -> list[str]:
    """Who is asked about a Memo (or an out-of-turn card) against ``top``, in seating order."""
    n = len(state.players)
    start = next(i for i, p in enumerate(state.players) if p.name == top["player"])
    out = []
    for offset in range(1, n):
        q = state.players[(start + offset) % n]
        if q.cards or _memo_items(state, q, top):
            out.append(q.name)
    return out


def _memo_items(state: State, q: Player, top: dict[str, Any]) -> list[str]:
    """Memo Items ``q`` may use against ``top`` (never the Item ``top`` is taking away)."""
    return [
        i for i in q.items if state.content.entry[i].get("memo") and i != top.get("item")
    ]


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: State) -> list[Action]:
    """The decisions open to the actor (for chance: one template per kind of outcome)."""
    head = _head(state)
    if state.phase == "over" or head is None:
        return []
    step = head["step"]
    if step == "draw":
        return [{"type": "draw", "player": head["player"]}]
    if step == "deal_id":
        return [{"type": "deal_id", "player": head["player"]}]
    if step == "reveal":
        out = [{"type": "reveal", "card": CLOCK}]
        if state.b1_left > 1:
            out.insert(0, {"type": "reveal", "card": DUD})
        return out
    who = actor(state)
    if step == "mulligan":
        return [{"type": "keep", "player": who}, {"type": "mulligan", "player": who}]
    if step == "play":
        p = state.find(who)
        plays: list[Action] = [
            {"type": "play", "player": who, "card": inst}
            for inst in _holdable(state, p)
            if _why_not(state, p, state.content.entry[inst]) is None
        ]
        return plays + [{"type": "draw_instead", "player": who}]
    if step == "target":
        top = state.stack[-1]
        p = state.find(who)
        kind = _target_kind(state.content.entry[top["card"]])
        return [
            {"type": "target", "player": who, kind: o}
            for o in _target_options(state, p, state.content.entry[top["card"]])
        ]
    if step == "respond":
        return _response_actions(state, state.find(who)) + [{"type": "pass", "player": who}]
    if step == "use":
        p = state.find(who)
        item = state.content.entry[head["item"]]
        return [
            {"type": "use", "player": who, "card": head["item"], "event": e}
            for e in _event_options(state, p, item, exclude=head["first"])
        ] + [{"type": "skip", "player": who}]
    if step == "claim":
        p = state.find(who)
        out: list[Action] = [
            {"type": "claim", "player": who, "id": i} for i in _claimable(state, p)
        ]
        if not (p.identity and not check_identity(state, p.identity)):
            out.append({"type": "pass", "player": who})
        return out
    return []  # pragma: no cover - every step kind is handled above


def _holdable(state: State, p: Player) -> list[str]:
    """One copy of each card ``p`` may hold: the known hand, and unseen cards if some are unseen."""
    card_id = state.content.card_id
    out, seen = [], set()
    pool = p.hand + tuple(_unseen(state)) if p.unknown else p.hand
    for inst in pool:
        cid = card_id[inst]
        if cid not in seen:
            seen.add(cid)
            out.append(inst)
    return out


def _response_actions(state: State, q: Player) -> list[Action]:
    top = state.stack[-1]
    content = state.content
    out: list[Action] = []
    for inst in _holdable(state, q):
        cid = content.card_id[inst]
        if cid in content.memo_cards:
            out.append({"type": "memo", "player": q.name, "card": inst})
        elif cid in content.out_of_turn and (
            _why_not(state, q, content.entry[inst], response=True) is None
        ):
            out.append({"type": "play", "player": q.name, "card": inst})
    for inst in _memo_items(state, q, top):
        out.append({"type": "memo", "player": q.name, "card": inst})
    return out


def _known_ids(state: State, but: Player | None = None) -> set[str]:
    out: set[str] = set()
    skip = but.name if but is not None else None
    for p in state.players:
        if p.name != skip:
            if p.identity:
                out.add(p.identity)
            out.update(p.aside)
    return out


def _claimable(state: State, p: Player) -> list[str]:
    if p.identity:
        return [p.identity]
    taken = _known_ids(state, but=p) | set(p.aside)
    return [i for i in state.content.identities if i not in taken]


# --------------------------------------------------------------------------- chance


def sample_chance(state: State, rng: random.Random) -> Action:
    """A random chance outcome, naming the card or ID when every hidden card is known."""
    head = _head(state)
    step = head["step"] if head else None
    if step == "draw":
        action: Action = {"type": "draw", "player": head["player"]}
        if not any(p.unknown for p in state.players):
            held = _held(state, head)
            pool = _unseen(state) if state.deck else [c for c in state.discard if c not in held]
            if pool:
                action["card"] = rng.choice(pool)
        return action
    if step == "deal_id":
        action = {"type": "deal_id", "player": head["player"]}
        known = _known_ids(state)
        if len(known) == state.ids_out:  # every ID out is known: name the one dealt
            pool = [i for i in state.content.identities if i not in known]
            action["id"] = rng.choice(pool)
        return action
    if step == "reveal":
        card = CLOCK if rng.random() < clock_odds(state) else DUD
        return {"type": "reveal", "card": card}
    raise RuleError(_("no chance outcome is due now: {what}").format(what=_waiting(state)))


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> tuple[State, list[Effect]]:
    """Apply one action; returns (new state, effects). ``state`` is left unchanged."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RuleError(_('an action is a JSON object with a "type", e.g. {example}').format(
            example='{"type": "pass"}'))
    kind = action["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise RuleError(
            _("unknown action type {kind}; known: {known}").format(
                kind=repr(kind), known=", ".join(sorted(_HANDLERS))
            )
        )
    if state.phase == "over":
        raise RuleError(_("the game is over: {player} has won").format(player=state.winner))
    new = state.clone()
    effects: list[Effect] = []
    handler(new, action, effects)
    _advance(new, effects)
    return new, effects


def _effect(effects: list[Effect], kind: str, text: str, **data: Any) -> None:
    effects.append({"kind": kind, "text": text, **data})


def _who(state: State, action: Action, expected: str) -> Player:
    """The acting player: ``expected``, which ``player`` (when given) must name."""
    name = action.get("player", expected)
    if name != expected:
        if not isinstance(name, str):
            raise RuleError(_('"player" must be a player\'s name'))
        state.player(name)  # an unknown name gets its own message
        raise RuleError(
            _("{player} cannot do that now: {what}").format(player=name, what=_waiting(state))
        )
    return state.player(expected)


def _need_step(state: State, *steps: str, what: str) -> dict[str, Any]:
    head = _head(state)
    if head is None or head["step"] not in steps:
        raise RuleError(_("cannot {what} now: {why}").format(what=what, why=_waiting(state)))
    return head


def _waiting(state: State) -> str:
    """What the game waits for, in words."""
    head = _head(state)
    if state.phase == "over" or head is None:
        return _("the game is over")
    step = head["step"]
    if step == "draw":
        return _("{player} is to draw a card").format(player=head["player"])
    if step == "deal_id":
        return _("{player} is to be dealt an ID card").format(player=head["player"])
    if step == "mulligan":
        return _("{player} is to keep their ID or take another").format(player=head["player"])
    if step == "play":
        return _("{player} is to play a card or draw instead").format(player=head["player"])
    if step == "target":
        top = state.stack[-1]
        return _("{player} is to choose the target of {card}").format(
            player=top["player"], card=state.content.name(top["card"])
        )
    if step == "respond":
        return _("{card} is pending: {players} may play a Memo, or pass").format(
            card=_entry_text(state, state.stack[-1]), players=", ".join(head["responders"])
        )
    if step == "use":
        return _("{player} may discard {item} for a second flip, or skip").format(
            player=head["player"], item=state.content.name(head["item"])
        )
    if step == "reveal":
        return _("the top B-1 card is to be turned over")
    if step == "claim":
        return _("{player} is to show their ID card or pass").format(player=head["player"])
    return step  # pragma: no cover


def _push(state: State, *steps: dict[str, Any]) -> None:
    """Put steps in front of the agenda, in the order given."""
    state.agenda = tuple(steps) + state.agenda


def _pop(state: State) -> None:
    state.agenda = state.agenda[1:]


def _window(state: State) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Memo window on the top card and its resolution, as agenda steps."""
    return {"step": "respond"}, {"step": "resolve"}


def _set_top(state: State, **changes: Any) -> None:
    state.stack = state.stack[:-1] + ({**state.stack[-1], **changes},)


# -- setup


def _do_draw(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "draw", what=_("draw"))
    p = _who(state, action, head["player"])
    card = action.get("card")
    if state.deck == 0:
        _reshuffle(state, effects, held=_held(state, head))
    if state.deck == 0:
        if card is not None:
            raise RuleError(_("there is no card to draw: the draw and discard piles are empty"))
        _pop(state)
        _effect(effects, "no_card", _("no card left to draw"), player=p.name)
        return
    if card is not None:
        located = _located(state)
        copies = _copies(state, card)
        inst = next((i for i in copies if i not in located), None)
        if inst is None:
            raise RuleError(
                _("{card} cannot be drawn: it is {where}").format(
                    card=state.content.name(copies[0]), where=_where(state, copies[0])
                )
            )
        p.hand += (inst,)
    else:
        p.unknown += 1
    state.deck -= 1
    _pop(state)
    if head.get("deal"):
        _effect(effects, "deal", _("DEAL a card to {player}").format(player=p.name), player=p.name)
    else:
        _effect(effects, "draw", _("{player} draws a card").format(player=p.name), player=p.name)


def _held(state: State, head: dict[str, Any]) -> set[str]:
    """Cards in the discard pile a draw now may not shuffle in: the Action whose draws these
    are ("do whatever it says, then discard it"), and a Rewind whose card is still resolving."""
    return set(head.get("held", ())) | {e["via"] for e in state.stack if e.get("via")}


def _reshuffle(state: State, effects: list[Effect], held: set[str]) -> None:
    """The draw pile is empty: the discard pile, shuffled, becomes the draw pile, but for the
    ``held`` cards (``_held``)."""
    kept = tuple(c for c in state.discard if c in held)
    if len(state.discard) == len(kept):
        return
    state.deck = len(state.discard) - len(kept)
    state.discard = kept
    _effect(
        effects,
        "reshuffle",
        ngettext("SHUFFLE the discard pile ({n} card): it is the new draw pile",
                 "SHUFFLE the discard pile ({n} cards): it is the new draw pile",
                 state.deck).format(n=state.deck),
        cards=state.deck,
    )


def _do_deal_id(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "deal_id", what=_("deal an ID card"))
    p = _who(state, action, head["player"])
    ident = action.get("id")
    if ident is not None:
        if not isinstance(ident, str) or ident not in state.content.identities:
            raise RuleError(_("no ID card {id} in this game").format(id=repr(ident)))
        if ident in _known_ids(state):
            raise RuleError(_("the ID card {id} is already out").format(id=repr(ident)))
    p.identity = ident
    p.has_id = True
    state.ids_out += 1
    _pop(state)
    _effect(effects, "deal_id", _("DEAL an ID card to {player}").format(player=p.name),
            player=p.name)


def _mulligan_step(state: State, action: Action, what: str) -> tuple[int, Player]:
    """Where ``player``'s mulligan decision waits in the agenda, and the player."""
    head = _head(state)
    if state.phase != "setup" or head is None or head["step"] != "mulligan":
        if state.phase == "setup" and any(s["step"] == "mulligan" for s in state.agenda):
            raise RuleError(_("cannot {what} now: {why}").format(what=what, why=_waiting(state)))
        if (state.turns == 0 and not state.discard and not state.altered
                and len(state.content.identities) <= state.ids_out):
            # the start of the game still, but the mulligans ended with the ID cards
            raise RuleError(_("no ID card is left to take instead"))
        raise RuleError(_("the identity mulligan is only at the start of the game"))
    p = state.player(action.get("player", head["player"]))
    for index, step in enumerate(state.agenda):
        if step["step"] == "mulligan" and step["player"] == p.name:
            return index, p
    raise RuleError(_("{player} has already decided about their ID").format(player=p.name))


def _do_keep(state: State, action: Action, effects: list[Effect]) -> None:
    if "player" not in action:  # everyone still deciding keeps their ID
        _mulligan_step(state, action, _("keep the IDs"))
        state.agenda = tuple(s for s in state.agenda if s["step"] != "mulligan")
        return
    index, p = _mulligan_step(state, action, _("keep an ID"))
    state.agenda = state.agenda[:index] + state.agenda[index + 1 :]


def _do_mulligan(state: State, action: Action, effects: list[Effect]) -> None:
    index, p = _mulligan_step(state, action, _("take another ID"))
    if len(state.content.identities) - state.ids_out < 1:
        raise RuleError(_("no ID card is left to take instead"))
    state.agenda = state.agenda[:index] + state.agenda[index + 1 :]
    if p.identity:
        p.aside += (p.identity,)
    p.identity = None
    p.has_id = False
    p.mulligan = True
    _push(state, {"step": "deal_id", "player": p.name})
    _effect(
        effects,
        "mulligan",
        _("{player}: SET your ID card aside and take another").format(player=p.name),
        player=p.name,
    )


# -- plays


def _do_play(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "play", "respond", what=_("play a card"))
    if head["step"] == "respond":
        name = action.get("player")
        if name not in head["responders"]:
            if isinstance(name, str):
                state.player(name)
            raise RuleError(
                _("only {players} may play a card now: {why}").format(
                    players=", ".join(head["responders"]), why=_waiting(state)
                )
            )
        p = state.player(name)
        inst = _from_hand(state, p, action.get("card"))
        card = state.content.entry[inst]
        if card.get("memo"):
            _do_memo(state, {**action, "type": "memo"}, effects)
            return
        why = _why_not(state, p, card, response=True)
    else:
        p = _who(state, action, head["player"])
        inst = _from_hand(state, p, action.get("card"))
        card = state.content.entry[inst]
        why = _why_not(state, p, card)
    if why:
        raise RuleError(why)
    kind = _target_kind(card)
    target = action.get(kind) if kind else None
    if target is not None:
        _check_target(state, p, card, kind, target)
    if card["type"] == "doubleback" and action.get("event") not in (None, card["linchpin"]):
        raise RuleError(  # a DoubleBack flips its own Linchpin, never the one named
            _("{card} cannot flip {event}").format(card=card["name"], event=action["event"])
        )
    _take_from_hand(p, inst)
    _pop(state)
    if head["step"] == "play" or p.name == state.current.name:
        state.plays -= 1
    state.stack = state.stack + ({"kind": "play", "card": inst, "player": p.name},)
    _effect(
        effects,
        "play",
        _("{player} plays {card} ({type})").format(
            player=p.name, card=card["name"], type=type_word(card)
        ),
        player=p.name,
        card=inst,
        card_type=card["type"],
        name=card["name"],
    )
    if kind and target is None:
        _push(state, {"step": "target"}, *_window(state))
    else:
        if kind:
            _set_target(state, kind, target, effects)
        _push(state, *_window(state))


def _check_target(state: State, p: Player, card: dict[str, Any], kind: str, target: Any) -> str:
    """The target ``target`` of ``card`` (a copy, for a pick), or RuleError saying why not."""
    options = _target_options(state, p, card)
    if kind == "pick":
        if isinstance(target, str):
            copies = _copies(state, target)
            hit = [o for o in options if o in copies]
            if hit:
                return hit[0]
        names = ", ".join(state.content.name(o) for o in options) or _("none")
        raise RuleError(
            _("{card} may replay one of: {options} (never a Power Action)").format(
                card=card["name"], options=names)
        )
    if target in options:
        return target
    name = card["name"]
    if kind == "event":
        graph = state.content.graph
        if isinstance(target, str) and graph.kind(target) == "ripple":
            raise RuleError(
                _("{event} is a Ripplepoint: only Linchpins are flipped (ripples follow)").format(
                    event=target
                )
            )
        if isinstance(target, str) and target in state.content.linchpins:
            raise RuleError(
                _may_flip(state, p, target)
                or _("{card} cannot flip {event}: it flips one of {options}").format(
                    card=name, event=target, options=", ".join(options) or _("none"))
            )
        raise RuleError(
            _("{card} flips one of: {options}").format(card=name, options=", ".join(options))
        )
    raise RuleError(
        _("{card} takes an Item in front of another player: {options}").format(
            card=name, options=", ".join(options) or _("none")
        )
    )


def _set_target(state: State, kind: str, target: Any, effects: list[Effect]) -> None:
    top = state.stack[-1]
    p = state.player(top["player"])
    card = state.content.entry[top["card"]]
    target = _check_target(state, p, card, kind, target)
    if kind == "pick":  # the card to replay is taken out now, and put back if cancelled
        if card["replay"] == "discard":
            state.discard = _without(state.discard, target)
        else:
            state.deck -= 1
    _set_top(state, **{kind: target})
    text = _entry_text(state, state.stack[-1])
    _effect(effects, "target", text, player=p.name, card=top["card"], name=card["name"],
            what=_target_words(state, state.stack[-1]), **{kind: target})


def _entry_text(state: State, entry: dict[str, Any]) -> str:
    """A stack entry in words: "Time Train: FLIP A-2 · then A-6"."""
    content = state.content
    if entry["kind"] == "memo":
        return _("{player}'s Memo ({card})").format(
            player=entry["player"], card=content.name(entry["card"])
        )
    if entry["kind"] == "use":
        return _("{player}'s second flip ({item}): {flip}").format(
            player=entry["player"],
            item=content.name(entry["card"]),
            flip=_flip_words(state, entry["event"]),
        )
    name = content.entry[entry["card"]]["name"]
    what = _target_words(state, entry)
    return _("{card}: {what}").format(card=name, what=what) if what else name


def _target_words(state: State, entry: dict[str, Any]) -> str:
    """What a card being played does to its target: "FLIP A-2 · then A-6", "take Fax (Ben)"."""
    content = state.content
    card = content.entry[entry["card"]]
    event = entry.get("event") or (card["linchpin"] if card["type"] == "doubleback" else None)
    if event:
        return _flip_words(state, event)
    if entry.get("item"):
        holder = _holder_of(state, entry["item"])
        words = _("take {item} ({player})") if card.get("steal") else _(
            "discard {item} ({player})")
        return words.format(item=content.name(entry["item"]),
                            player=holder.name if holder else "-")
    if entry.get("pick"):
        return _("play {pick}").format(pick=content.name(entry["pick"]))
    return ""


def _flip_words(state: State, event: str) -> str:
    if event == B1:
        return _("B-1, un-invent time travel")
    return flip_text(state.content.graph.preview(state.altered, event))


def _do_draw_instead(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "play", what=_("draw instead of playing"))
    p = _who(state, action, head["player"])
    _pop(state)
    state.plays -= 1
    _push(state, {"step": "draw", "player": p.name})
    _effect(
        effects, "draw_instead", _("{player} draws instead of playing").format(player=p.name),
        player=p.name,
    )


def _do_target(state: State, action: Action, effects: list[Effect]) -> None:
    _need_step(state, "target", what=_("choose a target"))
    top = state.stack[-1]
    _who(state, action, top["player"])
    kind = _target_kind(state.content.entry[top["card"]])
    if kind not in action:
        raise RuleError(
            _('{card} needs "{field}": {what}').format(
                card=state.content.name(top["card"]),
                field=kind,
                what={"event": _("the Linchpin to flip"), "item": _("the Item to take"),
                      "pick": _("the card to replay")}[kind],
            )
        )
    _pop(state)
    _set_target(state, kind, action[kind], effects)


def _do_memo(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "respond", what=_("play a Memo"))
    name = action.get("player")
    top = state.stack[-1]
    if name not in head["responders"]:
        if not isinstance(name, str):
            raise RuleError(_('a Memo names its "player"'))
        state.player(name)
        if name == top["player"]:
            raise RuleError(
                _("{player} played that card; a Memo cancels another player's card").format(
                    player=name
                )
            )
        raise RuleError(
            _("{player} may not play a Memo now: {why}").format(player=name, why=_waiting(state))
        )
    q = state.player(name)
    wanted = action.get("card")
    copies = _copies(state, wanted)
    item = next((i for i in copies if i in q.items), None)
    if item is not None:
        if not state.content.entry[item].get("memo"):
            raise RuleError(
                _("{item} is not a Memo").format(item=state.content.name(item))
            )
        if item == top.get("item"):
            raise RuleError(
                _("{item} cannot stop the card that takes it away").format(
                    item=state.content.name(item)
                )
            )
        q.items = _without(q.items, item)  # it stays with the Memo until that resolves
        entry = {"kind": "memo", "card": item, "player": q.name, "used": True}
    else:
        inst = _from_hand(state, q, wanted)
        if not state.content.entry[inst].get("memo"):
            raise RuleError(_("{card} is not a Memo").format(card=state.content.name(inst)))
        if state.content.entry[inst]["type"] == "item":  # a Memo Item acts from in front only
            raise RuleError(_("{card} cancels only from in front of you: play it on your turn "
                              "first").format(card=state.content.name(inst)))
        _take_from_hand(q, inst)
        entry = {"kind": "memo", "card": inst, "player": q.name}
    _pop(state)  # too late now for any other Memo against the card beneath
    state.stack = state.stack + (entry,)
    _push(state, *_window(state))
    _effect(
        effects,
        "memo",
        _("MEMO! {player} cancels {what}").format(player=q.name, what=_entry_text(state, top)),
        player=q.name,
        card=entry["card"],
        against=top["card"],
        what=_entry_text(state, top),
        against_kind=top["kind"],
        against_player=top["player"],
        against_name=state.content.name(top["card"]),
        event=top.get("event"),
    )


def _do_pass(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "respond", "claim", what=_("pass"))
    if head["step"] == "claim":
        p = _who(state, action, head["player"])
        if p.identity and not check_identity(state, p.identity):
            raise RuleError(
                _("{player}'s ID is met: show it (claim)").format(player=p.name)
            )
        _pop(state)
        _effect(
            effects, "no_claim", _("{player}: my ID is not met").format(player=p.name),
            player=p.name,
        )
        return
    if "player" not in action:  # nobody plays a Memo: the card goes ahead
        _pop(state)
        return
    name = action["player"]
    if name not in head["responders"]:
        if isinstance(name, str):
            state.player(name)
        raise RuleError(
            _("{player} is not asked about a Memo now: {why}").format(
                player=name, why=_waiting(state)
            )
        )
    rest = [r for r in head["responders"] if r != name]
    state.agenda = ({**head, "responders": rest},) + state.agenda[1:]
    if not rest:
        _pop(state)


def _do_use(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "use", what=_("use an Item for a second flip"))
    p = _who(state, action, head["player"])
    item = head["item"]
    if "card" in action and item not in _copies(state, action["card"]):
        raise RuleError(
            _("the second flip uses {item}").format(item=state.content.name(item))
        )
    event = action.get("event")
    options = _event_options(state, p, state.content.entry[item], exclude=head["first"])
    if event not in options:
        if event == head["first"]:
            raise RuleError(_("the second flip is another Linchpin, not {event} again").format(
                event=event))
        raise RuleError(
            _("the second flip is one of: {options}").format(options=", ".join(options))
        )
    _pop(state)
    p.items = _without(p.items, item)  # lost even if a Memo stops the flip
    state.stack = state.stack + ({"kind": "use", "card": item, "player": p.name, "event": event},)
    _push(state, *_window(state))
    _effect(
        effects,
        "use",
        _("{player}: DISCARD {item} for a second flip: {flip}").format(
            player=p.name, item=state.content.name(item), flip=_flip_words(state, event)
        ),
        player=p.name,
        item=item,
        event=event,
        name=state.content.name(item),
    )


def _do_skip(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "use", what=_("skip the second flip"))
    _who(state, action, head["player"])
    _pop(state)


def _do_reveal(state: State, action: Action, effects: list[Effect]) -> None:
    head = _need_step(state, "reveal", what=_("turn over a B-1 card"))
    card = action.get("card")
    if card not in (DUD, CLOCK):
        raise RuleError(_('the B-1 card is "dud" (Mysterious Forces) or "clock"'))
    if card == DUD and state.b1_left == 1:
        raise RuleError(_("only the clock is left at B-1: the top card cannot be a dud"))
    _pop(state)
    p = state.player(head["player"])
    state.changed = True  # Mysterious Forces count as a change (FAQ); so does the clock
    if card == DUD:
        state.b1_left -= 1
        state.b1_aside += 1
        _effect(
            effects,
            "dud",
            _("MYSTERIOUS FORCES: SET the B-1 card aside ({n} left)").format(n=state.b1_left),
            player=p.name,
            left=state.b1_left,
        )
        return
    _effect(
        effects,
        "clock",
        _("EMMETT BROWN HANGS A CLOCK! Time travel is un-invented"),
        player=p.name,
    )
    for entry in reversed(state.stack):
        _put_back(state, entry, effects)
    state.stack = ()
    state.plays = 0
    state.phase = "claims"
    state.met = ()
    n = len(state.players)
    order = [state.players[(state.turn + k) % n].name for k in range(n)]
    state.agenda = tuple({"step": "claim", "player": name} for name in order) + (
        {"step": "verdict"},
    )


def _do_claim(state: State, action: Action, effects: list[Effect]) -> None:
    if _head(state) is not None and _head(state)["step"] != "claim" and state.phase != "over":
        raise RuleError(_("cannot claim victory now: claims come only after the clock is turned "
                          "over at B-1 ({why})").format(why=_waiting(state)))
    head = _need_step(state, "claim", what=_("claim victory"))
    p = _who(state, action, head["player"])
    ident = action.get("id")
    if not isinstance(ident, str) or ident not in state.content.identities:
        raise RuleError(
            _("name the ID card shown: one of {ids}").format(
                ids=", ".join(state.content.identities)
            )
        )
    if p.identity and ident != p.identity:
        raise RuleError(_("that is not {player}'s ID card").format(player=p.name))
    if ident in _known_ids(state, but=p) | set(p.aside):
        raise RuleError(_("that ID card is not {player}'s: it is out elsewhere").format(
            player=p.name))
    p.identity = ident
    p.shown = True
    _pop(state)
    wrong = check_identity(state, ident)
    character = state.content.identities[ident]["character"]
    if wrong:
        _effect(
            effects,
            "claim",
            _("{player} is {character}: still wrong: {events}").format(
                player=p.name,
                character=character,
                events=", ".join(
                    _("{event} (needs {side})").format(event=w["event"], side=side_word(w))
                    for w in wrong
                ),
            ),
            player=p.name,
            id=ident,
            character=character,
            met=False,
            wrong=[w["event"] for w in wrong],
        )
        return
    _effect(
        effects,
        "claim",
        _("{player} is {character}: every event is set").format(
            player=p.name, character=character
        ),
        player=p.name,
        id=ident,
        character=character,
        met=True,
        wrong=[],
    )
    if p.name == state.current.name:
        _win(state, p, effects)
    else:
        state.met = state.met + (p.name,)


def _win(state: State, p: Player, effects: list[Effect]) -> None:
    state.winner = p.name
    state.phase = "over"
    state.agenda = ()
    _effect(effects, "win", _("{player} WINS! Reality is frozen").format(player=p.name),
            player=p.name)


_HANDLERS = {
    "draw": _do_draw,
    "deal_id": _do_deal_id,
    "keep": _do_keep,
    "mulligan": _do_mulligan,
    "play": _do_play,
    "draw_instead": _do_draw_instead,
    "target": _do_target,
    "memo": _do_memo,
    "pass": _do_pass,
    "use": _do_use,
    "skip": _do_skip,
    "reveal": _do_reveal,
    "claim": _do_claim,
}


# --------------------------------------------------------------------------- what follows


def _advance(state: State, effects: list[Effect]) -> None:
    """Run the steps that need nobody until the game waits for a decision or for chance."""
    while state.phase != "over":
        head = _head(state)
        if head is not None:
            step = head["step"]
            if step == "resolve":
                _pop(state)
                _resolve(state, effects)
                continue
            if step == "verdict":
                _pop(state)
                _verdict(state, effects)
                continue
            if step == "extras":
                _pop(state)
                _extras(state, head, effects)
                continue
            if step == "mulligan" and len(state.content.identities) <= state.ids_out:
                _pop(state)  # no ID left to take instead
                continue
            if step == "respond" and "responders" not in head:
                responders = _responders(state, state.stack[-1])
                state.agenda = ({**head, "responders": responders},) + state.agenda[1:]
                if responders:
                    _announce(state, effects, responders)
                continue
            if step == "respond" and not head["responders"]:
                _pop(state)
                continue
            return
        if state.phase == "setup":
            state.phase = "play"
            _start_turn(state, effects)
            continue
        if state.plays > 0:
            state.agenda = ({"step": "play", "player": state.current.name},)
            return
        _end_turn(state, effects)


def _announce(state: State, effects: list[Effect], responders: list[str]) -> None:
    top = state.stack[-1]
    text = _entry_text(state, top)
    if top.get("event") == B1 or (
        "card" in top and state.content.entry[top["card"]].get("linchpin") == B1
    ):
        line = _("B-1! {player} tries to un-invent time travel: MEMO now or never").format(
            player=top["player"]
        )
    else:
        line = _("{what} - MEMO? ({players})").format(what=text, players=", ".join(responders))
    _effect(effects, "pending", line, player=top["player"], responders=list(responders))


def _resolve(state: State, effects: list[Effect]) -> None:
    """The most recent card being played takes effect (or is discarded if cancelled)."""
    entry = state.stack[-1]
    state.stack = state.stack[:-1]
    p = state.player(entry["player"])
    content = state.content
    if entry.get("cancelled"):
        _put_back(state, entry, effects)
        return
    if entry["kind"] == "memo":
        if "card" in entry:
            state.discard += (entry["card"],)
        below = state.stack[-1]
        state.stack = state.stack[:-1] + ({**below, "cancelled": True},)
        if below["kind"] == "use":
            text = _("MEMO: the second flip is cancelled; {event} stays").format(
                event=below["event"]
            )
        elif below["kind"] == "memo":
            text = _("MEMO: {player}'s Memo is cancelled").format(player=below["player"])
        else:
            text = _("MEMO: {card} is cancelled - DISCARD it").format(
                card=content.name(below["card"])
            )
        _effect(effects, "cancel", text, player=below["player"], card=below["card"],
                name=content.name(below["card"]), what=below["kind"], event=below.get("event"))
        return
    if entry["kind"] == "use":
        state.discard += (entry["card"],)
        _push(state, *_flip(state, p, entry["event"], effects))
        return
    inst = entry["card"]
    card = content.entry[inst]
    steps: list[dict[str, Any]] = []
    if card["type"] == "item":
        p.items += (inst,)
        _effect(
            effects,
            "item",
            _("{player}: PUT {card} in front of you").format(player=p.name, card=card["name"]),
            player=p.name,
            card=inst,
            name=card["name"],
        )
        return
    state.discard += (inst,)  # everything but an Item is discarded once used
    if card["type"] == "doubleback":
        steps += _flip(state, p, card["linchpin"], effects)
        item = _item_copy(p, state, card["item"])
        if item is not None and state.phase == "play":
            steps.append({"step": "use", "player": p.name, "item": item,
                          "first": card["linchpin"]})
    elif "event" in entry:
        steps += _flip(state, p, entry["event"], effects)
    elif "item" in entry:
        _take_item(state, p, card, entry["item"], effects)
    elif "pick" in entry:
        steps += _replay(state, p, inst, entry["pick"], effects)
    if card.get("draw") or card.get("extra_play"):  # after the flip (and any B-1 card)
        steps.append({"step": "extras", "player": p.name, "card": inst, "via": entry.get("via")})
    _push(state, *steps)


def _extras(state: State, step: dict[str, Any], effects: list[Effect]) -> None:
    """A card's draws and extra plays, once its main effect is done."""
    card = state.content.entry[step["card"]]
    p = state.player(step["player"])
    if card.get("draw"):
        n = card["draw"]
        _effect(
            effects,
            "draw_cards",
            ngettext("{player}: DRAW {n} card", "{player}: DRAW {n} cards", n).format(
                player=p.name, n=n
            ),
            player=p.name,
            count=n,
        )
        held = [step["card"]] if card["type"] in ("action", "power_action") else []
        if step.get("via"):  # replayed by a Rewind: discarded after this card is done
            held.append(step["via"])
        draw: dict[str, Any] = {"step": "draw", "player": p.name}
        if held:  # an Action is discarded only after these draws
            draw["held"] = held
        _push(state, *[draw] * n)
    if card.get("extra_play") and p.name == state.current.name:
        n = card["extra_play"]
        state.plays += n
        _effect(
            effects,
            "extra_play",
            ngettext("{player}: {n} more play", "{player}: {n} more plays", n).format(
                player=p.name, n=n
            ),
            player=p.name,
            count=n,
        )


def _put_back(state: State, entry: dict[str, Any], effects: list[Effect]) -> None:
    """A card that will not resolve: discard it; a card it picked goes back where it was."""
    state.discard += (entry["card"],)
    pick = entry.get("pick")
    if pick is None:
        return
    if state.content.entry[entry["card"]]["replay"] == "discard":
        state.discard += (pick,)
        return
    state.deck += 1
    _effect(
        effects,
        "put_back",
        _("{player}: SHUFFLE {card} back into the draw pile").format(
            player=entry["player"], card=state.content.name(pick)
        ),
        player=entry["player"],
        card=pick,
    )


def _flip(state: State, p: Player, event: str, effects: list[Effect]) -> list[dict[str, Any]]:
    """Change the TimeLine at Linchpin ``event``; returns the steps that follow (B-1)."""
    if event == B1:
        _effect(
            effects,
            "b1",
            _("B-1: TURN OVER the top B-1 card ({n} left, 1 ends the game)").format(
                n=state.b1_left
            ),
            player=p.name,
            left=state.b1_left,
            odds=clock_odds(state),
        )
        return [{"step": "reveal", "player": p.name}]
    why = _may_flip(state, p, event)
    if why:  # the Item it needed was taken while the card was pending
        _effect(effects, "fizzle", why, player=p.name, event=event)
        return []
    state.altered, flips = state.content.graph.flip(state.altered, event)
    state.changed = True
    _effect(
        effects,
        "flip",
        flip_text(flips),
        player=p.name,
        event=event,
        flips=flips,
        ripples=flips[1:],
        to="altered" if event in state.altered else "original",
    )
    return []


def _take_item(
    state: State, p: Player, card: dict[str, Any], item: str, effects: list[Effect]
) -> None:
    holder = _holder_of(state, item)
    name = state.content.name(item)
    if holder is None or holder.name == p.name:
        _effect(effects, "fizzle", _("{item} is no longer there").format(item=name),
                player=p.name)
        return
    holder = state.player(holder.name)
    holder.items = _without(holder.items, item)
    if card.get("steal"):
        p.items += (item,)
        text = _("{player} TAKES {item} from {other}").format(
            player=p.name, item=name, other=holder.name
        )
        _effect(effects, "steal", text, player=p.name, other=holder.name, item=item, name=name)
    else:
        state.discard += (item,)
        text = _("{other}: DISCARD {item}").format(other=holder.name, item=name)
        _effect(effects, "trash", text, player=p.name, other=holder.name, item=item, name=name)


def _replay(
    state: State, p: Player, rewind: str, pick: str, effects: list[Effect]
) -> list[dict[str, Any]]:
    """Play the card a Rewind (or a Quick Trip), ``rewind``, took out when it was chosen.
    Until that card is done, draws do not shuffle ``rewind`` back in (``_held``)."""
    card = state.content.entry[rewind]
    picked = state.content.entry[pick]
    if card["replay"] == "discard":
        where = _("from the discard pile")
    else:
        where = _("from the draw pile, then SHUFFLE the draw pile")
    _effect(
        effects,
        "replay",
        _("{player} plays {card} {where}").format(player=p.name, card=picked["name"],
                                                  where=where),
        player=p.name,
        card=pick,
        name=picked["name"],
        source=card["replay"],
    )
    why = _why_not(state, p, picked)
    if why is not None:  # its target went while the card that picked it was pending
        state.discard += (pick,)
        _effect(effects, "fizzle", why, player=p.name, card=pick, name=picked["name"])
        return []
    state.stack = state.stack + ({"kind": "play", "card": pick, "player": p.name,
                                  "via": rewind},)
    if _target_kind(picked):
        return [{"step": "target"}, *_window(state)]
    return list(_window(state))


def _verdict(state: State, effects: list[Effect]) -> None:
    """After every claim: exactly one other player met wins; otherwise play goes on."""
    if len(state.met) == 1:
        _win(state, state.player(state.met[0]), effects)
        return
    _effect(
        effects,
        "no_winner",
        _("NO WINNER: SHUFFLE the {n} B-1 cards and put them back at B-1").format(
            n=state.b1_left
        ),
        left=state.b1_left,
    )
    state.phase = "play"
    state.met = ()
    state.changed = True
    _end_turn(state, effects)


def _start_turn(state: State, effects: list[Effect]) -> None:
    p = state.current
    bonus = sum(state.content.entry[i].get("draw_bonus", 0) for i in p.items)
    state.plays = 1
    state.changed = False
    state.agenda = tuple({"step": "draw", "player": p.name} for _ in range(1 + bonus))
    text = _("{player}: DRAW 1, PLAY 1").format(player=p.name)
    if bonus:
        text = ngettext(
            "{player}: DRAW 1 (+{n} for your Items), PLAY 1",
            "{player}: DRAW 1 (+{n} for your Items), PLAY 1",
            bonus,
        ).format(player=p.name, n=bonus)
    _effect(effects, "turn", text, player=p.name, draws=1 + bonus)


def _end_turn(state: State, effects: list[Effect]) -> None:
    state.previous = state.current.name
    state.last_changed = state.changed
    state.turn = (state.turn + 1) % len(state.players)
    state.turns += 1
    state.plays = 0
    state.stack = ()
    _start_turn(state, effects)


# --------------------------------------------------------------------------- words for menus


def label(state: State, action: Action) -> str:
    """A short text for an action in a menu (for the player who would take it)."""
    kind = action.get("type")
    content = state.content
    card = action.get("card")
    name = content.name(card) if isinstance(card, str) and card in content.entry else card
    if kind == "play":
        return _("PLAY {card}").format(card=name)
    if kind == "draw_instead":
        return _("DRAW instead of playing")
    if kind == "target":
        if "event" in action:
            return _flip_words(state, action["event"])
        if "item" in action:
            holder = _holder_of(state, action["item"])
            return _("{item} ({player})").format(
                item=content.name(action["item"]), player=holder.name if holder else "-"
            )
        return content.name(action["pick"])
    if kind == "memo":
        return _("MEMO with {card}").format(card=name)
    if kind == "pass":
        if state.agenda and state.agenda[0]["step"] == "claim":
            return _("my ID is not met")
        return _("no Memo")
    if kind == "use":
        return _("2nd flip: {flip}").format(flip=_flip_words(state, action["event"]))
    if kind == "skip":
        return _("no second flip")
    if kind == "claim":
        ident = content.identities.get(str(action.get("id")), {})
        return _("I am {character}").format(character=ident.get("character", action.get("id")))
    if kind == "keep":
        return _("keep my ID")
    if kind == "mulligan":
        return _("take another ID")
    if kind == "reveal":
        return _(DUD_NAME) if action.get("card") == DUD else _(CLOCK_NAME)
    if kind == "draw":
        return _("{player} draws").format(player=action.get("player"))
    if kind == "deal_id":
        return _("ID card for {player}").format(player=action.get("player"))
    return str(kind)


# --------------------------------------------------------------------------- JSON and views


def to_json(state: State) -> dict[str, Any]:
    return {
        "title": facts.key,
        "players": [
            {
                "name": p.name,
                "hand": list(p.hand),
                "unknown": p.unknown,
                "items": list(p.items),
                "identity": p.identity,
                "has_id": p.has_id,
                "aside": list(p.aside),
                "mulligan": p.mulligan,
                "shown": p.shown,
            }
            for p in state.players
        ],
        "content": state.content.sections,
        "options": dict(state.options),
        "phase": state.phase,
        "turn": state.turn,
        "altered": sorted(state.altered),
        "b1_left": state.b1_left,
        "b1_aside": state.b1_aside,
        "deck": state.deck,
        "discard": list(state.discard),
        "stack": [dict(e) for e in state.stack],
        "agenda": [dict(s) for s in state.agenda],
        "plays": state.plays,
        "changed": state.changed,
        "last_changed": state.last_changed,
        "previous": state.previous,
        "ids_out": state.ids_out,
        "met": list(state.met),
        "winner": state.winner,
        "turns": state.turns,
    }


def from_json(data: dict[str, Any]) -> State:
    players = [
        Player(
            p["name"],
            tuple(p["hand"]),
            p["unknown"],
            tuple(p["items"]),
            p["identity"],
            p["has_id"],
            tuple(p["aside"]),
            p["mulligan"],
            p["shown"],
        )
        for p in data["players"]
    ]
    return State(
        players,
        _CACHED_CONTENT(data["content"]),
        dict(data["options"]),
        data["phase"],
        data["turn"],
        frozenset(data["altered"]),
        data["b1_left"],
        data["b1_aside"],
        data["deck"],
        tuple(data["discard"]),
        tuple(dict(e) for e in data["stack"]),
        tuple(dict(s) for s in data["agenda"]),
        data["plays"],
        data["changed"],
        data["last_changed"],
        data["previous"],
        data["ids_out"],
        tuple(data["met"]),
        data["winner"],
        data["turns"],
    )


def secrets(state: State) -> dict[str, list[str]]:
    """Per player: the cards known to be in their hand, and their ID cards not yet shown."""
    out = {}
    for p in state.players:
        values = list(p.hand) + list(p.aside)
        if p.identity and not p.shown:
            values.append(p.identity)
        out[p.name] = values
    return out


def _stack_view(state: State) -> list[dict[str, Any]]:
    out = []
    for entry in state.stack:
        item = {k: v for k, v in entry.items() if k in (
            "kind", "player", "card", "event", "pick", "cancelled")}
        if entry.get("item") and _holder_of(state, entry["item"]) is not None:
            item["item"] = entry["item"]
        item["text"] = _entry_text(state, entry)
        out.append(item)
    return out


def view(state: State, observer: str | None = None) -> dict[str, Any]:
    """What ``observer`` may see (None: the public table, as on the OLED)."""
    content = state.content
    graph = content.graph
    shown = sides(state)
    grid = []
    for row in ROWS:
        cells = []
        for col in range(1, 7):
            eid = f"{row}-{col}"
            if eid == B1:
                cells.append({"id": eid, "kind": "b1", "altered": False,
                              "headline": _(B1_EVENT)})
            elif eid in graph.events:
                altered = eid in shown
                cells.append({"id": eid, "kind": graph.kind(eid), "altered": altered,
                              "headline": content.headline(eid, altered)})
            else:
                cells.append({"id": eid, "kind": None, "altered": False, "headline": ""})
        grid.append(cells)
    players = []
    for p in state.players:
        public: dict[str, Any] = {
            "name": p.name,
            "hand": p.cards,
            "items": [{"card": i, "name": content.name(i)} for i in p.items],
            "mulligan": p.mulligan,
            "identity": None,
        }
        if p.shown and p.identity:
            ident = content.identities[p.identity]
            public["identity"] = {"id": p.identity, "character": ident["character"],
                                  "wrong": [w["event"] for w in check_identity(state, p.identity)]}
        players.append(public)
    head = _head(state)
    waiting: dict[str, Any] | None = None
    if head is not None and state.phase != "over":
        waiting = {"step": head["step"], "actor": actor(state), "text": _waiting(state)}
        if head["step"] == "respond":
            waiting["responders"] = list(head.get("responders", ()))
    out: dict[str, Any] = {
        "title": facts.key,
        "phase": state.phase,
        "turn": state.players[state.turn].name if state.phase != "setup" else None,
        "actor": actor(state),
        "waiting": waiting,
        "timeline": grid,
        "map": timeline_map(state),
        "altered": [e for e in POSITIONS if e in shown],
        "b1": {"left": state.b1_left, "aside": state.b1_aside, "clock_odds": clock_odds(state)},
        "players": players,
        "deck": state.deck,
        "discard": list(state.discard),
        "stack": _stack_view(state),
        "plays": state.plays,
        "previous": state.previous,
        "last_changed": state.last_changed,
        "changed": state.changed,
        "winner": state.winner,
        "turns": state.turns,
    }
    me = next((p for p in state.players if p.name == observer), None)
    if me is not None:
        mine: dict[str, Any] = {
            "name": me.name,
            "hand": [
                {"card": i, "name": content.name(i), "type": content.entry[i]["type"]}
                for i in me.hand
            ],
            "unknown": me.unknown,
            "identity": None,
            "aside": list(me.aside),
        }
        if me.identity:
            ident = content.identities[me.identity]
            mine["identity"] = {
                "id": me.identity,
                "character": ident["character"],
                "requires": dict(ident["requires"]),
                "wrong": [w["event"] for w in check_identity(state, me.identity)],
            }
        out["me"] = mine
    return out
