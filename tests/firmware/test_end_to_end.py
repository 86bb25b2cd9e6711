"""The host LightBoard against the real firmware running under the MicroPython unix port,
joined by a pseudo-terminal the way a Pico's USB serial appears on the Pi."""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.link import LightBoard, LinkStatus
from companion.link.cli import register

from .conftest import ROOT, micropython_env

SIM = ROOT / "tests" / "firmware" / "sim_board.py"
FALLBACK = 200 * 160 // 255  # config.FALLBACK_LEVEL scaled by config.MAX_LEVEL


class SimBoard:
    """Firmware process on the master side of a fresh pty; ``link`` is a udev-style symlink
    to the slave side, so the host sees one stable path while boards come and go."""

    def __init__(self, exe: str, tmp: Path, link: Path, *args: str, script: Path = SIM) -> None:
        self.dump = tmp / f"ring-{time.monotonic_ns()}.txt"
        self.master, slave = os.openpty()
        env = micropython_env()
        env["FAKE_NEOPIXEL_DUMP"] = str(self.dump)
        self.proc = subprocess.Popen(
            [exe, str(script), *args],
            stdin=self.master,
            stdout=self.master,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
        )
        self.slave_name = os.ttyname(slave)
        self._slave = slave  # held open until the host has the port, so no HUP busy-loop
        if link.is_symlink():
            link.unlink()
        link.symlink_to(self.slave_name)

    def release_slave(self) -> None:
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None

    def ring(self) -> list[tuple[int, ...]]:
        try:
            text = self.dump.read_text()
        except FileNotFoundError:
            return []
        return [tuple(int(c) for c in line.split(",")) for line in text.split()]

    def unplug(self) -> None:
        self.release_slave()
        self.proc.kill()
        self.proc.wait(timeout=5)
        os.close(self.master)


def wait_until(pred: Callable[[], object], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.01)
    return bool(pred())


@pytest.fixture
def rig(micropython: str, tmp_path: Path) -> Iterator[Callable[..., SimBoard]]:
    boards: list[SimBoard] = []
    link = tmp_path / "companion-lights"

    def start(*args: str, script: Path = SIM) -> SimBoard:
        sim = SimBoard(micropython, tmp_path, link, *args, script=script)
        boards.append(sim)
        return sim

    start.link = link  # type: ignore[attr-defined]
    yield start
    for sim in boards:
        if sim.proc.poll() is None:
            sim.unplug()


def is_red(px: tuple[int, ...]) -> bool:
    return px[0] > 0 and px[1] == 0 and px[2] == 0


def all_red(ring: list[tuple[int, ...]]) -> bool:
    return bool(ring) and all(is_red(px) for px in ring)


def test_handshake_commands_keys_and_fallback(rig: Callable[..., SimBoard]) -> None:
    sim = rig("timeout=1000", "keys=next,next,prev,confirm,hold")
    link = LightBoard(str(rig.link), heartbeat=0.2, silence_timeout=1.5, reconnect_delay=0.1)
    try:
        assert link.wait_ready(5.0), link.last_error
        sim.release_slave()
        assert link.info is not None
        assert (link.info.protocol, link.info.leds, link.info.features) == (1, 16, ("enc", "buzz"))

        # the knob, pushed by the simulator once the host said HELLO
        keys = []
        while len(keys) < 5:
            key = link.wait_key(3.0)
            assert key is not None, f"keys so far: {keys}"
            keys.append(key.key)
        assert keys == ["next", "next", "prev", "confirm", "hold"]

        assert wait_until(lambda: sim.ring() == [(FALLBACK,) * 3] * 16), "boots steady"
        link.turn("red")
        assert wait_until(lambda: all_red(sim.ring())), sim.ring()
        link.effect("stall")  # amber blinks, then back to red
        assert wait_until(lambda: sim.ring()[0] == (160, 110 * 160 // 255, 0), 1.0), sim.ring()
        assert wait_until(lambda: is_red(sim.ring()[0]), 2.0)
        link.steady(255)
        assert wait_until(lambda: sim.ring() == [(160, 160, 160)] * 16)
        link.off()
        assert wait_until(lambda: sim.ring() == [(0, 0, 0)] * 16)
        link.turn("red")
        assert wait_until(lambda: is_red(sim.ring()[0]))
        assert link.stats["naks"] == 0 and link.stats["rejected"] == 0
        assert link.status is LinkStatus.READY
    finally:
        link.close()
    # the host has gone quiet: the board lights the tray for the camera again
    assert wait_until(lambda: sim.ring() == [(FALLBACK,) * 3] * 16, 4.0), sim.ring()


def test_board_unplugged_and_plugged_back(rig: Callable[..., SimBoard]) -> None:
    first = rig()
    statuses: list[LinkStatus] = []
    link = LightBoard(
        str(rig.link),
        heartbeat=0.2,
        silence_timeout=1.0,
        reconnect_delay=0.1,
        on_status=lambda s, e: statuses.append(s),
    )
    try:
        assert link.wait_ready(5.0), link.last_error
        first.release_slave()
        link.turn("red")
        assert wait_until(lambda: all_red(first.ring()))

        first.unplug()
        rig.link.unlink()  # the device node goes away with the board
        assert wait_until(lambda: link.status is LinkStatus.DISCONNECTED, 3.0)
        assert link.effect("win") is True  # the game loop carries on meanwhile
        time.sleep(0.3)
        assert link.status is LinkStatus.DISCONNECTED
        assert "No such file" in (link.last_error or "") or "could not open" in (
            link.last_error or ""
        )

        second = rig()  # plugged back: a new board process behind the same path
        assert link.wait_ready(5.0), link.last_error
        second.release_slave()
        # the host puts its last base mode back without being asked
        assert wait_until(lambda: all_red(second.ring())), second.ring()
        assert link.stats["lost"] >= 1
        assert statuses[:3] == [LinkStatus.CONNECTING, LinkStatus.READY, LinkStatus.DISCONNECTED]
        assert statuses[-1] is LinkStatus.READY
    finally:
        link.close()


def test_firmware_main_py_itself(rig: Callable[..., SimBoard]) -> None:
    sim = rig(script=ROOT / "firmware" / "main.py")
    with LightBoard(str(rig.link), heartbeat=0.2) as link:
        assert link.wait_ready(5.0), link.last_error
        sim.release_slave()
        link.turn((0, 0, 255))
        assert wait_until(lambda: sim.ring() and sim.ring()[0][2] > 0 and sim.ring()[0][0] == 0)


def _lights(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(), None)
    args = parser.parse_args(["lights", *argv])
    return args.handler(args)


def test_lights_command(rig: Callable[..., SimBoard], capsys: pytest.CaptureFixture[str]) -> None:
    sim = rig("keys=prev")
    rc = _lights(["--port", str(rig.link), "--turn", "red", "--effect", "ripple", "--watch", "1"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "firmware 0.1.0, protocol 1, 16 LEDs, features enc,buzz" in out
    assert "key prev" in out
    # once the ripple is over the ring is red, until the board misses the host's PINGs
    assert wait_until(lambda: all_red(sim.ring()), 2.0), sim.ring()


def test_lights_command_without_a_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = _lights(["--port", str(tmp_path / "nothing"), "--timeout", "0.3"])
    assert rc == 1
    assert "disconnected" in capsys.readouterr().out


def test_second_program_on_the_port_is_refused(rig: Callable[..., SimBoard]) -> None:
    rig()
    with LightBoard(str(rig.link), heartbeat=0.2) as first:
        assert first.wait_ready(5.0), first.last_error
        with LightBoard(str(rig.link), autostart=False) as second:
            second.pump()
            assert second.status is LinkStatus.DISCONNECTED
            assert "lock" in (second.last_error or "").lower()
        assert first.status is LinkStatus.READY
