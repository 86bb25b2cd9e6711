"""A full disk, a card that fails a write, a read-only or a corrupt journal: each is said (what
happened, what to do), nothing confirmed is lost, and nothing ends in a traceback or a restart
loop. A read-only journal is never called damaged, and never moved aside."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.cli import main
from companion.content import demo_pack
from companion.journal import Journal, JournalWriteError
from companion.session import Session

ROOT = Path(__file__).resolve().parents[1]
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('[table]\ntitle = "outatime"\npack = "demo"\n[camera]\nsource = "none"\n'
                    '[display]\ndriver = "none"\n[buttons]\nbackend = "none"\n'
                    '[lights]\nport = ""\n', encoding="utf-8")
    return path


def recorded_game(path: Path) -> int:
    """A journal holding one unfinished game of three recorded actions."""
    journal = Journal(path)
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    session.press("confirm")
    for _ in range(40):  # the deals, each player's first menu items
        if session.match.state.phase == "roll":
            break
        session.press("confirm")
    session.dice(["flux", "2", "3", "88", "5", "5"])
    session.press("confirm")  # the roll
    assert len(journal.actions(session.match.game)) == 3
    game = session.match.game
    journal.close()
    return game


@contextlib.contextmanager
def read_only(folder: Path):
    """``folder`` read-only for this process: permissions, or (for root, whom permissions do
    not stop) a read-only bind mount."""
    if not ROOT_USER:
        modes = {p: p.stat().st_mode for p in [folder, *folder.iterdir()]}
        for p in modes:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("running as root without mount: a read-only folder cannot be made")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@contextlib.contextmanager
def tiny_disk(folder: Path, kib: int):
    """A filesystem of ``kib`` KiB at ``folder`` (root only: a tmpfs mount)."""
    folder.mkdir()
    if not ROOT_USER or subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs",
                                        str(folder)], capture_output=True).returncode != 0:
        pytest.skip("a full filesystem needs a tmpfs mount (root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


# --------------------------------------------------------------------------- a failing write


FAILING_WRITE = textwrap.dedent("""
    import json, os, resource, signal, sys
    from companion.content import demo_pack
    from companion.journal import Journal
    from companion.session import Session

    path = sys.argv[1]
    journal = Journal(path)
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    session.press("confirm")
    while not journal.actions(session.match.game):  # the first deal is recorded
        session.press("confirm")
    before = len(journal.actions(session.match.game))
    # From here no file of this process may grow: every write to the journal fails.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    largest = max(os.path.getsize(path + end) for end in ("", "-wal", "-shm"))
    resource.setrlimit(resource.RLIMIT_FSIZE, (largest, resource.RLIM_INFINITY))
    errors, shown = [], session.match.to_json()
    for _ in range(12):
        update = session.press("confirm")
        if update.error:
            errors.append(update.error)
    undo = session.press("undo").error
    print(json.dumps({"before": before, "errors": errors, "undo": undo,
                      "unchanged": session.match.to_json() == shown}))
""")


def test_a_write_the_card_refuses_is_said_and_loses_nothing(tmp_path):
    path = tmp_path / "journal.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", FAILING_WRITE, str(path)], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    out = json.loads(result.stdout)
    assert out["errors"], "the write should have failed"
    assert all(e.startswith("NOT RECORDED: ") and "could not write" in e for e in out["errors"])
    assert "Nothing recorded before is lost" in out["errors"][0]
    assert out["undo"].startswith("NOT RECORDED: ") and out["unchanged"]
    journal = Journal(path)  # everything confirmed before is there, nothing half-written
    game = journal.games()[0]["id"]
    assert len(journal.actions(game)) == out["before"] and journal.check(game).ok
    journal.close()


@pytest.mark.skipif(not ROOT_USER, reason="a full filesystem needs a tmpfs mount (root)")
def test_a_game_on_a_full_disk_ends_with_what_to_do(tmp_path, capsys, caplog):
    with tiny_disk(tmp_path / "small", 400) as small:
        code = main(["demo", "--title", "outatime", "--journal", str(small / "j.sqlite3"),
                     "--out", str(small / "frames"), "--live", "off"])
        captured = capsys.readouterr()
        assert code == 2
        assert "the disk is full" in captured.err and "Free some space" in captured.err
        warnings = [r.getMessage() for r in caplog.records if r.getMessage().startswith(
            "display: ")]
        assert len(warnings) <= 1 and "None" not in "".join(warnings)
        journal = Journal(small / "j.sqlite3", read_only=True)
        game = journal.games()[0]["id"]
        assert journal.check(game).ok  # what was recorded is whole
        journal.close()


@pytest.mark.skipif(not ROOT_USER, reason="a full filesystem needs a tmpfs mount (root)")
def test_with_a_few_kilobytes_left_run_waits_and_demo_says_so(tmp_path, capsys, caplog,
                                                              monkeypatch):
    caplog.set_level(logging.ERROR, logger="companion")
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    with tiny_disk(tmp_path / "small", 200) as small:
        (small / "filler").write_bytes(b"x" * (200 - 20) * 1024)
        code = main(["demo", "--title", "outatime", "--journal", str(small / "j.sqlite3"),
                     "--out", str(tmp_path / "frames"), "--live", "off"])
        assert code == 2 and "the disk is full" in capsys.readouterr().err
        assert main(["run", "--config", str(config(tmp_path)), "--journal",
                     str(small / "j.sqlite3"), "--seconds", "1"]) == 0
        said = [r.getMessage() for r in caplog.records if "the disk is full" in r.getMessage()]
        assert len(said) == 1  # said once while it waits, not once per try
        assert not any(".damaged-" in p.name for p in small.iterdir())


# --------------------------------------------------------------------------- read-only


def test_a_read_only_journal_is_read_as_it_is_and_never_called_damaged(tmp_path, capsys,
                                                                       monkeypatch, caplog):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    folder = tmp_path / "card"
    folder.mkdir()
    path = folder / "journal.sqlite3"
    game = recorded_game(path)
    with read_only(folder):
        assert main(["journal", "list", "--journal", str(path)]) == 0
        captured = capsys.readouterr()
        assert f"{game:>5}  outatime" in captured.out and "3 actions" in captured.out
        assert "reading it as it is" in captured.err and "not a usable" not in captured.err
        assert main(["journal", "export", "--journal", str(path)]) == 0
        assert len(json.loads(capsys.readouterr().out)["actions"]) == 3
        code = main(["demo", "--title", "outatime", "--journal", str(path), "--live", "off",
                     "--out", str(tmp_path / "frames")])
        err = capsys.readouterr().err
        assert code == 2 and "cannot be written" in err and "read-only" in err
        assert "not a usable journal" not in err and "Move the file aside" not in err
        caplog.set_level(logging.ERROR, logger="companion")
        assert main(["run", "--config", str(config(tmp_path)), "--journal", str(path),
                     "--seconds", "0.5"]) == 0
        assert any("cannot be written" in r.getMessage() for r in caplog.records)
        assert sorted(p.name for p in folder.iterdir()) == ["journal.sqlite3"]  # not moved
    journal = Journal(path)  # writable again: the same game goes on
    assert journal.unfinished() == game and len(journal.actions(game)) == 3
    journal.close()


def test_journal_open_says_read_only_for_a_read_only_file(tmp_path):
    folder = tmp_path / "card"
    folder.mkdir()
    recorded_game(folder / "journal.sqlite3")
    with read_only(folder), pytest.raises(JournalWriteError) as refused:
        Journal(folder / "journal.sqlite3")
    assert refused.value.kind == "read-only"
    assert "The journal is not damaged" in str(refused.value)


# --------------------------------------------------------------------------- corrupt


def test_demo_on_a_corrupt_journal_says_so_without_a_traceback(tmp_path, capsys):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"this is not a journal at all" * 200)
    code = main(["demo", "--title", "outatime", "--journal", str(path), "--live", "off",
                 "--out", str(tmp_path / "frames")])
    err = capsys.readouterr().err
    assert code == 2 and f"{path}: not a usable journal" in err
    assert path.read_bytes().startswith(b"this is not a journal")  # left as it was


def test_a_journal_another_program_holds_is_said_not_raised(tmp_path):
    import sqlite3

    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    session.press("confirm")
    other = sqlite3.connect(path, isolation_level=None)  # e.g. a second `companion run`
    other.execute("BEGIN IMMEDIATE")
    journal.db.execute("PRAGMA busy_timeout = 100")  # the table waits 10 s; a test need not
    errors = [session.press("confirm").error for _ in range(8)]
    said = [e for e in errors if e]
    assert said and said[0].startswith("NOT RECORDED: ") and "another program holds" in said[0]
    other.execute("ROLLBACK")
    other.close()
    assert journal.actions(session.match.game) == []
    journal.close()


def test_run_waits_for_a_writable_journal_as_a_started_service(tmp_path):
    """systemd sees the daemon up (READY, then WATCHDOG) while it waits: no start timeout,
    no restart loop; the table starts by itself once the journal can be written."""
    import threading
    import time

    from companion import config as configuration
    from companion.daemon import wait_for_journal

    class Notifier:
        def __init__(self):
            self.sent: list[str] = []

        def notify(self, text: str) -> None:
            self.sent.append(text)

    folder = tmp_path / "card"
    folder.mkdir()
    game = recorded_game(folder / "journal.sqlite3")
    notify, stop = Notifier(), []
    cfg = configuration.defaults()
    with read_only(folder):
        assert wait_for_journal(cfg, str(folder / "journal.sqlite3"), None, notify, stop,
                                end=time.monotonic() + 0.6, retry_s=0.2) is None
    assert notify.sent[0].startswith("READY=1\nSTATUS=") and "cannot be written" in notify.sent[0]
    assert "WATCHDOG=1" in notify.sent
    released = threading.Event()

    def writable_soon():
        with read_only(folder):
            released.wait(0.5)

    releaser = threading.Thread(target=writable_soon)
    releaser.start()
    time.sleep(0.1)
    opened = wait_for_journal(cfg, str(folder / "journal.sqlite3"), None, notify, stop,
                              end=time.monotonic() + 10, retry_s=0.2)
    released.set()
    releaser.join()
    journal, notice = opened
    assert notice is None and journal.unfinished() == game
    journal.close()
