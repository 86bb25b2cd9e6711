"""The one State API every title implements.

A title is a module-level object with pure functions over a state value. Nothing here does I/O,
reads a clock or draws random numbers: chance enters only as actions (a dice reading, a card
drawn), which the table (camera, buttons) or a simulator supplies.

Actions and states are JSON-ready dicts/lists/strings/ints, so the journal can store them and a
replay script can spell them out by hand.

    >>> from companion.titles import keys, rules
    >>> from companion.content import demo_pack
    >>> engine = rules(keys()[0])
    >>> state = engine.new_game(["Ana", "Ben"], {}, demo_pack(keys()[0]))
    >>> engine.actor(state) in ("chance", "Ana")
    True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from companion.i18n import _

Action = dict[str, Any]
Effect = dict[str, Any]

CHANCE = "chance"  # actor() value when the next action is a chance outcome (dice, a card)
TERMINAL = "terminal"  # actor() value when the game is over


class RuleError(ValueError):
    """An action the rules do not allow. The message is for players: what and why."""


@dataclass(frozen=True)
class Facts:
    """What a title declares about itself, as data."""

    key: str
    name: str
    min_players: int
    max_players: int
    cooperative: bool = False
    dice: str | None = None  # the face set the camera reads, if any
    chance: str = ""  # how chance enters, in a phrase
    options: dict[str, Any] = field(default_factory=dict)  # option name -> default
    plate: str = ""  # a few letters for the boot screen's licence plate (default: the name)


class Title(Protocol):
    """The functions every title's rules module offers (each ``companion/titles/<key>/rules.py``).

    The contract the conformance suite (``tests/test_conformance.py``) holds every title to:

    - ``apply`` never changes its input; given any JSON value as an action it either returns
      ``(new state, effects)`` or raises ``RuleError`` with a message a player can read;
    - every action of ``legal_actions`` applies; a chance template's sampled outcome applies;
    - ``to_json``/``from_json`` round-trip every state through ``json.dumps``;
    - ``view(state, p)`` shows nothing of ``secrets(state)`` of any other player, and the
      public view (``observer=None``, the OLED) shows no player's secrets;
    - random playouts end; ``winners`` is empty until the game is over.

    An effect is ``{"kind": ..., "text": ..., **data}``: ``text`` is for the players (through
    ``companion.i18n``), ``kind`` and the data are for the title's screens and the light ring.
    """

    facts: Facts

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """``options`` over the title's defaults (``facts.options``), or RuleError saying which
        option is unknown or out of its range. ``new_game`` checks its options so; the config
        calls it too, so that a bad option is refused when the daemon starts, not at the
        table."""

    def new_game(self, players: list[str], options: dict[str, Any], content: Any) -> Any:
        """A fresh state, before any chance (deal) has happened.

        ``content`` is the game's content: a ``Pack`` or its entries by section name (a dict of
        lists, as a recorded setup holds them).
        """

    def actor(self, state: Any) -> str:
        """Who decides next: a player's name, CHANCE or TERMINAL."""

    def legal_actions(self, state: Any) -> list[Action]:
        """The decisions open to the actor (for CHANCE: one template per kind of outcome)."""

    def sample_chance(self, state: Any, rng: random.Random) -> Action:
        """A random chance outcome for the simulator and playouts."""

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Effect]]:
        """The new state and the effects to announce, or RuleError. ``state`` is not changed."""

    def is_terminal(self, state: Any) -> bool:
        """True once the game is over (``actor`` is TERMINAL)."""

    def winners(self, state: Any) -> list[str]:
        """Winning players once terminal (all players in a won cooperative game)."""

    def to_json(self, state: Any) -> dict[str, Any]:
        """The whole state as JSON-ready data."""

    def from_json(self, data: dict[str, Any]) -> Any:
        """The inverse of ``to_json``."""

    def view(self, state: Any, observer: str | None = None) -> dict[str, Any]:
        """What ``observer`` may see (None: the public table, as on the OLED)."""

    def secrets(self, state: Any) -> dict[str, list[str]]:
        """Per player, the text values only that player may see (ids of cards in a hidden hand,
        a secret identity). Empty lists when everything is public."""


def player_count_problem(facts: Facts, count: int) -> str | None:
    """Why ``count`` players cannot play the title (None: they can)."""
    if facts.min_players <= count <= facts.max_players:
        return None
    return _("{title} takes {low}-{high} players, not {count}").format(
        title=facts.name, low=facts.min_players, high=facts.max_players, count=count)


def check_players(facts: Facts, players: list[str]) -> None:
    """Raise RuleError unless the player list suits the title."""
    wrong_count = player_count_problem(facts, len(players))
    if wrong_count:
        raise RuleError(wrong_count)
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RuleError(_("player names must be non-empty text, got {name}").format(
                name=repr(name)))
    if len(set(players)) != len(players):
        raise RuleError(_("player names must differ from each other"))


def check_fields(entry: dict[str, Any], allowed: set[str], what: str) -> None:
    """ValueError naming the fields of a content entry that ``allowed`` does not hold (a
    mistyped field would otherwise be dropped without a word)."""
    extra = sorted(map(str, set(entry) - allowed))
    if extra:
        raise ValueError(
            _("unknown field(s) {fields} for {what}; known: {known}").format(
                fields=", ".join(extra), what=what, known=", ".join(sorted(allowed))
            )
        )


def known_options(facts: Facts, options: Any) -> dict[str, Any]:
    """``options`` over the title's defaults; RuleError for options that are not a mapping,
    an option the title does not have, or a true/false option given anything else (each
    title's ``check_options`` then checks the ranges of its others)."""
    if not isinstance(options, dict):
        raise RuleError(_("options must be a JSON object"))
    unknown = sorted(map(str, set(options) - set(facts.options)))
    if unknown:
        raise RuleError(_("unknown option(s) {unknown}; known: {known}").format(
            unknown=", ".join(unknown), known=", ".join(sorted(facts.options)) or _("none")))
    merged = {**facts.options, **options}
    for key, default in facts.options.items():
        if isinstance(default, bool) and not isinstance(merged[key], bool):
            raise RuleError(_("option {option} is true or false, not {value}").format(
                option=key, value=json.dumps(merged[key], default=str)))
    return merged


C = TypeVar("C")


class ContentCache(Generic[C]):
    """A title's compiled content (lookups, board distances) by the sections it came from.

    A recorded state carries its content's sections; restoring states one after another (a
    replay, a restart, every turn at the table) would otherwise compile the same sections
    each time. The compiled content is never changed, so one copy serves every state.
    """

    def __init__(self, build: Callable[[Any], C], size: int = 16) -> None:
        self.build = build
        self.size = size
        self._found: dict[str, C] = {}

    def __call__(self, sections: dict[str, Any]) -> C:
        key = json.dumps(sections, sort_keys=True)
        found = self._found.get(key)
        if found is None:
            found = self.build(sections)
            if len(self._found) >= self.size:
                self._found.clear()
            self._found[key] = found
        return found
