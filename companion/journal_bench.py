"""`companion bench journal`: what the checksums cost at the table, and what they catch.

``timing`` uses only what every journal version has (``Journal(path)``, ``Match.push``,
``Match.resume``, the simulator's ``run_demo``), so the same function measures a journal
without checksums too: run this file with an older checkout first on ``PYTHONPATH``.
"""

from __future__ import annotations

import inspect
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def _journal(path: Path, backups: bool):
    from companion.journal import Journal

    if backups and "backup_every" in inspect.signature(Journal).parameters:
        return Journal(path, backup_every=600.0)  # as the table runs it: 10 minutes
    return Journal(path)


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 3),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
            "max": round(ordered[-1], 3)}


def timing(folder: Path, say, seed: int = 1985, night: bool = True) -> dict[str, Any]:
    """Append, push, resume and (with ``night``) roll-to-screen times on journal files."""
    from companion import titles
    from companion.content import demo_pack
    from companion.match import Match
    from companion.sim import run_demo

    key = titles.keys()[0]  # the first title (with dice): its bot's games are recorded
    engine, bot = titles.rules(key), titles.get(key).bots.bot

    result: dict[str, Any] = {}
    names = ["Ana", "Ben", "Cy", "Dee"]

    # Journal.append alone: 300 actions of a bot game, each synced to the file.
    path = folder / "append.sqlite3"
    journal = _journal(path, backups=True)
    rng = random.Random(seed)
    state = engine.new_game(names, {}, demo_pack(key))
    actions = []
    while engine.actor(state) != "terminal" and len(actions) < 300:
        if engine.actor(state) == "chance":
            action = engine.sample_chance(state, rng)
        else:
            action = bot(engine, state, rng)
        state, _ = engine.apply(state, action)
        actions.append(action)
    game = journal.new_game(key, {"players": names})
    wal = Path(f"{path}-wal")
    wal_before = wal.stat().st_size if wal.exists() else 0
    appends = []
    for action in actions:
        t0 = time.perf_counter()
        journal.append(game, action)
        appends.append((time.perf_counter() - t0) * 1000)
    wal_after = wal.stat().st_size if wal.exists() else 0
    journal.close()
    result["append_ms"] = _ms(appends)
    result["append_wal_bytes"] = round((wal_after - wal_before) / len(actions))
    say(f"append (synced to disk): median {result['append_ms']['median']} ms, "
        f"p95 {result['append_ms']['p95']} ms over {len(actions)} actions; "
        f"{result['append_wal_bytes']} bytes of WAL per action")

    # Match.push (rules + journal) and Match.resume of a long unfinished game.
    path = folder / "push.sqlite3"
    journal = _journal(path, backups=True)
    match = Match.new(journal, key, names, {}, demo_pack(key))
    pushes = []
    for action in actions[:-1]:
        t0 = time.perf_counter()
        match.push(action)
        pushes.append((time.perf_counter() - t0) * 1000)
    journal.close()
    result["push_ms"] = _ms(pushes)
    resumes = []
    for _ in range(5):
        journal = _journal(path, backups=True)
        t0 = time.perf_counter()
        resumed = Match.resume(journal)
        resumes.append((time.perf_counter() - t0) * 1000)
        journal.close()
    assert resumed is not None
    result["resume_ms"] = round(statistics.median(resumes), 1)
    result["resume_actions"] = len(actions) - 1
    say(f"confirmed action recorded (rules + journal): median {result['push_ms']['median']} ms, "
        f"p95 {result['push_ms']['p95']} ms; resume of a {len(actions) - 1}-action game: "
        f"{result['resume_ms']} ms")

    if not night:
        return result
    # A simulated night on a journal file: roll-to-screen, and each confirm recorded.
    path = folder / "night.sqlite3"
    journal = _journal(path, backups=True)
    confirms: list[float] = []
    push = Match.push

    def timed(self, action):
        t0 = time.perf_counter()
        try:
            return push(self, action)
        finally:
            confirms.append((time.perf_counter() - t0) * 1000)

    Match.push = timed
    try:
        with open(os.devnull, "w") as sink:
            summary = run_demo(journal, 4, seed, None, stream=sink)
    finally:
        Match.push = push
        journal.close()
    result["roll_to_screen_ms_median"] = summary["reading_to_screen_ms_median"]
    result["night_confirm_ms"] = _ms(confirms)
    result["night_actions"] = summary["actions"]
    say(f"demo night on a journal file ({summary['actions']} actions): settled roll to screen "
        f"median {summary['reading_to_screen_ms_median']} ms; confirm recorded median "
        f"{result['night_confirm_ms']['median']} ms, p95 {result['night_confirm_ms']['p95']} ms")
    return result


def backup_cost(path: Path, say, minutes: float = 10.0) -> dict[str, Any]:
    """The backup's size and time for a journal, and its writes per hour at the table."""
    from companion.journal import Journal, default_backup, write_backup

    journal = Journal(path)
    games = len(journal.games())
    journal.close()
    runs = [write_backup(path, default_backup(path)) for _ in range(3)]
    size = runs[-1].written
    per_game = size / max(1, games)
    per_hour = 60 / minutes + 2  # the interval while actions come, and about two game ends
    out = {
        "backup_bytes": size,
        "backup_games": games,
        "backup_ms": round(statistics.median(r.seconds for r in runs) * 1000, 1),
        "backup_bytes_per_game": round(per_game),
        "backups_per_hour": per_hour,
        "backup_writes_per_hour_mb": round(per_hour * size / 2**20, 2),
        "backup_writes_per_hour_mb_500_games": round(per_hour * 500 * per_game / 2**20, 1),
    }
    say(f"backup: {size / 1024:.0f} KiB for {games} games in {out['backup_ms']} ms; at "
        f"{per_hour:.0f} backups an hour {out['backup_writes_per_hour_mb']} MB/h written "
        f"(a journal of 500 such games: {out['backup_writes_per_hour_mb_500_games']} MB/h)")
    return out


def record_demo_night(path: Path, seed: int) -> None:
    """A simulated game night (``companion demo``'s own code), then a game left unfinished."""
    from companion.journal import Journal
    from companion.journal_drill import record_night
    from companion.sim import run_demo

    journal = Journal(path)
    try:
        with open(os.devnull, "w") as sink:
            run_demo(journal, 4, seed, None, stream=sink)
    finally:
        journal.close()
    record_night(path, seed=seed, players=3, finished=False)


def run(args) -> int:
    import logging

    from companion.journal import default_backup, write_backup
    from companion.journal_drill import drill, summary_line

    say = (lambda *a: None) if args.json else print
    logging.getLogger("companion").setLevel(logging.CRITICAL)  # the drills damage on purpose
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        result.update(timing(folder, say, args.seed, night=not args.quick))
        if args.journal:
            night = folder / "given.sqlite3"
            night.write_bytes(Path(args.journal).read_bytes())
        elif args.quick:  # bot games through Match only, no simulated table
            night = folder / "drill.sqlite3"
            from companion.journal_drill import record_night

            record_night(night, seed=args.seed)
        else:
            night = folder / "drill.sqlite3"
            record_demo_night(night, args.seed)
        result.update(backup_cost(night, say))
        backup = folder / "drill-backup.sqlite3"
        written = write_backup(night, backup)
        if written.skipped:
            say(f"the journal to drill is damaged already: {written.skipped}")
            backup = None
        drills = []
        for where, with_backup in (("cell", False), ("action", False), ("cell", True)):
            if with_backup and backup is None:
                continue
            say(f"flipping {args.flips} bits in the {where}s of confirmed actions"
                f"{' (a backup beside each copy)' if with_backup else ''}:")
            t0 = time.perf_counter()
            outcome = drill(night, folder / "work", args.flips, seed=args.seed, where=where,
                            backup=backup if with_backup else None, say=say,
                            named=args.journal)
            outcome["seconds"] = round(time.perf_counter() - t0, 1)
            say("  " + summary_line(outcome))
            for kind in ("silent", "traceback"):
                for example in outcome["examples"].get(kind, []):
                    say(f"  {kind.upper()}: {example}")
            outcome.pop("examples")
            drills.append(outcome)
        default_backup(night).unlink(missing_ok=True)
        result["drills"] = drills
    print(json.dumps(result))
    bad = sum(d["silent"] + d["traceback"] for d in result["drills"])
    return 1 if bad else 0


if __name__ == "__main__":  # timing only: `python companion/journal_bench.py` on any version
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(timing(Path(tmp), print)))
