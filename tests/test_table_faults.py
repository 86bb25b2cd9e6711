"""The table loop under a camera that keeps failing the same way: said once, not eight times a
second (journald and the SD card must survive a night of it)."""

from __future__ import annotations

import logging

from companion.content import demo_pack
from companion.journal import Journal
from companion.session import Session
from companion.table import Table
from companion.vision.sources import FileSource


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Watcher:
    """Stands in for the dice reader: never reached while the camera fails."""

    settler = type("S", (), {"state": "waiting"})()

    def feed(self, image):
        raise AssertionError("no frame should reach the reader")


def test_a_camera_that_keeps_failing_is_logged_once_per_fault(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="companion.table")
    broken = tmp_path / "roll.png"
    broken.write_bytes(b"not an image")
    clock = Clock()
    session = Session(Journal(":memory:"), ["Ana", "Ben"], demo_pack, title="outatime")
    table = Table(session, camera=FileSource(broken, loop=True), watcher=Watcher(), fps=8,
                  clock=clock)
    for _ in range(8 * 60):  # a minute at 8 frames a second
        clock.now += 1 / 8
        table.step()
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("camera: ")]
    assert said == [f"camera: {broken}: not a readable image (corrupt or unsupported format)"]


def test_an_empty_file_source_is_logged_once(caplog):
    caplog.set_level(logging.INFO, logger="companion.table")
    clock = Clock()
    session = Session(Journal(":memory:"), ["Ana", "Ben"], demo_pack, title="outatime")
    table = Table(session, camera=FileSource(loop=True), watcher=Watcher(), fps=8, clock=clock)
    for _ in range(80):
        clock.now += 1 / 8
        table.step()
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("camera: ")]
    assert said == ["camera: EndOfStream"]
