"""The simulated game night: bots play a whole game through the journal, no hardware needed."""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from companion.bots import outatime_bot
from companion.content import demo_pack
from companion.games import get_title
from companion.journal import Journal
from companion.match import Match

BOT_NAMES = ["Marty", "Doc", "Jennifer", "Biff", "Lorraine", "George"]


def register(commands, bench_commands) -> None:
    p = commands.add_parser(
        "demo",
        help="simulated game night: bots play a whole game (no hardware)",
        description="Bots play a whole OUTATIME game with seeded dice and the demo deck "
        "(invented card contents). Every action goes through the journal; the table "
        "announcements are printed as they would be shown.",
    )
    p.add_argument("--players", type=int, default=4, help="2-6 bot players (default 4)")
    p.add_argument("--seed", type=int, default=1985, help="dice seed (default 1985)")
    p.add_argument("--journal", help="journal file to record into (default: a temporary one)")
    p.set_defaults(handler=cmd_demo)


def cmd_demo(args) -> int:
    from companion.cli import UserError

    if not 2 <= args.players <= 6:
        raise UserError(f"--players {args.players}: OUTATIME takes 2-6 players")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.journal) if args.journal else Path(tmp) / "demo.sqlite3"
        journal = Journal(path)
        result = run_demo(journal, args.players, args.seed, out=sys.stdout)
        journal.close()
    return 0 if result else 1


def run_demo(journal: Journal, players: int, seed: int, out=sys.stdout) -> str | None:
    """Play one bot game into ``journal``; prints announcements; returns the winner."""
    engine = get_title("outatime")
    pack = demo_pack("outatime")
    rng = random.Random(seed)
    names = BOT_NAMES[:players]
    print(
        f"OUTATIME - {', '.join(names)} - demo deck (invented cards, not the printed ones)",
        file=out,
    )
    match = Match.new(journal, "outatime", names, {}, pack)
    while match.actor() != "terminal":
        if match.actor() == "chance":
            action = engine.sample_chance(match.state, rng)
        else:
            action = outatime_bot(engine, match.state, rng)
        for effect in match.push(action):
            print(f"  {effect['text']}", file=out)
    winner = engine.winners(match.state)
    actions = len(journal.actions(match.game))
    print(
        f"Game over after {match.state.turns} turns and {actions} recorded actions: "
        f"{', '.join(winner)} wins.",
        file=out,
    )
    return winner[0] if winner else None
