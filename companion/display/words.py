"""The table in words, for a terminal: what is asked now, the menu, what was just said, the keys.

The OLED drawn in a terminal is small in an 80x24 window (braille), and absent with
``companion demo --live off``; these lines say the same in plain text. Nothing here knows a
title: the prompt comes from the session, the words of the dice from the title's table.

    >>> from companion.session import Prompt
    >>> prompt = Prompt("menu", "ANA: CHOOSE", options=["LOCK 3 4", "END TURN"], selected=1)
    >>> for line in words(prompt, columns=40, rows=2):
    ...     print(line)
    ANA: CHOOSE
    (2/2)  LOCK 3 4  [END TURN]
    >>> for line in words(prompt, columns=40, rows=5, refused="nothing to undo"):
    ...     print(line)
    ANA: CHOOSE
      LOCK 3 4
    > END TURN
    ! nothing to undo
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from companion.display.screens import item_text
from companion.i18n import _


def headline(prompt: Any, dice_text: Callable[[list[str]], str] | None = None) -> str:
    """The prompt's title with its first line and the dice it shows: one line."""
    parts = [prompt.title, *prompt.lines[:1]]
    if prompt.dice and prompt.kind not in ("menu", "propose"):
        text = dice_text(list(prompt.dice)) if dice_text else " ".join(map(str, prompt.dice))
        parts.append(_("dice: {dice}").format(dice=text))
    return " - ".join(p for p in parts if p)


def option_row(options: Sequence[str], selected: int, columns: int) -> str:
    """The menu on one line, the selected item in brackets and always in view."""
    if not options:
        return ""
    selected = selected % len(options)
    count = f"({selected + 1}/{len(options)}) " if len(options) > 1 else ""
    cells = [f"[{o}]" if i == selected else f" {o} " for i, o in enumerate(options)]
    low = high = selected

    def width(lo: int, hi: int) -> int:
        return len(count) + sum(len(c) + 1 for c in cells[lo:hi + 1]) + (lo > 0) * 2 + \
            (hi < len(cells) - 1) * 2

    while True:  # widen the window after, then before, the selected item while it fits
        grown = False
        if high + 1 < len(cells) and width(low, high + 1) <= columns:
            high += 1
            grown = True
        if low > 0 and width(low - 1, high) <= columns:
            low -= 1
            grown = True
        if not grown:
            break
    text = count + ("< " if low > 0 else "") + " ".join(cells[low:high + 1]) + \
        (" >" if high < len(cells) - 1 else "")
    return text[:columns]


def option_lines(options: Sequence[str], selected: int, columns: int, rows: int) -> list[str]:
    """The menu one item a line ("> " marks the selected one), as many as ``rows`` show,
    scrolled so the selected one is in view."""
    if not options or rows <= 0:
        return []
    selected = selected % len(options)
    start = max(0, min(selected - rows // 2, len(options) - rows))
    shown = range(start, min(len(options), start + rows))
    return [(("> " if i == selected else "  ") + options[i])[:columns] for i in shown]


def words(prompt: Any, columns: int, rows: int, said: str | None = None,
          keys: str | None = None, dice_text: Callable[[list[str]], str] | None = None,
          refused: str | None = None) -> list[str]:
    """At most ``rows`` lines of at most ``columns`` characters: the headline, the menu (one
    line when room is short, else an item a line), what was just announced ("* ...") or why
    the last press did nothing ("! ..."), the keys.

    The headline, the selected item and the first line of what was said come first; the keys
    next; then the rest of what was said and more of the menu, as room allows.
    """
    columns = max(10, columns)
    if rows <= 0:
        return []
    head = headline(prompt, dice_text)[:columns]
    told = f"! {refused}" if refused else f"* {said}" if said else ""
    said_lines = textwrap.wrap(told, columns, subsequent_indent="  ") if told else []
    key_lines = textwrap.wrap(keys, columns) if keys else []
    options = [item_text(o) for o in prompt.options]  # a card's id and steps apart
    budget = rows - 1
    menu_rows = 1 if options and budget > 0 else 0
    budget -= menu_rows
    said_rows = min(len(said_lines), 1, budget)
    budget -= said_rows
    key_rows = min(len(key_lines), budget)
    budget -= key_rows
    more_said = min(len(said_lines) - said_rows, budget, 2)
    said_rows += more_said
    budget -= more_said
    if options:
        menu_rows = min(menu_rows + budget, len(options))
    if menu_rows == 1:
        menu = [option_row(options, prompt.selected, columns)] if options else []
    else:
        menu = option_lines(options, prompt.selected, columns, menu_rows)
    return [head, *menu, *said_lines[:said_rows], *key_lines[:key_rows]][:rows]
