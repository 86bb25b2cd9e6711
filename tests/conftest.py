"""Shared fixtures for the engine, journal, content and CLI tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def companion_home(tmp_path, monkeypatch):
    """A private COMPANION_HOME (config and state dirs) for one test."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))
    return home
