"""Back in Time in the simulator: coloured dice rendered into a tray are read back as colour and
face, and a whole bot game is played through the table daemon's own code."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.sim import RenderedTray
from companion.vision.reader import DiceReader

EVERY_DIE = [f"{colour}:{face}" for colour in ("speed", "knowledge", "courage", "love")
             for face in (colour, "wild", "biff")]


def test_the_rendered_tray_shows_the_colours_rolled_and_the_reader_reads_them_back():
    tray = RenderedTray(1985, dice="back_in_time")
    reader = DiceReader("back_in_time")
    for start in range(0, len(EVERY_DIE), 4):  # a wild or a Biff says nothing of its colour
        dice = EVERY_DIE[start:start + 4]
        tray.show(dice)
        while tray.moving:  # the dice tumble, then lie still
            tray.read()
        read = [d.label for d in reader.read(tray.read().image)]
        assert Counter(read) == Counter(dice)


@pytest.mark.slow
def test_the_demo_plays_a_whole_game_with_the_dice_read_from_rendered_frames(tmp_path, capsys):
    path = tmp_path / "demo.sqlite3"
    out = tmp_path / "frames"
    assert main(["demo", "--title", "back_in_time", "--players", "2", "--seed", "2",
                 "--journal", str(path), "--out", str(out), "--live", "off"]) == 0
    text = capsys.readouterr().out
    assert "Back in Time - Ana, Ben - demo deck" in text
    last = next(line for line in text.splitlines() if line.startswith("Game over: "))
    journal = Journal(path)
    actions = journal.actions(1)
    setup = journal.setup(1)
    journal.close()
    assert setup["players"] == ["Ana", "Ben"]  # no seat carries a character's name
    rolls = sum(1 for a in actions if a["type"] == "roll")
    rerolls = sum(1 for a in actions if a["type"] == "reroll")
    assert rolls >= 10 and rerolls >= 1  # this seed rerolls: read beside the kept dice
    # every roll was read by the camera: none nudged, none entered with the buttons
    assert f"the camera read {rolls} rolls and moves (0 nudged after a misread" in last
    assert last.endswith("0 rolls entered with the buttons).")
    assert (out / "screens.gif").exists() and len(list(out.glob("frame_*.png"))) > 300
