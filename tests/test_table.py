"""The table daemon: the loop, systemd notify, a camera that comes and goes, button mashing."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.content import demo_pack
from companion.display.backends import DummyDisplay
from companion.journal import Journal
from companion.match import replay
from companion.session import Session
from companion.table import QuietGate, Table
from companion.vision.sources import CameraUnavailable, Frame

ROOT = Path(__file__).resolve().parents[1]


def write_config(tmp_path: Path, out: Path, extra: str = "") -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        '[table]\ntitle = "outatime"\npack = "demo"\n'
        '[camera]\nsource = "synthetic"\n'
        f'[display]\ndriver = "recorder"\nout = "{out}"\n'
        '[buttons]\nbackend = "none"\n[lights]\nport = ""\n' + extra
    )
    return path


def test_run_starts_shows_frames_and_speaks_to_systemd(tmp_path):
    out = tmp_path / "frames"
    config = write_config(tmp_path, out)
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(20)
    env = {**os.environ, "NOTIFY_SOCKET": str(sock_path), "COMPANION_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--config", str(config), "--seconds", "3"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    messages = []
    try:
        while not any("WATCHDOG=1" in m for m in messages):
            messages.append(sock.recv(4096).decode())
    finally:
        stdout, stderr = proc.communicate(timeout=60)
        sock.close()
    assert proc.returncode == 0, stderr
    assert any("READY=1" in m for m in messages)
    assert sorted(p.name for p in out.glob("frame_*.png"))  # the boot screen at least
    assert (out / "screens.gif").exists()


def test_run_stops_cleanly_on_sigterm_and_resumes_the_game(tmp_path):
    config = write_config(tmp_path, tmp_path / "frames")
    journal_file = tmp_path / "journal.sqlite3"
    journal = Journal(journal_file)
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    session.press("confirm")  # two players
    game = session.match.game
    journal.close()
    env = {**os.environ, "COMPANION_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--config", str(config), "--journal",
         str(journal_file)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 0, stderr
    journal = Journal(journal_file)
    assert journal.unfinished() == game  # the same game is still there to go on with
    assert len(journal.games()) == 1


def test_run_with_a_bad_config_names_the_key(tmp_path):
    config = write_config(tmp_path, tmp_path / "f", '[daemon]\nnotify = "yes"\n')
    result = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--config", str(config), "--seconds", "1"],
        capture_output=True, text=True, env={**os.environ, "COMPANION_HOME": str(tmp_path)})
    assert result.returncode == 2
    assert "[daemon] notify" in result.stderr and "true or false" in result.stderr


class FlakyCamera:
    """Frames of an empty grey tray; unplugged for a while in the middle."""

    def __init__(self, down: range):
        self.down = down
        self.reads = 0

    def read(self):
        self.reads += 1
        if self.reads in self.down:
            raise CameraUnavailable("camera unplugged")
        image = np.full((120, 160, 3), 90, np.uint8)
        return Frame(image=image, index=self.reads, timestamp=0.0)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def make_table(camera, display=None):
    from companion.vision.reader import DiceReader
    from companion.vision.settle import Settler, SettleWatcher

    session = Session(Journal(":memory:"), ["Ana", "Ben"], demo_pack, title="outatime")
    clock = Clock()
    table = Table(session, camera=camera, display=display or DummyDisplay(),
                  watcher=SettleWatcher(DiceReader("outatime"), Settler(emit_empty=True)),
                  dwell_s=0.0, clock=clock)
    return table, clock


def run_steps(table, clock, n, dt=0.2):
    for _ in range(n):
        table.step()
        clock.now += dt


def test_a_camera_unplugged_mid_game_is_reported_and_reading_resumes():
    camera = FlakyCamera(down=range(5, 12))
    table, clock = make_table(camera)
    table.boot()
    run_steps(table, clock, 8)
    assert not table.camera_ok  # told, and still running
    run_steps(table, clock, 12)
    assert table.camera_ok and camera.reads >= 15


def test_a_display_that_fails_never_stops_the_game():
    class BrokenDisplay:
        last_error = "panel gone"

        def show(self, image):
            return False

        def close(self):
            pass

    table, clock = make_table(FlakyCamera(down=range(0)), display=BrokenDisplay())
    table.boot()
    table.handle(table.session.press("confirm"))
    run_steps(table, clock, 5)
    assert table.session.match is not None



def test_a_press_during_the_announcements_brings_up_the_question_and_answers_nothing():
    """A quick second CONFIRM must not answer a menu the panel does not show yet."""
    from companion.sim import ScriptedPresses

    session = Session(Journal(":memory:"), ["Ana", "Ben"], demo_pack, title="outatime")
    presses, clock = ScriptedPresses(), Clock()
    table = Table(session, buttons=[presses], display=DummyDisplay(), dwell_s=1.2, clock=clock)
    table.boot()
    run_steps(table, clock, 10)
    assert session.prompt().title == "OUTATIME: PLAYERS" and not table.announcing(clock.now)
    presses.press("confirm")  # starts the game: "NEW GAME" is announced for 1.2 s
    run_steps(table, clock, 1, dt=0.1)
    assert table.announcing(clock.now) and session.prompt().title == "ANA: ACTIVE CARD"
    shown = table.frames_shown
    presses.press("confirm")  # too quick: it brings the menu up and chooses nothing
    run_steps(table, clock, 1, dt=0.1)
    assert session.prompt().title == "ANA: ACTIVE CARD" and not table.announcing(clock.now)
    assert table.frames_shown == shown + 1 and len(table.queue) == 1  # the menu, at once
    presses.press("confirm")  # now it answers the menu on the panel
    run_steps(table, clock, 1, dt=0.1)
    assert session.prompt().title.startswith("ANA: ACTIVE 0.")

def test_the_quiet_gate_passes_changes_and_skips_a_still_tray():
    gate = QuietGate()
    still = np.full((90, 160, 3), 100, np.uint8)
    assert gate.changed(still)  # the first frame is always looked at
    assert not gate.changed(still.copy())
    moved = still.copy()
    moved[20:60, 40:80] = 230  # a die-sized change
    assert gate.changed(moved)


def test_the_quiet_gate_sees_one_small_die_dropped_into_a_still_tray_but_not_noise():
    rng = np.random.default_rng(5)
    tray = np.full((480, 640, 3), 90, np.uint8)
    gate = QuietGate()
    gate.changed(tray)
    for _ in range(5):  # sensor noise, frame after frame
        noisy = np.clip(tray + rng.normal(0, 6, tray.shape), 0, 255).astype(np.uint8)
        assert not gate.changed(noisy)
    die = tray.copy()
    die[200:229, 300:329] = (40, 40, 150)  # one die of 29 px, darker red than the felt
    assert float(np.abs(die.astype(int) - tray).mean()) < 1  # the average hardly moves
    assert gate.changed(die)


def test_an_idle_table_does_not_run_the_reader_on_every_frame():
    camera = FlakyCamera(down=range(0))
    table, clock = make_table(camera)
    calls = []
    original = table.watcher.reader.analyse
    table.watcher.reader.analyse = lambda frame, **told: calls.append(1) or original(frame,
                                                                                     **told)
    table.boot()
    run_steps(table, clock, 40)
    assert camera.reads >= 30
    assert len(calls) <= 6  # read until settled, then only on change


def test_the_table_passes_the_count_on_and_shows_a_count_that_differs(monkeypatch):
    from companion.vision.types import Die, Reading

    class Watcher:  # stands in for SettleWatcher: what the table calls
        def __init__(self):
            self.expected = None
            self.settler = type("S", (), {"state": "settled"})()
            self.extra = {}

        def expect(self, count):
            self.expected = count

        def feed(self, image):
            return Reading((Die(10, 10, 8, 8, "2", 0.9),), extra=dict(self.extra))

    notices = []
    monkeypatch.setattr("companion.table.s.notice",
                        lambda *text: notices.append(text) or "screen")
    session = Session(Journal(":memory:"), ["Ana", "Ben"], demo_pack, title="outatime")
    table = Table(session, camera=FlakyCamera(down=range(0)), display=DummyDisplay(),
                  watcher=Watcher(), dwell_s=0.0, clock=Clock())
    table.expect_dice(2)
    assert table.watcher.expected == 2
    table._camera_step()
    assert not any("DICE?" in t for t in notices)
    table.watcher.extra = {"expected": 2, "seen": 1}
    table._settled = False
    table._camera_step()
    assert ("DICE?", "1 seen, 2 rolled", "check the tray") in notices
    table.expect_dice(None)
    assert table.watcher.expected is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(
    st.sampled_from(["confirm", "end", "back", "undo", "next", "prev", "menu"]),
    st.lists(st.sampled_from(["flux", "2", "3", "4", "5", "88", "?"]), max_size=7),
), max_size=120), st.integers(0, 10**6))
def test_mashing_buttons_and_wild_readings_never_break_the_record(events, seed):
    journal = Journal(":memory:")
    session = Session(journal, ["Ana", "Ben", "Cy"], demo_pack, title="outatime")
    rng = random.Random(seed)
    for event in events:
        if isinstance(event, str):
            session.press(event)
        else:
            session.dice(event)
        if rng.random() < 0.1:
            session.dice([rng.choice(["flux", "2", "88"]) for _ in range(rng.randint(0, 6))])
    if session.match is not None:
        actions = journal.actions(session.match.game)
        state = replay(session.match.setup, actions)  # every recorded action is legal
        assert session.match.engine.to_json(state) == session.match.to_json()


def test_doctor_says_pass_or_fail_for_each_part_and_what_to_do(tmp_path, capsys, monkeypatch):
    from companion.cli import main

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    good = tmp_path / "good.toml"
    good.write_text('[table]\npack = "demo"\n'  # an owner with no cards registered: FAIL
                    '[camera]\nsource = "synthetic"\n[display]\ndriver = "dummy"\n'
                    '[buttons]\nbackend = "none"\n[lights]\nport = ""\n')
    assert main(["doctor", "--config", str(good)]) == 0
    out = capsys.readouterr().out
    for part in ("state directory", "disk space", "camera", "display", "buttons", "light board"):
        assert f"PASS  {part}" in out
    bad = tmp_path / "bad.toml"
    bad.write_text(f'[camera]\nsource = "files"\npath = "{tmp_path}/nothing.png"\n'
                   '[display]\ndriver = "sh1106"\n[buttons]\nbackend = "none"\n'
                   '[lights]\nport = "/dev/no-such-board"\n')
    assert main(["doctor", "--config", str(bad)]) == 1
    out = capsys.readouterr().out
    lines = {line.split()[1]: line for line in out.splitlines() if line[:4] in ("PASS", "FAIL")}
    assert lines["camera"].startswith("FAIL") and "nothing.png" in lines["camera"]
    assert lines["display"].startswith("FAIL") and "i2c" in lines["display"].lower()
    assert "FAIL  light board" in out and "firmware/README.md" in out
    assert "PASS  state directory" in out
    # run as a maker runs it: the table alone, no log line saying a FAIL again before it
    done = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config", str(bad)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COMPANION_HOME": str(tmp_path)})
    assert done.returncode == 1 and "FAIL  light board" in done.stdout
    assert "disconnected" not in done.stderr, done.stderr


def test_a_restarted_table_says_which_game_it_took_up_and_its_last_action(tmp_path):
    from companion.sim import ScriptedPresses

    path = tmp_path / "journal.db"
    session = Session(Journal(path), ["Ana", "Ben"], demo_pack, title="outatime")
    session.press("confirm")  # the players menu: a new game
    while not session.journal.actions(session.match.game):  # the setup's first choices
        session.press("confirm")
    recorded = session.journal.actions(session.match.game)
    session.journal.close()
    again = Session(Journal(path), ["Ana", "Ben"], demo_pack, title="outatime")
    table = Table(again, buttons=[ScriptedPresses()], display=DummyDisplay(), dwell_s=0.0,
                  clock=Clock())
    table.boot()
    said = [e for update in table.updates for e in update.effects if e["kind"] == "resumed"]
    assert len(said) == 1 and said[0]["text"] == (
        f"game 1, action {len(recorded)}; last: {again.table.describe(recorded[-1])}")
    assert again.resumed() == []  # said once
