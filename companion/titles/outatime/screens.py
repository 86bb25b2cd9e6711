"""OUTATIME's screens: whose turn, the roll, locks, ripples, paradoxes, stalls, the scoreboard.

Drawn with the shared layout (``companion.display.screens``); ``screens_for`` (see
``sequence.py``) turns a batch of effects into the screens to show, in the order things happen.

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
    BIG,
    HEIGHT,
    MEDIUM,
    SMALL,
    WIDTH,
    cap_height,
    fit_size,
    frame,
    line_height,
    shorten,
    text_width,
    wrap,
    wrap_items,
)
from companion.display.screens import (
    MAIN_WIDTH,
    TooMuchText,
    big_word,
    fitted,
    gains_screen,
    glitch,
    main_lines,
    menu,
    pages,
    standard,
    title_bar,
)
from companion.i18n import _, ngettext
from companion.titles.outatime.rules import FACES


def turn(name: str, free_dice: int = 6, doubleback: bool = False) -> Image.Image:
    """Whose turn it is: "ANA - ROLL!"."""
    if doubleback:
        detail = _("DOUBLEBACK: roll {count}").format(count=free_dice)
    else:
        detail = ngettext("roll {count} dice", "roll {count} dice", free_dice).format(
            count=free_dice)
    return standard(None, _("{player} - ROLL!").format(player=name.upper()), detail)


def players(view: dict[str, Any]) -> Image.Image:
    """Every player's cards completed /5, step/steps of the Active card and the number needed.

    The player whose turn it is is highlighted. Fits 2 to 6 players.
    """
    rows = view["players"]
    n = len(rows)
    size = 12 if n <= 3 else SMALL if n <= 4 else 9
    row_h = 16 if n <= 3 else 12 if n <= 4 else 9
    head_h = 10 if n <= 4 else 8
    cols = (60, 90, 124)  # right edges of CARDS, STEP, NEED
    with frame() as p:
        labels = (_("CARDS"), _("STEP"), _("NEED"))
        for label, x, room in zip(labels, cols, (56, 28, 32), strict=True):
            p.right(shorten(label, room, 8), x, 1, 8)
        p.draw.line((0, head_h - 1, WIDTH - 1, head_h - 1), fill=1)
        y0 = head_h + 1 + max(0, (HEIGHT - head_h - 1 - n * row_h) // 2)
        for i, row in enumerate(rows):
            y = y0 + i * row_h
            ty = y + (row_h - cap_height(size)) // 2
            if row.get("steps"):
                step = f"{row['step']}/{row['steps']}"
            else:
                step = "-"
            needs = "TD" if row.get("active_kind") == "td" and not row.get("needs") else ""
            needs = str(row["needs"]) if row.get("needs") is not None else (needs or "-")
            p.text((1, ty), shorten(row["name"], cols[0] - 30, size), size)
            p.right(f"{row['cards_completed']}/5", cols[0], ty, size)
            p.right(step, cols[1], ty, size)
            p.right(needs, cols[2] - 4, ty, size, bold=True)
            if row["name"] == view.get("turn"):
                p.invert((0, y, WIDTH, min(HEIGHT, y + row_h)))
    return p.image


def roll(
    dice: Sequence[str | None], player: str | None = None, selected: int | None = None
) -> Image.Image:
    """The roll as read: one die per face, an unsure die (``None`` or "?") as a filled "?".

    ``selected`` underlines the die being picked with the buttons.
    """
    dice = [glyphs.UNKNOWN if d in (None, glyphs.UNKNOWN) else str(d) for d in dice]
    unknown = sum(1 for d in dice if d == glyphs.UNKNOWN)
    with frame() as p:
        title_bar(p, _("{player} ROLLED").format(player=player.upper()) if player else _("ROLL"),
                  ngettext("{count} dice", "{count} dice", len(dice)).format(count=len(dice)))
        size, gap = 19, 2
        total = len(dice) * size + (len(dice) - 1) * gap
        x = (WIDTH - total) // 2
        y = 18
        for i, face in enumerate(dice):
            glyphs.die(p, x + i * (size + gap), y, face, size)
            if selected == i:
                p.draw.rectangle(
                    (
                        x + i * (size + gap),
                        y + size + 2,
                        x + i * (size + gap) + size - 1,
                        y + size + 3,
                    ),
                    fill=1,
                )
        hint = _("? unsure: nudge or pick") if unknown else _("CONFIRM to record")
        hint, size = fitted(hint, WIDTH - 2, SMALL)
        p.center(hint, 50, size)
    return p.image


def lock(
    dice: Sequence[str],
    steps: int,
    player: str | None = None,
    ripples: Sequence[tuple[str, int]] = (),
    paradox: int = 0,
    confirmed: bool = False,
) -> Image.Image:
    """The lock proposal ("LOCK flux 3 4: +2, RIPPLE Ben +1"), or the lock once confirmed.

    ``ripples`` are (name, spaces) of other players; ``paradox`` is 1 or 2 when the lock makes one.
    """
    with frame() as p:
        label, label_size = fitted(_("LOCKED") if confirmed else _("LOCK"), 56, MEDIUM, True)
        p.text((2, 3), label, label_size, bold=True)
        x = 4 + text_width(label, label_size, True) + 3
        dsize, gap = 15, 2
        room = (WIDTH - x) // (dsize + gap)
        for i, face in enumerate(dice[:room]):
            glyphs.die(p, x + i * (dsize + gap), 0, face, dsize)
        if len(dice) > room:
            p.right(f"+{len(dice) - room}", WIDTH - 1, 4, SMALL)
        items = [f"{n} {g:+d}" for n, g in ripples]
        # Translators: the first of the players a lock ripples to, e.g. "RIPPLE Ben +1".
        first = _("RIPPLE {gain}").format(gain=items[0]) if items else ""
        lines = wrap_items([first, *items[1:]], WIDTH - 4, SMALL) if items else []
        room_for = 1 if paradox and steps else 2  # the main line needs the rest
        if len(lines) > room_for:  # too many to list here: the ripple screens follow
            lines = wrap(ngettext("RIPPLE: {count} players", "RIPPLE: {count} players",
                                  len(ripples)).format(count=len(ripples)), WIDTH - 4, SMALL)
        if paradox and steps:
            lines += wrap(_("then PARADOX +{steps}").format(steps=paradox), WIDTH - 4, SMALL)
        if not confirmed and len(lines) < 2:
            lines.append(fitted(_("CONFIRM?"), WIDTH - 4, SMALL)[0])
        main = f"{player.upper()} +{steps}" if player else f"+{steps}"
        if not steps and paradox:
            main = _("PARADOX +{steps}").format(steps=paradox)
        top, bottom = 19, HEIGHT - 1 - len(lines) * line_height(SMALL)
        size, mains = main_lines(main, bottom - top - 2, (22, 20, BIG, 16, MEDIUM))
        p.lines(mains, top + max(0, (bottom - top - cap_height(size)) // 2), size, bold=True)
        p.lines(lines, bottom + 2, SMALL)
    return p.image


def refusal(reason: str) -> list[Image.Image]:
    """Why the dice cannot be locked ("the flux must go on the DeLorean"), paged."""
    return pages(_("CAN'T LOCK"), reason)


def ripple(number: int | str, gains: Sequence[tuple[str, int]]) -> Image.Image:
    """One ripple notice for a number: "RIPPLE: 4 -> Ana +1, Ben +1" (all who gain, merged)."""
    return gains_screen(_("RIPPLE: {number}").format(number=number), gains)


def instruction(player: str, spaces: int) -> Image.Image:
    """What to do with the physical cards: "BEN: Next card 1 left", with an arrow."""
    with frame() as p:
        name = player.upper()
        size = fit_size(name, MAIN_WIDTH, (22, 20, BIG, 16, MEDIUM, 12)) or 12
        name = shorten(name, MAIN_WIDTH, size, True)
        p.center(name, 2, size, bold=True)
        move, move_size = fitted(_("move Next card"), WIDTH - 2, MEDIUM)
        p.center(move, 26, move_size)
        n = abs(spaces)
        if spaces > 0:
            text = ngettext("{count} RIGHT", "{count} RIGHT", n).format(count=n)
        else:
            text = ngettext("{count} LEFT", "{count} LEFT", n).format(count=n)
        text, size = fitted(text, WIDTH - 2 - 32, BIG, True)
        tw = text_width(text, size, True)
        total = tw + 6 + 26
        x = (WIDTH - total) // 2
        if spaces > 0:
            p.text((x, 44), text, size, bold=True)
            glyphs.arrow(p, x + tw + 6 + 13, 51, 1, 26)
        else:
            glyphs.arrow(p, x + 13, 51, -1, 26)
            p.text((x + 32, 44), text, size, bold=True)
    return p.image


def odds(odds: dict[str, Any], player: str | None = None) -> Image.Image:
    """The odds for the player deciding whether to roll again (from ``view["odds"]``)."""
    free = odds["free_dice"]
    stall = round(100 * odds["stall"])
    if player:
        header = ngettext("{player}: ROLL {count} MORE?", "{player}: ROLL {count} MORE?", free)
    else:
        header = ngettext("ROLL {count} MORE?", "ROLL {count} MORE?", free)
    return standard(
        header.format(player=player.upper() if player else "", count=free),
        _("STALL {percent}%").format(percent=stall),
        [
            _("expect +{steps} steps").format(steps=f"{odds['expected_steps']:.1f}"),
            _("a stall costs {steps}").format(steps=odds.get("stall_loss", 1)),
        ],
    )


def card_complete(name: str, count: int, detail: str = "") -> Image.Image:
    return standard(_("CARD COMPLETE!"), f"{name.upper()} {count}/5", detail)


def face_picker(die: int, selected: int = 0):
    """The menu to pick an unsure die's face (die numbered from 1)."""
    return shared.face_picker(die, [(_("flux capacitor") if f == "flux" else f) for f in FACES],
                              selected)



def paradox(
    player: str, gain: int = 1, losses: Sequence[tuple[str, int]] = ()
) -> list[Image.Image]:
    """Paradox animation: flash, inverse flash, tear, then the result ("ANA +1", "Ben -1")."""
    word = _("PARADOX!")
    plain = big_word(word)
    frames = [plain, big_word(word, invert=True), glitch(plain, (-6, 4, -2, 7, -5, 3, -8, 2))]
    lost = ", ".join(f"{n} -{m}" if m else f"{n} 0" for n, m in losses)
    try:
        frames.append(standard(word, f"{player.upper()} +{gain}", lost, shrink=False))
    except TooMuchText:  # many opponents: their losses get a screen of their own
        frames.append(standard(word, f"{player.upper()} +{gain}", _("everyone else loses")))
        frames.append(gains_screen(_("PARADOX: LOSSES"), [(n, -m) for n, m in losses]))
    return frames


def stall(player: str, loss: int = 1, moved: int | None = None) -> list[Image.Image]:
    """Stall animation: the DeLorean drives in, sputters, stops; then the loss."""
    moved = loss if moved is None else moved
    frames = []
    for i, (x, trails, puffs) in enumerate(((-40, True, 0), (10, True, 1), (14, False, 2))):
        with frame() as p:
            glyphs.delorean(p, x, 8 + (i == 2), scale=1.0, trails=trails)
            for k in range(puffs):  # exhaust puffs behind the car
                r = 3 + 2 * k
                cx = x - 4 - 8 * k
                p.draw.ellipse((cx - r, 26 - r - 4 * k, cx + r, 26 + r - 4 * k), outline=1)
            word, size = fitted(_("STALL") + "." * (i + 1), WIDTH - 2, BIG, True)
            p.center(word, 46, size, bold=True)
        frames.append(p.image)
    detail = "" if moved else _("at card start: no loss")
    main = f"{player.upper()} -{moved}" if moved else player.upper()
    frames.append(standard(_("STALL -{loss}").format(loss=loss), main, detail))
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
    ['players', 'turn']
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
                out.append(("players", players(view)))
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
                out.append(("ripple", ripple(e["number"], ripples[e["number"]])))
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
            out.append(("complete", card_complete(name, e.get("count", 0), e["text"])))
        elif kind == "next":
            out.append(("next", shared.notice(name.upper(), _next_card(e))))
        elif kind == "last":
            out.append(("last", shared.notice(_("LAST CARD"), name.upper(), _("no Next card"))))
        elif kind == "six":
            detail = (_("all six again - turn over") if e.get("again")
                      else _("all six! DOUBLEBACK or END"))
            out.append(("six", shared.notice(_("ALL SIX!"), name.upper(), detail)))
        elif kind == "doubleback":
            count = e.get("dice", 0)
            detail = ngettext("reroll {count} dice", "reroll {count} dice", count).format(
                count=count)
            out.append(("doubleback", shared.notice(_("DOUBLEBACK"), name.upper(), detail)))
        elif kind == "no_die":
            out.append(("no_die", shared.notice(_("NO DIE FITS"), name.upper(),
                                                _("turn passes"))))
        elif kind == "win":
            out.append(("win", shared.winner(name)))
            return out
        elif kind in ("advance", "paradox_loss"):
            continue  # on the lock screen / the paradox's last frame
        elif kind == "setup":
            out.append(("setup", shared.notice(_("SETUP"), _("CHOOSE CARDS"), e["text"])))
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
    if prompt.kind == "roll":
        return turn(view.get("turn") or "", view.get("free_dice", 6),
                    bool(view.get("doubleback")))
    if prompt.kind == "propose":
        summary = lock_summary(session.proposal_effects)
        if summary:
            return lock(**summary)
        roll_faces = next((a["dice"] for a in session.proposal or [] if a["type"] == "roll"),
                          prompt.dice)
        return roll(roll_faces, view.get("turn"))
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
        ("players_2", players(sample_view(2))),
        ("players_6", players(sample_view(6))),
        ("roll", roll(["flux", "2", "3", "4", "5", "88"], "Ana")),
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
        ("ripple", ripple(4, [("Ana", 1), ("Ben", 1)])),
        ("ripple_6", ripple(3, [(n, 1) for n in NAMES[1:]])),
        ("instruction_left", instruction("Ben", -1)),
        ("instruction_right", instruction("Esmeralda", 2)),
        (
            "odds",
            odds(
                {"free_dice": 3, "stall": 0.2847, "expected_steps": 0.93, "stall_loss": 1}, "Ana"
            ),
        ),
        ("winner", shared.winner("Ana")),
        ("card_complete", card_complete("Ben", 3, _("{player} completes {kind} card").format(
            player="Ben", kind="0.3"))),
        ("notice_six", shared.notice(_("ALL SIX!"), "ANA", _("DOUBLEBACK or END"))),
        ("menu_title",
         shared.menu(_("GAME"), ["OUTATIME", "Back in Time", "The Card Game", "Eras"], 0)),
        ("menu_players", shared.menu(_("PLAYERS"), [str(n) for n in range(2, 7)], 3)),
        ("menu_next", shared.menu(_("{player}: NEXT CARD").format(player="ANA"),
                                  ["c3 (0.3)", "c4 (0.4)"], 1)),
        ("menu_target", shared.menu(_("{player}: WHO LOSES 1?").format(player="ANA"),
                                    NAMES[1:], 4)),
        ("face_picker", face_picker(3, 1)),
    ]
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
