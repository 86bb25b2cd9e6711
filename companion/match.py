"""A game in progress: engine state plus its journal, in the manner of a board with a move stack.

``Match.push`` checks an action with the engine, appends it to the journal (on disk), and only
then returns the effects to announce. ``undo``/``redo`` and ``Match.resume`` rebuild the state by
replaying the journal, so there is one way a state comes to be.

The journal proves every record it hands out (a checksum chain). ``Match.resume`` puts back
what the backup holds and rewrites damaged checksums by itself (the damaged file is kept
aside); a record nothing can prove raises ``JournalDamaged``, and the table chooses between
``Match.go_on`` (from the last good action) and ``Match.set_aside`` (a new game).

    >>> from companion.journal import Journal
    >>> from companion.content import demo_pack
    >>> from companion.titles import keys
    >>> title = keys()[0]
    >>> m = Match.new(Journal(":memory:"), title, ["Ana", "Ben"], {}, demo_pack(title))
    >>> m.actor()
    'chance'
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion import titles
from companion.i18n import _
from companion.journal import GameCheck, Journal, JournalDamaged, JournalError, stacks
from companion.titles.api import Action, Effect, RuleError

log = logging.getLogger("companion.match")


class ReplayError(RuleError):
    """An action of a recorded or scripted game that the rules refuse; ``index`` is 0-based."""

    def __init__(self, index: int, action: Any, reason: str):
        super().__init__(f"action {index + 1} {action!r}: {reason}")
        self.index = index
        self.reason = reason


def make_setup(title: str, players: list[str], options: dict[str, Any], pack: Any) -> dict:
    """The journal's record of how a game began, self-contained (the entries are copied in).

    The ``[[card]]`` entries go under "cards" (as journals have always kept them); a title's
    other sections go under "sections".
    """
    entries = pack.to_setup()
    setup = {
        "title": title,
        "players": list(players),
        "options": dict(options),
        "cards": entries.pop("card", []),
        "pack": {"name": pack.name, "source": pack.source, "path": pack.path},
    }
    if any(entries.values()):
        setup["sections"] = entries
    return setup


def setup_content(setup: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The content a recorded setup holds, by section (what a rules engine's new_game takes)."""
    return {"card": list(setup.get("cards", [])), **setup.get("sections", {})}


def replay(setup: dict[str, Any], actions: list[Action]):
    """The state after ``actions``; raises ReplayError naming the first refused action."""
    engine = titles.rules(setup["title"])
    state = engine.new_game(setup["players"], setup.get("options", {}), setup_content(setup))
    for index, action in enumerate(actions):
        try:
            state, _ = engine.apply(state, action)
        except RuleError as exc:
            raise ReplayError(index, action, str(exc)) from exc
    return state


class Match:
    def __init__(self, journal: Journal, game: int, check: GameCheck | None = None):
        """The game rebuilt by replay; ``check``: the journal's proof of it, if just made."""
        self.journal = journal
        self.game = game
        if check is None or check.damage is not None:
            check = journal.proven(game)
        self.setup = check.setup
        self.engine = titles.rules(self.setup["title"])
        self.state = replay(self.setup, stacks(check.records)[0])

    @classmethod
    def new(cls, journal: Journal, title: str, players: list[str], options: dict, pack) -> Match:
        """A new game, recorded; a pack that cannot serve the players is refused first."""
        from companion.content import playable

        why = playable(pack, len(players))
        if why:
            raise RuleError(why)
        setup = make_setup(title, players, options, pack)
        replay(setup, [])  # refuse a bad setup before anything is written
        return cls(journal, journal.new_game(title, setup))

    @classmethod
    def resume(cls, journal: Journal, notices: list[str] | None = None) -> Match | None:
        """The unfinished game of this journal, rebuilt by replay (None if there is none).

        A game whose recorded actions already end it (the process died between recording the
        winning action and marking the game finished) is marked finished, not resumed.

        A game that cannot go on (its recorded pack cannot serve its players, or its actions
        no longer replay) is set aside, kept whole in the journal and never resumed again, so
        a bad game never stops the table at every start; what was done is added to
        ``notices``.

        The game's records are checked first. Damage the chain can still prove its way around
        (a checksum, a time, the finish mark, or a record the backup holds intact) is repaired
        by a rebuilt journal, the damaged file kept aside. A record nothing proves raises
        ``JournalDamaged``: the caller offers ``go_on`` or ``set_aside``.
        """
        while (game := journal.unfinished()) is not None:
            check = journal.check(game)
            if check.damage is not None:
                log.error("%s", check.message())
                raise JournalDamaged(check)
            if check.problems:
                log.warning("%s", check.message())
                journal.rebuild()
                check = None
            try:
                match = cls(journal, game, check)
                why = match.cannot_go_on()
            except RuleError as exc:  # a setup or an action these rules refuse
                match, why = None, str(exc)
            except JournalError:
                raise
            except Exception as exc:  # a fault in the rules: logged whole, never a loop
                log.exception("game %s cannot be replayed", game)
                match, why = None, _("the rules failed replaying it ({error})").format(
                    error=f"{type(exc).__name__}: {exc}")
            if why:
                journal.set_aside(game, why)
                notice = _("Game {game} cannot go on: {reason}. It is kept in the journal "
                           "(`companion journal export --game {game}`); start a new "
                           "game.").format(game=game, reason=why)
                log.error("%s", notice)
                if notices is not None:
                    notices.append(notice)
                continue
            if match.actor() != "terminal":
                return match
            journal.finish(game)
        return None

    def cannot_go_on(self) -> str | None:
        """Why the recorded content cannot serve this game (None: it can)."""
        from companion.content import Pack, playable

        setup = self.setup
        if not isinstance(setup.get("players"), list):
            return _("its setup names no players")
        pack = Pack(self.setup["title"], _("recorded pack"), "owner",
                    sections=setup_content(setup))
        return playable(pack, len(setup["players"]))

    @classmethod
    def go_on(cls, journal: Journal, check: GameCheck) -> Match:
        """Go on with a damaged game from its last good action (the damaged file kept aside)."""
        if check.setup is None:
            raise JournalDamaged(check)
        journal.rebuild(cut={check.game: check.good})
        match = cls(journal, check.game)
        if match.actor() == "terminal":
            journal.finish(check.game)
        log.warning("%s", _("game {game} goes on from action {n}").format(game=check.game,
                                                                         n=check.good))
        return match

    @staticmethod
    def set_aside(journal: Journal, check: GameCheck) -> None:
        """Close a damaged game (kept up to its last good action, never resumed); the damaged
        file is kept aside."""
        journal.rebuild(close={check.game})
        log.warning("%s", _("game {game} set aside after action {n}").format(game=check.game,
                                                                            n=check.good))

    def actor(self) -> str:
        return self.engine.actor(self.state)

    def legal_actions(self) -> list[Action]:
        return self.engine.legal_actions(self.state)

    def view(self, observer: str | None = None) -> dict[str, Any]:
        return self.engine.view(self.state, observer)

    def push(self, action: Action) -> list[Effect]:
        """Check, record, then return the effects. A refused action raises RuleError."""
        state, effects = self.engine.apply(self.state, action)
        self.journal.append(self.game, action)
        self.state = state
        if self.engine.actor(state) == "terminal":
            try:
                self.journal.finish(self.game)
            except JournalError as exc:  # recorded all the same: the next start marks it
                log.error("%s", exc)
        return effects

    def undo(self) -> Action | None:
        """Take back the last confirmed action; returns it (None if there was none)."""
        return self._rebuild(self.journal.undo(self.game))

    def redo(self) -> Action | None:
        """Put back the last undone action; returns it (None if there was none)."""
        return self._rebuild(self.journal.redo(self.game))

    def _rebuild(self, action: Action | None) -> Action | None:
        if action is not None:
            was_over = self.engine.actor(self.state) == "terminal"
            self.state = replay(self.setup, self.journal.actions(self.game))
            is_over = self.engine.actor(self.state) == "terminal"
            if was_over != is_over:
                self.journal.finish(self.game, is_over)
        return action

    def to_json(self) -> dict[str, Any]:
        return self.engine.to_json(self.state)


@dataclass
class DamageChoice:
    """What the table shows when the journal is damaged: a notice, and a menu of two choices.

    Each choice returns the match to play (None: back to the title menu) and a line to
    announce, or raises JournalError with a message to show.
    """

    notice: str
    title: str
    labels: list[str]
    choices: list[Callable[[], tuple[Match | None, str | None]]]


def damage_choice(journal: Journal, check: GameCheck) -> DamageChoice:
    """Go on from action N-1 (when the setup is intact) or start a new game."""
    seq = check.damage.seq if check.damage else check.good + 1
    if check.setup is not None:
        notice = _("Journal damaged at action {seq} of game {game}; the damaged file is kept "
                   "aside. Go on from action {good}, or start a new game.").format(
            seq=seq, game=check.game, good=check.good)
    else:
        notice = _("Journal damaged in the setup of game {game}; the damaged file is kept "
                   "aside. Start a new game.").format(game=check.game)

    def go_on() -> tuple[Match | None, str | None]:
        return Match.go_on(journal, check), _("GOING ON FROM ACTION {n}").format(n=check.good)

    def new_game() -> tuple[Match | None, str | None]:
        Match.set_aside(journal, check)
        return None, None

    labels, choices = [_("START A NEW GAME")], [new_game]
    if check.setup is not None:
        labels.insert(0, _("GO ON FROM {n}").format(n=check.good))
        choices.insert(0, go_on)
    return DamageChoice(notice, _("JOURNAL DAMAGED"), labels, choices)
