"""`companion bench engine --title eras` measures and prints numbers (it asserts no speed)."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


@pytest.mark.slow
def test_bench_engine_prints_the_titles_numbers(capsys):
    assert main(["bench", "engine", "--title", "eras", "--seconds", "0.2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["title"] == "eras" and result["games"] >= 1
    assert result["actions_per_s"] > 0
    assert result["replay_actions"] > 0 and result["replay_ms"] > 0
    assert result["bot_game_rounds_median"] >= 1
    assert result["table_game_s"] > 0 and result["table_presses_per_turn"] > 1
