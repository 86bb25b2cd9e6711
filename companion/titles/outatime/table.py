"""OUTATIME at the table: what the camera's readings and the buttons propose.

Without tray markers the camera sees only the rolling area, so dice that leave it are the dice
moved onto the DeLorean card; with markers the reader's rolling-area zone gives the same list.
A new roll of the free dice is proposed as ROLL AGAIN, the number dice rolled back after six on
the DeLorean as a DOUBLEBACK. MENU while a roll is due enters it by hand, die by die; END ends
the turn when the rules allow it. Setup is two short menus per player: the five cards dealt,
one kind at a time, then the Active and the Next card.
"""

from __future__ import annotations

from collections import Counter

from companion.buttons import END, MENU
from companion.i18n import N_, _, ngettext
from companion.session import Menu, Prompt, TitleTable, Update
from companion.titles.api import CHANCE, TERMINAL, Action, RuleError
from companion.titles.outatime.rules import FACES, HAND, NUMBERS, TD, faces_text

# Each action in a word, as UNDONE reports it (with its dice, for a roll or a lock).
ACTION_WORDS = {
    "deal": N_("DEAL"),
    "choose": N_("CHOOSE"),
    "reroll": N_("REROLL"),
    "doubleback": N_("DOUBLEBACK"),
    "end": N_("END"),
    "next": N_("NEXT"),
    "target": N_("TARGET"),
}

UNKNOWN = "?"


class OutatimeTable(TitleTable):
    END_ACTION = {"type": "end"}  # a refused END TURN says the rules' reason

    def __init__(self, session):
        super().__init__(session)
        self._dealing: tuple[str, list[str]] | None = None  # cards picked so far in a deal
        self._choosing: tuple[str, str | None] | None = None  # (player, Active card picked)

    def reset(self) -> None:
        self._dealing = self._choosing = None

    def faces(self) -> tuple[str, ...]:
        return FACES

    def dice_text(self, faces) -> str:
        return faces_text(faces)

    def dice_to_roll(self, state) -> int | None:
        return state.free_dice

    def dice_expected(self) -> int | None:
        # Only a roll's count is known: while dice are placed, the tray holds the free dice
        # less those moved onto the DeLorean, and that difference is what the camera reads.
        state = self.match.state
        if state.phase == "roll" and self.match.actor() == CHANCE:
            return state.free_dice
        return None

    # ------------------------------------------------------------------ readings

    def reading(self, faces: list[str]) -> Update:
        state = self.match.state
        if state.phase == "roll" and self.match.actor() == CHANCE:
            if not faces:
                return self.session.update([])  # an empty tray: nothing rolled yet
            return self.session.propose_roll(faces)
        if state.phase == "place" and not state.pending:
            return self._dice_while_placing(faces)
        return self.session.update([])

    def _dice_while_placing(self, seen: list[str]) -> Update:
        state = self.match.state
        free = list(state.roll)
        seen_known = [f for f in seen if f != UNKNOWN]
        missing = Counter(free) - Counter(seen_known)
        if UNKNOWN not in seen and not (Counter(seen_known) - Counter(free)) and missing:
            # Dice left the rolling area: they were moved onto the DeLorean.
            moved = list(missing.elements())
            return self._propose_lock(moved)
        numbers_back = sum(1 for f in state.delorean if f in NUMBERS)
        if state.free_dice == 0 and len(seen) == numbers_back and self._can("doubleback"):
            return self.session.propose_roll(seen, again=True, before=[{"type": "doubleback"}])
        if len(seen) == state.free_dice and self._can("reroll"):
            return self.session.propose_roll(seen, again=True)
        return self.session.update([])

    def _propose_lock(self, dice: list[str]) -> Update:
        action = {"type": "lock", "dice": dice}
        try:
            _state, effects = self.match.engine.apply(self.match.state, action)
        except RuleError as exc:
            return self.session.refuse(str(exc))
        gains = [e["text"] for e in effects if e["kind"] in ("ripple", "paradox", "complete")]
        advance = sum(1 for e in effects if e["kind"] == "advance")
        text = _("LOCK {dice}").format(dice=faces_text(dice))
        if advance:
            # Translators: a lock and the steps it gains, e.g. "LOCK flux 3 4: +2".
            text = _("{lock}: +{steps}").format(lock=text, steps=advance)
        if gains:
            text += ", " + ", ".join(gains)
        return self.session.propose([action], text, effects)

    # ------------------------------------------------------------------ presses

    def press(self, name: str) -> Update | None:
        if name == MENU and self._rolling():
            # Enter the roll by hand, die by die (the camera cannot see it, or misreads it).
            return self.session.enter_faces(self.match.state.free_dice)
        if name == END and self._can("end"):
            self.session.proposal = None
            return self.session.push([{"type": "end"}])
        return None

    def _rolling(self) -> bool:
        return self.match.state.phase == "roll" and self.match.actor() == CHANCE

    def _can(self, kind: str) -> bool:
        return any(a["type"] == kind for a in self.match.legal_actions())

    # ------------------------------------------------------------------ menus

    def menu(self) -> Menu | None:
        """The menu of the actor's decisions (kept while the same decision is open)."""
        actor = self.match.actor()
        state = self.match.state
        if actor in (CHANCE, TERMINAL):
            return self._deal_menu() if state.phase == "deal" else None
        if state.phase == "choose":
            return self._choose_menu(actor)
        # Biggest locks first: the move a player usually wants is one press away.
        actions = sorted(self.match.legal_actions(),
                         key=lambda a: -len(a.get("dice", ())) if a["type"] == "lock" else 0)
        labels = [self.label(a) for a in actions]
        return self.session.keep_menu(Menu(self._menu_title(actor), labels,
                                           [[a] for a in actions]))

    def _card_label(self, card: str) -> str:
        return f"{card} {'-'.join(map(str, self.match.state.cards[card]['steps']))}"

    def _deal_menu(self) -> Menu:
        """At the table, each player picks the cards they were dealt, one kind at a time."""
        state = self.match.state
        player = next(p for p in state.players if not p.hand)
        picked = self._dealing
        if picked is None or picked[0] != player.name:
            picked = self._dealing = (player.name, [])
        chosen = picked[1]
        need = [k for k, n in HAND.items() for _ in range(n)]
        kind = need[len(chosen)]
        taken = {c for p in state.players for c in p.hand} | set(chosen)
        cards = sorted(c for c, v in state.cards.items() if v["kind"] == kind and c not in taken)

        def pick(card: str) -> Update:
            chosen.append(card)
            if len(chosen) == len(need):
                self._dealing = None
                return self.session.push([{"type": "deal", "player": player.name,
                                           "cards": chosen}])
            return self.session.update([])

        title = _("{player}: {kind} CARD").format(player=player.name.upper(), kind=kind)
        return self.session.keep_menu(Menu(title, [self._card_label(c) for c in cards],
                                           [lambda c=c: pick(c) for c in cards]))

    def _choose_menu(self, actor: str) -> Menu:
        """Setup: a player picks the Active card, then the Next card (two short menus)."""
        state = self.match.state
        usable = [c for c in state.player(actor).hand if state.cards[c]["kind"] != TD]
        if self._choosing is None or self._choosing[0] != actor:
            self._choosing = (actor, None)
        active = self._choosing[1]
        if active is None:
            def pick_active(card: str) -> Update:
                self._choosing = (actor, card)
                return self.session.update([])

            title, options = _("{player}: ACTIVE CARD").format(player=actor.upper()), usable
            actions = [lambda c=c: pick_active(c) for c in options]
        else:
            def pick_next(card: str) -> Update:
                self._choosing = None
                return self.session.push([{"type": "choose", "player": actor, "active": active,
                                           "next": card}])

            title = _("{player}: NEXT CARD").format(player=actor.upper())
            options = [c for c in usable if c != active]
            actions = [lambda c=c: pick_next(c) for c in options]
        return self.session.keep_menu(Menu(title, [self._card_label(c) for c in options],
                                           actions))

    def picking_active(self) -> bool:
        """During setup: whether the menu up asks for the Active card (else the Next card)."""
        return self._choosing is None or self._choosing[1] is None

    def _menu_title(self, actor: str) -> str:
        state = self.match.state
        if state.pending:
            what = {"next": N_("{player}: NEXT CARD?"), "target": N_("{player}: PARADOX: WHO -1?")}
            return _(what[state.pending[0]["decision"]]).format(player=actor.upper())
        return _("{player}: CHOOSE").format(player=actor.upper())

    def label(self, action: Action) -> str:
        kind = action["type"]
        if kind == "lock":
            return _("LOCK {dice}").format(dice=faces_text(action["dice"]))
        if kind == "choose":
            # Translators: A and N stand for the Active and the Next card.
            return _("A {active} / N {next}").format(active=action["active"],
                                                     next=action["next"])
        if kind == "next":
            card = self.match.state.cards[action["card"]]
            return f"{action['card']} ({card['kind']})"
        if kind == "target":
            return action["player"]
        words = {"reroll": _("ROLL AGAIN"), "end": _("END TURN"), "doubleback": _("DOUBLEBACK")}
        return words.get(kind, kind.upper())

    def describe(self, action: Action) -> str:
        kind = action["type"]
        if kind == "lock":
            return _("LOCK {dice}").format(dice=faces_text(action.get("dice", [])))
        if kind == "roll":
            return _("ROLL {dice}").format(dice=faces_text(action.get("dice", [])))
        return _(ACTION_WORDS[kind]) if kind in ACTION_WORDS else str(kind).upper()

    # ------------------------------------------------------------------ what to show

    def prompt(self) -> Prompt:
        view = self.match.view()
        if self.match.actor() == CHANCE:
            if view["phase"] == "deal":
                menu = self._deal_menu()
                return Prompt("menu", menu.title, options=menu.labels, selected=menu.selected)
            return Prompt("roll", _("{player} - ROLL!").format(player=view["turn"].upper()),
                          [ngettext("{count} dice", "{count} dice", view["free_dice"]).format(
                              count=view["free_dice"])], dice=[])
        menu = self.menu()
        kind = "menu" if view["pending"] or view["phase"] != "place" else "place"
        return Prompt(kind, menu.title, options=menu.labels, selected=menu.selected,
                      dice=list(view["roll"]))



TABLE = OutatimeTable
