"""`companion demo --title timeline`: bots play a whole game through the table's own menus, and
the game they leave in the journal replays to the same winner."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.match import replay
from companion.sim import run_demo
from companion.titles.timeline.bench import table_game


def test_demo_plays_a_whole_game_to_the_end(tmp_path, capsys, companion_home):
    path = tmp_path / "night.sqlite3"
    frames = tmp_path / "frames"
    assert main(["demo", "--title", "timeline", "--players", "3", "--seed", "5",
                 "--journal", str(path), "--out", str(frames)]) == 0
    out = capsys.readouterr().out
    assert "demo deck (invented cards, not the printed ones)" in out
    last = next(line for line in out.splitlines() if line.startswith("Game over: "))
    winner = last.removeprefix("Game over: ").split(" wins after ")[0]
    assert winner in ("Marty", "Doc", "Jennifer")
    assert "EMMETT BROWN HANGS A CLOCK!" in out and "WINS! Reality is frozen" in out
    assert len(list(frames.glob("frame_*.png"))) > 100 and (frames / "screens.gif").exists()

    assert main(["journal", "export", "--journal", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == "timeline" and data["setup"]["pack"]["source"] == "demo"
    assert replay(data["setup"], data["actions"]).winner == winner
    # A demo is a simulation: its draws name the card drawn, so the bots know their hands.
    draws = [a for a in data["actions"] if a["type"] == "draw"]
    assert draws and all("card" in a for a in draws)


@pytest.mark.slow
@pytest.mark.parametrize("players,seed", [(2, 1), (6, 2)])
def test_bot_games_at_the_table_end_for_two_to_six_players(players, seed):
    journal = Journal(":memory:")
    try:
        summary = run_demo(journal, players, seed, None, stream=io.StringIO(), title="timeline")
    finally:
        journal.close()
    assert summary["ended"] and summary["winner"]


def test_the_table_bench_counts_presses_of_a_whole_game():
    counted = table_game(2, 3)
    assert counted["winner"] and counted["turns"] > 0
    # Every turn takes at least two CONFIRMs: the draw, and a play or the draw instead.
    assert counted["confirms"] >= 2 * counted["turns"]
    assert counted["presses"] >= counted["confirms"]
