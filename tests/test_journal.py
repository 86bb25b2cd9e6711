"""The journal (append-only SQLite log) and Match (engine + journal): undo, redo, resume."""

from __future__ import annotations

import json
import os
import random
import sqlite3

import pytest

from companion.bots import play
from companion.content import demo_pack
from companion.journal import Journal, JournalError
from companion.match import Match, ReplayError, replay
from companion.titles.api import RuleError
from companion.titles.outatime import rules as outatime
from companion.titles.outatime.bots import bot as outatime_bot

NAMES = ["Ana", "Ben", "Cat", "Dan"]


def seeded_actions(seed: int, players: int = 3) -> list[dict]:
    rng = random.Random(seed)
    state = outatime.new_game(NAMES[:players], {}, demo_pack("outatime"))
    return [action for action, _, _ in play(outatime, state, rng, bot=outatime_bot)]


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def new_match(journal: Journal, players: int = 3) -> Match:
    return Match.new(journal, "outatime", NAMES[:players], {}, demo_pack("outatime"))


# --------------------------------------------------------------------------- Journal


def test_append_returns_increasing_seq_per_game(journal):
    a = journal.new_game("outatime", {"players": ["Ana", "Ben"]})
    b = journal.new_game("outatime", {"players": ["Cat", "Dan"]})
    assert a != b
    assert [journal.append(a, {"type": "end", "n": i}) for i in range(4)] == [1, 2, 3, 4]
    assert journal.append(b, {"type": "roll"}) == 1  # each game numbers its own records
    assert journal.append(a, {"type": "reroll"}) == 5
    assert journal.actions(a) == [{"type": "end", "n": i} for i in range(4)] + [{"type": "reroll"}]
    assert journal.actions(b) == [{"type": "roll"}]


def test_undo_redo_and_new_action_clears_redo(journal):
    g = journal.new_game("outatime", {})
    for i in range(1, 4):
        journal.append(g, {"n": i})
    assert journal.undo(g) == {"n": 3}
    assert journal.undo(g) == {"n": 2}
    assert journal.actions(g) == [{"n": 1}]
    assert journal.redo(g) == {"n": 2}
    assert journal.actions(g) == [{"n": 1}, {"n": 2}]
    # a new action ends the redo history: {"n": 3} is gone for good
    assert journal.append(g, {"n": 4}) == 7  # 3 actions, 2 undos, 1 redo before it
    assert journal.redo(g) is None
    assert journal.actions(g) == [{"n": 1}, {"n": 2}, {"n": 4}]
    # undo everything, then once more: nothing to undo, and nothing recorded for it
    for expected in ({"n": 4}, {"n": 2}, {"n": 1}):
        assert journal.undo(g) == expected
    before = len(journal.records(g))
    assert journal.undo(g) is None
    assert len(journal.records(g)) == before
    assert journal.actions(g) == []
    # nothing is ever deleted: every record is still there, in order
    kinds = [r["kind"] for r in journal.records(g)]
    assert kinds == ["action"] * 3 + ["undo", "undo", "redo", "action"] + ["undo"] * 3
    assert [r["seq"] for r in journal.records(g)] == list(range(1, 11))


def test_redo_with_nothing_undone_records_nothing(journal):
    g = journal.new_game("outatime", {})
    journal.append(g, {"n": 1})
    assert journal.redo(g) is None
    assert [r["kind"] for r in journal.records(g)] == ["action"]


def test_export_is_json_with_setup_records_and_actions(journal):
    setup = {"title": "outatime", "players": ["Ana", "Ben"], "options": {}}
    g = journal.new_game("outatime", setup)
    journal.append(g, {"type": "a"})
    journal.append(g, {"type": "b"})
    journal.undo(g)
    data = json.loads(json.dumps(journal.export(g)))  # JSON-ready, and survives a round trip
    assert data["game"] == g
    assert data["title"] == "outatime"
    assert data["setup"] == setup
    assert [(r["seq"], r["kind"], r["action"]) for r in data["records"]] == [
        (1, "action", {"type": "a"}),
        (2, "action", {"type": "b"}),
        (3, "undo", None),
    ]
    assert all(isinstance(r["at"], float) for r in data["records"])
    assert data["actions"] == [{"type": "a"}]


def test_unknown_game_is_a_journal_error(journal):
    with pytest.raises(JournalError, match="no game 42"):
        journal.export(42)


def test_unfinished_finish_and_reopen(journal):
    assert journal.unfinished() is None
    a = journal.new_game("outatime", {})
    b = journal.new_game("outatime", {})
    assert journal.unfinished() == b  # the latest unfinished game
    journal.finish(b)
    assert journal.unfinished() == a
    journal.finish(a)
    assert journal.unfinished() is None
    assert all(g["finished"] for g in journal.games())
    journal.finish(a, False)  # reopened
    assert journal.unfinished() == a
    journal.finish(b, False)
    assert journal.unfinished() == b
    assert [g["id"] for g in journal.games()] == [a, b]


def test_records_survive_close_and_reopen(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    g = j.new_game("outatime", {"x": 1})
    j.append(g, {"n": 1})
    j.append(g, {"n": 2})
    j.undo(g)
    j.close()
    j = Journal(path)
    assert j.setup(g) == {"x": 1}
    assert j.actions(g) == [{"n": 1}]
    assert j.redo(g) == {"n": 2}
    j.close()


@pytest.mark.parametrize("size", [16, 4096])
def test_corrupt_journal_file_names_the_file_and_the_fix(tmp_path, size):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(random.Random(size).randbytes(size))
    with pytest.raises(JournalError) as info:
        Journal(path).games()
    message = str(info.value)
    assert str(path) in message
    assert "Move the file aside" in message


def test_journal_file_is_wal_with_full_sync(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    assert j.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    j.close()


# --------------------------------------------------------------------------- Match


def test_match_push_records_and_refuses_illegal_actions(journal):
    match = new_match(journal)
    with pytest.raises(RuleError):
        match.push({"type": "end"})  # nobody has been dealt cards yet
    assert journal.actions(match.game) == []  # a refused action is never recorded
    actions = seeded_actions(3)[:20]
    for action in actions:
        match.push(action)
    assert journal.actions(match.game) == actions
    assert outatime.to_json(match.state) == outatime.to_json(_engine_replay(actions))


def _engine_replay(actions, players=3):
    state = outatime.new_game(NAMES[:players], {}, demo_pack("outatime"))
    for action in actions:
        state, _ = outatime.apply(state, action)
    return state


def test_resume_rebuilds_the_same_state_as_replay(tmp_path):
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    match = new_match(journal)
    actions = seeded_actions(11)
    for action in actions[:57]:
        match.push(action)
    match.undo()
    match.undo()
    match.redo()
    expected = match.to_json()
    game = match.game
    journal.close()

    journal = Journal(path)
    resumed = Match.resume(journal)
    assert resumed is not None and resumed.game == game
    assert resumed.to_json() == expected
    assert journal.actions(game) == actions[:56]
    assert outatime.to_json(replay(journal.setup(game), journal.actions(game))) == expected
    assert expected == outatime.to_json(_engine_replay(actions[:56]))
    # the resumed match carries on exactly where the first one stopped
    for action in actions[56:]:
        resumed.push(action)
    assert resumed.actor() == "terminal"
    assert journal.unfinished() is None
    assert Match.resume(journal) is None
    journal.close()


def test_resume_picks_the_latest_unfinished_game(journal):
    first = new_match(journal)
    for action in seeded_actions(5)[:10]:
        first.push(action)
    second = new_match(journal, players=2)
    assert Match.resume(journal).game == second.game
    journal.finish(second.game)
    resumed = Match.resume(journal)
    assert resumed.game == first.game
    assert resumed.to_json() == first.to_json()


def test_undo_of_the_winning_action_reopens_the_game(journal):
    match = new_match(journal)
    actions = seeded_actions(21)
    for action in actions:
        match.push(action)
    assert match.actor() == "terminal"
    winner = outatime.winners(match.state)
    assert len(winner) == 1
    assert journal.unfinished() is None

    assert match.undo() == actions[-1]
    assert match.actor() != "terminal"
    assert outatime.winners(match.state) == []
    assert journal.unfinished() == match.game
    assert match.to_json() == outatime.to_json(_engine_replay(actions[:-1]))

    assert match.redo() == actions[-1]
    assert match.actor() == "terminal"
    assert outatime.winners(match.state) == winner
    assert journal.unfinished() is None

    # undo, then win again with a different (new) action history: still finished
    match.undo()
    match.push(actions[-1])
    assert journal.unfinished() is None
    assert journal.redo(match.game) is None


def test_undo_and_redo_with_nothing_to_take_back(journal):
    match = new_match(journal)
    assert match.undo() is None
    assert match.redo() is None
    assert journal.records(match.game) == []


def test_bad_setup_writes_nothing(journal):
    with pytest.raises(RuleError):
        Match.new(journal, "outatime", ["Solo"], {}, demo_pack("outatime"))
    assert journal.games() == []


def test_replay_error_names_the_refused_action():
    actions = seeded_actions(2)[:12]
    setup = {
        "title": "outatime",
        "players": NAMES[:3],
        "options": {},
        "cards": list(demo_pack("outatime").cards),
    }
    bad = actions[:7] + [{"type": "doubleback"}] + actions[7:]
    with pytest.raises(ReplayError) as info:
        replay(setup, bad)
    assert info.value.index == 7
    assert str(info.value).startswith("action 8 ")


def test_journal_in_memory_and_files_do_not_leak_between_paths(tmp_path):
    a = Journal(tmp_path / "a.sqlite3")
    b = Journal(tmp_path / "b.sqlite3")
    a.new_game("outatime", {})
    assert b.games() == []
    a.close()
    b.close()
    assert os.path.exists(tmp_path / "a.sqlite3")
    con = sqlite3.connect(tmp_path / "a.sqlite3")
    assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    con.close()


def test_resume_after_a_crash_between_the_winning_action_and_the_finish_mark(tmp_path):
    """Match.push records the action, then marks the game finished: a kill can fall between."""
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    older = new_match(journal, players=2)
    older.push(seeded_actions(8, players=2)[0])
    match = new_match(journal)
    actions = seeded_actions(21)
    for action in actions[:-1]:
        match.push(action)
    journal.append(match.game, actions[-1])  # recorded, but the process died before finish()
    journal.close()

    journal = Journal(path)
    assert journal.unfinished() == match.game
    resumed = Match.resume(journal)
    # the finished game is marked so and skipped; the older open game is the one resumed
    assert resumed is not None and resumed.game == older.game
    assert resumed.to_json() == older.to_json()
    assert [g["finished"] is not None for g in journal.games()] == [False, True]
    journal.finish(older.game)
    assert Match.resume(journal) is None
    journal.close()


def test_a_journal_written_before_titles_became_plug_ins_opens_and_resumes(tmp_path):
    """tests/data/journal-before-titles.sqlite3 was written by the version whose OUTATIME engine
    lived in companion/games/: one finished game, one unfinished (with an undo and a redo)."""
    import json
    import shutil
    from pathlib import Path

    from companion.content import demo_pack
    from companion.session import Session

    data = Path(__file__).parent / "data"
    path = tmp_path / "journal.sqlite3"
    shutil.copy(data / "journal-before-titles.sqlite3", path)
    expected = json.loads((data / "journal-before-titles.expected.json").read_text())
    journal = Journal(path)
    assert Match(journal, 1).state.winner == expected["finished_winner"]
    session = Session(journal, ["Ana", "Ben", "Cy"], demo_pack, title="outatime")
    assert session.match is not None and session.match.game == 2
    assert json.loads(json.dumps(session.match.to_json())) == expected["unfinished_state"]
    assert json.loads(json.dumps(session.match.view())) == expected["unfinished_view"]
    assert session.prompt().kind == "roll"
    journal.close()
