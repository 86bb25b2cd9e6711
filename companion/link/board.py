"""Host side of the light-and-keypad board: a serial link that looks after itself.

The game loop calls :class:`LightBoard` methods and reads key events; a background thread does
the serial I/O, handshakes, heartbeats, resends unacknowledged commands and reopens the port
when the board is unplugged and plugged back. Nothing here raises into the caller for a link
problem: the state is in :attr:`LightBoard.status` and :attr:`LightBoard.last_error`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.i18n import N_, _

from . import lightproto as lp

log = logging.getLogger("companion.link")

DEFAULT_PORT = "/dev/companion-lights"  # udev symlink (systemd/), else e.g. /dev/ttyACM0

# Player colours a caller may name instead of giving hex.
NAMED_COLOURS = {
    "red": (255, 0, 0),
    "green": (0, 255, 0),
    "blue": (0, 60, 255),
    "yellow": (255, 200, 0),
    "orange": (255, 100, 0),
    "purple": (160, 0, 255),
    "pink": (255, 40, 140),
    "cyan": (0, 220, 255),
    "white": (255, 255, 255),
}

Colour = str | tuple[int, int, int]


class LogLimiter:
    """At most ``burst`` log lines of one kind per ``window`` seconds; the rest are counted,
    by reason, and said in one summary line when the window ends. A flaky USB cable sends
    garbage by the million a minute: journald and the SD card must not pay for each line.

    >>> clock = [0.0]
    >>> quiet = LogLimiter(lambda: clock[0], burst=2, window=60.0)
    >>> [quiet.allow("rejected", "crc") for _ in range(5)]
    [True, True, False, False, False]
    >>> clock[0] = 61.0
    >>> quiet.flush()
    [('rejected', 3, {'crc': 3}, 61.0)]
    """

    def __init__(self, clock: Callable[[], float], burst: int = 3, window: float = 60.0) -> None:
        self.clock = clock
        self.burst = burst
        self.window = window
        self._kinds: dict[str, list[Any]] = {}  # kind -> [start, logged, held, {reason: n}]

    def allow(self, kind: str, reason: str = "") -> bool:
        """May this line of ``kind`` be logged now? (If not, it is counted for the summary.)"""
        w = self._kinds.get(kind)
        if w is None:
            w = self._kinds[kind] = [self.clock(), 0, 0, {}]
        if w[1] < self.burst:
            w[1] += 1
            return True
        w[2] += 1
        w[3][reason] = w[3].get(reason, 0) + 1
        return False

    def flush(self, now: float | None = None) -> list[tuple[str, int, dict[str, int], float]]:
        """The windows that ended: (kind, lines held back, by reason, seconds) each."""
        now = self.clock() if now is None else now
        ended = []
        for kind, (start, _logged, held, reasons) in list(self._kinds.items()):
            if now - start >= self.window:
                del self._kinds[kind]
                if held:
                    ended.append((kind, held, reasons, now - start))
        return ended


def _drain(events: queue.SimpleQueue) -> list[KeyEvent]:
    """Everything queued so far, oldest first, without waiting."""
    out = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


class LinkStatus(StrEnum):
    """Where the link stands; compare with the enum or its string value.

    >>> LinkStatus.READY == "ready", LinkStatus("disconnected")
    (True, <LinkStatus.DISCONNECTED: 'disconnected'>)
    """

    ABSENT = "absent"  # NullLightBoard: no board on this table
    DISCONNECTED = "disconnected"  # port missing or failed; retrying every reconnect_delay
    CONNECTING = "connecting"  # port open, waiting for the board's HELLO
    READY = "ready"  # handshake done, commands flow
    INCOMPATIBLE = "incompatible"  # the board speaks another protocol version
    CLOSED = "closed"  # close() was called


# The statuses as people read them (the values above are the API's).
STATUS_WORDS = {
    LinkStatus.ABSENT: N_("absent"),
    LinkStatus.DISCONNECTED: N_("disconnected"),
    LinkStatus.CONNECTING: N_("connecting"),
    LinkStatus.READY: N_("ready"),
    LinkStatus.INCOMPATIBLE: N_("incompatible"),
    LinkStatus.CLOSED: N_("closed"),
}


def status_text(status: LinkStatus) -> str:
    """A link status in the table's language ("disconnected")."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else str(status.value)


@dataclass(frozen=True)
class KeyEvent:
    """One key from the board: ``key`` is "next", "prev", "confirm" or "hold".

    >>> KeyEvent("next", at=12.5, seq=4)
    KeyEvent(key='next', at=12.5, seq=4)
    """

    key: str
    at: float  # host clock (time.monotonic by default) when it arrived
    seq: int = -1  # the board's frame sequence number, -1 when not from a board


@dataclass(frozen=True)
class BoardInfo:
    """What the board said about itself in its HELLO.

    >>> info = BoardInfo(1, "0.1.0", 16, ("enc", "buzz"))
    >>> "enc" in info.features
    True
    """

    protocol: int
    firmware: str
    leds: int
    features: tuple[str, ...]


def colour_arg(colour: Colour) -> str:
    """Normalise a colour to the protocol's ``rrggbb``.

    >>> colour_arg("#FF8800"), colour_arg("red"), colour_arg((0, 128, 255))
    ('ff8800', 'ff0000', '0080ff')
    """
    if isinstance(colour, tuple):
        return lp.colour_hex(colour)
    text = colour.strip().lower()
    if text in NAMED_COLOURS:
        return lp.colour_hex(NAMED_COLOURS[text])
    text = text.removeprefix("#")
    try:
        lp.parse_colour(text)
    except ValueError:
        names = ", ".join(NAMED_COLOURS)
        raise ValueError(_("{colour} is neither rrggbb hex nor a colour name ({names})").format(
            colour=repr(colour), names=names)) from None
    return text


class _Pending:
    __slots__ = ("line", "sent", "tries")

    def __init__(self, line: bytes, sent: float) -> None:
        self.line = line
        self.sent = sent
        self.tries = 0


Opener = Callable[..., Any]
_BASE_COMMANDS = ("STEADY", "OFF", "TURN")


class LightBoard:
    """The light ring and knob on USB serial, reconnecting by itself.

    ``port`` is anything ``serial.serial_for_url`` opens: ``/dev/companion-lights`` (the udev
    symlink), ``/dev/ttyACM0``, a pty path, or ``loop://`` for tests. The constructor never
    fails for a missing port: the board may be plugged in later.

    Base modes (:meth:`steady`, :meth:`turn`, :meth:`off`) are remembered and sent again after
    every reconnect; :meth:`effect` and :meth:`buzz` are fire-and-forget and dropped while the
    board is not READY. Methods return False only for bad arguments (and log why).

    >>> board = LightBoard("/dev/does-not-exist", autostart=False)
    >>> board.pump()
    >>> board.status
    <LinkStatus.DISCONNECTED: 'disconnected'>
    >>> board.turn("green"), board.effect("ripple"), board.effect("disco")
    (True, True, False)
    >>> board.keys()
    []
    >>> board.close(); board.status.value
    'closed'
    """

    def __init__(
        self,
        port: str = DEFAULT_PORT,
        *,
        baudrate: int = 115200,
        heartbeat: float = 1.0,
        silence_timeout: float = 3.5,
        hello_timeout: float = 3.0,
        ack_timeout: float = 0.3,
        retries: int = 2,
        reconnect_delay: float = 1.0,
        poll_interval: float = 0.02,
        autostart: bool = True,
        opener: Opener | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_status: Callable[[LinkStatus, str | None], None] | None = None,
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self.heartbeat = heartbeat
        self.silence_timeout = silence_timeout
        self.hello_timeout = hello_timeout
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.reconnect_delay = reconnect_delay
        self.poll_interval = poll_interval
        self._opener = opener
        self._clock = clock
        self._on_status = on_status

        self._lock = threading.Lock()  # guards _base and _outbox (caller vs I/O thread)
        # one pump() at a time; re-entrant so an on_status callback may call close()
        self._io_lock = threading.RLock()
        self._ready = threading.Event()
        self._keys: queue.SimpleQueue[KeyEvent] = queue.SimpleQueue()
        self._base: tuple[str, list[str]] | None = None
        self._outbox: list[tuple[str, list[str]]] = []

        self._ser: Any = None
        self._reader = lp.LineReader()
        self._seq = 0
        self._board_seq: int | None = None
        self._foreign = ""  # protocol prefix of rejected frames, e.g. "V2"
        self._pending: dict[int, _Pending] = {}
        self._next_attempt = 0.0
        self._opened_at = 0.0
        self._hello_at = 0.0
        self._last_rx = 0.0
        self._last_tx = 0.0
        self._closed = False
        self._thread: threading.Thread | None = None
        self._quiet = LogLimiter(clock)
        self._quiet_checked = 0.0

        self.status = LinkStatus.DISCONNECTED
        self.last_error: str | None = None
        self.info: BoardInfo | None = None
        self.stats: dict[str, int] = dict.fromkeys(
            (
                "opened",
                "lost",
                "sent",
                "resent",
                "unacked",
                "dropped",
                "received",
                "rejected",
                "noise",
                "naks",
                "duplicates",
                "gaps",
                "keys",
                "fallbacks",
            ),
            0,
        )
        if autostart:
            self.start()

    # -- caller side -----------------------------------------------------------------------

    def steady(self, level: int | None = None) -> bool:
        """Even white light for the camera; ``level`` 0-255, default the board's own."""
        if level is not None and not (isinstance(level, int) and 0 <= level <= 255):
            return self._bad(f"steady level must be 0-255, got {level!r}")
        return self._request("STEADY", [] if level is None else [str(level)], base=True)

    def off(self) -> bool:
        """All LEDs off."""
        return self._request("OFF", [], base=True)

    def turn(self, colour: Colour) -> bool:
        """Breathe a player's colour: ``"ff8800"``, ``"#ff8800"``, ``(255, 136, 0)`` or a name
        from NAMED_COLOURS."""
        try:
            arg = colour_arg(colour)
        except (ValueError, TypeError, AttributeError) as exc:
            return self._bad(f"bad colour {colour!r}: {exc}")
        return self._request("TURN", [arg], base=True)

    def effect(self, name: str, colour: Colour | None = None) -> bool:
        """A short effect over the current base mode: one of lightproto.EFFECTS
        ("ripple", "stall", "paradox", "win"), optionally in another colour."""
        if name not in lp.EFFECTS:
            return self._bad(f"unknown effect {name!r} (know {', '.join(lp.EFFECTS)})")
        args = [name]
        if colour is not None:
            try:
                args.append(colour_arg(colour))
            except (ValueError, TypeError, AttributeError) as exc:
                return self._bad(f"bad colour {colour!r}: {exc}")
        return self._request("EFFECT", args, base=False)

    def buzz(self, freq_hz: int, ms: int) -> bool:
        """A tone on the board's buzzer (20-20000 Hz, 1-5000 ms); ignored if it has none."""
        if not (isinstance(freq_hz, int) and 20 <= freq_hz <= 20000):
            return self._bad(f"buzz frequency must be 20-20000 Hz, got {freq_hz!r}")
        if not (isinstance(ms, int) and 1 <= ms <= 5000):
            return self._bad(f"buzz duration must be 1-5000 ms, got {ms!r}")
        return self._request("BUZZ", [str(freq_hz), str(ms)], base=False)

    def keys(self) -> list[KeyEvent]:
        """Key events that arrived since the last call, oldest first; never blocks."""
        return _drain(self._keys)

    def wait_key(self, timeout: float) -> KeyEvent | None:
        """The next key event, or None after ``timeout`` seconds."""
        if self._thread is not None:
            try:
                return self._keys.get(timeout=timeout)
            except queue.Empty:
                return None
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self._keys.get_nowait()
            except queue.Empty:
                pass
            if time.monotonic() >= deadline:
                return None
            self.pump()

    def wait_ready(self, timeout: float) -> bool:
        """Block until the handshake is done (True) or ``timeout`` seconds pass (False)."""
        if self._thread is not None:
            return self._ready.wait(timeout)
        deadline = time.monotonic() + timeout
        while not self._ready.is_set() and time.monotonic() < deadline:
            self.pump()
        return self._ready.is_set()

    @property
    def ready(self) -> bool:
        return self.status is LinkStatus.READY

    def start(self) -> None:
        """Run the link in a daemon thread (done by the constructor unless autostart=False)."""
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._run, name="light-board", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the thread and release the port. The board falls back to steady light."""
        self._closed = True
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        with self._io_lock:
            self._close_port()
        self._set_status(LinkStatus.CLOSED, None)

    def __enter__(self) -> LightBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<LightBoard {self.port} {self.status.value}>"

    # -- I/O side --------------------------------------------------------------------------

    def pump(self) -> None:
        """One round of link work: open/reopen, read, send, resend, heartbeat.

        Returns within about ``poll_interval`` seconds. The background thread calls it in a
        loop; call it yourself only with ``autostart=False``.
        """
        with self._io_lock:
            if self._closed:
                return
            try:
                self._pump()
            except Exception as exc:  # noqa: BLE001 - the game loop must never see a link error
                self._lost(f"{type(exc).__name__}: {exc}")

    def _run(self) -> None:
        while not self._closed:
            self.pump()
            if self._ser is None:
                time.sleep(self.poll_interval)  # no port to block on

    def _summarise(self, now: float) -> None:
        """Say how many log lines the limiter held back, once a window has ended."""
        if now - self._quiet_checked < 1.0:
            return
        self._quiet_checked = now
        for kind, held, reasons, seconds in self._quiet.flush(now):
            why = ", ".join(f"{r}: {n:,}" for r, n in sorted(reasons.items()) if r)
            log.warning("light board %s: %s more %s in the last %.0f s%s; a noisy USB cable or "
                        "a board sending garbage?", self.port, f"{held:,}", kind, seconds,
                        f" ({why})" if why else "")

    def _pump(self) -> None:
        now = self._clock()
        self._summarise(now)
        if self._ser is None:
            if now < self._next_attempt:
                return
            self._open(now)
            if self._ser is None:
                return
        ser = self._ser
        data = ser.read(max(1, ser.in_waiting))  # blocks up to poll_interval
        now = self._clock()
        if data:
            for line in self._reader.feed(data):
                if line.strip():  # a blank line says nothing (CRLF makes one each frame)
                    self._handle(line, now)
        if self._ser is None:
            return
        if self.status is LinkStatus.READY:
            with self._lock:
                outbox, self._outbox = self._outbox, []
            for cmd, args in outbox:
                self._send(cmd, args, now)
        self._resend(now)
        self._keepalive(now)

    def _open(self, now: float) -> None:
        opener = self._opener
        if opener is None:
            import serial  # only needed when there is a real port to open

            opener = serial.serial_for_url
        try:
            ser = opener(
                self.port,
                baudrate=self.baudrate,
                timeout=self.poll_interval,
                write_timeout=1.0,
                exclusive=True,  # a second program on the port would garble both
            )
        except Exception as exc:  # noqa: BLE001 - SerialException, OSError, ValueError...
            self._next_attempt = now + self.reconnect_delay
            self._set_status(LinkStatus.DISCONNECTED, _("cannot open {port}: {reason}").format(
                port=self.port, reason=exc))
            return
        self._ser = ser
        self._reader = lp.LineReader()
        self._pending.clear()
        self._board_seq = None
        self._foreign = ""
        self.info = None
        self._opened_at = self._last_rx = now
        self.stats["opened"] += 1
        self._set_status(LinkStatus.CONNECTING, None)
        self._send_hello(now)

    def _close_port(self) -> None:
        ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except Exception:  # noqa: BLE001, S110 - the port may already be gone
                pass

    def _lost(self, why: str) -> None:
        self._close_port()
        self._pending.clear()
        self.stats["lost"] += 1
        self._next_attempt = self._clock() + self.reconnect_delay
        if not self._closed:
            self._set_status(LinkStatus.DISCONNECTED, why)

    def _set_status(self, status: LinkStatus, error: str | None) -> None:
        changed = status is not self.status or (error is not None and error != self.last_error)
        self.status = status
        if error is not None:
            self.last_error = error
        if status is LinkStatus.READY:
            self._ready.set()
        else:
            self._ready.clear()
        if not changed:
            return
        # A board that keeps dropping out says so once a window, then how often.
        if self._quiet.allow(f"times {status.value}"):
            if error:
                log.warning("light board %s: %s (%s)", self.port, status.value, error)
            else:
                log.info("light board %s: %s", self.port, status.value)
        if self._on_status is not None:
            try:
                self._on_status(status, error)
            except Exception:  # noqa: BLE001 - a broken callback must not break the link
                log.exception("light board status callback failed")

    def _send(self, cmd: str, args: list[str], now: float, track: bool = True) -> None:
        seq = self._seq
        self._seq = lp.next_seq(seq)
        line = lp.encode(seq, cmd, args)
        self._ser.write(line)
        self._last_tx = now
        self.stats["sent"] += 1
        if track:
            self._pending[seq] = _Pending(line, now)

    def _send_hello(self, now: float) -> None:
        self._hello_at = now
        self._send("HELLO", [str(lp.VERSION)], now, track=False)

    def _resend(self, now: float) -> None:
        for seq, p in list(self._pending.items()):
            if now - p.sent < self.ack_timeout:
                continue
            if p.tries >= self.retries:
                del self._pending[seq]
                self.stats["unacked"] += 1
                if self._quiet.allow("commands without an ACK"):
                    log.warning("light board: no ACK for %r", p.line.decode().strip())
                continue
            # Same seq: the board ACKs a repeat without doing it twice.
            self._ser.write(p.line)
            p.tries += 1
            p.sent = self._last_tx = now
            self.stats["resent"] += 1

    def _keepalive(self, now: float) -> None:
        if self.status is LinkStatus.CONNECTING:
            if now - self._opened_at > self.hello_timeout:
                seconds = f"{self.hello_timeout:.1f}"
                if self._foreign:
                    why = _("no HELLO from the board within {seconds} s (it sends {frames} "
                            "frames: firmware and host differ)").format(seconds=seconds,
                                                                        frames=self._foreign)
                else:
                    why = _("no HELLO from the board within {seconds} s").format(seconds=seconds)
                self._lost(why)
            elif now - self._hello_at >= self.heartbeat:
                self._send_hello(now)
            return
        if self.status is LinkStatus.INCOMPATIBLE:
            return  # stay put until the port goes away (the board is reflashed or unplugged)
        if now - self._last_rx > self.silence_timeout:
            self._lost(_("board silent for {seconds} s").format(
                seconds=f"{now - self._last_rx:.1f}"))
            return
        if now - self._last_tx >= self.heartbeat:
            self._send("PING", [], now, track=False)

    def _handle(self, line: bytes, now: float) -> None:
        try:
            seq, cmd, args = lp.parse(line)
            values = lp.check(cmd, args, lp.EVENTS)
        except lp.ProtocolError as exc:
            if exc.reason == lp.NO_FRAME:
                # e.g. a MicroPython banner or traceback on the same USB serial (blank lines
                # never come here)
                self.stats["noise"] += 1
                if self._quiet.allow("lines that are not frames"):
                    log.info("light board says: %s", line.decode("ascii", "replace")[:120])
                return
            self.stats["rejected"] += 1
            if self._quiet.allow("frames rejected", exc.reason):
                log.warning("light board frame rejected (%s): %r", exc, line[:80])
            if exc.reason == lp.BAD_VERSION:
                self._foreign = line[:2].decode("ascii", "replace")
            return
        self._last_rx = now
        self.stats["received"] += 1
        if cmd == "HELLO":
            self._board_seq = seq  # a board that rebooted starts counting again
        elif self._board_seq is not None:
            if seq == self._board_seq:
                self.stats["duplicates"] += 1
                return
            if seq != lp.next_seq(self._board_seq):
                self.stats["gaps"] += 1
            self._board_seq = seq
        else:
            self._board_seq = seq

        if cmd == "ACK":
            self._pending.pop(values[0], None)
        elif cmd == "NAK":
            self.stats["naks"] += 1
            nak_seq, reason = values
            if nak_seq is not None:
                self._pending.pop(nak_seq, None)  # resending the same frame will not help
            if self._quiet.allow("frames refused by the board", reason):
                log.warning("light board refused frame %s: %s", nak_seq, reason)
        elif cmd == "HELLO":
            self._on_hello(values, now)
        elif cmd == "KEY":
            self.stats["keys"] += 1
            self._keys.put(KeyEvent(values[0], now, seq))
        elif cmd == "FALLBACK":
            # The board gave up on us (we stalled) and went steady: put our look back.
            self.stats["fallbacks"] += 1
            if self._quiet.allow("fallbacks to steady light"):
                log.warning("light board fell back to steady light (%s)", values[0])
            self._send_base(now)

    def _on_hello(self, values: list[Any], now: float) -> None:
        proto, firmware, leds, features = values
        self.info = BoardInfo(proto, firmware, leds, tuple(features))
        if proto != lp.VERSION:
            self._set_status(
                LinkStatus.INCOMPATIBLE,
                _("board speaks protocol {board}, host {host}: update the firmware").format(
                    board=proto, host=lp.VERSION),
            )
            return
        self._set_status(LinkStatus.READY, None)
        self._send_base(now)

    def _send_base(self, now: float) -> None:
        with self._lock:
            base = self._base
        if base is not None and self.status is LinkStatus.READY:
            self._send(base[0], base[1], now)

    def _request(self, cmd: str, args: list[str], base: bool) -> bool:
        if self._closed:
            return True
        with self._lock:
            if base:
                self._base = (cmd, args)
                # a newer base mode makes queued older ones pointless
                self._outbox = [
                    (c, a) for c, a in self._outbox if c not in ("STEADY", "OFF", "TURN")
                ]
            if self.status is LinkStatus.READY:
                self._outbox.append((cmd, args))
            elif not base:
                self.stats["dropped"] += 1
        return True

    def _bad(self, why: str) -> bool:
        log.warning("light board: %s", why)
        return False


class NullLightBoard:
    """The same interface for a table without a board: does nothing, remembers the calls.

    Tests and keyboard-driven tables can push key events with :meth:`press`.

    >>> board = NullLightBoard()
    >>> board.status.value, board.turn("red"), board.effect("win")
    ('absent', True, True)
    >>> board.calls
    [('turn', ('red',)), ('effect', ('win', None))]
    >>> board.press("confirm"); [k.key for k in board.keys()]
    ['confirm']
    """

    port = "none"
    info: BoardInfo | None = None
    last_error: str | None = None
    ready = False

    def __init__(self) -> None:
        self.status = LinkStatus.ABSENT
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.stats: dict[str, int] = {}
        self._keys: queue.SimpleQueue[KeyEvent] = queue.SimpleQueue()

    def steady(self, level: int | None = None) -> bool:
        self.calls.append(("steady", (level,)))
        return True

    def off(self) -> bool:
        self.calls.append(("off", ()))
        return True

    def turn(self, colour: Colour) -> bool:
        self.calls.append(("turn", (colour,)))
        return True

    def effect(self, name: str, colour: Colour | None = None) -> bool:
        self.calls.append(("effect", (name, colour)))
        return name in lp.EFFECTS

    def buzz(self, freq_hz: int, ms: int) -> bool:
        self.calls.append(("buzz", (freq_hz, ms)))
        return True

    def press(self, key: str) -> None:
        """Inject a key event as if the board had sent it."""
        if key not in lp.KEYS:
            raise ValueError(f"key must be one of {', '.join(lp.KEYS)}")
        self._keys.put(KeyEvent(key, time.monotonic()))

    def keys(self) -> list[KeyEvent]:
        return _drain(self._keys)

    def wait_key(self, timeout: float) -> KeyEvent | None:
        try:
            return self._keys.get(timeout=timeout)
        except queue.Empty:
            return None

    def wait_ready(self, timeout: float) -> bool:
        return False

    def pump(self) -> None:
        pass

    def start(self) -> None:
        pass

    def close(self) -> None:
        self.status = LinkStatus.CLOSED

    def __enter__(self) -> NullLightBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_light_board(port: str | None, **kwargs: Any) -> LightBoard | NullLightBoard:
    """The board named in config: a port or URL, or ``None``/``""``/``"none"`` for no board.

    >>> open_light_board("none").status.value
    'absent'
    """
    if not port or port.strip().lower() == "none":
        return NullLightBoard()
    return LightBoard(port, **kwargs)


class KnobButtons:
    """The board's knob as a buttons backend: ``poll()`` gives press names like
    ``companion.buttons`` (a long push of the knob is "menu", as a long confirm is there).

    >>> board = NullLightBoard()
    >>> knob = KnobButtons(board)
    >>> board.press("next"); board.press("hold")
    >>> knob.poll()
    ['next', 'menu']
    """

    KEY_TO_PRESS = {"next": "next", "prev": "prev", "confirm": "confirm", "hold": "menu"}

    def __init__(self, board: LightBoard | NullLightBoard) -> None:
        self.board = board

    def poll(self) -> list[str]:
        return [self.KEY_TO_PRESS[k.key] for k in self.board.keys() if k.key in self.KEY_TO_PRESS]

    def close(self) -> None:
        pass  # the board belongs to whoever opened it
