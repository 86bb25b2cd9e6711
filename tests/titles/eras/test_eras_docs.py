"""The era game's documents say what the code does: the worked example replays as told, and
every rule sentence and decision in the rules notes names a test that exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.cli import main
from companion.titles.eras import rules

ROOT = Path(__file__).resolve().parents[3]
NOTES = ROOT / "docs/rules/eras.md"


def _tests_source() -> str:
    return "".join(p.read_text() for p in (ROOT / "tests/titles/eras").glob("test_*.py"))


def test_worked_example_in_the_docs_is_the_file_and_replays(capsys):
    doc = (ROOT / "docs/titles/eras.md").read_text()
    script = ROOT / "docs/titles/eras-example.jsonl"
    assert script.read_text() in doc
    assert main(["replay", "--title", "eras", str(script)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["round"], state["start_player"], state["turn"]) == (2, "Ben", "Ana")
    assert state["delorean"] == "2015" and state["actions"] == 32
    assert state["eras"]["1955"]["event"]["id"] == "event-55-c"
    assert state["eras"]["1955"]["next_vp"] == 4
    ana, ben = state["players"]
    assert (ana["role"], ana["hand"], ana["clocks"]) == ("george", 7, 0)
    assert ana["board"]["2015"] == ["george-15-1"]
    assert (ben["role"], ben["hand"], ben["tokens"], ben["ripple"]) == ("marty", 0, [5], 3)
    assert ben["score"]["ripple"] is None and ben["score"]["total"] == 5
    assert all(not cards for cards in ben["board"].values())


def test_every_rule_sentence_and_decision_names_a_test_that_exists():
    notes = NOTES.read_text()
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", notes))
    assert len(named) >= 60
    source = _tests_source()
    missing = sorted(name for name in named if f"def {name}(" not in source)
    assert not missing


def test_every_b_side_has_a_row_with_its_test():
    rows = [line for line in NOTES.read_text().splitlines() if line.startswith("| 19") or
            line.startswith("| 1985") or line.startswith("| 2015")]
    for key in rules.EFFECTS:
        row = next((r for r in rows if f"`{key}`" in r), None)
        assert row is not None, key
        assert re.search(r"`test_b_[a-z0-9_]+`", row), key


def test_every_summary_row_is_numbered_once_and_quotes_the_summary():
    notes = NOTES.read_text()
    section = notes.split("## The summary, sentence by sentence")[1].split("## Advanced")[0]
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", section, flags=re.M)
    assert [int(n) for n, _ in rows] == list(range(1, 34))
    assert all(re.search(r"[^\x00-\x7f]", quote) for _, quote in rows)  # the Japanese text
