"""Play one seeded bot game through Match into a journal, printing each confirmed seq.

Usage: python kill_player.py JOURNAL SEED PLAYERS

A line ``seq N`` is printed (and flushed) only after ``Match.push`` has returned, so every
printed number is an action the journal promised to keep. The SIGKILL test kills this process
at random moments and checks that promise.
"""

from __future__ import annotations

import random
import sys

from companion.content import demo_pack
from companion.journal import Journal
from companion.match import Match
from companion.titles.outatime import rules as outatime
from companion.titles.outatime.bots import bot as outatime_bot

NAMES = ["Ana", "Ben", "Cat", "Dan", "Eve", "Fay"]


def main(path: str, seed: int, players: int) -> int:
    journal = Journal(path)
    rng = random.Random(seed)
    match = Match.new(journal, "outatime", NAMES[:players], {}, demo_pack("outatime"))
    print(f"game {match.game}", flush=True)
    while match.actor() != "terminal":
        if match.actor() == "chance":
            action = outatime.sample_chance(match.state, rng)
        else:
            action = outatime_bot(outatime, match.state, rng)
        match.push(action)
        seq = journal.db.execute(
            "SELECT MAX(seq) FROM records WHERE game = ?", (match.game,)
        ).fetchone()[0]
        print(f"seq {seq}", flush=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
