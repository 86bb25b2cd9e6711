"""Damage drills for the journal: flip bits where a failing SD card would, and see what notices.

``record_cells`` reads the SQLite file format (https://www.sqlite.org/fileformat2.html) to find
the bytes of every record of the ``records`` table: its cell on a b-tree leaf page, and each
column's bytes inside it. ``drill`` copies a journal, flips one bit inside one confirmed action
and asks every reader what it makes of it: ``journal export`` of every game (through the
command line, as a person would), ``Match.resume`` and, when resuming refuses, going on from
the last good action. Each flip is counted as

- ``harmless``: nothing reads differently (the bit was one nobody reads, or the chain proved
  the content anyway: a checksum hit, or a record put back from the backup);
- ``detected``: a reader refused with a message naming the game and the action;
- ``silent``: a reader gave something other than what was confirmed, saying nothing;
- ``traceback``: a reader failed with an exception instead of a message.

The last two must stay at zero.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import sqlite3
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

COLUMNS = {
    "records": ("game", "seq", "kind", "action", "at", "sum", "stamp"),
    "games": ("id", "title", "setup", "created", "finished", "sum", "stamp", "sealed"),
}


@dataclass
class Cell:
    """Where one record lives in the file: the whole cell and each column's bytes."""

    rowid: int
    start: int
    end: int
    columns: dict[str, tuple[int, int]]
    values: dict[str, Any] = field(default_factory=dict)


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = data[pos + i]
        if i == 8:
            return (value << 8) | byte, pos + 9
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, pos + i + 1
    raise ValueError("bad varint")


def _serial_size(serial: int) -> int:
    if serial < 12:
        return (0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0)[serial]
    return (serial - 12) // 2 if serial % 2 == 0 else (serial - 13) // 2


def _value(serial: int, raw: bytes) -> Any:
    if serial == 0:
        return None
    if 1 <= serial <= 6:
        return int.from_bytes(raw, "big", signed=True)
    if serial == 7:
        import struct

        return struct.unpack(">d", raw)[0]
    if serial in (8, 9):
        return serial - 8
    return raw.decode("utf-8", "replace") if serial % 2 else raw


def _local_size(payload: int, usable: int) -> int:
    """Bytes of a table leaf cell's payload kept on its page (fileformat2, "Cell Payload")."""
    most = usable - 35
    if payload <= most:
        return payload
    least = (usable - 12) * 32 // 255 - 23
    k = least + (payload - least) % (usable - 4)
    return k if k <= most else least


def record_cells(path: str | Path, table: str = "records") -> list[Cell]:
    """Every row of ``table`` in a (checkpointed) journal file, with its byte ranges."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?",
                       (table,)).fetchone()[0]
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = Path(path).read_bytes()
    usable = page_size - data[20]
    cells: list[Cell] = []
    pages = [root]
    while pages:
        number = pages.pop()
        base = (number - 1) * page_size
        header = base + (100 if number == 1 else 0)
        kind = data[header]
        count = int.from_bytes(data[header + 3: header + 5], "big")
        if kind == 0x05:  # interior table page: child pointers, then the right-most one
            pointers = header + 12
            for i in range(count):
                cell = base + int.from_bytes(data[pointers + 2 * i: pointers + 2 * i + 2], "big")
                pages.append(int.from_bytes(data[cell: cell + 4], "big"))
            pages.append(int.from_bytes(data[header + 8: header + 12], "big"))
            continue
        if kind != 0x0D:
            raise ValueError(f"page {number}: not a table b-tree page ({kind:#x})")
        pointers = header + 8
        for i in range(count):
            start = base + int.from_bytes(data[pointers + 2 * i: pointers + 2 * i + 2], "big")
            size, pos = _varint(data, start)
            rowid, pos = _varint(data, pos)
            local = _local_size(size, usable)  # the rest is on overflow pages
            end = pos + local
            head_size, p = _varint(data, pos)
            body = pos + head_size
            columns: dict[str, tuple[int, int]] = {}
            values: dict[str, Any] = {}
            for name in COLUMNS[table]:
                if p >= pos + head_size:
                    break
                serial, p = _varint(data, p)
                length = _serial_size(serial)
                if body < end:  # the bytes of this column on the leaf page
                    columns[name] = (body, min(body + length, end))
                    values[name] = _value(serial, data[body: body + length])
                body += length
            values.setdefault("id", rowid)
            cells.append(Cell(rowid, start, end, columns, values))
    return sorted(cells, key=lambda c: c.rowid)


def flip(path: str | Path, offset: int, bit: int) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ (1 << bit)]))


def settle(path: str | Path) -> None:
    """Fold the WAL into the file, so every record is where ``record_cells`` looks."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


# --------------------------------------------------------------------------- the drill


@dataclass
class Outcome:
    kind: str  # harmless | detected | silent | traceback
    detail: str = ""
    went_on: bool = False  # a damaged unfinished game resumed from its last good action
    restored: bool = False  # the backup put the record back


@dataclass
class Reference:
    """What was confirmed: every game's export, and the unfinished game's state and records."""

    exports: dict[int, str]
    unfinished: int | None
    state: Any
    records: dict[int, list[dict[str, Any]]]
    setups: dict[int, dict[str, Any]]


def reference(path: Path) -> Reference:
    from companion.journal import Journal
    from companion.match import Match

    exports: dict[int, str] = {}
    for game in _games(path):
        code, out, err = _export(path, game)
        if code != 0:
            raise RuntimeError(f"the drill's own journal does not export: {err}")
        exports[game] = out
    journal = Journal(path)
    try:
        match = Match.resume(journal)
        records = {g: journal.records(g) for g in exports}
        setups = {g: journal.setup(g) for g in exports}
        return Reference(exports, match.game if match else None,
                         match.to_json() if match else None, records, setups)
    finally:
        journal.close()


def _games(path: Path) -> list[int]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [g for (g,) in con.execute("SELECT id FROM games ORDER BY id")]
    finally:
        con.close()


def _export(path: Path, game: int) -> tuple[int, str, str]:
    from companion.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["journal", "export", "--journal", str(path), "--game", str(game)])
    return code, out.getvalue(), err.getvalue()


def try_one(copy: Path, ref: Reference, target: Cell) -> Outcome:
    """Every reader on a damaged copy; ``target`` is the record that was hit."""
    from companion.journal import Journal, JournalDamaged, stacks
    from companion.match import Match, replay

    game, seq = target.values.get("game"), target.values.get("seq")
    outcome = Outcome("harmless")
    for g, expected in ref.exports.items():
        try:
            code, out, err = _export(copy, g)
        except BaseException:  # noqa: BLE001 - the drill counts every escape
            return Outcome("traceback", f"export game {g}: {traceback.format_exc()}")
        if code == 0 and out != expected:
            return Outcome("silent", f"export game {g} exit 0 but differs; stderr: {err!r}")
        if code == 0 and err:
            outcome.restored = outcome.restored or "backup" in err
        if code != 0:
            words = (f"game {g}", "action ")
            if not all(w in err for w in words) or "Traceback" in err:
                return Outcome("traceback" if "Traceback" in err else "silent",
                               f"export game {g} refused without naming game and action: {err}")
            outcome = Outcome("detected", err.strip(), restored=outcome.restored)
    if ref.unfinished is None:
        return outcome
    journal = None
    try:
        journal = Journal(copy)
        try:
            match = Match.resume(journal)
        except JournalDamaged as exc:
            check = exc.check
            if check.game != ref.unfinished:
                return Outcome("silent", f"resume names game {check.game}")
            if outcome.kind != "detected":
                return Outcome("silent", "resume refused but export said nothing")
            good = check.good
            if game == ref.unfinished and isinstance(seq, int) and good > seq - 1:
                return Outcome("silent", f"went on from {good}, the damage was at {seq}")
            match = Match.go_on(journal, check)
            kept = ref.records[check.game][:good]
            want = replay(ref.setups[check.game], stacks(_records(kept))[0])
            if match.to_json() != match.engine.to_json(want):
                return Outcome("silent", f"went on from {good} but the state differs")
            outcome.went_on = True
            return outcome
        if match is None or match.game != ref.unfinished or match.to_json() != ref.state:
            return Outcome("silent", "resumed a different game or state")
        return outcome
    except BaseException:  # noqa: BLE001
        return Outcome("traceback", f"resume: {traceback.format_exc()}")
    finally:
        if journal is not None:
            journal.close()


def _records(rows: list[dict[str, Any]]):
    from companion.journal import Record

    return [Record(r["seq"], r["kind"], r["action"], r["at"]) for r in rows]


def drill(source: Path, work: Path, flips: int, seed: int = 1985, where: str = "cell",
          backup: Path | None = None, say=None, named: Path | str | None = None
          ) -> dict[str, Any]:
    """``flips`` single-bit flips in the confirmed actions of ``source``; counts by outcome.

    ``where``: "cell" (any byte of the record's cell: header, numbers, text, checksums) or
    "action" (the action's JSON text only). With ``backup``, a backup sits beside each copy.
    ``named``: the journal as its owner named it, when ``source`` is a copy of it.
    """
    work.mkdir(parents=True, exist_ok=True)
    base = work / "reference.sqlite3"
    shutil.copy2(source, base)
    settle(base)
    ref = reference(base)
    settle(base)
    cells = [c for c in record_cells(base) if where != "action" or c.values.get("action")]
    if not cells:
        from companion.i18n import _
        from companion.journal import JournalError

        raise JournalError(_("{journal}: no recorded action to damage; drill a journal that "
                             "holds games").format(journal=named or source))
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    went_on = restored = 0
    for n in range(flips):
        cell = rng.choice(cells)
        lo, hi = cell.columns["action"] if where == "action" else (cell.start, cell.end)
        offset, bit = rng.randrange(lo, hi), rng.randrange(8)
        trial = work / f"flip-{n % 2}"
        if trial.exists():
            shutil.rmtree(trial)
        trial.mkdir()
        copy = trial / "journal.sqlite3"
        shutil.copy2(base, copy)
        if backup is not None:
            shutil.copy2(backup, trial / "journal.backup.sqlite3")
        flip(copy, offset, bit)
        result = try_one(copy, ref, cell)
        counts[result.kind] += 1
        went_on += result.went_on
        restored += result.restored
        field_hit = next((name for name, (a, b) in cell.columns.items() if a <= offset < b),
                         "cell header")
        counts[f"hit {field_hit}"] += 1
        if result.kind != "harmless":
            examples.setdefault(result.kind, [])
            if len(examples[result.kind]) < 3:
                examples[result.kind].append(
                    f"game {cell.values.get('game')} action {cell.values.get('seq')} "
                    f"({field_hit}, byte {offset} bit {bit}): {result.detail[-1200:]}")
        if say and (n + 1) % 100 == 0:
            tally = {k: v for k, v in sorted(counts.items()) if not k.startswith("hit ")}
            say(f"  {n + 1} flips: {tally}")
    shutil.rmtree(work / "flip-0", ignore_errors=True)
    shutil.rmtree(work / "flip-1", ignore_errors=True)
    return {
        "flips": flips,
        "where": where,
        "backup": backup is not None,
        "harmless": counts["harmless"],
        "detected": counts["detected"],
        "silent": counts["silent"],
        "traceback": counts["traceback"],
        "went_on_from_last_good": went_on,
        "restored_from_backup": restored,
        "fields_hit": {k[4:]: v for k, v in sorted(counts.items()) if k.startswith("hit ")},
        "examples": examples,
    }


def record_night(path: Path, seed: int = 1985, players: int = 3, finished: bool = True) -> None:
    """A journal like a game night's: one finished game (unless not ``finished``), then one
    left unfinished after 40 actions, with undo and redo among them."""
    from companion import titles
    from companion.content import demo_pack
    from companion.journal import Journal
    from companion.match import Match

    key = titles.keys()[0]  # the first title (with dice): its bot's games are recorded
    engine, bot = titles.rules(key), titles.get(key).bots.bot

    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"][:players]
    rng = random.Random(seed)
    journal = Journal(path)
    try:
        for limit in ((None, 40) if finished else (40,)):
            match = Match.new(journal, key, names, {}, demo_pack(key))
            n = 0
            while match.actor() != "terminal" and (limit is None or n < limit):
                if match.actor() == "chance":
                    action = engine.sample_chance(match.state, rng)
                else:
                    action = bot(engine, match.state, rng)
                match.push(action)
                n += 1
                if limit is not None and n in (15, 30):
                    match.undo()
                    match.undo()
                    match.redo()
    finally:
        journal.close()


def summary_line(result: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in result.items() if k != "examples"})
