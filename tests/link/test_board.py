"""LightBoard against an in-process fake board, driven by hand with a fake clock."""

from __future__ import annotations

import logging

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.link import (
    BoardInfo,
    KeyEvent,
    KnobButtons,
    LightBoard,
    LinkStatus,
    NullLightBoard,
    open_light_board,
)

from .fakes import Clock, FakeBoard, FakeSerial


class Rig:
    """A LightBoard wired to a FakeBoard; ``plug``/``unplug`` make the port come and go."""

    def __init__(self, **kwargs: object) -> None:
        self.clock = Clock()
        self.board = FakeBoard()
        self.plugged = True
        self.opens = 0
        self.statuses: list[tuple[LinkStatus, str | None]] = []
        self.link = LightBoard(
            "/dev/companion-lights",
            autostart=False,
            opener=self.open,
            clock=self.clock,
            on_status=lambda s, e: self.statuses.append((s, e)),
            **kwargs,  # type: ignore[arg-type]
        )
        self.ser: FakeSerial | None = None

    def open(self, port: str, **kwargs: object) -> FakeSerial:
        self.opens += 1
        if not self.plugged:
            raise serial.SerialException(f"[Errno 2] could not open port {port}")
        self.ser = FakeSerial(self.board)
        return self.ser

    def pump(self, n: int = 1, dt: float = 0.0) -> None:
        for _ in range(n):
            self.clock.advance(dt)
            self.link.pump()

    def ready(self) -> LightBoard:
        self.pump(2)
        assert self.link.status is LinkStatus.READY
        return self.link


def test_handshake_reports_board_info() -> None:
    rig = Rig()
    rig.board.answer_hello = False
    rig.pump()
    assert rig.link.status is LinkStatus.CONNECTING
    assert rig.board.received[0][1:] == ("HELLO", ["1"])
    rig.board.hello()
    rig.pump()
    assert rig.link.status is LinkStatus.READY
    assert rig.link.ready
    assert rig.link.info == BoardInfo(1, "9.9.9", 24, ("enc", "buzz"))
    assert [s for s, _ in rig.statuses] == [LinkStatus.CONNECTING, LinkStatus.READY]


def test_commands_reach_the_board_and_are_acked() -> None:
    rig = Rig()
    link = rig.ready()
    calls = [
        (link.steady, (120,)),
        (link.steady, ()),
        (link.off, ()),
        (link.turn, ("#00FF80",)),
        (link.turn, ((1, 2, 3),)),
        (link.turn, ("purple",)),
        (link.effect, ("ripple",)),
        (link.effect, ("win", "ffd700")),
        (link.buzz, (440, 120)),
    ]
    for call, args in calls:
        assert call(*args) is True
        rig.pump()
    assert rig.board.commands() == [
        ("STEADY", ["120"]),
        ("STEADY", []),
        ("OFF", []),
        ("TURN", ["00ff80"]),
        ("TURN", ["010203"]),
        ("TURN", ["a000ff"]),
        ("EFFECT", ["ripple"]),
        ("EFFECT", ["win", "ffd700"]),
        ("BUZZ", ["440", "120"]),
    ]
    rig.pump()
    assert link._pending == {}
    assert link.stats["resent"] == 0


def test_newest_base_mode_replaces_queued_ones_effects_keep_order() -> None:
    rig = Rig()
    link = rig.ready()
    link.turn("red")
    link.effect("ripple")
    link.steady(50)
    link.effect("win")
    rig.pump()
    assert rig.board.commands() == [
        ("EFFECT", ["ripple"]),
        ("STEADY", ["50"]),
        ("EFFECT", ["win"]),
    ]


@pytest.mark.parametrize(
    ("call", "args"),
    [
        ("steady", (256,)),
        ("steady", (-1,)),
        ("steady", ("bright",)),
        ("turn", ("not-a-colour",)),
        ("turn", ((300, 0, 0),)),
        ("turn", (None,)),
        ("effect", ("disco",)),
        ("effect", ("ripple", "12345")),
        ("effect", ("win", "gold")),
        ("buzz", (5, 100)),
        ("buzz", (440, 0)),
    ],
)
def test_bad_arguments_return_false_and_send_nothing(
    call: str, args: tuple[object, ...], caplog: pytest.LogCaptureFixture
) -> None:
    rig = Rig()
    link = rig.ready()
    with caplog.at_level(logging.WARNING, "companion.link"):
        assert getattr(link, call)(*args) is False
    rig.pump()
    assert rig.board.commands() == []
    assert caplog.records, "a bad call says why in the log"


def test_base_mode_is_sent_once_ready_effects_before_are_dropped() -> None:
    rig = Rig()
    rig.link.turn("red")
    rig.link.effect("ripple")
    rig.link.steady(90)  # the newest base mode wins
    rig.pump(3)
    assert rig.board.commands() == [("STEADY", ["90"])]
    assert rig.link.stats["dropped"] == 1


def test_lost_ack_is_resent_with_same_seq_then_given_up() -> None:
    rig = Rig(ack_timeout=0.3, retries=2)
    link = rig.ready()
    rig.board.ack = False
    link.effect("stall")
    rig.pump()
    rig.pump(dt=0.2)
    assert len(rig.board.commands()) == 1
    rig.pump(dt=0.2)
    rig.pump(dt=0.35)
    frames = [(s, c) for s, c, _ in rig.board.received if c == "EFFECT"]
    assert len(frames) == 3 and len({s for s, _ in frames}) == 1, frames
    rig.pump(dt=0.35)
    assert link.stats["resent"] == 2
    assert link.stats["unacked"] == 1
    assert link._pending == {}


def test_ack_after_one_resend_stops_resending() -> None:
    rig = Rig(ack_timeout=0.3)
    link = rig.ready()
    rig.board.ack = False
    link.turn("blue")
    rig.pump()
    rig.board.ack = True
    rig.pump(dt=0.31)  # resend, now acked
    rig.pump(dt=0.31)
    rig.pump(dt=0.31)
    assert link.stats["resent"] == 1
    assert link._pending == {}


def test_nak_is_logged_and_not_resent(caplog: pytest.LogCaptureFixture) -> None:
    rig = Rig(ack_timeout=0.3)
    link = rig.ready()
    rig.board.ack = False
    link.effect("paradox")
    rig.pump()
    seq = rig.board.received[-1][0]
    rig.board.emit("NAK", [str(seq), "bad-args"])
    with caplog.at_level(logging.WARNING, "companion.link"):
        rig.pump()
    rig.pump(dt=1.0)
    assert link.stats["naks"] == 1
    assert link.stats["resent"] == 0
    assert "bad-args" in caplog.text


def test_key_events_in_order_duplicates_dropped_gaps_counted() -> None:
    rig = Rig()
    link = rig.ready()
    rig.board.emit("KEY", ["next"])
    rig.board.emit("KEY", ["next"], seq=rig.board.seq - 1)  # the same frame twice
    rig.board.emit("KEY", ["prev"])
    rig.board.seq += 3  # three frames lost on the way
    rig.board.emit("KEY", ["confirm"])
    rig.board.emit("KEY", ["hold"])
    rig.pump()
    got = link.keys()
    assert [k.key for k in got] == ["next", "prev", "confirm", "hold"]
    assert all(isinstance(k, KeyEvent) and k.at == rig.clock.now for k in got)
    assert link.stats["duplicates"] == 1
    assert link.stats["gaps"] == 1
    assert link.keys() == []


def test_wait_key_pumps_without_a_thread() -> None:
    rig = Rig()
    link = rig.ready()
    assert link.wait_key(0.05) is None
    rig.board.emit("KEY", ["confirm"])
    key = link.wait_key(1.0)
    assert key is not None and key.key == "confirm"


def test_garbage_and_noise_from_the_board_are_survived() -> None:
    rig = Rig()
    link = rig.ready()
    rig.board.outbox += b"\x00\xff\xfe garbage\n"
    rig.board.outbox += b"Traceback (most recent call last):\n"
    rig.board.outbox += b"V1 99 KEY next *0000\n"  # bad checksum
    rig.board.outbox += b"V1 99 KEY left *" + b"0" * 4 + b"\n"
    rig.board.outbox += b"x" * 5000 + b"\n"
    rig.board.emit("KEY", ["prev"])
    rig.board.emit("WOBBLE", [])  # unknown event
    rig.pump()
    assert [k.key for k in link.keys()] == ["prev"]
    assert link.stats["noise"] == 1
    assert link.stats["rejected"] == 5
    assert link.status is LinkStatus.READY


def test_heartbeat_and_silent_board_reconnect() -> None:
    rig = Rig(heartbeat=1.0, silence_timeout=3.5, reconnect_delay=1.0)
    link = rig.ready()
    link.turn("yellow")
    rig.pump(5, dt=1.0)
    pings = [c for _, c, _ in rig.board.received if c == "PING"]
    assert len(pings) >= 4
    assert link.status is LinkStatus.READY
    rig.board.alive = False
    rig.pump(5, dt=1.0)  # the first pump still reads the ACK sent just before
    assert link.status is LinkStatus.DISCONNECTED
    assert "silent" in (link.last_error or "")
    rig.board.alive = True
    rig.board.received.clear()
    rig.pump(3, dt=0.6)
    assert link.status is LinkStatus.READY
    assert rig.board.commands() == [("TURN", ["ffc800"])], "base mode restored after reconnect"
    assert link.stats["lost"] == 1
    assert rig.opens == 2


def test_no_hello_means_retry_hello_then_reopen() -> None:
    rig = Rig(heartbeat=1.0, hello_timeout=3.0)
    rig.board.answer_hello = False
    rig.pump()
    rig.pump(4, dt=1.0)
    hellos = [c for _, c, _ in rig.board.received if c == "HELLO"]
    assert len(hellos) >= 3
    assert rig.link.status is LinkStatus.DISCONNECTED
    assert "no HELLO" in (rig.link.last_error or "")


def test_port_missing_then_plugged_in() -> None:
    rig = Rig(reconnect_delay=1.0)
    rig.plugged = False
    rig.pump()
    assert rig.link.status is LinkStatus.DISCONNECTED
    assert "could not open" in (rig.link.last_error or "")
    rig.pump(dt=0.5)
    assert rig.opens == 1, "waits reconnect_delay between attempts"
    rig.pump(dt=0.6)
    assert rig.opens == 2
    rig.plugged = True
    rig.pump(dt=1.1)
    rig.pump()
    assert rig.link.status is LinkStatus.READY
    statuses = [s for s, _ in rig.statuses]
    assert statuses == [LinkStatus.DISCONNECTED, LinkStatus.CONNECTING, LinkStatus.READY]


@pytest.mark.parametrize("where", ["read", "write"])
def test_unplug_mid_game_never_raises_and_recovers(where: str) -> None:
    rig = Rig(reconnect_delay=0.5)
    link = rig.ready()
    link.turn("green")
    rig.pump()
    assert rig.ser is not None
    error = serial.SerialException("device reports readiness to read but returned no data")
    if where == "read":
        rig.ser.fail_read = error
    else:
        rig.ser.fail_write = OSError(5, "Input/output error")
    rig.plugged = False
    link.effect("win")
    rig.pump(2, dt=1.1)  # heartbeat forces a write
    assert link.status is LinkStatus.DISCONNECTED
    assert link.effect("ripple") is True  # callers carry on
    rig.plugged = True
    rig.board.received.clear()
    rig.pump(3, dt=0.6)
    assert link.status is LinkStatus.READY
    assert ("TURN", ["00ff00"]) in rig.board.commands()


def test_board_reboot_and_fallback_get_the_base_mode_back() -> None:
    rig = Rig()
    link = rig.ready()
    link.turn("red")
    rig.pump()
    rig.board.received.clear()
    rig.board.emit("FALLBACK", ["silence"])
    rig.pump()
    assert rig.board.commands() == [("TURN", ["ff0000"])]
    rig.board.received.clear()
    rig.board.seq = 0  # rebooted: counts from 0 again and says HELLO
    rig.board.hello()
    rig.pump()
    assert rig.board.commands() == [("TURN", ["ff0000"])]
    assert link.stats["fallbacks"] == 1
    assert link.stats["duplicates"] == 0


def test_incompatible_board() -> None:
    rig = Rig()
    rig.board.protocol = 2
    rig.pump(2)
    assert rig.link.status is LinkStatus.INCOMPATIBLE
    assert "protocol 2" in (rig.link.last_error or "")
    rig.link.effect("win")
    rig.pump()
    assert rig.board.commands() == []


def test_v2_frames_are_named_when_the_handshake_fails() -> None:
    rig = Rig(hello_timeout=3.0)
    rig.board.answer_hello = False
    rig.pump()
    rig.board.outbox += b"V2 0 HELLO 2 *0000\n"
    rig.pump(4, dt=1.0)
    assert rig.link.status is LinkStatus.DISCONNECTED
    assert "V2 frames" in (rig.link.last_error or "")


def test_incompatible_stays_put_without_pings() -> None:
    rig = Rig(heartbeat=1.0, silence_timeout=3.5)
    rig.board.protocol = 2
    rig.pump(2)
    rig.board.received.clear()
    rig.pump(10, dt=1.0)
    assert rig.link.status is LinkStatus.INCOMPATIBLE
    assert rig.board.received == []
    assert rig.opens == 1


def test_status_is_a_string_too() -> None:
    assert LinkStatus.READY == "ready"
    assert f"{LinkStatus.DISCONNECTED}" == "disconnected"


def test_close_is_final_and_quiet() -> None:
    rig = Rig()
    link = rig.ready()
    link.close()
    assert link.status is LinkStatus.CLOSED
    assert rig.ser is not None and not rig.ser.is_open
    assert link.turn("red") is True
    link.pump()
    assert link.status is LinkStatus.CLOSED


def test_background_thread_over_loop_url() -> None:
    # loop:// echoes our own frames back: HELLO from "the board" is our HELLO 1, which has too
    # few arguments for a board HELLO, so the link must reject it and stay CONNECTING, quietly.
    with LightBoard("loop://", heartbeat=0.05, hello_timeout=10) as link:
        assert link.wait_ready(0.3) is False
        assert link.status is LinkStatus.CONNECTING
        assert link.stats["rejected"] >= 1
    assert link.status is LinkStatus.CLOSED


def test_background_thread_with_fake_board() -> None:
    board = FakeBoard()
    link = LightBoard("fake", opener=lambda *a, **k: FakeSerial(board), poll_interval=0.005)
    try:
        assert link.wait_ready(2.0)
        link.turn("cyan")
        board.emit("KEY", ["confirm"])
        key = link.wait_key(2.0)
        assert key is not None and key.key == "confirm"
    finally:
        link.close()
    assert ("TURN", ["00dcff"]) in board.commands()


def test_null_board() -> None:
    board = open_light_board(None)
    assert isinstance(board, NullLightBoard)
    assert isinstance(open_light_board("none"), NullLightBoard)
    assert board.status is LinkStatus.ABSENT
    assert board.steady() and board.off() and board.turn("red") and board.buzz(440, 10)
    assert board.effect("nope") is False
    board.press("next")
    board.press("hold")
    assert [k.key for k in board.keys()] == ["next", "hold"]
    assert board.wait_key(0.01) is None
    with pytest.raises(ValueError):
        board.press("left")
    assert not board.wait_ready(0.01)
    board.close()
    assert board.status is LinkStatus.CLOSED


def test_open_light_board_with_port_is_real() -> None:
    link = open_light_board("/dev/companion-lights-missing", autostart=False)
    assert isinstance(link, LightBoard)
    link.pump()
    assert link.status is LinkStatus.DISCONNECTED
    link.close()


def test_knob_as_buttons_backend() -> None:
    rig = Rig()
    link = rig.ready()
    knob = KnobButtons(link)
    for key in ("next", "prev", "confirm", "hold"):
        rig.board.emit("KEY", [key])
    rig.pump()
    assert knob.poll() == ["next", "prev", "confirm", "menu"]
    assert knob.poll() == []
    knob.close()


def test_close_from_status_callback_does_not_deadlock() -> None:
    closed: list[LinkStatus] = []

    def on_status(status: LinkStatus, error: str | None) -> None:
        if status is LinkStatus.DISCONNECTED:
            link.close()
            closed.append(status)

    link = LightBoard(
        "/dev/companion-lights-missing", on_status=on_status, poll_interval=0.01, autostart=False
    )
    link.start()
    link._thread.join(timeout=2.0)  # type: ignore[union-attr]
    assert closed == [LinkStatus.DISCONNECTED]
    assert link.status is LinkStatus.CLOSED


def test_thread_survives_a_broken_status_callback(caplog: pytest.LogCaptureFixture) -> None:
    board = FakeBoard()

    def on_status(status: LinkStatus, error: str | None) -> None:
        raise RuntimeError("callback bug")

    with LightBoard(
        "fake", opener=lambda *a, **k: FakeSerial(board), on_status=on_status, poll_interval=0.005
    ) as link:
        assert link.wait_ready(2.0)
    assert "callback failed" in caplog.text


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=10))
def test_random_bytes_from_the_board_never_break_the_link(chunks: list[bytes]) -> None:
    rig = Rig()
    link = rig.ready()
    for chunk in chunks:
        rig.board.outbox += chunk
        rig.pump()
    rig.board.emit("KEY", ["confirm"])  # a good frame after the garbage still gets through
    rig.pump()
    assert link.status is LinkStatus.READY
    assert [k.key for k in link.keys()][-1:] == ["confirm"]


def test_module_command_line(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.link.__main__ import main

    assert main(["--port", str(tmp_path / "none"), "--timeout", "0.2"]) == 1
    assert "disconnected" in capsys.readouterr().out
    assert main(["--port", str(tmp_path / "none"), "--turn", "blurple"]) == 2
    assert "neither rrggbb hex nor a colour name" in capsys.readouterr().err
