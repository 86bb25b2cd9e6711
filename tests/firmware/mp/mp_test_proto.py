# ruff: noqa: UP031 - %-formatting on purpose: this file also runs under MicroPython
# The firmware's copy of the protocol core against the shared vectors (tests/link/).
import json
import sys

import lightproto as lp
from mptest import eq, run

_here = sys.argv[0].rsplit("/", 1)[0]
with open(_here + "/../../link/proto_vectors.json") as f:
    V = json.load(f)


def _unhex(s):
    return bytes([int(s[i : i + 2], 16) for i in range(0, len(s), 2)])


def _plain(x):
    # tuples (colours) -> lists, as JSON has them
    if isinstance(x, (list, tuple)):
        return [_plain(i) for i in x]
    return x


def test_crc16():
    for data, want in V["crc16"]:
        eq("%04X" % lp.crc16(_unhex(data)), want, data)


def test_encode():
    for v in V["encode"]:
        eq(lp.encode(v["seq"], v["cmd"], v["args"]).decode(), v["line"], v["cmd"])


def test_parse_ok():
    for v in V["parse_ok"]:
        eq(lp.parse(_unhex(v["line"])), (v["seq"], v["cmd"], v["args"]), v["line"])


def test_parse_rejects():
    for v in V["parse_err"]:
        try:
            lp.parse(_unhex(v["line"]))
        except lp.ProtocolError as exc:
            eq((exc.reason, exc.seq), (v["reason"], v["seq"]), v["line"])
        else:
            raise AssertionError("accepted " + v["line"])


def test_check():
    for v in V["check"]:
        table = getattr(lp, v["table"])
        try:
            got = _plain(lp.check(v["cmd"], v["args"], table))
        except lp.ProtocolError as exc:
            got = exc.reason
        eq(got, v.get("values", v.get("error")), v["cmd"] + " " + " ".join(v["args"]))


def test_line_reader_bounded():
    r = lp.LineReader()
    eq(r.feed(b"x" * 500), [], "no newline yet")
    lines = r.feed(b"y" * 500 + b"\nV1 1 PING *FAEB\n")
    eq(len(lines[0]), lp.MAX_LINE + 1, "cut")
    eq(lines[1], b"V1 1 PING *FAEB", "next line intact")
    try:
        lp.parse(lines[0])
    except lp.ProtocolError as exc:
        eq(exc.reason, lp.TOO_LONG)


def test_line_reader_takes_cr_lf_and_crlf():
    eq(lp.LineReader().feed(b"A\rB\r\nC\nD"), [b"A", b"B", b"", b"C"])


def test_random_bytes_never_crash():
    # a cheap xorshift so the run is the same every time
    x = 2463534242
    r = lp.LineReader()
    for _ in range(300):
        chunk = bytearray()
        for _ in range(40):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            chunk.append(x & 0xFF if x & 0x300 else 10)
        for line in r.feed(bytes(chunk)):
            try:
                lp.parse(line)
            except lp.ProtocolError:
                pass


run(globals())
