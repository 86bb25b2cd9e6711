"""OUTATIME, the dice game: the complete rules as a pure engine.

The rules are those of the rulebook; where it is silent or ambiguous the decision taken is written
in ``docs/rules/outatime.md`` and tested. Actions are JSON dicts:

==============  =====================================================  ======================
type            fields                                                 who
==============  =====================================================  ======================
deal            player, cards (5 card ids; or 2-4 naming Active and    chance
                Next, the rest named when a Next card is chosen),
                active, next (optional: the choice made at once)
choose          player, active, next (card ids)                        each player at setup
roll            dice (faces of the free dice)                          chance (or the player
                                                                       rerolling, in one go)
lock            dice (faces moved onto the DeLorean), target (opt.)    current player
reroll          -                                                      current player
doubleback      -                                                      current player
end             -                                                      current player
next            player, card                                           a player who completed
                                                                       a card
target          player (the opponent who loses 1 in a paradox)         current player
==============  =====================================================  ======================

Faces: ``flux``, ``2``, ``3``, ``4``, ``5``, ``88``.

    >>> from companion.content import demo_pack
    >>> state = new_game(["Ana", "Ben"], {}, demo_pack("outatime"))
    >>> state.phase, actor(state)
    ('deal', 'chance')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import factorial
from typing import Any

from companion.i18n import N_, _, ngettext
from companion.titles.api import (
    CHANCE,
    TERMINAL,
    Action,
    Effect,
    Facts,
    RuleError,
    check_fields,
    check_players,
    known_options,
)

FLUX = "flux"
EIGHTY_EIGHT = "88"
NUMBERS = ("2", "3", "4", "5")
FACES = (FLUX, "2", "3", "4", "5", EIGHTY_EIGHT)
DICE = 6
KINDS = ("0.2", "0.3", "0.4", "td")
HAND = {"0.2": 1, "0.3": 2, "0.4": 1, "td": 1}  # the rulebook's deal per player
CARDS_TO_WIN = 5  # every card dealt, completed
TD = "td"

facts = Facts(
    key="outatime",
    name="OUTATIME",
    min_players=2,
    max_players=6,
    dice="outatime",
    chance="six custom dice read by the camera; Power cards dealt at setup",
    options={"first_roll_stalls": False},
)

_FACE_ALIASES = {
    "f": FLUX,
    "fc": FLUX,
    "flux": FLUX,
    "flux capacitor": FLUX,
    "flux_capacitor": FLUX,
    "88": EIGHTY_EIGHT,
    "88mph": EIGHTY_EIGHT,
    "88 mph": EIGHTY_EIGHT,
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
}

# The faces as players read them (the others are numbers); the faces themselves are the
# tokens of actions, the journal and the camera, and are never translated.
FACE_WORDS = {FLUX: N_("flux")}


def faces_text(faces) -> str:
    """Faces as a player reads them, e.g. "flux 3 88"."""
    return " ".join(_(FACE_WORDS[f]) if f in FACE_WORDS else str(f) for f in faces)


def face(value: Any) -> str:
    """The canonical face name for a die value written by a person or the camera."""
    if isinstance(value, str) and value in _FACE_ALIASES:  # the usual case, checked first
        return _FACE_ALIASES[value]
    key = str(value).strip().lower()
    if key not in _FACE_ALIASES:
        raise RuleError(_("{value} is not an OUTATIME die face (flux, 2, 3, 4, 5 or 88)").format(
            value=repr(value)))
    return _FACE_ALIASES[key]


CARD_FIELDS = {"id", "kind", "steps", "note", "source"}


def validate_card(card: dict[str, Any]) -> dict[str, Any]:
    """Check one Power card entry of a content pack; return it normalised.

    ``steps`` are in the order they are completed: left to right on a Power card, bottom to top
    on the Temporal Displacement card.
    """
    check_fields(card, CARD_FIELDS, _("a Power card"))
    kind = str(card.get("kind", ""))
    if kind not in KINDS:
        raise ValueError(_('kind {kind} must be one of "0.2", "0.3", "0.4" or "td"').format(
            kind=repr(kind)))
    steps = card.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ValueError(_("steps must be a list of the die numbers on the card, e.g. {example}")
                         .format(example="[3, 4, 2]"))
    clean = []
    for step in steps:
        if str(step) not in NUMBERS:
            raise ValueError(_("step {step} is not a number die (2, 3, 4 or 5)").format(
                step=repr(step)))
        clean.append(int(step))
    if len(clean) > 12:
        raise ValueError(_("{count} steps is more than any Power card has; check the entry")
                         .format(count=len(clean)))
    out = dict(card)
    out["kind"] = kind
    out["steps"] = clean
    return out


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Player:
    name: str
    hand: list[str]  # dealt cards not yet used as Active or Next
    active: str | None = None
    next: str | None = None
    progress: int = 0  # steps of the Active card covered by the Next card
    completed: tuple[str, ...] = ()
    carry: int = 0  # steps gained while the next Power card is still to be chosen
    unknown: dict[str, int] | None = None  # dealt cards not named yet, by kind

    def clone(self) -> Player:
        return Player(
            self.name,
            list(self.hand),
            self.active,
            self.next,
            self.progress,
            self.completed,
            self.carry,
            dict(self.unknown) if self.unknown else None,
        )

    @property
    def dealt(self) -> bool:
        return bool(self.hand or self.active or self.unknown)


@dataclass(slots=True)
class State:
    players: list[Player]
    cards: dict[str, dict[str, Any]]  # every card of the pack in play, by id (never changed)
    options: dict[str, Any]
    phase: str = "deal"  # deal, choose, roll, place, over
    turn: int = 0  # index of the player whose turn it is
    delorean: tuple[str, ...] = ()  # faces locked on the DeLorean card this turn
    roll: tuple[str, ...] = ()  # faces of the latest roll not yet locked
    locked_since_roll: int = 0
    rolls_this_turn: int = 0
    doubleback: bool = False
    pending: tuple[dict[str, Any], ...] = ()  # decisions that block play, first first
    end_turn_after_pending: bool = False
    winner: str | None = None
    turns: int = 0  # turns completed
    lock_rest: dict[str, Any] | None = None  # a lock's numbers waiting for a Next choice

    def clone(self) -> State:
        return State(
            [p.clone() for p in self.players],
            self.cards,
            self.options,
            self.phase,
            self.turn,
            self.delorean,
            self.roll,
            self.locked_since_roll,
            self.rolls_this_turn,
            self.doubleback,
            self.pending,
            self.end_turn_after_pending,
            self.winner,
            self.turns,
            self.lock_rest,
        )

    @property
    def current(self) -> Player:
        return self.players[self.turn]

    @property
    def free_dice(self) -> int:
        return DICE - len(self.delorean)

    def player(self, name: Any) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        names = ", ".join(p.name for p in self.players)
        raise RuleError(_("no player called {name} (players: {players})").format(
            name=repr(name), players=names))

    def index(self, name: str) -> int:
        return [p.name for p in self.players].index(name)

    def steps(self, card_id: str) -> list[int]:
        return self.cards[card_id]["steps"]

    def next_step(self, p: Player) -> int | None:
        if p.active is None:
            return None
        steps = self.steps(p.active)
        return steps[p.progress] if p.progress < len(steps) else None


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options over their defaults (one, ``first_roll_stalls``, true or false)."""
    return known_options(facts, options)


def new_game(players: list[str], options: dict[str, Any], content: Any) -> State:
    """A new game; ``content`` is a content pack, its entries by section, or a list of cards."""
    check_players(facts, players)
    opts = check_options(options)
    if hasattr(content, "cards"):  # a content pack
        cards_list = content.cards
    elif isinstance(content, dict):  # a recorded setup's entries by section
        cards_list = content.get("card", [])
    else:  # a plain list of card entries
        cards_list = content
    cards = {c["id"]: validate_card(c) for c in cards_list}
    return State([Player(name, []) for name in players], cards, opts)


# --------------------------------------------------------------------------- queries


def actor(state: State) -> str:
    if state.phase == "over":
        return TERMINAL
    if state.pending:
        return state.pending[0]["player"]
    if state.phase in ("deal", "roll"):
        return CHANCE
    if state.phase == "choose":
        return next(p.name for p in state.players if p.active is None)
    return state.current.name


def winners(state: State) -> list[str]:
    return [state.winner] if state.winner else []


def is_terminal(state: State) -> bool:
    return state.phase == "over"


def legal_actions(state: State) -> list[Action]:
    """Every decision open to the actor. Chance phases list one template (see sample_chance)."""
    if state.phase == "over":
        return []
    if state.pending:
        decision = state.pending[0]
        key = "card" if decision["decision"] == "next" else "player"
        who = {"player": decision["player"]} if decision["decision"] == "next" else {}
        return [{"type": decision["decision"], **who, key: o} for o in decision["options"]]
    if state.phase == "deal":
        return [{"type": "deal"}]
    if state.phase == "roll":
        return [{"type": "roll"}]
    if state.phase == "choose":
        p = next(p for p in state.players if p.active is None)
        usable = [c for c in p.hand if state.cards[c]["kind"] != TD]
        return [
            {"type": "choose", "player": p.name, "active": a, "next": n}
            for a in usable
            for n in usable
            if a != n
        ]
    actions: list[Action] = [{"type": "lock", "dice": list(d)} for d in _lockable_sets(state)]
    if _may_stop_rolling(state) is None:
        if state.free_dice:
            actions.append({"type": "reroll"})
        actions.append({"type": "end"})
        if _may_doubleback(state) is None:
            actions.append({"type": "doubleback"})
    return actions


def _lockable_sets(state: State) -> list[tuple[str, ...]]:
    """Distinct sets of dice from the latest roll that may be locked together."""
    roll = state.roll
    fluxes = roll.count(FLUX)
    eighty = roll.count(EIGHTY_EIGHT)
    chain = _number_chain(state, state.current, [f for f in roll if f in NUMBERS])
    return list(_sets_of(fluxes, tuple(chain), eighty))


@lru_cache(maxsize=4096)
def _sets_of(fluxes: int, chain: tuple[str, ...], eighty: int) -> tuple[tuple[str, ...], ...]:
    """Every non-empty set of some fluxes, the first numbers of ``chain`` and some 88s (few
    distinct rolls, so cached: this runs in every legal-actions query)."""
    out = []
    for n_chain in range(len(chain) + 1):
        for f in range(fluxes + 1):
            for e in range(eighty + 1):
                if n_chain + f + e:
                    out.append((FLUX,) * f + chain[:n_chain] + (EIGHTY_EIGHT,) * e)
    return tuple(out)


def _path(state: State, p: Player) -> list[int]:
    """The numbers ``p`` needs next, in order, as far as their cards are known."""
    path: list[int] = []
    if p.active is not None:
        path.extend(state.steps(p.active)[p.progress :])
        if p.next is not None:
            path.extend(state.steps(p.next))
    return path


def _number_chain(state: State, p: Player, numbers: list[str]) -> list[str]:
    """The longest run of ``numbers`` usable in order of need (as faces)."""
    if not numbers or p.active is None:
        return []
    pool = list(numbers)
    chain = []
    # Runs in every legal-actions query: stop at the first miss or when the numbers run out.
    for step in _path(state, p):
        need = str(step)
        if need not in pool:
            break
        pool.remove(need)
        chain.append(need)
        if not pool:
            break
    return chain


def _may_stop_rolling(state: State) -> str | None:
    """Why the current player may not yet reroll or end (None: they may), as a message to
    translate where it is shown (these run in every ``legal_actions``)."""
    if state.locked_since_roll == 0:
        return N_("add at least one die to the DeLorean before rolling again or ending the turn")
    if FLUX in state.roll:
        return N_("the flux capacitor must be locked on the DeLorean first")
    return None


def _may_doubleback(state: State) -> str | None:
    """Why no doubleback now (None: it is allowed), untranslated like ``_may_stop_rolling``."""
    if state.doubleback:
        return N_("only one doubleback per turn")
    if state.free_dice:
        return N_("a doubleback needs all six dice on the DeLorean")
    if not any(f in NUMBERS for f in state.delorean):
        return N_("no number dice on the DeLorean to take back")
    return None


def sample_chance(state: State, rng: random.Random) -> Action:
    if state.phase == "deal":
        taken = held(state)
        p = next(p for p in state.players if not p.dealt)
        cards = []
        for kind, count in HAND.items():
            pool = sorted(c for c, v in state.cards.items() if v["kind"] == kind and c not in taken)
            if len(pool) < count:
                raise RuleError(_("the deck has too few {kind} cards to deal to {player}")
                                .format(kind=kind, player=p.name))
            cards.extend(rng.sample(pool, count))
        return {"type": "deal", "player": p.name, "cards": cards}
    if state.phase == "roll":
        return {"type": "roll", "dice": [rng.choice(FACES) for _die in range(state.free_dice)]}
    raise RuleError(_("no chance outcome is due now"))


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> tuple[State, list[Effect]]:
    """Apply one action; returns (new state, effects). ``state`` is left unchanged."""
    if not isinstance(action, dict) or "type" not in action:
        raise RuleError(_('an action is a JSON object with a "type", e.g. {example}').format(
            example='{"type": "end"}'))
    kind = action["type"]
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleError(_("unknown action type {type}; known: {known}").format(
            type=_short(kind), known=", ".join(sorted(_HANDLERS))))
    if state.phase == "over":
        raise RuleError(_("the game is over: {winner} has won").format(winner=state.winner))
    if state.pending and kind != state.pending[0]["decision"]:
        d = state.pending[0]
        first = _DECISION_FIRST[d["decision"]]
        raise RuleError(_(first).format(player=d["player"]))
    new = state.clone()
    effects: list[Effect] = []
    handler(new, action, effects)
    return new, effects


def _short(value: Any, most: int = 40) -> str:
    """A value as a message quotes it, cut short (a hostile script may send megabytes)."""
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


_DECISION_FIRST = {
    "next": N_("{player} must first choose their next Power card"),
    "target": N_("{player} must first choose the opponent who loses 1 in the paradox"),
}


def _effect(effects: list[Effect], kind: str, text: str, **data: Any) -> None:
    effects.append({"kind": kind, "text": text, **data})


def _need_phase(state: State, *phases: str, what: str) -> None:
    """Refuse unless in one of ``phases``; ``what`` is the action, an untranslated verb."""
    if state.phase not in phases:
        # Translators: {what} is an action ("deal", "lock dice", "end the turn", ...) and
        # {why} what is happening instead ("Ana is to roll 6 dice").
        raise RuleError(_("cannot {what} now: {why}").format(what=_(what),
                                                              why=_phase_text(state)))


def _on_turn(state: State, action: Action) -> None:
    """A turn's action may name its player (as a script writes who acts); the name must then be
    the player whose turn it is."""
    if "player" in action and action["player"] != state.current.name:
        raise RuleError(_("it is {player}'s turn, not {named}'s").format(
            player=state.current.name, named=_short(action["player"]).strip("'")))


def _phase_text(state: State) -> str:
    if state.phase == "roll":
        return ngettext("{player} is to roll {count} dice", "{player} is to roll {count} dice",
                        state.free_dice).format(player=state.current.name,
                                                count=state.free_dice)
    if state.phase == "place":
        return _("{player} is placing dice on the DeLorean").format(player=state.current.name)
    doing = {
        "deal": N_("the Power cards are being dealt"),
        "choose": N_("players are choosing their Active and Next Power cards"),
        "over": N_("the game is over"),
    }[state.phase]
    return _(doing)


def held(state: State) -> set[str]:
    """Every card some player holds, in hand, as Active or Next, or completed."""
    out: set[str] = set()
    for q in state.players:
        out.update(q.hand)
        out.update(c for c in (q.active, q.next) if c)
        out.update(q.completed)
    return out


def _do_deal(state: State, action: Action, effects: list[Effect]) -> None:
    _need_phase(state, "deal", what=N_("deal"))
    p = state.player(action.get("player"))
    expected = next(q for q in state.players if not q.dealt)
    if p is not expected:
        raise RuleError(_("deal to {player} next (players are dealt in seating order)").format(
            player=expected.name))
    cards = action.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise RuleError(_("a deal lists the five card ids the player received"))
    unknown = [c for c in cards if c not in state.cards]
    if unknown:
        raise RuleError(_("unknown card id(s) {cards}; register them with {command}").format(
            cards=unknown, command="`companion cards add`"))
    if len(set(cards)) != len(cards):
        raise RuleError(_("a card cannot be dealt twice"))
    taken = held(state)
    clash = [c for c in cards if c in taken]
    if clash:
        raise RuleError(_("card(s) {cards} were already dealt to another player").format(
            cards=clash))
    counts = {k: sum(1 for c in cards if state.cards[c]["kind"] == k) for k in HAND}
    active, nxt = action.get("active"), action.get("next")
    partial = len(cards) < sum(HAND.values())
    if counts != HAND and (not partial or any(counts[k] > HAND[k] for k in HAND)):
        raise RuleError(
            _("each player is dealt one 0.2, two 0.3, one 0.4 and one Temporal Displacement "
              "card; got {counts}").format(counts=counts)
        )
    if partial and (active is None or nxt is None):
        raise RuleError(_("a deal of fewer than five cards names the Active and the Next card "
                          "(the others are named when they are needed)"))
    p.hand = list(cards)
    if partial:
        p.unknown = {k: HAND[k] - counts[k] for k in HAND if HAND[k] > counts[k]}
    if active is not None or nxt is not None:
        _choose(state, p, active, nxt)
    if all(q.dealt for q in state.players):
        state.phase = "choose"
        if all(q.active is not None for q in state.players):
            _start_play(state, effects)
        else:
            _effect(effects, "setup", _("Choose Active and Next Power cards"))


def _do_choose(state: State, action: Action, effects: list[Effect]) -> None:
    _need_phase(state, "choose", what=N_("choose Power cards"))
    p = state.player(action.get("player"))
    _choose(state, p, action.get("active"), action.get("next"))
    if all(q.active is not None for q in state.players):
        _start_play(state, effects)


def _choose(state: State, p: Player, active: Any, nxt: Any) -> None:
    """``p`` takes ``active`` and ``nxt`` from their hand as Active and Next Power card."""
    if p.active is not None:
        raise RuleError(_("{player} has already chosen").format(player=p.name))
    for card in (active, nxt):
        if card not in p.hand:
            raise RuleError(_("{card} is not one of {player}'s cards ({cards})").format(
                card=repr(card), player=p.name, cards=", ".join(p.hand)))
        if state.cards[card]["kind"] == TD:
            raise RuleError(
                _("the Temporal Displacement card cannot be chosen now: it must be completed last")
            )
    if active == nxt:
        raise RuleError(_("the Active and the Next Power card must be two different cards"))
    p.active, p.next = active, nxt
    p.hand.remove(active)
    p.hand.remove(nxt)


def _start_play(state: State, effects: list[Effect]) -> None:
    state.phase = "roll"
    state.turn = 0
    _effect(effects, "turn", _("{player} - ROLL!").format(player=state.current.name),
            player=state.current.name)


def _do_roll(state: State, action: Action, effects: list[Effect]) -> None:
    if state.phase in ("roll", "place"):  # a wrong player first: the reroll's reasons
        _on_turn(state, action)  # are not theirs
    if state.phase == "place":  # rolling again implies the decision to reroll
        _do_reroll(state, {"type": "reroll"}, effects)
    _need_phase(state, "roll", what=N_("roll"))
    _on_turn(state, action)
    dice = action.get("dice")
    if not isinstance(dice, list):
        raise RuleError(_("a roll lists the faces rolled, e.g. {example}").format(
            example='{"type": "roll", "dice": ["2", "88"]}'))
    faces = tuple(face(d) for d in dice)
    if len(faces) != state.free_dice:
        raise RuleError(ngettext("{count} dice are to be rolled, not {given}",
                                 "{count} dice are to be rolled, not {given}",
                                 state.free_dice).format(count=state.free_dice, given=len(faces)))
    state.roll = faces
    state.locked_since_roll = 0
    state.rolls_this_turn += 1
    state.phase = "place"
    p = state.current
    _effect(effects, "roll", _("{player} rolled {dice}").format(player=p.name,
                                                                 dice=faces_text(faces)),
            player=p.name, dice=list(faces))
    if _lockable_sets(state):
        return
    if state.rolls_this_turn == 1 and not state.options["first_roll_stalls"]:
        _effect(effects, "no_die", _("{player}: no die can be added - turn passes").format(
            player=p.name), player=p.name)
    else:
        loss = 2 if state.doubleback else 1
        moved = _lose(state, p, loss)
        text = (_("STALL -{loss}: {player}") if moved
                else _("STALL -{loss}: {player} (at card start, no loss)")).format(
            loss=loss, player=p.name)
        _effect(effects, "stall", text, player=p.name, loss=loss, moved=moved)
        _instruct(effects, p, -moved)
    _end_turn(state, effects)


def _do_lock(state: State, action: Action, effects: list[Effect]) -> None:
    _need_phase(state, "place", what=N_("lock dice"))
    _on_turn(state, action)
    p = state.current
    dice = action.get("dice")
    if not isinstance(dice, list) or not dice:
        raise RuleError(_("lock at least one die: list the faces moved onto the DeLorean"))
    faces = [face(d) for d in dice]
    pool = list(state.roll)
    for f in faces:
        if f not in pool:
            raise RuleError(_("no free {face} in the latest roll ({roll})").format(
                face=faces_text([f]), roll=faces_text(state.roll) or _("none")))
        pool.remove(f)
    numbers = [f for f in faces if f in NUMBERS]
    chain = _number_chain(state, p, numbers)
    if len(chain) < len(numbers):
        raise RuleError(_why_not_numbers(state, p, numbers, chain))
    target = action.get("target")
    if target is not None:
        t = state.player(target)
        if t is p:
            raise RuleError(_("the paradox target must be an opponent"))

    before = _paradox_level(state.delorean)
    state.roll = tuple(pool)
    state.locked_since_roll += len(faces)
    # Numbers first, in order of need, each with its ripple; the paradox is checked after.
    _effect(effects, "lock", _("LOCK {dice}").format(dice=faces_text(faces)), player=p.name,
            dice=faces)
    state.delorean = state.delorean + tuple(chain) + tuple(f for f in faces if f not in NUMBERS)
    _resolve_lock(state, {"numbers": list(chain), "before": before, "target": target}, effects)


def _resolve_lock(state: State, lock: dict[str, Any], effects: list[Effect]) -> None:
    """The numbers of a lock (each with its ripple), then its paradox and the six dice.

    A player left with no Active card (an opponent whose card two ripples of this lock
    completed) chooses their next card at once: the rest of the lock waits in
    ``state.lock_rest`` until every pending choice is made, so a ripple is never lost to a
    choice not yet made (rules note 6).
    """
    p = state.current
    numbers = list(lock["numbers"])
    state.lock_rest = None
    while numbers:
        number = numbers.pop(0)
        _effect(effects, "advance", f"{p.name} +1 ({number})", player=p.name, number=int(number))
        _gain(state, p, 1, effects)
        if state.phase == "over":
            return  # the game was won by a number in this lock; all its dice are on the card
        _ripple(state, int(number), effects)
        if numbers and any(q.active is None for q in state.players):
            state.lock_rest = {**lock, "numbers": numbers}
            return

    level = _paradox_level(state.delorean)
    if level > lock["before"]:
        _paradox(state, p, level, lock["target"], effects)
        return
    if state.free_dice == 0 and state.doubleback:
        _effect(effects, "six", _("{player}: all six again - turn over").format(player=p.name),
                player=p.name, again=True)
        _end_turn(state, effects)
    elif state.free_dice == 0 and _may_doubleback(state) is None:
        _effect(effects, "six", _("{player}: all six! DOUBLEBACK or END").format(player=p.name),
                player=p.name, again=False)


def _why_not_numbers(state: State, p: Player, numbers: list[str], chain: list[str]) -> str:
    path = _path(state, p)
    if p.active is not None and state.next_step(p) is None:
        return _("{player}'s Active card is complete").format(player=p.name)
    need = path[len(chain)] if len(chain) < len(path) else None
    extra = list(numbers)
    for c in chain:
        extra.remove(c)
    if need is None:
        done = len(p.completed) + 1 + (p.next is not None)  # the dice cover every known card
        if done >= CARDS_TO_WIN:
            return _("{dice} complete {player}'s last card and win: lock those alone").format(
                dice=faces_text(tuple(chain)), player=p.name)
        return _(
            "{player} completes a card with the first dice: lock those, choose the next "
            "Power card, then lock the rest"
        ).format(player=p.name)
    return _(
        "the {number} is not needed now: {player}'s card needs a {need} next "
        "(number dice go on in order of need)"
    ).format(number=extra[0], player=p.name, need=need)


def _paradox_level(delorean: tuple[str, ...]) -> int:
    fluxes, eighty = delorean.count(FLUX), delorean.count(EIGHTY_EIGHT)
    if fluxes >= 3 and eighty >= 3:
        return 2
    if fluxes >= 2 and eighty >= 2:
        return 1
    return 0


def _paradox(state: State, p: Player, level: int, target: Any, effects: list[Effect]) -> None:
    gain = level  # +1 for two and two, +2 for three and three
    _effect(effects, "paradox", _("PARADOX! {player} +{steps}").format(player=p.name, steps=gain),
            player=p.name, size=level)
    _instruct(effects, p, gain)
    _gain(state, p, gain, effects)
    if state.phase == "over":
        return
    opponents = [q for q in state.players if q is not p]
    if level == 2:
        for q in opponents:
            _paradox_loss(state, q, 2, effects)
        _end_turn(state, effects)
        return
    if target is None and len(opponents) == 1:
        target = opponents[0].name
    if target is None:
        state.pending = state.pending + (
            {"decision": "target", "player": p.name, "options": [q.name for q in opponents]},
        )
        state.end_turn_after_pending = True
        return
    _paradox_target(state, state.player(target), effects)
    _end_turn(state, effects)


def _paradox_target(state: State, q: Player, effects: list[Effect]) -> None:
    _paradox_loss(state, q, 1, effects)


def _paradox_loss(state: State, q: Player, loss: int, effects: list[Effect]) -> None:
    moved = _lose(state, q, loss)
    text = f"{q.name} -{moved}" if moved else _("{player}: at card start, no effect").format(
        player=q.name)
    _effect(effects, "paradox_loss", text, player=q.name, loss=loss, moved=moved)
    _instruct(effects, q, -moved)


def _do_target(state: State, action: Action, effects: list[Effect]) -> None:
    decision = state.pending[0] if state.pending else None
    if not decision or decision["decision"] != "target":
        raise RuleError(_("no paradox target is to be chosen now"))
    name = action.get("player")
    if name not in decision["options"]:
        raise RuleError(_("choose one of {players} to lose 1").format(
            players=", ".join(decision["options"])))
    state.pending = state.pending[1:]
    _paradox_target(state, state.player(name), effects)
    _end_turn_or_wait(state, effects)


def _do_reroll(state: State, action: Action, effects: list[Effect]) -> None:
    _need_phase(state, "place", what=N_("roll again"))
    _on_turn(state, action)
    why = _may_stop_rolling(state)
    if why:
        raise RuleError(_(why))
    if state.free_dice == 0:
        if _may_doubleback(state) is None:
            raise RuleError(_("no free dice to roll: DOUBLEBACK or END the turn"))
        raise RuleError(_("no free dice to roll: END the turn ({why})").format(
            why=_(_may_doubleback(state))))
    state.phase = "roll"
    state.roll = ()


def _do_doubleback(state: State, action: Action, effects: list[Effect]) -> None:
    _need_phase(state, "place", what=N_("doubleback"))
    _on_turn(state, action)
    why = _may_stop_rolling(state) or _may_doubleback(state)
    if why:
        raise RuleError(_(why))
    back = sum(1 for f in state.delorean if f in NUMBERS)
    state.delorean = tuple(f for f in state.delorean if f not in NUMBERS)
    state.doubleback = True
    state.phase = "roll"
    state.roll = ()
    p = state.current
    _effect(effects, "doubleback", _("DOUBLEBACK: {player} rerolls {count}").format(
        player=p.name, count=back), player=p.name, dice=back)


def _do_end(state: State, action: Action, effects: list[Effect]) -> None:
    _need_phase(state, "place", what=N_("end the turn"))
    _on_turn(state, action)
    why = _may_stop_rolling(state)
    if why:
        raise RuleError(_(why))
    _end_turn(state, effects)


def _do_next(state: State, action: Action, effects: list[Effect]) -> None:
    decision = state.pending[0] if state.pending else None
    if not decision or decision["decision"] != "next":
        raise RuleError(_("no next Power card is to be chosen now"))
    p = state.player(decision["player"])
    if action.get("player", p.name) != p.name:
        raise RuleError(_("{player} chooses the next Power card now").format(player=p.name))
    card = action.get("card")
    if card not in decision["options"]:
        raise RuleError(_("{player} may choose {cards} as Next card").format(
            player=p.name, cards=", ".join(decision["options"])))
    state.pending = state.pending[1:]
    _set_next(state, p, card, effects)
    if p.carry:
        carry, p.carry = p.carry, 0
        _gain(state, p, carry, effects)
    if state.lock_rest is not None and not state.pending and state.phase != "over":
        _resolve_lock(state, state.lock_rest, effects)  # the lock goes on where it waited
        return
    _end_turn_or_wait(state, effects)


_HANDLERS = {
    "deal": _do_deal,
    "choose": _do_choose,
    "roll": _do_roll,
    "lock": _do_lock,
    "reroll": _do_reroll,
    "doubleback": _do_doubleback,
    "end": _do_end,
    "next": _do_next,
    "target": _do_target,
}


# --------------------------------------------------------------------------- movement


def _gain(state: State, p: Player, steps: int, effects: list[Effect]) -> None:
    """Move ``p``'s Next card ``steps`` right, completing cards (and winning) as it goes."""
    for _step in range(steps):
        if p.active is None:
            p.carry += 1  # the card to move onto is still to be chosen
            continue
        p.progress += 1
        if p.progress >= len(state.steps(p.active)):
            _complete(state, p, effects)
            if state.phase == "over":
                return


def _lose(state: State, p: Player, steps: int) -> int:
    """Move ``p``'s Next card left, never below the Active card's start. Returns spaces moved."""
    moved = min(steps, p.progress)
    p.progress -= moved
    return moved


def _ripple(state: State, number: int, effects: list[Effect]) -> None:
    """Every other player whose next step is ``number`` advances one (never a TD card)."""
    n = len(state.players)
    for offset in range(1, n):
        q = state.players[(state.turn + offset) % n]
        if q.active is None or state.cards[q.active]["kind"] == TD:
            continue
        if state.next_step(q) == number:
            _effect(effects, "ripple", _("RIPPLE: {number} -> {player} +1").format(
                number=number, player=q.name), player=q.name, number=number)
            _instruct(effects, q, 1)
            _gain(state, q, 1, effects)


def _complete(state: State, p: Player, effects: list[Effect]) -> None:
    done = p.active
    p.completed = p.completed + (done,)
    p.active, p.next, p.progress = p.next, None, 0
    _effect(
        effects,
        "complete",
        _("{player} completes {kind} card").format(player=p.name,
                                                   kind=state.cards[done]["kind"]),
        player=p.name,
        card=done,
        count=len(p.completed),
    )
    if len(p.completed) == CARDS_TO_WIN:
        state.winner = p.name
        state.phase = "over"
        state.pending = ()
        _effect(effects, "win", _("{player} WINS! 1.21 GIGAWATTS!").format(player=p.name),
                player=p.name)
        return
    if p.active is not None:
        _offer_next(state, p, effects)
    # else: the choice already pending supplies the card; gains meanwhile are carried


def next_options(state: State, p: Player) -> list[str]:
    """The cards ``p`` may take as Next card: the dealt cards in hand, and the cards of the
    pack nobody holds of a kind ``p`` was dealt but has not named yet; the Temporal
    Displacement card only when nothing else is left."""
    taken = held(state)
    free = sorted(c for c in state.cards if c not in taken)
    unknown = p.unknown or {}

    def named(kinds: set[str]) -> list[str]:
        return ([c for c in p.hand if (state.cards[c]["kind"] == TD) == (TD in kinds)]
                + [c for c in free if state.cards[c]["kind"] in kinds
                   and unknown.get(state.cards[c]["kind"], 0) > 0])

    return named({k for k in HAND if k != TD}) or named({TD})


def _offer_next(state: State, p: Player, effects: list[Effect]) -> None:
    """Ask ``p`` for a new Next card; the Temporal Displacement card only when it is the last."""
    options = next_options(state, p)
    if len(options) > 1:
        state.pending = state.pending + (
            {"decision": "next", "player": p.name, "options": options},
        )
    elif options:
        _set_next(state, p, options[0], effects)
    else:
        _effect(effects, "last", _("{player}: last card, no Next card").format(player=p.name),
                player=p.name)


def _set_next(state: State, p: Player, card: str, effects: list[Effect]) -> None:
    kind = state.cards[card]["kind"]
    if card in p.hand:
        p.hand.remove(card)
    else:  # a card dealt at setup and named only now
        p.unknown = {k: n - (k == kind) for k, n in (p.unknown or {}).items()
                     if n - (k == kind) > 0} or None
    # Another player's open choice no longer offers this card.
    state.pending = tuple(
        {**d, "options": [c for c in d["options"] if c != card]}
        if d["decision"] == "next" and d["player"] != p.name else d
        for d in state.pending
    )
    if p.active is None:  # the card completed again before this choice: it becomes Active
        p.active = card
        _effect(effects, "next", _("{player}: active card {kind}").format(player=p.name,
                                                                          kind=kind),
                player=p.name, card=card, card_kind=kind, becomes="active")
        _offer_next(state, p, effects)
    else:
        p.next = card
        _effect(effects, "next", _("{player}: next card {kind}").format(player=p.name, kind=kind),
                player=p.name, card=card, card_kind=kind, becomes="next")


def _instruct(effects: list[Effect], p: Player, spaces: int) -> None:
    if spaces:
        n = abs(spaces)
        if spaces > 0:
            text = ngettext("{player}: Next card {count} right",
                            "{player}: Next card {count} right", n)
        else:
            text = ngettext("{player}: Next card {count} left",
                            "{player}: Next card {count} left", n)
        _effect(effects, "instruction", text.format(player=p.name.upper(), count=n),
                player=p.name, spaces=spaces)


def _end_turn_or_wait(state: State, effects: list[Effect]) -> None:
    if state.end_turn_after_pending and not state.pending:
        state.end_turn_after_pending = False
        _end_turn(state, effects)


def _end_turn(state: State, effects: list[Effect]) -> None:
    if state.pending:  # decisions first; the turn passes once they are made
        state.end_turn_after_pending = True
        return
    state.turn = (state.turn + 1) % len(state.players)
    state.turns += 1
    state.delorean = ()
    state.roll = ()
    state.locked_since_roll = 0
    state.rolls_this_turn = 0
    state.doubleback = False
    state.phase = "roll"
    name = state.current.name
    _effect(effects, "turn", _("{player} - ROLL!").format(player=name), player=name)


# --------------------------------------------------------------------------- odds


@lru_cache(maxsize=4096)
def reroll_odds(free: int, path: tuple[int, ...]) -> tuple[float, float]:
    """(probability that rolling ``free`` dice stalls, expected steps gained by the roll).

    Exact, by enumerating every multiset of faces with its multinomial probability; ``path`` is
    the numbers the player needs next, in order (only the first ``free`` matter).
    """
    path = path[:free]
    total = 6**free
    stall = 0.0
    gained = 0.0
    for counts in _multisets(free, 6):
        weight = factorial(free)
        for c in counts:
            weight //= factorial(c)
        p = weight / total
        flux, n2, n3, n4, n5, n88 = counts
        pool = {2: n2, 3: n3, 4: n4, 5: n5}
        chain = 0
        for step in path:
            if pool[step]:
                pool[step] -= 1
                chain += 1
            else:
                break
        if chain == 0 and flux == 0 and n88 == 0:
            stall += p
        gained += p * chain
    return stall, gained


def _multisets(n: int, k: int):
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _multisets(n - first, k - 1):
            yield (first,) + rest


def odds(state: State) -> dict[str, Any] | None:
    """Odds for the player deciding whether to roll again (None when no such decision)."""
    if state.phase != "place" or state.pending or _may_stop_rolling(state) or not state.free_dice:
        return None
    p = state.current
    stall, gained = reroll_odds(state.free_dice, tuple(_path(state, p)))
    loss = 2 if state.doubleback else 1
    return {
        "free_dice": state.free_dice,
        "stall": stall,
        "expected_steps": gained,
        "expected_net": gained - stall * min(loss, p.progress),
        "stall_loss": loss,
    }


# --------------------------------------------------------------------------- JSON and views


def to_json(state: State) -> dict[str, Any]:
    return {
        "title": facts.key,
        "players": [
            {
                "name": p.name,
                "hand": list(p.hand),
                "active": p.active,
                "next": p.next,
                "progress": p.progress,
                "completed": list(p.completed),
                "carry": p.carry,
                **({"unknown": dict(p.unknown)} if p.unknown else {}),
            }
            for p in state.players
        ],
        "cards": state.cards,
        "options": state.options,
        "phase": state.phase,
        "turn": state.turn,
        "delorean": list(state.delorean),
        "roll": list(state.roll),
        "locked_since_roll": state.locked_since_roll,
        "rolls_this_turn": state.rolls_this_turn,
        "doubleback": state.doubleback,
        "pending": [dict(d) for d in state.pending],
        "end_turn_after_pending": state.end_turn_after_pending,
        "winner": state.winner,
        "turns": state.turns,
        # Only while a lock waits for a Next choice (older journals' states never had it).
        **({"lock_rest": state.lock_rest} if state.lock_rest is not None else {}),
    }


def from_json(data: dict[str, Any]) -> State:
    players = [
        Player(
            p["name"],
            list(p["hand"]),
            p["active"],
            p["next"],
            p["progress"],
            tuple(p["completed"]),
            p.get("carry", 0),
            dict(p["unknown"]) if p.get("unknown") else None,
        )
        for p in data["players"]
    ]
    return State(
        players,
        data["cards"],
        data["options"],
        data["phase"],
        data["turn"],
        tuple(data["delorean"]),
        tuple(data["roll"]),
        data["locked_since_roll"],
        data["rolls_this_turn"],
        data["doubleback"],
        tuple(data["pending"]),
        data["end_turn_after_pending"],
        data["winner"],
        data["turns"],
        data.get("lock_rest"),
    )


def secrets(state: State) -> dict[str, list[str]]:
    """Nothing is secret in OUTATIME: the cards set aside are not hidden by the rules, and the
    Next card lies face down only to track progress on the Active card."""
    return {p.name: [] for p in state.players}


def view(state: State, observer: str | None = None) -> dict[str, Any]:
    """The public table: what the OLED and the replay command show."""
    players = []
    for p in state.players:
        active = state.cards.get(p.active) if p.active else None
        players.append(
            {
                "name": p.name,
                "cards_completed": len(p.completed),
                "active": p.active,
                "active_kind": active["kind"] if active else None,
                "step": p.progress,
                "steps": len(active["steps"]) if active else 0,
                "needs": state.next_step(p),
                "next": p.next,
            }
        )
    return {
        "title": facts.key,
        "phase": state.phase,
        "turn": state.current.name if state.phase not in ("deal", "choose") else None,
        "actor": actor(state),
        "players": players,
        "delorean": list(state.delorean),
        "roll": list(state.roll),
        "free_dice": state.free_dice,
        "doubleback": state.doubleback,
        "pending": [dict(d) for d in state.pending],
        "winner": state.winner,
        "odds": odds(state),
    }
