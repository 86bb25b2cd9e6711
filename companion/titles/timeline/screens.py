"""The Card Game's screens: whose turn, the card played, what to turn over, Memos, B-1, claims.

Every screen the whole table reads keeps the readability rule: one line of capitals 6 mm tall
on the recommended panel (``main_sizes()``: font 20 and up, bold, at 128x64) and every other
word at least 4 mm (``text_size()``: 14 at 128x64), sized for the panel drawn for. A small
4x6 map of the TimeLine sits beside the words where it helps: a filled card shows its altered
side, an empty one its original side, the B-1 stack is crossed, and a dot marks the cards to
turn over now (or, after a claim, the events still wrong); on a wide panel (256x64) it takes
the panel's height beside the words. Layouts are computed from the painter's size, so the
same code serves 128x64, 256x64 and 128x128 panels.

    >>> img = flip(["A-2", "A-6", "A-5"], ["X....X", "#.....", "......", "......"])
    >>> img.size, img.mode
    ((128, 64), '1')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.display import screens as shared
from companion.display.draw import (
    Painter,
    cap_height,
    fits,
    frame,
    line_height,
    rule_sizes,
    shorten,
    wrap,
)
from companion.display.screens import TooMuchText
from companion.i18n import _, ngettext
from companion.titles.timeline import rules
from companion.titles.timeline.graph import B1, COLUMNS, ROWS
from companion.titles.timeline.model import TYPE_NAMES, TYPES

GAP = 3  # between blocks
EDGE = 1  # margin at the panel's edges
MAP_SHARE = 0.45  # at most this share of a wide panel's width goes to the map

Grid = Sequence[str]  # four rows A-D of six cells: "." original, "X" altered, "#" B-1, " " none
Effect = dict[str, Any]

# The screens the whole table must read (the readability rule is checked on every one).
TABLE_SCREENS = frozenset({
    "turn", "draw", "deal", "play", "window", "memo", "cancel", "flip", "item", "steal",
    "trash", "replay", "put_back", "use", "extra", "draw_instead", "mulligan", "reshuffle",
    "b1", "dud", "clock", "claim", "no_claim", "no_winner", "win", "fizzle", "no_card",
    "undo", "redo", "setup",
})

# What the light ring does for an effect (companion/link/lightproto.py EFFECTS).
LIGHT_EFFECTS = {"flip": "ripple", "memo": "stall", "cancel": "stall", "dud": "stall",
                 "clock": "paradox", "win": "win"}


# --------------------------------------------------------------------------- layout


main_sizes = shared.stepped_main_sizes  # 24, 22, 20 at 128x64; 35, 33, 31 at 256x64


def text_size() -> int:
    """Every other word on a screen the table reads: 4 mm (font 14 at 128x64)."""
    return rule_sizes()[1]


def _descent(size: int) -> int:
    """Room a line needs below its capitals (descenders)."""
    return line_height(size) - cap_height(size) - 1


def _plan(blocks: Sequence[tuple[str, str]], width: int, height: int, main_lines: int = 2,
          shrink: bool = False):
    """Sizes and wrapped lines for ``blocks`` ((text, "main" | "text" | "bold")) in a box, or
    None when they do not fit. The main line is as big as fits without cutting a word in two
    (cut only when no size avoids it); the others are size 14."""
    for whole_words in (True, False):
        for size in main_sizes():
            found = _plan_at(blocks, width, height, main_lines, size, whole_words)
            if found is not None:
                return found
    if not shrink:
        return None
    # Words longer than the panel was laid out for (a translation): smaller than the rule
    # rather than not at all.
    rule_main, rule_text = min(main_sizes()), text_size()
    for small in sorted({s for s in (rule_text, 12, 10, 8) if s <= rule_text}, reverse=True):
        for size in sorted({s for s in (22, 20, 18, 16, 14, 12, 10, 8) if s < rule_main},
                           reverse=True):
            found = _plan_at(blocks, width, height, main_lines, size, False, small)
            if found is not None:
                return found
    return None


def _plan_at(blocks, width: int, height: int, main_lines: int, size: int, whole_words: bool,
             small: int | None = None):
    plan = []
    small = small or text_size()
    for text, role in blocks:
        if not text:
            continue
        s = size if role == "main" else small
        bold = role != "text"
        lines = wrap(text, width, s, bold)
        if role == "main" and (len(lines) > main_lines or whole_words and any(
                not fits(word, width, s, bold) for word in text.split())):
            return None
        plan.append((lines, s, bold))
    total = sum(cap_height(s) + (len(ls) - 1) * line_height(s) for ls, s, _b in plan)
    total += GAP * (len(plan) - 1)
    if plan:
        total += _descent(plan[-1][1])
    return (plan, total) if total <= height else None


def _draw_plan(p: Painter, plan, total: int, x0: int, x1: int, y0: int, y1: int) -> None:
    y = y0 + max(0, (y1 - y0 - total) // 2)
    for lines, size, bold in plan:
        for line in lines:
            p.center(line, y, size, bold=bold, x0=x0, x1=x1)
            y += line_height(size)
        y += GAP - line_height(size) + cap_height(size)


def _column(p: Painter, blocks, x0: int, x1: int, y0: int, y1: int, main_lines: int = 2,
            shrink: bool = False) -> None:
    """Draw ``blocks`` centred in the box, or raise TooMuchText."""
    found = _plan(blocks, x1 - x0, y1 - y0, main_lines, shrink)
    if found is None:
        raise TooMuchText(f"does not fit: {[t for t, _r in blocks]!r}")
    _draw_plan(p, *found, x0, x1, y0, y1)


def announce(main: str, lines: Sequence[str] = (), top: str = "", strict: bool = False
             ) -> list[Image.Image]:
    """A screen the table reads: an optional line above, the main line, lines below; when
    the lines do not fit one screen, they continue on more screens under the same main line.
    A main line that does not fit in the rule's letters raises TooMuchText when ``strict``
    (the caller has another way to say it), else it is drawn smaller (a translation's longer
    words); TooMuchText when it does not fit at all."""
    with frame() as probe:
        width, height = probe.width - 2 * EDGE, probe.height - 2 * EDGE
    main_lines = 3 if height > 64 else 2

    shrink = False  # smaller than the rule only when the main line fits no other way

    def fits_page(chunk: list[str]) -> bool:
        blocks = [(top, "bold"), (main, "main")] + [(t, "text") for t in chunk]
        return _plan(blocks, width, height, main_lines, shrink) is not None

    if top and not fits_page([]):  # a long line above: it leads the lines below instead
        lines, top = [top, *lines], ""
    if not fits_page([]) and not strict:
        shrink = True  # longer words than the panel was laid out for (a translation)
    if not fits_page([]):
        raise TooMuchText(f"does not fit: {main!r}")

    def paginate() -> list[list[str]]:
        pages: list[list[str]] = [[]]
        for line in (t for t in lines if t):
            pieces = [line] if fits_page([line]) else _halves(line, fits_page)
            for piece in pieces:
                if fits_page(pages[-1] + [piece]):
                    pages[-1].append(piece)
                else:
                    pages.append([piece])
        return pages

    pages = paginate()
    if not shrink and not strict and not all(fits_page(chunk) for chunk in pages):
        shrink = True  # a word under the main line fits no page in the rule's letters
        pages = paginate()
    images = []
    for chunk in pages:
        with frame() as p:
            blocks = [(top, "bold"), (main, "main")] + [(t, "text") for t in chunk]
            _column(p, blocks, EDGE, p.width - EDGE, EDGE, p.height - EDGE, main_lines, shrink)
        images.append(p.image)
    return images


def _halves(line: str, fits_page) -> list[str]:
    """``line`` in pieces that each fit a page, cut between words (a word too long for any
    page is cut where the wrapping cuts it)."""
    words = line.split()
    if len(words) <= 1:
        return [line]
    pieces, current = [], ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if current and not fits_page([candidate]):
            pieces.append(current)
            current = word
        else:
            current = candidate
    return pieces + [current]


# --------------------------------------------------------------------------- the map


def map_size(width: int, height: int) -> tuple[int, int, int, int]:
    """(cell width, cell height, pitch x, pitch y) of the 4x6 map for a box of this size."""
    gap = 2
    pitch_x = (width + gap) // COLUMNS
    pitch_y = (height + gap) // len(ROWS)
    cell_w, cell_h = pitch_x - gap, pitch_y - gap
    cell_h = min(cell_h, cell_w * 3 // 2)  # cards stand upright, never as thin sticks
    cell_w = min(cell_w, cell_h * 3 // 2)
    return cell_w, cell_h, cell_w + gap, cell_h + gap


def draw_map(p: Painter, grid: Grid, box: tuple[int, int, int, int],
             marks: Sequence[str] = ()) -> dict[str, tuple[int, int, int, int]]:
    """The TimeLine in ``box`` (x0, y0, x1, y1): filled = altered, empty = original, crossed =
    the B-1 stack, a dot = a card in ``marks`` (to turn over, or still wrong). Returns each
    place's rectangle."""
    places: dict[str, tuple[int, int, int, int]] = {}
    x0, y0, x1, y1 = box
    cell_w, cell_h, pitch_x, pitch_y = map_size(x1 - x0, y1 - y0)
    left = x0 + (x1 - x0 - (COLUMNS * pitch_x - 2)) // 2
    top = y0 + (y1 - y0 - (len(ROWS) * pitch_y - 2)) // 2
    marked = set(marks)
    for r, row in enumerate(ROWS):
        cells = grid[r] if r < len(grid) else ""
        for c in range(COLUMNS):
            code = cells[c] if c < len(cells) else " "
            x, y = left + c * pitch_x, top + r * pitch_y
            rect = (x, y, x + cell_w - 1, y + cell_h - 1)
            eid = f"{row}-{c + 1}"
            places[eid] = rect
            if code == "X":
                p.draw.rectangle(rect, fill=1)
            elif code == "#":
                p.draw.rectangle(rect, outline=1)
                p.draw.line((x, y, x + cell_w - 1, y + cell_h - 1), fill=1)
                p.draw.line((x, y + cell_h - 1, x + cell_w - 1, y), fill=1)
            elif code == ".":
                p.draw.rectangle(rect, outline=1)
            else:  # no card at this place in the pack
                p.draw.point((x + cell_w // 2, y + cell_h // 2), fill=1)
            if eid in marked:  # a dot of the other colour in the middle
                d_x, d_y = max(1, (cell_w - 3) // 2), max(1, (cell_h - 3) // 2)
                p.draw.rectangle((x + d_x, y + d_y, x + cell_w - 1 - d_x, y + cell_h - 1 - d_y),
                                 fill=0 if code == "X" else 1)
    return places


def _map_box(p: Painter, top: int) -> tuple[tuple[int, int, int, int], int]:
    """Where the map goes below ``top``, and the right edge left for the words beside it (on a
    tall panel the map goes under the words, across the panel: the words keep the width)."""
    if p.height >= p.width * 3 // 4:
        height = min(p.height - top - EDGE, p.width // 2)
        return (EDGE, p.height - EDGE - height, p.width - EDGE, p.height - EDGE), \
            p.width - EDGE
    height = p.height - top - EDGE
    _w, _h, pitch_x, _py = map_size(int(p.width * MAP_SHARE), height)
    used = COLUMNS * pitch_x - 2
    return (p.width - EDGE - used, top, p.width - EDGE, p.height - EDGE), \
        p.width - EDGE - used - GAP


def _words_room(p: Painter, main: str = ""
                ) -> tuple[bool, int, int, tuple[int, int, int, int], int, int]:
    """(beside?, the main line's size, the top of the lines under it, the map's box, the right
    edge of the words, the bottom of the lines). On a wide panel (256x64) the map takes the
    panel's height at the right and the main line heads the words beside it when it fits
    there; else the main line goes across the top."""
    size = main_sizes()[-1]  # the smallest main size leaves the map the most room
    top = EDGE + cap_height(size) + _descent(size) + 2
    if p.width >= 3 * p.height:
        box, right = _map_box(p, EDGE)
        if fits(main, right - EDGE, size, True):
            # the words' descenders may reach the panel's last row
            return True, size, EDGE + cap_height(size) + GAP + 1, box, right, p.height
    box, right = _map_box(p, top)
    tall = box[1] > top
    return False, size, top, box, right, box[1] - GAP if tall else p.height - EDGE


def map_screen(main: str, lines: Sequence[str], grid: Grid, marks: Sequence[str] = (),
               more: str = "") -> Image.Image:
    """The main line across the top, words on the left, the map on the right (on a tall
    panel: words, then the map; on a wide one the map the panel's height, the main line over
    the words). Words that do not fit end with ``more``; a main line too long for its room
    (a long name) is shortened visibly ("ESMERALDA-F.")."""
    small = text_size()
    with frame() as p:
        wide, size, top, box, right, y1 = _words_room(p, main)
        main = shorten(main, p.width - 2 * EDGE, size, True)
        room = max(0, (y1 - top - cap_height(small) - _descent(small)) // line_height(small) + 1)
        out: list[str] = []
        for line in lines:
            out += wrap(line, right - EDGE, small) if line else []
        joined = wrap(" ".join(line for line in lines if line), right - EDGE, small)
        if len(out) > room >= len(joined):  # the lines run together ("DRAW 1, PLAY 1")
            out = joined
        if len(out) > room:
            out = out[:max(0, room - 1)] + ([more] if more and room else [])
        block = cap_height(small) + (len(out) - 1) * line_height(small) + _descent(small)
        if wide:  # the main line and the words centred together beside the map
            shift = max(0, (y1 - EDGE - (top - EDGE) - (block if out else 0)) // 2)
            p.center(main, EDGE + shift, size, bold=True, x0=EDGE, x1=right)
            y = top + shift
        else:
            p.center(main, EDGE, size, bold=True)
            y = top + max(0, (y1 - top - block) // 2)
        for line in out:
            p.text((EDGE, y), shorten(line, right - EDGE, small), small)
            y += line_height(small)
        places = draw_map(p, grid, box, marks)
    p.image.info["map_cells"] = places  # where each place is drawn (for tests and tools)
    return p.image


# --------------------------------------------------------------------------- screens


def turn(player: str, draws: int, grid: Grid, b1_left: int | None = None) -> Image.Image:
    """Whose turn, what they do (draw, play) and the TimeLine as it stands."""
    lines = [_("DRAW {n},").format(n=draws), _("PLAY 1")]
    if b1_left is not None:
        lines.append(_("B-1: {n}").format(n=b1_left))
    return map_screen(player.upper(), lines, grid)


def flip(flips: Sequence[str], grid: Grid) -> Image.Image:
    """What to turn over, in order: "FLIP A-2 · then A-6, A-5", and the map after it."""
    main = _("FLIP {event}").format(event=flips[0])
    if len(flips) == 1:
        return map_screen(main, [_("nothing ripples")], grid, flips[:1])
    lines = [_("then {events}").format(events=", ".join(flips[1:]))]
    return map_screen(main, lines, grid, flips, more=_("and more"))


def flip_screens(flips: Sequence[str], grid: Grid) -> list[tuple[str, Image.Image]]:
    """The flip screen, and the whole list in words when it is too long for the map's side."""
    out = [("flip", flip(flips, grid))]
    small = text_size()
    with frame() as p:
        wide, _size, top, _box, right, y1 = _words_room(p, _("FLIP {event}").format(
            event=flips[0]))
    room = (p.height - 20) // line_height(small) if not wide else \
        max(0, (y1 - top - cap_height(small) - _descent(small)) // line_height(small) + 1)
    text = _("then {events}").format(events=", ".join(flips[1:]))
    if len(flips) > 1 and len(wrap(text, right - EDGE, small)) > room:
        for k, img in enumerate(announce(_("FLIP {event}").format(event=flips[0]), [text])):
            out.append((f"flip_{k + 1}", img))
    return out


def first_fit(*choices: tuple[str, Sequence[str], str]) -> list[Image.Image]:
    """The first of ``choices`` ((main, lines, line above)) that fits one screen; else the
    last, over several screens."""
    for main, lines, top in choices[:-1]:
        pages = _try(main, lines, top)
        if pages is not None and len(pages) == 1:
            return pages
    main, lines, top = choices[-1]
    return announce(main, lines, top)


def _try(main: str, lines: Sequence[str], top: str) -> list[Image.Image] | None:
    try:
        return announce(main, lines, top, strict=True)
    except TooMuchText:
        return None


def play(player: str, card: str, target: str = "") -> list[Image.Image]:
    """The card a player plays, and its target: "ANA PLAYS / Time Train / on A-2"."""
    who = _("{player} PLAYS").format(player=player.upper())
    return first_fit((card, [target], who), (who, [card, target], ""),
                     (player.upper(), [card, target], ""))


def use(player: str, item: str, event: str) -> list[Image.Image]:
    """A DoubleBack's second flip: the Item given up and the Linchpin."""
    return announce(_("2ND FLIP"), [_("on {event}").format(event=event),
                                    _("{player} discards {item}").format(player=player,
                                                                         item=item)])


def pending_words(effect: Effect) -> str:
    """The card a Memo cancels, in a few words: "Time Train on A-2", "Ben's Memo"."""
    kind, event = effect.get("against_kind"), effect.get("event")
    if kind == "memo":
        return _("{player}'s Memo").format(player=effect.get("against_player", ""))
    if kind == "use":
        return _("2nd flip on {event}").format(event=event)
    name = str(effect.get("against_name", ""))
    return _("{card} on {event}").format(card=name, event=event) if event else name


def target_words(effect: Effect) -> str:
    """A play's target in a few words: "on A-2", "on B-1!", "take Fax (Ben)"."""
    event = effect.get("event")
    if event == B1:
        return _("on B-1: un-invent time travel")
    if event:
        return _("on {event}").format(event=event)
    return str(effect.get("what", ""))


def card_screen(player: str, verb: str, card: str, line: str = "") -> list[Image.Image]:
    """What happens to a card: "ANA: IN FRONT / Gray's Sports Almanac"; the card's name is the
    main line when it fits, else the player's name is."""
    top = _("{player}: {verb}").format(player=player.upper(), verb=verb) if player else verb
    return first_fit((card, [line], top), (player.upper() or verb, [verb, card, line], ""),
                     (player.upper() or verb, [card, line], ""))


def window(what: str, odds: float | None = None) -> Image.Image:
    """While a card is pending: MEMO? (CONFIRM: nobody plays one)."""
    lines = [what]
    if odds is not None:
        lines.append(_("clock: {pct}%").format(pct=round(100 * odds)))
    return window_screen(_("MEMO?"), [*lines, _("CONFIRM: none")])


def window_screen(title: str, lines: Sequence[str]) -> Image.Image:
    """The Memo window on one screen: when the card's words are too long, the odds and the
    button stay (the card was announced just before)."""
    pages = announce(title, lines)
    return pages[0] if len(pages) == 1 else announce(title, lines[1:])[0]


def b1(left: int, odds: float) -> list[Image.Image]:
    """B-1 is flipped: turn over the top card; the odds that it ends the game."""
    return announce(_("B-1!"), [_("TURN OVER the top card"),
                                _("clock: 1 in {n} ({pct}%)").format(n=left,
                                                                     pct=round(100 * odds))])


def dud(left: int) -> list[Image.Image]:
    return announce(_("Mysterious Forces"), [_("set it aside: {n} left").format(n=left)])


def clock() -> list[Image.Image]:
    return announce(_("THE CLOCK!"), [_("time travel is un-invented"), _("show your IDs")])


def claim(player: str, character: str, wrong: Sequence[str]) -> list[Image.Image]:
    """A claim checked: the ID is met, or which events are still wrong."""
    who = _("{player}: {character}").format(player=player.upper(), character=character)
    if not wrong:
        return announce(_("ID MET!"), [], top=who)
    return announce(_("NOT MET"), [_("still wrong: {events}").format(events=", ".join(wrong))],
                    top=who)


def winner(name: str, hint: str | None = None) -> Image.Image:
    """The winner, with a bolt on each side, and what to press now small at the bottom: the
    shared winner screen (a long name gets smaller letters or two lines before it is cut)."""
    return shared.winner(name, hint=hint)


def status(view: dict[str, Any]) -> Image.Image:
    """The TimeLine as it stands (for the catalogue and after an undo)."""
    return map_screen(_("TIMELINE"), [_("B-1: {n}").format(n=view["b1"]["left"])],
                      view["map"])


# --------------------------------------------------------------------------- menus


def menu(title: str, items: Sequence[str], selected: int = 0) -> Image.Image:
    """A menu with a title row and three rows, words of size 14 where they fit."""
    return shared.menu(title, list(items), selected)


TIME_INDEX = re.compile(r"^([A-D]-[1-6])\b")


def target_picker(title: str, items: Sequence[str], selected: int, state: Any) -> Image.Image:
    """Choosing a Linchpin: the one selected, what its flip would turn over, and the map
    after it (the cards that would turn marked)."""
    label = items[selected] if items else ""
    found = TIME_INDEX.match(label)
    if found is None or found.group(1) == B1:
        if found is not None:
            label = _("B-1: {pct}% clock").format(pct=round(100 * rules.clock_odds(state)))
        return menu(title, [label if i == selected else t for i, t in enumerate(items)],
                    selected)
    event = found.group(1)
    graph = state.content.graph
    altered, flips = graph.flip(state.altered, event)
    grid = grid_of(graph, altered)
    lines = [_("then {events}").format(events=", ".join(flips[1:]))] if len(flips) > 1 else []
    lines.append(f"{selected + 1}/{len(items)}")
    return map_screen(_("FLIP {event}?").format(event=event), lines, grid, flips,
                      more=_("and more"))


def grid_of(graph: Any, altered: frozenset[str]) -> list[str]:
    """The map rows for a TimeLine whose altered Linchpins are ``altered``."""
    shown = graph.sides(altered)
    rows = []
    for row in ROWS:
        cells = ""
        for col in range(1, COLUMNS + 1):
            eid = f"{row}-{col}"
            cells += "#" if eid == B1 else ("X" if eid in shown else "." if eid in graph.events
                                           else " ")
        rows.append(cells)
    return rows


# --------------------------------------------------------------------------- announcements


def named_screens_for(view: dict[str, Any], effects: Sequence[Effect]
                      ) -> list[tuple[str, Image.Image]]:
    """The screens to show after ``effects``, named, in the order things happen.

    Merged: the card played and its target are one screen; a card's draws and extra plays are
    one; only the last turn of a batch is shown. The cards dealt and drawn and the Memo call
    need no screen of their own: the prompt that follows asks for them.

    >>> view = {"map": ["......"] * 4, "b1": {"left": 5}, "turn": "Ben"}
    >>> effects = [{"kind": "turn", "player": "Ben", "draws": 1, "text": "Ben: DRAW 1, PLAY 1"}]
    >>> [name for name, _ in named_screens_for(view, effects)]
    ['turn']
    """
    out: list[tuple[str, Image.Image]] = []
    grid = view.get("map") or ["......"] * len(ROWS)

    def add(name: str, images: Sequence[Image.Image]) -> None:
        for k, img in enumerate(images):
            out.append((name if k == 0 else f"{name}_{k}", img))

    last_turn = max((i for i, e in enumerate(effects) if e["kind"] == "turn"), default=-1)
    i = 0
    while i < len(effects):
        e = effects[i]
        kind = e["kind"]
        who = str(e.get("player", ""))
        name = str(e.get("name", ""))
        if kind == "play":
            what = ""
            if i + 1 < len(effects) and effects[i + 1]["kind"] == "target":
                i += 1
                what = target_words(effects[i])
            add("play", play(who, name, what))
        elif kind == "target":
            add("play", play(who, name, target_words(e)))
        elif kind == "memo":
            add("memo", announce(_("MEMO!"), [_("against {what}").format(
                what=pending_words(e))], top=who.upper()))
        elif kind == "cancel":
            if e.get("what") == "use":
                lines = [_("no 2nd flip: {event} stays").format(event=e.get("event"))]
            elif e.get("what") == "memo":
                lines = [_("{player}'s Memo").format(player=who)]
            else:
                lines = [name, _("DISCARD it")]
            add("cancel", announce(_("CANCELLED"), lines))
        elif kind == "flip":
            out.extend(flip_screens(e["flips"], grid))
        elif kind == "turn":
            if i == last_turn:
                add("turn", [turn(who, e.get("draws", 1), grid)])
        elif kind == "extra_play":
            add("extra", announce(who.upper(), [ngettext("{n} more play", "{n} more plays",
                                                         e["count"]).format(n=e["count"])]))
        elif kind == "item":
            add("item", card_screen(who, _("IN FRONT"), name))
        elif kind == "steal":
            add("steal", card_screen(who, _("TAKES"), name, _("from {other}").format(
                other=e.get("other", ""))))
        elif kind == "trash":
            add("trash", card_screen(str(e.get("other", "")), _("DISCARD"), name))
        elif kind == "replay":
            add("replay", card_screen(who, _("PLAYS"), name, _("from the discard pile")
                                      if e.get("source") == "discard"
                                      else _("from the draw pile")))
        elif kind == "put_back":
            add("put_back", announce(_("SHUFFLE"), [e["text"]]))
        elif kind == "use":
            add("use", use(who, name, str(e.get("event"))))
        elif kind == "draw_instead":
            add("draw_instead", announce(who.upper(), [_("draws instead of playing")]))
        elif kind == "mulligan":
            add("mulligan", announce(who.upper(), [_("SET your ID aside"),
                                                   _("take another")]))
        elif kind == "reshuffle":
            add("reshuffle", announce(_("SHUFFLE"), [_("the discard pile: the new draw pile")]))
        elif kind == "b1":
            add("b1", b1(e.get("left", 1), e.get("odds", 0.0)))
        elif kind == "dud":
            add("dud", dud(e.get("left", 0)))
        elif kind == "clock":
            add("clock", clock())
        elif kind == "claim":
            add("claim", claim(who, e.get("character", ""), e.get("wrong", [])))
        elif kind == "no_claim":
            add("no_claim", announce(who.upper(), [_("ID not met")]))
        elif kind == "no_winner":
            add("no_winner", announce(_("NO WINNER"), [_("SHUFFLE the {n} B-1 cards back")
                                                       .format(n=e.get("left", ""))]))
        elif kind == "win":
            out.append(("win", winner(who)))
            return out
        elif kind in ("deal", "deal_id", "draw", "draw_cards", "pending"):
            pass  # the prompt that follows asks for these
        elif kind == "no_card":
            add("no_card", announce(_("NO CARD"), [e["text"]]))
        elif kind == "fizzle":
            add("fizzle", announce(_("NO EFFECT"), [e["text"]]))
        elif kind == "undo":
            add("undo", announce(_("UNDO"), [e["text"]]))
        elif kind == "redo":
            add("redo", announce(_("REDO"), [e["text"]]))
        elif kind == "setup":
            add("setup", announce(_("NEW GAME"), [rules.facts.name]))
        else:  # an effect this display does not know yet: its words, readable
            add(kind, announce(kind.upper(), [e.get("text", "")]))
        i += 1
    return out


def screens_for(view: dict[str, Any], effects: Sequence[Effect]) -> list[Image.Image]:
    return [img for _name, img in named_screens_for(view, effects)]


# --------------------------------------------------------------------------- prompts


def prompt_screen(prompt, view: dict[str, Any], session) -> Image.Image | None:
    """The screens of this title's prompt kinds (None: the shared screen serves). The table
    (``table.py``) gives each prompt its words: the title and the lines."""
    kind = prompt.kind
    if kind in ("deal", "draw"):  # lines: the line above, the main line, the lines below
        above, main, *below = prompt.lines
        return announce(main, below, top=above)[0]
    if kind == "window":
        if prompt.selected:
            return menu(prompt.title, prompt.options, prompt.selected)
        return window_screen(prompt.title, prompt.lines)
    if kind == "over" and view.get("winner"):
        return winner(view["winner"], hint=prompt.lines[0] if prompt.lines else None)
    if kind == "target" and session.match is not None:
        return target_picker(prompt.title, prompt.options, prompt.selected, session.match.state)
    if kind in ("reveal", "claim"):
        return menu(prompt.title, prompt.options, prompt.selected)
    return None


# --------------------------------------------------------------------------- samples


def _sample_graph():
    from companion.content import demo_pack
    from companion.titles.timeline.model import Content

    return Content(demo_pack("timeline").sections).graph


def _sample_flip(before: Sequence[str], event: str) -> tuple[list[str], list[str]]:
    """(cards turned over, the map after) for a flip of ``event`` in the demo pack."""
    graph = _sample_graph()
    altered, flips = graph.flip(frozenset(before), event)
    return flips, grid_of(graph, altered)


def catalogue() -> list[tuple[str, Image.Image]]:
    """Every kind of screen with sample data, named (``companion screens``). Samples of one
    kind are numbered ("flip_2") so the readability check covers each of them."""
    graph = _sample_graph()
    start = grid_of(graph, frozenset())
    later = grid_of(graph, frozenset({"A-2", "A-3", "D-2"}))
    out: list[tuple[str, Image.Image]] = [
        ("boot", shared.boot(plate="CARD GAME")),
        ("deal", announce(_("DEAL"), [_("{n} cards and an ID card each").format(n=3),
                                      _("then CONFIRM")])[0]),
        ("turn", turn("Ana", 1, start)),
        ("turn_2", turn("Esmeralda-Fitzgerald", 2, later)),
        ("draw", announce(_("DRAW {n}").format(n=1), [_("then CONFIRM")], top="ANA")[0]),
        ("draw_2", announce(_("DRAW {n}").format(n=2), [_("then CONFIRM")],
                            top="ESMERALDA-FITZGERALD")[0]),
        ("window", window(_("{card} on {event}").format(card="Time Train", event="A-2"))),
        ("window_2", window(_("{card} on {event}").format(card="Time Train", event="B-1"),
                            0.2)),
        ("window_3", window("Quick Trip Into The Future")),
        ("flip", flip(*_sample_flip(["A-3"], "A-2"))),
        ("flip_2", flip(*_sample_flip([], "C-4"))),
        ("flip_3", flip(*_sample_flip(["B-4"], "D-2"))),
        ("flip_4", flip(*_sample_flip(["D-2", "B-4"], "D-2"))),
        ("status", map_screen(_("TIMELINE"), [_("B-1: {n}").format(n=4)], later)),
        ("win", winner("Ana")),
        ("win_2", winner("Esmeralda")),
        ("menu_type", menu(_("{player}: PLAY").format(player="ANA"),
                           [_(TYPE_NAMES[t]) for t in TYPES] + [_("DRAW INSTEAD")], 1)),
        ("menu_memo", menu(_("{player}: WHICH?").format(player="BEN"), [
            "Memo From Your Future Self", _("{item} (in front)").format(item="Fax"),
            _("PLAY {card}").format(card="Sudden Insight")], 0)),
        ("reveal", menu(_("B-1 CARD? ({pct}% CLOCK)").format(pct=20),
                        [_("MYSTERIOUS FORCES"), _("THE CLOCK")], 0)),
    ]
    for name, images in (
        ("play", play("Ana", "Time Train", _("on {event}").format(event="A-2"))),
        ("play_2", play("Fitzgerald", "Quick Trip Into The Future",
                        _("play {pick}").format(pick="Time Train"))),
        ("play_3", play("Ben", "Swipe an Item", _("take {item} ({player})").format(
            item="Gray's Sports Almanac", player="Esmeralda"))),
        ("play_4", play("Ana", "Old West DeLorean", _("on B-1: un-invent time travel"))),
        ("memo", announce(_("MEMO!"), [_("against {what}").format(
            what=_("{card} on {event}").format(card="Time Train", event="A-2"))], top="BEN")),
        ("memo_2", announce(_("MEMO!"), [_("against {what}").format(
            what="Quick Trip Into The Future")], top="ESMERALDA")),
        ("cancel", announce(_("CANCELLED"), ["Time Train", _("DISCARD it")])),
        ("cancel_2", announce(_("CANCELLED"), [_("no 2nd flip: {event} stays").format(
            event="A-1")])),
        ("b1", b1(5, 0.2)),
        ("dud", dud(4)),
        ("clock", clock()),
        ("claim", claim("Ana", "Verne Brown", ["A-5", "C-5"])),
        ("claim_2", claim("Esmeralda", "Quinn McFly", [])),
        ("no_claim", announce("BEN", [_("ID not met")])),
        ("no_winner", announce(_("NO WINNER"), [_("SHUFFLE the {n} B-1 cards back").format(
            n=4)])),
        ("extra", announce("ANA", [ngettext("{n} more play", "{n} more plays", 2).format(
            n=2)])),
        ("item", card_screen("Fitzgerald", _("IN FRONT"), "Gray's Sports Almanac")),
        ("steal", card_screen("Ana", _("TAKES"), "Fax", _("from {other}").format(other="Ben"))),
        ("trash", card_screen("Ben", _("DISCARD"), "Photo of a Tombstone")),
        ("replay", card_screen("Ana", _("PLAYS"), "Time Train", _("from the discard pile"))),
        ("use", use("Ana", "Ravine Map", "A-1")),
        ("reshuffle", announce(_("SHUFFLE"), [_("the discard pile: the new draw pile")])),
    ):
        for k, img in enumerate(images):
            out.append((name if k == 0 else f"{name}_{k}", img))
    return out
