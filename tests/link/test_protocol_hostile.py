"""`lightproto.parse` on hostile lines: linear work on a long line of repeated tokens, and the
same answers as looking for a frame at every "V1 " of the line. (The numbers:
`companion bench link`.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.link import lightproto as lp

PING = lp.encode(1, "PING")


def everywhere(line: bytes):
    """The reference: the whole line, then a frame at every "V1 " after its start."""
    try:
        return lp._parse(line)
    except lp.ProtocolError as exc:
        start = line.find(b"V1 ", 1)
        while start > 0:
            try:
                return lp._parse(line[start:])
            except lp.ProtocolError:
                start = line.find(b"V1 ", start + 1)
        raise exc


def outcome(parse, line: bytes):
    try:
        return parse(line)
    except lp.ProtocolError as exc:
        return (exc.reason, exc.seq, exc.detail)


def test_a_long_line_of_repeated_tokens_is_looked_at_only_near_its_end(monkeypatch):
    seen: list[int] = []
    real = lp._parse

    def counting(line):
        seen.append(len(line))
        return real(line)

    monkeypatch.setattr(lp, "_parse", counting)
    line = b"V1 " * 100_000 + b"\n"  # 300 KB
    assert outcome(lp.parse, line)[0] == lp.TOO_LONG
    # once for the whole line (refused by its length alone), then only frames that fit
    assert seen[0] == len(line) and len(seen) <= lp.MAX_LINE // 3 + 2
    assert max(seen[1:]) <= lp.MAX_LINE + 1
    seen.clear()
    assert lp.parse(b"V1 " * 100_000 + PING) == (1, "PING", [])
    assert len(seen) <= lp.MAX_LINE // 3 + 2


TOKENS = st.sampled_from([b"V1 ", b"V1", b" ", b"x", b"\x00", b"*", b"V2 ", PING[:-1],
                          lp.encode(7, "KEY", ["next"])[:-1], b"\r", b"\n", b"FAEB"])


@settings(max_examples=400, deadline=None)
@given(parts=st.lists(TOKENS, max_size=120))
def test_parse_answers_as_if_it_looked_at_every_start(parts):
    line = b"".join(parts)
    assert outcome(lp.parse, line) == outcome(everywhere, line)
