"""Back in Time's documents say what the code does, and its rules stay pure."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

from companion.cli import main

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
TITLE = ROOT / "companion" / "titles" / "back_in_time"


def test_the_worked_example_in_the_docs_is_the_file_and_replays(capsys):
    doc = (ROOT / "docs/titles/back_in_time.md").read_text()
    script = ROOT / "docs/titles/back_in_time-example.jsonl"
    assert script.read_text() in doc
    assert main(["replay", "--title", "back_in_time", str(script)]) == 0
    state = json.loads(capsys.readouterr().out)
    # as the text tells
    assert state["tracker"]["space"] == 4 and state["love"] == {"space": 5, "zone": "plain",
                                                                 "bottom": -3, "top": 15}
    assert state["photos"] == 6 and state["biff"] == {"down": True, "tokens": 0}
    assert state["delorean"]["place"] == "elm-st" and state["delorean"]["limit"] == 3
    assert state["npcs"] == {"george": "elm-st", "lorraine": "elm-st", "biff": "elm-st"}
    assert state["trouble"]["id"] == "tr1-4" and state["turn"] == "Ben"
    odds = state["challenge"]["odds"]
    assert odds["chance"] == 0.9722 and odds["at_least"] == [0.9722, 0.6944]
    assert "0.9722" in doc and "0.6944" in doc


def test_the_refusal_shown_in_the_docs_is_the_real_message(tmp_path, capsys):
    doc = (ROOT / "docs/titles/back_in_time.md").read_text()
    lines = (ROOT / "docs/titles/back_in_time-example.jsonl").read_text().splitlines()[:6]
    lines += ['{"type": "move", "tile": "marty-3"}', "", '{"type": "step", "to": "elm-st"}']
    script = tmp_path / "game.jsonl"
    script.write_text("\n".join(lines) + "\n")
    assert main(["replay", "--title", "back_in_time", str(script)]) == 2
    message = capsys.readouterr().err.strip().replace(str(script), "game.jsonl")
    assert message in doc


def test_every_rules_decision_names_a_test_that_exists():
    notes = (ROOT / "docs/rules/back_in_time.md").read_text()
    tests = "\n".join(p.read_text() for p in HERE.glob("test_*.py"))
    named = re.findall(r"`(test_[a-z0-9_]+)`", notes)
    assert len(named) >= 50
    missing = [name for name in named if f"def {name}(" not in tests]
    assert not missing


def test_the_rules_import_only_the_standard_library_the_api_i18n_and_their_own_pure_parts():
    allowed = {"companion.titles.api", "companion.i18n", "companion.titles.back_in_time"}
    pure = ("rules", "odds", "data", "bots")
    for name in pure:
        tree = ast.parse((TITLE / f"{name}.py").read_text())
        lazy = {id(n) for f in tree.body if isinstance(f, ast.FunctionDef)
                and f.name == "__getattr__" for n in ast.walk(f)}
        for node in ast.walk(tree):
            if id(node) in lazy:
                continue  # bots.TableBots: the table seats, imported only when asked for
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
                if node.module == "companion.titles.back_in_time":
                    assert {a.name for a in node.names} <= set(pure), name
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                ok = top in sys.stdlib_module_names or top == "__future__" or any(
                    module == a or module.startswith(a + ".") for a in allowed)
                assert ok, f"{name}.py imports {module}"
                if module.startswith("companion.titles.back_in_time."):
                    assert module.rsplit(".", 1)[1] in pure, f"{name}.py imports {module}"
        for node in ast.walk(tree):  # no I/O, no clock, no randomness but the rng given
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("open", "print", "input"), name
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert node.value.id not in IMPURE, f"{name}.py uses {node.value.id}"
                if node.value.id == "random":
                    assert node.attr == "Random", f"{name}.py uses random.{node.attr}"


IMPURE = {"time", "datetime", "os", "sys", "pathlib", "io", "subprocess", "socket", "secrets"}


def test_the_pure_bot_does_not_pull_in_the_simulator_but_offers_the_table_seats():
    code = ("import sys; from companion.titles.back_in_time import bots; "
            "assert 'companion.sim' not in sys.modules and 'cv2' not in sys.modules; "
            "from companion.sim import SeatBots; assert issubclass(bots.TableBots, SeatBots)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
