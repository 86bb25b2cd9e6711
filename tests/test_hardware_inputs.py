"""Hostile input to the hardware side: the pin map, the config file's bytes, `companion lights`
arguments and a read-only card. Each is said (the file, the key or line, the fix) with the exit
code of a configuration or usage error, never a traceback."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import os
import select
import sqlite3
import subprocess
import sys
import threading
import tty
from pathlib import Path

import pytest
from link.fakes import FakeBoard  # tests/link (pytest puts tests/ on sys.path)

from companion import config as configuration
from companion import journal as journal_module
from companion import toml_text
from companion.cli import main
from companion.link import lightproto as lp
from companion.link.cli import cmd_lights
from companion.pins import PinMapError, load

ROOT = Path(__file__).resolve().parents[1]
PINS = ROOT / "hardware" / "pins.toml"
PANEL_CONFIG = ('[camera]\nsource = "none"\n[buttons]\nbackend = "none"\n[lights]\nport = ""\n'
                '[display]\ndriver = "ssd1309"\n')
GOOD_PINS = PINS.read_text(encoding="utf-8")


def pins_with(old: str, new: str) -> str:
    assert old in GOOD_PINS
    return GOOD_PINS.replace(old, new, 1)


# --------------------------------------------------------------------------- the pin map


@pytest.fixture
def panel_home(companion_home, monkeypatch):
    """A COMPANION_HOME whose config drives an OLED panel (so the pin map is read)."""
    monkeypatch.delenv("COMPANION_PINS", raising=False)
    (companion_home / "config.toml").write_text(PANEL_CONFIG, encoding="utf-8")
    return companion_home


BAD_PIN_FILES = {
    "a pin used twice": (pins_with("confirm = 17", "confirm = 27").encode(),
                         "buttons.end_turn = 27: GPIO27 is already buttons.confirm"),
    "a misspelt key": (pins_with("bus = 1", "buss = 1").encode(), "oled.buss: unknown key"),
    "a superscript digit": (pins_with("confirm = 17", 'confirm = "GPIO\u00b2"').encode(),
                            "buttons.confirm = 'GPIO\u00b2': not a BCM GPIO number"),
    "an Arabic-Indic digit": (pins_with("ring = 16", 'ring = "GP\u0663"').encode(),
                              "not a Pico GP number"),
    "Latin-1 bytes": (GOOD_PINS.encode() + b'# caf\xe9\n',
                      f"not UTF-8 text: byte 0xe9 at line {GOOD_PINS.count(chr(10)) + 1}, "
                      "column 6; save the file as UTF-8"),
    "UTF-16": (GOOD_PINS.encode("utf-16"), "UTF-16 text, not UTF-8"),
    "a huge file": (b"#" * ((1 << 20) + 1), "more than 1,048,576 bytes"),
}


@pytest.mark.parametrize("case", sorted(BAD_PIN_FILES))
def test_run_stops_on_a_bad_pin_map_like_on_a_bad_config(case, panel_home, capsys):
    data, said = BAD_PIN_FILES[case]
    (panel_home / "pins.toml").write_bytes(data)
    assert main(["run", "--seconds", "1"]) == 2  # as for a bad config.toml
    err = capsys.readouterr().err
    assert err.startswith(f"companion: {panel_home / 'pins.toml'}") and said in err
    assert "Traceback" not in err
    assert list(panel_home.iterdir()) == [panel_home / "config.toml", panel_home / "pins.toml"]


@pytest.mark.parametrize(("where", "said"), [
    ("/nonexistent.toml", "/nonexistent.toml: no such file. Fix: copy hardware/pins.toml"),
    ("/tmp", "/tmp (the pin map, a copy of hardware/pins.toml): a folder, not a file"),
    ("/dev/zero", "/dev/zero (the pin map, a copy of hardware/pins.toml): a device or a pipe"),
])
def test_run_and_doctor_say_a_companion_pins_that_is_no_pin_map(where, said, panel_home,
                                                                 monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_PINS", where)
    assert main(["run", "--seconds", "1"]) == 2
    assert said in capsys.readouterr().err
    assert main(["doctor"]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if "display" in line]
    assert lines and lines[0].startswith("FAIL") and said in lines[0]


def test_run_with_a_bad_pin_map_as_systemd_starts_it(panel_home):
    """The reported case, as a process: one line on stderr, exit code 2, no traceback."""
    (panel_home / "pins.toml").write_text(pins_with("confirm = 17", "confirm = 27"))
    done = subprocess.run([sys.executable, "-m", "companion", "run", "--seconds", "2"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "COMPANION_HOME": str(panel_home)})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "GPIO27 is already buttons.confirm. Fix:" in done.stderr


def test_pin_map_errors_are_said_as_they_are(capsys, monkeypatch):
    """Any command a PinMapError reaches prints it without a traceback (exit 2)."""
    import companion.config

    def broken(args):
        raise PinMapError("pins.toml: buttons.confirm = 2: GPIO2 is I2C SDA")

    monkeypatch.setattr(companion.config, "_cmd_show", broken)
    assert main(["config", "show"]) == 2
    said = capsys.readouterr().err
    assert said == "companion: pins.toml: buttons.confirm = 2: GPIO2 is I2C SDA\n"


def test_a_pin_map_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "pins.toml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD_PINS.encode())
    assert load(path) == dataclasses.replace(load(PINS), source=str(path))


def test_pin_numbers_are_ascii_digits_only():
    from companion.pins import parse

    good = {"buttons": {"confirm": 17, "end_turn": 27, "undo": 22, "next": 23, "prev": 24},
            "oled": {"bus": 1, "address": 0x3C},
            "pico": {"ring": 16, "encoder_a": 18, "encoder_b": 19, "encoder_switch": 20,
                     "buzzer": 15}}
    assert parse(good).buttons.confirm == 17
    for text in ("GPIO\u00b2", "GPIO\u0663", "BCM\uff11\uff17", "GPIO" + "1" * 5000, "GPIO"):
        data = {**good, "buttons": {**good["buttons"], "confirm": text}}
        with pytest.raises(PinMapError, match="not a BCM GPIO number"):
            parse(data)
    for text in ("GP\u00b9", "GP\u0661\u0666", "GP"):
        data = {**good, "pico": {**good["pico"], "ring": text}}
        with pytest.raises(PinMapError, match="not a Pico GP number"):
            parse(data)


def test_a_fifo_as_pin_map_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "pins.toml"
    os.mkfifo(fifo)
    with pytest.raises(PinMapError, match="a device or a pipe, not a file"):
        load(fifo)


# --------------------------------------------------------------------------- config bytes


def test_config_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'\xef\xbb\xbf[table]\npack = "demo"\n')
    assert configuration.load(path)["table"]["pack"] == "demo"


def test_config_not_in_utf8_names_the_line_and_what_to_do(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'[table]\nplayers = ["Ana", "Jos\xe9"]\n')
    with pytest.raises(configuration.ConfigError) as refused:
        configuration.load(path)
    assert str(refused.value) == (
        f"{path}: not UTF-8 text: byte 0xe9 at line 2, column 23; save the file as UTF-8 (in "
        "Notepad: Save as, Encoding UTF-8)")
    assert "position" not in str(refused.value)


def test_a_column_counts_characters_not_bytes():
    with pytest.raises(toml_text.TextFileError, match="at line 3, column 4;"):
        toml_text.decode("a\n\n\u00e9\u00e9\u00e9".encode() + b"\xff")


# --------------------------------------------------------------------------- [table] pack


@pytest.mark.parametrize("pack", ["", "   "])
def test_an_empty_pack_is_refused(pack, tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(f'[table]\npack = "{pack}"\n', encoding="utf-8")
    with pytest.raises(configuration.ConfigError, match=r"\[table\] pack = '\s*': empty; write "
                       r'"owner" \(your registered cards\), "demo", or the path of a pack TOML'):
        configuration.load(path)


def test_a_folder_as_pack_is_refused(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[table]\npack = "."\n', encoding="utf-8")
    with pytest.raises(configuration.ConfigError, match="is not a file"):
        configuration.load(path)


def test_a_relative_pack_is_read_from_the_config_files_folder(tmp_path, monkeypatch):
    from companion.content import demo_pack, pack_named

    folder = tmp_path / "etc"
    (folder / "packs").mkdir(parents=True)
    demo = demo_pack("outatime")  # a copy of the demo deck's file is a pack of one's own
    (folder / "packs" / "mine.toml").write_bytes(
        (ROOT / "companion" / "titles" / "outatime" / "demo.toml").read_bytes())
    (folder / "config.toml").write_text('[table]\npack = "packs/mine.toml"\n', encoding="utf-8")
    elsewhere = tmp_path / "working"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the service runs in its state directory
    cfg = configuration.load(folder / "config.toml")
    assert cfg["table"]["pack"] == str(folder / "packs" / "mine.toml")
    assert pack_named("outatime", cfg["table"]["pack"]).sections == demo.sections
    monkeypatch.chdir(folder)  # and --config given as a relative path
    assert configuration.load("config.toml")["table"]["pack"] == str(folder / "packs" /
                                                                      "mine.toml")


def test_pack_names_and_absolute_paths_stay_as_written(tmp_path):
    path = tmp_path / "config.toml"
    for pack in ("demo", "owner", str(tmp_path / "absent.toml")):
        path.write_text(f"[table]\npack = {toml_text.quoted(pack)}\n", encoding="utf-8")
        assert configuration.load(path)["table"]["pack"] == pack


# --------------------------------------------------------------------------- companion lights


@contextlib.contextmanager
def pty_board(board: FakeBoard):
    """``board`` behind a pseudo-terminal, as the Pico's /dev/ttyACM0 is: yields its path."""
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def serve() -> None:
        reader = lp.LineReader()
        while not stop.is_set():
            if select.select([master], [], [], 0.01)[0]:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    return
                for line in reader.feed(data):
                    if line.strip():
                        with contextlib.suppress(lp.ProtocolError):
                            board.take(line)
            with board.lock:
                out = bytes(board.outbox)
                board.outbox.clear()
            if out:
                os.write(master, out)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield os.ttyname(slave)
    finally:
        stop.set()
        thread.join(2)
        os.close(master)
        os.close(slave)


class NakBoard(FakeBoard):
    """Refuses every BUZZ, as a board whose firmware checks its arguments again."""

    def take(self, line: bytes) -> None:
        seq, cmd, _args = lp.parse(line)
        if cmd == "BUZZ":
            self.received.append((seq, cmd, _args))
            self.emit("NAK", [str(seq), lp.BAD_ARGS])
            return
        super().take(line)


def lights_args(port: str, **given) -> argparse.Namespace:
    args = dict(port=port, steady=None, off=False, turn=None, effect=None, colour=None,
                buzz=None, watch=0.0, timeout=5.0)
    return argparse.Namespace(**{**args, **given})


@pytest.mark.parametrize(("argv", "said"), [
    (["--steady", "999"], "argument --steady: '999': a whole number from 0 to 255"),
    (["--steady", "-3"], "argument --steady: '-3': a whole number from 0 to 255"),
    (["--buzz", "5", "100"], "argument --buzz: HZ '5': a whole number from 20 to 20000"),
    (["--buzz", "440", "99999"], "argument --buzz: MS '99999': a whole number from 1 to 5000"),
    (["--buzz", "440", "x"], "argument --buzz: MS 'x': a whole number from 1 to 5000"),
])
def test_lights_refuses_numbers_the_board_cannot_take_as_usage_errors(argv, said, tmp_path,
                                                                       capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["lights", "--port", str(tmp_path / "no-board"), *argv])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err
    from companion.link.__main__ import main as module_main

    with pytest.raises(SystemExit) as stopped:
        module_main(["--port", str(tmp_path / "no-board"), *argv])
    assert stopped.value.code == 2


def test_lights_on_a_pty_board_exit_0_when_taken_1_when_refused(capsys):
    board = FakeBoard()
    with pty_board(board) as port:
        assert main(["lights", "--port", port, "--steady", "200", "--buzz", "440", "100"]) == 0
        assert ("STEADY", ["200"]) in board.commands() and ("BUZZ", ["440", "100"]) in \
            board.commands()
        assert capsys.readouterr().out.splitlines()[-1] == f"{port}: ready"
        # refused on the host side (called without the parser's checks): nothing sent, exit 1
        before = len(board.commands())
        assert cmd_lights(lights_args(port, steady=999, buzz=[5, 99999])) == 1
        assert len(board.commands()) == before
        assert "2 commands refused" in capsys.readouterr().out


def test_lights_exit_1_when_the_board_naks(capsys):
    board = NakBoard()
    with pty_board(board) as port:
        assert main(["lights", "--port", port, "--buzz", "440", "100"]) == 1
    assert "1 commands refused" in capsys.readouterr().out
    assert [c for _s, c, _a in board.received if c == "BUZZ"] == ["BUZZ"]  # not resent


# --------------------------------------------------------------------------- a read-only card


def test_a_nearly_full_read_only_card_is_called_read_only(tmp_path, monkeypatch):
    """A small card remounted read-only after an error has little room left too: the fix is
    to mount it read-write, not to free space."""
    real = os.statvfs(tmp_path)

    class ReadOnly:
        def __getattr__(self, name):
            return getattr(real, name)

        f_flag = real.f_flag | os.ST_RDONLY

    monkeypatch.setattr(journal_module.shutil, "disk_usage",
                        lambda path: type("Usage", (), {"free": 60 * 1024})())
    monkeypatch.setattr(journal_module.os, "statvfs", lambda path: ReadOnly())
    error = sqlite3.OperationalError("unable to open database file")
    error.sqlite_errorname = "SQLITE_CANTOPEN"
    problem = journal_module.write_problem(error, tmp_path / "journal.sqlite3")
    assert problem is not None and problem.kind == "read-only", problem
    assert f"({tmp_path} is read-only: unable to open database file)" in str(problem)
    eio = OSError(errno.EROFS, "Read-only file system")
    assert journal_module.write_problem(eio, tmp_path / "j.sqlite3").kind == "read-only"
    # what was said before stays so: an explicit full disk, and damage (no write problem)
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorname = "SQLITE_FULL"
    assert journal_module.write_problem(full, tmp_path / "j.sqlite3").kind == "full"
    damaged = sqlite3.DatabaseError("file is not a database")
    damaged.sqlite_errorname = "SQLITE_NOTADB"
    assert journal_module.write_problem(damaged, tmp_path / "j.sqlite3") is None


def test_a_nearly_full_writable_card_is_still_called_full(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module.shutil, "disk_usage",
                        lambda path: type("Usage", (), {"free": 60 * 1024})())
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorname = "SQLITE_IOERR_WRITE"
    problem = journal_module.write_problem(error, tmp_path / "journal.sqlite3")
    assert problem is not None and problem.kind == "full" and "60 KB left" in str(problem)


ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.mark.skipif(not ROOT_USER, reason="a read-only tmpfs needs a mount (root)")
def test_run_on_a_small_read_only_tmpfs_says_read_only(tmp_path, companion_home, caplog):
    import logging

    card = tmp_path / "card"
    card.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(card)],
                      capture_output=True).returncode != 0:
        pytest.skip("no tmpfs mount here")
    try:
        subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)
        (companion_home / "config.toml").write_text(
            PANEL_CONFIG.replace('"ssd1309"', '"none"') + '[table]\npack = "demo"\n')
        caplog.set_level(logging.ERROR, logger="companion")
        assert main(["run", "--journal", str(card / "j.sqlite3"), "--seconds", "0.5"]) == 0
        said = " ".join(r.getMessage() for r in caplog.records)
        assert "cannot be written" in said and "read-only" in said
        assert "the disk is full" not in said
    finally:
        subprocess.run(["umount", str(card)], check=True)
