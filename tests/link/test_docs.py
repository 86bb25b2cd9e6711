"""The example frames in docs/light-protocol.md are real: right checksums, valid messages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.link import lightproto as lp

DOC = Path(__file__).resolve().parents[2] / "docs" / "light-protocol.md"
LINE = re.compile(r"^([HB])> (V\S* .*?\*[0-9A-Fa-f]{4})(?:\s+(.*))?$")
EXAMPLES = [m.groups() for m in map(LINE.match, DOC.read_text().splitlines()) if m]


def test_the_doc_has_examples() -> None:
    assert len(EXAMPLES) >= 20
    assert {d for d, _, _ in EXAMPLES} == {"H", "B"}


@pytest.mark.parametrize(("direction", "frame", "note"), EXAMPLES, ids=[f for _, f, _ in EXAMPLES])
def test_doc_frame(direction: str, frame: str, note: str | None) -> None:
    table = lp.COMMANDS if direction == "H" else lp.EVENTS
    rejected = re.match(r"# rejected: (\S+)", note or "")
    if rejected:
        with pytest.raises(lp.ProtocolError) as err:
            _, cmd, args = lp.parse(frame.encode())
            lp.check(cmd, args, table)
        assert err.value.reason == rejected.group(1)
    else:
        _, cmd, args = lp.parse(frame.encode())
        lp.check(cmd, args, table)


def test_every_command_and_event_is_documented() -> None:
    text = DOC.read_text()
    for name in [*lp.COMMANDS, *lp.EVENTS, *lp.EFFECTS, *lp.KEYS, *lp.REASONS]:
        assert f"`{name}" in text, name
