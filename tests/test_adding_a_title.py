"""docs/adding-a-title.md stays true: its example title, written out from the page's own code
blocks and registered as the page says, passes the conformance suite and works with every
command that takes a title."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from conformance import (
    check_bad_action,
    check_bot_finishes,
    check_demo_pack,
    check_legal_actions_apply,
    check_round_trip,
    check_screens_fit,
    check_secrets_stay_hidden,
    playout,
)

import companion.titles
from companion import titles
from companion.cli import main
from companion.display.cli import game_screens

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "adding-a-title.md"
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)


def blocks() -> list[tuple[str, str]]:
    return BLOCK.findall(PAGE.read_text())


@pytest.fixture
def draft(tmp_path, monkeypatch, companion_home):
    """The page's example title, written into a folder the titles package also searches."""
    files = {}
    registry_line = None
    script = None
    for language, text in blocks():
        first, _, rest = text.partition("\n")
        if first.startswith("# companion/titles/"):
            files[first[2:].strip()] = rest
        elif language == "python" and '"companion.titles.' in text:
            registry_line = text.strip()
        elif language == "jsonl":
            script = text
    assert registry_line and script, "the page lost its registry line or its example"
    for path, text in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    assert {Path(p).name for p in files} >= {"__init__.py", "rules.py", "content.py",
                                             "demo.toml", "table.py", "screens.py", "bots.py"}
    monkeypatch.setattr(companion.titles, "__path__",
                        [*companion.titles.__path__, str(tmp_path / "companion" / "titles")])
    key, package = re.match(r'"(\w+)": "([\w.]+)",', registry_line).groups()
    monkeypatch.setitem(titles.REGISTRY, key, package)
    yield key, script
    titles._TITLES.pop(key, None)
    import sys

    for name in [n for n in sys.modules if n.startswith(package)]:
        del sys.modules[name]


def test_the_example_title_keeps_the_state_api_contract(draft):
    key, _script = draft
    engine = titles.rules(key)
    rng = random.Random(2)
    for players in (2, 3, 4):
        for state, action in playout(key, players, seed=players):
            check_round_trip(engine, state)
            check_secrets_stay_hidden(engine, state)
            check_legal_actions_apply(engine, state, rng)
            for bad in (None, [], {"type": "take"}, {"type": ["take"]}, {"type": "take",
                        "player": {}, "card": []}, "take", action):
                check_bad_action(engine, state, bad)
    check_demo_pack(key)
    check_bot_finishes(key, 2, seed=1)
    check_screens_fit(titles.get(key).screens.catalogue() + game_screens(key))


def test_the_example_title_works_with_every_command(draft, tmp_path, capsys):
    key, script = draft
    path = tmp_path / "example.jsonl"
    path.write_text(script)
    assert main(["replay", "--title", key, str(path)]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["scores"] == {"Ana": 15, "Ben": 8} and final["winner"] == "Ana"

    assert main(["cards", "--title", key, "add", "--id", "delorean", "--watts", "7"]) == 0
    assert main(["cards", "--title", key, "list"]) == 0
    assert "delorean" in capsys.readouterr().out
    assert main(["cards", "--title", key, "add", "--id", "x", "--watts", "12"]) == 2
    assert "1 to 9" in capsys.readouterr().err

    assert main(["screens", "--title", key, "--out", str(tmp_path / "screens")]) == 0
    assert (tmp_path / "screens" / "take.png").exists()

    out = tmp_path / "frames"
    assert main(["demo", "--title", key, "--players", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Game over: " in printed and (out / "screens.gif").exists()


def test_the_game_night_plays_each_registered_title_in_its_own_folder(draft, tmp_path, capsys,
                                                                      monkeypatch):
    key, _script = draft
    only = {key: titles.REGISTRY[key]}
    monkeypatch.setattr(titles, "REGISTRY", only)
    out = tmp_path / "night"
    assert main(["demo", "--players", "5", "--out", str(out)]) == 2  # no title takes 5
    assert "2-4 players" in capsys.readouterr().err
    assert main(["demo", "--players", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.count("Game over: ") == len(only)
    assert "Marty, Doc, Jennifer -" in printed
    assert (out / key / "screens.gif").exists() and not list(out.glob("frame_*.png"))
