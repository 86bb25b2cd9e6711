"""OUTATIME at the table: what the camera's readings and the buttons propose.

Without tray markers the camera sees only the rolling area, so dice that leave it are the dice
moved onto the DeLorean card; with markers the reader's rolling-area zone gives the same list.
A new roll of the free dice is proposed as ROLL AGAIN, the number dice rolled back after six on
the DeLorean as a DOUBLEBACK. MENU while a roll is due enters it by hand, die by die; END ends
the turn when the rules allow it.

Setup asks each player for two cards only, the Active and the Next one, each in two short
steps (its kind, then the card); BACK steps back. The other three dealt cards are named when
the player takes a new Next card (``docs/rules/outatime.md``, decision 19): that choice, too, is
a kind and then a card when there are many to choose from.
"""

from __future__ import annotations

from collections import Counter

from companion.buttons import BACK, END, MENU
from companion.display.screens import TAB
from companion.i18n import N_, _, ngettext
from companion.journal import JournalError
from companion.session import Menu, Prompt, TitleTable, Update
from companion.titles.api import CHANCE, TERMINAL, Action, RuleError
from companion.titles.outatime.rules import FACES, HAND, NUMBERS, TD, faces_text, held

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
LIKELIEST = max(HAND, key=HAND.get)  # the kind a hand holds most of (0.3)


class OutatimeTable(TitleTable):
    END_ACTION = {"type": "end"}  # a refused END TURN says the rules' reason

    def __init__(self, session):
        super().__init__(session)
        # a deal being entered: the player, the cards picked (Active, then Next), and the kind
        # of the card being picked (None: the kind is asked first)
        self._dealing: dict | None = None
        self._choosing: tuple[str, str | None] | None = None  # (player, Active card picked)
        self._next_kind: tuple[str, str] | None = None  # (player, kind) of a Next card asked
        self._rematch: list[Action] | None = None  # the last game's setup, once read

    def reset(self) -> None:
        self._dealing = self._choosing = self._next_kind = None

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
        if name == BACK and self._step_back():
            return self.session.update([])
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
        if state.pending and state.pending[0]["decision"] == "next":
            return self._next_card_menu(actor, state.pending[0])
        self._next_kind = None
        # Biggest locks first: the move a player usually wants is one press away.
        actions = sorted(self.match.legal_actions(),
                         key=lambda a: -len(a.get("dice", ())) if a["type"] == "lock" else 0)
        labels = [self.label(a) for a in actions]
        return self.session.keep_menu(Menu(self._menu_title(actor), labels,
                                           [[a] for a in actions]))

    def _card_label(self, card: str) -> str:
        """A card as a menu item: its id, and its steps apart on the right."""
        return f"{card}{TAB}{'-'.join(map(str, self.match.state.cards[card]['steps']))}"

    def _step_back(self) -> bool:
        """BACK in a menu of steps: one step back (the kind, then the card before). False when
        there is no step to go back to."""
        if self._next_kind is not None:
            self._next_kind = None
            self.session.menu = None
            return True
        if self._choosing is not None and self._choosing[1] is not None:
            self._choosing = (self._choosing[0], None)  # the Active card again
            self.session.menu = None
            return True
        deal = self._dealing
        if deal is None or self.match.state.phase != "deal":
            return False
        if deal["kind"] is not None and len(self._kinds_left(deal)) > 1:
            deal["kind"] = None
        elif deal["cards"]:
            deal["cards"].pop()
            deal["kind"] = None
        else:
            return False
        self.session.menu = None
        return True

    def _kinds_left(self, deal: dict) -> list[str]:
        """The kinds the card being picked may be (a hand holds one 0.2, two 0.3, one 0.4)."""
        state = self.match.state
        taken = held(state) | set(deal["cards"])
        picked = [state.cards[c]["kind"] for c in deal["cards"]]
        return [k for k in HAND if k != TD and picked.count(k) < HAND[k] and any(
            v["kind"] == k and c not in taken for c, v in state.cards.items())]

    def _deal_menu(self) -> Menu:
        """Setup at the table: each player names their Active card, then their Next card, each
        by its kind and then the card; the other dealt cards are named when needed."""
        state = self.match.state
        player = next(p for p in state.players if not p.dealt)
        deal = self._dealing
        if deal is None or deal["player"] != player.name:
            deal = self._dealing = {"player": player.name, "cards": [], "kind": None}
        who = player.name.upper()
        kinds = self._kinds_left(deal)
        if deal["kind"] is None and len(kinds) == 1:
            deal["kind"] = kinds[0]
        if deal["kind"] is None:
            def pick_kind(kind: str) -> Update:
                deal["kind"] = kind
                return self.session.update([])

            title = (_("{player}: ACTIVE CARD") if not deal["cards"]
                     else _("{player}: NEXT CARD")).format(player=who)
            labels, actions = list(kinds), [lambda k=k: pick_kind(k) for k in kinds]
            # The menu starts on the likeliest kind: a hand holds two 0.3 cards.
            selected = kinds.index(LIKELIEST) if LIKELIEST in kinds else 0
            again = self._last_setup() if not any(p.dealt for p in state.players) else None
            if again and not deal["cards"]:  # a rematch: every player's two cards at once
                labels.insert(0, self.same_cards_label())
                actions.insert(0, lambda: self._push_setup(again))
                selected = 0
            return self.session.keep_menu(Menu(title, labels, actions, selected))
        taken = held(state) | set(deal["cards"])
        cards = sorted(c for c, v in state.cards.items()
                       if v["kind"] == deal["kind"] and c not in taken)

        def pick(card: str) -> Update:
            deal["cards"].append(card)
            deal["kind"] = None
            if len(deal["cards"]) < 2:
                return self.session.update([])
            self._dealing = None
            active, nxt = deal["cards"]
            return self.session.push([{"type": "deal", "player": player.name,
                                       "cards": [active, nxt], "active": active, "next": nxt}])

        title = (_("{player}: ACTIVE {kind}") if not deal["cards"]
                 else _("{player}: NEXT {kind}")).format(player=who, kind=deal["kind"])
        return self.session.keep_menu(Menu(title, [self._card_label(c) for c in cards],
                                           [lambda c=c: pick(c) for c in cards]))

    @staticmethod
    def same_cards_label() -> str:
        return _("SAME CARDS AS LAST GAME")

    def _last_setup(self) -> list[Action] | None:
        """The deals of the last game of OUTATIME these players played, as deals naming each
        player's Active and Next card (None: no such game, or its cards are not in the pack)."""
        if self._rematch is None:  # read once a game: the journal is not read at every press
            self._rematch = self._read_last_setup() or []
        return [dict(a) for a in self._rematch] or None

    def _read_last_setup(self) -> list[Action] | None:
        journal, state = self.session.journal, self.match.state
        names = [p.name for p in state.players]
        try:
            games = [g for g in journal.games() if g["id"] != self.match.game
                     and g["title"] == self.match.setup["title"]]
            if not games:
                return None
            setups = self._setups_in(journal.actions(games[-1]["id"]))
        except (JournalError, KeyError, TypeError, AttributeError):
            return None  # a journal that cannot show the old game offers no shortcut
        if [a["player"] for a in setups] != names or not all(
                a["active"] in state.cards and a["next"] in state.cards for a in setups):
            return None  # other players, or cards no longer in the pack
        return setups

    @staticmethod
    def _setups_in(actions: list[Action]) -> list[Action]:
        """Each player's Active and Next card as a game's deals and choices recorded them."""
        chosen: dict[str, tuple[str, str]] = {}
        order: list[str] = []
        for action in actions:
            if action.get("type") == "deal":
                order.append(action["player"])
                if action.get("active"):
                    chosen[action["player"]] = (action["active"], action["next"])
            elif action.get("type") == "choose":
                chosen[action["player"]] = (action["active"], action["next"])
            else:  # play began: the setup is complete
                break
        if not order or set(order) != set(chosen):
            return []
        return [{"type": "deal", "player": name, "cards": list(chosen[name]),
                 "active": chosen[name][0], "next": chosen[name][1]} for name in order]

    def _push_setup(self, deals: list[Action]) -> Update:
        self._dealing = None
        return self.session.push(deals)

    def _next_card_menu(self, actor: str, decision: dict) -> Menu:
        """A new Next card: straight from the list when it is short, else its kind first."""
        state = self.match.state
        options = list(decision["options"])
        kinds = sorted({state.cards[c]["kind"] for c in options})
        title = _("{player}: NEXT CARD?").format(player=actor.upper())
        chosen = self._next_kind[1] if self._next_kind and self._next_kind[0] == actor else None
        if len(options) > 6 and len(kinds) > 1 and chosen not in kinds:
            def pick_kind(kind: str) -> Update:
                self._next_kind = (actor, kind)
                return self.session.update([])

            return self.session.keep_menu(Menu(title, kinds,
                                               [lambda k=k: pick_kind(k) for k in kinds]))
        if len(options) > 6 and chosen in kinds:
            options = [c for c in options if state.cards[c]["kind"] == chosen]
            title = _("{player}: NEXT {kind}").format(player=actor.upper(), kind=chosen)
        actions = [[{"type": "next", "player": actor, "card": c}] for c in options]
        labels = ([self._card_label(c) for c in options] if chosen
                  else [self.label(a[0]) for a in actions])
        return self.session.keep_menu(Menu(title, labels, actions))

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
            asked = what[state.pending[0]["decision"]]
            return _(asked).format(player=actor.upper())
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
            return f"{action['card']}{TAB}{card['kind']}"
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
