"""The live view in a terminal: the panel and the words fit 80x24, use a bigger terminal, show
the keys and why a press did nothing; with --live off the prompts are lines of text."""

from __future__ import annotations

import io

import pytest

from companion.buttons import KEY_HELP
from companion.content import demo_pack
from companion.display import screens as s
from companion.display.backends import TerminalDisplay
from companion.display.words import option_row, words
from companion.journal import Journal
from companion.session import Prompt, Session
from companion.sim import run_demo
from companion.table import Table

BRAILLE = range(0x2800, 0x2900)
HALF_BLOCKS = "\u2580\u2584\u2588"
MENU = Prompt("menu", "ANA: CHOOSE", options=[f"LOCK {n}" for n in range(12)], selected=7)


def footer(columns, rows):
    return words(MENU, columns, rows, keys=KEY_HELP, refused="END TURN: not now")


def lines_of(size, footer=footer):
    text = TerminalDisplay(io.StringIO(), style="auto", footer=footer, size=size).render(
        s.notice("ANA", "ROLL!"))
    return text.split("\n")


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 30), (200, 50), (60, 20)])
def test_the_view_never_overflows_the_terminal(size):
    columns, rows = size
    lines = lines_of(size)
    assert len(lines) <= rows - 1  # the last line stays free: writing it would scroll
    assert all(len(line) <= columns - 1 for line in lines)
    text = "\n".join(lines)
    assert "ANA: CHOOSE" in text and ("[LOCK 7]" in text or "> LOCK 7" in text)
    assert "! END TURN: not now" in text


def test_in_80x24_the_panel_is_braille_and_the_keys_are_on_screen():
    lines = lines_of((80, 24))
    assert any(ord(c) in BRAILLE for c in lines[1])
    assert lines[18].startswith("ANA: CHOOSE")  # 16 braille rows and the frame, then words
    assert KEY_HELP in [line.rstrip() for line in lines]  # one line in 80 columns
    assert len(KEY_HELP) <= 79


def test_a_big_terminal_gets_the_real_panel_and_the_words_beside_it():
    lines = lines_of((200, 50))
    assert any(c in HALF_BLOCKS for c in lines[5])  # half blocks: 1x2 pixels a character
    assert len(lines) == 34  # 32 rows and the frame; the words beside, not under
    assert "ANA: CHOOSE" in lines[0] and lines[0].index("ANA") > 130
    beside = "\n".join(lines)
    assert all(f"LOCK {n}" in beside for n in range(12))  # room for the whole menu


def test_a_taller_terminal_shows_more_of_the_menu():
    short = "\n".join(lines_of((80, 24)))
    tall = "\n".join(lines_of((80, 40)))
    assert sum(f"LOCK {n}" in short for n in range(12)) < sum(
        f"LOCK {n}" in tall for n in range(12)) == 12


def test_the_menu_row_keeps_the_selected_item_in_view():
    options = [f"ITEM NUMBER {n}" for n in range(30)]
    for selected in (0, 14, 29):
        row = option_row(options, selected, 60)
        assert f"[ITEM NUMBER {selected}]" in row and len(row) <= 60
    assert option_row(options, 29, 60).startswith("(30/30) < ")


def test_without_a_size_the_terminal_is_asked(monkeypatch):
    import shutil

    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=(80, 24): (90, 26))
    display = TerminalDisplay(io.StringIO(), style="auto", footer=footer)
    lines = display.render(s.notice("ANA", "ROLL!")).split("\n")
    assert len(lines) == 25 and all(len(line) <= 89 for line in lines)


def test_the_table_shows_the_prompt_the_keys_and_why_a_press_did_nothing():
    journal = Journal(":memory:")
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    out = io.StringIO()
    display = TerminalDisplay(out, style="auto", size=(80, 24), in_place=True)
    table = Table(session, display=display, dwell_s=0.0)
    table.keys = KEY_HELP
    display.footer = table.words
    table.boot()
    table.flush()
    assert "OUTATIME: PLAYERS" in out.getvalue() and KEY_HELP in out.getvalue()
    session_update = session.press("end")
    table.handle(session_update)
    table.flush()
    last = out.getvalue().rsplit("\x1b[", 1)[-1]  # the frame drawn last, in place
    assert "! END TURN: not now; choose with NEXT/PREV, then CONFIRM" in last
    assert all(len(line) <= 79 for line in last.split("\n")[1:])
    journal.close()


def test_live_off_prints_the_prompts_and_the_keys_as_text():
    journal = Journal(":memory:")
    out = io.StringIO()
    run_demo(journal, 2, 1985, None, keyboard=True, stream=out, max_steps=5, title="outatime")
    text = out.getvalue()
    assert KEY_HELP in text
    assert "-> MARTY: ACTIVE CARD" in text  # the first menu a person answers: the kind
    assert "   > 0.3" in text and "     0.2" in text  # its items, one a line
    journal.close()


def test_live_off_bots_print_what_is_asked_after_each_move():
    journal = Journal(":memory:")
    out = io.StringIO()
    # The first rolls are enough here; whole games are the demo tests' job.
    run_demo(journal, 2, 7, None, stream=out, title="outatime", max_steps=60)
    text = out.getvalue()
    assert text.count("-> ") > 10 and " - ROLL! - 6 dice" in text
    journal.close()


class Keys:
    """Keys a person types, one a poll (the keyboard's stand-in)."""

    typed: list[str] = []

    def __init__(self, stream=None):
        self.left = list(self.typed)

    def poll(self):
        return [self.left.pop(0)] if self.left else []

    def close(self):
        pass


def test_live_off_a_person_reads_why_a_key_did_nothing_and_each_new_selection(monkeypatch):
    import companion.buttons

    monkeypatch.setattr(companion.buttons, "KeyboardButtons", Keys)
    monkeypatch.setattr(Keys, "typed", ["next", "end", "next", "confirm"])
    journal = Journal(":memory:")
    out = io.StringIO()
    run_demo(journal, 2, 1985, None, keyboard=True, stream=out, max_steps=8, title="outatime")
    lines = out.getvalue().splitlines()
    refused = lines.index("  ! END TURN: cannot end the turn now: the Power cards are being dealt")
    # the menu, whole, after the first key (it starts on 0.3; NEXT went on to 0.4)
    assert lines[refused - 4:refused] == ["-> MARTY: ACTIVE CARD", "     0.2", "     0.3",
                                          "   > 0.4"]
    assert lines[refused + 1] == "   > 0.2"  # NEXT: the item now selected, alone
    assert lines[refused + 2] == "-> MARTY: ACTIVE 0.2"  # CONFIRM: the next menu, whole
    assert lines[refused + 3] == "   > demo-02-01  5-4-4"  # a card's id and its steps apart
    journal.close()


def test_a_fault_in_the_words_never_stops_the_table(caplog):
    journal = Journal(":memory:")
    session = Session(journal, ["Ana", "Ben"], demo_pack, title="outatime")
    display = TerminalDisplay(io.StringIO(), style="auto", size=(80, 24))
    table = Table(session, display=display, dwell_s=0.0)
    table.keys = KEY_HELP
    display.footer = table.words

    def broken():
        raise KeyError("a title's bug")

    session.prompt = broken
    assert display.show(s.notice("ANA", "ROLL!"))  # the panel is still drawn, with the keys
    assert KEY_HELP in display.stream.getvalue()
    assert "could not be made" in caplog.text
    journal.close()
