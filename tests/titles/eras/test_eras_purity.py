"""The era game's rules and bot are pure: they import only the standard library, the State API,
the gettext helper and pure modules of their own folder (no I/O, no clock, no hidden chance).
The bots module also holds the simulator's seat driver (``TableBots``), which builds on the
simulator's ``SeatBots`` and reads the recorded setup; the bot itself uses neither."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[3] / "companion/titles/eras"
ALLOWED = {"companion.titles.api", "companion.i18n", "companion.titles.eras.rules"}
CLOCKS_AND_IO = {"time", "datetime", "os", "pathlib", "io", "socket", "subprocess", "sqlite3"}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "companion.titles.eras":
                found.update(f"companion.titles.eras.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
    return found


SEATS = {"companion.sim", "companion.match"}  # for TableBots only


@pytest.mark.parametrize("module", ["rules.py", "bots.py"])
def test_rules_and_bot_import_only_pure_modules(module):
    allowed = ALLOWED | (SEATS if module == "bots.py" else set())
    for name in imports(FOLDER / module):
        top = name.split(".")[0]
        if top == "companion":
            assert name in allowed, name
        else:
            assert top in sys.stdlib_module_names, name
            assert top not in CLOCKS_AND_IO, name


def test_only_the_seat_driver_uses_the_simulator():
    tree = ast.parse((FOLDER / "bots.py").read_text())
    seat = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TableBots")
    inside = {id(n) for n in ast.walk(seat)}
    uses = [n.lineno for n in ast.walk(tree) if id(n) not in inside and (
        (isinstance(n, ast.Name) and n.id == "SeatBots")
        or (isinstance(n, ast.ImportFrom) and n.module == "companion.match"))]
    assert uses == [], f"bots.py lines {uses} use the simulator outside TableBots"


def test_rules_draw_no_chance_of_their_own():
    source = (FOLDER / "rules.py").read_text()
    tree = ast.parse(source)
    calls = {node.func.attr for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and isinstance(node.func.value, ast.Name) and node.func.value.id == "random"}
    assert calls == set()  # only the rng handed to sample_chance draws
