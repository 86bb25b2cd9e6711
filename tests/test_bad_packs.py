"""A content pack too small for a game is refused before the game starts (at the table, in the
replay and in `doctor`), and a recorded game that cannot go on never takes the table down: it
is set aside, said once, and the table goes on to the title menu (no systemd restart loop)."""

from __future__ import annotations

import logging

import pytest

from companion import titles
from companion.cli import main
from companion.content import Pack, demo_pack
from companion.journal import Journal
from companion.match import Match, make_setup
from companion.session import Session
from companion.table import Table
from companion.titles.api import RuleError

ONE_CARD = Pack("outatime", "owner's cards", "owner",
                cards=[{"id": "x1", "kind": "0.2", "steps": [2, 3], "source": "owner"}])


def config(tmp_path, pack="demo", players='["Ana", "Ben"]', title="outatime"):
    path = tmp_path / "config.toml"
    path.write_text(f'[table]\ntitle = "{title}"\npack = "{pack}"\nplayers = {players}\n'
                    '[camera]\nsource = "none"\n[display]\ndriver = "none"\n'
                    '[buttons]\nbackend = "none"\n[lights]\nport = ""\n', encoding="utf-8")
    return path


def test_a_pack_with_one_card_is_refused_when_the_game_starts_and_nothing_is_written():
    journal = Journal(":memory:")
    session = Session(journal, ["Ana", "Ben"], lambda title: ONE_CARD, title="menu")
    session.press("confirm")  # OUTATIME
    update = session.press("confirm")  # two players
    assert "2 players need 2 0.2 cards and the pack has 1" in update.error
    assert "companion cards add" in update.error
    assert session.match is None and journal.games() == []
    for name in ("next", "prev", "confirm", "back", "end", "undo", "menu"):
        session.press(name)  # every button at this moment: no exception, still no game
    assert session.match is None and journal.games() == []


@pytest.mark.parametrize("title", titles.keys())
def test_every_title_refuses_an_empty_pack_before_recording_the_game(title):
    journal = Journal(":memory:")
    facts = titles.get(title).facts
    empty = Pack(title, "empty", "owner", sections={})
    with pytest.raises(RuleError) as refused:
        Match.new(journal, title, ["Ana", "Ben", "Cy", "Dee"][: facts.min_players], {}, empty)
    assert str(refused.value)  # the title's own reason
    assert journal.games() == []


def record_unplayable_game(path) -> int:
    """A game recorded before packs were checked: its setup holds one card."""
    journal = Journal(path)
    game = journal.new_game("outatime", make_setup("outatime", ["Ana", "Ben"], {}, ONE_CARD))
    journal.close()
    return game


def test_a_resumed_game_whose_pack_cannot_serve_it_is_set_aside_and_said_once(tmp_path):
    path = tmp_path / "journal.sqlite3"
    game = record_unplayable_game(path)
    journal = Journal(path)
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    assert session.match is None
    assert f"Game {game} cannot go on: 2 players need 2 0.2 cards" in session.last_error
    assert game in journal.closed() and journal.unfinished() is None
    session.press("confirm")  # the players menu: a new game with a pack that serves it
    assert session.match is not None and session.match.game != game
    new_game = session.match.game
    journal.close()
    journal = Journal(path)  # the next start: nothing to say, the new game goes on
    again = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    assert again.last_error is None and again.match.game == new_game
    journal.close()


def test_companion_run_twice_on_a_game_that_cannot_go_on_keeps_running(tmp_path, monkeypatch,
                                                                       caplog, capsys):
    caplog.set_level(logging.ERROR, logger="companion")
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    path = tmp_path / "journal.sqlite3"
    game = record_unplayable_game(path)
    for _ in range(2):  # a restart must not find the same fault again: no restart loop
        assert main(["run", "--config", str(config(tmp_path)), "--journal", str(path),
                     "--seconds", "0.3"]) == 0
    said = [r.getMessage() for r in caplog.records if "cannot go on" in r.getMessage()]
    assert len(said) == 1 and f"Game {game}" in said[0]
    capsys.readouterr()
    assert main(["journal", "list", "--journal", str(path)]) == 0
    listed = capsys.readouterr().out
    assert "closed" in listed.splitlines()[0]


def test_a_resumed_game_whose_actions_no_longer_replay_is_set_aside(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    setup = make_setup("outatime", ["Ana", "Ben"], {}, demo_pack("outatime"))
    game = journal.new_game("outatime", setup)
    journal.append(game, {"type": "end"})  # refused by the rules: nobody has rolled
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    assert session.match is None and f"Game {game} cannot go on" in session.last_error
    assert "cannot end the turn now" in session.last_error
    assert game in journal.closed()
    assert journal.actions(game) == [{"type": "end"}]  # kept whole
    journal.close()


def test_a_fault_in_the_game_code_is_shown_and_the_table_goes_on(caplog):
    caplog.set_level(logging.ERROR, logger="companion")

    class Presses:
        def __init__(self):
            self.pending = ["confirm", "next"]

        def poll(self):
            out, self.pending = self.pending, []
            return out

    session = Session(Journal(":memory:"), ["Ana", "Ben"], demo_pack, title="outatime")

    def broken(name):
        raise ZeroDivisionError("integer division or modulo by zero")

    session.press = broken
    table = Table(session, buttons=[Presses()], dwell_s=0.0)
    table.boot()
    table.step()  # would stop the daemon (and loop under systemd) if raised
    assert any("could not handle" in r.getMessage() for r in caplog.records)
    assert table.frames_shown >= 2  # the boot screen, then the error


def test_fewer_names_than_the_title_needs_are_said_and_never_crash():
    session = Session(Journal(":memory:"), ["Ana"], demo_pack, title="outatime")
    for name in ("next", "prev", "confirm", "menu", "confirm"):
        update = session.press(name)  # an empty players menu: ZeroDivisionError before
    assert "OUTATIME takes 2-6 players and the table names 1" in update.error
    assert "[table] players" in update.error and session.match is None
    menu = Session(Journal(":memory:"), ["Ana"], demo_pack, title="menu")
    update = menu.press("confirm")  # OUTATIME from the title menu
    assert "takes 2-6 players" in update.error and update.prompt.title == "CHOOSE GAME"


def test_doctor_says_what_the_pack_can_serve(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    assert main(["cards", "add", "--id", "x1", "--kind", "0.2", "--steps", "2,3"]) == 0
    capsys.readouterr()
    main(["doctor", "--config", str(config(tmp_path, pack="owner"))])
    line = next(x for x in capsys.readouterr().out.splitlines() if "content pack" in x)
    assert line.startswith("FAIL") and "2 players need 2 0.2 cards and the pack has 1" in line
    main(["doctor", "--config", str(config(tmp_path, players='["Ana", "Ben", "Cy"]'))])
    line = next(x for x in capsys.readouterr().out.splitlines() if "content pack" in x)
    assert line.startswith("PASS") and "outatime 2-3 players" in line


def test_a_recorded_game_of_a_title_this_companion_does_not_know_is_set_aside(tmp_path,
                                                                             caplog):
    journal = Journal(tmp_path / "journal.sqlite3")
    game = journal.new_game("nosuchtitle", {"title": "nosuchtitle", "players": ["A", "B"]})
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="menu")
    assert session.match is None and "unknown title 'nosuchtitle'" in session.last_error
    assert game in journal.closed()
    assert "Traceback" not in caplog.text  # a refusal, not a fault: one line in the log
    journal.close()


def test_companion_run_with_a_pack_that_can_start_no_game_says_so_at_start(tmp_path, monkeypatch,
                                                                           caplog):
    """Not first when a player chooses a game: logged (and on the panel) as the table starts,
    and the table runs on (a game in the journal may still be resumed)."""
    caplog.set_level(logging.ERROR, logger="companion")
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    missing = tmp_path / "no-such-pack.toml"
    assert main(["run", "--config", str(config(tmp_path, pack=str(missing))), "--journal",
                 str(tmp_path / "journal.sqlite3"), "--seconds", "0.3"]) == 0
    said = [r.getMessage() for r in caplog.records if "cannot start a game" in r.getMessage()]
    assert len(said) == 1 and str(missing) in said[0]
