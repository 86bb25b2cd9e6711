"""Back in Time's content: the demo pack (invented and labelled), clear errors for bad packs,
an owner's box registered entry by entry, and a game on a board unlike the demo's."""

from __future__ import annotations

import random
import tomllib
from importlib import resources

import pytest
from bit_table import PACK, sections

from companion.bots import play, random_bot
from companion.content import (
    PackError,
    owner_pack,
    pack_named,
    parse_pack,
    playable,
    save_owner_pack,
)
from companion.journal import Journal
from companion.match import Match
from companion.titles.api import RuleError
from companion.titles.back_in_time import content, data, rules
from companion.titles.back_in_time.bots import bot as team_bot

HEAD = '[pack]\ntitle = "back_in_time"\nname = "test"\nsource = "owner"\n'


def test_the_demo_pack_is_complete_for_two_to_four_players_and_labelled_invented():
    assert PACK.source == "demo" and "invented" in PACK.note
    for players in (2, 3, 4):
        assert playable(PACK, players) is None
    raw = resources.files("companion.titles.back_in_time").joinpath("demo.toml").read_text()
    assert "INVENTED" in raw and "NOT the printed game" in raw
    for name, entries in PACK.sections.items():
        for entry in entries:
            assert entry["source"] in ("demo", "rulebook"), (name, entry["id"])
            if entry["source"] == "rulebook":  # only what the rulebook states: named places
                assert name == "place" and entry["role"] in data.ROLES
    counts = {name: len(PACK.entries(name)) for name in data.BOX}
    assert counts == {"track": 1, "love": 1, "tracker": 3, "die": 4, "part": 3, "tile": 44,
                      "item": 13, "movement": 24, "opportunity": 24, "trouble": 18}


def test_the_demo_dice_are_the_faces_the_dice_renderer_draws():
    from companion.vision.faces import FACE_SETS

    drawn = FACE_SETS["back_in_time"]
    for entry in PACK.entries("die"):
        assert entry["source"] == "demo"
        assert tuple(entry["faces"]) == drawn.die_faces[entry["id"]]
    assert set(data.FACES) == set(drawn.faces)
    assert set(data.COLOURS) == set(drawn.colours)


def test_the_rulebook_facts_hold():
    # 21 tracker spaces; every die has a Biff face; two dice of each of four colours
    assert data.TRACKER_SPACES == 21
    assert all("biff" in f for f in rules.new_game(["A", "B"], {}, PACK).content.faces.values())
    assert data.DICE_PER_COLOUR * len(data.COLOURS) == 8


def pack_text(*entries: str) -> str:
    return HEAD + "\n".join(entries)


@pytest.mark.parametrize(("toml", "message"), [
    ('[[link]]\nid = "x"\nplaces = ["a", "b"]', "link 'x': no place 'a'; add the place first"),
    ('[[place]]\nid = "a"\nname = "A"\nrole = "town_square"\n[[place]]\nid = "b"\nname = "B"\n'
     'role = "town_square"', "both have role town_square; one place per role"),
    ('[[place]]\nid = "a"\nname = "A"\nrole = "moon"', "role 'moon' must be one of"),
    ('[[die]]\nid = "love"\nfaces = ["love", "love", "love", "wild", "wild", "love"]',
     "every die has a Biff face"),
    ('[[die]]\nid = "love"\nfaces = ["love", "wild", "biff"]', "the six faces"),
    ('[[die]]\nid = "purple"\nfaces = ["love", "love", "love", "wild", "wild", "biff"]',
     "'purple' is not a die colour"),
    ('[[die]]\nid = "love"\nfaces = ["love", "love", "flux", "wild", "wild", "biff"]',
     "'flux' is not a Back in Time die face"),
    ('[[part]]\nid = "wheel"\ncost = 2', "a Part is one of cable, gasoline, hook"),
    ('[[part]]\nid = "hook"\ncost = 0', "cost must be a whole number from 1 to 8"),
    ('[[tile]]\nid = "t"\nmove = 7', "move must be a whole number from 0 to 6"),
    ('[[tile]]\nid = "t"\nmove = 0', "needs a move value, a die colour or a modifier"),
    ('[[tile]]\nid = "t"\nmodifier = "double"', "modifier 'double' must be one of"),
    ('[[item]]\nid = "i"\nname = "Hat"\nuse = "fly"', "use 'fly' must be die:<colour>"),
    ('[[movement]]\nid = "m"\nmoves = ["george two elm"]', "is not a move"),
    ('[[movement]]\nid = "m"\nmoves = ["george 2 nearest"]',
     "only Biff moves toward the nearest"),
    ('[[movement]]\nid = "m"\nmoves = ["lorraine 1 nowhere"]',
     "'nowhere' is neither a place nor george, lorraine, nearest"),
    ('[[opportunity]]\nid = "o"\nplace = "a"\nneed = {luck = 1}\nreward = ["tile"]',
     "'luck' is not a symbol"),
    ('[[place]]\nid = "a"\nname = "A"\n[[opportunity]]\nid = "o"\nplace = "a"\n'
     'need = {love = 1}\nreward = ["gold"]', "'gold' is not an effect"),
    ('[[trouble]]\nid = "t"\nlevel = 4\nplace = "a"\nneed = {love = 1}', "level must be"),
    ('[[tracker]]\nid = "2p"\nplayers = 2\nstart = 1\ncolumns = [[]]',
     "columns must list the icons of all 21 spaces"),
    ('[[tracker]]\nid = "2p"\nplayers = 2\nstart = 1\ncolumns = ' + str([["rain"]] * 21),
     "column 1: list icons from"),
    ('[[tracker]]\nid = "2p"\nplayers = 2\nstart = 1\ncolumns = '
     + str([["trouble1", "trouble2"]] * 21), "column 1: one Trouble card at most"),
    ('[[track]]\nid = "d"\nspaces = ["a", "b", "c", "d", "e", "f"]\nready = ["b", "d", "f"]',
     "Ready Zone spaces must follow each other"),
    ('[[love]]\nid = "l"\nnegative = 3\nstart = 14', "start must be a whole number from -3 to 12"),
    ('[[moon]]\nid = "x"', "unknown section(s) moon"),
    # A mistyped field is named, not dropped (the tile would give no die)
    ('[[tile]]\nid = "t1"\nmove = 2\ndei = "red"',
     "tile 't1': unknown field(s) dei for a tile entry; known: character, die, id"),
    ('[[place]]\nid = "a"\nname = "A"\nrol = "clock_tower"', "unknown field(s) rol"),
])
def test_a_bad_entry_gets_a_message_naming_it_and_the_fix(toml, message):
    with pytest.raises(PackError) as err:
        parse_pack(pack_text(toml), "box.toml", "back_in_time")
    assert message in str(err.value)
    assert str(err.value).startswith("box.toml")


def test_the_track_must_pass_doc_house_before_the_ready_zone():
    s = sections()
    s["track"][0]["spaces"] = ["main-st-1", "main-st-2", "main-st-3", "doc-house", "elm-st"]
    s["track"][0]["ready"] = ["main-st-1", "main-st-2", "main-st-3"]
    with pytest.raises(RuleError, match="the Ready Zone must lie beyond Doc's House"):
        rules.new_game(["Ana", "Ben"], {}, s)


def test_the_box_has_six_trouble_cards_of_each_level():
    """"18 Trouble Cards (6 per level: 1, 2, 3)": a seventh of one level is refused, though
    the pack holds fewer than 18 in all."""
    s = sections()
    level_one = [c for c in s["trouble"] if c["level"] == 1]
    assert len(level_one) == data.TROUBLE_PER_LEVEL == 6
    s["trouble"] = [c for c in s["trouble"] if c["level"] != 2]  # 12 cards in all
    s["trouble"].append({**level_one[0], "id": "tr1-extra"})
    with pytest.raises(RuleError, match="7 Trouble cards of level 1: the box has 6 of each level"):
        rules.new_game(["Ana", "Ben"], {}, s)


def test_an_incomplete_pack_loads_but_says_what_a_game_still_lacks():
    pack = parse_pack(pack_text('[[place]]\nid = "ts"\nname = "Town Square"\n'
                                'role = "town_square"'), "box.toml", "back_in_time")
    why = playable(pack, 2)
    assert why.startswith("the board has no place with role george_house")
    with pytest.raises(RuleError, match="no place with role george_house"):
        rules.new_game(["Ana", "Ben"], {}, pack)
    s = sections()
    s["link"] = [link for link in s["link"] if "main-st-5" not in link["places"]]
    assert data.missing(s, 2).startswith("the board is not connected")
    s = sections(tracker=[t for t in sections()["tracker"] if t["players"] != 3])
    assert data.missing(s, 3).startswith("the pack has no Turn Tracker for 3 players")
    assert data.missing(s, 2) is None
    s = sections(tile=[t for t in sections()["tile"] if t["id"] != "doc-5"])
    assert data.missing(s, 2) == ("doc has 4 of 5 starter Power Tiles; add it to the pack "
                                  "(docs/titles/back_in_time.md tells how)")


def test_an_owner_registers_a_box_entry_by_entry(companion_home):
    entries: dict[str, list[dict]] = {}
    for section, entry in (
        ("place", {"id": "ts", "name": "Town Square", "role": "town_square"}),
        ("place", {"id": "elm", "name": "Elm St"}),
        ("link", {"id": "ts-elm", "places": content.parse_field("places", "ts, elm")}),
        ("die", {"id": "love", "faces": content.parse_field("faces",
                                                            "love,love,love,wild,wild,biff")}),
    ):
        entry = {**entry, "source": "owner"}
        entries.setdefault(section, []).append(entry)
        save_owner_pack("back_in_time", entries)  # each step is checked and saved
    pack = owner_pack("back_in_time")
    assert [p["id"] for p in pack.entries("place")] == ["ts", "elm"]
    assert all(e["source"] == "owner" for e in pack.entries("link"))
    entries["link"].append({"id": "bad", "places": ["elm", "nowhere"], "source": "owner"})
    with pytest.raises(PackError, match="link 'bad': no place 'nowhere'; add the place first"):
        save_owner_pack("back_in_time", entries)
    assert len(owner_pack("back_in_time").entries("link")) == 1  # the file is unchanged
    assert playable(pack, 2).startswith("the board has no place with role george_house")


def test_cards_fields_parse_what_an_owner_types():
    columns = content.parse_field("columns", "/" + "/".join(["move+love"] * 21))
    assert len(columns) == 21 and columns[0] == ["move", "love"]
    assert content.parse_field("need", "knowledge:2, courage") == {"knowledge": 2, "courage": 1}
    assert content.parse_field("moves", "george 2 elm,biff 1 nearest") == ["george 2 elm",
                                                                          "biff 1 nearest"]
    assert content.parse_field("assist", "yes") is True
    assert content.parse_field("cost", "3") == 3
    with pytest.raises(ValueError, match="--cost 'three': write a whole number"):
        content.parse_field("cost", "three")
    with pytest.raises(ValueError, match="--need 'love:x'"):
        content.parse_field("need", "love:x")
    for flag, (section_names, help_text, _parser) in content.FIELDS.items():
        assert set(section_names) <= set(content.SECTIONS) and help_text, flag


def test_every_entry_is_described_on_one_line():
    for name, entries in PACK.sections.items():
        for entry in entries[:3]:
            line = content.describe(name, entry)
            assert line and "\n" not in line
    assert content.describe("part", PACK.entries("part")[0]) == "cost 2 knowledge"
    assert content.describe("die", PACK.entries("die")[0]) == "speed,speed,speed,wild,wild,biff"


def small_box() -> dict:
    """An owner's box unlike the demo: a ring of places around Town Square, other dice."""
    ring = ["ts", "gh", "a", "hvh", "lh", "b", "ss", "dh", "c", "ct"]
    roles = {"ts": "town_square", "gh": "george_house", "hvh": "hill_valley_high",
             "lh": "lorraine_house", "ss": "south_shops", "dh": "doc_house", "ct": "clock_tower"}
    s = sections()
    s["place"] = [{"id": p, "name": p.upper(), **({"role": roles[p]} if p in roles else {}),
                   "source": "owner"} for p in ring]
    s["link"] = [{"id": f"{a}-{b}", "places": [a, b], "source": "owner"}
                 for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]
    s["link"].append({"id": "ts-lh", "places": ["ts", "lh"], "source": "owner"})
    s["track"] = [{"id": "t", "spaces": ["a", "hvh", "dh", "c", "ct", "ts"],
                   "ready": ["c", "ct", "ts"], "source": "owner"}]
    s["die"] = [{"id": c, "faces": [c, c, "wild", "biff", "love", "speed"], "source": "owner"}
                for c in data.COLOURS]
    for i, card in enumerate(s["opportunity"] + s["trouble"]):
        card["place"] = ring[i % len(ring)]
    s["movement"] = [{"id": f"m{i}", "moves": ["george 1 lorraine", "lorraine 2 a",
                                               "biff 1 nearest"], "source": "owner"}
                     for i in range(5)]
    return s


def test_a_box_unlike_the_demo_plays_to_the_end():
    box = small_box()
    assert data.missing(box, 3) is None
    for seed, bot in ((1, random_bot), (2, team_bot), (3, team_bot)):
        state = rules.new_game(["Ana", "Ben", "Cy"], {}, box)
        final = list(play(rules, state, random.Random(seed), bot=bot))[-1][1]
        assert rules.is_terminal(final)
        assert final.content.town not in final.npcs.values()


def test_a_game_is_recorded_with_its_whole_pack_and_rebuilt_from_the_journal():
    journal = Journal(":memory:")
    match = Match.new(journal, "back_in_time", ["Ana", "Ben"], {}, pack_named("back_in_time",
                                                                               "demo"))
    rng = random.Random(5)
    for _ in range(120):
        if match.actor() == "terminal":
            break
        if match.actor() == "chance":
            action = rules.sample_chance(match.state, rng)
        else:
            action = team_bot(rules, match.state, rng)
        match.push(action)
    again = Match(journal, match.game)
    assert rules.to_json(again.state) == rules.to_json(match.state)
    setup = journal.setup(match.game)
    assert len(setup["sections"]["place"]) == 20 and setup["pack"]["source"] == "demo"


def test_the_demo_toml_parses_as_plain_toml():
    raw = resources.files("companion.titles.back_in_time").joinpath("demo.toml").read_text()
    assert tomllib.loads(raw)["pack"]["title"] == "back_in_time"
