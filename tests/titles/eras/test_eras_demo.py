"""`companion demo --title eras`: bot players play a whole game through the table daemon's own
code (session, menus, journal, screens), each holding real cards the companion never sees."""

from __future__ import annotations

import pytest

from companion import cli
from companion.journal import Journal
from companion.titles.eras import bots


@pytest.mark.slow
def test_the_demo_plays_a_whole_game_through_the_table_menus(tmp_path, monkeypatch, capsys):
    made = []

    class Watched(bots.TableBots):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(bots, "TableBots", Watched)
    path = tmp_path / "demo.sqlite3"
    code = cli.main(["demo", "--title", "eras", "--players", "3", "--seed", "7", "--live", "off",
                     "--out", str(tmp_path / "frames"), "--journal", str(path)])
    assert code == 0
    out = capsys.readouterr().out
    assert "demo deck (invented cards, not the printed ones)" in out
    assert "Game over:" in out and "WIN(S) with" in out
    (table,) = made
    assert table.mismatches == []  # the companion's table and the real cards agree throughout
    assert table.pressed > 0
    journal = Journal(path)
    (game,) = journal.games()
    actions = journal.actions(game["id"])
    journal.close()
    assert game["finished"]
    draws = [a for a in actions if a["type"] in ("deal", "draw")]
    assert draws and all("cards" not in a for a in draws)  # counted, never named
    assert all("card" not in a for a in actions if a["type"] in ("ripple", "stolen"))
    ripple = sum(1 for a in actions if a["type"] == "ripple")
    tallies = [a for a in actions if a["type"] == "tally"]
    assert ripple and tallies  # ripple cards laid unnamed are added up at the end
    frames = sorted((tmp_path / "frames").glob("frame_*.png"))
    assert len(frames) > 100 and (tmp_path / "frames" / "screens.gif").exists()
