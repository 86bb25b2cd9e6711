"""Back in Time's seats at the simulated table: bots that roll the coloured dice into the
rendered tray and play everything else from the OLED menus.

Each decision is the pure ``bot``'s (``bots.py``), made with the buttons: NEXT until the menu
item that leads to it is selected, CONFIRM, and again at each step of a menu in several steps.
A card drawn is drawn once (sampled from the pile) and then picked from the menus. Dice are
rolled as players roll them: the chosen dice land in the tray with faces from the pack's layout;
for a reroll the dice kept may stay in the tray or be set aside, and the locked Biff dice too,
so the camera sees every way a table does it.
"""

from __future__ import annotations

from typing import Any

from companion.sim import SeatBots
from companion.titles.api import CHANCE, Action
from companion.titles.back_in_time.data import BIFF
from companion.titles.back_in_time.table import label_of


class TableBots(SeatBots):
    """The seats of a Back in Time game: roll into the tray, pick from the menus."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._drawn: tuple[int, Action] | None = None  # (journal mark, the card drawn)

    def _rolling(self) -> bool:
        state = self.session.match.state
        ch = state.challenge
        return ch is not None and ch["stage"] == "roll" and self.session.match.actor() == CHANCE

    def act_for_humans(self, prompt, actor: str) -> None:
        if self._rolling() and self.intent is None:
            self._roll()
        elif self.intent is not None and self._mark() != self.intent["state"]:
            self.intent = None

    def decide(self, prompt, actor: str) -> None:
        match = self.session.match
        if actor == CHANCE:
            if self._rolling():
                self._roll()
                return
            if self._drawn is None or self._drawn[0] != self._mark():
                self._drawn = (self._mark(), match.engine.sample_chance(match.state, self.rng))
            self.choose(self._drawn[1])
            return
        self.choose(self.title.bots.bot(match.engine, match.state, self.rng))

    def choose(self, action: Action) -> None:
        """Select the item leading to ``action`` (itself, or the group holding it); CONFIRM."""
        table = self.session.table
        menu = table.menu()
        if menu is None or not menu.labels:
            return
        label = table.route(action)
        if label is None:
            raise RuntimeError(f"no menu item leads to {action!r} in {menu.labels}")
        steps = (menu.labels.index(label) - menu.selected) % len(menu.labels)
        self.presses.press(*(["next"] * steps), "confirm")

    def _roll(self) -> None:
        """Roll the dice the challenge rolls now; faces from the pack's layout."""
        state = self.session.match.state
        ch = state.challenge
        layout = state.content.faces
        new = [f"{ch['dice'][i]['colour']}:{self.rng.choice(layout[ch['dice'][i]['colour']])}"
               for i in ch["roll"]]
        tray = list(new)
        if ch["rolled"]:  # a reroll: what else lies in the tray is the players' choice
            others = [(label_of(d), d["face"] == BIFF) for i, d in enumerate(ch["dice"])
                      if i not in ch["roll"]]
            keep_kept, keep_biffs = self.rng.random() < 0.5, self.rng.random() < 0.3
            tray += [lab for lab, biff in others if (keep_biffs if biff else keep_kept)]
            self.rng.shuffle(tray)
        self.rolls += 1
        self.intent = {"kind": "roll", "dice": new, "state": self._mark(), "decision": None}
        self.tries = 0
        self.tray.show(tray)
