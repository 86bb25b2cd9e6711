"""A noisy serial line (a flaky USB cable, a board sending garbage) is summed up in the log, not
written to it line by line; the frames that do get through still work. (The numbers: `companion
bench link`.)"""

from __future__ import annotations

import logging

import pytest

from companion.link.board import LinkStatus

from .test_board import Rig

GARBAGE = [b"\x00\xff\xfe garbage\n", b"V1 99 KEY next *0000\n", b"V2 1 HELLO *1234\n",
           b"MicroPython v1.23 on 2024-06-02\n", b"x" * 300 + b"\n"]


def flood(rig: Rig, seconds: float, lines_per_tick: int = 200) -> int:
    """Garbage at 2,000 lines a simulated second, a real key press now and then."""
    sent = 0
    for tick in range(int(seconds * 10)):
        for i in range(lines_per_tick):
            rig.board.outbox += GARBAGE[(tick + i) % len(GARBAGE)]
        sent += lines_per_tick
        if tick % 50 == 0:
            rig.board.emit("KEY", ["next"])
        rig.pump(dt=0.1)
    return sent


def test_a_minute_of_garbage_writes_a_few_log_lines_and_a_summary(caplog):
    caplog.set_level(logging.INFO, logger="companion.link")
    rig = Rig()
    link = rig.ready()
    sent = flood(rig, 59)
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.link"]
    assert sent >= 100_000 and link.stats["rejected"] + link.stats["noise"] >= 100_000
    assert len(lines) <= 8, lines  # was one line per bad frame: 118,000 here
    rejected = [m for m in lines if m.startswith("light board frame rejected")]
    assert len(rejected) == 3 and "crc" in " ".join(rejected)  # the first say what and why
    flood(rig, 2)  # the minute is over: what was held back is summed up
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.link"]
    summary = next(m for m in lines if "more frames rejected in the last" in m)
    assert "crc: " in summary and "version: " in summary and "noisy USB cable" in summary
    assert len(link.keys()) == 13 and link.status is LinkStatus.READY  # keys still arrive


def test_a_board_that_keeps_dropping_out_is_said_once_a_minute(caplog):
    caplog.set_level(logging.INFO, logger="companion.link")
    rig = Rig(reconnect_delay=1.0, hello_timeout=1.0)
    rig.board.answer_hello = False  # it opens, never answers, is dropped, opens again...
    rig.pump(600, dt=0.1)  # a minute
    said = [r.getMessage() for r in caplog.records if "disconnected" in r.getMessage()]
    assert rig.opens >= 20 and 1 <= len(said) <= 4


@pytest.mark.parametrize("burst", [1, 3])
def test_the_limiter_holds_back_after_the_burst_and_counts_by_reason(burst):
    from companion.link.board import LogLimiter

    now = [0.0]
    quiet = LogLimiter(lambda: now[0], burst=burst, window=60.0)
    allowed = [quiet.allow("frames rejected", reason) for reason in ["crc", "syntax"] * 10]
    assert allowed == [True] * burst + [False] * (20 - burst)
    now[0] = 59.0
    assert quiet.flush() == []  # the window is not over
    now[0] = 60.0
    ((kind, held, reasons, seconds),) = quiet.flush()
    assert (kind, held, sum(reasons.values()), seconds) == ("frames rejected", 20 - burst,
                                                            20 - burst, 60.0)
    assert quiet.allow("frames rejected", "crc")  # a new window logs again
