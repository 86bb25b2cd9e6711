"""The table session: turns camera readings and button presses into engine actions.

The camera proposes, a person confirms, the journal records, the engine decides. The session
never applies an action that was not confirmed with CONFIRM (or chosen in a menu), and every
confirmed action goes through ``Match.push`` (journal first, then announced).

Inputs: ``dice(faces)`` with the faces the camera sees in the rolling area once the dice have
settled ("?" for a die it is unsure of), and ``press(name)`` for a button. Both return an
``Update``: the effects to announce (in order) and the prompt to show now.

Without tray markers the camera sees only the rolling area, so dice that leave it are the dice
moved onto the DeLorean card; with markers the reader's rolling-area zone gives the same list.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.buttons import BACK, CONFIRM, END, MENU, NEXT, PREV, UNDO
from companion.journal import JournalDamaged, JournalError
from companion.match import Match, damage_choice
from companion.titles import keys
from companion.titles import rules as get_title
from companion.titles.api import CHANCE, TERMINAL, Action, RuleError

UNKNOWN = "?"


@dataclass
class Prompt:
    """What the table shows now."""

    kind: str  # title, menu, roll, propose, place, message, over
    title: str
    lines: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    selected: int = 0
    dice: list[str] = field(default_factory=list)


@dataclass
class Update:
    effects: list[dict[str, Any]]
    prompt: Prompt
    error: str | None = None
    undone: Action | None = None


@dataclass
class _Menu:
    title: str
    labels: list[str]
    actions: list[Any]  # an action list per item, or a callable for session-level items
    selected: int = 0


class Session:
    """One table: a match in progress (or the menus before one), driven by dice and presses."""

    def __init__(self, journal, players: list[str], pack_loader, title: str = "menu",
                 options: dict[str, Any] | None = None):
        self.journal = journal
        self.players = list(players)
        self.pack_loader = pack_loader  # title -> content pack
        self.options = options or {}
        self.fixed_title = None if title == "menu" else title
        self.menu: _Menu | None = None
        self.last_error: str | None = None
        self.damaged: bool = False  # the damaged-journal menu waits for a choice
        try:
            self.match: Match | None = Match.resume(journal)
        except JournalDamaged as exc:
            self.match = None
            self._damaged(exc)
        except JournalError as exc:  # never a restart loop: say it, offer a new game
            self.match = None
            self.last_error = str(exc)
        self.proposal: list[Action] | None = None
        self.proposal_text = ""
        self.proposal_effects: list[dict[str, Any]] = []  # what the proposal would do
        self.unknown: list[str] | None = None  # a reading waiting for unknown faces
        self._unknown_choice = 0  # the face offered for the first unknown die
        self._unknown_before: list[Action] = []  # actions that go before that roll
        self._dealing: tuple[str, list[str]] | None = None  # cards picked so far in a deal
        self._choosing: tuple[str, str | None] | None = None  # (player, Active card picked)

    # ------------------------------------------------------------------ inputs

    def dice(self, faces: list[str]) -> Update:
        """A settled reading of the dice in the rolling area."""
        if self.match is None or self.match.actor() == TERMINAL:
            return self._update([])
        faces = [UNKNOWN if f in (None, "", UNKNOWN) else str(f) for f in faces]
        self.proposal = None
        self.last_error = None
        state = self.match.state
        phase = getattr(state, "phase", None)
        if phase == "roll" and self.match.actor() == CHANCE:
            if not faces:
                return self._update([])  # an empty tray: nothing rolled yet
            return self._propose_roll(faces, again=False)
        if phase == "place" and not state.pending:
            return self._dice_while_placing(faces)
        return self._update([])

    def press(self, name: str) -> Update:
        self.last_error = None
        if name == UNDO:
            return self._undo()
        if self.match is None:
            return self._press_setup(name)
        if self.match.actor() == TERMINAL:
            if name in (CONFIRM, MENU):
                self.match = None  # a new game from the title menu
            return self._update([])
        if self.unknown is not None:
            return self._press_unknown(name)
        if name == MENU and self._rolling():
            # Enter the roll by hand, die by die (the camera cannot see it, or misreads it).
            self.proposal = None
            self.unknown = [UNKNOWN] * self.match.state.free_dice
            self._unknown_before = []
            self._unknown_choice = 0
            return self._update([])
        if self.proposal is not None:
            if name == CONFIRM:
                actions, self.proposal = self.proposal, None
                return self._push(actions)
            if name == BACK:
                self.proposal = None
                return self._update([])
        if name == END and self._can("end"):
            self.proposal = None
            return self._push([{"type": "end"}])
        menu = self._decision_menu()
        if menu is None:
            return self._update([])
        if name in (NEXT, PREV):
            step = 1 if name == NEXT else -1
            menu.selected = (menu.selected + step) % len(menu.labels)
            self.proposal = None
            return self._update([])
        if name in (CONFIRM, MENU) and self.proposal is None:
            chosen = menu.actions[menu.selected]
            self.menu = None
            if callable(chosen):
                return chosen()
            return self._push(chosen)
        return self._update([])

    # ------------------------------------------------------------------ setup menus

    def _press_setup(self, name: str) -> Update:
        if self.menu is None:
            self.menu = self._title_menu()
        if name in (NEXT, PREV):
            step = 1 if name == NEXT else -1
            self.menu.selected = (self.menu.selected + step) % len(self.menu.labels)
        elif name in (CONFIRM, MENU):
            chosen = self.menu.actions[self.menu.selected]
            self.menu = None
            return chosen()
        return self._update([])

    def _title_menu(self) -> _Menu:
        if self.fixed_title:
            return self._players_menu(self.fixed_title)
        labels = [get_title(t).facts.name for t in keys()]
        return _Menu("CHOOSE GAME", labels,
                     [lambda t=t: self._choose_players(t) for t in keys()])

    def _choose_players(self, title: str) -> Update:
        self.menu = self._players_menu(title)
        return self._update([])

    def _players_menu(self, title: str) -> _Menu:
        facts = get_title(title).facts
        counts = [n for n in range(facts.min_players, facts.max_players + 1)
                  if n <= len(self.players)]
        labels = [f"{n}: {' '.join(self.players[:n])}" for n in counts]
        return _Menu(f"{facts.name}: PLAYERS", labels,
                     [lambda n=n: self._start(title, n) for n in counts])

    def _start(self, title: str, count: int) -> Update:
        try:
            pack = self.pack_loader(title)
            options = {k: v for k, v in self.options.items()
                       if k in get_title(title).facts.options}
            self.match = Match.new(self.journal, title, self.players[:count], options, pack)
        except (RuleError, ValueError) as exc:
            self.last_error = str(exc)
            return self._update([])
        self.menu = None
        return self._update([{"kind": "setup", "text": f"NEW GAME: {get_title(title).facts.name}"}])

    # ------------------------------------------------------------------ rolls

    def _propose_roll(self, faces: list[str], again: bool, before: list[Action] = ()) -> Update:
        state = self.match.state
        for action in before:  # e.g. a doubleback first: it frees the number dice
            state, _ = self.match.engine.apply(state, action)
        need = state.free_dice
        if len(faces) != need:
            self.last_error = (
                f"I see {len(faces)} dice, expect {need}: move them apart in the tray"
                if len(faces) < need else f"I see {len(faces)} dice, expect {need}"
            )
            return self._update([])
        if UNKNOWN in faces:
            self.unknown = list(faces)
            self._unknown_before = list(before)
            return self._update([])
        self.proposal = list(before) + [{"type": "roll", "dice": faces}]
        self.proposal_effects = []
        self.proposal_text = ("ROLL AGAIN: " if again else "ROLL: ") + " ".join(faces)
        return self._update([])

    def _press_unknown(self, name: str) -> Update:
        engine = self.match.engine
        faces = list(getattr(engine, "FACES", ()))
        index = self.unknown.index(UNKNOWN) if UNKNOWN in self.unknown else None
        if index is None or not faces:
            self.unknown = None
            return self._update([])
        if name in (NEXT, PREV):
            step = 1 if name == NEXT else -1
            self._unknown_choice = (self._unknown_choice + step) % len(faces)
        elif name == CONFIRM:
            self.unknown[index] = faces[self._unknown_choice]
            self._unknown_choice = 0
            if UNKNOWN not in self.unknown:
                faces_read, self.unknown = self.unknown, None
                return self._propose_roll(faces_read, again=bool(self._unknown_before),
                                          before=self._unknown_before)
        elif name == BACK:
            self.unknown = None
        return self._update([])

    def _dice_while_placing(self, seen: list[str]) -> Update:
        state = self.match.state
        free = list(state.roll)
        seen_known = [f for f in seen if f != UNKNOWN]
        missing = Counter(free) - Counter(seen_known)
        if UNKNOWN not in seen and not (Counter(seen_known) - Counter(free)) and missing:
            # Dice left the rolling area: they were moved onto the DeLorean.
            moved = list(missing.elements())
            self.proposal = [{"type": "lock", "dice": moved}]
            self.proposal_text = self._lock_text(moved)
            return self._update([])
        numbers_back = sum(1 for f in state.delorean if f in ("2", "3", "4", "5"))
        if state.free_dice == 0 and len(seen) == numbers_back and self._can("doubleback"):
            return self._propose_roll(seen, again=True, before=[{"type": "doubleback"}])
        if len(seen) == state.free_dice and self._can("reroll"):
            return self._propose_roll(seen, again=True)
        return self._update([])

    def _lock_text(self, dice: list[str]) -> str:
        try:
            _, effects = self.match.engine.apply(self.match.state, {"type": "lock", "dice": dice})
        except RuleError as exc:
            self.last_error = str(exc)
            self.proposal = None
            return ""
        self.proposal_effects = effects
        gains = [e["text"] for e in effects if e["kind"] in ("ripple", "paradox", "complete")]
        advance = sum(1 for e in effects if e["kind"] == "advance")
        text = "LOCK " + " ".join(dice)
        if advance:
            text += f": +{advance}"
        if gains:
            text += ", " + ", ".join(gains)
        return text

    # ------------------------------------------------------------------ decisions

    def _rolling(self) -> bool:
        state = self.match.state
        return getattr(state, "phase", None) == "roll" and self.match.actor() == CHANCE

    def _can(self, kind: str) -> bool:
        return any(a["type"] == kind for a in self.match.legal_actions())

    def _decision_menu(self) -> _Menu | None:
        """The menu of the actor's decisions (kept while the same decision is open)."""
        actor = self.match.actor()
        if actor in (CHANCE, TERMINAL):
            if self.match.engine.facts.key == "outatime" and self.match.state.phase == "deal":
                return self._deal_menu()
            return None
        if getattr(self.match.state, "phase", None) == "choose":
            return self._choose_menu(actor)
        # Biggest locks first: the move a player usually wants is one press away.
        actions = sorted(self.match.legal_actions(),
                         key=lambda a: -len(a.get("dice", ())) if a["type"] == "lock" else 0)
        labels = [self._label(a) for a in actions]
        if self.menu is None or self.menu.labels != labels:
            self.menu = _Menu(self._menu_title(actor), labels, [[a] for a in actions])
        return self.menu

    def _deal_menu(self) -> _Menu:
        """At the table, each player picks the cards they were dealt, one kind at a time."""
        state = self.match.state
        engine = self.match.engine
        player = next(p for p in state.players if not p.hand)
        picked = self._dealing
        if picked is None or picked[0] != player.name:
            picked = self._dealing = (player.name, [])
        chosen = picked[1]
        need = [k for k, n in engine.HAND.items() for _ in range(n)]
        kind = need[len(chosen)]
        taken = {c for p in state.players for c in p.hand} | set(chosen)
        cards = sorted(c for c, v in state.cards.items() if v["kind"] == kind and c not in taken)
        labels = [f"{c} {'-'.join(map(str, state.cards[c]['steps']))}" for c in cards]

        def pick(card: str) -> Update:
            chosen.append(card)
            if len(chosen) == len(need):
                self._dealing = None
                return self._push([{"type": "deal", "player": player.name, "cards": chosen}])
            return self._update([])

        title = f"{player.name.upper()}: {kind} CARD"
        if self.menu is None or self.menu.title != title or self.menu.labels != labels:
            self.menu = _Menu(title, labels, [lambda c=c: pick(c) for c in cards])
        return self.menu

    def _choose_menu(self, actor: str) -> _Menu:
        """Setup: a player picks the Active card, then the Next card (two short menus)."""
        state = self.match.state
        cards = state.cards
        usable = [c for c in state.player(actor).hand if cards[c]["kind"] != "td"]
        if self._choosing is None or self._choosing[0] != actor:
            self._choosing = (actor, None)
        active = self._choosing[1]

        def label(card: str) -> str:
            return f"{card} {'-'.join(map(str, cards[card]['steps']))}"

        if active is None:
            def pick_active(card: str) -> Update:
                self._choosing = (actor, card)
                return self._update([])

            title, options = f"{actor.upper()}: ACTIVE CARD", usable
            actions = [lambda c=c: pick_active(c) for c in options]
        else:
            def pick_next(card: str) -> Update:
                self._choosing = None
                return self._push([{"type": "choose", "player": actor, "active": active,
                                    "next": card}])

            title, options = f"{actor.upper()}: NEXT CARD", [c for c in usable if c != active]
            actions = [lambda c=c: pick_next(c) for c in options]
        labels = [label(c) for c in options]
        if self.menu is None or self.menu.title != title or self.menu.labels != labels:
            self.menu = _Menu(title, labels, actions)
        return self.menu

    def _menu_title(self, actor: str) -> str:
        state = self.match.state
        pending = getattr(state, "pending", ())
        if pending:
            what = {"next": "NEXT CARD?", "target": "PARADOX: WHO -1?"}[pending[0]["decision"]]
            return f"{actor.upper()}: {what}"
        if getattr(state, "phase", "") == "choose":
            return f"{actor.upper()}: ACTIVE+NEXT"
        return f"{actor.upper()}: CHOOSE"

    def _label(self, action: Action) -> str:
        kind = action["type"]
        if kind == "lock":
            return "LOCK " + " ".join(action["dice"])
        if kind == "choose":
            return f"A {action['active']} / N {action['next']}"
        if kind == "next":
            card = self.match.state.cards[action["card"]]
            return f"{action['card']} ({card['kind']})"
        if kind == "target":
            return action["player"]
        return {"reroll": "ROLL AGAIN", "end": "END TURN", "doubleback": "DOUBLEBACK"}.get(
            kind, kind.upper())

    # ------------------------------------------------------------------ applying

    def _push(self, actions: list[Action]) -> Update:
        effects: list[dict[str, Any]] = []
        for action in actions:
            try:
                effects.extend(self.match.push(action))
            except RuleError as exc:
                self.last_error = str(exc)
                break
            except JournalDamaged as exc:
                return self._damaged(exc)
        self.menu = None
        return self._update(effects)

    def _undo(self) -> Update:
        if self.damaged:
            return self._update([])  # the damaged-journal choice stays until it is made
        self.proposal = self.unknown = None
        self.menu = None
        self._dealing = self._choosing = None
        if self.match is None:
            return self._update([])
        try:
            action = self.match.undo()
        except JournalDamaged as exc:
            return self._damaged(exc)
        if action is None:
            self.last_error = "nothing to undo"
            return self._update([])
        return Update([{"kind": "undo", "text": f"UNDONE: {_describe(action)}"}],
                      self.prompt(), undone=action)

    # ------------------------------------------------------------------ a damaged journal

    def _damaged(self, exc: JournalDamaged) -> Update:
        """A notice, then a menu: go on from the last good action, or a new game."""
        offer = damage_choice(self.journal, exc.check)
        self.match = self.proposal = self.unknown = self._dealing = self._choosing = None
        self.last_error = offer.notice
        self.damaged = True

        def choose(choice) -> Update:
            try:
                self.match, said = choice()
            except JournalError as err:
                self.last_error = str(err)
                return self._update([])
            self.menu = None
            self.damaged = False
            return self._update([{"kind": "setup", "text": said}] if said else [])

        self.menu = _Menu(offer.title, offer.labels, [lambda c=c: choose(c)
                                                      for c in offer.choices])
        return self._update([])

    def _update(self, effects: list[dict[str, Any]]) -> Update:
        return Update(effects, self.prompt(), error=self.last_error)

    # ------------------------------------------------------------------ what to show

    def prompt(self) -> Prompt:
        if self.match is None:
            if self.menu is None:
                self.menu = self._title_menu()
            return Prompt("menu", self.menu.title, options=self.menu.labels,
                          selected=self.menu.selected)
        actor = self.match.actor()
        view = self.match.view()
        if actor == TERMINAL:
            winners = ", ".join(self.match.engine.winners(self.match.state)) or "nobody"
            return Prompt("over", f"{winners} WINS!", ["CONFIRM: new game"])
        if self.unknown is not None:
            faces = list(getattr(self.match.engine, "FACES", ()))
            choice = faces[self._unknown_choice] if faces else UNKNOWN
            index = self.unknown.index(UNKNOWN) + 1
            return Prompt("menu", f"DIE {index}: WHICH FACE?", options=faces,
                          selected=faces.index(choice) if choice in faces else 0,
                          dice=list(self.unknown))
        if self.proposal is not None:
            return Prompt("propose", self.proposal_text, ["CONFIRM or BACK"],
                          dice=list(view.get("roll", [])))
        if actor == CHANCE:
            if view.get("phase") == "deal":
                menu = self._deal_menu()
                return Prompt("menu", menu.title, options=menu.labels, selected=menu.selected)
            return Prompt("roll", f"{view['turn'].upper()} - ROLL!",
                          [f"{view['free_dice']} dice"], dice=[])
        menu = self._decision_menu()
        return Prompt("menu" if view.get("pending") or view.get("phase") != "place" else "place",
                      menu.title, options=menu.labels, selected=menu.selected,
                      dice=list(view.get("roll", [])))


def _describe(action: Action) -> str:
    dice = action.get("dice")
    if isinstance(dice, list):
        return f"{action['type'].upper()} {' '.join(map(str, dice))}"
    return action["type"].upper()
