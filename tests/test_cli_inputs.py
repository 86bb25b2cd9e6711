"""Command-line mistakes get a message that says what and what to do (exit code 2), never a
traceback, and a command never speaks of a file that does not exist as if it did."""

from __future__ import annotations

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
