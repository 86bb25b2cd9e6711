"""`companion replay` holds its contract for every title: a line it cannot use stops it with
exit code 2 and one message `file:line: reason`, never a traceback. Generated bad lines (any JSON
value in any field of the setup line and of an action) and the hostile inputs found by hand."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import titles
from companion.bots import play
from companion.cli import main
from companion.content import demo_pack

TITLES = titles.keys()
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
FIELD = st.text(max_size=10) | st.sampled_from(
    ["type", "players", "pack", "options", "player", "dice", "card", "cards", "target"])
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
_MIDGAME: dict[str, list[dict]] = {}


def setup_line(title: str) -> dict:
    facts = titles.get(title).facts
    names = ["Ana", "Ben", "Cy", "Dee"][: max(2, facts.min_players)]
    return {"type": "setup", "players": names, "pack": "demo", "options": {}}


def midgame(title: str) -> list[dict]:
    """Twenty actions of a bot game: a point where every kind of action may come next."""
    if title not in _MIDGAME:
        engine = titles.rules(title)
        line = setup_line(title)
        state = engine.new_game(line["players"], {}, demo_pack(title))
        bot = titles.get(title).bots.bot
        steps = play(engine, state, random.Random(7), bot=bot)
        _MIDGAME[title] = [action for action, _state, _effects in itertools.islice(steps, 20)]
    return _MIDGAME[title]


def run(tmp_path: Path, capsys, title: str, lines: list[str]) -> tuple[int, str, str]:
    script = tmp_path / "fuzz.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["replay", "--title", title, str(script)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_stopped_at(code: int, out: str, err: str, script: Path, line: int) -> None:
    """Exit 2 with one message naming the line, or (a line that happens to be good) exit 0."""
    assert "Traceback (most recent call last)" not in err  # (a field may be named Traceback)
    if code == 0:  # applied; a field the rules did not read is warned of, on one line
        assert json.loads(out)["actions"] >= 0
        assert err == "" or re.fullmatch(
            rf"companion replay: {re.escape(str(script))}:{line}: warning: \S.*\n", err), err
        assert len(err) < 1000
        return
    assert code == 2, err
    assert re.fullmatch(rf"companion replay: {re.escape(str(script))}:{line}: \S.*\n", err), err
    assert len(err) < 1000  # a hostile script never has its input echoed back whole


@pytest.mark.parametrize("title", TITLES)
@FUZZ
@given(data=st.data())
def test_any_json_in_any_field_of_the_setup_line(tmp_path, capsys, companion_home, title,
                                                  data):
    line = setup_line(title)
    options = titles.get(title).facts.options
    where = data.draw(st.sampled_from(["field", "option", "line"] if options
                                      else ["field", "line"]))
    if where == "field":
        line[data.draw(FIELD)] = data.draw(JSON)
    elif where == "option":
        line["options"] = {data.draw(st.sampled_from(sorted(options))): data.draw(JSON)}
    else:
        line = data.draw(JSON)
    code, out, err = run(tmp_path, capsys, title, [json.dumps(line)])
    assert_stopped_at(code, out, err, tmp_path / "fuzz.jsonl", 1)


@pytest.mark.parametrize("title", TITLES)
@FUZZ
@given(data=st.data())
def test_any_json_in_any_field_of_an_action(tmp_path, capsys, companion_home, title, data):
    actions = midgame(title)
    cut = data.draw(st.integers(0, len(actions) - 1))
    bad = dict(actions[cut])
    if data.draw(st.booleans()):
        bad[data.draw(st.sampled_from(sorted(bad)))] = data.draw(JSON)
    else:
        bad[data.draw(FIELD)] = data.draw(JSON)
    lines = [json.dumps(setup_line(title))] + [json.dumps(a) for a in actions[:cut]]
    code, out, err = run(tmp_path, capsys, title, [*lines, json.dumps(bad)])
    assert_stopped_at(code, out, err, tmp_path / "fuzz.jsonl", cut + 2)
    if code == 2:
        assert json.loads(out)["actions"] == cut  # the state reached before it is printed


@pytest.mark.parametrize("title", TITLES)
@FUZZ
@given(text=st.text(max_size=40) | st.binary(max_size=20).map(lambda b: b.decode("latin-1")))
def test_any_text_as_a_line(tmp_path, capsys, companion_home, title, text):
    text = text.replace("\r", " ").replace("\n", " ")  # one line; other line breaks stay
    lines = [json.dumps(setup_line(title)), text]
    code, out, err = run(tmp_path, capsys, title, lines)
    if code == 2 and ":1:" in err:  # a line break Python splits on made it two lines
        return
    assert "Traceback (most recent call last)" not in err and code in (0, 2)


HOSTILE = {
    "type given as a list": ('{"type": ["roll"]}', r"type"),  # the engine says why
    "nested 100,000 deep": ("[" * 100_000 + "]" * 100_000, "nested more than 32 deep"),
    "nested 500 deep": ("[" * 500 + "]" * 500, "nested more than 32 deep"),
    "a 5,000-digit integer": ('{"type": "end", "n": ' + "9" * 5000 + "}", "5,000 digits"),
    "NaN": ('{"type": "end", "n": NaN}', "NaN is not a JSON number"),
}


@pytest.mark.parametrize("title", TITLES)
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_action_lines_stop_the_replay_with_the_line(tmp_path, capsys, companion_home,
                                                            title, case):
    line, reason = HOSTILE[case]
    code, out, err = run(tmp_path, capsys, title, [json.dumps(setup_line(title)), line])
    assert code == 2 and "fuzz.jsonl:2: " in err and re.search(reason, err), err
    assert json.loads(out)["actions"] == 0


HOSTILE_SETUP = {
    "options as text": ({"options": "abc"}, "options is a JSON object"),
    "pack as a number": ({"pack": 123}, "pack is \"demo\", \"owner\" or the path"),
    "players as one name": ({"players": "Cy"}, "players is a list of names"),
    "a card id as a list in players": ({"players": [["Ana"], "Ben"]},
                                       "each player is a name in quotes"),
    "an unknown field": ({"player": ["Ana", "Ben"]}, "the setup line has no field \"player\""),
    "a pack that is a folder": ({"pack": "."}, "cannot read the pack"),
    "a pack that never ends": ({"pack": "/dev/zero"}, "not a regular file"),
}


@pytest.mark.parametrize("title", TITLES)
@pytest.mark.parametrize("case", sorted(HOSTILE_SETUP))
def test_hostile_setup_lines_are_refused_by_name(tmp_path, capsys, companion_home, title, case):
    change, reason = HOSTILE_SETUP[case]
    line = {**setup_line(title), **change}
    code, out, err = run(tmp_path, capsys, title, [json.dumps(line)])
    assert code == 2 and out == "" and "fuzz.jsonl:1: " in err and reason in err, err


def test_a_setup_line_never_splits_a_name_into_players(tmp_path, capsys, companion_home):
    line = {"type": "setup", "players": "Cy", "pack": "demo"}
    code, _out, err = run(tmp_path, capsys, "outatime", [json.dumps(line)])
    assert code == 2 and '"Cy"' in err and '"C"' not in err


def test_a_ten_megabyte_name_is_not_echoed_back_whole(tmp_path, capsys, companion_home):
    name = "A" * 10_000_000
    setup = json.dumps(setup_line("outatime"))
    deal = json.dumps({"type": "deal", "player": name, "cards": []})
    code, _out, err = run(tmp_path, capsys, "outatime", [setup, deal])
    assert code == 2 and "no player called" in err and "10,000,002 characters" in err
    assert len(err) < 400
    code, _out, err = run(tmp_path, capsys, "outatime",
                          [json.dumps({**setup_line("outatime"), "players": [name]})])
    assert code == 2 and len(err) < 400


def test_a_pack_that_cannot_serve_the_players_is_refused_before_the_game(tmp_path, capsys,
                                                                         companion_home):
    pack = tmp_path / "one.toml"
    pack.write_text('[pack]\ntitle = "outatime"\n[[card]]\nid = "x"\nkind = "0.2"\n'
                    'steps = [2, 3]\n', encoding="utf-8")
    line = {**setup_line("outatime"), "pack": str(pack)}
    code, out, err = run(tmp_path, capsys, "outatime", [json.dumps(line)])
    assert code == 2 and out == ""
    assert "2 players need 2 0.2 cards and the pack has 1" in err
