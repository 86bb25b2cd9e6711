"""Shared fixtures for the engine, journal, content and CLI tests."""

from __future__ import annotations

import os
import sys

import pytest

# The suite runs two workers on two cores: threads of the numerical libraries (and of the
# commands the tests start) would only fight over them. Set before numpy or OpenCV load.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "OPENCV_FOR_THREADS_NUM"):
    os.environ.setdefault(_var, "1")
# The suite starts Python dozens of times (the commands as a user runs them): keep compiled
# modules even where the machine turns that cache off.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


@pytest.fixture
def companion_home(tmp_path, monkeypatch):
    """A private COMPANION_HOME (config and state dirs) for one test."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))
    return home


def pytest_collection_modifyitems(config, items):
    """The long tests (marked ``slow``) first, in their usual order. Two workers take the
    list in halves and steal each other's last tests: with the long ones at the front, the run
    ends on short tests on both workers, not one long test on one while the other waits."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
