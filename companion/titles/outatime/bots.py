"""OUTATIME's bots: a plain, sensible player for the simulator and the benchmarks, and the bots
that sit at the simulated table (roll dice into the rendered tray, move dice out of it, press
the buttons)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from companion.sim import SeatBots
from companion.titles.api import CHANCE, Action
from companion.titles.outatime import rules as outatime


def bot(engine: Any, state: outatime.State, rng: random.Random) -> Action:
    """A plain, sensible OUTATIME player: take every useful die, push luck while it is cheap."""
    actions = engine.legal_actions(state)
    kinds = {a["type"] for a in actions}
    if kinds <= {"next", "target", "choose"}:
        if "target" in kinds:  # hit the opponent closest to winning
            return max(actions, key=lambda a: _standing(state, a["player"]))
        return actions[0]
    locks = [a for a in actions if a["type"] == "lock"]
    if locks:
        best = max(locks, key=lambda a: _lock_value(state, a["dice"]))
        if _lock_value(state, best["dice"]) > 0 or not ({"end", "reroll"} & kinds):
            return best
    if "doubleback" in kinds:
        return {"type": "doubleback"}
    odds = outatime.odds(state)
    if "reroll" in kinds and odds and odds["stall"] < 0.3:
        return {"type": "reroll"}
    return {"type": "end"} if "end" in kinds else rng.choice(actions)


def _standing(state: outatime.State, name: str) -> tuple[int, int]:
    p = state.player(name)
    return len(p.completed), p.progress


def _lock_value(state: outatime.State, dice: list[str]) -> float:
    """How good locking these dice now is: numbers advance, fluxes are due, 88s hunt paradoxes."""
    numbers = sum(1 for d in dice if d in outatime.NUMBERS)
    fluxes = dice.count(outatime.FLUX)
    eighty = dice.count(outatime.EIGHTY_EIGHT)
    board = state.delorean
    after_f = board.count(outatime.FLUX) + fluxes
    after_e = board.count(outatime.EIGHTY_EIGHT) + eighty
    paradox = after_f >= 2 and after_e >= 2
    value = numbers * 2 + fluxes * 0.5 + (3 if paradox else 0)
    if eighty and not paradox:
        value -= eighty * 0.75  # a free 88 is worth more in the hand than on the card
    return value




class TableBots(SeatBots):
    """OUTATIME's seats: the bots roll the six dice into the tray, take out the dice they lock
    (the camera proposes the lock), pick the dealt cards and their Active and Next cards."""

    def act_for_humans(self, prompt, actor: str) -> None:
        match = self.session.match
        if prompt.kind == "roll" and actor == CHANCE and self.intent is None:
            self._roll(match.state.free_dice)
        elif self.intent is not None and self._recorded_since(self.intent["state"]):
            self.intent = None

    def decide(self, prompt, actor: str) -> None:
        match = self.session.match
        if prompt.kind == "roll" and actor == CHANCE:
            self._roll(match.state.free_dice)
            return
        if actor == CHANCE:  # the deal: pick each card of a random hand from the menu
            self._pick_option(prompt, self.rng.choice(prompt.options))
            return
        self._decide(match)

    def fits(self, proposal: list[Action]) -> bool:
        wanted = self.intent or {}
        if wanted.get("kind") == "lock" and [a["type"] for a in proposal] == ["lock"]:
            return Counter(proposal[0]["dice"]) == Counter(wanted["dice"])
        return super().fits(proposal)

    def _roll(self, count: int, decision: str | None = None) -> None:
        """Roll ``count`` dice; ``decision`` is the menu item that does the same with the
        buttons (ROLL AGAIN, DOUBLEBACK), used if the camera cannot read the roll."""
        self.roll([self.rng.choice(outatime.FACES) for _ in range(count)], decision)

    def _decide(self, match) -> None:
        state = match.state
        action = bot(outatime, state, self.rng)
        kind = action["type"]
        if kind == "lock" and not state.pending:
            # Take the dice out of the tray; the camera proposes the lock.
            left = list((Counter(self.tray.faces) - Counter(action["dice"])).elements())
            self.intent = {"kind": "lock", "dice": list(action["dice"]), "state": self._mark(),
                           "label": self.session.table.label(action)}
            self.tries = 0
            self.tray.show(left)
            return
        if kind in ("reroll", "doubleback"):  # the menu item, if the camera cannot read it
            decision = self.session.table.label({"type": kind})
            if kind == "reroll":
                self._roll(state.free_dice, decision)
            else:
                self._roll(sum(1 for f in state.delorean if f in outatime.NUMBERS), decision)
            return
        if kind == "end":
            self.presses.press("end")
            return
        prompt = self.session.prompt()
        if kind == "choose":  # two menus: the Active card, then the Next card
            card = action["active"] if self.session.table.picking_active() else action["next"]
            self._pick_card(prompt, card)
            return
        if kind == "next":  # the card, or first its kind when the list is long
            self._pick_card(prompt, action["card"])
            return
        self._pick_option(prompt, self.session.table.label(action))  # paradox target

    def _pick_card(self, prompt, card: str) -> None:
        """Pick ``card`` in a menu of cards ("id<TAB>steps"), or its kind in a menu of kinds."""
        kind = self.session.match.state.cards[card]["kind"]
        heads = [o.split("\t")[0] for o in prompt.options]
        target = card if card in heads else kind
        self._pick_option(prompt, prompt.options[heads.index(target)] if target in heads
                          else prompt.options[0])

