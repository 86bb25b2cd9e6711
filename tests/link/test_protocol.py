"""The protocol core on CPython: shared vectors, an independent CRC, and fuzzing."""

from __future__ import annotations

import binascii
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.link import lightproto as lp

VECTORS = json.loads((Path(__file__).parent / "proto_vectors.json").read_text())


def _plain(x: object) -> object:
    if isinstance(x, list | tuple):
        return [_plain(i) for i in x]
    return x


@pytest.mark.parametrize(("data", "want"), VECTORS["crc16"])
def test_crc16_vectors(data: str, want: str) -> None:
    raw = bytes.fromhex(data)
    assert f"{lp.crc16(raw):04X}" == want
    # CRC-16/CCITT-FALSE is binascii's crc_hqx started at 0xFFFF: an independent oracle
    assert lp.crc16(raw) == binascii.crc_hqx(raw, 0xFFFF)


@pytest.mark.parametrize("v", VECTORS["encode"], ids=lambda v: v["cmd"])
def test_encode_vectors(v: dict) -> None:
    assert lp.encode(v["seq"], v["cmd"], v["args"]).decode() == v["line"]


@pytest.mark.parametrize("v", VECTORS["parse_ok"], ids=lambda v: v["line"][-12:])
def test_parse_vectors(v: dict) -> None:
    assert lp.parse(bytes.fromhex(v["line"])) == (v["seq"], v["cmd"], v["args"])


@pytest.mark.parametrize("v", VECTORS["parse_err"], ids=lambda v: v["reason"])
def test_parse_rejects(v: dict) -> None:
    with pytest.raises(lp.ProtocolError) as err:
        lp.parse(bytes.fromhex(v["line"]))
    assert (err.value.reason, err.value.seq) == (v["reason"], v["seq"])
    assert str(err.value).startswith(v["reason"])


@pytest.mark.parametrize("v", VECTORS["check"], ids=lambda v: f"{v['cmd']}-{'-'.join(v['args'])}")
def test_check_vectors(v: dict) -> None:
    table = getattr(lp, v["table"])
    if "error" in v:
        with pytest.raises(lp.ProtocolError) as err:
            lp.check(v["cmd"], v["args"], table)
        assert err.value.reason == v["error"]
    else:
        assert _plain(lp.check(v["cmd"], v["args"], table)) == v["values"]


def test_encode_refuses_what_the_grammar_forbids() -> None:
    for seq, cmd, args in [
        (-1, "PING", []),
        (65536, "PING", []),
        (0, "ping", []),
        (0, "PING", ["two words"]),
        (0, "PING", ["star*"]),
        (0, "PING", [""]),
        (0, "PING", ["x" * 25]),
        (0, "PING", ["a"] * 6),
    ]:
        with pytest.raises(ValueError):
            lp.encode(seq, cmd, args)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=300))
def test_parse_survives_any_bytes(data: bytes) -> None:
    try:
        seq, cmd, args = lp.parse(data)
    except lp.ProtocolError as exc:
        assert exc.reason in lp.REASONS
        return
    # anything accepted really is a well-formed frame: encoding it again gives the same bytes
    line = data[:-1] if data.endswith(b"\n") else data
    line = line[:-1] if line.endswith(b"\r") else line
    again = lp.encode(seq, cmd, args)[:-1]
    assert again[:-4] == line[:-4]
    assert again[-4:] == line[-4:].upper()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=30))
def test_reader_and_parser_survive_a_random_stream(chunks: list[bytes]) -> None:
    reader = lp.LineReader()
    for chunk in chunks:
        for line in reader.feed(chunk):
            assert len(line) <= lp.MAX_LINE + 1
            try:
                lp.parse(line)
            except lp.ProtocolError as exc:
                assert exc.reason in lp.REASONS
            try:
                _, cmd, args = lp.parse(line)
                lp.check(cmd, args, lp.EVENTS)
            except lp.ProtocolError:
                pass


_token = st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=126, blacklist_characters="*"),
    min_size=1,
    max_size=lp.MAX_ARG_LEN,
)
_frames = st.tuples(
    st.integers(0, lp.SEQ_MOD - 1),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=12),
    st.lists(_token, max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(_frames, st.lists(st.integers(1, 12), max_size=8))
def test_round_trip_through_any_chunking(frame: tuple, cuts: list[int]) -> None:
    seq, cmd, args = frame
    line = lp.encode(seq, cmd, args)
    reader = lp.LineReader()
    got: list[bytes] = []
    rest = b"junk\n" + line + line
    for n in cuts:
        got += reader.feed(rest[:n])
        rest = rest[n:]
    got += reader.feed(rest)
    assert got[1:] == [line.rstrip(b"\n")] * 2
    assert lp.parse(got[1]) == (seq, cmd, args)


@settings(max_examples=300, deadline=None)
@given(_frames, st.data())
def test_single_bit_errors_never_change_a_frame(frame: tuple, data: st.DataObject) -> None:
    line = bytearray(lp.encode(*frame).rstrip(b"\n"))
    i = data.draw(st.integers(0, len(line) - 1))
    bit = data.draw(st.integers(0, 7))
    line[i] ^= 1 << bit
    try:
        got = lp.parse(bytes(line))
    except lp.ProtocolError:
        return
    # only the checksum's hex case may flip (0x20) and still say the same thing
    assert got == frame


def test_line_reader_cuts_overlong_lines() -> None:
    reader = lp.LineReader()
    assert reader.feed(b"V" * 1000) == []
    lines = reader.feed(b"V" * 1000 + b"\n" + lp.encode(1, "PING"))
    assert len(lines) == 2
    with pytest.raises(lp.ProtocolError, match="too-long"):
        lp.parse(lines[0])
    assert lp.parse(lines[1]) == (1, "PING", [])


def test_line_reader_takes_cr_lf_and_crlf() -> None:
    assert lp.LineReader().feed(b"A\rB\r\nC\nD") == [b"A", b"B", b"", b"C"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=300).map(
    lambda b: b.replace(b"\x00", b"\n").replace(b"\x01", b"\r")), max_size=12))
def test_line_reader_gives_the_same_lines_however_the_stream_is_cut(chunks) -> None:
    """Each LF or CR ends a line, a line keeps its last MAX_LINE + 1 bytes, whatever the
    chunks the serial port hands over."""
    stream = b"".join(chunks)
    *ended, _rest = stream.replace(b"\r", b"\n").split(b"\n")
    reader = lp.LineReader()
    got = [line for chunk in chunks for line in reader.feed(chunk)]
    assert got == [line[-(lp.MAX_LINE + 1):] for line in ended]


def test_colour_helpers() -> None:
    assert lp.parse_colour("FF8800") == (255, 136, 0)
    assert lp.colour_hex((255, 136, 0)) == "ff8800"
    for bad in ["ff880", "ff88000", "gg8800", "+f8800"]:
        with pytest.raises(ValueError):
            lp.parse_colour(bad)
    with pytest.raises(ValueError):
        lp.colour_hex((256, 0, 0))
