"""A damaged SD card: no confirmed action changes unnoticed.

The journal's records are damaged the way a failing card damages them: single bits flipped
inside the bytes SQLite stored (found with the file format, ``companion.journal_drill``), or a
row lost. Every reader must then give what was confirmed or say clearly what is damaged,
never something else in silence and never a traceback.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import (
    Journal,
    JournalDamaged,
    JournalError,
    default_backup,
    record_sum,
    write_backup,
)
from companion.journal_drill import drill, flip, record_cells, record_night, settle
from companion.match import Match, damage_choice, replay

DATA = Path(__file__).parent / "data"
UNFINISHED = 2  # record_night: game 1 finished, game 2 left after 40 actions (with undo/redo)


@pytest.fixture(autouse=True)
def quiet_logs(caplog):
    caplog.set_level(logging.CRITICAL, logger="companion")


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("night") / "journal.sqlite3"
    record_night(path, seed=1985)
    settle(path)
    return path


@pytest.fixture
def copy(night, tmp_path) -> Path:
    path = tmp_path / "journal.sqlite3"
    shutil.copy2(night, path)
    return path


def damage(path: Path, game: int, seq: int, column: str, at: int = 0, bit: int = 0) -> None:
    """Flip one bit of one column of one record, in the file."""
    settle(path)
    cell = next(c for c in record_cells(path)
                if c.values["game"] == game and c.values["seq"] == seq)
    start, end = cell.columns[column]
    flip(path, start + at % (end - start), bit)


def export(path: Path, game: int, *extra: str):
    return main(["journal", "export", "--journal", str(path), "--game", str(game), *extra])


def truth(path: Path) -> tuple[dict[int, list[dict]], dict[int, dict]]:
    journal = Journal(path)
    try:
        games = [g["id"] for g in journal.games()]
        return ({g: journal.records(g) for g in games}, {g: journal.setup(g) for g in games})
    finally:
        journal.close()


# --------------------------------------------------------------------------- the drills


def test_random_flips_in_recorded_actions_are_harmless_or_detected_never_silent(night,
                                                                               tmp_path):
    """Seeded single-bit flips anywhere in a record's bytes (numbers, text, checksums, SQLite's
    own cell header): every export equals what was confirmed or refuses naming game and action;
    resume gives the confirmed state or, when refused, goes on from the last good action."""
    result = drill(night, tmp_path / "work", 40, seed=22, where="cell")
    assert result["silent"] == 0, result["examples"]
    assert result["traceback"] == 0, result["examples"]
    assert result["harmless"] + result["detected"] == 40
    assert result["detected"] >= 15  # most flips change something a reader sees
    assert result["went_on_from_last_good"] >= 3  # damage in the unfinished game, gone on
    hit = result["fields_hit"]
    assert hit.get("action", 0) and hit.get("sum", 0)


def test_every_flip_in_an_action_text_is_detected(night, tmp_path):
    result = drill(night, tmp_path / "work", 20, seed=7, where="action")
    assert result["detected"] == 20, result["examples"]
    assert result["silent"] == result["traceback"] == 0


def test_with_a_backup_beside_it_every_flipped_record_comes_back(night, tmp_path):
    backup = tmp_path / "backup.sqlite3"
    assert not write_backup(night, backup).skipped
    result = drill(night, tmp_path / "work", 20, seed=5, where="cell", backup=backup)
    assert result["harmless"] == 20, result["examples"]
    assert result["restored_from_backup"] >= 8


# --------------------------------------------------------------------------- what each reader says


def test_export_refuses_a_damaged_action_naming_game_action_and_what_it_reads(copy, capsys):
    records, _setups = truth(copy)
    damage(copy, UNFINISHED, 12, "action", at=3, bit=1)
    assert export(copy, UNFINISHED) == 2
    err = capsys.readouterr().err
    assert f"game {UNFINISHED} (outatime) is damaged at action 12 of 46" in err
    assert "Actions 1 to 11 are intact" in err and "no backup" in err
    assert "Traceback" not in err
    # --mark: what is proven, the damage marked, and a non-zero exit
    assert export(copy, UNFINISHED, "--mark") == 1
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert [r["seq"] for r in data["records"][:-1]] == list(range(1, 12))
    assert data["records"][-1]["seq"] == 12 and "not what was written" in data["records"][-1][
        "damaged"]
    assert data["records"][:-1] == records[UNFINISHED][:11]
    assert data["damaged"]["after"] == {"intact": 34, "records": 34}
    # the finished game is untouched and still exports
    assert export(copy, 1) == 0
    assert json.loads(capsys.readouterr().out)["records"] == records[1]


def test_list_and_check_report_the_damage_and_exit_non_zero(copy, capsys):
    damage(copy, 1, 30, "kind", bit=2)
    assert main(["journal", "list", "--journal", str(copy)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "DAMAGED at action 30" in out[0] and "DAMAGED" not in out[1]
    assert main(["journal", "check", "--journal", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "game 1 (outatime) is damaged at action 30 of 97" in out
    assert f"game {UNFINISHED}: 46 actions, every checksum holds" in out


def test_a_damaged_checksum_is_proven_harmless_by_the_next_link(copy, capsys):
    records, _ = truth(copy)
    damage(copy, UNFINISHED, 20, "sum", at=5, bit=3)
    assert export(copy, UNFINISHED) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["records"] == records[UNFINISHED]
    assert "damaged at action 20 of 46: its checksum is damaged; the action itself is intact" \
        in out.err


@pytest.mark.parametrize("seq", [20, 46])  # the last one is proven by the head's seal
def test_a_damaged_stamp_leaves_the_time_proven(copy, capsys, seq):
    records, _ = truth(copy)
    damage(copy, UNFINISHED, seq, "stamp", at=2, bit=6)
    assert export(copy, UNFINISHED) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["records"] == records[UNFINISHED]
    assert "time's checksum is damaged; the time itself is intact" in out.err


def test_a_damaged_time_costs_no_action_and_is_repaired_with_a_note(copy, capsys):
    records, _ = truth(copy)
    damage(copy, UNFINISHED, 20, "at", at=4, bit=0)
    assert export(copy, UNFINISHED) == 2
    assert "damaged at action 20 of 46: its time is damaged; the action itself is intact" in (
        capsys.readouterr().err)
    journal = Journal(copy)
    assert journal.actions(UNFINISHED) == stacks_of(records[UNFINISHED])  # play is unharmed
    match = Match.resume(journal)  # rebuilds: the time of 20 estimated, and noted
    assert match.game == UNFINISHED
    assert journal.check(UNFINISHED).ok
    rebuilt = journal.records(UNFINISHED)
    assert rebuilt[19]["at"] == records[UNFINISHED][18]["at"]
    assert [r["action"] for r in rebuilt] == [r["action"] for r in records[UNFINISHED]]
    assert any(note.get("times") == [20] for note in journal.notes(UNFINISHED))
    journal.close()


def stacks_of(records: list[dict]) -> list[dict]:
    done: list[dict] = []
    undone: list[dict] = []
    for r in records:
        if r["kind"] == "action":
            done.append(r["action"])
            undone.clear()
        elif r["kind"] == "undo" and done:
            undone.append(done.pop())
        elif r["kind"] == "redo" and undone:
            done.append(undone.pop())
    return done


def test_a_lost_last_record_is_noticed_by_the_head(copy):
    con = sqlite3.connect(copy)
    con.execute("DELETE FROM records WHERE game = ? AND seq = 46", (UNFINISHED,))
    con.commit()
    con.close()
    journal = Journal(copy)
    check = journal.check(UNFINISHED)
    assert check.damage is not None and check.damage.seq == 46 and check.good == 45
    assert "end mark says 46 actions" in check.message()
    with pytest.raises(JournalDamaged):
        journal.actions(UNFINISHED)
    journal.close()


def test_a_damaged_head_row_is_harmless_and_appends_build_on_the_proven_chain(copy):
    con = sqlite3.connect(copy)
    con.execute("UPDATE heads SET seq = 99 WHERE game = ?", (UNFINISHED,))
    con.commit()
    con.close()
    journal = Journal(copy)
    check = journal.check(UNFINISHED)
    assert check.damage is None and [p.what for p in check.problems] == ["head"]
    match = Match(journal, UNFINISHED)
    match.push(next_action(match))
    assert journal.check(UNFINISHED).ok  # the new record chained on the proven sum
    assert len(journal.records(UNFINISHED)) == 47
    journal.close()


def next_action(match: Match) -> dict:
    import random

    from companion.titles.outatime.bots import bot as outatime_bot

    rng = random.Random(3)
    if match.actor() == "chance":
        return match.engine.sample_chance(match.state, rng)
    return outatime_bot(match.engine, match.state, rng)


def test_a_damaged_setup_cannot_go_on_only_start_anew(copy):
    settle(copy)
    cell = next(c for c in record_cells(copy, "games") if c.rowid == UNFINISHED)
    flip(copy, cell.columns["setup"][0] + 40, 2)  # inside the players and cards
    journal = Journal(copy)
    with pytest.raises(JournalDamaged) as info:
        Match.resume(journal)
    check = info.value.check
    assert check.damage.seq == 0 and check.setup is None
    assert "damaged in its own row" in check.message() and "cannot be replayed" in check.message()
    offer = damage_choice(journal, check)
    assert offer.labels == ["START A NEW GAME"]
    offer.choices[0]()
    assert Match.resume(journal) is None  # closed: never resumed again
    assert UNFINISHED in journal.closed()
    journal.close()


# --------------------------------------------------------------------------- going on


def test_a_damaged_unfinished_game_goes_on_from_its_last_good_action(copy):
    records, setups = truth(copy)
    before = copy.read_bytes()
    damage(copy, UNFINISHED, 31, "action", at=8, bit=4)
    damaged_bytes = copy.read_bytes()
    assert damaged_bytes != before
    journal = Journal(copy)
    with pytest.raises(JournalDamaged) as info:
        Match.resume(journal)
    check = info.value.check
    assert (check.game, check.damage.seq, check.good) == (UNFINISHED, 31, 30)
    match = Match.go_on(journal, check)
    expected = replay(setups[UNFINISHED], stacks_of(records[UNFINISHED][:30]))
    assert match.to_json() == match.engine.to_json(expected)
    assert journal.records(UNFINISHED) == records[UNFINISHED][:30]
    assert journal.records(1) == records[1]  # the other game is whole
    journal.close()
    # the damaged file is kept aside, byte for byte; nothing was deleted
    aside = [p for p in copy.parent.iterdir() if ".damaged-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged_bytes
    # and the next start simply resumes (no question asked again, no restart loop)
    journal = Journal(copy)
    again = Match.resume(journal)
    assert again.game == UNFINISHED and again.to_json() == match.to_json()
    assert any(n.get("kept") == 30 and n.get("damaged_at") == 31
               for n in journal.notes(UNFINISHED))
    journal.close()


def test_the_backup_puts_back_a_damaged_record_when_the_chain_proves_it(copy, capsys):
    records, _ = truth(copy)
    assert not write_backup(copy, default_backup(copy)).skipped
    damage(copy, UNFINISHED, 31, "action", at=8, bit=4)
    assert export(copy, UNFINISHED) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["records"] == records[UNFINISHED]
    assert "damaged at action 31 of 46: taken from the backup" in out.err
    assert main(["journal", "repair", "--journal", str(copy)]) == 0
    said = capsys.readouterr().out
    assert "actions 31 restored from the backup" in said and "kept as" in said
    journal = Journal(copy)
    assert journal.check(UNFINISHED).ok and journal.records(UNFINISHED) == records[UNFINISHED]
    journal.close()


def test_a_backup_older_than_the_damage_cannot_restore_it(copy):
    assert not write_backup(copy, default_backup(copy)).skipped  # holds actions 1 to 46
    journal = Journal(copy)
    for _ in range(3):
        journal.undo(UNFINISHED)  # actions 47 to 49, recorded after the backup
    journal.close()
    damage(copy, UNFINISHED, 48, "kind", bit=1)
    journal = Journal(copy)
    check = journal.check(UNFINISHED)
    assert (check.damage.seq, check.good) == (48, 47)
    assert "The backup" in check.message() and "does not hold it intact" in check.message()
    journal.close()


# --------------------------------------------------------------------------- the table


def test_the_table_shows_the_damage_and_offers_two_choices(copy):
    from companion.content import demo_pack
    from companion.session import Session

    damage(copy, UNFINISHED, 25, "action", at=2, bit=5)
    session = Session(Journal(copy), ["Ana", "Ben", "Cy"], demo_pack, title="outatime")
    assert session.match is None
    assert session.last_error.startswith("Journal damaged at action 25 of game 2")  # at boot
    assert "Go on from action 24, or start a new game" in session.last_error
    prompt = session.prompt()
    assert prompt.title == "JOURNAL DAMAGED"
    assert prompt.options == ["GO ON FROM 24", "START A NEW GAME"]
    assert session.press("undo").prompt.options == prompt.options  # nothing to undo yet
    update = session.press("confirm")
    assert session.match is not None and session.match.game == UNFINISHED
    assert update.effects == [{"kind": "setup", "text": "GOING ON FROM ACTION 24"}]
    assert len(session.journal.records(UNFINISHED)) == 24
    session.journal.close()


def test_choosing_a_new_game_closes_the_damaged_one_for_good(copy):
    from companion.content import demo_pack
    from companion.session import Session

    records, _ = truth(copy)
    damage(copy, UNFINISHED, 25, "action", at=2, bit=5)
    session = Session(Journal(copy), ["Ana", "Ben", "Cy"], demo_pack, title="outatime")
    session.press("next")
    session.press("confirm")
    assert session.match is None and session.prompt().title == "OUTATIME: PLAYERS"
    session.journal.close()
    again = Session(Journal(copy), ["Ana", "Ben", "Cy"], demo_pack, title="outatime")
    assert again.match is None and again.last_error is None  # no question, no loop
    assert UNFINISHED in again.journal.closed()
    assert again.journal.records(UNFINISHED) == records[UNFINISHED][:24]  # kept, closed
    again.journal.close()


def test_damage_found_mid_game_by_undo_brings_up_the_same_menu(copy):
    from companion.content import demo_pack
    from companion.session import Session

    session = Session(Journal(copy), ["Ana", "Ben", "Cy"], demo_pack, title="outatime")
    assert session.match is not None
    con = sqlite3.connect(copy)  # the card hands back other bytes while the table runs
    con.execute("UPDATE records SET action = '{\"type\": \"end\"}' WHERE game = ? AND seq = 40",
                (UNFINISHED,))
    con.commit()
    con.close()
    update = session.press("undo")
    assert update.prompt.title == "JOURNAL DAMAGED"
    assert update.prompt.options[0] == "GO ON FROM 39"
    session.journal.close()


def test_companion_run_on_a_damaged_journal_keeps_running_and_logs_it(copy, tmp_path, capsys,
                                                                      monkeypatch, caplog):
    caplog.set_level(logging.ERROR, logger="companion")
    damage(copy, UNFINISHED, 25, "action", at=2, bit=5)
    config = tmp_path / "config.toml"
    config.write_text('[table]\ntitle = "outatime"\npack = "demo"\nplayers = ["Ana", "Ben", '
                      f'"Cy"]\n[camera]\nsource = "none"\n[display]\ndriver = "recorder"\n'
                      f'out = "{tmp_path / "frames"}"\n[buttons]\nbackend = "none"\n'
                      '[lights]\nport = ""\n')
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    for _ in range(2):  # a restart finds the same damage and asks again: no crash, no loop
        assert main(["run", "--config", str(config), "--journal", str(copy),
                     "--seconds", "0.3"]) == 0
    logged = [r.getMessage() for r in caplog.records]
    assert sum("game 2 (outatime) is damaged at action 25 of 46" in m for m in logged) >= 2
    assert (tmp_path / "frames" / "frame_0002.png").exists()


def test_companion_run_on_an_unreadable_file_plays_on_from_the_backup(copy, tmp_path,
                                                                      monkeypatch):
    records, _ = truth(copy)
    assert not write_backup(copy, default_backup(copy)).skipped
    copy.write_bytes(b"not a journal at all" * 100)
    from companion import config as configuration
    from companion.daemon import open_journal

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    journal, notice = open_journal(configuration.defaults(), str(copy))
    assert "could not be read; it is kept as journal.damaged-" in notice
    assert "Playing on from the backup" in notice
    assert journal.records(UNFINISHED) == records[UNFINISHED]
    journal.close()
    aside = next(p for p in copy.parent.iterdir() if ".damaged-" in p.name)
    assert aside.read_bytes().startswith(b"not a journal at all")


def test_doctor_fails_on_a_damaged_journal_naming_game_and_action(copy, tmp_path, capsys,
                                                                  monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    config = tmp_path / "config.toml"
    config.write_text('[table]\npack = "demo"\n[camera]\nsource = "none"\n'
                      '[display]\ndriver = "none"\n'
                      '[buttons]\nbackend = "none"\n[lights]\nport = ""\n')
    assert main(["doctor", "--config", str(config), "--journal", str(copy)]) == 0
    assert "PASS  journal           2 games, every checksum holds" in capsys.readouterr().out
    damage(copy, 1, 50, "action", at=1, bit=0)
    assert main(["doctor", "--config", str(config), "--journal", str(copy)]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if "journal" in x)
    assert line.startswith("FAIL  journal") and "game 1 (outatime) is damaged at action 50" in line
    assert "journal repair" in line


# --------------------------------------------------------------------------- backups


def test_backups_are_written_at_each_game_end_and_at_the_interval(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path, backup_every=0)  # only at game ends
    game = journal.new_game("outatime", {"players": ["Ana", "Ben"]})
    journal.append(game, {"type": "end"})
    journal.wait_for_backup()
    assert not default_backup(path).exists()
    journal.finish(game)
    journal.wait_for_backup()
    assert default_backup(path).exists() and journal.last_backup.written > 0
    journal.close()
    elsewhere = tmp_path / "stick" / "companion.backup.sqlite3"
    journal = Journal(path, backup=elsewhere, backup_every=0.05)
    journal.append(game, {"type": "first"})  # no backup there yet: taken with the first action
    journal.wait_for_backup()
    assert elsewhere.exists()
    con = sqlite3.connect(f"file:{elsewhere}?mode=ro", uri=True)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one whole file
    assert con.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 2
    con.close()
    journal.close()


def test_a_damaged_journal_is_never_copied_over_the_backup(copy):
    backup = default_backup(copy)
    assert not write_backup(copy, backup).skipped
    kept = backup.read_bytes()
    damage(copy, 1, 10, "action", at=3, bit=3)
    result = write_backup(copy, backup)
    assert result.written == 0 and "damaged at action 10" in result.skipped
    assert backup.read_bytes() == kept


def test_the_backup_replaces_only_this_journals_own_backup(copy, tmp_path, capsys):
    """A backup path that names another journal, the journal itself, a file of another kind
    or a device is left as it is, with the reason; this journal's older backup is replaced."""
    backup = default_backup(copy)
    assert not write_backup(copy, backup).skipped
    assert not write_backup(copy, backup).skipped  # its own backup: replaced again
    fresh = tmp_path / "fresh.sqlite3"
    record_night(fresh, seed=7)  # another table's journal, its games started at other times
    settle(fresh)
    notes = tmp_path / "notes.txt"
    notes.write_text("Ana owes Ben a pizza\n")
    other_db = tmp_path / "other.sqlite3"
    sqlite3.connect(other_db).execute("CREATE TABLE scores (n)").connection.close()
    cases = {copy: "holds games this journal does not", backup: "holds games this journal",
             fresh: "is the journal itself", notes: "not a journal backup",
             other_db: "an SQLite file, not a journal backup", tmp_path: "not a file"}
    for target, reason in cases.items():
        before = None if target.is_dir() else target.read_bytes()
        with pytest.raises(JournalError, match=reason):
            write_backup(fresh, target)
        if before is not None:
            assert target.read_bytes() == before
        code = main(["journal", "backup", "--journal", str(fresh), "--backup", str(target)])
        assert code == 2 and reason in capsys.readouterr().err
    assert truth(copy) == truth(backup)  # the night's journal and its backup, whole
    # a backup whose game row no longer checks (a flipped start time) is this journal's own,
    # damaged: the next backup replaces it, as `journal check` promises
    con = sqlite3.connect(backup)
    con.execute("UPDATE games SET created = created + 1e6 WHERE id = 1")
    con.commit()
    con.close()
    assert not write_backup(copy, backup).skipped
    assert truth(copy) == truth(backup)


# --------------------------------------------------------------------------- migration


def test_a_first_version_journal_is_migrated_and_resumes(tmp_path, capsys):
    """tests/data/journal-v1.sql: a journal written by the first version (no checksums),
    dumped with sqlite3's iterdump: one finished 2-player game, one unfinished 3-player game
    with undo and redo."""
    path = tmp_path / "journal.sqlite3"
    con = sqlite3.connect(path)
    con.executescript((DATA / "journal-v1.sql").read_text())
    con.execute("PRAGMA journal_mode=WAL")
    old = {g: [(s, k, json.loads(a) if a else None, t) for s, k, a, t in con.execute(
        "SELECT seq, kind, action, at FROM records WHERE game = ? ORDER BY seq", (g,))]
        for g in (1, 2)}
    setup = json.loads(con.execute("SELECT setup FROM games WHERE id = 2").fetchone()[0])
    assert con.execute("PRAGMA user_version").fetchone()[0] == 0
    con.close()

    journal = Journal(path)
    assert journal.db.execute("PRAGMA user_version").fetchone()[0] == 2
    for g in (1, 2):
        assert [(r["seq"], r["kind"], r["action"], r["at"]) for r in journal.records(g)] == \
            old[g]
        assert journal.check(g).ok and journal.check(g).sealed is not None
    match = Match.resume(journal)
    expected = replay(setup, stacks_of([{"kind": k, "action": a} for _s, k, a, _t in old[2]]))
    assert match.game == 2 and match.to_json() == match.engine.to_json(expected)
    assert "checksums_since" in journal.export(2)
    journal.close()
    # from here on a change is noticed like in any journal
    damage(path, 2, 10, "action", at=2, bit=1)
    assert export(path, 2) == 2
    assert "damaged at action 10 of 43" in capsys.readouterr().err


# --------------------------------------------------------------------------- the file format


def test_the_chain_links_each_record_to_the_one_before(copy):
    """The stored checksums are the chain the docs describe (game, seq, kind, action, prev)."""
    con = sqlite3.connect(copy)
    prev = con.execute("SELECT sum FROM games WHERE id = ?", (UNFINISHED,)).fetchone()[0]
    rows = con.execute("SELECT seq, kind, action, sum FROM records WHERE game = ? ORDER BY seq",
                       (UNFINISHED,)).fetchall()
    con.close()
    for seq, kind, action, stored in rows:
        assert stored == record_sum(prev, UNFINISHED, seq, kind, action)
        prev = stored


def test_rebuild_refuses_while_another_process_holds_the_journal(copy):
    damage(copy, 1, 10, "sum", bit=1)
    other = sqlite3.connect(copy)
    other.execute("SELECT COUNT(*) FROM records").fetchone()
    journal = Journal(copy)
    with pytest.raises(JournalError, match="open in another process"):
        journal.rebuild()
    other.close()
    assert not journal.check(1).ok  # nothing changed
    journal.close()


def test_bench_journal_prints_its_numbers_as_one_json_line(capsys):
    assert main(["bench", "journal", "--quick", "--flips", "4", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["append_ms"]["median"] > 0 and result["resume_ms"] > 0
    assert result["backup_bytes"] > 0 and result["backup_writes_per_hour_mb"] > 0
    assert [(d["where"], d["backup"]) for d in result["drills"]] == [
        ("cell", False), ("action", False), ("cell", True)]
    assert all(d["silent"] == d["traceback"] == 0 and d["flips"] == 4 for d in result["drills"])


def test_bench_journal_on_a_journal_without_actions_names_the_given_journal(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite3"
    Journal(empty).close()
    assert main(["bench", "journal", "--quick", "--flips", "1", "--json",
                 "--journal", str(empty)]) == 2
    err = capsys.readouterr().err
    assert f"{empty}: no recorded action to damage" in err  # not the bench's own copy
    assert "given.sqlite3" not in err


def test_every_bit_of_the_last_actions_cell_header_is_caught_at_resume(night, tmp_path):
    """SQLite's own bytes of the unfinished game's last action (payload size, row id, column
    types): each flip gives the confirmed game back, or the damage menu's check, never an
    error the table cannot offer a choice for."""
    cell = next(c for c in record_cells(night)
                if c.values["game"] == UNFINISHED and c.values["seq"] == 46)
    header_end = min(start for start, _end in cell.columns.values())
    records, _ = truth(night)
    outcomes = []
    for offset in range(cell.start, header_end):
        for bit in range(8):
            path = tmp_path / f"{offset}-{bit}" / "journal.sqlite3"
            path.parent.mkdir()
            shutil.copy2(night, path)
            flip(path, offset, bit)
            journal = Journal(path)
            try:
                match = Match.resume(journal)
                assert match.game == UNFINISHED
                now = journal.records(UNFINISHED)
                assert [r["action"] for r in now] == [r["action"] for r in records[UNFINISHED]]
                if now[-1]["at"] != records[UNFINISHED][-1]["at"]:  # its time was hit: noted
                    assert any(n.get("times") == [46] for n in journal.notes(UNFINISHED))
                outcomes.append("intact")
            except JournalDamaged as exc:
                assert exc.check.game == UNFINISHED and exc.check.damage.seq <= 46
                outcomes.append("damaged")
            finally:
                journal.close()
    assert len(outcomes) >= 8 * 4 and "damaged" in outcomes


def _alter(path: Path, statement: str) -> None:
    """One SQL statement on the journal file, as another program (or damage) would."""
    db = sqlite3.connect(path)
    db.execute(statement)
    db.commit()
    db.close()


def _drop_the_list_of_games(path: Path) -> None:
    _alter(path, "DROP TABLE games")


def test_a_lost_list_of_games_is_rebuilt_from_the_backup_and_the_actions(copy, capsys):
    journal = Journal(copy)
    before = {g: journal.export(g) for g in (1, UNFINISHED)}
    journal.close()
    write_backup(copy, default_backup(copy))
    _drop_the_list_of_games(copy)

    # every reader says so, and the check still walks the games the actions name
    assert main(["journal", "check", "--journal", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "the list of games cannot be read" in out and "journal repair" in out
    assert "game 1 (outatime)" in out and f"game {UNFINISHED} (outatime)" in out
    # a new game cannot be recorded into it: said as damage, nothing written
    journal = Journal(copy)
    with pytest.raises(JournalError, match="the file is damaged"):
        journal.new_game("outatime", {"players": ["Ana", "Ben"]})
    journal.close()

    assert main(["journal", "repair", "--journal", str(copy)]) == 0
    assert "kept as" in capsys.readouterr().out
    journal = Journal(copy)
    assert [g["id"] for g in journal.games()] == [1, UNFINISHED]
    after = {g: journal.export(g) for g in (1, UNFINISHED)}
    journal.close()
    for g in before:
        assert after[g]["setup"] == before[g]["setup"]
        assert after[g]["actions"] == before[g]["actions"]
    assert len(list(copy.parent.glob("journal.damaged-*.sqlite3"))) == 1


def test_a_lost_list_of_games_without_a_backup_keeps_the_file_aside(copy, capsys):
    _drop_the_list_of_games(copy)
    assert main(["journal", "repair", "--journal", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "setup damaged: the game is in journal.damaged-" in out  # said per game, not lost
    aside = next(copy.parent.glob("journal.damaged-*.sqlite3"))
    db = sqlite3.connect(aside)
    assert db.execute("SELECT COUNT(*) FROM records").fetchone()[0] > 40  # every action kept
    db.close()


@pytest.mark.parametrize("version", [0, 1, -1])
def test_a_damaged_version_number_never_seals_damage_anew(copy, version, caplog):
    """A checksummed journal whose header number reads as an older version: the checksums
    it has are checked, not given again over whatever else changed."""
    caplog.set_level(logging.ERROR, logger="companion")
    damage(copy, UNFINISHED, 5, "action", at=2, bit=1)
    _alter(copy, f"PRAGMA user_version = {version}")
    journal = Journal(copy)
    assert journal.db.execute("PRAGMA user_version").fetchone()[0] == 2
    check = journal.check(UNFINISHED)
    assert check.damage is not None and check.damage.seq == 5  # still seen
    journal.close()
    assert "but it has version 2's checksums" in caplog.text


def test_a_journal_of_a_newer_version_waits_at_the_table_and_is_never_set_aside(copy):
    from companion.config import defaults
    from companion.daemon import open_journal
    from companion.journal import JournalWriteError

    _alter(copy, "PRAGMA user_version = 3")
    cfg = defaults()
    with pytest.raises(JournalWriteError, match="newer version of the companion") as caught:
        open_journal(cfg, str(copy))
    assert caught.value.kind == "newer"
    assert not list(copy.parent.glob("*.damaged-*"))  # nothing set aside
    db = sqlite3.connect(copy)
    assert db.execute("SELECT COUNT(*) FROM records").fetchone()[0] > 40
    db.close()


@pytest.mark.parametrize("how", ["DROP TABLE heads", "ALTER TABLE heads DROP COLUMN seal"])
def test_a_damaged_heads_table_at_start_offers_the_damage_choices(copy, how):
    """Not "the list of games cannot be read" over a new game's menu: the unfinished game
    is found, checked, and the table offers to go on from its last intact action."""
    _alter(copy, how)
    journal = Journal(copy)
    assert journal.unfinished() == UNFINISHED
    with pytest.raises(JournalDamaged) as caught:
        Match.resume(journal)
    assert caught.value.check.game == UNFINISHED and caught.value.check.good == 46
    journal.close()


def test_a_repair_note_that_is_not_an_object_is_ignored_not_a_crash(copy, capsys):
    """A note with a valid sum but not a JSON object (written by hand or another program)."""
    from companion.journal import note_sum

    db = sqlite3.connect(copy)
    for text in ("[1]", "7", '"x"', "null"):
        db.execute("INSERT INTO repairs (game, at, note, sum) VALUES (?, ?, ?, ?)",
                   (UNFINISHED, 5.0, text, note_sum(UNFINISHED, 5.0, text)))
    db.commit()
    db.close()
    journal = Journal(copy)
    assert journal.notes(UNFINISHED) == [] and journal.unfinished() == UNFINISHED
    assert Match.resume(journal).game == UNFINISHED
    journal.close()
    assert main(["journal", "list", "--journal", str(copy)]) == 0
    assert main(["journal", "export", "--journal", str(copy), "--game", str(UNFINISHED)]) == 0


def test_a_damaged_index_of_the_records_loses_no_intact_action(copy):
    """A page of SQLite's index over the records zeroed (one bad sector): the records are
    read past it from the table itself; every action is still proven."""
    db = sqlite3.connect(copy)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = "
                      "'sqlite_autoindex_records_1'").fetchone()[0]
    db.close()
    records, _ = truth(copy)
    with open(copy, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(bytes(page_size))
    journal = Journal(copy)
    check = journal.check(UNFINISHED)
    assert check.damage is None and check.good == len(records[UNFINISHED])
    assert [r["action"] for r in journal.records(UNFINISHED)] == [
        r["action"] for r in records[UNFINISHED]]
    journal.close()


def test_a_records_column_gone_keeps_every_action(copy):
    """The time stamps' column dropped: the actions are proven by their chain; only their
    times are unproven, and said so."""
    records, _ = truth(copy)
    _alter(copy, "ALTER TABLE records DROP COLUMN stamp")
    journal = Journal(copy)
    check = journal.check(UNFINISHED)
    assert check.damage is None and check.good == len(records[UNFINISHED])
    assert "time" in {p.what for p in check.problems}  # said, and nothing lost
    journal.close()


def test_a_game_whose_row_left_the_list_of_games_is_found_by_its_actions(copy, capsys):
    """The games' rows deleted (the list is readable, but empty): every reader still finds
    the games by their actions, says they are damaged, and repair takes the rows back from
    the backup. Recording onto such a game is refused as damage, never a crash."""
    journal = Journal(copy)
    before = {g: journal.export(g)["actions"] for g in (1, UNFINISHED)}
    journal.close()
    write_backup(copy, default_backup(copy))
    _alter(copy, "DELETE FROM games")
    assert main(["journal", "list", "--journal", str(copy)]) == 1
    out = capsys.readouterr().out
    assert out.count(" ? ") == 2 and "damage found" in out
    assert main(["journal", "check", "--journal", str(copy)]) == 1
    assert "game 1 (outatime) is damaged in its own row" in capsys.readouterr().out
    journal = Journal(copy)
    with pytest.raises(JournalDamaged):
        journal.append(UNFINISHED, {"type": "end"})
    with pytest.raises(JournalError, match="the file is damaged"):
        journal.new_game("outatime", {"players": ["Ana", "Ben"]})
    journal.close()
    assert main(["journal", "repair", "--journal", str(copy)]) == 0
    capsys.readouterr()
    journal = Journal(copy)
    assert {g: journal.export(g)["actions"] for g in (1, UNFINISHED)} == before
    journal.close()


def test_an_emptied_journal_whose_backup_holds_its_games_fails_the_check(copy, capsys):
    """The file emptied (or its write-ahead log lost) after a backup: the backup is never
    written over, so check and doctor must say so, with the way back."""
    write_backup(copy, default_backup(copy))
    copy.write_bytes(b"")
    for leftover in copy.parent.glob("journal.sqlite3-*"):
        leftover.unlink()
    assert main(["journal", "check", "--journal", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "backup: NOT WRITTEN" in out and "holds games this journal does not" in out
    assert "copy the backup over the journal" in out


@pytest.mark.parametrize("how", ["ALTER TABLE games DROP COLUMN finished",
                                 "ALTER TABLE records DROP COLUMN stamp", "DROP TABLE repairs"])
def test_no_new_game_is_written_into_a_file_missing_a_table_or_column(copy, how, capsys):
    _alter(copy, how)
    journal = Journal(copy)
    for _press in range(3):  # each press at the table tries again: nothing is written
        with pytest.raises(JournalError, match="the file is damaged"):
            journal.new_game("outatime", {"players": ["Ana", "Ben"]})
    journal.close()
    db = sqlite3.connect(copy)
    assert db.execute("SELECT MAX(game) FROM records").fetchone()[0] == UNFINISHED
    assert db.execute("SELECT MAX(game) FROM heads").fetchone()[0] == UNFINISHED
    db.close()
    # the check fails and says it (a closed game would resume without its repairs table)
    assert main(["journal", "check", "--journal", str(copy)]) == 1
    assert "nothing new can be recorded" in capsys.readouterr().out
    assert main(["journal", "repair", "--journal", str(copy)]) == 0
    journal = Journal(copy)
    assert journal.lost_columns() == {}
    journal.close()


def test_a_backup_of_a_journal_whose_list_of_games_is_malformed_says_where_and_what_to_do(
        copy, capsys):
    db = sqlite3.connect(copy)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    db.close()
    with open(copy, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(bytes(page_size))
    assert main(["journal", "backup", "--journal", str(copy)]) == 2
    err = capsys.readouterr().err
    assert str(copy) in err and "`companion journal check`" in err and "not written" in err


def test_a_games_column_gone_keeps_the_games_playable_to_their_last_action(copy):
    """The finish marks' column dropped: each game's row is read without it, so the games
    are still proven and the unfinished one resumes (recording waits for a repair)."""
    _alter(copy, "ALTER TABLE games DROP COLUMN finished")
    journal = Journal(copy)
    assert journal.check(UNFINISHED).damage is None
    match = Match.resume(journal)
    assert match.game == UNFINISHED
    with pytest.raises(JournalError, match="the file is damaged"):
        journal.append(UNFINISHED, {"type": "end"})
    journal.close()
