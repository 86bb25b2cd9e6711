"""The Card Game's content packs: the demo pack, what the rulebook states, the owner's own box,
and clear errors for packs that cannot work."""

from __future__ import annotations

import random

import pytest

from companion.bots import play
from companion.content import (
    PackError,
    demo_pack,
    owner_pack,
    pack_named,
    parse_pack,
    playable,
    save_owner_pack,
)
from companion.match import Match
from companion.titles.timeline import content
from companion.titles.timeline import rules as tl
from companion.titles.timeline.bots import bot
from companion.titles.timeline.model import BOX_COUNTS, BOX_IDENTITIES

DEMO = demo_pack("timeline")

HEAD = '[pack]\ntitle = "timeline"\nname = "test"\n'
GOOD = """
[[event]]
id = "A-2"
kind = "linchpin"
ripples = ["A-6", "A-5"]

[[event]]
id = "A-3"
kind = "linchpin"
ripples = ["A-4", "A-5"]

[[event]]
id = "A-4"
kind = "ripple"

[[event]]
id = "A-5"
kind = "ripple"
pair = "and"

[[event]]
id = "A-6"
kind = "ripple"

[[identity]]
id = "x"
character = "X"
requires = { A-2 = "altered", A-4 = "original", A-6 = "altered" }

[[card]]
id = "map"
type = "item"

[[card]]
id = "db"
type = "doubleback"
linchpin = "A-2"
item = "map"
"""


def test_the_demo_pack_validates_and_keeps_the_rulebook_counts():
    assert DEMO.source == "demo"
    assert content.box_counts(DEMO) == BOX_COUNTS  # 17/6/8/17/14 = 62 game cards
    assert sum(BOX_COUNTS.values()) == 62
    assert len(DEMO.entries("identity")) == BOX_IDENTITIES
    events = DEMO.entries("event")
    assert len(events) == 23  # 24 positions, B-1 being the stack
    linchpins = [e["id"] for e in events if e["kind"] == "linchpin"]
    assert len(linchpins) == 8  # with B-1 the rulebook's 9
    doublebacks = [c for c in DEMO.entries("card") if c["type"] == "doubleback"]
    assert sorted(c["linchpin"] for c in doublebacks) == sorted(linchpins)
    pairs = sorted(e["id"] for e in events if e.get("pair"))
    assert pairs == ["A-5", "C-3", "D-6"]  # the rulebook's three pair events


def test_the_demo_pack_marks_what_the_rulebook_states():
    rulebook = {
        section: sorted(e["id"] for e in DEMO.entries(section) if e["source"] == "rulebook")
        for section in ("event", "identity", "card")
    }
    assert rulebook == {
        "event": ["A-2", "A-3", "A-4", "A-5", "A-6"],
        "identity": ["verne"],
        "card": ["fax", "hitch-a-ride", "memo", "newspaper", "rewind", "telegram", "time-train"],
    }
    assert all(e["source"] in ("rulebook", "demo") for s in DEMO.sections.values() for e in s)
    verne = DEMO.card("verne", "identity")
    assert verne["character"] == "Verne Brown"
    assert verne["requires"] == {"A-1": "altered", "A-5": "altered", "C-5": "original"}
    a5 = DEMO.card("A-5", "event")
    assert a5["pair"] == "and" and a5["altered"] == "Hill Valley Hosts Wedding"
    assert DEMO.card("A-2", "event")["ripples"] == ["A-6", "A-5"]
    assert DEMO.card("B-2", "event")["holder"] == "almanac"  # the official FAQ
    assert all(e.get("note") for s in DEMO.sections.values() for e in s
               if e["source"] == "rulebook")  # each says what the rulebook does not state


def test_the_demo_pack_plays_whole_games_for_every_player_count():
    for players in range(2, 7):
        assert playable(DEMO, players) is None
        state = tl.new_game([f"P{i}" for i in range(players)], {}, DEMO)
        *_, (_, final, _) = play(tl, state, random.Random(players), bot=bot)
        assert len(tl.winners(final)) == 1


def test_a_good_small_pack_parses():
    pack = parse_pack(HEAD + GOOD, "mine.toml", "timeline")
    assert pack.source == "owner"
    assert [e["id"] for e in pack.entries("event")] == ["A-2", "A-3", "A-4", "A-5", "A-6"]
    assert pack.card("db")["name"] == "db"  # the name defaults to the id
    assert playable(pack, 2) == "2 players need 2 ID cards and the pack has 1"


def _with(old: str, new: str) -> str:
    assert old in GOOD, old
    return HEAD + GOOD.replace(old, new)


@pytest.mark.parametrize(
    "text, words",
    [
        # a cycle in the TimeLine graph
        (HEAD + GOOD + '\n[[event]]\nid = "C-1"\nkind = "ripple"\nripples = ["C-3"]\n'
         '\n[[event]]\nid = "C-2"\nkind = "ripple"\nripples = ["C-1"]\n'
         '\n[[event]]\nid = "C-3"\nkind = "ripple"\nripples = ["C-2"]\n',
         ["the ripples go round in a circle: C-1 -> C-3 -> C-2 -> C-1"]),
        # an ID naming a missing event
        (_with('A-4 = "original"', 'D-6 = "original"'),
         ["ID 'x'", "D-6", "does not have", "register them first"]),
        # a DoubleBack without its Item
        (_with('item = "map"', 'item = "hoverboard"'),
         ["card 'db'", "item 'hoverboard' names no card", "register the Item"]),
        (_with('item = "map"', 'item = "db"'), ["'db'", "is a doubleback, not an Item"]),
        (_with('linchpin = "A-2"', 'linchpin = "A-6"'), ["A-6 is a Ripplepoint"]),
        (_with('linchpin = "A-2"', 'linchpin = "Z-9"'), ["'Z-9' is not a Time Index"]),
        (_with('pair = "and"\n', ''), ["A-5 depends on the pair A-2 and A-3", "and", "or"]),
        (_with('ripples = ["A-6", "A-5"]', 'ripples = ["A-6", "A-5", "A-3"]'),
         ["A-3 is a Linchpin but A-2 lists it as a ripple"]),
        (_with('ripples = ["A-6", "A-5"]', 'ripples = ["A-5"]'),
         ["Ripplepoint A-6 is not listed as a ripple of any event"]),
        (_with('ripples = ["A-6", "A-5"]', 'ripples = ["A-6", "A-5", "A-7"]'),
         ["'A-7' is not a Time Index"]),
        (_with('ripples = ["A-6", "A-5"]', 'ripples = ["A-6", "A-5", "B-4"]'),
         ["A-2 lists B-4 as a ripple, but there is no event B-4"]),
        (_with('id = "A-2"\nkind = "linchpin"\nripples = ["A-6", "A-5"]',
               'id = "B-1"\nkind = "linchpin"\nripples = ["A-6", "A-5"]'),
         ["B-1 is the stack", "leave it out"]),
        (_with('kind = "ripple"\npair', 'kind = "ripplepoint"\npair'), ['"linchpin" or "ripple"']),
        (_with('A-4 = "original"', 'A-4 = "altered"'),
         ["one original event and two altered ones", "0 original and 3 altered"]),
        (_with('A-4 = "original"', 'A-4 = "sideways"'), ['"original" or "altered"']),
        (_with('requires = { A-2 = "altered", A-4 = "original", A-6 = "altered" }',
               'requires = { A-4 = "original", A-5 = "altered", A-6 = "altered" }'),
         ["ID 'x' (X) can never be met"]),
        (_with('type = "item"', 'type = "gadget"'), ["type 'gadget' must be one of"]),
        (_with('type = "item"', 'type = "item"\ndraw = 2'), ["unknown field(s) draw for an Item"]),
        (_with('type = "item"', 'type = "item"\ncount = 0'), ["count must be a whole number"]),
        (_with('type = "item"', 'type = "item"\nmemo = "yes"'), ["memo must be true or false"]),
        (HEAD + GOOD + '\n[[card]]\nid = "a"\ntype = "action"\n', ["an Action must do something"]),
        (HEAD + GOOD + '\n[[card]]\nid = "a"\ntype = "power_action"\nout_of_turn = true\n'
         'hitch = true\n', ["changing the TimeLine and extra plays belong to your own turn"]),
        (HEAD + GOOD + '\n[[card]]\nid = "a"\ntype = "action"\nsteal = true\nhitch = true\n',
         ["one targeted thing", "hitch and steal"]),
        (HEAD + GOOD + '\n[[card]]\nid = "t"\ntype = "time_machine"\nnever = ["A-4"]\n',
         ["never names A-4, which is not a Linchpin"]),
        (HEAD + GOOD + '\n[[card]]\nid = "t"\ntype = "time_machine"\nneeds = "rock"\n',
         ["needs 'rock' names no card"]),
        (HEAD + GOOD + '\n[[card]]\nid = "t#2"\ntype = "item"\n', ["may not contain '#'"]),
        (HEAD + GOOD + '\n[[gadget]]\nid = "t"\n', ["unknown section(s) gadget"]),
    ],
)
def test_bad_packs_get_clear_errors(text, words):
    with pytest.raises(PackError) as info:
        parse_pack(text, "mine.toml", "timeline")
    message = str(info.value)
    assert message.startswith("mine.toml")
    for word in words:
        assert word in message, (word, message)


def test_the_control_pack_of_the_bad_pack_cases_is_good():
    assert parse_pack(HEAD + GOOD, "mine.toml", "timeline").entries("card")


def test_the_owner_registers_their_box_and_plays_it(companion_home):
    entries = {
        section: [dict(e, source="owner") for e in DEMO.entries(section)]
        for section in ("event", "identity", "card")
    }
    path = save_owner_pack("timeline", entries)
    assert path.name == "timeline.toml"
    pack = owner_pack("timeline")
    assert pack.source == "owner" and len(pack.entries("event")) == 23
    assert pack_named("timeline", "owner").entries("identity")[0]["character"] == "Verne Brown"
    from companion.journal import Journal

    match = Match.new(Journal(":memory:"), "timeline", ["Ana", "Ben"], {}, pack)
    rng = random.Random(3)
    while match.actor() != "terminal":
        action = (tl.sample_chance(match.state, rng) if match.actor() == "chance"
                  else bot(tl, match.state, rng))
        match.push(action)
    assert len(tl.winners(match.state)) == 1
    match.undo()
    assert match.actor() != "terminal"  # the journal rebuilds the game from the pack


def test_saving_a_broken_owner_pack_is_refused_and_nothing_is_written(companion_home):
    entries = {"event": [], "identity": [dict(DEMO.entries("identity")[0], source="owner")],
               "card": []}
    with pytest.raises(PackError, match="names event"):
        save_owner_pack("timeline", entries)
    assert not owner_pack("timeline").entries("identity")


def test_cards_add_fields_parse_and_name_their_section():
    assert content.parse_field("ripples", "A-6, A-5") == ["A-6", "A-5"]
    assert content.parse_field("requires", "A-1=altered,a-5=altered,C-5=original") == {
        "A-1": "altered", "A-5": "altered", "C-5": "original"}
    assert content.parse_field("memo", "yes") is True
    assert content.parse_field("count", "3") == 3
    with pytest.raises(ValueError, match="not a whole number"):
        content.parse_field("count", "three")
    with pytest.raises(ValueError, match="A-1=altered"):
        content.parse_field("requires", "A-1")
    with pytest.raises(ValueError, match="unknown field --speed"):
        content.parse_field("speed", "88")
    assert content.section_of({"kind": "linchpin", "ripples": ["A-6"], "note": "x"}) == "event"
    assert content.section_of({"character": "V", "requires": {}}) == "identity"
    assert content.section_of({"type": "item"}) == "card"
    with pytest.raises(ValueError, match="one kind of entry"):
        content.section_of({"kind": "linchpin", "type": "item"})


def test_describe_gives_one_line_per_entry():
    assert content.describe("event", DEMO.card("A-2", "event")).startswith(
        "A-2  Linchpin -> A-6, A-5")
    assert "(AND)" in content.describe("event", DEMO.card("A-5", "event"))
    assert content.describe("identity", DEMO.card("verne", "identity")) == (
        "Verne Brown            alt A-1, alt A-5, C-5")
    line = content.describe("card", DEMO.card("time-train"))
    assert line.startswith("Time Train") and "Time Machine" in line and "extra_play=1" in line
