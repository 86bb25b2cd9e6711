"""OUTATIME's screens: whose turn, the roll, locks, ripples, paradoxes, stalls, the scoreboard.

Drawn with the shared layout (``companion.display.screens``) and laid out by the panel's size.
Every screen the whole table reads (``TABLE_SCREENS``) keeps the readability rule of
``docs/display.md``: its main line is 6 mm tall and every other word 4 mm on the recommended
panel; what does not fit goes on the following screen. ``named_screens_for`` turns a batch of
effects into the screens to show, in the order things happen.

    >>> img = turn("Ana")
    >>> img.size, img.mode
    ((128, 64), '1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.display import glyphs
from companion.display import screens as shared
from companion.display.draw import (
    cap_height,
    fits,
    frame,
    line_height,
    rule_sizes,
    shorten,
    splits_words,
    text_width,
)
from companion.display.screens import (
    TAB,
    announce,
    big_word,
    fitted,
    gains_pages,
    glitch,
    main_sizes,
    main_width,
    menu,
    pages,
)
from companion.display.screens import ink as _ink
from companion.i18n import _, ngettext
from companion.titles.outatime.rules import FACES

# The screens the whole table reads, by name (as ``named_screens_for`` and ``catalogue`` name
# them): each keeps the readability rule (tests/test_conformance.py).
TABLE_SCREENS = frozenset({
    "players", "players_2", "players_4", "players_6", "turn", "turn_long_name",
    "turn_doubleback", "roll", "roll_3", "roll_unknown", "lock", "lock_paradox",
    "locked_many_ripples", "ripple", "ripple_6", "instruction", "instruction_left",
    "instruction_right", "odds", "paradox", "paradox_big", "stall", "stall_no_loss", "complete",
    "card_complete", "win", "winner", "winner_long_name", "six", "notice_six", "doubleback",
    "no_die", "last", "next", "setup", "undo", "redo",
})


def loud(name: str) -> str:
    """A player's name in capitals ("ANA"), or as written when the capitals of one of its words
    are too wide for the main line (capitals are wider: "ESMERALDA" is, "Esmeralda" is not)."""
    upper = name.upper()
    if splits_words(upper, main_width(), main_sizes()[-1], True):
        return name
    return upper


def _ways(message: str, name: str) -> list[str]:
    """``message`` (with a {player} field) with the name in capitals, then as written: for
    ``announce``, which shows the first that fits in letters the whole table reads."""
    return [message.format(player=name.upper()), message.format(player=name)]


def _name_size(text: str, width: int) -> tuple[str, int]:
    """(text, size) for ``_name_line``: as big as the main line when it fits, else smaller
    but never under the other words' size unless nothing else fits; shortened visibly last."""
    sizes = [*main_sizes(), *[s for s in (18, 16, 15, 14, 12, 10, 9, 8) if s < main_sizes()[-1]]]
    size = next((s for s in sizes if fits(text, width, s, True)), None)
    if size is None:
        size = sizes[-1]
        text = shorten(text, width, size, True)
    return text, size


def _name_line(p, text: str, y: int, width: int, x0: int = 0) -> int:
    """A name (or a short line) in bold, as big as the main line when it fits, else smaller
    but never under the other words' size unless nothing else fits; returns its size."""
    text, size = _name_size(text, width)
    p.center(text, y, size, bold=True, x0=x0, x1=x0 + width + 4)
    return size


def turn(name: str, free_dice: int = 6, doubleback: bool = False) -> Image.Image:
    """Whose turn it is: "ANA - ROLL!" (one screen: it stays up while the dice are rolled)."""
    if doubleback:
        detail = _("DOUBLEBACK: roll {count}").format(count=free_dice)
    else:
        detail = ngettext("roll {count} dice", "roll {count} dice", free_dice).format(
            count=free_dice)
    return announce(None, _ways(_("{player} - ROLL!"), name), detail, one_page=True)[0]


def _need_die(p, x: int, y: int, size: int, need: Any, kind: str | None) -> None:
    """The number a player needs next, as a die showing it (a TD card: "TD")."""
    _main, other = rule_sizes()
    if need is None:
        label = "TD" if kind == "td" else "-"
        p.right(label, x + size, y + (size - cap_height(other)) // 2, other, bold=True)
        return
    glyphs.die(p, x, y, str(need), size, label_size=other)


def _row_name(name: str, room: int, band: int, sizes: Sequence[int], other: int
              ) -> tuple[str, int, bool]:
    """(name, size, bold) for a name in a players row: as big as fits ``room`` across and
    ``band`` pixels from the top of its highest mark to the bottom of its lowest descender,
    else the other words' size, else smaller; shortened visibly only when no size holds it."""
    def tall(size: int, bold: bool) -> int:
        top, bottom = _ink(name, size, bold)
        return bottom - top

    for size in sizes:
        bold = size != other
        if fits(name, room, size, bold) and tall(size, bold) <= band:
            return name, size, bold
    for size in (s for s in range(other - 1, 7, -1)):  # a tall font: smaller, still whole
        if fits(name, room, size) and tall(size, False) <= band:
            return name, size, False
    size = next((s for s in range(other, 7, -1) if tall(s, False) <= band), 8)
    return shorten(name, room, size), size, False


def players(view: dict[str, Any]) -> list[Image.Image]:
    """The scoreboard, as many screens as the players take: each player's name, the cards
    completed ("2/5", as big as the main line) and the number needed next, drawn as a die
    showing it ("TD" for the Temporal Displacement card). The player whose turn it is is
    highlighted.

    Names are as big as the main line where they fit their row (across, and from the marks
    above their capitals to their descenders: "Gypsy", "Jürgen"), else as big as the other
    words, and shortened visibly only when even that cannot hold them; a row never reaches
    into the next one and the highlight holds the whole name. The rows share the panel's
    height, so fewer players get bigger rows. The progress on each Active card is on the
    table itself (the Next card covers the steps done).
    """
    main, other = rule_sizes()
    big = main_sizes()[-1]
    rows = view["players"]
    with frame() as probe:
        width, height = probe.width, probe.height
    row_h = cap_height(big) + 2
    die = cap_height(big)
    labels = [r.get("needs") is None for r in rows]  # "TD" or "-" instead of a die
    need_w = max(die, text_width("TD", other, True) if any(labels) else 0)
    score_w = text_width("5/5", big, True) + 3 + need_w + 2  # the cards, then the die

    def name_room(columns: int) -> int:
        return width // columns - score_w - 4

    # A tall panel whose rows leave a name too little room: the name above its score.
    two_lines = height >= 96 and not all(fits(r["name"], name_room(1), other) for r in rows)
    name_h = 0  # two lines: the band the name is drawn in, above its score
    if two_lines:
        name_h = line_height(big) + 1
        row_h = name_h + cap_height(big) + 4
    columns = 2 if (width >= 3 * height and len(rows) > height // row_h and all(
        fits(r["name"], name_room(2), other) for r in rows)) else 1
    col_w = width // columns
    per = max(1, height // row_h) * columns
    count = -(-len(rows) // per)
    per = -(-len(rows) // count)  # as even as the screens can be: 5 players are 3 + 2
    sizes = [*main_sizes(), *[s for s in (18, 16, 15) if other < s < main_sizes()[-1]], other]
    # the tallest a row gets: room for a name in the biggest letters with its descenders
    tallest = max(row_h, _ink("Hgjy", main_sizes()[0], True)[1] + 3) if not two_lines \
        else row_h
    out = []
    for page in range(count):
        chunk = rows[page * per:(page + 1) * per]
        with frame() as p:
            lines = -(-len(chunk) // columns)
            pitch = max(row_h, min(tallest, height // lines))  # rows share the spare height
            y0 = max(0, (height - lines * pitch) // 2)
            for i, row in enumerate(chunk):
                col, line = divmod(i, lines)
                x, y = col * col_w, y0 + line * pitch
                bottom = min(height, y + pitch)  # the row's pixels are y .. bottom - 1
                room = col_w - 4 if two_lines else name_room(columns)
                # the name's pixels stay inside its band, one pixel clear of the row's edges
                band_top, band_bottom = y + 1, (y + 1 + name_h if two_lines else bottom - 1)
                name, size, bold = _row_name(row["name"], room, band_bottom - band_top, sizes,
                                             other)
                score_y = y + (pitch - cap_height(big)) // 2 if not two_lines else \
                    band_bottom + 1
                top, low = _ink(name, size, bold)
                # on the score's baseline, moved up or down the pixels its marks need
                name_y = (score_y if not two_lines else band_top) + cap_height(big) - \
                    cap_height(size)
                name_y = min(name_y, band_bottom - low)
                name_y = max(name_y, band_top - top)
                p.text((x + 2, name_y), name, size, bold=bold)
                die_x = x + col_w - 3 - die
                p.right(f"{row['cards_completed']}/5", x + col_w - 3 - need_w - 3, score_y,
                        big, bold=True)
                _need_die(p, die_x, score_y, die, row.get("needs"), row.get("active_kind"))
                if row["name"] == view.get("turn"):
                    p.invert((x, y, x + col_w - 1, bottom - 1))
        out.append(p.image)
    return out


def roll(
    dice: Sequence[str | None], player: str | None = None, selected: int | None = None,
    hint: str | None = None,
) -> Image.Image:
    """The roll as read: whose roll, one die per face (an unsure die, ``None`` or "?", as a
    filled "?"), and ``hint`` under them (default: what to do with an unsure die, else
    nothing). ``selected`` underlines the die being picked with the buttons.
    """
    dice = [glyphs.UNKNOWN if d in (None, glyphs.UNKNOWN) else str(d) for d in dice]
    unknown = sum(1 for d in dice if d == glyphs.UNKNOWN)
    if hint is None and unknown:
        hint = _("? : pick its face")
    _main, other = rule_sizes()
    who = loud(player) if player else _("ROLL")
    big = main_sizes()[-1]
    with frame() as p:
        width, height = p.width, p.height
        n = max(1, len(dice))
        gap = 1 if n >= 6 else 2
        least = max(text_width("88", other) + 4, cap_height(other) + 6)  # "88" in 4 mm letters
        name_w = text_width(who, big, True)
        name_h = cap_height(big) + 1

        def layout(side: bool, with_hint: bool) -> int:
            """The dice's size in this layout."""
            hint_h = cap_height(other) + 4 if with_hint else 0
            if side:
                return min(height - hint_h - 6, (width - name_w - 8 - (n - 1) * gap) // n)
            return min(height - name_h - hint_h - 5, (width - (n - 1) * gap) // n, 40)

        wide = width >= 3 * height
        tries = [(True, True), (False, True), (True, False), (False, False)] if wide else [
            (False, True), (False, False)]
        if not hint:
            tries = [t for t in tries if not t[1]]
        side, with_hint = next((t for t in tries if layout(*t) >= least), tries[-1])
        size = layout(side, with_hint)
        hint_h = cap_height(other) + 4 if with_hint else 0
        if side:
            top = max(1, (height - hint_h - size) // 2)
            p.text((2, top + (size - cap_height(big)) // 2), who, big, bold=True)
            x = name_w + 8 + (width - name_w - 8 - (n * size + (n - 1) * gap)) // 2
            y = top
        else:
            block = name_h + 3 + size + hint_h
            top = max(0, (height - block) // 2)
            _name_line(p, who, top + 1, width - 4)
            x = (width - (n * size + (n - 1) * gap)) // 2
            y = top + name_h + 3
        for i, face in enumerate(dice):
            glyphs.die(p, x + i * (size + gap), y, face, size, label_size=big)
            if selected == i:
                p.draw.rectangle((x + i * (size + gap), y + size + 1,
                                  x + i * (size + gap) + size - 1, y + size + 2), fill=1)
        if hint and with_hint:
            words, hint_size = fitted(hint, width - 2, other)
            p.center(words, min(height - 1 - cap_height(hint_size), y + size + 5), hint_size)
    return p.image


def _dice_row(p, dice: Sequence[str], x: int, y: int, room: int, dsize: int, gap: int,
              other: int) -> int:
    """The dice side by side from ``x`` in ``room`` pixels across; returns the width they take
    (``p`` None: only measure). Dice that do not fit are said after the ones shown, never as a
    bare "+4" that reads like a gain: "… 4 more" when there is room for it and a die, else an
    ellipsis alone after as many dice as fit."""
    step = dsize + gap
    if len(dice) * step - gap <= room:
        shown, more = list(dice), ""
    else:
        dots = glyphs.ellipsis_width(cap_height(other))
        shown, more = [], ""
        for n in range(len(dice) - 1, 0, -1):  # as many dice as fit with "… 4 more"
            words = ngettext("{count} more", "{count} more", len(dice) - n).format(
                count=len(dice) - n)
            if n * step + dots + 3 + text_width(words, other) <= room:
                shown, more = list(dice[:n]), words
                break
        if not shown:  # no room for the words: an ellipsis after as many dice as fit
            shown = list(dice[:max(1, (room - dots) // step)])
    used = len(shown) * step
    if len(shown) < len(dice):
        used += glyphs.ellipsis_width(cap_height(other))
        if more:
            used += 3 + text_width(more, other)
    if p is None:
        return used
    for i, face in enumerate(shown):
        glyphs.die(p, x + i * step, y, face, dsize, label_size=other)
    if len(shown) < len(dice):
        text_y = y + (dsize - cap_height(other)) // 2
        at = x + len(shown) * step
        at += glyphs.ellipsis(p, at, text_y + cap_height(other), cap_height(other))
        if more:
            p.text((at + 3, text_y), more, other)
    return used


def lock(
    dice: Sequence[str],
    steps: int,
    player: str | None = None,
    ripples: Sequence[tuple[str, int]] = (),
    paradox: int = 0,
    confirmed: bool = False,
) -> Image.Image:
    """The lock proposal ("LOCK flux 3 4: ANA +2, RIPPLE Ben +1, CONFIRM?"), or the lock once
    confirmed (the ripple and paradox screens follow it).

    ``ripples`` are (name, spaces) of other players; ``paradox`` is 1 or 2 when the lock makes one.
    """
    main, other = rule_sizes()
    with frame() as p:
        width, height = p.width, p.height
        label, label_size = fitted(_("LOCKED") if confirmed else _("LOCK"), width // 2, other,
                                   True)
        dsize, gap = max(cap_height(other) + 5, text_width("88", other) + 4, 15), 2
        label_w = text_width(label, label_size, True)
        row_w = label_w + 6 + _dice_row(None, dice, 0, 0, width - label_w - 8, dsize, gap,
                                        other)
        # The name when it fits beside the steps in the main line's letters; else the steps.
        ways = [f"{player.upper()} +{steps}", f"{player} +{steps}"] if player else []
        main_text = next((w for w in ways if fits(w, width - 4, main_sizes()[-1], True)),
                         f"+{steps}")
        if not steps and paradox:
            main_text = _("PARADOX +{steps}").format(steps=paradox)
        items = [f"{n} {g:+d}" for n, g in ripples]
        lines: list[str] = []
        if items:
            # Translators: the first of the players a lock ripples to, e.g. "RIPPLE Ben +1".
            first = _("RIPPLE {gain}").format(gain=items[0])
            text = ", ".join([first, *items[1:]])
            if not fits(text, width - 4, other):  # too many to list: their screens follow
                text = ngettext("RIPPLE: {count} player", "RIPPLE: {count} players",
                                len(ripples)).format(count=len(ripples))
            lines.append(text)
        if paradox and steps:
            lines.append(_("then PARADOX +{steps}").format(steps=paradox))
        if not confirmed:
            lines.append(_("CONFIRM?"))
        # Side by side on a wide panel: the dice row, then the main line on the same row.
        main_size = main_sizes()[-1]
        main_w = text_width(main_text, main_size, True)
        side = width >= 3 * height and row_w + 10 + main_w <= width
        row_h = max(dsize, cap_height(main_size) if side else 0)
        # the main line's height down to its descenders ("Jennifer"), so nothing under it
        # touches them
        main_h = 0 if side else max(cap_height(main_size), _ink(main_text, main_size, True)[1])
        under, under_size = _name_size(main_text, width - 4)
        if not side and main_h:
            main_h = max(cap_height(under_size), _ink(under, under_size, True)[1])
        gap_y = 3
        room = height - 2 - row_h - (gap_y + main_h if main_h else 0) - 3
        keep = max(0, (room - cap_height(other)) // line_height(other) + 1) if room > 0 else 0
        order = ([ln for ln in lines if ln == _("CONFIRM?")]
                 + [ln for ln in lines if ln != _("CONFIRM?")][::-1])
        beside = ""  # a wide panel with no room under the main line: a line beside it
        if not side and keep == 0 and order and width >= 3 * height and fits(
                main_text, width - 12 - text_width(order[0], other), main_size, True):
            beside = order[0]
        if len(lines) > keep:  # the proposal keeps CONFIRM?; a paradox outranks the ripples
            lines = [ln for ln in lines if ln in order[:keep]]
        fitted_lines = [fitted(ln, width - 4, other) for ln in lines]
        text_h = sum(line_height(size) for _ln, size in fitted_lines)
        text_h += gap_y - (line_height(fitted_lines[-1][1]) - cap_height(fitted_lines[-1][1])
                           if fitted_lines else gap_y)
        block = row_h + (gap_y + main_h if main_h else 0) + text_h
        y = max(0, (height - block) // 2)
        p.text((2, y + (dsize - cap_height(label_size)) // 2), label, label_size, bold=True)
        _dice_row(p, dice, label_w + 6, y, width - label_w - 8, dsize, gap, other)
        if side:
            p.right(main_text, width - 2, y + (row_h - cap_height(main_size)) // 2, main_size,
                    bold=True)
            y += row_h
        elif beside:
            y += row_h + gap_y
            main_w = text_width(main_text, main_size, True)
            words_w = text_width(beside, other)
            x0 = (width - main_w - 10 - words_w) // 2
            p.text((x0, y), main_text, main_size, bold=True)
            p.text((x0 + main_w + 10, y + cap_height(main_size) - cap_height(other)), beside,
                   other)
            y += main_h
        else:
            y += row_h + gap_y
            _name_line(p, main_text, y, width - 4)
            y += main_h
        y += gap_y
        for text, size in fitted_lines:
            p.center(text, y, size)
            y += line_height(size)
    return p.image


def refusal(reason: str) -> list[Image.Image]:
    """Why the dice cannot be locked ("the flux must go on the DeLorean"), paged."""
    return pages(_("CAN'T LOCK"), reason)


def ripple(number: int | str, gains: Sequence[tuple[str, int]]) -> list[Image.Image]:
    """The ripple of a number: "RIPPLE: 4", then "Ana +1, Ben +1" (all who gain, merged),
    over as many screens as the players take."""
    return gains_pages(_("RIPPLE: {number}").format(number=number), gains)


def instruction(player: str, spaces: int) -> Image.Image:
    """What to do with the physical cards: "BEN", "move Next card", "1 LEFT" with an arrow."""
    main, other = rule_sizes()
    n = abs(spaces)
    if spaces > 0:
        text = ngettext("{count} RIGHT", "{count} RIGHT", n).format(count=n)
    else:
        text = ngettext("{count} LEFT", "{count} LEFT", n).format(count=n)
    with frame() as p:
        width, height = p.width, p.height
        name = loud(player)
        big = main_sizes()[-1]
        arrow = cap_height(big) * 2
        move, move_size = fitted(_("move Next card"), width - 2, other)
        text, size = fitted(text, width - 8 - arrow, big, True)
        tw = text_width(text, size, True)
        stacked = cap_height(big) + 4 + cap_height(move_size) + 4 + cap_height(size)
        if stacked <= height - 2:  # the name, what to move, where
            y = (height - stacked) // 2
            _name_line(p, name, y, width - 4)
            p.center(move, y + cap_height(big) + 4, move_size)
            y += cap_height(big) + 4 + cap_height(move_size) + 4
            x = (width - (tw + 6 + arrow)) // 2
        elif fits(name, width - tw - arrow - 20, big, True):  # a wide panel: name and where
            row = cap_height(big)  # on one row, what to move under them
            y = max(1, (height - (row + 4 + cap_height(move_size))) // 2)
            p.text((2, y), name, big, bold=True)
            p.center(move, y + row + 4, move_size)
            x = width - 2 - (tw + 6 + arrow)
        else:  # a long name: the name, then where (the arrow says what to move)
            y = max(1, (height - 2 * cap_height(big) - 6) // 2)
            _name_line(p, name, y, width - 4)
            y += cap_height(big) + 6
            x = (width - (tw + 6 + arrow)) // 2
        mid = y + cap_height(size) // 2
        if spaces > 0:
            p.text((x, y), text, size, bold=True)
            glyphs.arrow(p, x + tw + 6 + arrow // 2, mid, 1, arrow)
        else:
            glyphs.arrow(p, x + arrow // 2, mid, -1, arrow)
            p.text((x + arrow + 6, y), text, size, bold=True)
    return p.image


def odds(odds: dict[str, Any], player: str | None = None) -> Image.Image:
    """The odds for the player deciding whether to roll again (from ``view["odds"]``): the
    chance of a stall big, then the expected steps and what a stall costs where they fit."""
    free = odds["free_dice"]
    stall = round(100 * odds["stall"])
    header = ngettext("ROLL {count} MORE?", "ROLL {count} MORE?", free).format(count=free)
    if player:
        with_name = ngettext("{player}: ROLL {count} MORE?", "{player}: ROLL {count} MORE?",
                             free).format(player=player.upper(), count=free)
        if fits(with_name, main_width(), rule_sizes()[1]):  # the name when there is room
            header = with_name
    return announce(
        header,
        _("STALL {percent}%").format(percent=stall),
        [
            _("expect +{steps} steps").format(steps=f"{odds['expected_steps']:.1f}"),
            _("a stall costs {steps}").format(steps=odds.get("stall_loss", 1)),
        ],
        one_page=True,
    )[0]


def card_complete(name: str, count: int, detail: str = "") -> list[Image.Image]:
    """A card completed: "CARD COMPLETE!", "BEN 3/5" (and ``detail`` on a screen of its own
    when it does not fit)."""
    return announce(_("CARD COMPLETE!"), f"{loud(name)} {count}/5", [detail] if detail else [])


def face_picker(die: int, selected: int = 0):
    """The menu to pick an unsure die's face (die numbered from 1)."""
    return shared.face_picker(die, [(_("flux capacitor") if f == "flux" else f) for f in FACES],
                              selected)


def paradox(
    player: str, gain: int = 1, losses: Sequence[tuple[str, int]] = ()
) -> list[Image.Image]:
    """Paradox animation: flash, inverse flash, tear, then the result ("ANA +1", "Ben -1"; many
    losses on screens of their own)."""
    word = _("PARADOX!")
    plain = big_word(word)
    frames = [plain, big_word(word, invert=True), glitch(plain, (-6, 4, -2, 7, -5, 3, -8, 2))]
    lost = [(n, -m) for n, m in losses]
    result = announce(word, f"{loud(player)} +{gain}",
                      ", ".join(f"{n} {g:+d}" if g else f"{n} 0" for n, g in lost),
                      one_page=len(losses) > 2)
    frames += result
    if len(losses) > 2:  # many opponents: their losses get screens of their own
        frames += gains_pages(_("PARADOX: LOSSES"), lost)
    return frames


def stall(player: str, loss: int = 1, moved: int | None = None) -> list[Image.Image]:
    """Stall animation: the DeLorean drives in, sputters, stops; then what it cost, said once
    ("STALL", "ANA -1"; "STALL", "BEN", "no loss: at card start")."""
    moved = loss if moved is None else moved
    frames = []
    for i, (dx, trails, puffs) in enumerate(((-54, True, 0), (-4, True, 1), (0, False, 2))):
        with frame() as p:
            width, height = p.width, p.height
            word, size = fitted(_("STALL") + "." * (i + 1), width - 2, main_sizes()[-1], True)
            block = 31 + 4 + cap_height(size)
            top = max(0, (height - block) // 2)
            x = (width - 100) // 2 + dx
            glyphs.delorean(p, x, top + (i == 2), scale=1.0, trails=trails)
            for k in range(puffs):  # exhaust puffs behind the car
                r = 3 + 2 * k
                cx = x - 4 - 8 * k
                cy = top + 18 - 4 * k
                p.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=1)
            p.center(word, top + 35, size, bold=True)
        frames.append(p.image)
    if moved:
        frames += announce(_("STALL"), f"{loud(player)} -{moved}")
    else:
        frames += announce(_("STALL"), loud(player), _("no loss: at card start"))
    return frames


# --------------------------------------------------------------------------- announcements
# What to show after an action: ``screens_for(view, effects)`` turns the engine's effects and the
# new public view into the screens to show, in order, so the daemon only has to show them.
# Merging: ripples of the same number in one batch become one notice ("RIPPLE: 4 -> Ana +1,
# Ben +1"); instructions for the same player become one ("DOC: Next card 2 right") unless that
# player completes a card in between; the advances of a lock are summed on the lock screen; the
# losses of a paradox are shown on its last frame.

Effect = dict[str, Any]


def _ripple_groups(effects: Sequence[Effect]) -> dict[int, list[tuple[str, int]]]:
    """Ripple gains by number, in order of first appearance; gains per player summed."""
    groups: dict[int, dict[str, int]] = {}
    for e in effects:
        if e["kind"] == "ripple":
            names = groups.setdefault(e["number"], {})
            names[e["player"]] = names.get(e["player"], 0) + 1
    return {n: list(g.items()) for n, g in groups.items()}


def lock_summary(effects: Sequence[Effect]) -> dict[str, Any] | None:
    """The lock in ``effects`` as the lock screen's arguments (dice, steps, player, ripples,
    paradox), or None. Useful for a proposal: apply the lock to a copy of the state and pass
    the effects here.
    """
    start = next((i for i, e in enumerate(effects) if e["kind"] == "lock"), None)
    if start is None:
        return None
    lock = effects[start]
    rest = []
    for e in effects[start + 1 :]:
        if e["kind"] in ("lock", "turn"):
            break
        rest.append(e)
    player = lock.get("player")
    steps = sum(1 for e in rest if e["kind"] == "advance" and e.get("player") == player)
    ripples: dict[str, int] = {}
    for e in rest:
        if e["kind"] == "ripple":
            ripples[e["player"]] = ripples.get(e["player"], 0) + 1
    paradox = next((e.get("size", 1) for e in rest if e["kind"] == "paradox"), 0)
    return {
        "dice": list(lock.get("dice", [])),
        "steps": steps,
        "player": player,
        "ripples": list(ripples.items()),
        "paradox": paradox,
    }


def _status(view: dict[str, Any]) -> list[tuple[str, Image.Image]]:
    """The screen that stays up: a decision to make, the odds, or whose turn it is."""
    pending = view.get("pending") or []
    if pending:
        d = pending[0]
        who = str(d.get("player", "")).upper()
        if d.get("decision") == "next":
            title = _("{player}: NEXT CARD").format(player=who)
            return [("menu_next", shared.menu(title, d["options"], 0))]
        if d.get("decision") == "target":
            title = _("{player}: WHO LOSES 1?").format(player=who)
            return [("menu_target", shared.menu(title, d["options"], 0))]
        title = _("{player}: CHOOSE").format(player=who)
        return [("menu", shared.menu(title, d.get("options", []), 0))]
    if view.get("odds"):
        return [("odds", odds(view["odds"], view.get("turn")))]
    return []


def named_screens_for(
    view: dict[str, Any], effects: Sequence[Effect]
) -> list[tuple[str, Image.Image]]:
    """Like ``screens_for`` with a short name for each screen (for files and logs).

    >>> players = [{"name": n, "cards_completed": 0, "step": 0, "steps": 3, "needs": 2}
    ...            for n in ("Ana", "Ben")]
    >>> view = {"phase": "roll", "turn": "Ben", "players": players, "pending": [],
    ...         "odds": None, "free_dice": 6, "doubleback": False, "winner": None}
    >>> effects = [{"kind": "turn", "text": "Ben - ROLL!", "player": "Ben"}]
    >>> [name for name, _ in named_screens_for(view, effects)]
    ['players_0', 'turn']
    """
    out: list[tuple[str, Image.Image]] = []
    ripples = _ripple_groups(effects)
    shown_ripples: set[int] = set()
    # instruction merging: (player, segment) -> total spaces; segment changes on completion
    segment: dict[str, int] = {}
    spaces: dict[tuple[str, int], int] = {}
    for e in effects:
        if e["kind"] == "instruction":
            key = (e["player"], segment.get(e["player"], 0))
            spaces[key] = spaces.get(key, 0) + e["spaces"]
        elif e["kind"] == "complete":
            segment[e["player"]] = segment.get(e["player"], 0) + 1
    shown_instr: set[tuple[str, int]] = set()
    segment.clear()
    losses: list[tuple[str, int]] = []
    last_turn = max((i for i, e in enumerate(effects) if e["kind"] == "turn"), default=-1)

    for i, e in enumerate(effects):
        kind = e["kind"]
        name = str(e.get("player", ""))
        if kind == "turn":
            if i != last_turn:
                continue
            if view.get("players"):
                out.extend((f"players_{k}", img) for k, img in enumerate(players(view)))
            dice = view.get("free_dice", 6) if view.get("turn") == name else 6
            out.append(("turn", turn(name, dice or 6, bool(view.get("doubleback")))))
        elif kind == "roll":
            out.append(("roll", roll(e.get("dice", []), name)))
        elif kind == "lock":
            summary = lock_summary(effects[i:])
            out.append(("lock", lock(confirmed=True, **summary)))
        elif kind == "ripple":
            if e["number"] not in shown_ripples:
                shown_ripples.add(e["number"])
                out.extend((f"ripple_{k}", img)
                           for k, img in enumerate(ripple(e["number"], ripples[e["number"]])))
        elif kind == "instruction":
            key = (name, segment.get(name, 0))
            if key not in shown_instr and spaces[key]:
                shown_instr.add(key)
                out.append(("instruction", instruction(name, spaces[key])))
        elif kind == "stall":
            for k, img in enumerate(stall(name, e.get("loss", 1), e.get("moved"))):
                out.append((f"stall_{k}", img))
        elif kind == "paradox":
            losses = []
            for later in effects[i + 1 :]:
                if later["kind"] == "paradox_loss":
                    losses.append((later["player"], later.get("moved", 0)))
                elif later["kind"] in ("turn", "lock", "paradox"):
                    break
            gain = e.get("size", 1)
            for k, img in enumerate(paradox(name, gain, losses)):
                out.append((f"paradox_{k}", img))
        elif kind == "complete":
            segment[name] = segment.get(name, 0) + 1
            out.extend(("complete", img) for img in card_complete(name, e.get("count", 0)))
        elif kind == "next":
            out.extend(("next", img) for img in announce(loud(name), _next_card(e)))
        elif kind == "last":
            out.extend(("last", img) for img in announce(_("LAST CARD"), loud(name),
                                                         _("no Next card")))
        elif kind == "six":
            detail = (_("turn over") if e.get("again") else _("DOUBLEBACK or END"))
            out.extend(("six", img) for img in announce(_("ALL SIX!"), loud(name), detail))
        elif kind == "doubleback":
            count = e.get("dice", 0)
            detail = ngettext("reroll {count} die", "reroll {count} dice", count).format(
                count=count)
            out.extend(("doubleback", img)
                       for img in announce(_("DOUBLEBACK"), loud(name), detail))
        elif kind == "no_die":
            out.extend(("no_die", img) for img in announce(_("NO DIE FITS"), loud(name),
                                                           _("turn passes")))
        elif kind == "win":
            out.append(("win", shared.winner(name)))
            return out
        elif kind == "paradox_loss" and not any(x["kind"] == "paradox" for x in effects[:i]):
            # the player to lose 1 chosen after the paradox (its screens are gone by now)
            moved = e.get("moved", 0)
            detail = f"-{moved}" if moved else _("at card start, no effect")
            out.extend(("paradox_loss", img)
                       for img in announce(_("PARADOX"), loud(name), detail))
        elif kind in ("advance", "paradox_loss"):
            continue  # on the lock screen / the paradox's last frame
        elif kind == "setup":
            out.extend(("setup", img)
                       for img in announce(_("SETUP"), _("CHOOSE CARDS"), e["text"]))
        elif kind in ("undo", "redo"):  # the table's own: "UNDONE: LOCK flux 3 4"
            out.extend((kind, img) for img in announce(None, e["text"]))
        else:  # an effect this display does not know yet: its text, readable
            out.extend((kind, img) for img in shared.pages(kind.upper(), e.get("text", kind)))
    out.extend(_status(view))
    return out


def _next_card(effect: Effect) -> str:
    """The card a player takes as Active or Next, as the notice says it ("next card 0.3")."""
    if "card_kind" not in effect:  # an effect from elsewhere: its own words
        return effect.get("text", "")
    if effect.get("becomes") == "active":
        return _("active card {kind}").format(kind=effect["card_kind"])
    return _("next card {kind}").format(kind=effect["card_kind"])


def screens_for(view: dict[str, Any], effects: Sequence[Effect]) -> list[Image.Image]:
    """The screens to show, in order, after ``effects``; the last one stays up."""
    return [img for _, img in named_screens_for(view, effects)]


# --------------------------------------------------------------------------- the title's part


# What the light ring does for an effect of each kind (a "turn" effect lights the player's colour).
LIGHT_EFFECTS = {"ripple": "ripple", "stall": "stall", "paradox": "paradox", "win": "win",
                 "complete": "ripple"}


def prompt_screen(prompt, view: dict[str, Any], session) -> Image.Image | None:
    """The screen for a prompt of OUTATIME's own kinds (None: the shared screen)."""
    if prompt.kind == "place":
        return menu(prompt.title, prompt.options, prompt.selected)
    if prompt.kind == "over":  # the winner, and what to press now
        return shared.winner(view.get("winner") or prompt.title,
                             hint=prompt.lines[0] if prompt.lines else "")
    if prompt.kind == "roll":
        return turn(view.get("turn") or "", view.get("free_dice", 6),
                    bool(view.get("doubleback")))
    if prompt.kind == "propose":
        summary = lock_summary(session.proposal_effects)
        if summary:
            return lock(**summary)
        roll_faces = next((a["dice"] for a in session.proposal or [] if a["type"] == "roll"),
                          prompt.dice)
        return roll(roll_faces, view.get("turn"), hint=_("CONFIRM to record"))
    return None


# --------------------------------------------------------------------------- samples

NAMES = ["Ana", "Ben", "Clara", "Dmitri", "Esmeralda", "Fitzgerald"]


def sample_view(n: int) -> dict[str, Any]:
    """A public view with ``n`` players in made-up positions (for the sample screens)."""
    players = [
        {
            "name": name,
            "cards_completed": i % 5,
            "active": f"c{i}",
            "active_kind": "td" if i == 4 else "0.3",
            "step": i % 4,
            "steps": 4 + i % 3,
            "needs": None if i == 4 else 2 + i % 4,
            "next": None,
        }
        for i, name in enumerate(NAMES[:n])
    ]
    return {
        "title": "outatime",
        "phase": "roll",
        "turn": NAMES[0],
        "players": players,
        "pending": [],
        "odds": None,
        "free_dice": 6,
        "doubleback": False,
        "winner": None,
    }


def catalogue() -> list[tuple[str, Image.Image]]:
    """Every kind of OUTATIME screen with sample data, named (``companion screens``)."""
    out: list[tuple[str, Image.Image]] = [
        ("boot", shared.boot(plate="OUTATIME")),
        ("turn", turn("Ana")),
        ("turn_long_name", turn("Esmeralda-Fitzgerald")),
        ("turn_doubleback", turn("Ben", 3, doubleback=True)),
        ("roll", roll(["flux", "2", "3", "4", "5", "88"], "Ana", hint=_("CONFIRM to record"))),
        ("roll_unknown", roll(["flux", "3", None, "4", "88", "?"], "Ben", selected=2)),
        ("roll_3", roll(["4", "2", "flux"], "Ana")),
        ("lock", lock(["flux", "3", "4"], 2, "Ana", [("Ben", 1)])),
        ("lock_paradox", lock(["flux", "88"], 0, "Ben", paradox=1)),
        (
            "locked_many_ripples",
            lock(
                ["4", "4", "3"],
                3,
                "Ana",
                [("Ben", 2), ("Clara", 1), ("Dmitri", 1), ("Esmeralda", 1), ("Fitzgerald", 1)],
                confirmed=True,
            ),
        ),
        ("instruction_left", instruction("Ben", -1)),
        ("instruction_right", instruction("Esmeralda", 2)),
        (
            "odds",
            odds(
                {"free_dice": 3, "stall": 0.2847, "expected_steps": 0.93, "stall_loss": 1}, "Ana"
            ),
        ),
        ("winner", shared.winner("Ana")),
        ("winner_long_name", shared.winner("Esmeralda")),
        ("menu_title",
         shared.menu(_("GAME"), ["OUTATIME", "Back in Time", "The Card Game", "Eras"], 0)),
        ("menu_players", shared.menu(_("PLAYERS"), [str(n) for n in range(2, 7)], 3)),
        ("menu_next", shared.menu(_("{player}: NEXT CARD").format(player="ANA"),
                                  [f"c3{TAB}0.3", f"c4{TAB}0.4"], 1)),
        ("menu_card", shared.menu(_("{player}: ACTIVE CARD").format(player="JENNIFER"),
                                  [f"demo-03-{n}{TAB}5-3-5-4" for n in range(10, 16)], 0)),
        ("menu_target", shared.menu(_("{player}: WHO LOSES 1?").format(player="ANA"),
                                    NAMES[1:], 4)),
        ("face_picker", face_picker(3, 1)),
    ]
    for count in (2, 4, 6):
        out += [(f"players_{count}_{i}", img)
                for i, img in enumerate(players(sample_view(count)))]
    out += [(f"ripple_{i}", img) for i, img in enumerate(ripple(4, [("Ana", 1), ("Ben", 1)]))]
    out += [(f"ripple_6_{i}", img)
            for i, img in enumerate(ripple(3, [(n, 1) for n in NAMES[1:]]))]
    out += [(f"card_complete_{i}", img) for i, img in enumerate(card_complete("Ben", 3))]
    out += [(f"notice_six_{i}", img)
            for i, img in enumerate(announce(_("ALL SIX!"), "ANA", _("DOUBLEBACK or END")))]
    for i, img in enumerate(refusal(_("the flux must go on the DeLorean"))):
        out.append((f"refusal_{i}", img))
    long = " ".join([
        _("the {number} is not needed now: {player}'s card needs a {need} next "
          "(number dice go on in order of need)").format(number=4, player="Ana", need=2) + ".",
        _("Move the {number} back to the tray and CONFIRM again.").format(number=4),
    ])
    for i, img in enumerate(shared.error(long)):
        out.append((f"error_{i}", img))
    for i, img in enumerate(paradox("Ana", 1, [("Ben", 1)])):
        out.append((f"paradox_{i}", img))
    for i, img in enumerate(paradox("Ana", 2, [(n, 2) for n in NAMES[1:]])):
        out.append((f"paradox_big_{i}", img))
    for i, img in enumerate(stall("Ana", 1, 1)):
        out.append((f"stall_{i}", img))
    for i, img in enumerate(stall("Ben", 2, 0)):
        out.append((f"stall_no_loss_{i}", img))
    return out
