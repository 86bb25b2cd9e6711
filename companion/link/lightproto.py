# ruff: noqa: UP031 - %-formatting on purpose: this file also runs under MicroPython
"""The light-board line protocol, shared by the host and the Pico firmware.

This one file runs unchanged under CPython (``companion.link.lightproto``) and under MicroPython
(the deploy step copies it onto the Pico beside the firmware; see firmware/README.md). So it
uses only what both have: no ``typing``, no f-strings, no ``bytes.decode`` on untrusted input.

A frame is one ASCII line (see docs/light-protocol.md)::

    V1 <seq> <CMD> [arg ...] *<crc16 hex>\\n

>>> line = encode(7, "TURN", ["ff8800"])
>>> line
b'V1 7 TURN ff8800 *0642\\n'
>>> parse(line)
(7, 'TURN', ['ff8800'])
>>> check("TURN", ["ff8800"], COMMANDS)
[(255, 136, 0)]
"""

VERSION = 1
PREFIX = "V1"
MAX_LINE = 120  # bytes, newline excluded; keeps the Pico's buffers small
MAX_ARGS = 5
MAX_ARG_LEN = 24
SEQ_MOD = 65536

# Reasons carried by NAK frames and by ProtocolError.reason.
TOO_LONG = "too-long"
NOT_ASCII = "not-ascii"
NO_FRAME = "no-frame"
BAD_VERSION = "version"
SYNTAX = "syntax"
BAD_CRC = "crc"
UNKNOWN = "unknown"
BAD_ARGS = "bad-args"
INTERNAL = "internal"
REASONS = (TOO_LONG, NOT_ASCII, NO_FRAME, BAD_VERSION, SYNTAX, BAD_CRC, UNKNOWN, BAD_ARGS, INTERNAL)

EFFECTS = ("ripple", "stall", "paradox", "win")
KEYS = ("next", "prev", "confirm", "hold")

# Argument specs: one letter per argument; everything after "?" is optional.
#   v protocol version, l level 0-255, c colour rrggbb, e effect name, f frequency 20-20000 Hz,
#   m duration 1-5000 ms, q sequence number or "-", r NAK reason, k key name,
#   n count 1-255, t free token, x feature list ("-" when none).
COMMANDS = {  # host -> board
    "HELLO": "v",
    "PING": "",
    "STEADY": "?l",
    "OFF": "",
    "TURN": "c",
    "EFFECT": "e?c",
    "BUZZ": "fm",
}
EVENTS = {  # board -> host
    "HELLO": "vtnx",
    "ACK": "q",
    "NAK": "qr",
    "KEY": "k",
    "FALLBACK": "t",
}


class ProtocolError(Exception):
    """A frame was rejected. ``reason`` is one of REASONS; ``seq`` is the frame's sequence
    number when it could be read (so a NAK can name it), else None."""

    def __init__(self, reason, detail="", seq=None):
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail
        self.seq = seq

    def __str__(self):
        if self.detail:
            return "%s: %s" % (self.reason, self.detail)
        return self.reason


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), the common XMODEM-style CRC.

    >>> "%04X" % crc16(b"123456789")
    '29B1'
    """
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def _token_ok(tok: str) -> bool:
    if not tok or len(tok) > MAX_ARG_LEN:
        return False
    for ch in tok:
        o = ord(ch)
        if o <= 32 or o > 126 or ch == "*":
            return False
    return True


def encode(seq: int, cmd: str, args=()) -> bytes:
    """Build one frame, newline included. Raises ValueError for a token the grammar forbids."""
    if not 0 <= seq < SEQ_MOD:
        raise ValueError("seq out of range: %r" % (seq,))
    if not _cmd_ok(cmd):
        raise ValueError("bad command name: %r" % (cmd,))
    if len(args) > MAX_ARGS:
        raise ValueError("too many arguments")
    parts = [PREFIX, str(seq), cmd]
    for arg in args:
        arg = str(arg)
        if not _token_ok(arg):
            raise ValueError("bad argument: %r" % (arg,))
        parts.append(arg)
    body = " ".join(parts) + " "
    raw = body.encode()
    line = raw + b"*" + ("%04X" % crc16(raw)).encode() + b"\n"
    if len(line) - 1 > MAX_LINE:
        raise ValueError("frame too long")
    return line


def _cmd_ok(cmd: str) -> bool:
    if not 1 <= len(cmd) <= 12:
        return False
    for ch in cmd:
        if not "A" <= ch <= "Z":
            return False
    return True


def _seq_of(tok: str):
    # Decimal, no sign, no leading zeros beyond a lone "0"; None if not a sequence number.
    if not tok or len(tok) > 5 or not tok.isdigit():
        return None
    if len(tok) > 1 and tok[0] == "0":
        return None
    n = int(tok)
    if n >= SEQ_MOD:
        return None
    return n


def parse(line: bytes):
    """Parse one line (without or with its newline) into ``(seq, cmd, args)``.

    Raises ProtocolError with a reason from REASONS; never anything else. Noise in front of a
    frame on the same line (a half-sent line at plug-in, line noise) is skipped: the frame's
    own checksum says whether what follows the noise is a real frame.

    >>> parse(b"\\x00noiseV1 1 PING *FAEB")
    (1, 'PING', [])

    >>> parse(b"V1 3 PING *0000")
    Traceback (most recent call last):
    ...
    companion.link.lightproto.ProtocolError: crc: frame says 0000, computed 9A08
    """
    try:
        return _parse(line)
    except ProtocolError as exc:
        # A frame is at most MAX_LINE bytes, so only the line's last MAX_LINE bytes can hold
        # one: looking further back would only find frames too long (and take quadratic time
        # on a long line of repeated tokens).
        end = len(line)
        if line.endswith(b"\n"):
            end -= 1
        if end and line[end - 1 : end] == b"\r":
            end -= 1
        start = line.find(b"V1 ", max(1, end - MAX_LINE))
        while start > 0:
            try:
                return _parse(line[start:])
            except ProtocolError:
                start = line.find(b"V1 ", start + 1)
        raise exc


def _parse(line: bytes):
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError(TOO_LONG, "%d bytes, limit %d" % (len(line), MAX_LINE))
    for byte in line:
        if byte < 32 or byte > 126:
            raise ProtocolError(NOT_ASCII, "byte 0x%02X" % byte)
    text = line.decode()
    if not text.startswith("V"):
        raise ProtocolError(NO_FRAME, "line does not start with V")
    parts = text.split(" ")
    seq = _seq_of(parts[1]) if len(parts) > 1 else None
    if parts[0] != PREFIX:
        raise ProtocolError(BAD_VERSION, "got %s, speak %s" % (parts[0][:8], PREFIX), seq)
    star = text.rfind(" *")
    if star < 0 or len(text) != star + 6:
        raise ProtocolError(SYNTAX, "missing ' *<crc16 hex>' checksum at the end", seq)
    crc_text = text[star + 2 :]
    for ch in crc_text:
        if ch not in "0123456789abcdefABCDEF":
            raise ProtocolError(SYNTAX, "checksum is not hex", seq)
    want = int(crc_text, 16)
    got = crc16(line[: star + 1])
    if want != got:
        raise ProtocolError(BAD_CRC, "frame says %s, computed %04X" % (crc_text, got))
    parts = text[:star].split(" ")
    if len(parts) < 3:
        raise ProtocolError(SYNTAX, "need V1 <seq> <CMD>", seq)
    if seq is None:
        raise ProtocolError(SYNTAX, "bad sequence number %r" % parts[1][:8])
    cmd = parts[2]
    if not _cmd_ok(cmd):
        raise ProtocolError(SYNTAX, "bad command name", seq)
    args = parts[3:]
    if len(args) > MAX_ARGS:
        raise ProtocolError(SYNTAX, "too many arguments", seq)
    for arg in args:
        if not _token_ok(arg):
            raise ProtocolError(SYNTAX, "bad argument token", seq)
    return seq, cmd, args


def parse_colour(tok: str):
    """``"ff8800"`` -> ``(255, 136, 0)``; ValueError otherwise."""
    if len(tok) != 6:
        raise ValueError("colour must be 6 hex digits")
    for ch in tok:
        if ch not in "0123456789abcdefABCDEF":
            raise ValueError("colour must be 6 hex digits")
    return (int(tok[0:2], 16), int(tok[2:4], 16), int(tok[4:6], 16))


def colour_hex(rgb) -> str:
    """``(255, 136, 0)`` -> ``"ff8800"``."""
    r, g, b = rgb
    for c in (r, g, b):
        if not 0 <= c <= 255:
            raise ValueError("colour channel out of range")
    return "%02x%02x%02x" % (r, g, b)


def _int_in(tok: str, lo: int, hi: int) -> int:
    if not tok.isdigit() or len(tok) > 6:
        raise ValueError("not a number")
    n = int(tok)
    if not lo <= n <= hi:
        raise ValueError("%d outside %d-%d" % (n, lo, hi))
    return n


def _convert(kind: str, tok: str):
    if kind == "v":
        return _int_in(tok, 0, 999)
    if kind == "l":
        return _int_in(tok, 0, 255)
    if kind == "n":
        return _int_in(tok, 1, 255)
    if kind == "f":
        return _int_in(tok, 20, 20000)
    if kind == "m":
        return _int_in(tok, 1, 5000)
    if kind == "c":
        return parse_colour(tok)
    if kind == "e":
        if tok not in EFFECTS:
            raise ValueError("unknown effect")
        return tok
    if kind == "k":
        if tok not in KEYS:
            raise ValueError("unknown key")
        return tok
    if kind == "r":
        if tok not in REASONS:
            raise ValueError("unknown reason")
        return tok
    if kind == "q":
        if tok == "-":
            return None
        n = _seq_of(tok)
        if n is None:
            raise ValueError("bad sequence number")
        return n
    if kind == "x":
        if tok == "-":
            return []
        return tok.split(",")
    return tok  # "t": any token


def check(cmd: str, args, table) -> list:
    """Check a parsed frame's arguments against ``table`` (COMMANDS or EVENTS) and convert them.

    Raises ProtocolError(UNKNOWN) for a name not in the table, ProtocolError(BAD_ARGS) otherwise.
    Optional arguments that are absent come back as None.
    """
    spec = table.get(cmd)
    if spec is None:
        raise ProtocolError(UNKNOWN, "no command %s" % cmd)
    required = spec.split("?")[0]
    kinds = spec.replace("?", "")
    if not len(required) <= len(args) <= len(kinds):
        raise ProtocolError(BAD_ARGS, "%s takes %d-%d arguments" % (cmd, len(required), len(kinds)))
    out = []
    for i in range(len(kinds)):
        if i >= len(args):
            out.append(None)
            continue
        try:
            out.append(_convert(kinds[i], args[i]))
        except ValueError as exc:
            raise ProtocolError(BAD_ARGS, "%s argument %d: %s" % (cmd, i + 1, exc)) from None
    return out


def next_seq(seq: int) -> int:
    return (seq + 1) % SEQ_MOD


class LineReader:
    """Splits a byte stream into lines at LF or CR, keeping memory bounded.

    A line longer than MAX_LINE keeps only its last MAX_LINE + 1 bytes: ``parse`` then rejects
    it as too long, or finds the frame at its end when noise ran on without a newline.

    >>> r = LineReader()
    >>> r.feed(b"V1 1 PI")
    []
    >>> r.feed(b"NG *FAEB\\nV1")
    [b'V1 1 PING *FAEB']
    """

    def __init__(self):
        self._buf = bytearray()

    def feed(self, data: bytes) -> list:
        # CR ends a line too: terminals send it for Enter (CRLF gives a blank line). One split,
        # not a search per line: a flood of line ends must cost no more than its bytes.
        *ended, rest = bytes(data).replace(b"\r", b"\n").split(b"\n")
        lines = []
        for part in ended:
            if self._buf:  # the end of a line begun in an earlier chunk
                self._add(part)
                lines.append(bytes(self._buf))
                self._buf = bytearray()
            else:
                lines.append(part[-(MAX_LINE + 1):])
        self._add(rest)
        return lines

    def _add(self, chunk):
        self._buf.extend(chunk)
        if len(self._buf) > MAX_LINE + 1:
            self._buf = self._buf[-(MAX_LINE + 1) :]
