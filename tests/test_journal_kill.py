"""SIGKILL proof: an action the journal confirmed is never lost, and the file stays sound.

A real subprocess (``tests/helpers/kill_player.py``) plays a seeded bot game through Match into a
journal file and prints ``seq N`` after each ``push`` returns. The test kills it with SIGKILL at
random moments (before anything is written, right after start-up, mid-game), then opens the
journal the way the daemon would after a power cut and checks the promise.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.bots import play
from companion.content import demo_pack
from companion.journal import Journal
from companion.match import Match
from companion.titles.outatime import rules as outatime
from companion.titles.outatime.bots import bot as outatime_bot

HELPER = Path(__file__).parent / "helpers" / "kill_player.py"
ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Ana", "Ben", "Cat", "Dan", "Eve", "Fay"]

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")


def reference_actions(seed: int, players: int) -> list[dict]:
    """The helper's game, played independently with the engine alone (no Match, no journal)."""
    rng = random.Random(seed)
    state = outatime.new_game(NAMES[:players], {}, demo_pack("outatime"))
    return [action for action, _, _ in play(outatime, state, rng, bot=outatime_bot)]


def state_after(actions: list[dict], players: int) -> dict:
    state = outatime.new_game(NAMES[:players], {}, demo_pack("outatime"))
    for action in actions:
        state, _ = outatime.apply(state, action)
    return outatime.to_json(state)


def run_and_kill(path: Path, seed: int, players: int, plan: tuple[str, float]) -> list[str]:
    """Start the helper, SIGKILL it according to ``plan``, return every line it printed."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, str(HELPER), str(path), str(seed), str(players)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    when, value = plan
    reader_done = threading.Event()

    def read() -> None:
        for line in proc.stdout:
            lines.append(line.strip())
        reader_done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 10
    if when == "after_start":  # a delay counted from the spawn (0: before Python even starts)
        time.sleep(value)
    elif when == "after_seq":  # mid-game: just after the value-th confirmed action
        while (
            not any(line == f"seq {int(value)}" for line in list(lines))
            and not reader_done.is_set()
            and time.monotonic() < deadline
        ):
            time.sleep(0.0005)
        time.sleep(random.Random(seed).uniform(0, 0.004))
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    reader.join(timeout=10)
    stderr = proc.stderr.read()
    proc.stderr.close()
    assert "Traceback" not in stderr, stderr
    return lines


def plans() -> list[tuple[int, int, tuple[str, float]]]:
    rng = random.Random(1985)
    out: list[tuple[int, int, tuple[str, float]]] = [
        (101, 4, ("after_start", 0.0)),  # killed before anything can be written
        (102, 3, ("after_start", 0.15)),  # around start-up: imports, journal creation
    ]
    for i in range(2):  # at a random moment by the clock, usually early in the game
        out.append((110 + i, rng.randint(2, 6), ("after_start", rng.uniform(0.16, 0.45))))
    for i in range(6):
        seed = 200 + i
        players = rng.randint(2, 6)
        n = len(reference_actions(seed, players))
        out.append((seed, players, ("after_seq", rng.randint(1, max(1, n - 2)))))
    out.append((300, 5, ("after_seq", 1)))  # very early: right after the first deal
    return out


@pytest.mark.parametrize(
    "seed,players,plan", plans(), ids=lambda v: str(v) if not isinstance(v, tuple) else None
)
def test_sigkill_never_loses_a_confirmed_action(tmp_path, seed, players, plan):
    path = tmp_path / "journal.sqlite3"
    lines = run_and_kill(path, seed, players, plan)
    confirmed = [int(line.split()[1]) for line in lines if line.startswith("seq ")]
    assert confirmed == list(range(1, len(confirmed) + 1))  # the helper printed them in order
    expected_all = reference_actions(seed, players)

    if not path.exists():  # killed before the journal file was even created
        assert confirmed == []
        return
    journal = Journal(path)  # opening recovers the WAL, as after a power cut
    try:
        assert journal.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        games = journal.games()
        if not games:
            assert confirmed == []
            assert Match.resume(journal) is None
            return
        assert len(games) == 1
        game = games[0]["id"]
        records = journal.records(game)
        seqs = [r["seq"] for r in records]
        assert set(confirmed) <= set(seqs)  # every confirmed action is there
        assert seqs == list(range(1, len(seqs) + 1))
        assert all(r["kind"] == "action" for r in records)
        # at most one action beyond the last confirmed one (written, killed before the print)
        assert len(seqs) - len(confirmed) in (0, 1)

        actions = journal.actions(game)
        assert actions == expected_all[: len(actions)]

        resumed = Match.resume(journal)
        if len(actions) == len(expected_all):
            # the game was over: not resumed, and marked finished even if the kill fell
            # between recording the winning action and marking the game
            assert resumed is None
            assert journal.unfinished() is None
            resumed = Match(journal, game)
        assert resumed is not None and resumed.game == game
        assert resumed.to_json() == state_after(expected_all[: len(actions)], players)

        # then the table carries on: resume and play the game to its end
        rng = random.Random(seed * 7)
        while resumed.actor() != "terminal":
            if resumed.actor() == "chance":
                action = outatime.sample_chance(resumed.state, rng)
            else:
                action = outatime_bot(outatime, resumed.state, rng)
            resumed.push(action)
        assert len(outatime.winners(resumed.state)) == 1
        assert journal.unfinished() is None
        assert journal.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        journal.close()

    # and a fresh process-level open sees the finished game, replayed to the same state
    journal = Journal(path)
    try:
        again = Match(journal, game)
        assert again.to_json() == resumed.to_json()
        assert again.actor() == "terminal"
    finally:
        journal.close()


def test_mid_game_kills_really_happened_mid_game(tmp_path):
    """Guard the test above: a kill after seq k leaves an unfinished game with >= k actions."""
    seed, players = 400, 4
    total = len(reference_actions(seed, players))
    k = total // 3
    path = tmp_path / "journal.sqlite3"
    lines = run_and_kill(path, seed, players, ("after_seq", k))
    assert "done" not in lines
    journal = Journal(path)
    try:
        game = journal.unfinished()
        assert game is not None
        assert k <= len(journal.actions(game)) < total
    finally:
        journal.close()
