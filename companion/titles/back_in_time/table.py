"""Back in Time at the table: what the camera's readings and the buttons propose.

The camera reads each challenge die as colour and face ("love:wild"). While dice are to be
rolled, a settled reading of the tray is proposed as the roll (CONFIRM records it); an unsure
die is asked for with the buttons, offered only the faces of its colour. The dice being rolled
may lie in the tray alone, or beside the dice kept from the first roll and the locked Biff dice
(the table takes those out by their faces). A reroll is chosen on the menu first (the best one,
from the exact odds, is its first item); then the chosen dice are rolled and read. MENU (a long
CONFIRM) while dice are to be rolled enters the roll by hand, die by die; END ends the turn.

Every other decision is a short menu, in several small steps where a flat list would be long:
MOVE, CHALLENGE and POWER open the choices they hold, a die to add opens the players who can
give one, a modifier opens the die it changes, a card drawn from a big pile is picked from a
group of six. BACK goes up one step; the selection is kept while the same decision is open.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.buttons import BACK, END, MENU
from companion.i18n import N_, _, ngettext
from companion.session import Menu, Prompt, TitleTable, Update, unsure
from companion.titles.api import CHANCE, TERMINAL, Action, RuleError
from companion.titles.back_in_time import data, rules
from companion.titles.back_in_time import odds as exact
from companion.titles.back_in_time.data import BIFF, FACES, WILD

UNKNOWN = "?"
GROUP = 6  # cards per step when a pile is picked from in two steps
BIG_PILE = 8  # a pile longer than this is picked from in two steps

WORDS = {
    "speed": N_("SPEED"),
    "knowledge": N_("KNOWLEDGE"),
    "courage": N_("COURAGE"),
    "love": N_("LOVE"),
    "wild": N_("WILD"),
    "biff": N_("BIFF"),
}
DECK_WORDS = {
    "opportunity": N_("OPPORTUNITY"),
    "movement": N_("MOVEMENT"),
    "trouble1": N_("TROUBLE 1"),
    "trouble2": N_("TROUBLE 2"),
    "trouble3": N_("TROUBLE 3"),
    "tile": N_("POWER TILE"),
}
OTHER_REROLLS_FLAT = 6  # other rerolls listed on one menu; more are grouped by how many dice
MODIFIER_WORDS = {"wild": N_("TO WILD"), "reroll": N_("REROLL 1"), "reroll_all": N_("REROLL ALL")}


def word(name: str) -> str:
    """A colour or face as the table reads it: "LOVE", "WILD", "BIFF"."""
    return _(WORDS[name]) if name in WORDS else name.upper()


def split(die: str) -> tuple[str, str]:
    """("colour", "face") of a die read as "colour:face" ("?" for a part not read)."""
    if ":" in die:
        colour, _sep, face = die.partition(":")
        return colour, face
    return UNKNOWN, die


def label_of(die: dict[str, Any]) -> str:
    """A die of the challenge (``{"colour", "face"}``) as the camera reads it."""
    return f"{die['colour']}:{die['face'] or UNKNOWN}"


def percent(p: float) -> str:
    return f"{round(100 * p)}%"


def natural(text: str) -> list[Any]:
    """Sort key: numbers inside names in their order (card 2 before card 10)."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", text)]


@dataclass
class Item:
    """One line of a menu: direct (``actions`` to push) or a group (``children``, the next
    step, with its own menu ``title``)."""

    label: str
    actions: list[Action] | None = None
    children: list[Item] = field(default_factory=list)
    title: str = ""

    def holds(self, action: Action) -> bool:
        if self.actions is not None:
            return self.actions == [action]
        return any(child.holds(action) for child in self.children)


class BackInTimeTable(TitleTable):
    END_ACTION = {"type": "end"}  # a refused END TURN says the rules' reason

    def __init__(self, session):
        super().__init__(session)
        self._path: list[str] = []  # the groups opened, by label, in the decision now open
        self._path_for: Any = None  # the state those groups were opened in
        self._came_from: str | None = None  # the group BACK left (selected in its parent)

    def reset(self) -> None:
        self._path, self._path_for, self._came_from = [], None, None

    # ------------------------------------------------------------------ dice

    def faces(self) -> tuple[str, ...]:
        return FACES

    def _layout(self) -> dict[str, tuple[str, ...]]:
        return self.match.state.content.faces

    def _faces_of(self, colour: str) -> list[str]:
        """The distinct faces of a colour's die, in the pack's order."""
        return list(dict.fromkeys(self._layout().get(colour, ())))

    def choices(self, die: str) -> tuple[str, ...]:
        """The picker offers the faces of the die's colour (or, colour unsure, the colours
        still to be rolled that can show the face read)."""
        colour, face = split(die)
        layout = self._layout()
        if colour in layout:
            return tuple(f"{colour}:{f}" for f in self._faces_of(colour))
        ch = self.match.state.challenge
        colours = sorted({ch["dice"][i]["colour"] for i in ch["roll"]}) if ch else sorted(layout)
        out = []
        for c in colours:
            out += [f"{c}:{f}" for f in self._faces_of(c) if face in (UNKNOWN, f)]
        return tuple(out) or tuple(f"{c}:{f}" for c in sorted(layout) for f in self._faces_of(c))

    def _rolling(self) -> dict[str, Any] | None:
        """The challenge whose dice are to be rolled now, if any."""
        ch = self.match.state.challenge
        if ch is not None and ch["stage"] == "roll" and self.match.actor() == CHANCE:
            return ch
        return None

    def dice_to_roll(self, state) -> int | None:
        ch = state.challenge
        return len(ch["roll"]) if ch is not None and ch["stage"] == "roll" else None

    def dice_expected(self) -> int | None:
        # Known only when every die of the challenge is rolled (the first roll, Reroll All):
        # after that, kept and locked dice may lie in the tray beside the rerolled ones.
        ch = self._rolling()
        return len(ch["roll"]) if ch and len(ch["roll"]) == len(ch["dice"]) else None

    def dice_text(self, faces: list[str]) -> str:
        """Dice read as "colour:face" in words: "COURAGE WILD, LOVE LOVE"."""
        return _dice_words([str(f) for f in faces])

    # ------------------------------------------------------------------ readings

    def reading(self, faces: list[str]) -> Update:
        ch = self.match.state.challenge
        if ch is None or not faces or ch["stage"] == "dice":
            return self.session.update([])  # nothing to read, or an empty tray
        if ch["stage"] == "roll":
            return self._read_roll(faces)
        # The roll is recorded: dice taken out or set aside change nothing; new faces mean
        # dice were rolled again without saying so.
        now = Counter(label_of(d) for d in ch["dice"])
        if not Counter(f for f in faces if not unsure(f)) - now:
            return self.session.update([])
        if ch["stage"] == "rolled":
            return self.session.refuse(_("to reroll, choose REROLL on the menu first, then "
                                         "roll those dice"))
        return self.session.refuse(_("the reroll is used: MODIFY or RESOLVE"))

    def _read_roll(self, seen: list[str]) -> Update:
        ch = self.match.state.challenge
        todo = ch["roll"]
        dice = ch["dice"]
        want = [dice[i]["colour"] for i in todo]
        kept = [label_of(d) for i, d in enumerate(dice) if i not in todo and d["face"] != BIFF]
        locked = [label_of(d) for i, d in enumerate(dice) if i not in todo and d["face"] == BIFF]
        # The rolled dice alone, or beside the kept dice and/or the locked Biff dice.
        besides = [[], kept, kept + locked, locked]
        counted = False
        for static in besides:
            if len(seen) != len(todo) + len(static):
                continue
            counted = True
            rest = _without(seen, static)
            rest = _coloured(rest, want) if rest is not None else None
            if rest is not None:
                return self._propose_roll(rest)
        if not any(unsure(f) for f in seen) and not Counter(seen) - Counter(kept + locked):
            return self.session.update([])  # only dice not being rolled: wait for the roll
        if not counted:
            return self.session.refuse(_count_message(len(seen), want))
        return self.session.refuse(_("I see {seen}; the dice to roll are {want}").format(
            seen=_dice_words(seen), want=_dice_words(want)))

    def _propose_roll(self, faces: list[str]) -> Update:
        ch = self.match.state.challenge
        if not any(unsure(f) for f in faces):
            try:
                self.match.engine.apply(self.match.state, {"type": "roll", "dice": faces})
            except RuleError as exc:
                return self.session.refuse(str(exc))
        return self.session.propose_roll(faces, again=ch["rolled"])

    # ------------------------------------------------------------------ presses

    def press(self, name: str) -> Update | None:
        ch = self._rolling()
        if name == MENU and ch is not None:
            # Enter the roll by hand: the colours are known, only the faces are asked.
            self.session.proposal = None
            return self.session.ask_faces([f"{ch['dice'][i]['colour']}:{UNKNOWN}"
                                           for i in ch["roll"]])
        if name == END and {"type": "end"} in self.match.legal_actions():
            self.session.proposal = None
            self.reset()
            return self.session.push([{"type": "end"}])
        if name == BACK and self.session.proposal is None and self._path:
            self._came_from = self._path.pop()
            return self.session.update([])
        return None

    # ------------------------------------------------------------------ menus

    def menu(self) -> Menu | None:
        """The menu of the decision open now, at the step reached (kept while it is open)."""
        state = self.match.state
        if self._path_for is not state:
            self._path, self._path_for, self._came_from = [], state, None
        root = self._root()
        if root is None:
            return None
        title, items = root
        for step in list(self._path):
            group = next((i for i in items if i.actions is None and i.label == step), None)
            if group is None:  # the step no longer exists: start the decision again
                self._path = []
                title, items = root
                break
            title, items = group.title, group.children
        menu = Menu(title, [i.label for i in items], [self._act(i) for i in items])
        if self._came_from in menu.labels:
            menu.selected = menu.labels.index(self._came_from)
            self._came_from = None
        return self.session.keep_menu(menu)

    def _act(self, item: Item) -> Any:
        if item.actions is not None:
            return item.actions

        def open_group() -> Update:
            self._path.append(item.label)
            self._path_for = self.match.state
            return self.session.update([])

        return open_group

    def route(self, action: Action) -> str | None:
        """The item of the menu up now that leads to ``action`` (for the seat bots)."""
        root = self._root()
        if root is None:
            return None
        items = root[1]
        for step in self._path:
            group = next((i for i in items if i.actions is None and i.label == step), None)
            if group is None:
                return None
            items = group.children
        return next((i.label for i in items if i.holds(action)), None)

    def _root(self) -> tuple[str, list[Item]] | None:
        state = self.match.state
        actor = self.match.actor()
        if actor == TERMINAL:
            return None
        if actor == CHANCE:
            if state.queue and state.queue[0]["step"] == "draw":
                return self._draw_menu(state.queue[0])
            return None  # dice to roll: the camera reads them
        if state.phase == "characters":
            return _("{player}: WHO?").format(player=actor.upper()), [
                Item(data.character_name(a["character"]).upper(), [a])
                for a in self.match.legal_actions()]
        if state.queue and state.queue[0]["step"] == "limit":
            return _("{player}: RETURN A TILE").format(player=actor.upper()), [
                Item(self._tile_label(a["tile"]), [a]) for a in self.match.legal_actions()]
        ch = state.challenge
        if ch is not None and ch["stage"] == "dice":
            return self._dice_menu(ch)
        if ch is not None:
            return self._roll_menu(ch)
        return self._turn_menu()

    # --- a card drawn

    def _draw_menu(self, step: dict[str, Any]) -> tuple[str, list[Item]]:
        state = self.match.state
        deck = step["deck"]
        pile = sorted(state.decks[deck], key=lambda c: natural(self._card_label(deck, c)))
        items = [Item(self._card_label(deck, c), [{"type": "draw", "deck": deck, "card": c}])
                 for c in pile]
        title = _("DRAWN: {deck}?").format(deck=_(DECK_WORDS[deck]))
        if len(items) <= BIG_PILE:
            return title, items
        names = [i.label for i in items]
        cut = _common_prefix(names)
        groups = []
        for start in range(0, len(items), GROUP):
            chunk = items[start:start + GROUP]
            first, last = chunk[0].label[cut:], chunk[-1].label[cut:]
            label = first if len(chunk) == 1 else f"{first} - {last}"
            groups.append(Item(label, None, chunk, title))
        return title, groups

    def _card_label(self, deck: str, card: str) -> str:
        c = self.match.state.content
        if deck == "opportunity":
            return str(c.opportunity[card].get("name") or card)
        if deck.startswith("trouble"):
            return str(c.trouble[card].get("name") or card)
        if deck == "tile":
            return self._tile_label(card)
        return card

    def _tile_label(self, tile: str) -> str:
        t = self.match.state.content.tiles[tile]
        bits = [tile]
        if t["move"]:
            bits.append(_("move {n}").format(n=t["move"]))
        if t["die"]:
            bits.append(word(t["die"]).lower())
        if t["modifier"]:
            modifier = MODIFIER_WORDS[t["modifier"]]
            bits.append(_(modifier).lower())
        return " ".join(bits)

    # --- the turn: moves, escorts, challenges, powers, items

    def _turn_menu(self) -> tuple[str, list[Item]]:
        state = self.match.state
        p = state.current
        legal = self.match.legal_actions()
        items: list[Item] = []
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a["type"], []).append(a)
        for a in by_kind.get("step", []):
            items.append(Item(self.label(a), [a]))
        for kind in ("escort", "drop", "stop"):
            items += [Item(self.label(a), [a]) for a in by_kind.get(kind, [])]
        challenges = [Item(self.label(a), [a]) for a in by_kind.get("challenge", [])]
        if challenges:
            items.append(Item(_("CHALLENGE"), None, challenges,
                              _("{player}: CHALLENGE").format(player=p.name.upper())))
        moves = [Item(self.label(a), [a]) for a in by_kind.get("move", [])]
        if moves:
            items.append(Item(_("MOVE"), None, moves,
                              _("{player}: MOVE WITH").format(player=p.name.upper())))
        powers = by_kind.get("power", [])
        if powers:
            items.append(self._power_item(powers))
        items += [Item(self.label(a), [a]) for a in by_kind.get("end", [])]
        if state.moving:
            left = state.moving["left"]
            title = ngettext("{player}: {n} STEP LEFT", "{player}: {n} STEPS LEFT", left).format(
                player=p.name.upper(), n=left)
        else:
            title = _("{player}: CHOOSE").format(player=p.name.upper())
        return title, items

    def _powers_by_who(self) -> set[str]:
        return {a["who"] for a in self.match.legal_actions() if a["type"] == "power"
                and "who" in a}

    def _power_item(self, powers: list[Action]) -> Item:
        p = self.match.state.current
        name = _power_name(p.character)
        title = f"{p.name.upper()}: {name}"
        if len(powers) == 1 and "to" not in powers[0]:  # Doc's: to the DeLorean
            return Item(f"{name}!", powers)
        who: dict[str, list[Action]] = {}
        for a in powers:
            if "who" in a:
                who.setdefault(a["who"], []).append(a)
        if len(who) > 1:  # Jennifer calls one of several players: who, then where
            children = [Item(name_.upper(), None, [Item(self.label(a), [a]) for a in acts],
                             _("{player}: TO WHERE?").format(player=name_.upper()))
                        for name_, acts in who.items()]
            return Item(name, None, children, title)
        return Item(name, None, [Item(self.label(a), [a]) for a in powers], title)

    # --- a challenge: the dice, then the roll

    def _dice_menu(self, ch: dict[str, Any]) -> tuple[str, list[Item]]:
        state = self.match.state
        legal = self.match.legal_actions()
        need, _symbol, _room = rules.need_of(state, ch)
        colours = [d["colour"] for d in ch["dice"]]
        items: list[Item] = []
        if {"type": "ready"} in legal:
            p = exact.chance(self._layout(), colours, need)
            items.append(Item(ngettext("ROLL {n} DIE: {p}", "ROLL {n} DICE: {p}", len(colours))
                              .format(n=len(colours), p=percent(p)), [{"type": "ready"}]))
        by_colour: dict[str, list[Action]] = {}
        for a in legal:
            if a["type"] == "add":
                by_colour.setdefault(self._die_colour(a), []).append(a)
        order = sorted(by_colour, key=lambda c: (c not in need, data.COLOURS.index(c)))
        for colour in order:
            adds = by_colour[colour]
            p = exact.chance(self._layout(), colours + [colour], need)
            label = _("+{colour} {p}").format(colour=word(colour), p=percent(p))
            if len(adds) == 1:
                items.append(Item(f"{label} {self._source_label(adds[0], short=True)}", adds))
            else:
                items.append(Item(label, None, [Item(self._source_label(a), [a]) for a in adds],
                                  _("+{colour} DIE FROM").format(colour=word(colour))))
        items.append(Item(_("CALL OFF"), [{"type": "cancel"}]))
        title = _("{player}: {challenge}").format(
            player=state.current.name.upper(), challenge=rules.challenge_name(ch["kind"]).upper())
        return title, items

    def _die_colour(self, action: Action) -> str:
        c = self.match.state.content
        return c.tiles[action["tile"]]["die"] if "tile" in action else \
            c.items[action["item"]]["arg"]

    def _source_label(self, action: Action, short: bool = False) -> str:
        c = self.match.state.content
        what = action["tile"] if "tile" in action else c.items[action["item"]]["name"]
        if "tile" in action and c.tiles[action["tile"]]["move"] and not short:
            what = f"{what} ({_('move {n}').format(n=c.tiles[action['tile']]['move'])})"
        return f"{action['player']}: {what}" if action.get("player") else what

    def _roll_menu(self, ch: dict[str, Any]) -> tuple[str, list[Item]]:
        state = self.match.state
        legal = self.match.legal_actions()
        view = rules.odds_now(state) or {}
        need, symbol, _room = rules.need_of(state, ch)
        faces = [d["face"] for d in ch["dice"]]
        best = view.get("reroll")
        # The best reroll and every die not Biff or wild stand on the menu itself; any other
        # set of those dice is chosen under CHOOSE DICE, once for dice alike (two love dice
        # showing love are one choice). A wild die is left off: rerolling it never helps.
        every = rules.plain_dice(ch)
        labels = [label_of(d) for d in ch["dice"]]
        usual, other = [], []
        offered: set[tuple[str, ...]] = set()
        for a in legal:
            if a["type"] != "reroll":
                continue
            alike = tuple(sorted(labels[i] for i in a["dice"]))
            if a["dice"] in (best, every):
                usual.append(a)
            elif alike not in offered and all(faces[i] != WILD for i in a["dice"]):
                other.append(a)
            offered.add(alike)
        rerolls = [Item(self._reroll_label(a, view), [a]) for a in usual]
        resolve = Item(self._resolve_label(faces, need, symbol), [{"type": "resolve"}])
        modifiers = self._modifier_items([a for a in legal if a["type"] == "modify"])
        met = exact.meets(faces, need)
        if rerolls and best and (symbol is not None or not met):
            items = rerolls + [resolve]
        else:
            items = [resolve] + rerolls
        items += self._other_rerolls(other, view)
        if modifiers:
            items.append(Item(_("MODIFY"), None, modifiers,
                              _("{player}: MODIFY").format(player=state.current.name.upper())))
        title = _("{player}: REROLL?").format(player=state.current.name.upper()) \
            if ch["stage"] == "rolled" else \
            _("{player}: RESOLVE?").format(player=state.current.name.upper())
        return title, items

    def _other_rerolls(self, actions: list[Action], view: dict[str, Any]) -> list[Item]:
        """The rerolls of other sets of dice: one on the menu itself, several under CHOOSE
        DICE (grouped by how many dice when more than a screenful)."""
        if len(actions) <= 1:
            return [Item(self._reroll_label(a, view), [a]) for a in actions]
        player = self.match.state.current.name.upper()
        lines = [Item(self._dice_named(a["dice"]), [a]) for a in actions]
        if len(lines) > OTHER_REROLLS_FLAT:
            sizes = sorted({len(a["dice"]) for a in actions})
            lines = [Item(ngettext("{n} DIE", "{n} DICE", n).format(n=n), None,
                          [line for line, a in zip(lines, actions, strict=True)
                           if len(a["dice"]) == n],
                          _("{player}: REROLL WHICH?").format(player=player))
                     for n in sizes]
        return [Item(_("CHOOSE DICE"), None, lines,
                     _("{player}: REROLL WHICH?").format(player=player))]

    def _dice_named(self, which: list[int]) -> str:
        """The dice at ``which`` in short words: their colour, and their face where another
        die of the challenge has that colour ("LOVE WILD + SPEED")."""
        dice = self.match.state.challenge["dice"]
        colours = Counter(d["colour"] for d in dice)
        return " + ".join(
            word(dice[i]["colour"]) + (f" {word(dice[i]['face'])}"
                                       if colours[dice[i]["colour"]] > 1 else "")
            for i in which)

    def _reroll_label(self, action: Action, view: dict[str, Any]) -> str:
        dice = self.match.state.challenge["dice"]
        which = action["dice"]
        names = word(dice[which[0]]["colour"]) if len(which) == 1 else \
            _("{n} DICE").format(n=len(which))
        if which == view.get("reroll"):
            return _("REROLL {dice}: {p}").format(dice=names, p=percent(view["chance_after"]))
        return _("REROLL {dice}").format(dice=names)

    def _resolve_label(self, faces: list[str], need: dict[str, int], symbol: str | None) -> str:
        if symbol is not None:
            return _("RESOLVE: {n} {symbol}").format(n=exact.count(faces, symbol),
                                                     symbol=word(symbol))
        return _("RESOLVE: MET") if exact.meets(faces, need) else _("RESOLVE: FAILS")

    def _modifier_items(self, mods: list[Action]) -> list[Item]:
        state = self.match.state
        c = state.content
        dice = state.challenge["dice"]
        sources: dict[tuple, list[Action]] = {}
        for a in mods:
            key = (a.get("player"), "tile" if "tile" in a else "item", a.get("tile", a.get("item")))
            sources.setdefault(key, []).append(a)
        items = []
        for (player, kind, ident), acts in sources.items():
            mod = c.tiles[ident]["modifier"] if kind == "tile" else c.items[ident]["kind"]
            name = ident if kind == "tile" else c.items[ident]["name"]
            label = f"{_(MODIFIER_WORDS[mod])}: {name}"
            if player:
                label = f"{player}: {label}"
            if mod == "reroll_all":
                items.append(Item(label, acts))
                continue
            children = [Item(_("DIE {n}: {colour} {face}").format(
                n=a["die"] + 1, colour=word(dice[a["die"]]["colour"]),
                face=word(dice[a["die"]]["face"])), [a]) for a in acts]
            items.append(Item(label, None, children, _(MODIFIER_WORDS[mod])))
        return items

    # ------------------------------------------------------------------ words

    def label(self, action: Action) -> str:
        """An action in the words of the menus."""
        state = self.match.state
        c = state.content
        kind = action["type"]
        if kind == "step":
            return _("TO {place}").format(place=c.name(action["to"]))
        if kind == "escort":
            return _("ESCORT {npc}").format(npc=data.npc_name(action["who"]).upper())
        if kind == "drop":
            who = state.moving["escort"] if state.moving else None
            return _("LEAVE {npc}").format(npc=data.npc_name(who).upper()) if who else \
                _("LEAVE THEM")
        if kind == "stop":
            return _("STOP MOVING")
        if kind == "end":
            return _("END TURN")
        if kind == "move":
            if "tile" in action:
                n = c.tiles[action["tile"]]["move"]
                return ngettext("{tile}: {n} SPACE", "{tile}: {n} SPACES", n).format(
                    tile=action["tile"], n=n)
            item = c.items[action["item"]]
            return ngettext("{item}: {n} SPACE", "{item}: {n} SPACES", item["arg"]).format(
                item=item["name"], n=item["arg"])
        if kind == "challenge":
            return self._challenge_label(action)
        if kind == "power":
            if "to" not in action:
                return _("TO THE DELOREAN")
            if "who" in action and len(self._powers_by_who()) == 1:
                return _("{who} TO {place}").format(who=str(action["who"]).upper(),
                                                    place=c.name(action["to"]))
            return _("TO {place}").format(place=c.name(action["to"]))
        return _action_words(action)

    def _challenge_label(self, action: Action) -> str:
        c = self.match.state.content
        kind = action["challenge"]
        if kind == "part":
            return _("PART: {part}").format(part=data.part_name(action["part"]).upper())
        if kind == "opportunity":
            return _("OPP: {card}").format(card=c.opportunity[action["card"]].get("name")
                                           or action["card"])
        if kind == "trouble":
            return _("TROUBLE: {card}").format(card=c.trouble[action["card"]].get("name")
                                               or action["card"])
        return rules.challenge_name(kind).upper()

    def describe(self, action: Action) -> str:
        try:
            return self.label(action)
        except (KeyError, TypeError, AttributeError):
            return _action_words(action)

    # ------------------------------------------------------------------ what to show

    def prompt(self) -> Prompt:
        state = self.match.state
        ch = self._rolling()
        if ch is not None:
            who = state.current.name.upper()
            colours = [ch["dice"][i]["colour"] for i in ch["roll"]]
            title = _("{player}: ROLL!").format(player=who) if not ch["rolled"] else \
                _("{player}: ROLL AGAIN!").format(player=who)
            return Prompt("roll", title, [_dice_words(colours)], dice=colours)
        menu = self.menu()
        if menu is None:
            return Prompt("message", _("WAITING"), [self.match.actor()])
        kind = "menu"
        dice: list[str] = []
        if state.challenge is not None and state.challenge["stage"] in ("rolled", "modify"):
            kind = "rolled"
            dice = [label_of(d) for d in state.challenge["dice"]]
        return Prompt(kind, menu.title, options=menu.labels, selected=menu.selected, dice=dice)


# --------------------------------------------------------------------------- helpers


def _without(seen: list[str], static: list[str]) -> list[str] | None:
    """``seen`` less the dice of ``static`` (each matched by its reading, else by an unsure
    reading of its colour, else by an unsure one), or None when one is not there."""
    rest = list(seen)
    for die in static:
        colour, _face = split(die)
        for candidate in (die, f"{colour}:{UNKNOWN}", UNKNOWN):
            if candidate in rest:
                rest.remove(candidate)
                break
        else:
            loose = next((r for r in rest if split(r)[0] == UNKNOWN
                          and split(r)[1] == split(die)[1]), None)
            if loose is None:
                return None
            rest.remove(loose)
    return rest


def _coloured(rest: list[str], want: list[str]) -> list[str] | None:
    """``rest`` with an unsure colour filled in when only one colour can be left for it; None
    when the colours read are not the colours to roll."""
    known = Counter(split(r)[0] for r in rest if split(r)[0] != UNKNOWN)
    left = Counter(want) - known
    if known - Counter(want):
        return None
    out = []
    for r in rest:
        colour, face = split(r)
        if colour == UNKNOWN and len(left) == 1:
            out.append(f"{next(iter(left))}:{face}")
        else:
            out.append(r)
    return out


def _common_prefix(names: list[str]) -> int:
    """Length of the prefix all ``names`` share, cut back to a word or "-" boundary."""
    if len(names) < 2:
        return 0
    first, last = min(names), max(names)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    while n and first[n - 1].isalnum():
        n -= 1
    return n


def _dice_words(dice: list[str]) -> str:
    """Dice ("love", "love:wild", "?") as words: "LOVE, LOVE WILD"."""
    out = []
    for d in dice:
        colour, face = split(d) if ":" in d else (d, "")
        bits = [word(colour) if colour != UNKNOWN else "?"]
        if face:
            bits.append(word(face) if face != UNKNOWN else "?")
        out.append(" ".join(bits))
    return ", ".join(out)


def _count_message(seen: int, want: list[str]) -> str:
    if seen < len(want):
        text = ngettext("I see {seen} die, expect {need} ({dice}): move them apart in the tray",
                        "I see {seen} dice, expect {need} ({dice}): move them apart in the tray",
                        seen)
    else:
        text = ngettext("I see {seen} die, expect {need} ({dice}): set the others aside",
                        "I see {seen} dice, expect {need} ({dice}): set the others aside", seen)
    return text.format(seen=seen, need=len(want), dice=_dice_words(want))


def _power_name(character: str | None) -> str:
    return {"marty": _("THIS IS HEAVY"), "doc": _("GREAT SCOTT"), "jennifer": _("FOLLOW ME"),
            "einstein": _("BARK BARK")}.get(character or "", _("POWER"))


ACTION_WORDS = {
    "character": N_("CHARACTER"), "draw": N_("DRAW"), "add": N_("ADD DIE"),
    "cancel": N_("CALL OFF"), "ready": N_("READY TO ROLL"), "modify": N_("MODIFY"),
    "resolve": N_("RESOLVE"), "discard": N_("RETURN TILE"), "challenge": N_("CHALLENGE"),
    "power": N_("POWER"), "move": N_("MOVE"), "step": N_("STEP"), "escort": N_("ESCORT"),
    "drop": N_("LEAVE"), "stop": N_("STOP MOVING"), "end": N_("END TURN"),
}


def _action_words(action: Action) -> str:
    """An action in a few words, for UNDONE and for actions without a menu of their own."""
    kind = str(action.get("type", ""))
    kind = _(ACTION_WORDS[kind]) if kind in ACTION_WORDS else kind.upper()
    if action.get("type") == "reroll":
        n = len(action.get("dice", []))
        return ngettext("REROLL {n} DIE", "REROLL {n} DICE", n).format(n=n)
    if action.get("type") == "roll":
        dice = [d if isinstance(d, str) else f"{d.get('colour')}:{d.get('face')}"
                for d in action.get("dice", [])]
        return _("ROLL {dice}").format(dice=_dice_words(dice))
    bits = [kind] + [str(action[k]) for k in ("player", "character", "tile", "item", "card",
                                               "die", "who", "to") if k in action]
    return " ".join(bits)


TABLE = BackInTimeTable
