"""The era card game's screens: whose turn, the DeLorean, plays and their costs, ripples, events,
the running scores and the final score with its breakdown.

Every screen here is read across the table, so each keeps the readability rule: its main line
in bold capitals 6 mm tall on the recommended panel (``main_sizes()``: font 20 or more at
128x64) and every other word 4 mm (``other()``: 14 at 128x64), sized for the panel drawn
for. What does not fit goes on a following screen, never into small print. Layout follows
the painter's size (``p.width``, ``p.height``). The menus the player choosing reads are the
shared ones.

    >>> img = turn("Ana", "doc", "1985")
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
    text_width,
    wrap,
)
from companion.i18n import _, ngettext
from companion.titles.eras import rules

GAP = 2

Screens = list[tuple[str, Image.Image]]


main_sizes = shared.stepped_main_sizes  # 24, 22, 20 at 128x64; 35, 33, 31 at 256x64


def other() -> int:
    """Every other word: 4 mm (font 14 at 128x64)."""
    return rule_sizes()[1]


def _room() -> tuple[int, int]:
    with frame() as p:
        return p.width, p.height


def _main_fit(text: str, width: int, height: int) -> tuple[int, list[str]]:
    """The biggest main size (and its lines, one or two) that fits ``width`` x ``height``."""
    sizes = main_sizes()
    for size in sizes:
        if fits(text, width, size, True) and cap_height(size) <= height:
            return size, [text]
    size = sizes[-1]
    lines = wrap(text, width, size, True)
    if len(lines) == 2 and cap_height(size) + line_height(size) <= height:
        return size, lines
    return size, [shorten(text, width, size, True)]


def board(main: str, above: str = "", below: Sequence[str] = ()) -> list[Image.Image]:
    """Screens for the whole table: a line ``above``, the ``main`` line as big as fits (on two
    lines if it must), lines ``below`` (wrapped at 4 mm; more than fit go on further screens,
    each with the main line)."""
    width, height = _room()
    room = width - 4
    small_size = other()
    small = [line for text in below for line in wrap(text, room, small_size) if line]
    head = shorten(above, room, small_size) if above else ""
    step = line_height(small_size)
    head_h = step if head else 0

    def per_screen(main_h: int) -> int:
        return (height - 4 - head_h - main_h - BELOW - cap_height(small_size)) // step + 1

    size, mains = _main_fit(main, room, height - 4 - head_h)
    first: list[Image.Image] = []
    whole = len(_main_fit(main, room, height - 4)[1]) == 2
    if head and mains != [main] and len(mains) == 1 and whole:
        # the main line is whole only without the line above: it gets a screen alone first
        first = [_board(main, "", [])]
        main = mains[0]
    if len(mains) == 1:  # one line: as small as the rule lets it be when the lines need room
        size = main_sizes()[-1]
    per = per_screen(cap_height(size) + (len(mains) - 1) * line_height(size))
    if small and per < 1:  # two main lines leave no room below: they get a screen alone
        first = [_board(main, head, [])]
        main = shorten(main, room, main_sizes()[-1], True)
        per = per_screen(cap_height(main_sizes()[-1]))
    per = max(1, per)
    chunks = [small[i:i + per] for i in range(0, len(small), per)] or [[]]
    return first + [_board(main, head, chunk) for chunk in chunks]


def face_lines(face: dict[str, Any]) -> list[str]:
    """A face-up card in one line at 4 mm ("Marty 55 P2 T1 VP3"), or two when it is wide."""
    line = rules.face_line(face)
    if fits(line, _room()[0] - 4, other()):
        return [line]
    era = _("any era") if face["era"] == rules.ANY else face["era"]
    return [f"{rules.role_name(face['role'])} {era}", rules.face_words(face)]


BELOW = 4  # pixels between the main line and the lines below it


def _board(main: str, head: str, lines: list[str]) -> Image.Image:
    small = other()
    with frame() as p:
        step = line_height(small)
        head_h = step if head else 0
        gap = BELOW if lines else 0
        below_h = (len(lines) - 1) * step + cap_height(small) if lines else 0
        size, mains = _main_fit(main, p.width - 4, p.height - 4 - head_h - gap - below_h)
        block = cap_height(size) + (len(mains) - 1) * line_height(size)
        used = head_h + block + gap + below_h
        y = max(1, (p.height - 2 - used) // 2)
        if head:
            p.center(head, y, small)
            y += step
        for k, line in enumerate(mains):
            p.center(line, y + k * line_height(size), size, bold=True)
        y += block + gap
        for line in lines:
            p.center(line, y, small)
            y += step
    return p.image


def one(main: str, above: str = "", below: Sequence[str] = ()) -> Image.Image:
    """``board`` when the text is known to fit one screen."""
    return board(main, above, below)[0]


# --------------------------------------------------------------------------- the screens


def turn(player: str, role: str | None, era: str) -> Image.Image:
    """Whose turn: the name, big; the role taken and where the DeLorean is."""
    below = [_("DeLorean: {era}").format(era=era)]
    if role:
        below.insert(0, _("plays {role}").format(role=rules.role_name(role)))
    images = board(player.upper(), "", below)
    if len(images) > 1:  # it stays up: one screen, the name shortened visibly if it must be
        images = board(shorten(player.upper(), _room()[0] - 4, main_sizes()[-1], True), "",
                       below)
    return images[0]


def scores(view: dict[str, Any]) -> list[Image.Image]:
    """The running scores (what lies open: tokens, played cards, clock tokens); the player whose
    turn it is highlighted. Big rows (name and total in the main line's letters) when the
    players fit them on one screen (in two columns on a wide panel); else a SCORES line over
    two columns of 4 mm rows; else big rows over as many screens as it takes."""
    rows = [(row["name"], row["score"]["total"]) for row in view["players"]]
    turn_of = view.get("turn")
    size, small = main_sizes()[-1], other()
    width, height = _room()
    columns = 2 if width >= 3 * height else 1
    per_column = max(1, height // line_height(size))
    if len(rows) <= per_column * columns:
        return [_big_rows(rows, turn_of, columns)]
    per = -(-len(rows) // 2)
    if 2 + line_height(size) + per * line_height(small) <= height:
        return [_score_columns(rows, turn_of)]
    count = -(-len(rows) // (per_column * columns))
    per = -(-len(rows) // count)  # as even as the screens can be: 5 players are 3 + 2
    return [_big_rows(rows[i:i + per], turn_of, columns) for i in range(0, len(rows), per)]


def _big_rows(rows: list[tuple[str, int]], turn_of: str | None, columns: int) -> Image.Image:
    """Each player's name and total in the main line's letters, the name in the other words'
    letters when the main line's cannot hold it (shortened visibly only when neither can)."""
    size, small = main_sizes()[-1], other()
    with frame() as p:
        step = line_height(size)
        lines = -(-len(rows) // columns)
        col_w = p.width // columns
        y0 = max(1, (p.height - lines * step) // 2)
        for i, (name, total) in enumerate(rows):
            col, line = divmod(i, lines)
            x0, y = col * col_w, y0 + line * step
            number = str(total)
            room = col_w - 8 - text_width(number, size, True) - 6
            label, label_size = name.upper(), size
            if columns > 1 and not fits(label, room, size, True):
                label_size = small
            p.text((x0 + 4, y + cap_height(size) - cap_height(label_size)),
                   shorten(label, room, label_size, label_size == size), label_size,
                   bold=label_size == size)
            p.right(number, x0 + col_w - 4, y, size, bold=True)
            if name == turn_of:
                p.invert((x0, y - 2, x0 + col_w - (0 if columns == 1 else 1),
                          min(p.height, y + cap_height(size) + 3)))
    return p.image


def _score_columns(rows: list[tuple[str, int]], turn_of: str | None) -> Image.Image:
    """SCORES over two columns of names and totals in the other words' letters."""
    size, small = main_sizes()[-1], other()
    with frame() as p:
        head, head_size = shared.fitted(_("SCORES"), p.width - 2, size, True)
        p.center(head, 1 + cap_height(size) - cap_height(head_size), head_size, bold=True)
        y0 = 2 + line_height(size)
        step = line_height(small)
        half = p.width // 2
        per = -(-len(rows) // 2)
        for i, (name, total) in enumerate(rows):
            col, row = divmod(i, per)
            x0 = col * half
            y = y0 + row * step
            number = str(total)
            room = half - 6 - text_width(number, small) - 4
            p.text((x0 + 3, y), shorten(name, room, small), small)
            p.right(number, x0 + half - 4, y, small)
            if name == turn_of:
                p.invert((x0, y - 2, x0 + half - 1, min(p.height, y + cap_height(small) + 2)))
    return p.image


def moved(era: str) -> Image.Image:
    """The DeLorean jumps: the car with its fire trails, and the era it reaches."""
    with frame() as p:
        wide = p.width >= 3 * p.height
        room = p.width - (108 if wide else 4)
        text = _("TO {era}").format(era=era)
        size = next((s for s in main_sizes() if fits(text, room, s, True)), None)
        if size is None:  # a long translation: smaller, else shortened visibly
            text, size = shared.fitted(text, room, main_sizes()[-1], True)
        if wide:  # the car, then the era beside it
            glyphs.delorean(p, 2, (p.height - 40) // 2, scale=1.0)
            p.center(text, (p.height - cap_height(size)) // 2, size, bold=True, x0=104)
        else:
            glyphs.delorean(p, (p.width - 88) // 2, 1, scale=1.0)
            p.center(text, p.height - cap_height(size) - 3, size, bold=True)
    return p.image


def winner(names: Sequence[str], total: int, tie_note: str = "", hint: str = ""
           ) -> list[Image.Image]:
    """The winner with a bolt on each side, or the winners of a shared victory, every name
    whole (smaller, or on two lines, before it is shortened); their total under WINS!, and
    ``hint`` (what to press now) small at the bottom."""
    out = [shared.winner(" & ".join(names), hint=hint,
                         wins=_("WIN!") if len(names) > 1 else _("WINS!"),
                         cheer=_("{total} VP").format(total=total))]
    if tie_note:
        out.extend(board(_("TIE"), "", [tie_note]))
    return out


def final(rank: int, name: str, score: dict[str, int]) -> list[Image.Image]:
    """One player's final score and where it came from: VP tokens, cards played, ripple cards,
    clock tower tokens."""
    above = _("{rank}. {player}").format(rank=rank, player=name.upper())
    below = [_("tokens {tokens} cards {cards}").format(**score),
             _("ripple {ripple} clocks {clocks}").format(**score)]
    return board(_("{total} VP").format(total=score["total"]), above, below)


# --------------------------------------------------------------------------- after an action


def _player(e: dict[str, Any]) -> str:
    return str(e.get("player", "")).upper()


def _event_words(e: dict[str, Any]) -> str:
    """An event as its card shows it: its name, or the character it needs."""
    if e.get("name"):
        return e["name"].upper()
    return rules.role_name(e["role"]).upper()


def named_screens_for(view: dict[str, Any], effects: Sequence[dict[str, Any]]) -> Screens:
    """The screens to show after ``effects``, named, in the order things happen; repeats are
    merged (the cards of one payment, the ripple cards of one play, a round's end and the next
    round's start). The last one stays up until the menu comes."""
    out: Screens = []
    kinds = [e["kind"] for e in effects]
    played = {e.get("card") for e in effects if e["kind"] == "play"}
    scores_at_end = [e for e in effects if e["kind"] == "score"]
    i = 0
    while i < len(effects):
        e = effects[i]
        kind = e["kind"]
        who = _player(e)
        if kind in ("discard", "ripple") and "player" in e:
            j = i  # merge the run of the same kind by the same player
            count = 0
            while j < len(effects) and effects[j]["kind"] == kind and \
                    effects[j].get("player") == e.get("player"):
                count += effects[j].get("count", 1)
                j += 1
            if kind == "discard":
                faces = [f for k in range(i, j) for f in effects[k].get("faces", [])]
                out += _pages("discard", board(_("DISCARD"), who,
                                               [x for f in faces for x in face_lines(f)]))
            else:
                text = ngettext("{n} card face down", "{n} cards face down", count).format(
                    n=count)
                out += _pages("ripple", board(_("RIPPLE"), who, [text]))
            i = j
            continue
        if kind == "turn":
            if view.get("players"):
                out += _pages("scores", scores(view))
            out.append(("turn", turn(e["player"], e.get("role"), e.get("era", ""))))
        elif kind == "round_end":
            pass  # said on the round screen that follows
        elif kind == "start_player":
            pass
        elif kind == "round":
            below = [_("{player} chooses first").format(player=e["player"])]
            if "round_end" in kinds:
                below.insert(0, _("return the role tiles"))
            out += _pages("round", board(_("ROUND {n}").format(n=e["round"]), "", below))
        elif kind == "role":
            out += _pages("role", board(rules.role_name(e["role"]).upper(), who))
        elif kind == "event":
            below = [_("needs {role}").format(role=rules.role_name(e["role"]))]
            if e.get("effect"):
                effect = rules.EFFECTS[e["effect"]][1]
                below.append(_(effect))
            out += _pages("event", board(_event_words(e), _("NEW {era} EVENT").format(
                era=e["era"]), below))
        elif kind == "move":
            out.append(("move", moved(e["era"])))
        elif kind == "cost":
            unit = _("POWER") if e.get("unit") == "power" else _("TIME")
            out += _pages("cost", board(_("{due} {unit}").format(due=e["due"], unit=unit),
                                    _("{player} PAYS").format(player=who),
                                    [_("discard cards")]))
        elif kind == "play":
            low, high = e.get("ripple", [0, 0])
            ripple = str(low) if low == high else f"{low}-{high}"
            f = e["face"]
            below = [_("{role} into {era}").format(role=rules.role_name(f["role"]),
                                                   era=e["era"]),
                     _("{time} time, {ripple} ripple").format(time=e.get("time", 0),
                                                              ripple=ripple)]
            out += _pages("play", board(rules.face_words(f), _("{player} PLAYS").format(
                player=who), below))
        elif kind == "placed":
            if e.get("card") not in played:
                out += _pages("placed", board(_("ON {era}").format(era=e["era"]), who,
                                          face_lines(e["face"])))
        elif kind == "marty":
            out += _pages("marty", board(_("MARTY"), "", [_("no time to pay")]))
        elif kind == "clock_spent":
            out += _pages("clock", board(_("CLOCK"), who, [_("token given back")]))
        elif kind == "clock":
            out += _pages("clock", board(_("CLOCK"), who, [_("token taken ({n} of 2)").format(
                n=e.get("clocks", 1))]))
        elif kind == "complete":
            out += _pages("complete", board(_("+{value} VP").format(value=e["value"]), who,
                                        [_("{era} event done").format(era=e["era"])]))
        elif kind == "instruction":
            out += _pages("instruction", board(_("TAKE"), who, [
                _("the event and the top VP token")]))
            out += _pages("discard", board(_("DISCARD"), who,
                                           [x for f in e.get("faces", []) for x in face_lines(f)]))
        elif kind == "era_done":
            out += _pages("era_done", board(e["era"], "", [_("no events left")]))
        elif kind == "last_round":
            out += _pages("last_round", board(_("LAST ROUND!"), "", [_("two eras are done")]))
        elif kind == "empty":
            out += _pages("empty", board(_("DECK EMPTY"), "", [
                _("the game ends after this round")]))
        elif kind == "shuffle":
            out += _pages("shuffle", board(_("SHUFFLE"), "", [
                _("the discard pile is the new deck")]))
        elif kind == "steal":
            if e.get("victim"):
                below = [_("{player} takes a card", ).format(player=e["player"]),
                         _("from {victim}, blind").format(victim=e["victim"])]
            else:
                below = [_("nothing to steal")]
            out += _pages("steal", board(_("BIFF"), "", below))
        elif kind == "george":
            out += _pages("george", board(_("GEORGE"), who, [_("keeps the hand")]))
        elif kind == "shift":
            out += _pages("shift", board(_("LORRAINE"), who, face_lines(e["face"]) + [
                _("moves to {era}").format(era=e["era"])]))
        elif kind == "b_side":
            effect = rules.EFFECTS[e["effect"]]
            out += _pages("b_side", board(_("B SIDE"), e["era"], [_(effect[2])]))
        elif kind == "tally":
            out += _pages("tally", board(_("GAME OVER"), "", [
                _("turn up your ripple cards and add up their VP")]))
        elif kind == "tally_vp":
            out += _pages("tally_vp", board(_("{vp} VP").format(vp=e["vp"]), who,
                                        [_("ripple cards")]))
        elif kind == "score":
            pass  # all together, best first, before the winner
        elif kind == "win":
            ranked = sorted(scores_at_end, key=lambda s: -s["score"]["total"])
            rank = 0
            last = None
            for n, s in enumerate(ranked, start=1):
                if s["score"]["total"] != last:
                    rank, last = n, s["score"]["total"]
                out += _pages("final", final(rank, s["player"], s["score"]))
            tied = [s for s in ranked if s["score"]["total"] == e["total"]]
            note = ""
            if len(tied) > len(e["winners"]):
                note = _("most events completed wins the tie")
            out += _pages("win", winner(e["winners"], e["total"], note))
            return out
        elif kind in ("draw", "end", "doc"):
            pass  # the menu asked for the draw; the next turn or the move says the rest
        elif kind == "setup":
            out += _pages("setup", board(_("NEW GAME"), "", [
                _("turn up an event for each era, deal the hands")]))
        elif kind in ("undo", "redo"):
            head, _sep, rest = e["text"].partition(": ")
            fallback = _("UNDONE") if kind == "undo" else _("REDONE")
            out += _pages(kind, board(head if rest else fallback, "", [rest or head]))
        else:  # an effect this display does not know: its words, readable
            out += _pages(kind, board(kind.upper(), "", [e.get("text", "")]))
        i += 1
    return out


def _pages(name: str, images: list[Image.Image]) -> Screens:
    """Screens of one kind, numbered when there are several (``event_1``, ``event_2``)."""
    if len(images) == 1:
        return [(name, images[0])]
    return [(f"{name}_{k}", img) for k, img in enumerate(images, start=1)]


def screens_for(view: dict[str, Any], effects: Sequence[dict[str, Any]]) -> list[Image.Image]:
    return [img for _name, img in named_screens_for(view, effects)]


# --------------------------------------------------------------------------- the title's part

# What the light ring does (see docs/titles/eras.md): a wave for a ripple card and an event
# done, the time jump's flash for a trip of the DeLorean, blinks for the last round.
LIGHT_EFFECTS = {"ripple": "ripple", "complete": "ripple", "move": "paradox",
                 "last_round": "stall", "win": "win"}

# Every screen named here is read across the table (the readability rule holds for each).
TABLE_SCREENS = (
    "turn", "scores", "round", "role", "event", "move", "cost", "play", "placed", "discard",
    "ripple", "marty", "clock", "complete", "instruction", "era_done", "last_round", "empty",
    "shuffle", "steal", "george", "shift", "b_side", "tally", "tally_vp", "final", "win",
    "setup", "undo", "redo",
)


def prompt_screen(prompt, view: dict[str, Any], session) -> Image.Image | None:
    """The final score stays up when the game is over; the menus are the shared ones."""
    if prompt.kind == "over" and view.get("winners"):
        best = max(row["score"]["total"] for row in view["players"])
        return winner(view["winners"], best, hint=prompt.lines[0] if prompt.lines else "")[0]
    return None


# --------------------------------------------------------------------------- samples

NAMES = ["Ana", "Ben", "Clara", "Dmitri", "Esmeralda", "Fitzgerald"]


def sample_view(n: int) -> dict[str, Any]:
    players = [{"name": name, "score": {"total": 3 * i + 2, "tokens": 2 * i, "cards": i,
                                        "clocks": 1, "ripple": None, "events": i % 2}}
               for i, name in enumerate(NAMES[:n])]
    return {"title": "eras", "turn": NAMES[1], "delorean": "1985", "players": players}


def catalogue() -> Screens:
    """Every kind of screen with sample data, named (``companion screens``)."""
    score = {"tokens": 12, "cards": 9, "ripple": 8, "clocks": 2, "total": 31, "events": 3}
    out: Screens = [
        ("turn", turn("Ana", "doc", "1985")),
        ("turn_long_name", turn("Esmeralda-Fitzgerald", "jennifer", "2015")),
        *[(f"scores_{count}" + (f"_{k}" if k else ""), img) for count in (2, 3, 4, 6)
          for k, img in enumerate(scores(sample_view(count)))],
        ("move", moved("1955")),
        ("role", one("JENNIFER", "FITZGERALD")),
        ("round", one(_("ROUND {n}").format(n=12), "",
                      [_("return the role tiles"), _("Ben chooses first")])),
        ("cost", one(_("{due} {unit}").format(due=3, unit=_("POWER")),
                     _("{player} PAYS").format(player="ANA"), [_("discard cards")])),
        ("play", one("P2 T1 VP3", _("{player} PLAYS").format(player="ANA"),
                     [_("{role} into {era}").format(role="Jennifer", era="1955"),
                      _("1 time, 2-3 ripple")])),
        ("ripple", one(_("RIPPLE"), "ANA", [_("2 cards face down")])),
        ("complete", one(_("+{value} VP").format(value=5), "BEN", ["1955 event done"])),
        ("last_round", one(_("LAST ROUND!"), "", [_("two eras are done")])),
        ("tally_vp", one(_("{vp} VP").format(vp=8), "CLARA", [_("ripple cards")])),
        ("menu_turn", shared.menu("ANA (DOC) - 1985", ["PLAY A CARD", "COMPLETE AN EVENT",
                                                      "MOVE THE DELOREAN"], 0)),
        ("menu_pay", shared.menu("ANA: PAY 2 TIME", ["CLOCK TOKEN (2)", "1955 (14)",
                                                    "1985 (15)", "2015 (16)"], 1)),
        ("menu_cards", shared.menu("MARTY 1955?", ["P1 T2 VP3", "P2 T1 VP2",
                                                          "P1 T3 VP3", "P2 T2 VP2"], 2)),
    ]
    out += _pages("discard", board(_("DISCARD"), "ANA", ["Marty 55 P2 T1 VP3",
                                                          "Biff any P1 T2 VP3"]))
    out += _pages("discard_many", board(_("DISCARD"), "BEN", [
        "Doc 55 P2 T1 VP3", "Doc 85 P1 T1 VP1", "Biff 15 P3 T1 VP1"]))
    out += _pages("event", board("MARTY", "NEW 1955 EVENT", ["needs Marty"]))
    draw_one, cost_minus_two = rules.EFFECTS["draw-1"][1], rules.EFFECTS["cost-minus-2"][2]
    out += _pages("event_named", board("ENCHANTMENT UNDER THE SEA", "NEW 1955 EVENT", [
        "needs George", _(draw_one)]))
    out += _pages("instruction", board(_("TAKE"), "BEN", [_("the event and the top VP token")]))
    out += _pages("b_side", board(_("B SIDE"), "1955", [
        _(cost_minus_two)]))
    out += _pages("tally", board(_("GAME OVER"), "", [
        _("turn up your ripple cards and add up their VP")]))
    out += _pages("final", final(1, "Esmeralda", score))
    out += _pages("final", final(2, "Ben", {**score, "total": 9, "tokens": 0, "cards": 9}))
    out += _pages("win", winner(["Ana"], 31))
    out += _pages("win_shared", winner(["Ana", "Ben"], 31))
    out += _pages("win_tie", winner(["Esmeralda"], 31, _("most events completed wins the tie")))
    out += _pages("undo", board(_("UNDONE"), "", ["MOVE TO 1955 (3 power)"]))
    return out
