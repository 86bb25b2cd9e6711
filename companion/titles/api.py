"""The one State API every title implements.

A title is a module-level object with pure functions over a state value. Nothing here does I/O,
reads a clock or draws random numbers: chance enters only as actions (a dice reading, a card
drawn), which the table (camera, buttons) or a simulator supplies.

Actions and states are JSON-ready dicts/lists/strings/ints, so the journal can store them and a
replay script can spell them out by hand.

    >>> from companion.titles import rules
    >>> from companion.content import demo_pack
    >>> title = rules("outatime")
    >>> state = title.new_game(["Ana", "Ben"], {}, demo_pack("outatime"))
    >>> title.actor(state)
    'chance'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

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


class Title(Protocol):
    """The functions every title module offers (see ``companion.titles.outatime.rules``)."""

    facts: Facts

    def new_game(self, players: list[str], options: dict[str, Any], content: Any) -> Any:
        """A fresh state, before any chance (deal) has happened."""

    def actor(self, state: Any) -> str:
        """Who decides next: a player's name, CHANCE or TERMINAL."""

    def legal_actions(self, state: Any) -> list[Action]:
        """The decisions open to the actor (for CHANCE: one template per kind of outcome)."""

    def sample_chance(self, state: Any, rng: random.Random) -> Action:
        """A random chance outcome for the simulator and playouts."""

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Effect]]:
        """The new state and the effects to announce, or RuleError. ``state`` is not changed."""

    def winners(self, state: Any) -> list[str]:
        """Winning players once terminal (all players in a won cooperative game)."""

    def to_json(self, state: Any) -> dict[str, Any]:
        """The whole state as JSON-ready data."""

    def from_json(self, data: dict[str, Any]) -> Any:
        """The inverse of ``to_json``."""

    def view(self, state: Any, observer: str | None = None) -> dict[str, Any]:
        """What ``observer`` may see (None: the public table, as on the OLED)."""


def check_players(facts: Facts, players: list[str]) -> None:
    """Raise RuleError unless the player list suits the title."""
    if not (facts.min_players <= len(players) <= facts.max_players):
        raise RuleError(
            f"{facts.name} takes {facts.min_players}-{facts.max_players} players, "
            f"not {len(players)}"
        )
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RuleError(f"player names must be non-empty text, got {name!r}")
    if len(set(players)) != len(players):
        raise RuleError("player names must differ from each other")
