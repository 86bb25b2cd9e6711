"""The table session: turns camera readings and button presses into engine actions.

The camera proposes, a person confirms, the journal records, the engine decides. The session
never applies an action that was not confirmed with CONFIRM (or chosen in a menu), and every
confirmed action goes through ``Match.push`` (journal first, then announced).

Inputs: ``dice(faces)`` with the faces the camera sees in the rolling area once the dice have
settled ("?" for a die it is unsure of; a die read with a colour comes as "colour:face", either
part "?" when unsure), and ``press(name)`` for a button. Both return an
``Update``: the effects to announce (in order) and the prompt to show now.

The session knows no title. What a reading or a press means in a game, its menus and their
words come from the title's table logic (``companion/titles/<key>/table.py``), a
``TitleTable`` the session makes when a game starts or resumes. The session keeps what every
title shares: choosing the game and the players, proposals and CONFIRM/BACK, the face picker
for an unsure die, menus moved with NEXT/PREV, UNDO and REDO, and the journal. A press that
means nothing now is answered with why (and what the table waits for), never ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import titles
from companion.buttons import BACK, CONFIRM, END, MENU, NEXT, PREV, REDO, UNDO
from companion.i18n import N_, _, ngettext
from companion.journal import JournalDamaged, JournalError
from companion.match import Match, damage_choice
from companion.titles.api import CHANCE, TERMINAL, Action, RuleError

UNKNOWN = "?"


def unsure(die: str) -> bool:
    """Is this die's reading unsure (a "?" face, or "?" in either part of "colour:face")?

    >>> unsure("?"), unsure("love:?"), unsure("?:wild"), unsure("love:wild"), unsure("5")
    (True, True, True, False, False)
    """
    return die == UNKNOWN or UNKNOWN in die.split(":")


@dataclass
class Prompt:
    """What the table shows now.

    ``kind`` is one of the shared kinds ("menu", "propose", "over", "message") or one the
    title's screens know (a dice game's "roll" and "place", for instance).
    """

    kind: str
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
    redone: Action | None = None


@dataclass
class Menu:
    """A short menu: a label per item and, per item, the actions it confirms (a list, pushed in
    order) or a function the session calls (a step of a menu in several steps)."""

    title: str
    labels: list[str]
    actions: list[Any]
    selected: int = 0


class TitleTable:
    """A title's table logic: what a reading or a press means, its menus and words.

    The session asks; the title table answers through the session's own means (``propose``,
    ``ask_faces``, ``refuse``, ``push``), never writing the journal itself. A title subclasses
    this in ``companion/titles/<key>/table.py`` (module attribute ``TABLE``) and overrides what
    its game needs; the defaults serve a game played from menus only.
    """

    def __init__(self, session: Session):
        self.session = session

    @property
    def match(self) -> Match:
        return self.session.match

    # --- the hooks a title overrides

    def reset(self) -> None:
        """Forget half-made choices (after UNDO, or when the game changes under them)."""

    def faces(self) -> tuple[str, ...]:
        """The faces a die can show, for the picker of an unsure die (empty: no dice)."""
        return ()

    def choices(self, die: str) -> tuple[str, ...]:
        """What the picker offers for the unsure die read as ``die`` ("?", or "colour:?" for a
        die whose colour was read): by default every face."""
        return self.faces()

    def dice_text(self, faces: list[str]) -> str:
        """Faces as players read them (a title with worded faces translates them)."""
        return " ".join(map(str, faces))

    def dice_expected(self) -> int | None:
        """How many dice the camera should see in the rolling area now (None: not known)."""
        return None

    def dice_to_roll(self, state: Any) -> int | None:
        """How many dice a roll has in ``state`` (None: any number)."""
        return None

    def reading(self, faces: list[str]) -> Update:
        """A settled reading of the dice in the rolling area. Default: nothing to read."""
        return self.session.update([])

    def press(self, name: str) -> Update | None:
        """A press the title gives a meaning of its own (before proposals and menus); None
        leaves it to the session."""
        return None

    # The action END TURN records in this title, if it has one: a refused END TURN then says
    # the rules' reason ("END TURN: cannot end the turn now: Ana is to roll 6 dice").
    END_ACTION: Action | None = None

    def not_now(self, name: str) -> str:
        """Why the press ``name`` does nothing now (neither the title nor the session had a
        use for it): shown instead of silence. END TURN says what the rules say against
        ending the turn (``END_ACTION``) unless a proposal is up; otherwise the session's
        words: the button, and what the table waits for."""
        if name == END and self.END_ACTION is not None and self.session.proposal is None:
            why = self.refusal(self.END_ACTION)
            if why:
                return _("END TURN: {reason}").format(reason=why)
        return self.session.not_now(name)

    def refusal(self, action: Action) -> str | None:
        """What the rules say against ``action`` now (None: they would take it)."""
        try:
            self.match.engine.apply(self.match.state, action)
        except RuleError as exc:
            return str(exc)
        return None

    def menu(self) -> Menu | None:
        """The menu of the actor's decisions: every legal action, labelled."""
        actor = self.match.actor()
        if actor in (CHANCE, TERMINAL):
            return None
        actions = self.match.legal_actions()
        labels = [self.label(a) for a in actions]
        return self.session.keep_menu(
            Menu(_("{player}: CHOOSE").format(player=actor.upper()), labels,
                 [[a] for a in actions]))

    def label(self, action: Action) -> str:
        """An action as a menu item."""
        return describe(action)

    def describe(self, action: Action) -> str:
        """An action as UNDONE reports it."""
        return describe(action)

    def prompt(self) -> Prompt:
        """What to show while nothing shared (a proposal, the face picker) is up."""
        menu = self.menu()
        if menu is None:
            return Prompt("message", _("WAITING"), [self.match.actor()])
        return Prompt("menu", menu.title, options=menu.labels, selected=menu.selected)


class Session:
    """One table: a match in progress (or the menus before one), driven by dice and presses.

    ``options`` maps a title key to that title's options (only options the title declares
    are passed on).
    """

    def __init__(self, journal, players: list[str], pack_loader, title: str = "menu",
                 options: dict[str, dict[str, Any]] | None = None):
        self.journal = journal
        self.players = list(players)
        self.pack_loader = pack_loader  # title -> content pack
        self.options = options or {}
        self.fixed_title = None if title == "menu" else title
        self.menu: Menu | None = None
        self.proposal: list[Action] | None = None
        self.proposal_text = ""
        self.proposal_effects: list[dict[str, Any]] = []  # what the proposal would do
        self.unknown: list[str] | None = None  # a reading waiting for unknown faces
        self._unknown_choice = 0  # the face offered for the first unknown die
        self._unknown_before: list[Action] = []  # actions that go before that roll
        self._unknown_again = False
        self.last_error: str | None = None
        self.table: TitleTable | None = None
        self.match: Match | None = None
        self._finished: Match | None = None  # the game that just ended: UNDO reopens it
        # How many actions each CONFIRM recorded (a play and its draws, a whole deal), so that
        # UNDO takes back what one press recorded and REDO puts it back; after a restart,
        # unknown: one action at a time.
        self._groups: list[int] = []
        self._redo_groups: list[int] = []
        self.damaged: bool = False  # the damaged-journal menu waits for a choice
        self._choosing_players = False  # the players menu is up, chosen from the game menu
        self.write_error: JournalError | None = None  # the last action or new game: not recorded
        notices: list[str] = []
        try:
            self._set_match(Match.resume(journal, notices))
        except JournalDamaged as exc:
            self._damaged(exc)
        except JournalError as exc:  # never a restart loop: say it, offer a new game
            self.last_error = str(exc)
        if notices and self.last_error is None:
            self.last_error = notices[0]  # a game set aside: said once, then the title menu
        self._resumed = self.match is not None

    def resumed(self) -> list[dict[str, Any]]:
        """Once, at start: the game taken up again after a restart, and where it stands (the
        players see that nothing confirmed was lost)."""
        if not self._resumed or self.match is None:
            return []
        self._resumed = False
        try:
            actions = self.journal.actions(self.match.game)
        except JournalError:
            return []
        where = _("game {game}, action {n}").format(game=self.match.game, n=len(actions))
        if actions:
            where = _("{where}; last: {action}").format(
                where=where, action=self.table.describe(actions[-1]))
        return [{"kind": "resumed", "text": where}]

    # ------------------------------------------------------------------ the title in play

    def _set_match(self, match: Match | None) -> None:
        if match is not self.match:
            self._groups, self._redo_groups = [], []
        self.match = match
        self.table = None
        if match is not None:
            table_class = titles.get(match.setup["title"]).table.TABLE
            self.table = table_class(self)

    @property
    def title_key(self) -> str | None:
        """The title being played, or the one the table is fixed to, or None (the menu)."""
        return self.match.setup["title"] if self.match is not None else self.fixed_title

    def dice_set(self) -> str | None:
        """The face set the camera should read now (None: nothing to read)."""
        key = self.title_key
        return titles.get(key).facts.dice if key else None

    def dice_expected(self) -> int | None:
        """How many dice the camera should see in the rolling area now, when known."""
        if self.table is None or self.match.actor() == TERMINAL:
            return None
        return self.table.dice_expected()

    # ------------------------------------------------------------------ inputs

    def dice(self, faces: list[str]) -> Update:
        """A settled reading of the dice in the rolling area."""
        if self.match is None or self.match.actor() == TERMINAL:
            return self.update([])
        faces = [UNKNOWN if f in (None, "") or set(str(f).split(":")) == {UNKNOWN} else str(f)
                 for f in faces]
        self.proposal = None
        if faces:  # a new reading of dice replaces the face picker of the one before
            self.unknown = None
        self.last_error = None
        return self.table.reading(faces)

    def press(self, name: str) -> Update:
        self.last_error = None
        if name == UNDO:
            return self._undo()
        if name == REDO:
            return self._redo()
        if self.match is None:
            return self._press_setup(name)
        if self.match.actor() == TERMINAL:
            if name in (CONFIRM, MENU):
                self._finished = self.match  # until a new game starts, UNDO takes it back
                self._set_match(None)  # a new game from the title menu
                return self.update([])
            return self.refuse(self.not_now(name))
        if self.unknown is not None:
            return self._press_unknown(name)
        handled = self.table.press(name)
        if handled is not None:
            return handled
        if self.proposal is not None:
            if name == CONFIRM:
                actions, self.proposal = self.proposal, None
                return self.push(actions)
            if name == BACK:
                self.proposal = None
                return self.update([])
        menu = self.table.menu()
        if menu is None or not menu.labels:
            return self._not_now(name)
        if name in (NEXT, PREV):
            if len(menu.labels) == 1:  # nothing to move to: said, never silently nothing
                return self._not_now(name)
            step = 1 if name == NEXT else -1
            menu.selected = (menu.selected + step) % len(menu.labels)
            self.proposal = None
            return self.update([])
        if name in (CONFIRM, MENU) and self.proposal is None:
            chosen = menu.actions[menu.selected]
            self.menu = None
            if callable(chosen):
                return chosen()
            return self.push(chosen)
        return self._not_now(name)

    def _not_now(self, name: str) -> Update:
        """Say why ``name`` does nothing now (the title's words, else the session's)."""
        message = self.table.not_now(name) if self.table is not None else self.not_now(name)
        self.last_error = message
        return self.update([])

    def not_now(self, name: str) -> str:
        """The general words for a press that does nothing now: the button, and what the
        table waits for instead."""
        button = press_name(name)
        if self.match is not None and self.match.actor() == TERMINAL:
            return _("{button}: the game is over; CONFIRM starts a new game").format(
                button=button)
        if self.unknown is not None:
            return _("{button}: not now; pick the face with NEXT/PREV, then CONFIRM (BACK "
                     "leaves)").format(button=button)
        if self.proposal is not None:
            return _("{button}: not now; CONFIRM records the proposal, BACK says no").format(
                button=button)
        if self.match is None or self.table is None:
            return _("{button}: not now; choose with NEXT/PREV, then CONFIRM").format(
                button=button)
        menu = self.table.menu()
        if menu is not None and len(menu.labels) == 1:
            return _("{button}: not now; one choice here: CONFIRM {choice}").format(
                button=button, choice=menu.labels[0])
        if menu is not None and menu.labels:
            return _("{button}: not now; choose with NEXT/PREV, then CONFIRM").format(
                button=button)
        waiting = self.table.prompt()
        return _("{button}: not now; the table waits for: {what}").format(
            button=button, what=" ".join([waiting.title, *waiting.lines[:1]]).strip())

    # ------------------------------------------------------------------ what titles call

    def propose(self, actions: list[Action], text: str,
                effects: list[dict[str, Any]] | None = None) -> Update:
        """Offer ``actions`` for CONFIRM (BACK drops them); ``effects``: what they would do."""
        self.proposal = list(actions)
        self.proposal_text = text
        self.proposal_effects = list(effects or [])
        return self.update([])

    def ask_faces(self, faces: list[str], before: list[Action] = (), again: bool = False
                  ) -> Update:
        """Ask with the face picker for every unsure die in ``faces``, then propose the roll (after
        ``before``, e.g. a decision that frees the dice) with ``propose_roll``."""
        self.unknown = list(faces)
        self._unknown_before = list(before)
        self._unknown_again = again
        self._unknown_choice = 0
        return self.update([])

    def refuse(self, message: str) -> Update:
        """Say why nothing can be proposed; nothing is recorded."""
        self.last_error = message
        self.proposal = None
        return self.update([])

    def keep_menu(self, menu: Menu) -> Menu:
        """``menu``, or the one already up when it is the same (its selection is kept)."""
        if self.menu is None or self.menu.title != menu.title or self.menu.labels != menu.labels:
            self.menu = menu
        return self.menu

    def push(self, actions: list[Action]) -> Update:
        """Record ``actions`` in order (stopping at the first the rules refuse)."""
        effects: list[dict[str, Any]] = []
        recorded = 0
        for action in actions:
            try:
                effects.extend(self.match.push(action))
                recorded += 1
            except RuleError as exc:
                self.last_error = str(exc)
                break
            except JournalDamaged as exc:
                return self._damaged(exc)
            except JournalError as exc:  # a full disk, a read-only card: not recorded, said
                self.last_error = _("NOT RECORDED: {reason}").format(reason=exc)
                self.write_error = exc
                break
            self.write_error = None
        if recorded:
            self._groups.append(recorded)
            self._redo_groups.clear()  # a new action ends the redo history
        self.menu = None
        return self.update(effects)

    def update(self, effects: list[dict[str, Any]]) -> Update:
        return Update(effects, self.prompt(), error=self.last_error)

    # ------------------------------------------------------------------ setup menus

    def _press_setup(self, name: str) -> Update:
        if self.menu is None:
            self.menu = self._title_menu()
        if not self.menu.labels:  # nothing to choose (the reason is in last_error)
            self.menu = None
            return self.update([])
        if name in (NEXT, PREV):
            step = 1 if name == NEXT else -1
            self.menu.selected = (self.menu.selected + step) % len(self.menu.labels)
        elif name in (CONFIRM, MENU):
            chosen = self.menu.actions[self.menu.selected]
            self.menu = None
            self._choosing_players = False
            return chosen()
        elif name == BACK and self._choosing_players:
            self._choosing_players = False
            self.menu = self._title_menu()  # the players menu steps back to the game
        else:
            self.last_error = self.not_now(name)
        return self.update([])

    def _title_menu(self) -> Menu:
        if self.fixed_title:
            return self._players_menu(self.fixed_title)
        keys = titles.keys()
        labels = [titles.get(t).facts.name for t in keys]
        last = self._last_title()  # the game played last is one CONFIRM away
        return Menu(_("CHOOSE GAME"), labels, [lambda t=t: self._choose_players(t) for t in keys],
                    selected=keys.index(last) if last in keys else 0)

    def _last_title(self) -> str | None:
        try:
            games = self.journal.games()
        except JournalError:
            return None
        return games[-1]["title"] if games else None

    def _choose_players(self, title: str) -> Update:
        self.menu = self._players_menu(title)
        self._choosing_players = self.menu.title != _("CHOOSE GAME")
        return self.update([])

    def _players_menu(self, title: str) -> Menu:
        facts = titles.get(title).facts
        counts = [n for n in range(facts.min_players, facts.max_players + 1)
                  if n <= len(self.players)]
        if not counts:  # fewer names than the title needs: say so, never an empty menu
            self.last_error = _("{title} takes {low}-{high} players and the table names "
                                "{count}: add names to {setting} in the config").format(
                title=facts.name, low=facts.min_players, high=facts.max_players,
                count=len(self.players), setting="[table] players")
            if self.fixed_title is None:
                return self._title_menu()
        labels = [f"{n}: {' '.join(self.players[:n])}" for n in counts]
        # Everyone at the table plays, unless they say otherwise: the most players first.
        # the short name when the title has one: "Back to the Future: The Card Game: PLAYERS"
        # was cut on the panel
        return Menu(_("{title}: PLAYERS").format(title=facts.plate or facts.name), labels,
                    [lambda n=n: self._start(title, n) for n in counts],
                    selected=max(0, len(counts) - 1))

    def _start(self, title: str, count: int) -> Update:
        facts = titles.get(title).facts
        try:
            pack = self.pack_loader(title)
            given = self.options.get(title, {})
            options = {k: v for k, v in given.items() if k in facts.options}
            match = Match.new(self.journal, title, self.players[:count], options, pack)
        except (RuleError, ValueError, JournalError) as exc:
            self.last_error = str(exc)
            if isinstance(exc, JournalError):  # nothing can be recorded: not a game to play
                self.write_error = exc
            return self.update([])
        self.menu = None
        self._finished = None
        self._set_match(match)
        return self.update([{"kind": "setup",
                             "text": _("NEW GAME: {title}").format(title=facts.name)}])

    # ------------------------------------------------------------------ rolls

    def propose_roll(self, faces: list[str], again: bool = False, before: list[Action] = (),
                     roll: Callable[[list[str]], Action] | None = None) -> Update:
        """Propose ``faces`` as the roll (after ``before``), or ask for the unsure ones first.

        The count must be what the title expects after ``before``; ``roll`` makes the roll
        action from the faces (default ``{"type": "roll", "dice": faces}``).
        """
        state = self.match.state
        for action in before:  # e.g. a doubleback first: it frees the number dice
            state, _effects = self.match.engine.apply(state, action)
        need = self.table.dice_to_roll(state)
        if need is not None and len(faces) != need:
            return self.refuse(self._count_message(len(faces), need))
        if any(unsure(f) for f in faces):
            return self.ask_faces(faces, before, again)
        action = roll(faces) if roll else {"type": "roll", "dice": faces}
        text = (_("ROLL AGAIN: {dice}") if again else _("ROLL: {dice}")).format(
            dice=self.table.dice_text(faces))
        return self.propose(list(before) + [action], text)

    @staticmethod
    def _count_message(seen: int, need: int) -> str:
        if seen < need:
            return _("I see {seen} dice, expect {need}: move them apart in the tray").format(
                seen=seen, need=need)
        return _("I see {seen} dice, expect {need}").format(seen=seen, need=need)

    def enter_faces(self, count: int) -> Update:
        """Enter a roll of ``count`` dice by hand, die by die, with the face picker."""
        self.proposal = None
        return self.ask_faces([UNKNOWN] * count)

    def _first_unsure(self) -> int | None:
        return next((i for i, f in enumerate(self.unknown or ()) if unsure(f)), None)

    def _press_unknown(self, name: str) -> Update:
        index = self._first_unsure()
        faces = list(self.table.choices(self.unknown[index])) if index is not None else []
        if index is None or not faces:
            self.unknown = None
            return self.update([])
        if name in (NEXT, PREV):
            step = 1 if name == NEXT else -1
            self._unknown_choice = (self._unknown_choice + step) % len(faces)
        elif name == CONFIRM:
            self.unknown[index] = faces[self._unknown_choice]
            self._unknown_choice = 0
            if self._first_unsure() is None:
                faces_read, self.unknown = self.unknown, None
                return self.propose_roll(faces_read, again=self._unknown_again,
                                         before=self._unknown_before)
        elif name == BACK:
            self.unknown = None
        else:
            self.last_error = self.not_now(name)
        return self.update([])

    # ------------------------------------------------------------------ undo

    def _undo(self) -> Update:
        if self.damaged:
            return self.update([])  # the damaged-journal choice stays until it is made
        self.proposal = self.unknown = None
        self.menu = None
        if self.table is not None:
            self.table.reset()
        if self.match is None:
            finished = self._finished or self._last_finished()
            if finished is None:
                self.last_error = _("nothing to undo: no game is in play")
                return self.update([])
            self._finished, self._choosing_players = None, False
            self._set_match(finished)  # the game that ended goes on without its last action
        count = self._groups.pop() if self._groups else 1
        undone: list[Action] = []
        try:
            while len(undone) < count and (action := self.match.undo()) is not None:
                undone.append(action)
        except JournalDamaged as exc:
            return self._damaged(exc)
        except JournalError as exc:
            self.last_error = _("NOT RECORDED: {reason}").format(reason=exc)
            return self.update([])
        finally:
            if undone:
                self._redo_groups.append(len(undone))
        if not undone and self._leave_empty_game():
            return Update([{"kind": "undo", "text": _("UNDONE: {action}").format(
                action=_("NEW GAME"))}], self.prompt())
        if not undone:
            self.last_error = _("nothing to undo")
            return self.update([])
        chosen = undone[-1]  # the first one recorded: what the player chose
        text = _with_it(_("UNDONE: {action}").format(action=self.table.describe(chosen)),
                        len(undone) - 1)
        return Update([{"kind": "undo", "text": text}], self.prompt(), undone=chosen)

    def _last_finished(self) -> Match | None:
        """The journal's last game when it ended (a table restarted after the winning action):
        UNDO reopens it. None when it is closed, another title than the table's, or unreadable."""
        try:
            games = self.journal.games()
            last = games[-1] if games else None
            if last is None or last["finished"] is None or last["id"] in self.journal.closed():
                return None
            match = Match(self.journal, last["id"])
        except (JournalError, RuleError):
            return None
        if self.fixed_title is not None and match.setup["title"] != self.fixed_title:
            return None
        return match

    def _leave_empty_game(self) -> bool:
        """UNDO with no action in force: the game is closed (kept in the journal, never
        resumed) and the players menu is up again, so a wrong count is corrected."""
        game, title = self.match.game, self.match.setup["title"]
        try:
            if self.journal.actions(game):
                return False
            self.journal.set_aside(game, _("left before the first action"))
        except JournalError as exc:
            self.last_error = str(exc)
            return False
        self._set_match(None)
        self.menu = self._players_menu(title)
        self._choosing_players = self.fixed_title is None
        return True

    def _redo(self) -> Update:
        """Put back the last action UNDO took back (a new action since ends the redo history:
        then there is nothing to redo)."""
        if self.damaged:
            return self.update([])
        if self.match is None:
            self.last_error = _("nothing to redo: no game is in play")
            return self.update([])
        count = self._redo_groups.pop() if self._redo_groups else 1
        redone: list[Action] = []
        effects: list[dict[str, Any]] = []
        try:
            while len(redone) < count:
                before = self.match.state
                action = self.match.redo()
                if action is None:
                    break
                redone.append(action)
                try:  # what the action did the first time happens again: announce it again
                    effects += self.match.engine.apply(before, action)[1]
                except RuleError:
                    pass
        except JournalDamaged as exc:
            return self._damaged(exc)
        except JournalError as exc:
            self.last_error = _("NOT RECORDED: {reason}").format(reason=exc)
            return self.update([])
        finally:
            if redone:
                self._groups.append(len(redone))
        if not redone:
            self.last_error = _("nothing to redo: REDO puts back what UNDO took back, until "
                                "a new action is recorded")
            return self.update([])
        self.proposal = self.unknown = None
        self.menu = None
        self.table.reset()
        text = _with_it(_("REDONE: {action}").format(action=self.table.describe(redone[0])),
                        len(redone) - 1)
        return Update([{"kind": "redo", "text": text}, *effects], self.prompt(),
                      redone=redone[0])

    # ------------------------------------------------------------------ a damaged journal

    def _damaged(self, exc: JournalDamaged) -> Update:
        """A notice, then a menu: go on from the last good action, or a new game."""
        offer = damage_choice(self.journal, exc.check)
        self._set_match(None)
        self.proposal = self.unknown = None
        self.last_error = offer.notice
        self.damaged = True

        def choose(choice) -> Update:
            try:
                match, said = choice()
            except JournalError as err:
                self.last_error = str(err)
                return self.update([])
            self._set_match(match)
            self.menu = None
            self.damaged = False
            return self.update([{"kind": "setup", "text": said}] if said else [])

        self.menu = Menu(offer.title, offer.labels, [lambda c=c: choose(c)
                                                     for c in offer.choices])
        return self.update([])

    # ------------------------------------------------------------------ what to show

    def prompt(self) -> Prompt:
        if self.match is None:
            if self.menu is None:
                self.menu = self._title_menu()
            return Prompt("menu", self.menu.title, options=self.menu.labels,
                          selected=self.menu.selected)
        if self.match.actor() == TERMINAL:
            winners = ", ".join(self.match.engine.winners(self.match.state))
            said = _("{winners} WINS!").format(winners=winners) if winners else _("GAME OVER")
            return Prompt("over", said, [_("CONFIRM: new game")])  # (lost together: no winner)
        if self.unknown is not None:
            first = self._first_unsure() or 0
            faces = list(self.table.choices(self.unknown[first]))
            choice = faces[self._unknown_choice % len(faces)] if faces else UNKNOWN
            index = first + 1
            return Prompt("menu", _("DIE {number}: WHICH FACE?").format(number=index),
                          options=[self.table.dice_text([f]) for f in faces],
                          selected=faces.index(choice) if choice in faces else 0,
                          dice=list(self.unknown))
        if self.proposal is not None:
            return Prompt("propose", self.proposal_text, [_("CONFIRM or BACK")],
                          dice=list(self.match.view().get("roll", [])))
        return self.table.prompt()


# Translators: the names of the buttons as printed on them.
BUTTON_NAMES = {CONFIRM: N_("CONFIRM"), END: N_("END TURN"), BACK: N_("BACK"), NEXT: N_("NEXT"),
                PREV: N_("PREV"), MENU: N_("long CONFIRM"), UNDO: N_("UNDO"), REDO: N_("REDO")}


def _with_it(said: str, more: int) -> str:
    """``said`` of the action a press chose, with the ``more`` it recorded beside it."""
    if not more:
        return said
    return ngettext("{said} (and {n} action with it)", "{said} (and {n} actions with it)",
                    more).format(said=said, n=more)


def press_name(name: str) -> str:
    """A press as players know the button: "END TURN", "long CONFIRM"."""
    return _(BUTTON_NAMES[name]) if name in BUTTON_NAMES else name.upper()


def describe(action: Action) -> str:
    """An action in a few words: its type, and its dice when it has some."""
    dice = action.get("dice")
    if isinstance(dice, list):
        return f"{action['type'].upper()} {' '.join(map(str, dice))}"
    return str(action["type"]).upper()
