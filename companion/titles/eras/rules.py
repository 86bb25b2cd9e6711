"""The era card game (1955 / 1985 / 2015): the complete rules as a pure engine.

The rules are those of the rulebook summary; ``docs/rules/eras.md`` translates each sentence,
writes down every decision where the summary is silent or ambiguous, and names the test that
holds it. Cards, tokens and the DeLorean stay on the table: the engine keeps the whole state,
checks every play and cost, says what to do with the physical parts, and scores the game.

A game is a list of JSON actions. The turn player's big decisions are small actions; a cost is
then paid one card at a time, and the engine offers only the cards that leave the payment
possible (so a 3-line menu can always show the choices):

===========  =================================================  ==============================
type         fields                                             who
===========  =================================================  ==============================
reveal       era, event                                         chance (the event turned up)
deal         player, cards (optional)                           chance (an opening hand)
draw         player, cards (optional)                           chance (cards drawn)
stolen       card (optional)                                    chance (the card Biff draws)
role         role                                               each player, at a round's start
steal        from                                               Biff's player
discard      card                                               George's player (or ``pass``)
move         to, pay (optional)                                 the turn player
play         card, era, pay and ripple (optional)               the turn player
complete     event, cards (optional)                            the turn player
shift        card, to                                           Lorraine's player
clock        -                                                  the turn player
end          -                                                  the turn player
pay          with (a card id, "clock" or "free")                while a cost is due
ripple       card (optional)                                    while ripple cards are due
use          card                                               choosing the cards an event uses
keep         cards (kept) or discard (given back)               after "draw 2, keep 1" etc.
extra        -                                                  "Draw 1": take the extra card
pass         -                                                  decline what is optional
tally        vp                                                 the end: unnamed ripple cards
===========  =================================================  ==============================

Cards in a hand are secret, and at the table they stay in the players' hands: a draw, Biff's
card and a ripple card laid face down may be recorded without naming the card (the table does
so), and a hand is then the cards named so far plus a count of unseen ones. A card is named
when it comes face up: played, paid, discarded. Ripple cards nobody named are turned up at the
end and their VP added up (``tally``). A simulation names every card, and nothing is counted.

Every action may carry ``player``: it must then name the player whose decision it is.

    >>> from companion.content import demo_pack
    >>> state = new_game(["Ana", "Ben"], {}, demo_pack("eras"))
    >>> actor(state), legal_actions(state)
    ('chance', [{'type': 'reveal', 'era': '1955'}])
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion.i18n import N_, _, ngettext
from companion.titles.api import (
    CHANCE,
    TERMINAL,
    Action,
    Effect,
    Facts,
    RuleError,
    check_players,
    known_options,
)

ERAS = ("1955", "1985", "2015")
ANY = "any"  # the infinity mark: a card that may be played into any era
ROLES = ("marty", "doc", "george", "lorraine", "biff", "jennifer")
ROLE_NAMES = {
    "marty": N_("Marty"),
    "doc": N_("Doc"),
    "george": N_("George"),
    "lorraine": N_("Lorraine"),
    "biff": N_("Biff"),
    "jennifer": N_("Jennifer"),
}
RIPPLE = {"1955": 2, "1985": 1, "2015": 0}  # ripple cards a play into each era needs
ADJACENT = {"1955": ("1985",), "1985": ("1955", "2015"), "2015": ("1985",)}
START_ERA = "1985"  # where the DeLorean starts (public fact)
MOVE_COST = 3  # power to move the DeLorean
CLOCK_POWER = 3  # a clock tower token pays 3 power ...
CLOCK_TIME = 2  # ... or 2 time
MAX_CLOCKS = 2
EVENTS_PER_ERA = 3  # public fact: three event cards per era
KINDS = ("character", "event", "vp")
RESERVED = ("clock", "free")  # payment words that can never be card ids
REQUIRED = {
    "character": ("role", "era", "power", "clocks", "vp"),
    "event": ("era", "role"),
    "vp": ("era", "value"),
}

# The B sides of the events (advanced rules): key -> (eras, printed title, what it does).
EFFECTS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "draw-1": (("1955",), N_("Draw 1"), N_("at the end of your turn you may draw 1 more card")),
    "cost-minus-2": (
        ("1955",),
        N_("All characters cost -2 Time"),
        N_("cards played into 1955 cost 2 time less (never below 0)"),
    ),
    "clock-anyway": (
        ("1955",),
        N_("You may take a Clock Tower token even if you played a character or completed an event"),
        N_("take a clock tower token even after a play or an event (at most 2)"),
    ),
    "skip-second-ripple": (
        ("1955",),
        N_("You may ignore the second Ripple when playing a character"),
        N_("a card played into 1955 needs 1 ripple card (2 if you wish)"),
    ),
    "none": (("1985", "2015"), N_("No effect"), N_("no effect")),
    "ripple-from-deck": (
        ("1985",),
        N_("You must draw your Ripple from the deck"),
        N_("ripple cards come from the top of the deck, not from your hand"),
    ),
    "second-ripple": (
        ("1985",),
        N_("You may pay a second Ripple card"),
        N_("a play that pays the 1985 ripple may ripple 1 card more"),
    ),
    "draw-2-keep-1": (
        ("1985",),
        N_("Draw 2, keep 1"),
        N_("at the end of your turn draw 2 cards, keep 1, discard the other"),
    ),
    "draw-3-keep-2": (
        ("2015",),
        N_("Draw 3, keep 2"),
        N_("at the end of your turn draw 3 cards, keep 2, discard the other"),
    ),
    "ripple-backwards": (
        ("2015",),
        N_("When you play a character, you must pay a Ripple backwards in time"),
        N_("a card played into 2015 needs 1 ripple card"),
    ),
    "then-1955": (
        ("2015",),
        N_("After drawing cards, the DeLorean moves to 1955"),
        N_("at the end of your turn draw 2 cards, then the DeLorean goes to 1955"),
    ),
}

facts = Facts(
    key="eras",
    name="Era card game (1955/1985/2015)",
    min_players=2,
    max_players=6,
    chance="character cards drawn from the deck; events turned up; the card Biff draws blind",
    options={"advanced": False, "hand": 5, "refill": [2, 1, 0]},
    plate="1955-2015",
)

_ERA_ALIASES = {
    "1955": "1955",
    "55": "1955",
    "1985": "1985",
    "85": "1985",
    "2015": "2015",
    "15": "2015",
}
_ANY_ALIASES = ("any", "infinity", "∞", "inf")


def era_of(value: Any, allow_any: bool = False) -> str:
    """The canonical era ("1955", "1985", "2015"; "any" for the infinity mark if allowed)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(_("{value} is not an era (1955, 1985 or 2015)").format(value=repr(value)))
    key = str(value).strip().lower()
    if allow_any and key in _ANY_ALIASES:
        return ANY
    if key not in _ERA_ALIASES:
        if allow_any:
            raise ValueError(
                _("{value} is not an era (1955, 1985, 2015 or any)").format(value=repr(value))
            )
        raise ValueError(_("{value} is not an era (1955, 1985 or 2015)").format(value=repr(value)))
    return _ERA_ALIASES[key]


def role_of(value: Any) -> str:
    """The canonical role key for a role written by a person."""
    key = str(value).strip().lower() if isinstance(value, str) else ""
    if key == "lorraine" or key == "lorrain" or key == "lorraine baines":
        key = "lorraine"
    if key not in ROLES:
        raise ValueError(
            _("{value} is not a role ({roles})").format(value=repr(value), roles=", ".join(ROLES))
        )
    return key


def role_name(role: str) -> str:
    return _(ROLE_NAMES[role])


def _count(entry: dict[str, Any], key: str, top: int, default: int | None = None) -> int:
    value = entry.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise ValueError(
            _("{key} must be a whole number from 0 to {top}, not {value}").format(
                key=key, top=top, value=repr(value)
            )
        )
    return value


def validate_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """Check one ``[[card]]`` entry of a content pack; return it normalised.

    ``kind`` says what it is: a ``character`` card (role, era, power, clocks, vp), an ``event``
    card (era, role, and the ``effect`` of its B side) or a ``vp`` token (era, value).
    """
    out = dict(entry)
    kind = entry.get("kind")
    if kind not in KINDS:
        raise ValueError(
            _('kind {kind} must be "character", "event" or "vp"').format(kind=repr(kind))
        )
    if str(entry.get("id", "")).strip().lower() in RESERVED:
        raise ValueError(
            _("{id} is a payment word; choose another id").format(id=repr(entry.get("id")))
        )
    for key in ("name", "note"):
        if key in entry and not isinstance(entry[key], str):
            raise ValueError(_("{key} must be text").format(key=key))
    needed = REQUIRED[kind]
    missing = [key for key in needed if entry.get(key) is None]
    if missing:
        raise ValueError(
            _("missing {fields}: a {kind} entry needs {needed}").format(
                fields=", ".join(missing), kind=kind, needed=", ".join(needed)
            )
        )
    if kind == "character":
        out["role"] = role_of(entry.get("role"))
        out["era"] = era_of(entry.get("era"), allow_any=True)
        out["power"] = _count(entry, "power", 9)
        out["clocks"] = _count(entry, "clocks", 9)
        out["vp"] = _count(entry, "vp", 9)
        extra = set(entry) - {"id", "kind", "role", "era", "power", "clocks", "vp", "name",
                              "note", "source"}
    elif kind == "event":
        out["era"] = era_of(entry.get("era"))
        out["role"] = role_of(entry.get("role"))
        effect = entry.get("effect")
        if effect is not None:
            if not isinstance(effect, str) or effect not in EFFECTS:
                raise ValueError(
                    _("effect {effect} is not a B side of the rulebook; known: {known}").format(
                        effect=repr(effect), known=", ".join(EFFECTS)
                    )
                )
            if out["era"] not in EFFECTS[effect][0]:
                mine = [k for k, v in EFFECTS.items() if out["era"] in v[0]]
                raise ValueError(
                    _("effect {effect} is not one of the {era} B sides ({known})").format(
                        effect=effect, era=out["era"], known=", ".join(mine)
                    )
                )
        extra = set(entry) - {"id", "kind", "era", "role", "effect", "name", "note", "source"}
    else:
        out["era"] = era_of(entry.get("era"))
        out["value"] = _count(entry, "value", 20)
        extra = set(entry) - {"id", "kind", "era", "value", "note", "source"}
    if extra:
        raise ValueError(
            _("unknown field(s) {fields} for a {kind} entry").format(
                fields=", ".join(sorted(extra)), kind=kind
            )
        )
    return out


def content_problem(characters: list, events: list, tokens: list, players: int,
                    hand: int) -> str | None:
    """Why these contents cannot serve a game (None: they can); the box's own counts are checked
    by the content module."""
    for era in ERAS:
        n_events = sum(1 for e in events if e["era"] == era)
        n_tokens = sum(1 for t in tokens if t["era"] == era)
        if n_events == 0:
            return _("no event cards for {era}: register the {era} events").format(era=era)
        if n_events > EVENTS_PER_ERA:
            return _("{n} event cards for {era}; the game has {most}").format(
                n=n_events, era=era, most=EVENTS_PER_ERA
            )
        if n_tokens < n_events:
            return _("{era} has {events} events but only {tokens} VP tokens").format(
                era=era, events=n_events, tokens=n_tokens
            )
    need = players * hand
    if len(characters) < need:
        return _("{players} players need {need} character cards for their hands; the pack has "
                 "{have}").format(players=players, need=need, have=len(characters))
    return None


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Player:
    name: str
    hand: list[str]
    board: dict[str, list[str]]  # era -> character cards played there, in order
    ripple: list[str]  # face down under the ripple token
    tokens: list[str]  # VP tokens taken (ids)
    events: list[str]  # events completed (ids)
    clocks: int = 0  # clock tower tokens held
    role: str | None = None
    unseen: int = 0  # cards in the hand the companion has not seen (drawn at the table)
    ripple_unseen: int = 0  # cards face down under the ripple token, never named
    ripple_vp: int | None = None  # what those add up to, said when they are turned up

    def clone(self) -> Player:
        return Player(
            self.name,
            list(self.hand),
            {"1955": self.board["1955"][:], "1985": self.board["1985"][:],
             "2015": self.board["2015"][:]},
            list(self.ripple),
            list(self.tokens),
            list(self.events),
            self.clocks,
            self.role,
            self.unseen,
            self.ripple_unseen,
            self.ripple_vp,
        )


def _fresh_turn() -> dict[str, Any]:
    return {
        "played": 0,  # cards played this turn
        "completed": 0,  # events completed this turn
        "moves": 0,  # trips of the DeLorean this turn
        "clock": False,  # a clock tower token was taken this turn
        "doc": False,  # Doc's free move used
        "marty": False,  # Marty's free card used
        "jennifer": False,  # Jennifer's first-card discount used
        "lorraine": False,  # Lorraine's shift used
    }


@dataclass(slots=True)
class State:
    players: list[Player]
    cards: dict[str, dict[str, Any]]  # character cards by id (never changed)
    events: dict[str, dict[str, Any]]  # event cards by id (never changed)
    vps: dict[str, dict[str, Any]]  # VP tokens by id (never changed)
    options: dict[str, Any]
    phase: str = "setup"  # setup, roles, turn, tally, over
    deck: int = 0  # cards in the draw pile
    pool: list[str] | None = None  # cards whose place nobody named: the draw pile, unseen
    # cards in hands and unnamed ripple cards (with every draw named: the draw pile itself)
    discard: list[str] | None = None  # face up
    hidden: dict[str, list[str]] | None = None  # era -> events still face down
    top: dict[str, str | None] | None = None  # era -> the event in play (None: none left)
    stacks: dict[str, list[str]] | None = None  # era -> VP tokens, top first
    delorean: str = START_ERA
    round: int = 1
    start: int = 0  # seat of the start player
    chosen: int = 0  # roles chosen this round
    done: int = 0  # turns ended this round
    turn: dict[str, Any] | None = None  # flags of the current turn
    pending: list[dict[str, Any]] | None = None  # steps still due, first first
    last_round: bool = False  # a second era has run out of events
    exhausted: bool = False  # a draw found fewer cards than due (none left to draw)
    winners: tuple[str, ...] = ()
    # Inside ``apply`` only: the seats whose Player was copied already (copy on write).
    edited: set[int] | None = None

    def clone(self) -> State:
        """A copy for ``apply`` to change: a player is copied when first asked for."""
        return State(
            list(self.players),
            self.cards,
            self.events,
            self.vps,
            self.options,
            self.phase,
            self.deck,
            list(self.pool),
            list(self.discard),
            {era: list(v) for era, v in self.hidden.items()},
            dict(self.top),
            {era: list(v) for era, v in self.stacks.items()},
            self.delorean,
            self.round,
            self.start,
            self.chosen,
            self.done,
            dict(self.turn),
            list(self.pending),
            self.last_round,
            self.exhausted,
            self.winners,
            set(),
        )

    def own(self, seat: int) -> Player:
        """The player in ``seat``; inside ``apply``, a private copy that may be changed."""
        edited = self.edited
        if edited is not None and seat not in edited:
            self.players[seat] = self.players[seat].clone()
            edited.add(seat)
        return self.players[seat]

    @property
    def seat(self) -> int:
        """The seat whose turn it is (or who chooses a role now)."""
        n = len(self.players)
        return (self.start + (self.chosen if self.phase == "roles" else self.done)) % n

    @property
    def current(self) -> Player:
        return self.own(self.seat)

    def player(self, name: Any) -> Player:
        for seat, p in enumerate(self.players):
            if p.name == name:
                return self.own(seat)
        names = ", ".join(p.name for p in self.players)
        raise RuleError(
            _("no player called {name} (players: {names})").format(name=repr(name), names=names)
        )


def _split(content: Any) -> list[dict[str, Any]]:
    if hasattr(content, "sections"):  # a content pack
        return [e for entries in content.sections.values() for e in entries]
    if isinstance(content, dict):  # a recorded setup's entries by section
        return [e for entries in content.values() if isinstance(entries, list) for e in entries]
    if isinstance(content, (list, tuple)):
        return list(content)
    raise RuleError(_("the content must be a pack or a list of entries"))


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options over their defaults: ``advanced`` true or false, ``hand`` 1 to 12 cards,
    ``refill`` three numbers of 0 to 5 (1955, 1985, 2015)."""
    opts = known_options(facts, options)
    hand = opts["hand"]
    if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= 12:
        raise RuleError(_("option hand (cards dealt to each player) is a number from 1 to 12"))
    refill = opts["refill"]
    if (
        not isinstance(refill, list)
        or len(refill) != 3
        or any(isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 5 for n in refill)
    ):
        raise RuleError(
            _("option refill lists the cards drawn at the end of a turn in 1955, 1985 and 2015, "
              "each 0 to 5, e.g. [2, 1, 0]")
        )
    opts["refill"] = list(refill)
    return opts


def new_game(players: list[str], options: dict[str, Any], content: Any) -> State:
    """A new game: the events are turned up and the hands dealt by the chance actions that follow.

    ``content`` is a content pack, its entries by section, or a plain list of entries.
    """
    check_players(facts, players)
    opts = check_options(options)
    entries = []
    for entry in _split(content):
        if not isinstance(entry, dict):
            raise RuleError(_("every content entry is a table with an id and a kind"))
        try:
            entries.append(validate_entry(entry))
        except ValueError as exc:
            raise RuleError(
                _("content entry {id}: {error}").format(id=repr(entry.get("id")), error=exc)
            ) from exc
    ids = [e.get("id") for e in entries]
    if any(not isinstance(i, str) or not i for i in ids) or len(set(ids)) != len(ids):
        raise RuleError(_("every content entry needs its own id"))
    cards = {e["id"]: e for e in entries if e["kind"] == "character"}
    events = {e["id"]: e for e in entries if e["kind"] == "event"}
    vps = {e["id"]: e for e in entries if e["kind"] == "vp"}
    why = content_problem(list(cards.values()), list(events.values()), list(vps.values()),
                          len(players), opts["hand"])
    if why:
        raise RuleError(why)
    if opts["advanced"]:
        plain = [e for e in events if events[e].get("effect") is None]
        if plain:
            raise RuleError(
                _("the advanced rules need the B side of every event; not registered for: "
                  "{events}").format(events=", ".join(plain))
            )
    state = State(
        [Player(name, [], {era: [] for era in ERAS}, [], [], []) for name in players],
        cards,
        events,
        vps,
        opts,
        deck=len(cards),
        pool=list(cards),
        discard=[],
        hidden={era: [e for e in events if events[e]["era"] == era] for era in ERAS},
        top={era: None for era in ERAS},
        stacks={era: [t for t in vps if vps[t]["era"] == era] for era in ERAS},
        turn=_fresh_turn(),
        pending=[],
    )
    state.pending = [{"step": "reveal", "chance": True, "era": era} for era in ERAS]
    state.pending += [
        {"step": "draw", "chance": True, "player": name, "count": opts["hand"], "why": "deal"}
        for name in players
    ]
    state.pending.append({"step": "begin_round"})
    return state


# --------------------------------------------------------------------------- queries


def actor(state: State) -> str:
    if state.phase == "over":
        return TERMINAL
    if state.pending:
        step = state.pending[0]
        return CHANCE if step.get("chance") else step["player"]
    return state.current.name


def is_terminal(state: State) -> bool:
    return state.phase == "over"


def winners(state: State) -> list[str]:
    return list(state.winners)


def active_effect(state: State) -> str | None:
    """The B side in force for the turn player: the event in play in the DeLorean's era."""
    if not state.options["advanced"]:
        return None
    event = state.top[state.delorean]
    return state.events[event].get("effect") if event else None


def _era_of_card(p: Player, card: str) -> str | None:
    for era in ERAS:
        if card in p.board[era]:
            return era
    return None


def _min_cards(values: list[int], need: int) -> int | None:
    """The fewest of ``values`` that sum to at least ``need`` (None: impossible)."""
    if need <= 0:
        return 0
    total = 0
    for index, value in enumerate(sorted(values, reverse=True)):
        if value <= 0:
            break
        total += value
        if total >= need:
            return index + 1
    return None


def _supply(state: State, held: str | None = None) -> int:
    """Cards that can still be drawn (the deck, then the discard pile shuffled); ``held``: a
    card just discarded that the draw must not take back (George's swap)."""
    return state.deck + sum(1 for c in state.discard if c != held)


# Hands the companion knows and hands it counts. At the table the cards stay in the players'
# hands: a draw is recorded without its cards, so a hand is the cards named so far plus a count
# of unseen ones, and a card is named only when it comes face up (played, paid, discarded).
# In a simulation every draw names its cards and the count stays 0. See docs/rules/eras.md.


def held(p: Player) -> int:
    """How many cards ``p`` holds (named or not)."""
    return len(p.hand) + p.unseen


def _holds(state: State, p: Player, card: Any) -> bool:
    """May ``card`` be in ``p``'s hand: named there, or unplaced while ``p`` has unseen cards."""
    return isinstance(card, str) and (card in p.hand or (p.unseen > 0 and card in state.pool))


def may_hold(state: State, p: Player) -> list[str]:
    """Every card ``p`` may hold: the named ones, and the unplaced ones while some are unseen
    (do not change the list returned)."""
    return p.hand + state.pool if p.unseen else p.hand


def _take(state: State, p: Player, card: str) -> None:
    """``card`` leaves ``p``'s hand (``_holds`` said it may be there)."""
    if card in p.hand:
        p.hand.remove(card)
    else:
        state.pool.remove(card)
        p.unseen -= 1


def _forget(state: State, p: Player) -> None:
    """A card left ``p``'s hand unnamed: which of the named ones are still there is unknown."""
    if p.hand:
        state.pool.extend(p.hand)
        p.unseen += len(p.hand)
        p.hand = []


def _values(state: State, p: Player, key: str, without: str | None = None) -> list[int]:
    """What the cards in ``p``'s hand but ``without`` pay in ``key`` ("power" or "clocks"): the
    named cards' values, and for the unseen ones the most unplaced cards could pay (a bound)."""
    values = [state.cards[c][key] for c in p.hand if c != without]
    unseen = p.unseen - (1 if without is not None and without not in p.hand else 0)
    if unseen > 0:
        best = sorted((state.cards[c][key] for c in state.pool if c != without), reverse=True)
        values += best[:unseen]
    return values


def where(state: State, card: str) -> str:
    """Where ``card`` is known to be, in a few words (for refusals)."""
    for p in state.players:
        if card in p.hand:
            return _("in {player}'s hand").format(player=p.name)
        if card in p.ripple:
            return _("under {player}'s ripple token").format(player=p.name)
        for era in ERAS:
            if card in p.board[era]:
                return _("on {player}'s {era}").format(player=p.name, era=era)
    if card in state.discard:
        return _("in the discard pile")
    if card in state.pool:
        return _("not seen yet")
    return _("being played")


def play_cost(state: State, card: str, era: str) -> dict[str, Any]:
    """What playing ``card`` into ``era`` costs the turn player now.

    ``time``: time still to pay (after Jennifer's and the 1955 B side's discounts);
    ``ripple``: (fewest, most) ripple cards; ``from_deck``: ripple cards come from the deck;
    ``free``: Marty's free play may pay the time.
    """
    p = state.current
    c = state.cards[card]
    effect = active_effect(state)
    time = c["clocks"]
    if p.role == "jennifer" and not state.turn["jennifer"]:
        time -= 1
    if effect == "cost-minus-2" and era == "1955":
        time -= 2
    low = high = RIPPLE[era]
    if effect == "skip-second-ripple" and era == "1955":
        low = 1
    elif effect == "second-ripple" and era in ("1955", "1985"):
        high = low + 1
    elif effect == "ripple-backwards" and era == "2015":
        low = high = 1
    free = p.role == "marty" and c["role"] == "marty" and not state.turn["marty"]
    return {
        "time": max(0, time),
        "ripple": (low, high),
        "from_deck": effect == "ripple-from-deck",
        "free": free,
    }


def _play_problem(state: State, card: str, era: str) -> str | None:
    """Why the turn player cannot play ``card`` (already out of the hand) into ``era`` now."""
    p = state.current
    cost = play_cost(state, card, era)
    low = cost["ripple"][0]
    hand = _values(state, p, "clocks", card)
    left_for_ripple = None if cost["from_deck"] else low
    need = 0 if cost["free"] else cost["time"] - CLOCK_TIME * p.clocks
    fewest = _min_cards(hand, need)
    # The time is paid first: the cards it takes reach the discard pile, which a draw from
    # an empty deck shuffles in (decision 20).
    if cost["from_deck"] and _supply(state) + (fewest or 0) < low:
        return ngettext(
            "{era} needs {n} ripple card from the deck and the deck is empty",
            "{era} needs {n} ripple cards from the deck and the deck is empty",
            low,
        ).format(era=era, n=low)
    if fewest is None:
        have = sum(hand) + CLOCK_TIME * p.clocks
        if p.unseen:
            return _("{card} costs {time} time; {player}'s other cards and clock tower tokens "
                     "pay {have} at most").format(
                card=card_name(state, card), time=cost["time"], player=p.name, have=have)
        return _("{card} costs {time} time; {player} has {have} (clocks on cards in hand and "
                 "clock tower tokens)").format(
            card=card, time=cost["time"], player=p.name, have=have
        )
    if left_for_ripple is not None and len(hand) - fewest < left_for_ripple:
        left = len(hand) - fewest
        if cost["time"] and not cost["free"]:
            text = ngettext(
                "{era} needs {n} ripple card: {player} would have {left} card(s) left after "
                "paying {time} time",
                "{era} needs {n} ripple cards: {player} would have {left} card(s) left after "
                "paying {time} time",
                left_for_ripple,
            )
        else:
            text = ngettext(
                "{era} needs {n} ripple card: {player} has {left} other card(s)",
                "{era} needs {n} ripple cards: {player} has {left} other card(s)",
                left_for_ripple,
            )
        return text.format(era=era, n=left_for_ripple, player=p.name, left=left,
                           time=cost["time"])
    return None


def delorean_elsewhere(state: State, era: str, card: str | None = None) -> str:
    """Why nothing is played into ``era`` while the DeLorean is elsewhere, and what to do:
    ``card`` the card refused, or None for the table's menu (which offers a card with the
    infinity mark in every era)."""
    if card is None:
        return _("the DeLorean is in {here}: move it to {era} first (only a card with the "
                 "infinity mark goes into another era)").format(here=state.delorean, era=era)
    return _("the DeLorean is in {here}: move it to {era} first, then play {card}").format(
        here=state.delorean, era=era, card=card_name(state, card))


def _power(state: State, p: Player) -> int:
    """The power ``p`` can pay (at most, while some cards are unseen)."""
    return sum(_values(state, p, "power")) + CLOCK_POWER * p.clocks


def _event_problem(state: State, p: Player, event: str) -> str | None:
    e = state.events[event]
    empty = [era for era in ERAS if not p.board[era]]
    if empty:
        return _("{event} needs a card in every era of {player}'s board; {eras} empty").format(
            event=event_name(state, event), player=p.name, eras=" and ".join(empty)
        )
    if not any(state.cards[c]["role"] == e["role"] for era in ERAS for c in p.board[era]):
        return _("{event} needs a {role} card in play on {player}'s board").format(
            event=event_name(state, event), role=role_name(e["role"]), player=p.name
        )
    return None


def _turn_closed(state: State) -> bool:
    """A clock tower token was taken after a play or an event ("clock-anyway"): that token is
    taken at the end of the turn, so only END may follow."""
    return state.turn["clock"] and bool(state.turn["played"] or state.turn["completed"])


def _clock_problem(state: State, p: Player) -> str | None:
    if state.turn["clock"]:
        return _("{player} has already taken a clock tower token this turn").format(player=p.name)
    if p.clocks >= MAX_CLOCKS:
        return _("{player} already has {n} clock tower tokens, the most one may hold").format(
            player=p.name, n=MAX_CLOCKS
        )
    if (state.turn["played"] or state.turn["completed"]) and active_effect(state) != "clock-anyway":
        return _("a clock tower token is only for a turn with no card played and no event "
                 "completed")
    return None


def face(state: State, card: str) -> dict[str, Any]:
    """What is printed on a card that is face up (for the screens): role, era, power, clocks,
    VP and its name when it has one."""
    c = state.cards[card]
    out = {key: c[key] for key in ("role", "era", "power", "clocks", "vp")}
    if c.get("name"):
        out["name"] = c["name"]
    return out


def face_words(face: dict[str, Any]) -> str:
    """A card as its owner finds it among others of its era and role: its name, or its power
    (P), clock icons (T, its time) and VP."""
    if face.get("name"):
        return face["name"]
    return _("P{power} T{clocks} VP{vp}").format(**face)


def face_line(face: dict[str, Any]) -> str:
    """A card among cards of any era and role: "Marty 55 P2 T1 VP3"."""
    era = _("any") if face["era"] == ANY else face["era"][2:]
    return f"{role_name(face['role'])} {era} {face_words(face)}"


def card_name(state: State, card: str) -> str:
    return state.cards[card].get("name") or card


def event_name(state: State, event: str) -> str:
    return state.events[event].get("name") or event


def legal_actions(state: State) -> list[Action]:
    """Every decision open to the actor (for chance: one template per kind of outcome)."""
    if state.phase == "over":
        return []
    if state.pending:
        return _step_actions(state, state.pending[0])
    p = state.current
    if state.phase == "roles":
        taken = {q.role for q in state.players}
        return [{"type": "role", "player": p.name, "role": r} for r in ROLES if r not in taken]
    if _turn_closed(state):
        return [{"type": "end"}]
    actions: list[Action] = []
    free_move = p.role == "doc" and not state.turn["doc"]
    if free_move or _power(state, p) >= MOVE_COST:
        actions += [{"type": "move", "to": era} for era in ERAS if era != state.delorean]
    if not state.turn["clock"]:
        for card in may_hold(state, p):
            c = state.cards[card]
            if p.role != "jennifer" and c["role"] != p.role:
                continue
            eras = ERAS if c["era"] == ANY else (c["era"],) if c["era"] == state.delorean else ()
            for era in eras:
                if _play_problem(state, card, era) is None:
                    actions.append({"type": "play", "card": card, "era": era})
        for era in ERAS:
            event = state.top[era]
            if event and _event_problem(state, p, event) is None:
                actions.append({"type": "complete", "event": event})
    if p.role == "lorraine" and not state.turn["lorraine"]:
        for era in ERAS:
            for card in p.board[era]:
                actions += [{"type": "shift", "card": card, "to": to} for to in ADJACENT[era]]
    if _clock_problem(state, p) is None:
        actions.append({"type": "clock"})
    actions.append({"type": "end"})
    return actions


def _step_actions(state: State, step: dict[str, Any]) -> list[Action]:
    kind = step["step"]
    if step.get("chance"):
        if kind == "reveal":
            return [{"type": "reveal", "era": step["era"]}]
        if kind == "stolen":
            return [{"type": "stolen", "from": step["from"]}]
        typ = "deal" if step["why"] == "deal" else "draw"
        return [{"type": typ, "player": step["player"], "count": step["count"]}]
    p = state.player(step["player"])
    if kind == "pay":
        return [{"type": "pay", "with": item} for item in _pay_options(state, p, step)]
    if kind == "ripple":
        out: list[Action] = [{"type": "ripple", "card": c} for c in p.hand]
        if p.unseen:
            out.append({"type": "ripple"})  # a card from the hand, face down, never named
        if step["paid"] >= step["low"]:
            out.append({"type": "pass"})
        return out
    if kind == "use":
        return [{"type": "use", "card": c} for c in _use_options(state, p, step)]
    if kind == "keep":
        if step["drawn"]:
            kept = combinations(step["drawn"], step["keep"])
            return [{"type": "keep", "cards": list(k)} for k in kept]
        thrown = combinations(state.pool, step["got"] - step["keep"])  # drawn unseen
        return [{"type": "keep", "discard": list(t)} for t in thrown]
    if kind == "george":
        return [{"type": "discard", "card": c} for c in may_hold(state, p)] + [{"type": "pass"}]
    if kind == "tally":
        low, high = _tally_range(state, p)
        return [{"type": "tally", "vp": vp} for vp in range(low, high + 1)]
    if kind == "steal":
        return [{"type": "steal", "from": name} for name in step["options"]]
    if kind == "extra":
        return [{"type": "extra"}, {"type": "pass"}]
    raise AssertionError(kind)  # pragma: no cover - every step kind is listed above


def _pay_options(state: State, p: Player, step: dict[str, Any]) -> list[str]:
    """What may pay the next part of a cost so the rest stays payable."""
    due = step["due"]
    options: list[str] = []
    if step["unit"] == "power":
        for card in may_hold(state, p):
            value = state.cards[card]["power"]
            if value > 0 and (not p.unseen or value >= due or sum(
                    _values(state, p, "power", card)) + CLOCK_POWER * p.clocks >= due - value):
                options.append(card)
        if p.clocks:
            options.append("clock")
        return options
    keep = 0 if step["from_deck"] else step["low"]  # cards the ripple will still need
    others = held(p) - 1
    for card in may_hold(state, p):
        value = state.cards[card]["clocks"]
        if value <= 0:
            continue
        rest = _values(state, p, "clocks", card)
        fewest = _min_cards(rest, due - value - CLOCK_TIME * p.clocks)
        if fewest is not None and others - fewest >= keep:
            options.append(card)
    if p.clocks:
        options.append("clock")
    if step["free"]:
        options.append("free")
    return options


def _tally_range(state: State, p: Player) -> tuple[int, int]:
    """The fewest and the most VP ``p``'s unnamed ripple cards can be worth together."""
    values = sorted(state.cards[c]["vp"] for c in state.pool)
    n = p.ripple_unseen
    return sum(values[:n]), sum(values[len(values) - n:])


def _use_options(state: State, p: Player, step: dict[str, Any]) -> list[str]:
    """The cards the next pick of an event's cards may take."""
    chosen = step["chosen"]
    role = state.events[step["event"]]["role"]
    if not chosen:
        return [c for era in ERAS for c in p.board[era] if state.cards[c]["role"] == role]
    covered = {_era_of_card(p, c) for c in chosen}
    for era in ERAS:
        if era not in covered:
            return list(p.board[era])
    return []


# --------------------------------------------------------------------------- chance


def sample_chance(state: State, rng: random.Random) -> Action:
    """A random chance outcome: an event turned up, cards drawn, the card Biff draws.

    The cards are named while every card in play is known (a simulation); once a hand holds
    unseen cards (a game recorded at the table), draws and Biff's card are counted only.
    """
    step = state.pending[0] if state.pending else None
    if not step or not step.get("chance"):
        raise RuleError(_("no chance outcome is due now"))
    if step["step"] == "reveal":
        return {"type": "reveal", "era": step["era"],
                "event": rng.choice(state.hidden[step["era"]])}
    if step["step"] == "stolen":
        victim = state.player(step["from"])
        if victim.unseen:
            return {"type": "stolen", "from": victim.name}
        return {"type": "stolen", "from": victim.name, "card": rng.choice(victim.hand)}
    typ = "deal" if step["why"] == "deal" else "draw"
    if any(p.unseen or p.ripple_unseen for p in state.players):
        return {"type": typ, "player": step["player"]}
    count = step["count"]
    from_deck = min(count, state.deck)
    cards = rng.sample(state.pool, from_deck)  # every card is placed: the pool is the deck
    shuffled = [c for c in state.discard if c != step.get("held")]
    rest = min(count - from_deck, len(shuffled))
    if rest:
        cards += rng.sample(shuffled, rest)
    return {"type": typ, "player": step["player"], "cards": cards}


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> tuple[State, list[Effect]]:
    """Apply one action; returns (new state, effects). ``state`` is left unchanged."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RuleError(_('an action is a JSON object with a "type", e.g. {example}').format(
            example='{"type": "end"}'))
    kind = action["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise RuleError(
            _("unknown action type {kind}; known: {known}").format(
                kind=repr(kind), known=", ".join(sorted(_HANDLERS))
            )
        )
    if state.phase == "over":
        raise RuleError(_("the game is over"))
    who = actor(state)
    if "player" in action and action["player"] != who and who != CHANCE:
        raise RuleError(
            _("it is {actor}'s decision now, not {player}'s").format(
                actor=who, player=action["player"]
            )
        )
    step = state.pending[0] if state.pending else None
    expected = _expected(state, step)
    if kind not in expected:
        raise RuleError(_waiting(state, step))
    new = state.clone()
    effects: list[Effect] = []
    handler(new, action, effects)
    _advance(new, effects)
    new.edited = None
    return new, effects


def _expected(state: State, step: dict[str, Any] | None) -> tuple[str, ...]:
    if step is None:
        if state.phase == "roles":
            return ("role",)
        return ("move", "play", "complete", "shift", "clock", "end")
    kind = step["step"]
    if step.get("chance"):
        if kind == "draw":
            return ("deal",) if step["why"] == "deal" else ("draw",)
        return (kind,)
    return {
        "pay": ("pay",),
        "ripple": ("ripple", "pass"),
        "use": ("use",),
        "keep": ("keep",),
        "george": ("discard", "pass"),
        "steal": ("steal",),
        "extra": ("extra", "pass"),
        "tally": ("tally",),
    }[kind]


def _waiting(state: State, step: dict[str, Any] | None) -> str:
    """What the game waits for, as a refusal of anything else."""
    if step is None:
        if state.phase == "roles":
            return _("{player} must first choose a role").format(player=state.current.name)
        return _("it is {player}'s turn: move, play, complete an event or end").format(
            player=state.current.name
        )
    kind = step["step"]
    if kind == "reveal":
        return _("the next {era} event must first be turned up").format(era=step["era"])
    if kind == "draw":
        return _("{player} must first draw {n} card(s)").format(
            player=step["player"], n=step["count"]
        )
    if kind == "stolen":
        return _("the card Biff draws from {victim} must first be named").format(
            victim=step["from"]
        )
    player = step["player"]
    if kind == "pay":
        unit = _("power") if step["unit"] == "power" else _("time")
        return _("{player} must first pay {due} {unit} more").format(
            player=player, due=step["due"], unit=unit
        )
    if kind == "ripple":
        return _("{player} must first place ripple cards ({paid} of {low}-{high})").format(
            player=player, paid=step["paid"], low=step["low"], high=step["high"]
        )
    if kind == "use":
        return _("{player} must first choose the cards the event uses").format(player=player)
    if kind == "keep":
        return _("{player} must first choose the cards to keep").format(player=player)
    if kind == "george":
        return _("{player} (George) must first discard a card to draw another, or pass").format(
            player=player
        )
    if kind == "steal":
        return _("{player} (Biff) must first choose whom to steal from").format(player=player)
    if kind == "tally":
        return _("the game is over: {player} must first add up the VP of the ripple "
                 "cards").format(player=player)
    return _("{player} must first take or refuse the extra card").format(player=player)


def _unknown(state: State, card: Any) -> str | None:
    """Why ``card`` names nothing in this game (None: a card, event or VP token has that id),
    and where the ids are listed."""
    if not isinstance(card, str) or card in state.cards or card in state.events or (
            card in state.vps):
        return None
    demo = all(c.get("source") == "demo" for c in state.cards.values())
    command = ("`companion cards list --title eras --demo`" if demo
               else "`companion cards list --title eras`")
    return _("no card {card} in this game; see {command}").format(card=repr(card),
                                                                  command=command)


def _not_held(state: State, p: Player, card: Any) -> str:
    """Why ``card`` cannot come out of ``p``'s hand."""
    if not isinstance(card, str):
        return _("card: one of the cards in {player}'s hand").format(player=p.name)
    unknown = _unknown(state, card)
    if unknown:
        return unknown
    if p.unseen and card in state.cards:
        return _("{card} is {where}: it cannot be in {player}'s hand").format(
            card=card_name(state, card), where=where(state, card), player=p.name)
    return _("{card} is not in {player}'s hand").format(card=card, player=p.name)


def _effect(effects: list[Effect], kind: str, text: str, **data: Any) -> None:
    effects.append({"kind": kind, "text": text, **data})


def _text(action: Action, key: str, what: str) -> str:
    value = action.get(key)
    if not isinstance(value, str) or not value:
        raise RuleError(_("{key}: name {what}").format(key=key, what=what))
    return value


def _era_field(action: Action, key: str) -> str:
    try:
        return era_of(action.get(key))
    except ValueError as exc:
        raise RuleError(_("{key}: {error}").format(key=key, error=exc)) from exc


def _pop(state: State) -> dict[str, Any]:
    return state.pending.pop(0)


def _push(state: State, *steps: dict[str, Any]) -> None:
    """Put ``steps`` first, in the order given."""
    state.pending[0:0] = list(steps)


# ---- setup and chance


def _do_reveal(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    era = step["era"]
    if "era" in action and _era_field(action, "era") != era:
        raise RuleError(_("the {era} event is to be turned up now").format(era=era))
    event = action.get("event")
    if not isinstance(event, str) or event not in state.hidden[era]:
        raise RuleError(
            _("event: one of the {era} events still face down ({events})").format(
                era=era, events=", ".join(state.hidden[era])
            )
        )
    _pop(state)
    state.hidden[era].remove(event)
    state.top[era] = event
    e = state.events[event]
    text = _("{era}: event {event} ({role})").format(
        era=era, event=event_name(state, event), role=role_name(e["role"])
    )
    if state.options["advanced"]:
        effect = EFFECTS[e["effect"]][1]
        text += " - " + _(effect)
    _effect(effects, "event", text, era=era, event=event, role=e["role"], name=e.get("name"),
            effect=e.get("effect") if state.options["advanced"] else None)


def _do_draw(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    p = state.player(step["player"])
    if "player" in action and action["player"] != p.name:
        raise RuleError(_("{player} draws now").format(player=p.name))
    cards = action.get("cards")
    count = step["count"]
    held = step.get("held")
    if cards is None:  # at the table: the cards stay unseen in the hand
        _pop(state)
        got = min(count, state.deck)
        state.deck -= got
        if got < count and _supply(state, held):
            _reshuffle(state, effects, held)
            more = min(count - got, state.deck)
            state.deck -= more
            got += more
        _land(state, p, step, None, got, effects)
        return
    expected = min(count, _supply(state, held))
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise RuleError(_("cards: list the ids of the {n} card(s) drawn, or leave cards out "
                          "(cards nobody names)").format(n=expected))
    if len(cards) != expected:
        raise RuleError(_("{player} draws {n} card(s), not {m}").format(
            player=p.name, n=expected, m=len(cards)))
    if len(set(cards)) != len(cards):
        raise RuleError(_("a card cannot be drawn twice"))
    from_deck = [c for c in cards if c in state.pool]
    rest = [c for c in cards if c not in state.pool]
    if len(from_deck) != min(count, state.deck):
        where_ = [c for c in rest if c not in state.discard]
        if where_:
            raise RuleError(_("{cards} not in the deck").format(cards=", ".join(where_)))
        raise RuleError(
            _("the deck still has {n} card(s): they are drawn before the discard pile is "
              "shuffled").format(n=state.deck)
        )
    bad = [c for c in rest if c not in state.discard or c == held]
    if bad:
        raise RuleError(_("{cards} not in the deck").format(cards=", ".join(bad)))
    _pop(state)
    for c in from_deck:
        state.pool.remove(c)
    state.deck -= len(from_deck)
    if rest or (len(from_deck) < count and _supply(state, held)):
        _reshuffle(state, effects, held)
        for c in rest:
            state.pool.remove(c)
        state.deck -= len(rest)
    _land(state, p, step, cards, len(cards), effects)


def _reshuffle(state: State, effects: list[Effect], held: str | None = None) -> None:
    """The discard pile becomes the deck; ``held`` (George's card just given up) stays."""
    shuffled = [c for c in state.discard if c != held]
    state.pool.extend(shuffled)
    state.deck += len(shuffled)
    state.discard = [c for c in state.discard if c == held]
    _effect(effects, "shuffle", _("SHUFFLE the discard pile: it is the new deck"))


def _land(state: State, p: Player, step: dict[str, Any], cards: list[str] | None, got: int,
          effects: list[Effect]) -> None:
    """Cards drawn reach their place: a hand, or face down under the ripple token. ``cards``
    names them (a simulation) or is None (the table: ``got`` cards nobody named)."""
    why = step["why"]
    if got < step["count"]:
        state.exhausted = True
        _effect(effects, "empty", _("The deck is empty: the game ends after this round"))
    if why == "ripple":
        if cards is None:
            p.ripple_unseen += got
        else:
            p.ripple.extend(cards)
        _effect(
            effects,
            "ripple",
            _("RIPPLE: {n} card(s) from the deck face down under {player}'s ripple token").format(
                n=got, player=p.name
            ),
            player=p.name,
            count=got,
        )
        _place(state, p, step["card"], step["era"], effects)
        return
    if cards is None:
        p.unseen += got
    else:
        p.hand.extend(cards)
    if why == "deal":
        text = _("DEAL {n} cards to {player}").format(n=got, player=p.name)
    else:
        text = _("{player}: DRAW {n}").format(player=p.name, n=got)
    _effect(effects, "draw", text, player=p.name, count=got, why=why)
    keep = step.get("keep")
    if keep is not None and got > keep:
        _push(state, {"step": "keep", "player": p.name, "drawn": list(cards or []), "got": got,
                      "keep": keep})


def _do_stolen(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    victim = state.player(step["from"])
    if "from" in action and action["from"] != victim.name:
        raise RuleError(_("Biff draws from {victim} now").format(victim=victim.name))
    card = action.get("card")
    if card is not None and not _holds(state, victim, card):
        raise RuleError(_("card: one of the cards in {victim}'s hand, or leave card out (a "
                          "card nobody names)").format(victim=victim.name))
    _pop(state)
    biff = state.player(step["player"])
    if card is None:  # at the table: Biff's player takes a card blind, nobody names it
        _forget(state, victim)
        victim.unseen -= 1
        biff.unseen += 1
    else:
        _take(state, victim, card)
        biff.hand.append(card)
    _effect(
        effects,
        "steal",
        _("BIFF: {player} takes 1 card from {victim}'s hand, blind").format(
            player=biff.name, victim=victim.name
        ),
        player=biff.name,
        victim=victim.name,
    )


# ---- roles


def _do_role(state: State, action: Action, effects: list[Effect]) -> None:
    p = state.current
    try:
        role = role_of(action.get("role"))
    except ValueError as exc:
        raise RuleError(_("{key}: {error}").format(key="role", error=exc)) from exc
    holder = next((q for q in state.players if q.role == role), None)
    if holder is not None:
        raise RuleError(
            _("{holder} has already taken {role} this round").format(
                holder=holder.name, role=role_name(role)
            )
        )
    p.role = role
    _effect(effects, "role", _("{player} takes {role}").format(player=p.name,
            role=role_name(role)), player=p.name, role=role)
    steps: list[dict[str, Any]] = []
    if role == "george":
        steps.append({"step": "draw", "chance": True, "player": p.name, "count": 1,
                      "why": "george"})
        steps.append({"step": "george", "player": p.name})
    elif role == "biff":
        victims = [q.name for q in state.players if q is not p and held(q)]
        if not victims:
            _effect(effects, "steal", _("BIFF: nobody has a card to steal"), player=p.name)
        elif len(victims) == 1:
            steps.append({"step": "stolen", "chance": True, "player": p.name, "from": victims[0]})
        else:
            steps.append({"step": "steal", "player": p.name, "options": victims})
    steps.append({"step": "next_role"})
    _push(state, *steps)


def _do_steal(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    victim = action.get("from")
    if victim not in step["options"]:
        raise RuleError(
            _("from: one of {options} (players with cards in hand)").format(
                options=", ".join(step["options"])
            )
        )
    _pop(state)
    _push(state, {"step": "stolen", "chance": True, "player": step["player"], "from": victim})


def _do_discard(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    p = state.player(step["player"])
    card = action.get("card")
    if not _holds(state, p, card):
        raise RuleError(_not_held(state, p, card))
    _pop(state)
    _take(state, p, card)
    state.discard.append(card)
    _effect(effects, "discard", _("GEORGE: {player} discards {card}").format(
        player=p.name, card=card_name(state, card)), player=p.name, cards=[card],
        faces=[face(state, card)])
    # "another card": the one given up is not drawn back (a reshuffle leaves it out)
    _push(state, {"step": "draw", "chance": True, "player": p.name, "count": 1, "why": "george",
                  "held": card})


def _next_role(state: State, effects: list[Effect]) -> None:
    state.chosen += 1
    if state.chosen < len(state.players):
        return
    state.phase = "turn"
    state.done = 0
    _begin_turn(state, effects)


def _begin_turn(state: State, effects: list[Effect]) -> None:
    state.turn = _fresh_turn()
    p = state.current
    _effect(
        effects,
        "turn",
        _("{player} ({role}): your turn - DeLorean in {era}").format(
            player=p.name, role=role_name(p.role), era=state.delorean
        ),
        player=p.name,
        role=p.role,
        era=state.delorean,
    )


def _begin_round(state: State, effects: list[Effect]) -> None:
    state.phase = "roles"
    state.chosen = 0
    state.done = 0
    for seat in range(len(state.players)):
        state.own(seat).role = None
    _effect(
        effects,
        "round",
        _("ROUND {n}: {player} chooses a role first").format(n=state.round,
                                                              player=state.current.name),
        round=state.round,
        player=state.current.name,
    )


# ---- the turn


def _no_clock_yet(state: State, p: Player) -> None:
    if state.turn["clock"]:
        raise RuleError(
            _("{player} took a clock tower token this turn: it cannot pay card costs, and no "
              "card or event may follow it (moves still may)").format(player=p.name)
        )


def _not_closed(state: State, p: Player) -> None:
    if _turn_closed(state):
        why = _("{player} has already taken a clock tower token this turn").format(player=p.name)
        raise RuleError(_("END TURN: {reason}").format(reason=why))


def _pay_items(action: Action, key: str) -> list[Any] | None:
    if key not in action:
        return None
    items = action[key]
    if not isinstance(items, list):
        raise RuleError(
            _('{key}: a list, e.g. ["doc-85-1", "clock"]').format(key=key)
        )
    return items


def _do_move(state: State, action: Action, effects: list[Effect]) -> None:
    p = state.current
    _not_closed(state, p)
    to = _era_field(action, "to")
    if to == state.delorean:
        raise RuleError(_("the DeLorean is already in {era}").format(era=to))
    pay = _pay_items(action, "pay")
    if p.role == "doc" and not state.turn["doc"]:
        state.turn["doc"] = True
        if pay:
            raise RuleError(_("Doc's first trip this turn is free: nothing to pay"))
        _effect(effects, "doc", _("DOC: {player} moves the DeLorean for free").format(
            player=p.name), player=p.name)
        _arrive(state, p, to, effects)
        return
    power = _power(state, p)
    if power < MOVE_COST:
        raise RuleError(
            _("moving the DeLorean costs {cost} power; {player} has {have} (cards in hand and "
              "clock tower tokens)").format(cost=MOVE_COST, player=p.name, have=power)
        )
    state.pending.append({"step": "pay", "player": p.name, "unit": "power", "due": MOVE_COST,
                          "for": "move", "to": to})
    _effect(effects, "cost", _("MOVE TO {era}: pay {due} power").format(era=to, due=MOVE_COST),
            player=p.name, unit="power", due=MOVE_COST)
    if pay is not None:
        _settle(state, pay, effects, "pay")


def _arrive(state: State, p: Player, to: str, effects: list[Effect]) -> None:
    state.delorean = to
    state.turn["moves"] += 1
    _effect(effects, "move", _("MOVE the DeLorean to {era}").format(era=to), player=p.name,
            era=to)
    effect = active_effect(state)
    if effect:
        _effect(effects, "b_side", _("{era}: {text}").format(
            era=to, text=_(EFFECTS[effect][2])), era=to, effect=effect)


def _settle(state: State, items: list[Any], effects: list[Effect], kind: str) -> None:
    """Pay a cost (or place ripple cards) from a list given in one action."""
    handler = _do_pay if kind == "pay" else _do_ripple
    field = "with" if kind == "pay" else "card"
    for item in items:
        step = state.pending[0] if state.pending else None
        if not step or step["step"] != kind:
            raise RuleError(_("{key}: more than the cost; leave out {item}").format(
                key=kind, item=repr(item)))
        handler(state, {"type": kind, field: item}, effects)
    step = state.pending[0] if state.pending else None
    if step and step["step"] == kind:
        if kind == "ripple" and step["paid"] >= step["low"]:
            _do_pass(state, {"type": "pass"}, effects)
            return
        if kind == "pay":
            unit = _("power") if step["unit"] == "power" else _("time")
            raise RuleError(_("pay: {due} {unit} still due").format(due=step["due"], unit=unit))
        raise RuleError(_("ripple: {n} more ripple card(s) due").format(
            n=step["low"] - step["paid"]))


def _do_play(state: State, action: Action, effects: list[Effect]) -> None:
    p = state.current
    _no_clock_yet(state, p)
    card = _text(action, "card", _("the card played"))
    if not _holds(state, p, card):
        raise RuleError(_not_held(state, p, card))
    c = state.cards[card]
    if p.role != "jennifer" and c["role"] != p.role:
        raise RuleError(
            _("{card} is a {role} card: {player} plays {mine} this round (Jennifer plays any "
              "card)").format(card=card_name(state, card), role=role_name(c["role"]),
                              player=p.name, mine=role_name(p.role))
        )
    if "era" in action:
        era = _era_field(action, "era")
    else:
        era = state.delorean if c["era"] == ANY else c["era"]
    if c["era"] != ANY:
        if era != c["era"]:
            raise RuleError(_("{card} can only be played into {era}").format(
                card=card_name(state, card), era=c["era"]))
        if state.delorean != era:
            raise RuleError(delorean_elsewhere(state, era, card))
    why = _play_problem(state, card, era)
    if why:
        raise RuleError(why)
    pay = _pay_items(action, "pay")
    ripple = _pay_items(action, "ripple")
    cost = play_cost(state, card, era)
    if pay and cost["time"] == 0:
        raise RuleError(_("pay: {card} costs no time here").format(card=card_name(state, card)))
    if p.role == "jennifer":
        state.turn["jennifer"] = True
    _take(state, p, card)
    low, high = cost["ripple"]
    _effect(
        effects,
        "play",
        _("{player} plays {card} into {era}: {time} time, {ripple} ripple").format(
            player=p.name, card=card_name(state, card), era=era, time=cost["time"],
            ripple=str(low) if low == high else f"{low}-{high}"
        ),
        player=p.name, card=card, era=era, time=cost["time"], ripple=[low, high],
        face=face(state, card),
    )
    state.pending.append({
        "step": "pay", "player": p.name, "unit": "time", "due": cost["time"], "for": "play",
        "card": card, "era": era, "low": low, "high": high, "from_deck": cost["from_deck"],
        "free": cost["free"],
    })
    if cost["time"] == 0:
        _paid(state, p, effects)
    elif pay is not None:
        _settle(state, pay, effects, "pay")
    if ripple is not None:
        step = state.pending[0] if state.pending else None
        if step and step["step"] == "pay":
            raise RuleError(_("pay the time before the ripple cards"))
        if step and step["step"] == "ripple":
            _settle(state, ripple, effects, "ripple")
        elif ripple:
            raise RuleError(_("ripple: no ripple card from the hand is due for this play"))


def _do_pay(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    p = state.player(step["player"])
    item = action.get("with")
    if not isinstance(item, str):
        raise RuleError(_('with: a card id from the hand, "clock" or "free"'))
    options = _pay_options(state, p, step)
    if item not in options:
        raise RuleError(_pay_refusal(state, p, step, item))
    if item == "clock":
        p.clocks -= 1
        value = CLOCK_POWER if step["unit"] == "power" else CLOCK_TIME
        _effect(effects, "clock_spent", _("{player}: RETURN 1 clock tower token ({value})").format(
            player=p.name, value=value), player=p.name)
    elif item == "free":
        state.turn["marty"] = True
        value = step["due"]
        _effect(effects, "marty", _("MARTY: {card} is played without its time cost").format(
            card=card_name(state, step["card"])), player=p.name)
    else:
        value = state.cards[item]["power" if step["unit"] == "power" else "clocks"]
        _take(state, p, item)
        state.discard.append(item)
        _effect(effects, "discard", _("{player}: DISCARD {card} ({value})").format(
            player=p.name, card=card_name(state, item), value=value), player=p.name, cards=[item],
            faces=[face(state, item)])
    due = step["due"] - value
    if due > 0:
        state.pending[0] = {**step, "due": due}
        return
    if step["for"] == "move":
        _pop(state)
        _arrive(state, p, step["to"], effects)
    else:
        _paid(state, p, effects)


def _pay_refusal(state: State, p: Player, step: dict[str, Any], item: str) -> str:
    unit = step["unit"]
    if item == "clock":
        return _("{player} has no clock tower token to pay with").format(player=p.name)
    if item == "free":
        if step["for"] == "move":  # the right reason, even for Marty's player
            return _("\"free\" pays a Marty card's time, never a trip's power")
        if (p.role == "marty" and state.cards[step["card"]]["role"] == "marty"
                and state.turn["marty"]):
            return _("Marty's free card is already used this turn: pay the {due} time of "
                     "{card}").format(due=step["due"], card=card_name(state, step["card"]))
        return _("only Marty's player pays no time, once a turn, for a Marty card")
    if not _holds(state, p, item):
        return _not_held(state, p, item)
    if state.cards[item][unit if unit == "power" else "clocks"] <= 0:
        if unit == "power":
            return _("{card} has no power: it pays nothing").format(card=card_name(state, item))
        return _("{card} shows no clock: it pays no time").format(card=card_name(state, item))
    key = "power" if unit == "power" else "clocks"
    value = state.cards[item][key]
    left = step["due"] - value
    rest = _values(state, p, key, item)
    tokens = (CLOCK_POWER if unit == "power" else CLOCK_TIME) * p.clocks
    if _min_cards(rest, left - tokens) is None:
        words = _("power") if unit == "power" else _("time")
        return _("{card} pays {value}: {player}'s other cards and tokens cannot pay the {left} "
                 "{unit} left").format(card=card_name(state, item), value=value, player=p.name,
                                       left=left, unit=words)
    return _("paying with {card} would leave too few cards for the {n} ripple card(s) of "
             "{era}").format(card=card_name(state, item), n=step["low"], era=step["era"])


def _paid(state: State, p: Player, effects: list[Effect]) -> None:
    """The time of a play is paid: the ripple cards come next, then the card is placed."""
    step = _pop(state)
    low, high = step["low"], step["high"]
    if high == 0:
        _place(state, p, step["card"], step["era"], effects)
    elif step["from_deck"]:
        _push(state, {"step": "draw", "chance": True, "player": p.name, "count": low,
                      "why": "ripple", "card": step["card"], "era": step["era"]})
    else:
        _push(state, {"step": "ripple", "player": p.name, "card": step["card"],
                      "era": step["era"], "low": low, "high": high, "paid": 0})


def _do_ripple(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    p = state.player(step["player"])
    card = action.get("card")
    if card is None:  # at the table: a card from the hand, face down, never named
        if not held(p):
            raise RuleError(_("{player} has no card left to lay face down").format(
                player=p.name))
        _forget(state, p)
        p.unseen -= 1
        p.ripple_unseen += 1
    elif _holds(state, p, card):
        _take(state, p, card)
        p.ripple.append(card)
    elif card in p.ripple:
        raise RuleError(_("{card} is already under {player}'s ripple token: lay another card "
                          "from the hand").format(card=card_name(state, card), player=p.name))
    else:
        raise RuleError(_unknown(state, card) or _(
            "card: one of the cards in {player}'s hand, to lay face down (or leave card out: "
            "nobody names it)").format(player=p.name))
    paid = step["paid"] + 1
    _effect(effects, "ripple", _("RIPPLE: {player} lays 1 card face down under the ripple "
                                 "token").format(player=p.name), player=p.name, count=1)
    if paid >= step["high"]:
        _pop(state)
        _place(state, p, step["card"], step["era"], effects)
    else:
        state.pending[0] = {**step, "paid": paid}


def _do_pass(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    p = state.player(step["player"])
    kind = step["step"]
    if kind == "ripple":
        if step["paid"] < step["low"]:
            raise RuleError(_("{era} needs {n} ripple card(s); {paid} placed so far").format(
                era=step["era"], n=step["low"], paid=step["paid"]))
        _pop(state)
        _place(state, p, step["card"], step["era"], effects)
    elif kind == "george":
        _pop(state)
        _effect(effects, "george", _("GEORGE: {player} keeps the hand").format(player=p.name),
                player=p.name)
    else:  # the extra card of "Draw 1" refused
        _pop(state)
        _refill(state, p, step["count"], None, step["then"], effects)


def _place(state: State, p: Player, card: str, era: str, effects: list[Effect]) -> None:
    p.board[era].append(card)
    state.turn["played"] += 1
    _effect(effects, "placed", _("{player}: PUT {card} on your {era}").format(
        player=p.name, card=card_name(state, card), era=era), player=p.name, card=card, era=era,
        face=face(state, card))


def _do_complete(state: State, action: Action, effects: list[Effect]) -> None:
    p = state.current
    _no_clock_yet(state, p)
    event = _text(action, "event", _("the event completed"))
    era = next((e for e in ERAS if state.top[e] == event), None)
    if era is None:
        tops = ", ".join(f"{e}: {state.top[e]}" for e in ERAS if state.top[e]) or _("none")
        raise RuleError(_("{event} is not an event in play (in play: {tops})").format(
            event=event, tops=tops))
    why = _event_problem(state, p, event)
    if why:
        raise RuleError(why)
    cards = _pay_items(action, "cards")
    step = {"step": "use", "player": p.name, "event": event, "era": era, "chosen": []}
    if cards is None:
        state.pending.append(step)
        _auto_use(state, p, effects)
        return
    role = state.events[event]["role"]
    eras = [_era_of_card(p, c) if isinstance(c, str) else None for c in cards]
    if (
        len(cards) != len(ERAS)
        or sorted(e for e in eras if e) != list(ERAS)
        or not any(state.cards[c]["role"] == role for c in cards)
    ):
        raise RuleError(_("cards: an event uses one card of each era on {player}'s board, one of "
                          "them a {role} card").format(player=p.name, role=role_name(role)))
    _complete(state, p, {**step, "chosen": list(cards)}, effects)


def _auto_use(state: State, p: Player, effects: list[Effect]) -> None:
    """Take the picks that leave no choice; complete the event once every era is covered."""
    step = state.pending[0]
    if not step["chosen"] and all(len(p.board[era]) == 1 for era in ERAS):
        _pop(state)  # one card in each era: they are the cards used, whichever carries the role
        _complete(state, p, {**step, "chosen": [p.board[era][0] for era in ERAS]}, effects)
        return
    while state.pending and state.pending[0]["step"] == "use":
        step = state.pending[0]
        options = _use_options(state, p, step)
        if not options:
            _pop(state)
            _complete(state, p, step, effects)
            return
        if len(options) > 1:
            return
        state.pending[0] = {**step, "chosen": step["chosen"] + [options[0]]}


def _do_use(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    p = state.player(step["player"])
    card = action.get("card")
    options = _use_options(state, p, step)
    if not isinstance(card, str) or card not in options:
        role = state.events[step["event"]]["role"]
        if not step["chosen"]:
            what = _("a {role} card on {player}'s board").format(role=role_name(role),
                                                                 player=p.name)
        else:
            what = _("a card of an era not used yet")
        raise RuleError(_("card: {what} ({options})").format(what=what,
                                                             options=", ".join(options)))
    state.pending[0] = {**step, "chosen": step["chosen"] + [card]}
    _auto_use(state, p, effects)


def _complete(state: State, p: Player, step: dict[str, Any], effects: list[Effect]) -> None:
    event, era = step["event"], step["era"]
    used = step["chosen"]
    for card in used:
        p.board[_era_of_card(p, card)].remove(card)
        state.discard.append(card)
    token = state.stacks[era].pop(0)
    p.tokens.append(token)
    p.events.append(event)
    state.top[era] = None
    state.turn["completed"] += 1
    value = state.vps[token]["value"]
    _effect(effects, "complete", _("{player} completes {event} ({era}): +{value} VP").format(
        player=p.name, event=event_name(state, event), era=era, value=value),
        player=p.name, event=event, era=era, value=value, name=state.events[event].get("name"))
    _effect(effects, "instruction", _("{player}: TAKE the {era} event and its top VP token "
                                      "({value}); DISCARD {cards}").format(
        player=p.name, era=era, value=value,
        cards=", ".join(card_name(state, c) for c in used)), player=p.name, cards=list(used),
        faces=[face(state, c) for c in used])
    if state.hidden[era]:
        _push(state, {"step": "reveal", "chance": True, "era": era})
        return
    gone = [e for e in ERAS if state.top[e] is None and not state.hidden[e]]
    _effect(effects, "era_done", _("{era} has no events left").format(era=era), era=era)
    if len(gone) >= 2 and not state.last_round:
        state.last_round = True
        _effect(effects, "last_round", _("LAST ROUND: two eras have run out of events"))


def _do_shift(state: State, action: Action, effects: list[Effect]) -> None:
    p = state.current
    if p.role != "lorraine":
        raise RuleError(_("only Lorraine's player moves a played card to another era"))
    _not_closed(state, p)
    if state.turn["lorraine"]:
        raise RuleError(_("Lorraine moves one card a turn; {player} has moved one").format(
            player=p.name))
    card = _text(action, "card", _("a card on your board"))
    here = _era_of_card(p, card)
    if here is None:
        raise RuleError(_("{card} is not on {player}'s board").format(card=card, player=p.name))
    to = _era_field(action, "to")
    if to not in ADJACENT[here]:
        raise RuleError(_("{card} is in {here}: it may move to {eras} only").format(
            card=card_name(state, card), here=here, eras=" or ".join(ADJACENT[here])))
    p.board[here].remove(card)
    p.board[to].append(card)
    state.turn["lorraine"] = True
    _effect(effects, "shift", _("LORRAINE: {player} moves {card} from {here} to {to}").format(
        player=p.name, card=card_name(state, card), here=here, to=to),
        player=p.name, card=card, era=to, face=face(state, card))


def _do_clock(state: State, action: Action, effects: list[Effect]) -> None:
    p = state.current
    why = _clock_problem(state, p)
    if why:
        raise RuleError(why)
    p.clocks += 1
    state.turn["clock"] = True
    _effect(effects, "clock", _("{player}: TAKE a clock tower token ({n})").format(
        player=p.name, n=p.clocks), player=p.name, clocks=p.clocks)


def _do_end(state: State, action: Action, effects: list[Effect]) -> None:
    p = state.current
    effect = active_effect(state)
    count = state.options["refill"][ERAS.index(state.delorean)]
    keep = None
    if effect == "draw-2-keep-1":
        count, keep = 2, 1
    elif effect == "draw-3-keep-2":
        count, keep = 3, 2
    elif effect == "then-1955":
        count = 2
    then = effect == "then-1955"
    _effect(effects, "end", _("{player} ends the turn").format(player=p.name), player=p.name)
    if effect == "draw-1":
        state.pending.append({"step": "extra", "player": p.name, "count": count, "then": then})
        return
    _refill(state, p, count, keep, then, effects)


def _refill(state: State, p: Player, count: int, keep: int | None, then: bool,
            effects: list[Effect]) -> None:
    steps: list[dict[str, Any]] = []
    if count:
        steps.append({"step": "draw", "chance": True, "player": p.name, "count": count,
                      "why": "refill", "keep": keep})
    if then:
        steps.append({"step": "to_1955"})
    steps.append({"step": "next_turn"})
    _push(state, *steps)


def _do_extra(state: State, action: Action, effects: list[Effect]) -> None:
    step = _pop(state)
    p = state.player(step["player"])
    _refill(state, p, step["count"] + 1, None, step["then"], effects)


def _do_keep(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    p = state.player(step["player"])
    kept = action.get("cards")
    thrown = action.get("discard")
    drawn = step["drawn"]
    drop = step["got"] - step["keep"]
    if drawn and thrown is None:
        if (
            not isinstance(kept, list)
            or len(kept) != step["keep"]
            or len(set(map(str, kept))) != len(kept)
            or any(not isinstance(c, str) or c not in drawn for c in kept)
        ):
            raise RuleError(_("cards: keep {n} of the cards just drawn ({drawn})").format(
                n=step["keep"], drawn=", ".join(drawn)))
        dropped = [c for c in drawn if c not in kept]
    else:  # the cards given back are named (they go face up); the kept ones never are
        fits = drawn.__contains__ if drawn else (lambda c: _holds(state, p, c))
        if (
            not isinstance(thrown, list)
            or len(thrown) != drop
            or len(set(map(str, thrown))) != len(thrown)
            or any(not isinstance(c, str) or not fits(c) for c in thrown)
        ):
            raise RuleError(ngettext(
                "discard: name the {n} card of those just drawn that {player} does not keep",
                "discard: name the {n} cards of those just drawn that {player} does not keep",
                drop).format(n=drop, player=p.name))
        dropped = list(thrown)
    _pop(state)
    for c in dropped:
        _take(state, p, c)
        state.discard.append(c)
    _effect(effects, "discard", _("{player}: DISCARD {cards} (not kept)").format(
        player=p.name, cards=", ".join(card_name(state, c) for c in dropped)),
        player=p.name, cards=dropped, faces=[face(state, c) for c in dropped])


def _to_1955(state: State, effects: list[Effect]) -> None:
    state.delorean = "1955"
    _effect(effects, "move", _("MOVE the DeLorean to 1955 (the 2015 event)"), era="1955")


def _next_turn(state: State, effects: list[Effect]) -> None:
    state.done += 1
    if state.done < len(state.players):
        _begin_turn(state, effects)
        return
    _effect(effects, "round_end", _("RETURN the role tiles"))
    if state.last_round or state.exhausted:
        _end_game(state, effects)
        return
    state.start = (state.start + 1) % len(state.players)
    state.round += 1
    _effect(effects, "start_player", _("START PLAYER token to {player}").format(
        player=state.players[state.start].name), player=state.players[state.start].name)
    _begin_round(state, effects)


def _end_game(state: State, effects: list[Effect]) -> None:
    """The last round is over: ripple cards nobody named are turned up and counted, then the
    game is scored."""
    n = len(state.players)
    seats = [state.players[(state.start + i) % n] for i in range(n)]
    dark = [p for p in seats if p.ripple_unseen and p.ripple_vp is None]
    if not dark:
        _finish(state, effects)
        return
    state.phase = "tally"
    state.pending = [{"step": "tally", "player": p.name, "count": p.ripple_unseen}
                     for p in dark] + [{"step": "finish"}]
    _effect(effects, "tally", _("GAME OVER: turn up your ripple cards and add up their VP"),
            players=[p.name for p in dark])


def _do_tally(state: State, action: Action, effects: list[Effect]) -> None:
    step = state.pending[0]
    p = state.player(step["player"])
    vp = action.get("vp")
    low, high = _tally_range(state, p)
    if isinstance(vp, bool) or not isinstance(vp, int) or not low <= vp <= high:
        raise RuleError(ngettext(
            "vp: the VP printed on {player}'s {n} ripple card: {low} to {high}",
            "vp: the VP printed on {player}'s {n} ripple cards added up: {low} to {high}",
            p.ripple_unseen).format(player=p.name, n=p.ripple_unseen, low=low, high=high))
    _pop(state)
    p.ripple_vp = vp
    _effect(effects, "tally_vp", _("{player}: ripple cards {vp} VP").format(
        player=p.name, vp=vp), player=p.name, vp=vp)


_INTERNAL = {
    "finish": lambda state, step, effects: _finish(state, effects),
    "begin_round": lambda state, step, effects: _begin_round(state, effects),
    "next_role": lambda state, step, effects: _next_role(state, effects),
    "next_turn": lambda state, step, effects: _next_turn(state, effects),
    "to_1955": lambda state, step, effects: _to_1955(state, effects),
}


def _advance(state: State, effects: list[Effect]) -> None:
    """Run the steps that need nobody's decision, until one does (or the game ends)."""
    while state.pending and state.phase != "over":
        step = state.pending[0]
        kind = step["step"]
        if kind in _INTERNAL:
            _pop(state)
            _INTERNAL[kind](state, step, effects)
        elif kind == "draw" and _supply(state, step.get("held")) == 0:
            _pop(state)
            _land(state, state.player(step["player"]), step, [], 0, effects)
        elif kind == "george" and not held(state.player(step["player"])):
            _pop(state)
        elif kind == "stolen" and not held(state.player(step["from"])):
            _pop(state)
        elif kind == "keep" and step["got"] <= step["keep"]:
            _pop(state)
        else:
            return


# --------------------------------------------------------------------------- the end


def score(state: State, p: Player) -> dict[str, int]:
    """A player's points by source: VP tokens, played cards, ripple cards, clock tokens."""
    tokens = sum(state.vps[t]["value"] for t in p.tokens)
    cards = sum(state.cards[c]["vp"] for era in ERAS for c in p.board[era])
    ripple = sum(state.cards[c]["vp"] for c in p.ripple) + (p.ripple_vp or 0)
    return {
        "tokens": tokens,
        "cards": cards,
        "ripple": ripple,
        "clocks": p.clocks,
        "total": tokens + cards + ripple + p.clocks,
        "events": len(p.events),
    }


def _finish(state: State, effects: list[Effect]) -> None:
    state.phase = "over"
    state.pending = []
    scores = {p.name: score(state, p) for p in state.players}
    best = max(s["total"] for s in scores.values())
    tied = [p.name for p in state.players if scores[p.name]["total"] == best]
    most = max(scores[name]["events"] for name in tied)
    state.winners = tuple(name for name in tied if scores[name]["events"] == most)
    for p in state.players:
        s = scores[p.name]
        _effect(effects, "score", _("{player}: {total} = tokens {tokens} + cards {cards} + ripple "
                                    "{ripple} + clocks {clocks}").format(player=p.name, **s),
                player=p.name, score=s)
    names = " & ".join(state.winners)
    _effect(effects, "win", _("{names} WIN(S) with {total} VP").format(names=names, total=best),
            winners=list(state.winners), total=best)


_HANDLERS = {
    "reveal": _do_reveal,
    "deal": _do_draw,
    "draw": _do_draw,
    "stolen": _do_stolen,
    "role": _do_role,
    "steal": _do_steal,
    "discard": _do_discard,
    "move": _do_move,
    "play": _do_play,
    "complete": _do_complete,
    "shift": _do_shift,
    "clock": _do_clock,
    "end": _do_end,
    "pay": _do_pay,
    "ripple": _do_ripple,
    "use": _do_use,
    "keep": _do_keep,
    "extra": _do_extra,
    "pass": _do_pass,
    "tally": _do_tally,
}


# --------------------------------------------------------------------------- JSON and views


def to_json(state: State) -> dict[str, Any]:
    return {
        "title": facts.key,
        "players": [
            {
                "name": p.name,
                "hand": list(p.hand),
                "board": {era: list(v) for era, v in p.board.items()},
                "ripple": list(p.ripple),
                "tokens": list(p.tokens),
                "events": list(p.events),
                "clocks": p.clocks,
                "role": p.role,
                "unseen": p.unseen,
                "ripple_unseen": p.ripple_unseen,
                "ripple_vp": p.ripple_vp,
            }
            for p in state.players
        ],
        "cards": state.cards,
        "events": state.events,
        "vps": state.vps,
        "options": state.options,
        "phase": state.phase,
        "deck": state.deck,
        "pool": list(state.pool),
        "discard": list(state.discard),
        "hidden": {era: list(v) for era, v in state.hidden.items()},
        "top": dict(state.top),
        "stacks": {era: list(v) for era, v in state.stacks.items()},
        "delorean": state.delorean,
        "round": state.round,
        "start": state.start,
        "chosen": state.chosen,
        "done": state.done,
        "turn": dict(state.turn),
        "pending": [dict(s) for s in state.pending],
        "last_round": state.last_round,
        "exhausted": state.exhausted,
        "winners": list(state.winners),
    }


def from_json(data: dict[str, Any]) -> State:
    players = [
        Player(p["name"], list(p["hand"]), {era: list(v) for era, v in p["board"].items()},
               list(p["ripple"]), list(p["tokens"]), list(p["events"]), p["clocks"], p["role"],
               p["unseen"], p["ripple_unseen"], p["ripple_vp"])
        for p in data["players"]
    ]
    return State(
        players,
        data["cards"],
        data["events"],
        data["vps"],
        data["options"],
        data["phase"],
        data["deck"],
        list(data["pool"]),
        list(data["discard"]),
        {era: list(v) for era, v in data["hidden"].items()},
        dict(data["top"]),
        {era: list(v) for era, v in data["stacks"].items()},
        data["delorean"],
        data["round"],
        data["start"],
        data["chosen"],
        data["done"],
        dict(data["turn"]),
        [dict(s) for s in data["pending"]],
        data["last_round"],
        data["exhausted"],
        tuple(data["winners"]),
    )


def secrets(state: State) -> dict[str, list[str]]:
    """The cards only their holder knows: the hand, and the cards face down under the ripple
    token."""
    return {p.name: list(p.hand) + list(p.ripple) for p in state.players}


def _public_step(state: State, step: dict[str, Any]) -> dict[str, Any]:
    """What the table may know of the step it waits for (never the cards in a hand)."""
    out = {"step": step["step"]}
    for key in ("player", "era", "count", "unit", "due", "for", "to", "card", "low", "high",
                "paid", "event", "keep", "got", "from", "why", "chance"):
        if key in step:
            out[key] = step[key]
    if step["step"] == "use":
        out["chosen"] = list(step["chosen"])
    if step["step"] == "steal":
        out["options"] = list(step["options"])
    return out


def view(state: State, observer: str | None = None) -> dict[str, Any]:
    """What ``observer`` may see (None: the public table, as on the OLED).

    Running scores count what lies open on the table; the ripple cards lie face down, so their
    points are shown to their owner during the game and to everyone once they are turned up at
    the end. ``hand`` and ``ripple`` are counts; ``you`` (an observer's own) names the cards the
    companion knows and counts the unseen ones.
    """
    over = state.phase == "over"
    players = []
    for p in state.players:
        s = score(state, p)
        # Turned up at the end, each player's ripple cards count once added up (``tally``):
        # until then they show as during play (None, the total without them).
        counted = state.phase == "tally" and not (p.ripple_unseen and p.ripple_vp is None)
        shown = over or counted or p.name == observer
        players.append({
            "name": p.name,
            "role": p.role,
            "hand": held(p),
            "board": {era: list(p.board[era]) for era in ERAS},
            "ripple": len(p.ripple) + p.ripple_unseen,
            "clocks": p.clocks,
            "tokens": [state.vps[t]["value"] for t in p.tokens],
            "events": list(p.events),
            "score": {
                "tokens": s["tokens"],
                "cards": s["cards"],
                "clocks": s["clocks"],
                "ripple": s["ripple"] if shown else None,
                "total": s["total"] if shown else s["total"] - s["ripple"],
                "events": s["events"],
            },
        })
    eras = {}
    for era in ERAS:
        event = state.top[era]
        e = state.events[event] if event else None
        eras[era] = {
            "event": None if e is None else {
                "id": event,
                "name": event_name(state, event),
                "role": e["role"],
                "effect": e.get("effect") if state.options["advanced"] else None,
            },
            "events_left": len(state.hidden[era]) + (1 if event else 0),
            "next_vp": state.vps[state.stacks[era][0]]["value"] if state.stacks[era] else None,
            "ripple": RIPPLE[era],
            "refill": state.options["refill"][ERAS.index(era)],
        }
    effect = active_effect(state) if state.phase == "turn" else None
    out: dict[str, Any] = {
        "title": facts.key,
        "phase": state.phase,
        "round": state.round,
        "start_player": state.players[state.start].name,
        "turn": state.current.name if state.phase == "turn" else None,
        "actor": actor(state),
        "delorean": state.delorean,
        "advanced": state.options["advanced"],
        "effect": None if effect is None else {
            "key": effect, "name": _(EFFECTS[effect][1]), "text": _(EFFECTS[effect][2]),
        },
        "eras": eras,
        "deck": state.deck,
        "discard": len(state.discard),
        "players": players,
        "due": _public_step(state, state.pending[0]) if state.pending else None,
        "turn_flags": dict(state.turn) if state.phase == "turn" else None,
        "last_round": state.last_round,
        "deck_out": state.exhausted,
        "winners": list(state.winners),
    }
    if observer is not None and not over:
        me = next((p for p in state.players if p.name == observer), None)
        if me is not None:
            out["you"] = {"name": me.name, "hand": list(me.hand), "unseen": me.unseen,
                          "ripple": list(me.ripple), "ripple_unseen": me.ripple_unseen}
    return out


# --------------------------------------------------------------------------- menu words


def label(state: State, action: Action) -> str:
    """A short menu line for one of ``legal_actions`` (the table shows three at a time)."""
    kind = action.get("type")
    if kind == "role":
        return role_name(action["role"])
    if kind == "move":
        p = state.current
        if p.role == "doc" and not state.turn["doc"]:
            return _("MOVE TO {era} (free)").format(era=action["to"])
        return _("MOVE TO {era} (3 power)").format(era=action["to"])
    if kind == "play":
        cost = play_cost(state, action["card"], action["era"])
        low, high = cost["ripple"]
        return _("{era}: {card} {time}T {ripple}R").format(
            era=action["era"], card=card_name(state, action["card"]), time=cost["time"],
            ripple=str(low) if low == high else f"{low}-{high}")
    if kind == "complete":
        return _("EVENT {name}").format(name=event_name(state, action["event"]))
    if kind == "shift":
        return _("SHIFT {card} > {era}").format(card=card_name(state, action["card"]),
                                                era=action["to"])
    if kind == "clock":
        return _("TAKE CLOCK TOKEN")
    if kind == "end":
        return _("END TURN")
    if kind == "pay":
        item = action["with"]
        if item == "clock":
            return _("CLOCK TOKEN")
        if item == "free":
            return _("FREE (MARTY)")
        step = state.pending[0]
        value = state.cards[item]["power" if step["unit"] == "power" else "clocks"]
        return _("{card} ({value})").format(card=card_name(state, item), value=value)
    if kind == "ripple":
        if action.get("card") is None:
            return _("LAY 1 CARD FACE DOWN")
        return _("RIPPLE {card}").format(card=card_name(state, action["card"]))
    if kind == "use":
        return _("USE {card}").format(card=card_name(state, action["card"]))
    if kind == "keep":
        if "discard" in action:
            return _("DISCARD {cards}").format(cards="+".join(card_name(state, c)
                                                             for c in action["discard"]))
        return _("KEEP {cards}").format(cards="+".join(card_name(state, c)
                                                      for c in action["cards"]))
    if kind == "tally":
        return _("{vp} VP").format(vp=action["vp"])
    if kind in ("deal", "draw"):
        count = len(action["cards"]) if action.get("cards") else action.get("count", "")
        return _("{player}: {n} CARD(S) DRAWN").format(player=action["player"], n=count)
    if kind == "stolen":
        return _("BIFF TOOK A CARD")
    if kind == "reveal":
        return event_name(state, action["event"]) if action.get("event") else _("EVENT")
    if kind == "discard":
        return _("DISCARD {card}").format(card=card_name(state, action["card"]))
    if kind == "steal":
        return _("STEAL FROM {player}").format(player=action["from"])
    if kind == "extra":
        return _("DRAW 1 MORE")
    if kind == "pass":
        step = state.pending[0] if state.pending else {"step": ""}
        return {"ripple": _("NO MORE RIPPLE"), "george": _("KEEP HAND"),
                "extra": _("NO EXTRA CARD")}.get(step["step"], _("PASS"))
    return str(kind).upper()
