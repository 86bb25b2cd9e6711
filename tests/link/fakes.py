"""An in-process stand-in for the board behind a pyserial-like object, for host-side tests."""

from __future__ import annotations

import threading

from companion.link import lightproto as lp


class FakeBoard:
    """Answers frames the way the firmware does (ACK, HELLO), and can be told to misbehave."""

    def __init__(self, protocol: int = lp.VERSION) -> None:
        self.protocol = protocol
        self.seq = 0
        self.received: list[tuple[int, str, list[str]]] = []
        self.outbox = bytearray()
        self.ack = True  # False: swallow commands silently (lost ACKs)
        self.answer_hello = True
        self.alive = True  # False: say nothing at all
        self.lock = threading.Lock()  # a test thread and the link thread may both emit

    def emit(
        self, cmd: str, args: list[str] | tuple[str, ...] = (), seq: int | None = None
    ) -> None:
        with self.lock:
            if seq is None:
                seq, self.seq = self.seq, lp.next_seq(self.seq)
            self.outbox += lp.encode(seq, cmd, list(args))

    def hello(self) -> None:
        self.emit("HELLO", [str(self.protocol), "9.9.9", "24", "enc,buzz"])

    def take(self, line: bytes) -> None:
        seq, cmd, args = lp.parse(line)
        self.received.append((seq, cmd, args))
        if not self.alive:
            return
        if cmd == "HELLO":
            if self.answer_hello:
                self.emit("ACK", [str(seq)])
                self.hello()
        elif self.ack or cmd == "PING":
            self.emit("ACK", [str(seq)])

    def commands(self) -> list[tuple[str, list[str]]]:
        """What the host sent, heartbeats and handshakes left out."""
        return [(c, a) for _, c, a in self.received if c not in ("PING", "HELLO")]


class FakeSerial:
    """Just the parts of serial.Serial that LightBoard uses."""

    def __init__(self, board: FakeBoard) -> None:
        self.board = board
        self.reader = lp.LineReader()
        self.is_open = True
        self.fail_write: Exception | None = None
        self.fail_read: Exception | None = None
        self.written = bytearray()

    @property
    def in_waiting(self) -> int:
        if self.fail_read:
            raise self.fail_read
        return len(self.board.outbox)

    def read(self, n: int = 1) -> bytes:
        if self.fail_read:
            raise self.fail_read
        with self.board.lock:
            data = bytes(self.board.outbox[:n])
            del self.board.outbox[:n]
        return data

    def write(self, data: bytes) -> int:
        if self.fail_write:
            raise self.fail_write
        self.written += data
        for line in self.reader.feed(data):
            self.board.take(line)
        return len(data)

    def close(self) -> None:
        self.is_open = False


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
