"""`[camera] source = "synthetic"` can be played: the rendered tray holds a still roll that
changes only when the table expects a new one, so a person plays with the keys."""

from __future__ import annotations

from companion import heap, titles
from companion.content import demo_pack
from companion.daemon import open_camera
from companion.journal import Journal
from companion.session import Session
from companion.table import Table
from companion.titles.api import CHANCE
from companion.vision.reader import DiceReader
from companion.vision.settle import Settler, SettleWatcher
from companion.vision.sources import SyntheticSource


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def playable_table(seed: int = 3):
    journal = Journal(":memory:")
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    camera = SyntheticSource(titles.get("outatime").facts.dice, seed=seed, follow=True)
    clock = Clock()

    def readers(dice):
        return SettleWatcher(DiceReader(dice), Settler(emit_empty=True))

    table = Table(session, camera=camera, readers=readers, dwell_s=0.0, clock=clock)
    table.boot()
    return journal, session, camera, table, clock


def run(table, clock, frames: int) -> None:
    for _ in range(frames):
        clock.now += 0.15
        table.step()


def press(table, clock, name: str) -> None:
    table._safely(table.session.press, name)
    run(table, clock, 1)


def rolling(session) -> bool:
    return session.match.state.phase == "roll" and session.match.actor() == CHANCE


def test_the_synthetic_tray_lies_still_until_a_roll_is_expected_then_rolls_once():
    journal, session, camera, table, clock = playable_table()
    run(table, clock, 20)
    assert camera.truth == [] and session.match is None  # the players menu: an empty tray
    press(table, clock, "confirm")  # two players
    while not rolling(session):  # every card and choice from the menus
        press(table, clock, "confirm")
    run(table, clock, 30)
    assert len(camera.truth) == 6
    prompt = session.prompt()
    assert prompt.kind == "propose" or session.unknown is not None
    first = list(camera.truth)
    run(table, clock, 40)  # nothing moves: no new roll, no new reading
    assert camera.truth == first
    readings = table.readings
    run(table, clock, 40)
    assert table.readings == readings
    journal.close()


def test_the_face_picker_is_not_interrupted_by_the_synthetic_camera():
    journal, session, camera, table, clock = playable_table()
    press(table, clock, "confirm")
    while not rolling(session):
        press(table, clock, "confirm")
    run(table, clock, 30)
    press(table, clock, "menu")  # enter the roll by hand: the face picker
    assert session.prompt().title == "DIE 1: WHICH FACE?"
    press(table, clock, "next")
    updates = len(table.updates)
    run(table, clock, 80)  # ten seconds of frames
    prompt = session.prompt()
    assert prompt.title == "DIE 1: WHICH FACE?" and prompt.selected == 1
    assert len(table.updates) == updates  # no reading, no "I see 3 dice" over the picker
    journal.close()


def test_a_few_turns_are_played_with_keys_over_the_synthetic_camera():
    journal, session, camera, table, clock = playable_table(seed=11)
    press(table, clock, "confirm")
    while not rolling(session):
        press(table, clock, "confirm")
    rolls, turns = 0, 0
    for _ in range(400):
        if turns >= 3:
            break
        who = session.match.state.current.name
        if session.unknown is not None:  # a die the reader was unsure of: take a face
            press(table, clock, "confirm")
        elif session.proposal is not None:
            press(table, clock, "confirm")  # the roll the camera read
            rolls += 1
        elif rolling(session):
            run(table, clock, 2)  # the tray rolls by itself; the camera reads it
        elif any(a["type"] == "end" for a in session.match.legal_actions()):
            press(table, clock, "end")
        else:
            press(table, clock, "confirm")  # the first lock, or roll again
        if session.match.state.current.name != who:
            turns += 1
    assert turns >= 3, (rolls, session.prompt())
    assert rolls >= 3  # at least one roll a turn, each read from the tray
    roll_actions = [a for a in journal.actions(session.match.game) if a["type"] == "roll"]
    assert len(roll_actions) == rolls  # every roll recorded came from the tray, confirmed
    journal.close()


def test_the_daemon_opens_a_synthetic_camera_that_follows_the_table(tmp_path):
    from companion import config

    cfg = config.defaults()
    cfg["table"]["title"] = "outatime"
    cfg["camera"]["source"] = "synthetic"
    camera = open_camera(cfg)
    assert camera.follow and camera.read().image is not None and camera.truth == []


def test_the_table_gives_memory_back_once_a_roll_has_settled(monkeypatch):
    given = []
    monkeypatch.setattr(heap, "give_back", lambda: given.append(True) or True)
    journal, session, camera, table, clock = playable_table()
    run(table, clock, 20)
    assert len(given) == 1  # the empty tray settled once
    press(table, clock, "confirm")
    while not rolling(session):
        press(table, clock, "confirm")
    run(table, clock, 30)
    assert len(camera.truth) == 6 and table.readings >= 1
    assert len(given) == 2  # the roll settled: once more, not once a frame
    run(table, clock, 40)  # a still tray is not read, and nothing more is given back
    assert len(given) == 2
    journal.close()
