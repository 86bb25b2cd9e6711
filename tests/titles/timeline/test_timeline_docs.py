"""The Card Game's documents say what the code does, and its engine stays pure."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from companion.cli import main
from companion.titles.timeline import rules as tl

ROOT = Path(__file__).resolve().parents[3]
TITLE = ROOT / "companion/titles/timeline"


def test_worked_example_in_the_docs_is_the_file_and_replays_as_told(capsys):
    doc = (ROOT / "docs/titles/timeline.md").read_text()
    script = ROOT / "docs/titles/timeline-example.jsonl"
    assert script.read_text() in doc
    assert main(["replay", "--title", "timeline", str(script)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["map"] == ["XXXXXX", "#....X", "......", "XX..X."]
    assert " / ".join(state["map"]) in doc
    assert len(state["altered"]) == 10
    assert state["b1"] == {"left": 4, "aside": 1, "clock_odds": 0.25}
    assert state["turn"] == "Ana" and state["waiting"]["step"] == "play"
    assert [(p["hand"], p["items"]) for p in state["players"]] == [(4, []), (5, [])]


def test_the_refusal_quoted_in_the_docs_is_what_the_engine_says(tmp_path, capsys):
    lines = (ROOT / "docs/titles/timeline-example.jsonl").read_text().splitlines()
    # Ben hitches a ride in the example; had Ana only drawn that turn, he could not.
    kept = lines[:16] + ['{"type": "draw"}', '{"type": "draw_instead", "player": "Ana"}',
                         '{"type": "draw"}', '{"type": "draw"}',
                         '{"type": "play", "player": "Ben", "card": "hitch-a-ride", '
                         '"event": "D-2"}']
    script = tmp_path / "game.jsonl"
    script.write_text("\n".join(kept) + "\n")
    assert main(["replay", "--title", "timeline", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith("Hitch a Ride: Ana did not change the TimeLine")
    assert "Hitch a Ride: Ana did not change the TimeLine" in (
        ROOT / "docs/titles/timeline.md").read_text()


def test_every_rules_decision_names_a_test_that_exists():
    notes = (ROOT / "docs/rules/timeline.md").read_text()
    tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", notes))
    assert len(named) >= 40
    missing = sorted(name for name in named if f"def {name}(" not in tests)
    assert not missing
    rows = re.findall(r"^\| (\d+) \|", notes, flags=re.M)
    assert rows == [str(i) for i in range(1, len(rows) + 1)] and len(rows) >= 25


def test_the_action_table_lists_every_action_type():
    doc = (ROOT / "docs/titles/timeline.md").read_text()
    table = doc.split("## Actions", 1)[1].split("##", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_]+)`", table, flags=re.M))
    listed |= set(re.findall(r"^\| `[a-z_]+` / `([a-z_]+)`", table, flags=re.M))
    assert listed == set(tl._HANDLERS) | {"setup"}


ALLOWED = {"companion.i18n", "companion.titles.api"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add(node.module or "")
    return out


def test_the_engine_is_pure():
    """rules, graph, model and bots import only the standard library, the State API, the
    translations and each other (bots also the simulator's seat base class, for the bots that
    sit at the simulated table)."""
    import sys

    for name in ("rules", "graph", "model", "bots"):
        for module in _imports(TITLE / f"{name}.py"):
            top = module.split(".")[0]
            ok = (
                module in ALLOWED
                or (name == "bots" and module == "companion.sim")
                or module.startswith("companion.titles.timeline.")
                and module.rsplit(".", 1)[1] in ("rules", "graph", "model")
                or (top != "companion" and top in sys.stdlib_module_names)
                or module == "__future__"
            )
            assert ok, f"{name}.py imports {module}"
    source = (TITLE / "rules.py").read_text()
    for word in ("time.", "datetime", "open(", "random.random", "random.choice", "os."):
        assert word not in source.replace("rng.", ""), word


def test_at_the_table_quotes_the_screens_and_menus_as_the_table_shows_them():
    """The words the title page quotes are the words a demo-pack game at the table shows."""
    from companion.content import demo_pack
    from companion.journal import Journal
    from companion.session import Session

    doc = (ROOT / "docs/titles/timeline.md").read_text().split("## At the table", 1)[1]
    doc = doc.split("## Worked example", 1)[0]
    flat = " ".join(doc.split())
    journal = Journal(":memory:")
    try:
        session = Session(journal, ["Ana", "Ben"], demo_pack, title="timeline")
        shown: list[str] = []

        def choose(label: str) -> None:
            for _ in range(40):
                prompt = session.prompt()
                shown.extend([prompt.title, *prompt.lines, *prompt.options])
                if prompt.options[prompt.selected].startswith(label):
                    session.press("confirm")
                    return
                session.press("next")
            raise AssertionError(label)

        for label in ("2:", "DEALT", "ALL KEEP", "DONE", "Time Machine", "Time Train", "B-1",
                      "NO MEMO", "MYSTERIOUS FORCES"):
            choose(label)
        shown.extend([session.prompt().title, *session.prompt().options])
    finally:
        journal.close()
    quotes = ["KEEP YOUR IDs?", "ALL KEEP", "ANA: NEW ID", "then CONFIRM", "ANA: PLAY",
              "Time Machine", "Power Action", "DRAW INSTEAD", "FLIP WHICH LINCHPIN?",
              "Time Train on B-1", "clock: 20%", "CONFIRM: none", "B-1 CARD? (20% CLOCK)",
              "MYSTERIOUS FORCES", "THE CLOCK"]
    for quote in quotes:
        assert quote in shown, quote
        assert quote in flat, quote
    for image in ("img/timeline-flip.png", "img/timeline-memo.png"):
        assert image in doc
        assert (ROOT / "docs/titles" / image).stat().st_size < 4000
