"""A game in progress: engine state plus its journal, in the manner of a board with a move stack.

``Match.push`` checks an action with the engine, appends it to the journal (on disk), and only
then returns the effects to announce. ``undo``/``redo`` and ``Match.resume`` rebuild the state by
replaying the journal, so there is one way a state comes to be.

    >>> from companion.journal import Journal
    >>> from companion.content import demo_pack
    >>> from companion.titles import keys
    >>> title = keys()[0]
    >>> m = Match.new(Journal(":memory:"), title, ["Ana", "Ben"], {}, demo_pack(title))
    >>> m.actor()
    'chance'
"""

from __future__ import annotations

from typing import Any

from companion import titles
from companion.journal import Journal
from companion.titles.api import Action, Effect, RuleError


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
    def __init__(self, journal: Journal, game: int):
        self.journal = journal
        self.game = game
        self.setup = journal.setup(game)
        self.engine = titles.rules(self.setup["title"])
        self.state = replay(self.setup, journal.actions(game))

    @classmethod
    def new(cls, journal: Journal, title: str, players: list[str], options: dict, pack) -> Match:
        setup = make_setup(title, players, options, pack)
        replay(setup, [])  # refuse a bad setup before anything is written
        return cls(journal, journal.new_game(title, setup))

    @classmethod
    def resume(cls, journal: Journal) -> Match | None:
        """The unfinished game of this journal, rebuilt by replay (None if there is none).

        A game whose recorded actions already end it (the process died between recording the
        winning action and marking the game finished) is marked finished, not resumed.
        """
        while (game := journal.unfinished()) is not None:
            match = cls(journal, game)
            if match.actor() != "terminal":
                return match
            journal.finish(game)
        return None

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
            self.journal.finish(self.game)
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
