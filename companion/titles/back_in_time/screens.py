"""Back in Time's screens: whose turn, the tracker phase step by step, the roll with its locked
Biff dice, and what to move on the board ("LOVE +2", "BIFF 1 step to George", "FLIP 1 PHOTO").

Every screen the whole table reads is drawn with ``say``: one big bold line (capitals 6 mm tall
on the recommended panel: ``main_sizes()``, font 20 or more at 128x64) and lines of the
``detail()`` size (4 mm: font 14 at 128x64); what does not fit goes on a following screen with
the same big line, never into small print. The sizes come from the panel drawn for
(``rule_sizes``), so a 256x64 panel gets bigger letters. The
dice are drawn as our own plain glyphs (an arrow, a book, a star, a heart, a burst, a "B"), not
the printed art. Layouts ask the painter for the panel's size.

    >>> img = say("LOVE +2", "cube to space 7")[0]
    >>> img.size, img.mode
    ((128, 64), '1')
"""

from __future__ import annotations

import math
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
from companion.i18n import N_, _, ngettext
from companion.titles.back_in_time import data, rules
from companion.titles.back_in_time import odds as exact
from companion.titles.back_in_time.table import MODIFIER_WORDS, UNKNOWN, split, word

MARGIN = 1
GAP = 4

Effect = dict[str, Any]
DRAW_WORDS = {
    "opportunity": N_("1 Opportunity card"),
    "movement": N_("1 Movement card"),
    "trouble1": N_("1 level 1 Trouble card"),
    "trouble2": N_("1 level 2 Trouble card"),
    "trouble3": N_("1 level 3 Trouble card"),
}


# --------------------------------------------------------------------------- layout


main_sizes = shared.stepped_main_sizes  # 24, 22, 20 at 128x64; 35, 33, 31 at 256x64


def detail() -> int:
    """Every other word on a screen the table reads: 4 mm (font 14 at 128x64)."""
    return rule_sizes()[1]


def _main_lines(width: int, text: str) -> tuple[int, list[str]]:
    """The big line on one line at the biggest size that fits, else wrapped at the smallest
    (a word wider than the panel at that size, "OPPORTUNITY" at 128x64, is split with a
    hyphen: smaller, it would not be read across the table)."""
    sizes = main_sizes()
    for size in sizes:
        if fits(text, width, size, True):
            return size, [text]
    size = sizes[-1]
    return size, wrap(text, width, size, True)


def _block(size: int, count: int) -> int:
    return cap_height(size) + (count - 1) * line_height(size) if count else 0


def say(main: str, *details: str) -> list[Image.Image]:
    """Screens the whole table reads: ``main`` big and bold, each detail (wrapped between
    words) under it; as many screens as it takes, each following one repeating ``main``, so
    every screen has its big line and nothing is small. A detail is not split between screens
    unless it is longer than a screen holds. The big line is as big as fits without taking
    more screens than a smaller one would. When it leaves no room under it (two lines of it
    on a 64-pixel panel with big letters), each detail is a big line of its own on the
    screens that follow."""
    with frame() as probe:
        pass
    width, height = probe.width - 2 * MARGIN, probe.height
    small_size = detail()
    descent = line_height(small_size) - cap_height(small_size)
    details = tuple(d for d in details if d)

    def plan(size: int, mains: list[str]) -> tuple[list[str], list[list[str]], list[str]]:
        """(big lines, detail lines per screen, details that become big lines)."""
        rest = details
        if len(mains) > 2:  # a very long big line: two lines big, the rest under them
            rest = (" ".join(mains[2:]), *rest)
            mains = mains[:2]
        # the last line's descenders reach ``descent - 1`` pixels below its capitals
        left = height - MARGIN - _block(size, len(mains)) - GAP - cap_height(small_size) \
            - (descent - 1)
        if left < 0 and rest:
            return mains, [[]], list(rest)
        per = max(1, left // line_height(small_size) + 1)
        pages: list[list[str]] = [[]]
        for d in rest:
            lines = wrap(d, width, small_size)
            if pages[-1] and len(pages[-1]) + len(lines) > per:
                pages.append([])
            for line in lines:
                if len(pages[-1]) == per:
                    pages.append([])
                pages[-1].append(line)
        return mains, pages, []

    size, mains = _main_lines(width, main)
    mains, pages, later = plan(size, mains)
    for smaller in main_sizes():  # a smaller big line when that takes fewer screens
        if smaller < size and fits(main, width, smaller, True):
            other = plan(smaller, [main])
            if not other[2] and (later or len(other[1]) < len(pages)):
                size, (mains, pages, later) = smaller, other
    out = []
    for small in pages:
        with frame() as p:
            block = _block(size, len(mains)) + (GAP + _block(small_size, len(small)) if small
                                                 else 0)
            y = max(MARGIN, min((p.height - block) // 2,
                                p.height - block - (descent - 1 if small else 0)))
            y = p.lines(mains, y, size, bold=True) - line_height(size) + cap_height(size) + GAP
            p.lines(small, y, small_size)
        out.append(p.image)
    return out + [img for d in later for img in say(d)]


# --------------------------------------------------------------------------- dice glyphs


def _poly(p: Painter, x: int, y: int, s: int, pts: Sequence[tuple[float, float]], fill=1):
    p.draw.polygon([(x + s / 2 + px * s, y + s / 2 + py * s) for px, py in pts], fill=fill)


def _glyph(p: Painter, x: int, y: int, s: int, face: str, fill: int = 1) -> None:
    """A face's glyph in the box at ``x, y`` of side ``s``."""
    d = p.draw
    cx, cy = x + s / 2, y + s / 2
    if face == "speed":  # an arrow
        _poly(p, x, y, s, [(-0.32, -0.09), (0.04, -0.09), (0.04, -0.26), (0.34, 0.0),
                           (0.04, 0.26), (0.04, 0.09), (-0.32, 0.09)], fill)
    elif face == "knowledge":  # an open book
        _poly(p, x, y, s, [(-0.34, -0.22), (-0.04, -0.15), (-0.04, 0.26), (-0.34, 0.19)], fill)
        _poly(p, x, y, s, [(0.34, -0.22), (0.04, -0.15), (0.04, 0.26), (0.34, 0.19)], fill)
    elif face == "courage":  # a star
        pts = []
        for i in range(10):
            r = 0.36 if i % 2 == 0 else 0.15
            a = math.radians(-90 + 36 * i)
            pts.append((r * math.cos(a), r * math.sin(a) + 0.03))
        _poly(p, x, y, s, pts, fill)
    elif face == "love":  # a heart
        r = s * 0.15
        for dx in (-0.14, 0.14):
            d.ellipse((cx + dx * s - r, cy - 0.08 * s - r, cx + dx * s + r, cy - 0.08 * s + r),
                      fill=fill)
        _poly(p, x, y, s, [(-0.29, -0.04), (0.29, -0.04), (0.0, 0.32)], fill)
    elif face == "wild":  # a burst: eight spokes round a dot
        w = max(1, round(s / 9))
        for a in range(0, 360, 45):
            t = math.radians(a + 22.5)
            d.line((cx + 0.12 * s * math.cos(t), cy + 0.12 * s * math.sin(t),
                    cx + 0.36 * s * math.cos(t), cy + 0.36 * s * math.sin(t)), fill=fill,
                   width=w)
        r = max(1, s * 0.07)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    else:  # "biff" ("B") or an unsure face ("?"): a letter
        text = "B" if face == "biff" else UNKNOWN
        main = main_sizes()[-1]  # the main line's letters in a big die, else the details'
        size = detail() if s < cap_height(main) + 6 else main
        p.center(text, round(cy - cap_height(size) / 2), size, bold=True, fill=fill,
                 x0=x, x1=x + s + 1)


def die(p: Painter, x: int, y: int, s: int, face: str | None) -> None:
    """One die: a rounded box with its face; a Biff face is filled in (locked)."""
    locked = face == "biff"
    radius = max(2, s // 5)
    if locked:
        p.draw.rounded_rectangle((x, y, x + s - 1, y + s - 1), radius=radius, fill=1)
    else:
        p.draw.rounded_rectangle((x, y, x + s - 1, y + s - 1), radius=radius, outline=1)
    if face:
        _glyph(p, x, y, s, face, fill=0 if locked else 1)


def dice_row(p: Painter, y: int, faces: Sequence[str | None], big: int = 20,
             marks: Sequence[int] = ()) -> int:
    """The dice side by side, centred, at most ``big`` pixels; ``marks`` underlines some.
    Returns the y below."""
    n = max(1, len(faces))
    gap = 4 if n <= 5 else 2
    s = min(big, (p.width - 2 - gap * (n - 1)) // n)
    x = (p.width - (n * s + (n - 1) * gap)) // 2
    for i, face in enumerate(faces):
        die(p, x + i * (s + gap), y, s, face)
        if i in marks:
            p.draw.rectangle((x + i * (s + gap), y + s + 1, x + i * (s + gap) + s - 1, y + s + 2),
                             fill=1)
    return y + s


# --------------------------------------------------------------------------- the roll


def summary(challenge: dict[str, Any] | None, faces: Sequence[str | None]) -> str:
    """What the dice give for the challenge: "2 LOVE", "MET!", "SHORT 1"."""
    known = [f for f in faces if f and f != UNKNOWN]
    if not challenge:
        return _("{n} DICE").format(n=len(faces))
    symbol = challenge.get("symbol")
    if symbol:
        return f"{exact.count(known, symbol)} {word(symbol)}"
    need = challenge.get("need") or {}
    short = sum(max(0, n - known.count(s)) for s, n in need.items()) - known.count("wild")
    return _("MET!") if short <= 0 else _("SHORT {n}").format(n=short)


def roll(challenge: dict[str, Any] | None, dice: Sequence[str], footer: str = "") -> Image.Image:
    """The roll: what it gives (big), the dice (a Biff filled in: locked), one line under."""
    faces = [split(d)[1] if d else None for d in dice]
    biffs = faces.count("biff")
    if not footer and biffs:
        footer = ngettext("{n} BIFF: LOCKED", "{n} BIFFS: LOCKED", biffs).format(n=biffs)
    small = detail()
    with frame() as p:
        main = summary(challenge, faces)
        sizes = main_sizes()
        size = next((s for s in sizes if fits(main, p.width - 4, s, True)), sizes[-1])
        p.center(shorten(main, p.width - 4, size, True), 1, size, bold=True)
        top = cap_height(size) + 5
        room = p.height - top - (4 + cap_height(small) + 1 if footer else 2)
        bottom = dice_row(p, top, faces, big=min(20, room))
        if footer:
            p.center(shorten(footer, p.width - 2, small), bottom + 4, small)
    return p.image


def one_screen(*tries: tuple[str, ...]) -> Image.Image:
    """The first of ``tries`` (big line, details...) that ``say`` fits on one screen; else the
    first screen of the last (a prompt stays up: it is one screen)."""
    for big, *details in tries:
        images = say(big, *details)
        if len(images) == 1:
            return images[0]
    return images[0]


def roll_prompt(main: str, colours: Sequence[str], challenge: dict[str, Any] | None,
                player: str = "", again: bool = False) -> Image.Image:
    """Whose roll ("ANA: ROLL!"), which dice, and the exact odds before rolling; shorter words
    where the long ones do not fit one screen."""
    odds = (challenge or {}).get("odds") or {}
    counts: dict[str, int] = {}
    for c in colours:
        counts[c] = counts.get(c, 0) + 1
    dice = ", ".join(f"{n} {word(c)}" for c, n in counts.items())
    chance = ""
    if odds.get("at_least") and len(odds["at_least"]) > 1:
        chance = ", ".join(f"{k}+ {round(100 * p)}%"
                           for k, p in enumerate(odds["at_least"], start=1))
    elif "chance" in odds:
        chance = _("{p}% to succeed").format(p=round(100 * odds["chance"]))
    short = _("ROLL!")
    who = _("{player}, again").format(player=player) if again else player
    return one_screen((main, dice, chance), (short, who, dice, chance), (short, who, dice),
                      (short, dice))


def rolled_menu(dice: Sequence[str], options: Sequence[str], selected: int,
                marks: Sequence[int] = ()) -> Image.Image:
    """The roll (Biffs filled in) over the decision: reroll, resolve or modify; ``marks``
    underlines the dice the selected item rerolls."""
    faces = [split(d)[1] for d in dice]
    with frame() as p:
        top = dice_row(p, 1, faces, big=15, marks=marks) + 4
        small = detail()
        row_h = line_height(small) + 3
        visible = max(1, (p.height - top) // row_h)
        n = len(options)
        first = min(max(0, selected - visible + 1), max(0, n - visible))
        width = p.width - (6 if n > visible else 0)
        for row, index in enumerate(range(first, min(n, first + visible))):
            y = top + row * row_h
            text = str(options[index])
            size = next((z for z in (small, 12) if fits(text, width - 6, z)), 10)
            p.text((3, y + (row_h - cap_height(size)) // 2), shorten(text, width - 6, size), size)
            if index == selected:
                p.invert((0, y, width, y + row_h - 1))
        if n > visible:  # more below or above: a bar on the right
            bar = p.height - top
            thumb = max(3, bar * visible // n)
            ty = top + (bar - thumb) * first // max(1, n - visible)
            p.draw.rectangle((p.width - 3, ty, p.width - 1, ty + thumb - 1), fill=1)
    return p.image


# --------------------------------------------------------------------------- announcements


def _place(view: dict[str, Any], place: str | None) -> str:
    return (view.get("places") or {}).get(place, place or "")


def _npc(npc: str) -> str:
    return data.npc_name(npc).upper()


def _pieces(text: str) -> list[str]:
    """A long instruction in its parts ("GEORGE at X, LORRAINE at Y" -> two lines)."""
    out = []
    for part in text.replace("; ", ", ").split(", "):
        if part:
            out.append(part)
    return out


def _status(view: dict[str, Any]) -> str:
    love = view.get("love") or {}
    return _("love {love}, photos {photos}").format(love=love.get("space", 0),
                                                    photos=view.get("photos", 0))


def _player(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next((p for p in view.get("players") or [] if p["name"] == name), {})


def _tile_words(view: dict[str, Any], player: str, tile: str) -> str:
    found = next((t for t in _player(view, player).get("tiles", []) if t["id"] == tile), None)
    if not found:
        return tile
    bits = []
    if found.get("move"):
        bits.append(_("move {n}").format(n=found["move"]))
    if found.get("die"):
        bits.append(word(found["die"]).lower())
    if found.get("modifier"):
        modifier = MODIFIER_WORDS[found["modifier"]]
        bits.append(_(modifier).lower())
    return f"{tile}: {', '.join(bits)}" if bits else tile


def announce(view: dict[str, Any], effects: Sequence[Effect], i: int
             ) -> tuple[str, str, list[str]] | None:
    """(screen name, big line, detail lines) for ``effects[i]``; None: nothing of its own to
    show (a neighbour's screen or the prompt that follows says it)."""
    e = effects[i]
    kind = e["kind"]
    text = e.get("text", "")
    nxt = effects[i + 1] if i + 1 < len(effects) else {"kind": None}
    prev = effects[i - 1] if i else {"kind": None}
    who = str(e.get("player", ""))
    if kind == "turn":
        character = _player(view, who).get("character")
        line = _("your turn ({character})").format(character=data.character_name(character)) \
            if character else _("your turn")
        return "turn", who.upper(), [line, _status(view)]
    if kind == "tracker":
        space = e.get("space", 0)
        if (view.get("tracker") or {}).get("of") == space:
            return "tracker", _("10:04 P.M."), [_("tracker cube to the last space")]
        return "tracker", _("TRACKER {n}").format(n=space), [
            _("move the cube to space {n}").format(n=space)]
    if kind == "refresh":
        return "refresh", who.upper(), [_("turn your tiles and items face up")]
    if kind == "draw":
        deck = e.get("deck", "")
        if deck == "tile":
            return "draw", _("DRAW"), [_("{player}: 1 Power Tile").format(player=who)]
        return "draw", _("DRAW"), [_(DRAW_WORDS[deck]) if deck in DRAW_WORDS else text]
    if kind == "movement":
        return "movement", _("MOVEMENT"), [_("card {card}").format(card=e.get("card", ""))]
    if kind == "npc":
        npc = _npc(e["npc"])
        steps = e.get("steps", 0)
        place = _place(view, e.get("place"))
        if steps and e.get("toward"):
            return "npc", npc, [ngettext("{n} step to {npc}", "{n} steps to {npc}", steps)
                                .format(n=steps, npc=data.npc_name(e["toward"])), f"({place})"]
        if steps:
            return "npc", npc, [ngettext("{n} step to", "{n} steps to", steps).format(n=steps),
                                place]
        if e["npc"] == "biff" and prev["kind"] != "movement" and "down" in text.lower():
            return "npc", npc, [_("knocked down: he stays")]
        return "npc", npc, [_("stays at {place}").format(place=place)]
    if kind == "love":
        delta = e.get("delta", 0)
        cause = [_("Biff is with them")] if prev["kind"] == "biff_love" else []
        if delta:
            return "love", _("LOVE {n:+d}").format(n=delta), cause + [
                _("cube to space {n}").format(n=e.get("space", 0))]
        return "love", _("LOVE"), cause + [_("no change: the cube is at the end")]
    if kind == "biff_love":
        return None  # on the Love screen that follows
    if kind == "love_check":
        if e.get("zone") == "heart":
            return "love_check", _("LOVE CHECK"), [_("Heart Zone: no photo flips")]
        return None  # the photo screen that follows says it
    if kind in ("photo", "photo_up"):
        n = e.get("count", 0)
        check = [_("love check")] if prev["kind"] == "love_check" else []
        if kind == "photo":
            left = e.get("left", 0)
            line = _("love check, {n} left").format(n=left) if check else \
                _("{n} left face up").format(n=left)
            return "photo", ngettext("FLIP {n} PHOTO", "FLIP {n} PHOTOS", n).format(n=n), [line]
        if n:
            return "photo", ngettext("{n} PHOTO UP", "{n} PHOTOS UP", n).format(n=n), \
                [_("flip it face up") if n == 1 else _("flip them face up")]
        return "photo", _("PHOTOS"), [_("all are face up already")]
    if kind == "delorean":
        return "delorean", _("DELOREAN {n:+d}").format(n=e.get("delta", 0)), [
            _("to {place}").format(place=_place(view, e.get("place")))]
    if kind == "delorean_blocked":
        return "delorean", _("DELOREAN"), [_("stops at Doc's House:"), _("it needs all 3 Parts")]
    if kind == "delorean_end":
        return "delorean", _("DELOREAN"), [_("at the end of its track")]
    if kind == "result":
        if nxt["kind"] in ("love", "delorean", "knockdown"):
            return None  # the move that follows says it
        if "success" in e:
            return "result", _("SUCCESS!") if e["success"] else _("FAILED"), []
        return "result", _("NO SYMBOL"), [_("nothing moves")]
    if kind == "knockdown":
        return "knockdown", _("BIFF DOWN!"), [_("lay his mover down")]
    if kind == "tokens":
        n = e.get("tokens", 0)
        return "tokens", _("+{n} TOKENS").format(n=n), [
            ngettext("put {n} Knockdown Token on Biff", "put {n} Knockdown Tokens on Biff", n)
            .format(n=n)]
    if kind == "token_off":
        return "tokens", _("TOKEN OFF"), [_("Biff die: take 1 Knockdown Token off Biff")]
    if kind == "biff_up":
        return "biff", _("BIFF UP!"), [_("Biff die: stand his mover up")]
    if kind == "part":
        return "part", _("PART: {part}").format(part=data.part_name(e.get("part", "")).upper()),\
            [_("flip the tile, put it at Doc's House")]
    if kind == "discard_card":
        return "discard", _("DISCARD"), [str(e.get("name") or e.get("card", ""))]
    if kind == "trouble_discard":
        return "discard", _("DISCARD"), [str(e.get("name") or e.get("card", "")),
                                         _("not resolved")]
    if kind in ("opportunity", "trouble"):
        name = _("OPPORTUNITY") if kind == "opportunity" else _("TROUBLE")
        return kind, name, [str(e.get("name") or e.get("card", "")),
                            _("at {place}").format(place=_place(view, e.get("place")))]
    if kind == "tile":
        return "tile", _("{player}: +TILE").format(player=who.upper()), [
            _tile_words(view, who, e.get("tile", "")), _("face up")]
    if kind == "item":
        item = next((i for i in _player(view, who).get("items", []) if i["id"] == e.get("item")),
                    None)
        if item:
            return "item", _("{player}: +ITEM").format(player=who.upper()), [
                item["name"], _("face down for now")]
        return "item", _("ITEM"), [_("none left to take")]
    if kind == "limit":
        return "limit", who.upper(), [_("too many tiles:"), _("return 1 to the box")]
    if kind == "discard":
        return "discard", _("RETURN TILE"), [
            _("{player}: {tile} to the box").format(player=who, tile=e.get("tile", ""))]
    if kind == "shuffle":
        return "shuffle", _("SHUFFLE"), [_("the Movement discards: a new pile")]
    if kind == "empty":
        return "empty", _("EMPTY"), [text]
    if kind == "character":
        return "character", who.upper(), [
            _("plays {name}").format(name=data.character_name(e.get("character", "marty"))),
            _("5 starter tiles face up")]
    if kind == "setup":
        return "setup", _("SETUP"), _pieces(text)
    if kind == "challenge":
        return "challenge", rules.challenge_name(e["challenge"]).upper(), [
            _("{player}: pick dice").format(player=who)]
    if kind == "add":
        return "add", word(e.get("colour", "")), [_("{player} adds a die").format(player=who)]
    if kind == "cancel":
        return "cancel", _("CALLED OFF"), [_("the tiles turn back up")]
    if kind == "reroll":
        dice = (view.get("challenge") or {}).get("dice", [])
        names = [word(dice[i]["colour"]) for i in e.get("dice", []) if i < len(dice)]
        return "reroll", _("REROLL"), [", ".join(names), ngettext(
            "roll it again", "roll them again", len(names))]
    if kind == "modify":
        mod = e.get("modifier", "")
        return "modify", _(MODIFIER_WORDS[mod]) if mod in MODIFIER_WORDS else _("MODIFY"), \
            [text]
    if kind == "move":
        return "move", who.upper(), [ngettext("may move {n} space", "may move up to {n} spaces",
                                              e.get("spaces", 0)).format(n=e.get("spaces", 0))]
    if kind == "step":
        place = _("to {place}").format(place=_place(view, e.get("place")))
        if e.get("escort"):
            return "step", who.upper(), [_("with {npc}").format(npc=_npc(e["escort"])), place]
        return "step", who.upper(), [place]
    if kind == "escort":
        return "escort", who.upper(), [_("escorts {npc}").format(npc=_npc(e.get("npc", "")))]
    if kind == "drop":
        return "drop", _npc(e.get("npc", "")), [
            _("stays at {place}").format(place=_place(view, e.get("place")))]
    if kind == "power":
        head, sep, _rest = text.partition("! ")
        mover = _npc(e["npc"]) if e.get("npc") else who.upper()
        return "power", mover, [(head.title() + "!") if sep else _("a power"),
                                _("to {place}").format(place=_place(view, e.get("place")))]
    if kind == "lightning":
        return "lightning", _("10:04 P.M."), [_("lightning strikes the Clock Tower")]
    if kind == "final_turn":
        return "lightning", _("10:04 P.M."), [_("last turn: lightning strikes at its end")]
    if kind in ("ready", "lock"):
        return None  # the roll prompt / the roll screen say it
    if kind in ("undo", "redo"):  # the table's own: "UNDONE: ROLL ..."
        head, sep, rest = text.partition(": ")
        return kind, head if sep else (_("UNDONE") if kind == "undo" else _("REDONE")), \
            [rest or text]
    return kind, kind.upper(), [text]  # an effect this display does not know yet, readable


def over(view: dict[str, Any]) -> list[Image.Image]:
    """The end: won together, or lost and why."""
    if view.get("result") == "won":
        return say(_("YOU WIN!"), _("back to 1985, all of you"))
    return say(_("GAME LOST"), *_pieces(view.get("reason") or ""))


def over_prompt(view: dict[str, Any], hint: str) -> Image.Image:
    """The end as it stays up: won or lost (big), as much of why as fits, and ``hint`` (what
    to press now: "CONFIRM: new game") small at the bottom."""
    won = view.get("result") == "won"
    main = _("YOU WIN!") if won else _("GAME LOST")
    details = [_("back to 1985, all of you")] if won else _pieces(view.get("reason") or "")
    small = detail()
    with frame() as p:
        bottom = shared.hint_line(p, hint)
        width = p.width - 2 * MARGIN
        size, mains = _main_lines(width, main)
        mains = mains[:2]
        lines: list[str] = []
        for d in details:  # whole details, as many as fit above the hint
            more = wrap(d, width, small)
            need = _block(size, len(mains)) + GAP + _block(small, len(lines) + len(more)) + \
                line_height(small) - cap_height(small) - 1
            if need > bottom - MARGIN:
                break
            lines += more
        block = _block(size, len(mains)) + (GAP + _block(small, len(lines)) if lines else 0)
        y = max(MARGIN, (bottom - block) // 2)
        y = p.lines(mains, y, size, bold=True) - line_height(size) + cap_height(size) + GAP
        p.lines(lines, y, small)
    return p.image


def named_screens_for(view: dict[str, Any], effects: Sequence[Effect]
                      ) -> list[tuple[str, Image.Image]]:
    """The screens to show after ``effects``, named, in the order things happen; the last one
    stays up.

    >>> effects = [{"kind": "love", "text": "LOVE +2", "delta": 2, "space": 7}]
    >>> [name for name, _img in named_screens_for({}, effects)]
    ['love']
    """
    out: list[tuple[str, Image.Image]] = []
    for i, e in enumerate(effects):
        kind = e["kind"]
        if kind == "roll":
            challenge = view.get("challenge")
            dice = [f"{d['colour']}:{d['face']}" for d in (challenge or {}).get("dice", [])] \
                or [f"{d['colour']}:{d['face']}" for d in e.get("dice", [])]
            out.append(("roll", roll(challenge, dice)))
            continue
        if kind in ("win", "lose"):
            out += [(kind, img) for img in over({**view, "result": "won" if kind == "win" else
                                                 "lost", "reason": e.get("reason")})]
            continue
        said = announce(view, effects, i)
        if said is None:
            continue
        name, main, details = said
        out += [(name, img) for img in say(main, *details)]
    return out


def screens_for(view: dict[str, Any], effects: Sequence[Effect]) -> list[Image.Image]:
    return [img for _name, img in named_screens_for(view, effects)]


# --------------------------------------------------------------------------- the title's part

LIGHT_EFFECTS = {"love": "ripple", "knockdown": "ripple", "part": "ripple", "delorean": "ripple",
                 "photo": "stall", "biff_love": "stall", "lose": "paradox",
                 "lightning": "paradox", "win": "win"}

# The screens the whole table reads: whose turn, the tracker phase, a roll, what changed on the
# board, what to move, flip or draw, the end.
TABLE_SCREENS = frozenset({
    "turn", "tracker", "draw", "movement", "npc", "love", "love_check", "photo", "delorean",
    "roll", "roll_prompt", "propose", "result", "knockdown", "tokens", "biff", "part",
    "discard", "opportunity", "trouble", "tile", "item", "limit", "refresh", "shuffle",
    "empty", "setup", "lightning", "win", "lose", "challenge", "add", "reroll", "modify",
    "cancel", "undo", "redo",
})


def prompt_screen(prompt, view: dict[str, Any], session) -> Image.Image | None:
    """The screen for the prompt up now (None: the shared one)."""
    challenge = view.get("challenge")
    if prompt.kind == "roll":
        again = bool(challenge) and any(d["face"] for d in challenge["dice"])
        return roll_prompt(prompt.title, prompt.dice, challenge, view.get("turn") or "", again)
    if prompt.kind == "propose":
        return propose(session, view)
    if prompt.kind == "rolled":
        menu = getattr(session, "menu", None)
        chosen = menu.actions[menu.selected] if menu and menu.labels == prompt.options else None
        marks = chosen[0].get("dice", []) if isinstance(chosen, list) and chosen and \
            chosen[0].get("type") == "reroll" else []
        return rolled_menu(prompt.dice, prompt.options, prompt.selected, marks)
    if prompt.kind == "over":
        return over_prompt(view, prompt.lines[0] if prompt.lines else "")
    return None


def propose(session, view: dict[str, Any]) -> Image.Image:
    """A read roll to CONFIRM: every die of the challenge as it will be, Biffs locked."""
    challenge = view.get("challenge") or {}
    rolled = next((a["dice"] for a in session.proposal or [] if a["type"] == "roll"), [])
    rolled = [d if isinstance(d, str) else f"{d['colour']}:{d['face']}" for d in rolled]
    todo = list(challenge.get("to_roll", []))
    dice = [f"{d['colour']}:{d['face']}" for d in challenge.get("dice", [])]
    pool = list(rolled)
    for i in todo:  # each rolled die takes the place of a die of its colour to roll
        colour = challenge["dice"][i]["colour"]
        j = next((k for k, r in enumerate(pool) if split(r)[0] == colour), None)
        if j is not None and i < len(dice):
            dice[i] = pool.pop(j)
    dice += pool
    biffs = sum(1 for d in dice if split(d)[1] == "biff")
    footer = _("CONFIRM?") if not biffs else ngettext(
        "{n} BIFF - CONFIRM?", "{n} BIFFS - CONFIRM?", biffs).format(n=biffs)
    return roll(challenge, dice, footer)


# --------------------------------------------------------------------------- samples


def _sample_challenge(kind: str = "love", stage: str = "rolled") -> dict[str, Any]:
    symbol = {"love": "love", "delorean": "speed", "biff": "courage"}.get(kind)
    need = {symbol: 1} if symbol else {"knowledge": 2}
    dice = [{"colour": "love", "face": "love"}, {"colour": "love", "face": "biff"},
            {"colour": "speed", "face": "wild"}]
    return {"kind": kind, "target": None, "need": need, "symbol": symbol, "stage": stage,
            "dice": [{**d, "player": "Ana", "locked": d["face"] == "biff"} for d in dice],
            "to_roll": [0, 1, 2] if stage == "roll" else [], "rerolled": False,
            "odds": {"chance": 0.9722, "need": need, "at_least": [0.9722, 0.6944]}}


def sample_view() -> dict[str, Any]:
    return {"title": "back_in_time", "phase": "play", "turn": "Ana",
            "tracker": {"space": 5, "of": 21, "final": False},
            "love": {"space": 5, "zone": "plain", "bottom": -3, "top": 15}, "photos": 6,
            "players": [{"name": "Ana", "character": "marty", "items": [],
                         "tiles": [{"id": "t-07", "move": 2, "die": "love", "modifier": None,
                                    "up": True}]},
                        {"name": "Esmeralda", "character": "doc", "tiles": [], "items": []}],
            "places": {"clock-tower": "Clock Tower", "river-rd": "River Rd", "elm-st": "Elm St",
                       "main-st-1": "Main St 1"},
            "challenge": _sample_challenge(), "result": None, "reason": None}


def catalogue() -> list[tuple[str, Image.Image]]:
    """Every kind of Back in Time screen with sample data, named (``companion screens``)."""
    view = sample_view()
    effects: list[Effect] = [
        {"kind": "turn", "text": "Ana's turn", "player": "Ana"},
        {"kind": "tracker", "text": "TURN TRACKER to space 5 of 21", "space": 5},
        {"kind": "draw", "text": "DRAW 1 Movement card", "deck": "movement"},
        {"kind": "movement", "text": "MOVEMENT card mv-03", "card": "mv-03"},
        {"kind": "npc", "text": "GEORGE 1 step to Clock Tower", "npc": "george", "steps": 1,
         "place": "clock-tower"},
        {"kind": "npc", "text": "BIFF 1 step to George (River Rd)", "npc": "biff", "steps": 1,
         "place": "river-rd", "toward": "george"},
        {"kind": "love_check", "text": "LOVE CHECK: 1 photo", "zone": "plain"},
        {"kind": "photo", "text": "FLIP 1 PHOTO", "count": 1, "left": 5},
        {"kind": "love", "text": "LOVE +2", "delta": 2, "space": 7},
        {"kind": "delorean", "text": "DELOREAN +1 to Elm St", "delta": 1, "place": "elm-st"},
        {"kind": "knockdown", "text": "KNOCK BIFF DOWN (lay his mover down)"},
        {"kind": "tokens", "text": "PUT 2 KNOCKDOWN TOKENS on Biff", "tokens": 2},
        {"kind": "result", "text": "FAILED", "success": False},
        {"kind": "part", "text": "FLIP the Cable tile and put it at Doc's House",
         "part": "cable"},
        {"kind": "trouble", "text": "TROUBLE Demo trouble 1-2 at Main St 1", "card": "tr1-2",
         "name": "Demo trouble 1-2", "place": "main-st-1"},
        {"kind": "tile", "text": "Ana takes Power Tile t-07 (move 2 / love die) face up",
         "player": "Ana", "tile": "t-07"},
        {"kind": "setup", "text": "GEORGE at George's House, LORRAINE at Lorraine's House, "
                                  "BIFF at Clock Tower"},
        {"kind": "lightning", "text": "10:04 p.m.: LIGHTNING STRIKES THE CLOCK TOWER"},
    ]
    out: list[tuple[str, Image.Image]] = []
    for i, (name, img) in enumerate(named_screens_for(view, effects)):
        out.append((f"{name}_{i}", img))
    challenge = view["challenge"]
    dice = [f"{d['colour']}:{d['face']}" for d in challenge["dice"]]
    out += [
        ("roll", roll(challenge, dice)),
        ("roll_many", roll(_sample_challenge("part"), [
            "love:love", "love:wild", "speed:speed", "speed:biff", "courage:courage",
            "courage:wild", "knowledge:knowledge", "knowledge:biff"])),
        ("roll_unsure", roll(challenge, ["love:love", "love:?", "speed:wild"])),
        ("propose", roll(challenge, dice, _("1 BIFF - CONFIRM?"))),
        ("roll_prompt", roll_prompt(_("{player}: ROLL!").format(player="ANA"),
                                    ["love", "love", "speed"], _sample_challenge(stage="roll"))),
        ("roll_prompt_2", roll_prompt(_("{player}: ROLL AGAIN!").format(player="ESMERALDA"),
                                          ["speed", "courage"], None, "Esmeralda", True)),
        ("rolled_menu", rolled_menu(["love:love", "love:biff", "speed:speed"], [
            _("REROLL {dice}: {p}").format(dice=word("speed"), p="33%"),
            _("RESOLVE: {n} {symbol}").format(n=1, symbol=word("love")), _("MODIFY")], 0,
            marks=[2])),
        ("menu", shared.menu(_("{player}: CHOOSE").format(player="ANA"), [
            _("CHALLENGE"), _("MOVE"), _("THIS IS HEAVY"), _("END TURN")], 1)),
        ("face_picker", shared.menu(_("DIE {number}: WHICH FACE?").format(number=2), [
            f"{word('love')} {word(face)}" for face in ("love", "wild", "biff")], 1)),
    ]
    out += [(f"win_{i}", img) for i, img in enumerate(over({"result": "won"}))]
    out.append(("win_prompt", over_prompt({"result": "won"}, _("CONFIRM: new game"))))
    out += [(f"lose_{i}", img) for i, img in enumerate(over({
        "result": "lost", "reason": "Love is not in the Heart Zone; the DeLorean is not in the "
                                    "Ready Zone"}))]
    return out


__all__ = ["LIGHT_EFFECTS", "TABLE_SCREENS", "catalogue", "die", "dice_row", "named_screens_for",
           "over_prompt", "prompt_screen", "roll", "roll_prompt", "say", "screens_for"]
