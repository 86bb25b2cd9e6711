"""The checks every title must pass, as functions of a title key (see tests/test_conformance.py).

Like OpenSpiel's game tests: one harness over the State API of every registered title, so a
new title is held to the same contract as the others the moment it is registered.
"""

from __future__ import annotations

import json
import random
from typing import Any

from companion import titles
from companion.content import SOURCES, demo_pack, playable
from companion.display.draw import PANELS, Panel, panel, recommended, text_boxes
from companion.replay import NotedAction
from companion.titles.api import CHANCE, TERMINAL, RuleError

NAMES = ["Ana", "Ben", "Cat", "Dan", "Eve", "Fay"]
# Random play ends every game, but the Card Game's can run long (Memo wars, a hand hoarding
# the deck until a Time Machine tries B-1): over 1,000 seeds at 2-6 players its median is
# 2,739 actions, p99 11,186, the longest 21,565 (5 players, seed 323). The bound says a game
# ends; it is no measure of how long one takes.
PLAYOUT_LIMIT = 50_000


def player_counts(key: str) -> list[int]:
    facts = titles.get(key).facts
    return list(range(facts.min_players, facts.max_players + 1))


def new_game(key: str, players: int):
    engine = titles.rules(key)
    return engine, engine.new_game(NAMES[:players], {}, demo_pack(key))


def snapshot(engine, state) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


def next_action(engine, state, rng: random.Random, bot=None):
    if engine.actor(state) == CHANCE:
        return engine.sample_chance(state, rng)
    if bot is not None:
        return bot(engine, state, rng)
    return rng.choice(engine.legal_actions(state))


def playout(key: str, players: int, seed: int, bot=None, limit: int = PLAYOUT_LIMIT,
            stop_after: int | None = None):
    """Yield every (state, action) of one game, and the final state last with action None
    (``stop_after``: only that many actions, the game need not end)."""
    engine, state = new_game(key, players)
    rng = random.Random(seed)
    for step in range(limit):
        if stop_after is not None and step >= stop_after:
            return
        if engine.actor(state) == TERMINAL:
            yield state, None
            return
        action = next_action(engine, state, rng, bot)
        yield state, action
        state, _effects = engine.apply(state, action)
    raise AssertionError(f"{key}: a game of {players} did not end within {limit} actions")


# --------------------------------------------------------------------------- the checks


def check_round_trip(engine, state) -> str:
    """The JSON form gives the same state back; returns it (the state's ``snapshot``)."""
    data = engine.to_json(state)
    text = json.dumps(data, sort_keys=True)
    again = engine.to_json(engine.from_json(json.loads(text)))
    assert json.dumps(again, sort_keys=True) == text, "to_json/from_json lose something"
    return text


def check_apply_is_pure(engine, state, action, before: str | None = None) -> None:
    """Applying ``action`` leaves ``state`` as it was (``before``: its snapshot, if known)."""
    before = before or snapshot(engine, state)
    try:
        engine.apply(state, action)
    except RuleError:
        pass
    assert snapshot(engine, state) == before, f"apply({action!r}) changed its input state"


def check_legal_actions_apply(engine, state, rng: random.Random, most: int = 12) -> None:
    who = engine.actor(state)
    legal = engine.legal_actions(state)
    if who == TERMINAL:
        assert legal == [], "a finished game offers actions"
        assert engine.is_terminal(state)
        return
    assert not engine.is_terminal(state)
    assert legal, f"no legal action for {who}"
    offered = [engine.sample_chance(state, rng)] if who == CHANCE else \
        rng.sample(legal, min(most, len(legal)))
    for action in offered:
        json.dumps(action)  # actions are JSON
        # Every field of an action the rules offer is read by them: replay warns of a field
        # nothing read, and must never warn of one the rules themselves wrote.
        noted = NotedAction(action)
        engine.apply(state, noted)
        assert noted.unread() == [], f"the rules do not read {noted.unread()} of {action}"


def check_secrets_stay_hidden(engine, state) -> None:
    hiding = {owner: [(v, json.dumps(v)) for v in values if isinstance(v, str)]
              for owner, values in engine.secrets(state).items()}
    public = _text(engine.view(state, None))  # (every state has a public view)
    if not any(hiding.values()):
        return  # nothing hidden from anyone in this state: no player's view can leak it
    views = {p: _text(engine.view(state, p)) for p in hiding}  # each player's once
    for owner, hidden in hiding.items():
        leaked = _shown(hidden, public)
        assert not leaked, f"the public view shows {owner}'s secrets {leaked}"
        for other, shown in views.items():
            if other == owner:
                continue
            seen = _shown(hidden, shown)
            assert not seen, f"{other}'s view shows {owner}'s secrets {seen}"


def _text(view: Any) -> str:
    """A JSON-ready view as JSON text (the C encoder walks it far faster than Python)."""
    return json.dumps(view)


def _shown(hidden: list[tuple[str, str]], text: str) -> list[str]:
    """The strings of ``hidden`` (each with its JSON form) that are a text value or key of the
    view ``text`` (as JSON strings: the quotes keep "7" from matching inside "17")."""
    return sorted({v for v, quoted in hidden if quoted in text})


def check_winners(engine, state) -> None:
    winners = engine.winners(state)
    if engine.actor(state) != TERMINAL:
        assert winners == [], "winners before the game is over"
    names = {p for p in engine.secrets(state)}
    assert set(winners) <= names, f"winners {winners} are not players"


def check_bad_action(engine, state, action) -> None:
    """Any JSON value as an action: it applies, or RuleError with a readable message."""
    before = snapshot(engine, state)
    try:
        engine.apply(state, action)
    except RuleError as exc:
        message = str(exc)
        assert message.strip(), f"an empty refusal for {action!r}"
        assert "Traceback (most recent" not in message  # (a value may be the word Traceback)
        assert not message.startswith(("KeyError", "TypeError"))
    assert snapshot(engine, state) == before, f"apply({action!r}) changed its input state"


def check_demo_pack(key: str) -> None:
    pack = demo_pack(key)
    assert pack.source == "demo", "the demo pack must say it is invented"
    entries = [e for section in pack.sections.values() for e in section]
    assert entries, "the demo pack is empty"
    for entry in entries:
        assert entry["source"] in SOURCES
        assert entry["source"] in ("demo", "rulebook"), f"{entry['id']}: a demo pack holds " \
            "invented entries and facts the rulebook states, nothing else"
    for count in player_counts(key):
        assert playable(pack, count) is None, f"the demo pack cannot serve {count} players"


def check_bot_finishes(key: str, players: int, seed: int) -> None:
    bot = titles.get(key).bots.bot
    *_, (final, _none) = playout(key, players, seed, bot=bot)
    engine = titles.rules(key)
    assert engine.is_terminal(final)


# The sizes screens are laid out for, each with the panel the tests draw it for: the recommended
# one where a size has one (the readability rule is held to it), else the largest on sale.
PANEL_SIZES = {
    "128x64": PANELS["ssd1309-2.42"],
    "256x64": PANELS["ssd1322-3.12"],
    "128x128": PANELS["ssd1327-1.5"],
}


def rule_panel(size: str) -> Panel | None:
    """The panel the readability rule is held to at ``size`` (None: no panel keeps it)."""
    where = PANEL_SIZES[size]
    return recommended(where.width, where.height)


def check_screens_fit(images) -> None:
    """Every screen is the current panel's size, in mode "1", and its words stay on it."""
    width, height = panel().size
    for name, image in images:
        assert image.size == (width, height) and image.mode == "1", (name, image.size)
        for text, (x0, y0, x1, y1) in text_boxes(image):
            assert 0 <= x0 and 0 <= y0 and x1 <= width and y1 <= height, (name, text)


def _screen_kind(name: str) -> str:
    """A screen's kind from its name: "game_012_03_ripple" -> "ripple", "stall_2" -> "stall"."""
    from companion.display.screens import screen_kind

    return screen_kind(name)


def check_table_screens_read_across_the_table(key: str, images, where: Panel | None = None
                                              ) -> None:
    """Screens the whole table reads (the title's TABLE_SCREENS) keep the readability rule on
    ``where`` (default: the current panel)."""
    from companion.display.draw import readability_problems

    table = getattr(titles.get(key).screens, "TABLE_SCREENS", None)
    assert table, f"{key}'s screens declare no TABLE_SCREENS (the screens the whole table reads)"
    problems = []
    for name, image in images:
        if _screen_kind(name) in table or name in table:
            problems += [f"{name}: {p}" for p in readability_problems(image, where)]
    assert not problems, "too small to read across the table:\n" + "\n".join(problems[:40])
