"""``companion screens --out DIR``: every screen the OLED can show, written to PNG files."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from PIL import Image

from companion.display import screens as s
from companion.display.sequence import named_screens_for

NAMES = ["Ana", "Ben", "Clara", "Dmitri", "Esmeralda", "Fitzgerald"]


def register(commands, bench_commands) -> None:
    p = commands.add_parser(
        "screens",
        help="write every OLED screen to PNG files",
        description="Draw every screen of the OLED (each kind, with 2 and 6 players, a roll with "
        "an unsure die, every animation frame, and the screens of a short bot game) and write "
        "them as 128x64 PNG files into DIR, then print what was written.",
    )
    p.add_argument("--out", required=True, help="directory to write into (created if missing)")
    p.add_argument("--scale", type=int, default=1, help="enlarge the files N times (default 1)")
    p.set_defaults(handler=cmd_screens)


def _view(n: int) -> dict[str, Any]:
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
    """Every kind of screen with sample data, named."""
    out: list[tuple[str, Image.Image]] = [
        ("boot", s.boot()),
        ("turn", s.turn("Ana")),
        ("turn_long_name", s.turn("Esmeralda-Fitzgerald")),
        ("turn_doubleback", s.turn("Ben", 3, doubleback=True)),
        ("players_2", s.players(_view(2))),
        ("players_6", s.players(_view(6))),
        ("roll", s.roll(["flux", "2", "3", "4", "5", "88"], "Ana")),
        ("roll_unknown", s.roll(["flux", "3", None, "4", "88", "?"], "Ben", selected=2)),
        ("roll_3", s.roll(["4", "2", "flux"], "Ana")),
        ("lock", s.lock(["flux", "3", "4"], 2, "Ana", [("Ben", 1)])),
        ("lock_paradox", s.lock(["flux", "88"], 0, "Ben", paradox=1)),
        (
            "locked_many_ripples",
            s.lock(
                ["4", "4", "3"],
                3,
                "Ana",
                [("Ben", 2), ("Clara", 1), ("Dmitri", 1), ("Esmeralda", 1), ("Fitzgerald", 1)],
                confirmed=True,
            ),
        ),
        ("ripple", s.ripple(4, [("Ana", 1), ("Ben", 1)])),
        ("ripple_6", s.ripple(3, [(n, 1) for n in NAMES[1:]])),
        ("instruction_left", s.instruction("Ben", -1)),
        ("instruction_right", s.instruction("Esmeralda", 2)),
        (
            "odds",
            s.odds(
                {"free_dice": 3, "stall": 0.2847, "expected_steps": 0.93, "stall_loss": 1}, "Ana"
            ),
        ),
        ("winner", s.winner("Ana")),
        ("card_complete", s.card_complete("Ben", 3, "Ben completes 0.3 card")),
        ("notice_six", s.notice("ALL SIX!", "ANA", "DOUBLEBACK or END")),
        ("menu_title", s.menu("GAME", ["OUTATIME", "Back in Time", "The Card Game", "Eras"], 0)),
        ("menu_players", s.menu("PLAYERS", [str(n) for n in range(2, 7)], 3)),
        ("menu_next", s.menu("ANA: NEXT CARD", ["c3 (0.3)", "c4 (0.4)"], 1)),
        ("menu_target", s.menu("ANA: WHO LOSES 1?", NAMES[1:], 4)),
        ("face_picker", s.face_picker(3, 1)),
    ]
    for i, img in enumerate(s.refusal("the flux must go on the DeLorean")):
        out.append((f"refusal_{i}", img))
    long = (
        "the 4 is not needed now: Ana's card needs a 2 next (number dice go on in order "
        "of need). Move the 4 back to the tray and CONFIRM again."
    )
    for i, img in enumerate(s.error(long)):
        out.append((f"error_{i}", img))
    for i, img in enumerate(s.paradox("Ana", 1, [("Ben", 1)])):
        out.append((f"paradox_{i}", img))
    for i, img in enumerate(s.paradox("Ana", 2, [(n, 2) for n in NAMES[1:]])):
        out.append((f"paradox_big_{i}", img))
    for i, img in enumerate(s.stall("Ana", 1, 1)):
        out.append((f"stall_{i}", img))
    for i, img in enumerate(s.stall("Ben", 2, 0)):
        out.append((f"stall_no_loss_{i}", img))
    return out


def game_screens(players: int = 4, seed: int = 1985, limit: int = 60):
    """Screens of the first ``limit`` actions of a bot game (demo deck), named."""
    from companion.bots import outatime_bot
    from companion.content import demo_pack
    from companion.titles import rules

    engine = rules("outatime")
    rng = random.Random(seed)
    state = engine.new_game(NAMES[:players], {}, demo_pack("outatime"))
    out = []
    for step in range(limit):
        if engine.is_terminal(state):
            break
        actor = engine.actor(state)
        action = (
            engine.sample_chance(state, rng)
            if actor == "chance"
            else outatime_bot(engine, state, rng)
        )
        state, effects = engine.apply(state, action)
        for k, (name, img) in enumerate(named_screens_for(engine.view(state), effects)):
            out.append((f"game_{step:03d}_{k:02d}_{name}", img))
    return out


def cmd_screens(args) -> int:
    from companion.cli import UserError

    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--out {out}: cannot create the directory ({exc})") from exc
    if not 1 <= args.scale <= 16:
        raise UserError(f"--scale {args.scale}: use 1-16")
    items = catalogue() + game_screens()
    for name, img in items:
        path = out / f"{name}.png"
        if args.scale > 1:
            img = img.resize((img.width * args.scale, img.height * args.scale), Image.NEAREST)
        img.save(path)
        print(path)
    print(f"{len(items)} screens written to {out}", file=sys.stderr)
    return 0
