"""Run the firmware's own tests (tests/firmware/mp/mp_test_*.py) under the MicroPython unix port.

Each MicroPython test function shows up here as its own pytest test, so a failure names it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from .conftest import MP_TESTS, run_micropython

MODULES = sorted(MP_TESTS.glob("mp_test_*.py"))


def _names(module: Path) -> list[str]:
    return re.findall(r"^def (test_\w+)\(", module.read_text(), flags=re.M)


CASES = [(m.name, name) for m in MODULES for name in _names(m)]


@cache
def _results(exe: str, module: str) -> tuple[dict[str, str], str]:
    out = run_micropython(exe, MP_TESTS / module)
    results = {}
    for line in out.splitlines():
        m = re.match(r"(PASS|FAIL) (test_\w+)(?::(.*))?$", line)
        if m:
            results[m.group(2)] = m.group(1) if m.group(1) == "PASS" else (m.group(3) or "FAIL")
    return results, out


@pytest.mark.parametrize(("module", "name"), CASES, ids=[f"{m}::{n}" for m, n in CASES])
def test_under_micropython(micropython: str, module: str, name: str) -> None:
    results, out = _results(micropython, module)
    if name not in results:
        pytest.fail(f"{module} did not report {name}; output:\n{out}")
    if results[name] != "PASS":
        pytest.fail(f"{name}: {results[name]}\n{out}")


def test_every_module_has_tests() -> None:
    assert len(MODULES) >= 4
    assert all(_names(m) for m in MODULES)


def test_the_board_runs_the_host_protocol_module(micropython) -> None:
    # One protocol, two runtimes: the Pico gets companion/link/lightproto.py at deploy time.
    out = run_micropython(micropython, MP_TESTS / "mp_where_proto.py")
    assert out.strip().endswith("companion/link/lightproto.py"), out
