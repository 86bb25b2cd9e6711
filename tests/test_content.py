"""Content packs: provenance per entry, validation, the demo deck, and owner packs in play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bots import play, random_bot
from companion.content import (
    PackError,
    demo_pack,
    load_pack,
    owner_pack,
    owner_pack_path,
    parse_pack,
    save_owner_pack,
)
from companion.journal import Journal
from companion.match import Match
from companion.titles.api import RuleError
from companion.titles.outatime import rules as outatime
from companion.titles.outatime.bots import bot as outatime_bot

HEAD = '[pack]\ntitle = "outatime"\nname = "test"\nsource = "{source}"\n'


def card_toml(card_id: str, kind: str = "0.2", steps: str = "[2, 3]", extra: str = "") -> str:
    return f'\n[[card]]\nid = "{card_id}"\nkind = "{kind}"\nsteps = {steps}\n{extra}'


def test_each_entry_keeps_its_provenance():
    text = (
        HEAD.format(source="owner")
        + card_toml("a")
        + card_toml("b", extra='source = "rulebook"\n')
        + card_toml("c", extra='source = "demo"\n')
    )
    pack = parse_pack(text, "mine.toml", "outatime")
    assert pack.source == "owner"
    assert [c["source"] for c in pack.cards] == ["owner", "rulebook", "demo"]
    assert pack.card("b")["source"] == "rulebook"
    with pytest.raises(KeyError):
        pack.card("zz")


def test_pack_source_defaults_to_owner():
    pack = parse_pack('[pack]\ntitle = "outatime"\n' + card_toml("a"), "x.toml")
    assert pack.source == "owner"
    assert pack.cards[0]["source"] == "owner"


@pytest.mark.parametrize(
    "text, words",
    [
        (HEAD.format(source="printed") + card_toml("a"), ["x.toml", "source", "printed"]),
        (
            HEAD.format(source="owner") + card_toml("a", extra='source = "internet"\n'),
            ["x.toml", "card #1", "internet"],
        ),
        (
            HEAD.format(source="owner") + card_toml("a") + card_toml("b") + card_toml("a"),
            ["x.toml", "card #3", "'a'", "used twice"],
        ),
        (HEAD.format(source="owner") + card_toml("a", kind="0.5"), ["x.toml", "'a'", "kind"]),
        (HEAD.format(source="owner") + card_toml("a", steps="[3, 7]"), ["'a'", "7"]),
        (HEAD.format(source="owner") + card_toml("a", steps="[]"), ["'a'", "steps"]),
        (HEAD.format(source="owner") + card_toml("a", steps="[2]"), []),  # valid: control
        (HEAD.format(source="owner") + card_toml("a\\nb"),
         ["x.toml", "card #1", "line break or a control character"]),
        # a mistyped field is named, not dropped
        (HEAD.format(source="owner") + card_toml("a", extra="stpes = [3]\n"),
         ["x.toml", "'a'", "unknown field(s) stpes", "known: id, kind, note, source, steps"]),
        (HEAD.format(source="owner") + '\n[[card]]\nkind = "0.2"\nsteps = [2]\n', ["id"]),
        ("[pack]\ntitle = \n", ["x.toml", "not valid TOML"]),
        ('[pack]\ntitle = "timeline"\n', ["x.toml", "timeline", "outatime"]),
    ],
)
def test_bad_packs_are_rejected_with_the_file_and_the_entry(text, words):
    if not words:
        assert parse_pack(text, "x.toml", "outatime").cards[0]["steps"] == [2]
        return
    with pytest.raises(PackError) as info:
        parse_pack(text, "x.toml", "outatime")
    for word in words:
        assert word in str(info.value)


def test_too_many_steps_is_rejected():
    with pytest.raises(PackError, match="13 steps"):
        parse_pack(HEAD.format(source="owner") + card_toml("a", steps=str([2] * 13)), "x", None)


def test_demo_pack_has_the_rulebook_counts_and_is_marked_demo():
    pack = demo_pack("outatime")
    assert pack.source == "demo"
    assert "invented" in pack.note
    assert len(pack.cards) == 50
    assert Counter(c["kind"] for c in pack.cards) == {"0.2": 10, "0.3": 20, "0.4": 10, "td": 10}
    assert all(c["source"] == "demo" for c in pack.cards)
    assert len({c["id"] for c in pack.cards}) == 50
    for card in pack.cards:
        assert card["steps"] and all(s in (2, 3, 4, 5) for s in card["steps"])


def test_load_pack_errors_name_the_file(tmp_path):
    with pytest.raises(PackError, match="no such content pack"):
        load_pack(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PackError) as info:
        load_pack(bad)
    assert str(bad) in str(info.value)


def test_owner_pack_lives_under_companion_home(companion_home):
    assert owner_pack_path("outatime") == companion_home / "cards" / "outatime.toml"
    empty = owner_pack("outatime")
    assert empty.cards == () and empty.source == "owner"
    cards = [
        {"id": "mine-1", "kind": "0.2", "steps": [2, 3], "source": "owner"},
        {"id": 'odd "name" \\ 2', "kind": "td", "steps": [5], "note": 'says "hi" \\o/'},
    ]
    path = save_owner_pack("outatime", cards)
    assert path == owner_pack_path("outatime")
    loaded = owner_pack("outatime")
    assert [c["id"] for c in loaded.cards] == ["mine-1", 'odd "name" \\ 2']
    assert loaded.cards[1]["note"] == 'says "hi" \\o/'
    assert loaded.cards[1]["source"] == "owner"  # defaulted from the pack
    assert not list(path.parent.glob("*.tmp"))


def test_save_refuses_a_pack_that_would_not_load(companion_home):
    save_owner_pack("outatime", [{"id": "a", "kind": "0.2", "steps": [2]}])
    with pytest.raises(PackError):
        save_owner_pack("outatime", [{"id": "b", "kind": "0.9", "steps": [2]}])
    assert [c["id"] for c in owner_pack("outatime").cards] == ["a"]  # the old file is intact


# --------------------------------------------------------------------------- engine, any deck


def owner_deck(lengths: dict[str, list[int]]) -> list[dict]:
    """Cards with other ids and step counts than the demo deck."""
    rng = random.Random(sum(map(len, lengths.values())))
    cards = []
    for kind, sizes in lengths.items():
        for i, size in enumerate(sizes):
            steps = [rng.choice((2, 3, 4, 5)) for _ in range(size)]
            cards.append({"id": f"box {kind}#{i}", "kind": kind, "steps": steps, "source": "owner"})
    return cards


def test_registering_keeps_the_name_and_note_the_owner_gave_their_pack(companion_home):
    card = {"id": "mine-1", "kind": "0.2", "steps": [2, 3]}
    path = save_owner_pack("outatime", [card])
    assert owner_pack("outatime").name == "owner's cards"
    text = path.read_text(encoding="utf-8").replace(
        'name = "owner\'s cards"', 'name = "Rob\'s box"\nnote = "bought in 2019, \\"mint\\""')
    path.write_text(text, encoding="utf-8")
    save_owner_pack("outatime", [card, {**card, "id": "mine-2"}])
    again = owner_pack("outatime")
    assert (again.name, again.note) == ("Rob's box", 'bought in 2019, "mint"')
    assert [c["id"] for c in again.cards] == ["mine-1", "mine-2"]


def test_engine_plays_an_owner_pack_of_exactly_two_hands():
    cards = owner_deck({"0.2": [1, 7], "0.3": [2, 1, 5, 12], "0.4": [9, 3], "td": [1, 6]})
    text = HEAD.format(source="owner")
    for c in cards:
        text += card_toml(c["id"], c["kind"], str(c["steps"]))
    pack = parse_pack(text, "box.toml", "outatime")
    journal = Journal(":memory:")
    for seed in range(6):
        match = Match.new(journal, "outatime", ["Ana", "Ben"], {}, pack)
        rng = random.Random(seed)
        while match.actor() != "terminal":
            if match.actor() == "chance":
                action = outatime.sample_chance(match.state, rng)
            else:
                action = outatime_bot(outatime, match.state, rng)
            match.push(action)
        (winner,) = outatime.winners(match.state)
        completed = match.state.player(winner).completed
        deals = {
            a["player"]: a["cards"] for a in journal.actions(match.game) if a["type"] == "deal"
        }
        assert sorted(completed) == sorted(deals[winner])  # all five of the winner's cards
        used = {c for p in match.state.players for c in (*p.hand, *p.completed)}
        assert used <= {c["id"] for c in cards}
        assert all(not c.startswith("demo-") for c in used)
        assert journal.setup(match.game)["pack"]["source"] == "owner"
    journal.close()


def test_a_deck_too_small_for_the_table_is_refused_at_the_deal():
    cards = owner_deck({"0.2": [2, 2], "0.3": [2, 2, 2, 2], "0.4": [2, 2], "td": [2, 2]})
    state = outatime.new_game(["Ana", "Ben", "Cat"], {}, cards)
    rng = random.Random(1)
    for _ in range(2):
        state, _ = outatime.apply(state, outatime.sample_chance(state, rng))
    with pytest.raises(RuleError, match="too few"):
        outatime.sample_chance(state, rng)


@settings(max_examples=25, deadline=None)
@given(
    sizes=st.fixed_dictionaries(
        {
            kind: st.lists(st.integers(1, 12), min_size=count, max_size=count + 2)
            for kind, count in (("0.2", 6), ("0.3", 12), ("0.4", 6), ("td", 6))
        }
    ),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**31),
    bot=st.sampled_from([random_bot, outatime_bot]),
)
def test_engine_never_assumes_the_demo_deck(sizes, players, seed, bot):
    cards = owner_deck(sizes)
    names = [f"P{i}" for i in range(players)]
    state = start = outatime.new_game(names, {}, cards)
    rng = random.Random(seed)
    for _, state, _ in play(outatime, start, rng, bot=bot, limit=50_000):
        for p in state.players:
            if p.active is not None:
                assert 0 <= p.progress < len(state.cards[p.active]["steps"])
    (winner,) = outatime.winners(state)
    assert len(state.player(winner).completed) == 5


@pytest.mark.parametrize("entry", [
    card_toml("a", kind="x" * 1_000_000),
    card_toml("a", extra=f'source = "{"y" * 1_000_000}"\n'),
    card_toml("a" * 1_000_000, kind="0.9"),
    card_toml("a", extra=f'{"z" * 100_000} = 1\n'),
])
def test_a_pack_error_echoes_a_huge_value_cut_short(entry):
    with pytest.raises(PackError) as info:
        parse_pack(HEAD.format(source="owner") + entry, "x.toml", "outatime")
    said = str(info.value)
    assert said.startswith("x.toml: card") and len(said) < 1000
    assert "characters)" in said  # says how long the value was
