"""`companion cards` on the owner's own pack under hostile conditions: optional fields left
out, several commands at once, a full disk, removing what another entry uses, typos in the
[pack] table, a symlinked pack file, a byte-order mark."""

from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.content import (
    PackError,
    demo_pack,
    load_pack,
    owner_pack,
    owner_pack_path,
    parse_pack,
    save_owner_pack,
)
from companion.titles import keys as title_keys

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "companion" / "titles" / "back_in_time" / "demo.toml"


def cards(*args: str) -> list[str]:
    return ["cards", *args]


def bit(*args: str) -> list[str]:
    return ["cards", "--title", "back_in_time", *args]


def run(home: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    """``companion`` as the owner runs it, in its own process."""
    env = {**os.environ, "COMPANION_HOME": str(home), "COMPANION_LANG": "en"}
    return subprocess.run([sys.executable, "-m", "companion", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, **kwargs)


def leftovers(home: Path) -> list[str]:
    return sorted(p.name for p in (home / "cards").glob("*.tmp"))


# --------------------------------------------------------------------------- optional fields


def test_two_tiles_then_the_demo_pack_register_and_read_back(capsys, companion_home):
    # The first tile's optional modifier (None) was written as the text "None": the second
    # save refused the file it had just written.
    assert main(bit("add", "--section", "tile", "--id", "marty-1", "--character", "marty",
                    "--move", "3", "--die", "speed")) == 0
    assert main(bit("add", "--section", "tile", "--id", "marty-2", "--character", "marty",
                    "--move", "2", "--die", "courage")) == 0
    text = owner_pack_path("back_in_time").read_text(encoding="utf-8")
    assert "None" not in text and "modifier" not in text
    tiles = owner_pack("back_in_time").entries("tile")
    assert [(t["id"], t["move"], t["die"], t["modifier"]) for t in tiles] == [
        ("marty-1", 3, "speed", None), ("marty-2", 2, "courage", None)]
    capsys.readouterr()
    assert main(bit("import", "--replace", str(DEMO))) == 0
    assert "registered 186 entries" in capsys.readouterr().out
    mine = owner_pack("back_in_time")
    assert mine.to_setup() == demo_pack("back_in_time").to_setup()
    assert main(bit("list")) == 0
    assert "[tile] 44" in capsys.readouterr().out


@pytest.mark.parametrize("title", title_keys())
def test_every_demo_pack_imports_into_an_empty_owner_pack(capsys, companion_home, title):
    demo = ROOT / "companion" / "titles" / title / "demo.toml"
    assert main(cards("--title", title, "import", str(demo))) == 0, capsys.readouterr().err
    assert "None" not in owner_pack_path(title).read_text(encoding="utf-8")
    assert owner_pack(title).to_setup() == demo_pack(title).to_setup()


def test_one_tile_imports_into_an_empty_owner_pack(capsys, companion_home, tmp_path):
    one = tmp_path / "one.toml"
    one.write_text('[pack]\ntitle = "back_in_time"\n\n[[tile]]\nid = "t1"\nmodifier = "wild"\n',
                   encoding="utf-8")
    assert main(bit("import", str(one))) == 0, capsys.readouterr().err
    assert main(bit("add", "--section", "tile", "--id", "t2", "--move", "4")) == 0
    tiles = owner_pack("back_in_time").entries("tile")
    assert [(t["id"], t["move"], t["die"], t["modifier"]) for t in tiles] == [
        ("t1", 0, None, "wild"), ("t2", 4, None, None)]


def test_a_none_value_is_left_out_in_any_title_and_section(companion_home):
    path = save_owner_pack("outatime", [{"id": "a", "kind": "0.2", "steps": [2], "note": None}])
    assert "note =" not in path.read_text(encoding="utf-8")
    assert "note" not in owner_pack("outatime").card("a")


# --------------------------------------------------------------------------- several at once


def test_concurrent_adds_and_imports_keep_every_entry(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    n = 12
    packs = []
    for i in range(2):
        pack = tmp_path / f"p{i}.toml"
        pack.write_text(f'[pack]\ntitle = "outatime"\n[[card]]\nid = "imp{i}"\nkind = "0.4"\n'
                        "steps = [2, 3]\n", encoding="utf-8")
        packs.append(pack)
    env = {**os.environ, "COMPANION_HOME": str(home), "COMPANION_LANG": "en"}
    argvs = [["cards", "add", "--id", f"r{i}", "--kind", "0.2", "--steps", "3,4,2,5"]
             for i in range(n)]
    argvs += [["cards", "import", str(pack)] for pack in packs]
    procs = [subprocess.Popen([sys.executable, "-m", "companion", *argv], env=env, cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for argv in argvs]
    results = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    for code, out, err in results:
        assert code == 0 and "registered" in out, err
    ids = sorted(c["id"] for c in load_pack(home / "cards" / "outatime.toml").cards)
    assert ids == sorted([f"r{i}" for i in range(n)] + ["imp0", "imp1"])
    assert leftovers(home) == []


# --------------------------------------------------------------------------- a full disk


def test_a_full_disk_names_the_file_and_keeps_the_cards(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    assert run(home, "cards", "add", "--id", "a", "--kind", "0.2", "--steps", "2").returncode == 0
    path = home / "cards" / "outatime.toml"
    before = path.read_bytes()

    def small_files():  # as `ulimit -f 2`: no file may grow beyond 2 KB
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, resource.RLIM_INFINITY))

    demo = ROOT / "companion" / "titles" / "outatime" / "demo.toml"
    for argv in (["add", "--id", "b", "--kind", "0.2", "--steps", "2", "--note", "x" * 5000],
                 ["import", str(demo), "--replace"]):
        done = run(home, "cards", *argv, preexec_fn=small_files)
        assert done.returncode == 2, done.stderr
        assert str(path) in done.stderr and "?" not in done.stderr
        assert "nothing was registered" in done.stderr and "kept" in done.stderr
        assert path.read_bytes() == before
        assert leftovers(home) == []


def test_no_room_on_the_disk_is_said_so(capsys, companion_home, monkeypatch):
    assert main(cards("add", "--id", "a", "--kind", "0.2", "--steps", "2")) == 0
    path = owner_pack_path("outatime")
    before = path.read_bytes()

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    capsys.readouterr()
    assert main(cards("add", "--id", "b", "--kind", "0.2", "--steps", "2")) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "the disk is full" in err and "nothing was registered" in err
    assert path.read_bytes() == before
    assert leftovers(companion_home) == []
    assert main(cards("remove", "a")) == 2
    assert "nothing was removed" in capsys.readouterr().err
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- removing


def test_removing_a_place_a_link_uses_says_to_remove_the_link_first(capsys, companion_home):
    for argv in (["--section", "place", "--id", "a", "--name", "A"],
                 ["--section", "place", "--id", "b", "--name", "B"],
                 ["--section", "link", "--id", "a~b", "--places", "a,b"]):
        assert main(bit("add", *argv)) == 0
    capsys.readouterr()
    assert main(bit("remove", "a")) == 2
    err = capsys.readouterr().err
    assert "place 'a' is used by link 'a~b'; remove link 'a~b' first" in err
    assert "nothing was removed" in err and "add the place first" not in err
    assert [p["id"] for p in owner_pack("back_in_time").entries("place")] == ["a", "b"]
    assert main(bit("remove", "a~b")) == 0
    assert main(bit("remove", "a")) == 0
    assert [p["id"] for p in owner_pack("back_in_time").entries("place")] == ["b"]


def test_removing_a_used_demo_place_names_every_user(capsys, companion_home):
    assert main(bit("import", str(DEMO))) == 0
    capsys.readouterr()
    assert main(bit("remove", "elm-st")) == 2
    err = capsys.readouterr().err
    assert "place 'elm-st' is used by link 'george-house~elm-st'" in err
    assert "track 'delorean'" in err and "nothing was removed" in err
    assert len(owner_pack("back_in_time").entries("place")) == 20


# --------------------------------------------------------------------------- the [pack] table


@pytest.mark.parametrize("typo", ["titel", "sorce", "nmae"])
def test_an_unknown_pack_key_is_refused(typo):
    text = f'[pack]\ntitle = "outatime"\n{typo} = "x"\n'
    with pytest.raises(PackError) as info:
        parse_pack(text, "mine.toml")
    message = str(info.value)
    assert "mine.toml" in message and typo in message
    assert "title, name, source, note" in message


def test_a_misspelt_title_is_not_imported_into_another_title(capsys, companion_home, tmp_path):
    pack = tmp_path / "eras-ish.toml"
    pack.write_text('[pack]\ntitel = "eras"\n[[card]]\nid = "x"\nkind = "0.2"\nsteps = [2]\n',
                    encoding="utf-8")
    assert main(cards("import", str(pack))) == 2
    err = capsys.readouterr().err
    assert str(pack) in err and "titel" in err
    assert not owner_pack_path("outatime").exists()


# --------------------------------------------------------------------------- the file itself


def test_a_symlinked_pack_is_written_through_to_its_target(capsys, companion_home, tmp_path):
    assert main(cards("add", "--id", "a", "--kind", "0.2", "--steps", "2")) == 0
    link = owner_pack_path("outatime")
    target = tmp_path / "synced" / "outatime.toml"
    target.parent.mkdir()
    link.replace(target)
    link.symlink_to(target)
    assert main(cards("add", "--id", "b", "--kind", "0.2", "--steps", "3")) == 0
    assert main(cards("remove", "a")) == 0
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert [c["id"] for c in load_pack(target).cards] == ["b"]
    assert not list(target.parent.glob("*.tmp")) and leftovers(companion_home) == []


def test_a_byte_order_mark_is_accepted(capsys, companion_home, tmp_path):
    pack = tmp_path / "notepad.toml"
    pack.write_bytes(b'\xef\xbb\xbf[pack]\r\ntitle = "outatime"\r\n[[card]]\r\nid = "x"\r\n'
                     b'kind = "0.2"\r\nsteps = [2]\r\n')
    assert [c["id"] for c in load_pack(pack).cards] == ["x"]
    assert main(cards("import", str(pack))) == 0
    # an owner's file saved by Notepad is read, and written back without the mark
    path = owner_pack_path("outatime")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert main(cards("add", "--id", "y", "--kind", "0.2", "--steps", "3")) == 0
    assert [c["id"] for c in owner_pack("outatime").cards] == ["x", "y"]


def test_bytes_that_are_not_utf8_are_told_by_line(tmp_path):
    pack = tmp_path / "latin1.toml"
    pack.write_bytes(b'\xef\xbb\xbf[pack]\ntitle = "outatime"\n[[card]]\nid = "x"\n'
                     b'note = "caf\xe9"\nkind = "0.2"\nsteps = [2]\n')
    with pytest.raises(PackError) as info:
        load_pack(pack)
    message = str(info.value)
    assert str(pack) in message and "line 5, column 12" in message and "0xe9" in message
    assert "position" not in message
