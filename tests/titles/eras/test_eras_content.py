"""The era game's content: the invented demo pack, the owner's own box, and clear errors."""

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
from companion.journal import Journal
from companion.match import Match
from companion.titles.api import RuleError
from companion.titles.eras import bots, content, rules

HEAD = '[pack]\ntitle = "eras"\nname = "test"\nsource = "owner"\n'


def entry(**fields) -> str:
    lines = ["", "[[card]]"]
    for key, value in fields.items():
        lines.append(f"{key} = {value!r}".replace("'", '"') if isinstance(value, str)
                     else f"{key} = {value}")
    return "\n".join(lines) + "\n"


def character(cid="c1", role="marty", era="1955", power=1, clocks=1, vp=1) -> str:
    return entry(id=cid, kind="character", role=role, era=era, power=power, clocks=clocks, vp=vp)


def full_box() -> list[dict]:
    """A whole box as an owner would register it (test values)."""
    out = []
    for i in range(40):
        out.append({"id": f"mine-{i:02d}", "kind": "character", "role": rules.ROLES[i % 6],
                    "era": (rules.ERAS + ("any",))[i % 4], "power": 1 + i % 3,
                    "clocks": i % 3, "vp": i % 4, "source": "owner"})
    effects = {"1955": ["draw-1", "cost-minus-2", "clock-anyway"],
               "1985": ["none", "second-ripple", "draw-2-keep-1"],
               "2015": ["none", "draw-3-keep-2", "then-1955"]}
    for era in rules.ERAS:
        for i in range(3):
            out.append({"id": f"ev-{era}-{i}", "kind": "event", "era": era,
                        "role": rules.ROLES[(i * 2 + len(era)) % 6], "effect": effects[era][i],
                        "name": f"my event {i}", "source": "owner"})
            out.append({"id": f"vp-{era}-{i}", "kind": "vp", "era": era, "value": 6 - i,
                        "source": "owner"})
    return out


# --------------------------------------------------------------------------- the demo pack


def test_demo_pack_is_labelled_invented_and_validates():
    pack = demo_pack("eras")
    assert pack.source == "demo" and "invented" in pack.note
    assert all(e["source"] == "demo" for e in pack.cards)
    kinds = [e["kind"] for e in pack.cards]
    assert kinds.count("character") == 84 and kinds.count("event") == 9
    assert kinds.count("vp") == 9
    for era in rules.ERAS:  # the public fact: three events per era
        assert sum(1 for e in pack.cards if e["kind"] == "event" and e["era"] == era) == 3
    for players in range(2, 7):
        assert playable(pack, players) is None


def test_demo_tokens_are_higher_in_older_eras():
    pack = demo_pack("eras")
    stacks = {era: [e["value"] for e in pack.cards if e["kind"] == "vp" and e["era"] == era]
              for era in rules.ERAS}
    for older, newer in (("1955", "1985"), ("1985", "2015")):
        assert all(a > b for a, b in zip(stacks[older], stacks[newer], strict=True))


def test_demo_b_sides_are_the_rulebooks_effects_of_their_era():
    for e in demo_pack("eras").cards:
        if e["kind"] == "event":
            assert e["era"] in rules.EFFECTS[e["effect"]][0]


# --------------------------------------------------------------------------- bad packs


@pytest.mark.parametrize(
    "body, words",
    [
        (entry(id="a", kind="token", era="1955"), ["'a'", "kind", '"character", "event" or "vp"']),
        (character(role="einstein"), ["'c1'", "einstein", "is not a role"]),
        (entry(id="c", kind="character", era="1955"),
         ["'c'", "missing role, power, clocks, vp: a character entry needs role, era, power"]),
        (character(era="1885"), ["'1885' is not an era (1955, 1985, 2015 or any)"]),
        (entry(id="e", kind="event", era="any", role="doc"), ["'any' is not an era"]),
        (character(power=-1), ["power must be a whole number from 0 to 9"]),
        (character(clocks="two"), ["clocks must be a whole number"]),
        (entry(id="e", kind="event", era="1955", role="doc", effect="draw-2-keep-1"),
         ["draw-2-keep-1 is not one of the 1955 B sides", "draw-1"]),
        (entry(id="e", kind="event", era="1985", role="doc", effect="fly"),
         ["'fly' is not a B side of the rulebook"]),
        (entry(id="e", kind="event", era="1955", role="doc") + 'effect = ["draw-1"]\n',
         ["['draw-1'] is not a B side of the rulebook"]),  # a list: said, not a TypeError
        (entry(id="e", kind="event", era="1955", role="doc") + 'effect = {a = 1}\n',
         ["is not a B side of the rulebook"]),
        (character(cid="clock"), ["'clock' is a payment word"]),
        (character() + entry(id="c2", kind="vp", era="2015", value=2, colour="red"),
         ["'c2'", "unknown field(s) colour"]),
        (entry(id="v", kind="vp", era="2015", value=99), ["value must be a whole number from 0"]),
        (character() + character(), ["id 'c1' is used twice"]),
        ("".join(entry(id=f"e{i}", kind="event", era="1985", role="doc") for i in range(4)),
         ["4 event cards for 1985", "3 per era"]),
    ],
)
def test_bad_packs_get_clear_errors(body, words):
    with pytest.raises(PackError) as caught:
        parse_pack(HEAD + body, "box.toml", "eras")
    message = str(caught.value)
    assert message.startswith("box.toml")
    for word in words:
        assert word in message, (word, message)


def test_playable_says_what_is_missing():
    pack = parse_pack(HEAD + character(), "box.toml", "eras")
    assert "1955 has 0 event cards registered; the game has 3" in playable(pack, 2)
    assert "takes 2-6 players, not 7" in playable(pack, 7)
    events = "".join(entry(id=f"e{era}{i}", kind="event", era=era, role="doc")
                     for era in rules.ERAS for i in range(3))
    pack = parse_pack(HEAD + character() + events, "box.toml", "eras")
    assert "1955 has 0 VP tokens registered; it needs 3" in playable(pack, 2)
    tokens = "".join(entry(id=f"v{era}{i}", kind="vp", era=era, value=3 - i)
                     for era in rules.ERAS for i in range(3))
    pack = parse_pack(HEAD + character() + events + tokens, "box.toml", "eras")
    assert "2 players need 10 character cards for their hands; the pack has 1" in playable(pack, 2)


def test_engine_refuses_contents_it_cannot_play():
    with pytest.raises(RuleError, match="no event cards for 1955"):
        rules.new_game(["Ana", "Ben"], {}, [{"id": "c", "kind": "character", "role": "doc",
                                             "era": "1955", "power": 1, "clocks": 1, "vp": 1}])
    with pytest.raises(RuleError, match="content entry 'x': kind"):
        rules.new_game(["Ana", "Ben"], {}, [{"id": "x", "kind": "car"}])
    with pytest.raises(RuleError, match="unknown option"):
        rules.new_game(["Ana", "Ben"], {"speed": 88}, demo_pack("eras"))
    with pytest.raises(RuleError, match="option hand"):
        rules.new_game(["Ana", "Ben"], {"hand": 0}, demo_pack("eras"))
    with pytest.raises(RuleError, match="option advanced"):
        rules.new_game(["Ana", "Ben"], {"advanced": "yes"}, demo_pack("eras"))


# --------------------------------------------------------------------------- the owner's box


def test_owner_registers_their_box_and_plays_it(companion_home):
    assert owner_pack("eras").cards == ()
    with pytest.raises(PackError, match="no cards registered for eras yet"):
        pack_named("eras", "owner")
    box = full_box()
    save_owner_pack("eras", box[:5])  # a box half registered still loads
    assert len(owner_pack("eras").cards) == 5
    assert "event" in playable(owner_pack("eras"), 3)
    path = save_owner_pack("eras", box)
    pack = pack_named("eras", "owner")
    assert pack.path == str(path) and pack.source == "owner"
    assert {e["source"] for e in pack.cards} == {"owner"}
    assert playable(pack, 3) is None
    journal = Journal(":memory:")
    match = Match.new(journal, "eras", ["Ana", "Ben", "Cy"], {"advanced": True}, pack)
    rng = random.Random(3)
    for action, _, _ in play(rules, match.state, rng, bot=bots.bot, limit=20_000):
        match.push(action)
    assert match.actor() == "terminal"
    again = Match(journal, match.game)  # rebuilt from the journal alone
    assert rules.to_json(again.state) == rules.to_json(match.state)


def test_owner_pack_never_saves_a_bad_entry(companion_home):
    bad = full_box()[:1] + [{"id": "e", "kind": "event", "era": "1955", "role": "doc",
                             "effect": "none", "source": "owner"}]
    with pytest.raises(PackError, match="none is not one of the 1955 B sides"):
        save_owner_pack("eras", bad)
    assert owner_pack("eras").cards == ()


def test_cards_fields_parse_and_describe():
    assert content.parse_field("power", "3") == 3
    assert content.parse_field("era", "any") == "any"
    with pytest.raises(ValueError, match="--vp 'x': write a whole number"):
        content.parse_field("vp", "x")
    assert set(content.FIELDS) >= {"kind", "role", "era", "power", "clocks", "vp", "effect",
                                   "value"}
    pack = demo_pack("eras")
    lines = {e["id"]: content.describe("card", e) for e in pack.cards}
    assert lines["marty-55-1"] == "character marty    1955 power 1 clocks 2 vp 3"
    assert lines["event-55-a"] == "event     1955 marty    B: All characters cost -2 Time"
    assert lines["vp-55-1"] == "vp token  1955 value 5"
