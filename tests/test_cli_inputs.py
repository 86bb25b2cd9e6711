"""Command-line mistakes get a message that says what and what to do (exit code 2), never a
traceback, and a command never speaks of a file that does not exist as if it did."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion import __version__
from companion.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_version_is_printed_and_matches_the_package(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"companion {__version__}\n"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__
    shown = subprocess.run([sys.executable, "-m", "companion", "--version"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and shown.stdout.strip() == f"companion {__version__}"


@pytest.mark.parametrize("seed", ["-1", str(2**32)])
def test_demo_refuses_a_seed_numpy_cannot_take(seed, tmp_path, capsys, companion_home):
    code = main(["demo", "--title", "outatime", "--seed", seed, "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and f"--seed {seed}: a seed is a whole number from 0 to" in err


def test_demo_refuses_a_frames_folder_it_cannot_make(tmp_path, capsys, companion_home):
    a_file = tmp_path / "passwd"
    a_file.write_text("not a folder")
    code = main(["demo", "--title", "outatime", "--out", str(a_file / "x")])
    err = capsys.readouterr().err
    assert code == 2 and f"--out {a_file / 'x'}: cannot make the folder" in err
    assert a_file.read_text() == "not a folder"


def test_a_journal_in_a_folder_that_does_not_exist_is_refused_not_made(tmp_path, capsys,
                                                                      companion_home):
    path = tmp_path / "nonexistent" / "dir" / "j.sqlite3"
    code = main(["demo", "--title", "outatime", "--journal", str(path),
                 "--out", str(tmp_path / "o")])
    assert code == 2 and "the folder" in capsys.readouterr().err
    config = tmp_path / "config.toml"
    config.write_text('[table]\ntitle = "outatime"\npack = "demo"\n[camera]\nsource = "none"\n'
                      '[display]\ndriver = "none"\n[buttons]\nbackend = "none"\n'
                      '[lights]\nport = ""\n')
    assert main(["run", "--config", str(config), "--journal", str(path), "--seconds", "1"]) == 2
    assert f"{path.parent} does not exist" in capsys.readouterr().err
    assert main(["journal", "list", "--journal", str(path)]) == 0
    assert "no games recorded yet" in capsys.readouterr().out
    assert not (tmp_path / "nonexistent").exists()


def test_config_show_and_doctor_say_when_there_is_no_config_file(capsys, companion_home):
    assert main(["config", "show"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "the defaults" in first and "does not exist" in first
    assert "overlaid by" not in first
    main(["doctor"])
    line = next(x for x in capsys.readouterr().out.splitlines() if " config " in f" {x} ")
    assert line.startswith("PASS") and "does not exist" in line
    (companion_home / "config.toml").write_text('[table]\npack = "demo"\n')
    assert main(["config", "show"]) == 0
    assert "overlaid by" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("rotate", [1, 3, -2])
def test_rotate_names_the_values_that_work(rotate, tmp_path, capsys, companion_home):
    config = tmp_path / "config.toml"
    config.write_text(f"[display]\nrotate = {rotate}\n")
    assert main(["config", "show", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"[display] rotate = {rotate}: write 0, or 2 for a panel mounted upside down" in err
    assert "from 0 to 2" not in err


# --------------------------------------------------------------------------- found by hand

DEVICE = Path("/dev/zero")
needs_device = pytest.mark.skipif(not DEVICE.exists(), reason="needs /dev/zero")
DEEP = "[" * 5000 + "]" * 5000


@needs_device
def test_a_device_given_as_a_file_is_refused_not_read_forever(tmp_path, capsys, companion_home):
    assert main(["config", "show", "--config", str(DEVICE)]) == 2
    assert "not a config file" in capsys.readouterr().err
    assert main(["cards", "import", str(DEVICE)]) == 2
    assert "not a regular file" in capsys.readouterr().err
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nprofile = "{DEVICE}"\n')
    assert main(["config", "show", "--config", str(config)]) == 2
    assert "[camera] profile = '/dev/zero': not a file" in capsys.readouterr().err
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"")
    assert main(["read", "--profile", str(DEVICE), str(photo)]) == 2
    assert "--profile /dev/zero: not a profile file" in capsys.readouterr().err
    assert main(["read", str(DEVICE)]) == 1
    assert "not an image file (a device" in capsys.readouterr().out


def test_toml_nested_too_deeply_is_a_syntax_error(tmp_path, capsys, companion_home):
    config = tmp_path / "config.toml"
    config.write_text(f"[table]\nplayers = {DEEP}\n")
    assert main(["config", "show", "--config", str(config)]) == 2
    assert "not valid TOML (nested too deeply)" in capsys.readouterr().err
    pack = tmp_path / "pack.toml"
    pack.write_text(f'[pack]\ntitle = "outatime"\n[[card]]\nid = "x"\nsteps = {DEEP}\n')
    assert main(["cards", "import", str(pack)]) == 2
    assert "not valid TOML (nested too deeply)" in capsys.readouterr().err


def test_numbers_a_command_cannot_use_are_usage_errors(tmp_path, capsys, companion_home):
    for argv in (["bench", "engine", "--seconds", "-1"], ["bench", "engine", "--seconds", "nan"],
                 ["calibrate", "markers", "--dpi", "0", "--out", str(tmp_path)],
                 ["calibrate", "markers", "--dpi", "100000", "--out", str(tmp_path)],
                 ["calibrate", "markers", "--marker-mm", "0", "--out", str(tmp_path)],
                 ["calibrate", "markers", "--marker-mm", "150", "--out", str(tmp_path)]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2 and "give a number" in capsys.readouterr().err

    for argv, words in ((["journal", "export", "--game", "9223372036854775808"], "game's number"),
                        (["journal", "export", "--game", "-1"], "game's number"),
                        (["lights", "--port", "loop://", "--timeout", "inf"], "from 0 to 86400"),
                        (["lights", "--port", "loop://", "--watch", "nan"], "from 0 to 86400"),
                        (["bench", "table", "--soak-hours", "0"], "number of hours above 0"),
                        (["bench", "vision-synthetic", "--width", "-5"], "from 64 to 8192"),
                        # int() reads these too: only ASCII digits are a number here
                        (["bench", "vision-synthetic", "--width", "1_000"], "from 64 to 8192"),
                        (["bench", "vision-synthetic", "--width", "\u0663\u0660\u0660"],
                         "from 64 to 8192"),
                        (["run", "--seconds", "-1"], "above 0, or 0 for no limit"),
                        (["run", "--seconds", "nan"], "above 0, or 0 for no limit")):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2 and words in capsys.readouterr().err, argv


def test_a_config_text_with_a_nul_character_is_refused_when_read(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[journal]\nbackup = "a\\u0000b"\n')
    assert main(["config", "show", "--config", str(config)]) == 2
    assert "[journal] backup = 'a\\x00b': holds a NUL character" in capsys.readouterr().err


def test_a_game_started_at_a_time_no_clock_shows_is_listed_with_a_question_mark(
        tmp_path, capsys, companion_home):
    from companion.content import demo_pack
    from companion.journal import Journal
    from companion.match import Match

    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    Match.new(journal, "outatime", ["Ana", "Ben"], {}, demo_pack("outatime"))
    journal.close()
    con = sqlite3.connect(path)
    con.execute("UPDATE games SET created = 1e300")
    con.commit()
    con.close()
    main(["journal", "list", "--journal", str(path)])
    captured = capsys.readouterr()
    assert "outatime" in captured.out and " ? " in captured.out and "Traceback" not in captured.err


def test_read_says_when_it_cannot_write_the_drawn_images(tmp_path, capsys, companion_home):
    a_file = tmp_path / "taken"
    a_file.write_text("a file")
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"not really a photo")
    assert main(["read", "--annotate", str(a_file / "x"), str(photo)]) == 2
    assert "cannot make the folder" in capsys.readouterr().err


def test_a_folder_given_as_the_journal_is_said_and_left_alone(tmp_path, capsys, companion_home):
    folder = tmp_path / "journal.sqlite3"
    folder.mkdir()
    (folder / "keep").write_text("mine")
    config = tmp_path / "config.toml"
    config.write_text('[table]\ntitle = "outatime"\npack = "demo"\n[camera]\nsource = "none"\n'
                      '[display]\ndriver = "none"\n[buttons]\nbackend = "none"\n'
                      '[lights]\nport = ""\n')
    for argv in (["run", "--config", str(config), "--journal", str(folder), "--seconds", "1"],
                 ["journal", "list", "--journal", str(folder)],
                 ["demo", "--title", "outatime", "--journal", str(folder), "--out",
                  str(tmp_path / "o")]):
        assert main(argv) == 2
        assert "is a folder; a journal is a file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir() if "journal" in p.name) == [folder.name]
    assert (folder / "keep").read_text() == "mine"


def test_config_keys_that_only_make_sense_together(tmp_path, capsys, companion_home):
    config = tmp_path / "config.toml"
    config.write_text('[camera]\nsource = "files"\n')  # reading images of no path: the cwd
    assert main(["config", "show", "--config", str(config)]) == 2
    assert '[camera] source = "files" reads the images of [camera] path' in capsys.readouterr().err
    config.write_text('[table]\nplayers = ["Ana", "Ben", "Ana"]\n')
    assert main(["config", "show", "--config", str(config)]) == 2
    assert "[table] players: each name once" in capsys.readouterr().err


def test_a_path_the_command_cannot_use_is_said_with_the_path_not_a_traceback(
        tmp_path, capsys, monkeypatch):
    """The companion's home is a file, a path is longer than the system allows: each command
    says which path and what to check, exit 2."""
    home = tmp_path / "home"
    home.write_text("not a folder")
    monkeypatch.setenv("COMPANION_HOME", str(home))
    long = tmp_path / ("x" * 300 + ".sqlite3")
    for argv in (["cards", "add", "--title", "outatime", "--id", "c2", "--kind", "0.2",
                  "--steps", "3,4"],
                 ["calibrate", "markers", "--out", str(home / "markers")],
                 ["journal", "list", "--journal", str(long)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"companion: {tmp_path}") and "check that path" in err, argv
        assert "Traceback" not in err and len(err.splitlines()) == 1


def _journal_without_its_list_of_games(tmp_path):
    from companion.journal import Journal

    journal = tmp_path / "j.sqlite3"
    Journal(journal).close()
    con = sqlite3.connect(journal)
    con.execute("DROP TABLE games")
    con.commit()
    con.close()
    return journal


def test_a_journal_whose_list_of_games_is_damaged_is_said_not_a_traceback(tmp_path, capsys,
                                                                         companion_home):
    journal = _journal_without_its_list_of_games(tmp_path)
    assert main(["journal", "list", "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: ") and str(journal) in err and "Traceback" not in err


def test_the_demo_into_a_journal_it_cannot_write_stops_with_the_reason(tmp_path, capsys,
                                                                      companion_home):
    """A damaged file (its list of games gone): the bots would press START for ever."""
    journal = _journal_without_its_list_of_games(tmp_path)
    assert main(["demo", "--title", "outatime", "--journal", str(journal), "--live", "off",
                 "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "the file is damaged" in err and "journal repair" in err
    assert "Traceback" not in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_journal_path_that_is_a_pipe_is_said_by_every_journal_command(tmp_path, capsys,
                                                                        companion_home):
    pipe = tmp_path / "journal.sqlite3"
    os.mkfifo(pipe)
    for action in ("list", "check", "export", "backup", "repair"):
        assert main(["journal", action, "--journal", str(pipe)]) == 2
        err = capsys.readouterr().err
        assert f"{pipe} is not a file" in err and "Traceback" not in err


def test_a_journal_path_that_is_a_link_to_nowhere_is_said_not_taken_for_no_journal(
        tmp_path, capsys, companion_home):
    """A dangling link or a loop of links: not "no games yet" (then the table failing)."""
    loop, other, dangling = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3", tmp_path / "d"
    loop.symlink_to(other)
    other.symlink_to(loop)
    dangling.symlink_to(tmp_path / "gone" / "journal.sqlite3")
    for path in (loop, dangling):
        for action in ("list", "check", "backup"):
            assert main(["journal", action, "--journal", str(path)]) == 2
            err = capsys.readouterr().err
            assert f"{path} is a link that leads to no file" in err and "Traceback" not in err


def test_repair_and_backup_of_a_journal_that_is_not_there_make_none(tmp_path, capsys,
                                                                   companion_home):
    typo = tmp_path / "jornal.sqlite3"
    for action in ("repair", "backup"):
        assert main(["journal", action, "--journal", str(typo)]) == 2
        assert f"no journal at {typo}" in capsys.readouterr().err
    assert not list(tmp_path.glob("jornal*"))
