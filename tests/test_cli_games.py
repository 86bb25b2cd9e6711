"""The engine commands: replay, cards, journal, demo, bench engine."""

from __future__ import annotations

import copy
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.bots import play
from companion.cli import main
from companion.content import demo_pack, owner_pack, owner_pack_path
from companion.journal import Journal
from companion.match import replay
from companion.replay import NotedAction
from companion.sim import run_demo
from companion.titles.api import RuleError
from companion.titles.outatime import rules as outatime
from companion.titles.outatime.bots import bot as outatime_bot

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Ana", "Ben", "Cat"]


def seeded_actions(seed: int, names=NAMES, pack=None) -> list[dict]:
    rng = random.Random(seed)
    state = outatime.new_game(list(names), {}, pack or demo_pack("outatime"))
    return [action for action, _, _ in play(outatime, state, rng, bot=outatime_bot)]


def engine_state(actions: list[dict], names=NAMES, pack=None) -> outatime.State:
    state = outatime.new_game(list(names), {}, pack or demo_pack("outatime"))
    for action in actions:
        state, _ = outatime.apply(state, action)
    return state


def write_script(path: Path, actions: list[dict], setup: dict | None = None, extra=()) -> Path:
    setup = setup or {"type": "setup", "players": NAMES, "pack": "demo"}
    lines = ["# a replay script", json.dumps(setup), ""]
    lines += [json.dumps(a) for a in actions]
    lines += list(extra)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def assert_final_matches(out: dict, state: outatime.State, count: int) -> None:
    """The printed final state shows what the engine reached, player by player."""
    assert out["actions"] == count
    assert out["phase"] == state.phase
    assert out["winner"] == state.winner
    assert out["delorean"] == list(state.delorean)
    if state.phase not in ("deal", "choose"):
        assert out["turn"] == state.current.name
    assert [p["name"] for p in out["players"]] == [p.name for p in state.players]
    for shown, p in zip(out["players"], state.players, strict=True):
        assert shown["active"] == p.active
        assert shown["step"] == p.progress
        assert shown["cards_completed"] == len(p.completed)
        assert shown["next"] == p.next


@pytest.fixture
def memory_tmp(monkeypatch):
    """Temporary files on tmpfs where there is one: the demo and the benchmark sync every
    journal append, and on a busy disk that measures the disk, not the command under test."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield
        return
    where = tempfile.mkdtemp(dir=shm, prefix="companion-test-")
    monkeypatch.setattr(tempfile, "tempdir", where)
    yield
    shutil.rmtree(where, ignore_errors=True)


# --------------------------------------------------------------------------- replay


def test_replay_of_a_whole_game_prints_the_final_state(tmp_path, capsys, companion_home):
    actions = seeded_actions(4)
    script = write_script(tmp_path / "game.jsonl", actions)
    assert main(["replay", "--title", "outatime", str(script)]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    state = engine_state(actions)
    assert out["winner"] in NAMES and out["winner"] == state.winner
    assert_final_matches(out, state, len(actions))
    assert captured.err == ""


def test_replay_stopping_mid_game_shows_turn_dice_and_cards(tmp_path, capsys, companion_home):
    actions = seeded_actions(9)
    # stop right after a lock, so dice sit on the DeLorean
    cut = next(i for i, a in enumerate(actions) if i > 30 and a["type"] == "lock") + 1
    script = write_script(tmp_path / "part.jsonl", actions[:cut])
    assert main(["replay", "--title", "outatime", str(script)]) == 0
    out = json.loads(capsys.readouterr().out)
    state = engine_state(actions[:cut])
    assert out["winner"] is None and out["delorean"]
    assert_final_matches(out, state, cut)
    assert out["players"][0]["active"] is not None


@pytest.mark.parametrize(
    "bad, reason",
    [
        ('{"type": "lock", "dice": [', "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"type": "doubleback"}', None),  # None: the engine's own reason
        ('{"type": "end", "player": "Ana"}', None),
        ('{"type": "teleport"}', "unknown action type 'teleport'"),
        ('{"type": "lock", "dice": ["7"]}', None),
    ],
)
def test_replay_stops_at_a_bad_line_naming_it(tmp_path, capsys, companion_home, bad, reason):
    actions = seeded_actions(6)
    # a point where the current player has just rolled: ending or doubling back is refused
    cut = next(i for i, a in enumerate(actions) if i > 12 and a["type"] == "roll") + 1
    script = write_script(tmp_path / "bad.jsonl", actions[:cut], extra=[bad, json.dumps({})])
    bad_line = 3 + cut + 1  # comment, setup, blank line, then the actions
    reached = engine_state(actions[:cut])
    if reason is None:
        with pytest.raises(RuleError) as refused:
            outatime.apply(reached, json.loads(bad))
        reason = str(refused.value)
    assert main(["replay", "--title", "outatime", str(script)]) == 2
    captured = capsys.readouterr()
    assert f"{script}:{bad_line}:" in captured.err
    assert reason in captured.err
    # the state reached before the bad line is still printed
    out = json.loads(captured.out)
    assert_final_matches(out, reached, cut)


EXAMPLES = sorted((ROOT / "docs/titles").glob("*-example.jsonl"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_replay_warns_of_a_field_the_rules_did_not_read(tmp_path, capsys, companion_home,
                                                        example):
    title = example.stem.removesuffix("-example")
    assert main(["replay", "--title", title, str(example)]) == 0
    clean = capsys.readouterr()
    assert clean.err == ""  # the worked example's every field is read
    lines = example.read_text(encoding="utf-8").splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("{"))
    action = json.loads(lines[last])
    misspelt = {**action, "coment": "Ana rolled"}
    script = tmp_path / "typo.jsonl"
    script.write_text("\n".join([*lines[:last], json.dumps(misspelt), *lines[last + 1:]]) + "\n",
                      encoding="utf-8")
    assert main(["replay", "--title", title, str(script)]) == 0
    captured = capsys.readouterr()
    assert captured.out == clean.out  # applied as the line without the field
    assert captured.err == (
        f"companion replay: {script}:{last + 1}: warning: the rules did not read the field "
        f'"coment" of this "{action["type"]}" action; the line was applied without it '
        "(misspelt?)\n")


def test_replay_warns_of_ten_lines_then_says_there_are_more(tmp_path, capsys, companion_home):
    actions = seeded_actions(4)
    script = write_script(tmp_path / "game.jsonl", [{**a, "plyer": "Ana"} for a in actions])
    assert main(["replay", "--title", "outatime", str(script)]) == 0
    captured = capsys.readouterr()
    assert_final_matches(json.loads(captured.out), engine_state(actions), len(actions))
    warned = captured.err.splitlines()
    assert f"{script}:4: warning" in warned[0]
    assert len(warned) == 11 and all('field "plyer"' in line for line in warned[:10])
    assert warned[-1].endswith("more lines have fields the rules did not read; only the first "
                               "10 are shown")


def test_replay_names_five_unread_fields_and_counts_the_rest(tmp_path, capsys, companion_home):
    actions = seeded_actions(4)
    typos = {f"x{i}": i for i in range(8)}
    script = write_script(tmp_path / "game.jsonl", [{**actions[0], **typos}, *actions[1:]])
    assert main(["replay", "--title", "outatime", str(script)]) == 0
    err = capsys.readouterr().err
    assert 'the fields "x0", "x1", "x2", "x3", "x4" and 3 more of this "deal" action' in err
    assert "applied without them" in err and len(err.splitlines()) == 1


def test_a_line_read_whole_by_the_rules_counts_every_field_as_read():
    """What copies, compares or prints an action has read all of it: no false warning."""
    for read_whole in (dict, json.dumps, lambda a: a == {}, lambda a: list(a), copy.deepcopy):
        action = NotedAction({"type": "roll", "dice": 3})
        read_whole(action)
        assert action.unread() == []
    action = NotedAction({"type": "roll", "dice": 3, "player": "Ana"})
    assert (action["type"], "dice" in action, action.get("x")) == ("roll", True, None)
    assert action.unread() == ["player"]


def test_replay_needs_a_setup_line_first(tmp_path, capsys, companion_home):
    script = tmp_path / "nosetup.jsonl"
    script.write_text('{"type": "end"}\n', encoding="utf-8")
    assert main(["replay", "--title", "outatime", str(script)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{script}:1:" in captured.err and "first line must be the setup" in captured.err


def test_replay_of_an_empty_script(tmp_path, capsys, companion_home):
    script = tmp_path / "empty.jsonl"
    script.write_text("# nothing here\n\n", encoding="utf-8")
    assert main(["replay", "--title", "outatime", str(script)]) == 2
    assert "no setup line" in capsys.readouterr().err


def test_replay_with_a_bad_setup(tmp_path, capsys, companion_home):
    script = write_script(
        tmp_path / "solo.jsonl", [], setup={"type": "setup", "players": ["Solo"], "pack": "demo"}
    )
    assert main(["replay", "--title", "outatime", str(script)]) == 2
    err = capsys.readouterr().err
    assert f"{script}:2:" in err and "2-6 players" in err
    # the owner's pack when none is registered: says how to register cards
    script = write_script(
        tmp_path / "owner.jsonl", [], setup={"type": "setup", "players": NAMES, "pack": "owner"}
    )
    assert main(["replay", "--title", "outatime", str(script)]) == 2
    assert "companion cards add" in capsys.readouterr().err


@pytest.mark.parametrize("title", ["outatime", "back_in_time", "timeline", "eras"])
def test_a_player_count_no_box_allows_is_said_as_the_rules_say_it(tmp_path, capsys,
                                                                  companion_home, title):
    """Not as a pack lacking its part for that count (a turn tracker for one player)."""
    from companion import titles

    facts = titles.get(title).facts
    for count in (facts.min_players - 1, facts.max_players + 1):
        players = [f"P{n}" for n in range(count)]
        script = tmp_path / f"{count}.jsonl"
        script.write_text(json.dumps({"type": "setup", "players": players, "pack": "demo"}) + "\n")
        assert main(["replay", "--title", title, str(script)]) == 2
        err = capsys.readouterr().err
        assert f"takes {facts.min_players}-{facts.max_players} players, not {count}" in err
        assert "pack" not in err


@pytest.mark.parametrize("kind", ["missing", "directory", "not_utf8"])
def test_replay_of_an_unreadable_file(tmp_path, capsys, companion_home, kind):
    path = tmp_path / "script.jsonl"
    if kind == "directory":
        path.mkdir()
    elif kind == "not_utf8":
        path.write_bytes(b"\xff\xfe\xfa not text")
    assert main(["replay", "--title", "outatime", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert str(path) in captured.err
    said = "not a file" if kind == "directory" else "cannot read the script"
    assert said in captured.err


def test_replay_refuses_a_pipe_rather_than_wait_for_its_end(tmp_path, capsys, companion_home):
    import os

    path = tmp_path / "script.jsonl"
    os.mkfifo(path)
    assert main(["replay", "--title", "outatime", str(path)]) == 2
    assert "not a file (a folder, a pipe or a device)" in capsys.readouterr().err


def test_replay_reads_a_script_saved_with_a_byte_order_mark(tmp_path, capsys, companion_home):
    from pathlib import Path

    example = Path(__file__).parents[1] / "docs" / "titles" / "outatime-example.jsonl"
    path = tmp_path / "script.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + example.read_bytes())
    assert main(["replay", "--title", "outatime", str(path)]) == 0


def test_replay_through_a_real_process(tmp_path, companion_home):
    actions = seeded_actions(12)
    script = write_script(tmp_path / "game.jsonl", actions)
    env = dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_HOME=str(companion_home))
    ok = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "--title", "outatime", str(script)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
    assert_final_matches(json.loads(ok.stdout), engine_state(actions), len(actions))
    # from standard input, with an illegal action: exit code 2 and the reason on stderr
    lines = script.read_text().splitlines()[:10] + ['{"type": "end"}']
    bad = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "--title", "outatime", "-"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2
    assert "-:11:" in bad.stderr and "Traceback" not in bad.stderr
    assert json.loads(bad.stdout)["actions"] == 7


# --------------------------------------------------------------------------- cards


def cards(*args: str) -> list[str]:
    return ["cards", *args]


def test_cards_add_list_remove(capsys, companion_home):
    assert main(cards("list")) == 0
    assert "no cards registered" in capsys.readouterr().out

    assert main(cards("add", "--id", "blue-1", "--kind", "0.3", "--steps", "3,4,2,5")) == 0
    out = capsys.readouterr().out
    assert "registered blue-1" in out and str(owner_pack_path("outatime")) in out
    assert (
        main(cards("add", "--id", "td-a", "--kind", "td", "--steps", "2 5-4", "--note", "hi")) == 0
    )
    capsys.readouterr()
    pack = owner_pack("outatime")
    assert [(c["id"], c["kind"], c["steps"], c["source"]) for c in pack.cards] == [
        ("blue-1", "0.3", [3, 4, 2, 5], "owner"),
        ("td-a", "td", [2, 5, 4], "owner"),
    ]
    assert pack.card("td-a")["note"] == "hi"

    assert main(cards("list")) == 0
    out = capsys.readouterr().out
    assert "2 cards" in out and "blue-1" in out and "3-4-2-5" in out and "# hi" in out
    assert "DEMO" not in out

    assert main(cards("remove", "blue-1")) == 0
    assert "removed blue-1" in capsys.readouterr().out
    assert [c["id"] for c in owner_pack("outatime").cards] == ["td-a"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["--id", "x", "--kind", "0.5", "--steps", "2,3"], ["kind", "0.5"]),
        (["--id", "x", "--kind", "0.2", "--steps", "3,x"], ["--steps", "3,x", "3,4,2,5"]),
        (["--id", "x", "--kind", "0.2", "--steps", "3,7"], ["step 7"]),
        (["--id", "x", "--kind", "0.2", "--steps", ","], ["steps"]),
        # told as the flag's fault, not the owner's file's
        (["--id", "c\x019", "--kind", "0.2", "--steps", "2,3"],
         ["--id 'c\\x019'", "one line", "nothing was registered"]),
        (["--id", " ", "--kind", "0.2", "--steps", "2,3"], ["--id ' '"]),
        (["--id", "x", "--kind", "0.9", "--steps", "2,3"],
         ["card 'x': kind '0.9'", "nothing was registered"]),
        # bytes of another encoding, as Python passes them on (a lone surrogate)
        (["--id", "x", "--kind", "0.2", "--steps", "2,3", "--note", "caf\udce9"],
         ["--note 'caf\\udce9': not UTF-8 text", "nothing was registered"]),
        (["--id", "\udcff", "--kind", "0.2", "--steps", "2,3"], ["--id", "not UTF-8 text"]),
    ],
)
def test_cards_add_refuses_bad_cards(capsys, companion_home, args, words):
    assert main(cards("add", *args)) == 2
    err = capsys.readouterr().err
    for word in words:
        assert word in err
    assert not owner_pack_path("outatime").exists()  # nothing half-written


def test_cards_add_names_a_field_that_is_not_the_sections(capsys, companion_home):
    # A tile has no name: before, --name was written onto it and silently kept.
    args = ["--title", "back_in_time", "--section", "tile", "--id", "t9", "--move", "2",
            "--die", "red", "--name", "Hat"]
    assert main(cards("add", *args)) == 2
    assert "tile 't9': unknown field(s) name for a tile entry" in capsys.readouterr().err
    assert not owner_pack_path("back_in_time").exists()


def test_cards_add_keeps_text_with_any_character_readable(capsys, companion_home):
    # a note on two lines, a control character, a non-ASCII id: the file still loads
    assert main(cards("add", "--id", "é-1", "--kind", "0.2", "--steps", "2,3",
                      "--note", "two\nlines \x01 and \x7f")) == 0
    card = owner_pack("outatime").cards[0]
    assert card["id"] == "é-1" and card["note"] == "two\nlines \x01 and \x7f"
    capsys.readouterr()
    assert main(cards("list")) == 0
    listed = capsys.readouterr().out.splitlines()[-1]
    assert listed.startswith("  é-1") and listed.endswith("# two\\nlines \\x01 and \\x7f")


def test_cards_add_refuses_a_duplicate_id(capsys, companion_home):
    assert main(cards("add", "--id", "x", "--kind", "0.2", "--steps", "2,3")) == 0
    assert main(cards("add", "--id", "x", "--kind", "0.4", "--steps", "5")) == 2
    assert "already registered" in capsys.readouterr().err
    assert [c["kind"] for c in owner_pack("outatime").cards] == ["0.2"]


def test_cards_remove_an_unknown_id(capsys, companion_home):
    assert main(cards("remove", "nope")) == 2
    assert "no registered card 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        'garbage = = "\n',
        '[pack]\ntitle = "outatime"\n[[card]]\nid = "x"\nkind = "0.2"\nsteps = [2, 9]\n',
    ],
    ids=["bad_toml", "bad_step"],
)
def test_a_hand_broken_owner_file_gives_a_clear_message(capsys, companion_home, text):
    path = owner_pack_path("outatime")
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    for argv in (
        cards("list"),
        cards("add", "--id", "y", "--kind", "0.2", "--steps", "2"),
        cards("remove", "x"),
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("companion: ") and str(path) in err, argv
    assert path.read_text(encoding="utf-8") == text  # the owner's file is left as it was


def test_cards_list_demo_says_it_is_invented(capsys, companion_home):
    assert main(cards("list", "--demo")) == 0
    out = capsys.readouterr().out
    assert "DEMO" in out and "invented" in out and "not the printed cards" in out
    assert "50 cards" in out
    assert out.count(" demo\n") == 50  # every entry shows its provenance


def test_owner_cards_play_through_replay(tmp_path, capsys, companion_home):
    """Cards registered with `cards add` are the deck of a replay with pack "owner"."""
    layout = {"0.2": ["2", "5,3"], "0.3": ["4,4", "3", "2,2,2", "5,4,3,2,5"], "0.4": ["3,3,3", "5"]}
    layout["td"] = ["2,3,4,5,2,3", "4"]
    for kind, steps_list in layout.items():
        for i, steps in enumerate(steps_list):
            argv = cards("add", "--id", f"own-{kind}-{i}", "--kind", kind, "--steps", steps)
            assert main(argv) == 0
    capsys.readouterr()
    pack = owner_pack("outatime")
    assert len(pack.cards) == 10
    actions = seeded_actions(5, names=["Ana", "Ben"], pack=pack)
    script = write_script(
        tmp_path / "own.jsonl",
        actions,
        setup={"type": "setup", "players": ["Ana", "Ben"], "pack": "owner"},
    )
    assert main(["replay", "--title", "outatime", str(script)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winner"] in ("Ana", "Ben")
    assert_final_matches(out, engine_state(actions, ["Ana", "Ben"], pack), len(actions))


# --------------------------------------------------------------------------- demo and journal


@pytest.mark.slow
def test_demo_prints_a_winner_and_journal_list_export_and_is_reproducible(
        tmp_path, capsys, companion_home, memory_tmp):
    path = tmp_path / "night.sqlite3"
    frames = tmp_path / "frames"
    demo = ["demo", "--title", "outatime", "--players", "2", "--seed", "3", "--out", str(frames)]
    assert main([*demo, "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    # The same seed plays the same game, word for word: its first 150 steps played again
    # in this process (a whole second game would double the test's time).
    again = io.StringIO()
    run_demo(Journal(":memory:"), 2, 3, None, stream=again, title="outatime", max_steps=150)
    head = again.getvalue()[:again.getvalue().rindex("Game over: ")]
    assert head.count("\n") > 50 and out.startswith(head)
    assert main(["demo", "--title", "outatime", "--players", "7"]) == 2
    assert "2-6 players" in capsys.readouterr().err
    assert "demo deck (invented cards" in out
    last = next(line for line in out.splitlines() if line.startswith("Game over: "))
    winner = last.removeprefix("Game over: ").split(" wins after ")[0]
    assert winner in ("Marty", "Doc")
    # every roll read by the camera as it settled: none nudged, none entered by hand
    assert "(0 nudged after a misread" in last and "0 rolls entered with the buttons" in last
    assert (frames / "screens.gif").exists() and len(list(frames.glob("frame_*.png"))) > 50

    assert main(["journal", "list", "--journal", str(path)]) == 0
    listing = capsys.readouterr().out.strip().splitlines()
    assert len(listing) == 1
    journal = Journal(path)
    count = len(journal.actions(1))
    journal.close()
    assert f" {count} actions" in listing[0] and "finished" in listing[0]
    assert "unfinished" not in listing[0]
    assert f"after {count} recorded actions" in last

    assert main(["journal", "export", "--journal", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == 1 and data["title"] == "outatime"
    assert data["setup"]["players"] == ["Marty", "Doc"]
    assert data["setup"]["pack"]["source"] == "demo"
    assert len(data["actions"]) == count == len(data["records"])
    state = replay(data["setup"], data["actions"])
    assert state.winner == winner

    assert main(["journal", "export", "--journal", str(path), "--game", "9"]) == 2
    assert "no game 9" in capsys.readouterr().err


def test_journal_commands_use_the_state_dir_and_handle_bad_files(tmp_path, capsys, companion_home):
    assert main(["journal", "list"]) == 0  # default journal under COMPANION_HOME: none yet
    assert capsys.readouterr().out.startswith("no games recorded yet")
    assert not (companion_home / "journal.sqlite3").exists()  # a reading command makes none
    assert main(["journal", "export"]) == 2
    assert "no journal at" in capsys.readouterr().err
    Journal(companion_home / "journal.sqlite3").close()  # an empty journal
    assert main(["journal", "list"]) == 0
    assert capsys.readouterr().out.startswith("no games recorded yet in")
    assert main(["journal", "export"]) == 2
    assert "no games yet" in capsys.readouterr().err

    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(random.Random(0).randbytes(8192))
    for sub in ("list", "export"):
        assert main(["journal", sub, "--journal", str(broken)]) == 2
        err = capsys.readouterr().err
        assert str(broken) in err and "Move the file aside" in err


def test_bench_engine_prints_one_json_line(capsys, companion_home, memory_tmp):
    assert main(["bench", "engine", "--json", "--seconds", "0.3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["actions_per_s"] > 0
    assert result["stall_odds_ms"] >= 0
    assert result["replay_ms"] >= 0
    assert result["replay_actions"] >= 2000
    assert result["games"] >= 1 and result["actions"] >= 1
