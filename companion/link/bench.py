"""``companion bench link``: the light-board link under hostile input, measured.

Two numbers: how long ``lightproto.parse`` takes on ever longer lines of repeated tokens (it
must grow linearly), and how many log lines a minute of garbage on the serial line writes (a
flaky USB cable must not fill journald or the SD card). The measurements print in English,
like the logs; the last line printed is one JSON object.
"""

from __future__ import annotations

import json
import logging
import random
import time
from typing import Any

from companion.link import lightproto as lp

SIZES_KB = (100, 200, 400, 800)


def parse_times(sizes_kb=SIZES_KB, repeat: int = 3) -> dict[int, float]:
    """Milliseconds for one ``parse`` of a line of repeated ``"V1 "`` tokens, by size in KB."""
    out = {}
    for kb in sizes_kb:
        line = b"V1 " * (kb * 1000 // 3) + b"\n"
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            try:
                lp.parse(line)
            except lp.ProtocolError:
                pass
            best = min(best, time.perf_counter() - start)
        out[kb] = best * 1000
    return out


class GarbageSerial:
    """A serial port that only ever sends garbage: noise, broken frames, a foreign protocol."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = random.Random(seed)
        good = lp.encode(1, "KEY", ["next"])
        self.samples = [
            b"\x00\xff\xfe\x80garbage\n",
            good[:-6] + b"0000\n",  # a bad checksum
            b"V2 1 HELLO *1234\n",  # a protocol this host does not speak
            b"V1 x PING *FFFF\n",  # a syntax error
            b"MicroPython v1.23 on 2024-06-02; Raspberry Pi Pico\n",  # console noise
            bytes(self.rng.randrange(256) for _ in range(64)) + b"\n",
        ]
        self.is_open = True

    @property
    def in_waiting(self) -> int:
        return 4096

    def read(self, n: int = 1) -> bytes:
        out = bytearray()
        while len(out) < n:
            out += self.rng.choice(self.samples)
        return bytes(out[:n])

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        self.is_open = False


class _Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines = 0
        self.bytes = 0
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.INFO:  # what journald keeps by default
            self.lines += 1
            self.bytes += len(self.format(record)) + 1


def garbage_logging(seconds: float) -> dict[str, Any]:
    """Log lines and bytes (INFO and above) while the link reads only garbage, per minute."""
    from companion.link.board import LightBoard

    counter = _Count()
    logger = logging.getLogger("companion.link")
    old_level, old_propagate = logger.level, logger.propagate
    logger.addHandler(counter)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    board = LightBoard("garbage://", autostart=False, opener=lambda *a, **k: GarbageSerial(),
                       poll_interval=0.0)
    start = time.monotonic()
    try:
        while time.monotonic() - start < seconds:
            board.pump()
    finally:
        board.close()
        logger.removeHandler(counter)
        logger.setLevel(old_level)
        logger.propagate = old_propagate
    elapsed = time.monotonic() - start
    frames = board.stats["rejected"] + board.stats["noise"]
    return {"seconds": round(elapsed, 1), "garbage_lines": frames,
            "garbage_lines_per_min": round(frames * 60 / elapsed),
            "log_lines_per_min": round(counter.lines * 60 / elapsed),
            "log_kb_per_min": round(counter.bytes * 60 / elapsed / 1024, 1)}


def run(args) -> int:
    say = (lambda *a: None) if args.json else print
    times = parse_times()
    for kb, ms in times.items():
        say(f"parse: a {kb} KB line of repeated 'V1 ' tokens in {ms:.2f} ms")
    ratio = times[SIZES_KB[-1]] / max(times[SIZES_KB[0]], 1e-9)
    say(f"parse: {SIZES_KB[-1] // SIZES_KB[0]}x the line took {ratio:.1f}x the time "
        "(linear or better: at most about the same factor)")
    flood = garbage_logging(args.seconds)
    say(f"garbage on the serial line for {flood['seconds']} s: "
        f"{flood['garbage_lines_per_min']:,} bad lines/min -> {flood['log_lines_per_min']:,} "
        f"log lines/min ({flood['log_kb_per_min']:,} KB/min)")
    result = {"parse_ms": {str(k): round(v, 3) for k, v in times.items()},
              "parse_growth": round(ratio, 1), **flood}
    print(json.dumps(result))
    return 0


def register(bench_commands) -> None:
    b = bench_commands.add_parser(
        "link",
        help="light-board link under hostile input: parse time on long lines, log lines per "
             "minute of serial garbage",
        description="Times lightproto.parse on 100-800 KB lines of repeated tokens, and counts "
                    "the log lines written while the link reads only garbage. The last line "
                    "printed is one JSON object.")
    b.add_argument("--seconds", type=float, default=10.0,
                   help="how long to feed garbage (default 10)")
    b.add_argument("--json", action="store_true", help="print only the JSON line")
    b.set_defaults(handler=run)
