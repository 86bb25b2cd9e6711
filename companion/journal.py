"""The game journal: an append-only SQLite log of every confirmed action, that notices damage.

The journal is the truth. A game's state is never stored: it is rebuilt by replaying the game's
setup and its actions through the title's engine, so undo, redo, crash recovery and history are
one mechanism. Undo and redo are records of their own (nothing is ever deleted or rewritten).

Every append is its own transaction, committed with ``synchronous=FULL`` in WAL mode before the
call returns, so an action that was announced can never be lost by a power cut or a SIGKILL.

An SD card can hand back other bytes than were written, and SQLite checks only its own
structure. So every row carries a checksum (``hashlib.blake2b``, 16 bytes) of what it says:

- a game's ``sum`` covers its id, title and setup;
- record N's ``sum`` covers the game, N, the kind, the action and record N-1's sum (the game's
  for N = 1): a chain, so a changed, missing or reordered record breaks every link after it;
- a ``stamp`` covers each row's time apart, so a damaged clock reading never costs an action;
- ``heads`` keeps each game's last record number and sum (and a seal over the finish mark), so
  records lost at the end are noticed too.

Every read checks the chain (``check``). A row whose checksum alone was damaged is proven by the
next link; a damaged record is looked for in the rolling backup (``write_backup``, SQLite's
online backup API) and taken from there when the chain proves it is the one written. What
cannot be proven raises ``JournalDamaged`` naming the game and the action; ``rebuild`` then
writes a clean journal (going on from the last good action, or closing the game) and keeps the
damaged file aside, untouched.

    >>> j = Journal(":memory:")
    >>> gid = j.new_game("some-title", {"players": ["Ana", "Ben"]})
    >>> j.append(gid, {"type": "end"})
    1
    >>> j.actions(gid)
    [{'type': 'end'}]
    >>> j.undo(gid)
    {'type': 'end'}
    >>> j.actions(gid)
    []
    >>> j.check(gid).ok
    True
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.files import fsync_folder
from companion.i18n import _

log = logging.getLogger("companion.journal")

VERSION = 2  # PRAGMA user_version; 0 is the first journal (no checksums), migrated on open

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    setup TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL,
    sum BLOB,
    stamp BLOB,
    sealed REAL
);
CREATE TABLE IF NOT EXISTS records (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo')),
    action TEXT,
    at REAL NOT NULL,
    sum BLOB,
    stamp BLOB,
    PRIMARY KEY (game, seq)
);
"""
# Every column of every table, as the schema makes them (checked before a game is started).
_COLUMNS = {
    "games": ("id", "title", "setup", "created", "finished", "sum", "stamp", "sealed"),
    "records": ("game", "seq", "kind", "action", "at", "sum", "stamp"),
    "heads": ("game", "seq", "sum", "seal"),
    "repairs": ("id", "game", "at", "note", "sum"),
}
# Tables the first journal did not have (created by a new journal and by the migration).
SCHEMA_2 = """
CREATE TABLE IF NOT EXISTS heads (
    game INTEGER PRIMARY KEY,
    seq INTEGER NOT NULL,
    sum BLOB NOT NULL,
    seal BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS repairs (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL,
    at REAL NOT NULL,
    note TEXT NOT NULL,
    sum BLOB NOT NULL
);
"""

BACKUP_SUFFIX = ".backup"
DAMAGED_INFIX = ".damaged-"


class JournalError(RuntimeError):
    """The journal file cannot be used; the message says which file and what to do."""


# --------------------------------------------------------------------------- checksums


def _encode(value: Any) -> bytes:
    if value is None:
        return b"N"
    if isinstance(value, int) and not isinstance(value, bool):
        tag, data = b"I", str(value).encode()
    elif isinstance(value, float):
        tag, data = b"F", value.hex().encode()
    elif isinstance(value, str):
        tag, data = b"T", value.encode("utf-8", "surrogatepass")
    elif isinstance(value, (bytes, bytearray, memoryview)):
        tag, data = b"T", bytes(value)  # text is read back as bytes: the same tag
    else:
        tag, data = b"?", repr(value).encode()
    return tag + len(data).to_bytes(4, "big") + data


def digest(*parts: Any) -> bytes:
    """The journal's checksum of ``parts`` (16 bytes of BLAKE2b)."""
    h = hashlib.blake2b(digest_size=16, person=b"companion-jrnl")
    for part in parts:
        h.update(_encode(part))
    return h.digest()


def game_sum(game: int, title: Any, setup: Any) -> bytes:
    return digest(b"game", game, title, setup)


def record_sum(prev: bytes, game: int, seq: int, kind: Any, action: Any) -> bytes:
    return digest(prev, game, seq, kind, action)


def stamp(row_sum: bytes, at: Any, before: Any = None) -> bytes:
    """A row's time check: its sum, its time and the time of the row before (None for a game)."""
    return digest(b"at", row_sum, at, before)[:8]


def seal(game: int, seq: Any, head_sum: Any, finished: Any, last_at: Any) -> bytes:
    """A game's end mark: its last record (number, sum, time) and its finish mark."""
    return digest(b"head", game, seq, head_sum, finished, last_at)


def note_sum(game: Any, at: Any, note: Any) -> bytes:
    return digest(b"repair", game, at, note)


# --------------------------------------------------------------------------- what a check finds


@dataclass
class Problem:
    """Something found wrong with one row of a game.

    ``seq`` is the record (action) number, 0 for the game's own row (title, players, cards) and
    ``total + 1`` for records missing at the end. ``proven``: what the game says is still known
    for sure (only a checksum, a time or the finish mark was hit, or the backup held the row).
    """

    game: int
    seq: int
    what: str  # changed | unreadable | missing | restored | checksum | time | finish | head
    known: str
    proven: bool


@dataclass
class Record:
    seq: int
    kind: str
    action: Any
    at: float | None  # None: the time was damaged and is not known
    raw: bytes | None = None  # the action text as written
    from_backup: bool = False


@dataclass
class GameCheck:
    """A game as the chain proves it: what is intact, and the first thing that is not."""

    path: str
    game: int
    title: str | None = None
    setup: dict[str, Any] | None = None
    setup_raw: bytes | None = None
    created: float | None = None
    finished: float | None = None
    finish_proven: bool = True
    sealed: float | None = None  # when a migrated game was first given checksums
    total: int = 0  # records the game holds (by its head)
    chain: bytes | None = None  # the sum of the last proven row: what the next record builds on
    records: list[Record] = field(default_factory=list)  # proven, from 1 up
    problems: list[Problem] = field(default_factory=list)
    damage: Problem | None = None  # the first thing not proven: the game stops before it
    after: tuple[int, int] = (0, 0)  # records after the damage: (intact by their own link, all)
    backup: str | None = None  # the backup file that was consulted, if any
    backup_note: str = ""

    @property
    def good(self) -> int:
        """The last action number proven, in order, from the start."""
        return len(self.records)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def fully_proven(self) -> bool:
        """Every action and every time is known (some perhaps from the backup)."""
        return self.damage is None and all(r.at is not None for r in self.records) and (
            self.created is not None)

    def message(self) -> str:
        """The first problem in words: the game, the action number and what is known of it."""
        problem = self.damage or (self.problems[0] if self.problems else None)
        if problem is None:
            return _("{journal}: game {game} is intact ({n} actions)").format(
                journal=self.path, game=self.game, n=self.total)
        return describe(self, problem)


def describe(check: GameCheck, problem: Problem) -> str:
    title = check.title or "?"
    if problem.seq == 0:
        text = _("{journal}: game {game} ({title}) is damaged in its own row (players, cards, "
                 "start time): {known}.").format(journal=check.path, game=check.game,
                                                 title=title, known=problem.known)
        if not problem.proven:
            text += " " + _("It cannot be replayed.")
    else:
        text = _("{journal}: game {game} ({title}) is damaged at action {seq} of {total}: "
                 "{known}.").format(journal=check.path, game=check.game, title=title,
                                    seq=problem.seq, total=max(check.total, problem.seq),
                                    known=problem.known)
        if not problem.proven and check.good:
            text += " " + _("Actions 1 to {good} are intact: the game can go on from action "
                            "{good}.").format(good=check.good)
        elif not problem.proven:
            text += " " + _("No action before it: the game can start again from its setup.")
        if not problem.proven:
            intact, later = check.after
            if later:  # said so the owner knows what the damaged file still holds
                text += " " + _("{intact} of the {later} actions after it read intact but "
                                "cannot be replayed without it.").format(intact=intact,
                                                                         later=later)
    if not problem.proven and check.backup_note:
        text += " " + check.backup_note
    return text


class JournalDamaged(JournalError):
    """A game's records cannot all be proven: ``check`` says where and what is known."""

    def __init__(self, check: GameCheck):
        super().__init__(check.message())
        self.check = check


class JournalWriteError(JournalError):
    """The journal cannot be written now, though nothing in it is proven damaged: the disk is
    full (``kind`` "full"), the file or its folder is read-only ("read-only"), another
    program holds it ("busy"), the card failed a write ("io"), or a newer version of the
    companion wrote it ("newer"). What was recorded before is whole; what was being written
    was not recorded."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind


_FULL = {"SQLITE_FULL"}
_READ_ONLY = {"SQLITE_READONLY", "SQLITE_READONLY_DIRECTORY", "SQLITE_READONLY_DBMOVED",
              "SQLITE_READONLY_RECOVERY", "SQLITE_READONLY_CANTLOCK", "SQLITE_PERM",
              "SQLITE_AUTH"}


def damaged_write(path: str | Path, what: str) -> JournalError:
    """A write refused because the file itself is damaged (not the disk): what to run."""
    return JournalError(_(
        "{journal}: cannot be written, the file is damaged ({what}). Nothing was recorded now; "
        "what was recorded before is unchanged. Run `companion journal check`, then `companion "
        "journal repair` (it keeps what the backup holds).").format(journal=path, what=what))


def write_problem(exc: BaseException, path: str | Path) -> JournalWriteError | None:
    """A full disk or a read-only journal behind ``exc`` (an SQLite or OS error) as a message
    that says what to do; None when ``exc`` is something else (damage, a bug)."""
    import errno

    where = Path(path)
    folder = where.parent if str(where) != ":memory:" else Path(".")
    name = getattr(exc, "sqlite_errorname", "") or ""
    code = getattr(exc, "errno", None)
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = None
    try:  # a card mounted read-only (or remounted so after an error) says so itself
        mounted_ro = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        mounted_ro = False
    said_full = name in _FULL or code == errno.ENOSPC or "disk is full" in str(exc)
    unwritable = [p for p in (where, folder) if p.exists() and not os.access(p, os.W_OK)]
    # Read-only before the free-space guess below: a small read-only mount has little room
    # left too, and "free some space" would send the owner the wrong way.
    read_only = not said_full and (
        name in _READ_ONLY or code in (errno.EROFS, errno.EACCES, errno.EPERM)
        or ((unwritable or mounted_ro)
            and name.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_READ"))))
    if said_full or (not read_only and free is not None and free < 256 * 1024
                     and name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN"))):
        left = _("{kib} KB").format(kib=f"{free / 1024:,.0f}") if free is not None else "?"
        return JournalWriteError(_(
            "{journal}: the disk is full ({left} left in {folder}). Nothing recorded before is "
            "lost; what was being recorded now was not. Free some space (e.g. old demo-out "
            "frames, `sudo journalctl --vacuum-size=50M`), then try again.").format(
                journal=path, left=left, folder=folder), "full")
    if read_only:
        which = unwritable[0] if unwritable else folder if mounted_ro else where
        return JournalWriteError(_(
            "{journal}: cannot be written ({which} is read-only: {error}). The journal is not "
            "damaged: give the user the companion runs as write access to the file and its "
            "folder, or mount the card read-write. `companion journal list` and `companion "
            "journal export` can read it as it is.").format(
                journal=path, which=which, error=exc), "read-only")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return JournalWriteError(_(
            "{journal}: another program holds the journal (a second `companion run`, or a "
            "repair?); nothing was recorded. Stop the other one, then try again.").format(
                journal=path), "busy")
    if name.startswith("SQLITE_IOERR") or code == errno.EIO:
        return JournalWriteError(_(
            "{journal}: the card could not write ({error}). Nothing recorded before is lost; "
            "what was being recorded now was not. The SD card may be failing: copy the state "
            "directory off it, and run `companion doctor`.").format(journal=path, error=exc),
            "io")
    return None


# --------------------------------------------------------------------------- reading rows


# Text columns are read as the bytes stored: damaged text must not fail to decode before it is
# checked (the checksums cover those bytes; text and bytes hash alike).
_RECORD_PARTS = (("seq", "seq"), ("kind", "CAST(kind AS BLOB)"),
                 ("action", "CAST(action AS BLOB)"), ("at", "at"), ("sum", "sum"),
                 ("stamp", "stamp"))
_RECORD = ", ".join(expr for _name, expr in _RECORD_PARTS)
_GAME_ROW_PARTS = (("title", "CAST(title AS BLOB)"), ("setup", "CAST(setup AS BLOB)"),
                   ("created", "created"), ("finished", "finished"), ("sum", "sum"),
                   ("stamp", "stamp"), ("sealed", "sealed"))
_GAME_ROW = ", ".join(expr for _name, expr in _GAME_ROW_PARTS)


def _present(db: sqlite3.Connection, table: str, parts: tuple[tuple[str, str], ...]) -> str:
    """The columns ``parts`` names, with NULL for those ``table`` no longer has."""
    try:
        have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        have = {name for name, _expr in parts}
    return ", ".join(expr if name in have else "NULL" for name, expr in parts)


class _Source:
    """One journal file's rows exactly as stored (text as bytes); damage never raises here."""

    def __init__(self, db: sqlite3.Connection, name: str):
        self.db = db
        self.name = name

    def game_row(self, game: int) -> tuple | str | None:
        query = "SELECT {} FROM games WHERE id = ?"
        try:
            return self.db.execute(query.format(_GAME_ROW), (game,)).fetchone()
        except sqlite3.DatabaseError as exc:
            error = str(exc)
        try:  # a column gone, read as missing: only its own checks fail
            columns = _present(self.db, "games", _GAME_ROW_PARTS)
            return self.db.execute(query.format(columns), (game,)).fetchone()
        except sqlite3.DatabaseError:
            return error

    def head(self, game: int) -> tuple | str | None:
        try:
            return self.db.execute(
                "SELECT seq, sum, seal FROM heads WHERE game = ?", (game,)).fetchone()
        except sqlite3.DatabaseError as exc:
            return str(exc)

    def rows(self, game: int, upto: int) -> tuple[dict[int, list[tuple]], dict[int, str]]:
        """Records by number (a damaged number may give several candidates), and errors."""
        found: dict[int, list[tuple]] = {}
        errors: dict[int, str] = {}
        columns = _RECORD
        rows = None
        # As stored; then past a damaged index (a scan of the table itself), with a column
        # gone read as missing (its checks fail for that column alone).
        for tried in range(2):
            if tried:
                columns = _present(self.db, "records", _RECORD_PARTS)
            try:
                rows = self.db.execute(
                    f"SELECT {columns} FROM records {'NOT INDEXED ' if tried else ''}"
                    "WHERE game = ? ORDER BY seq", (game,)).fetchall()
                break
            except sqlite3.DatabaseError:
                continue
        if rows is not None:
            for row in rows:
                if isinstance(row[0], int):
                    found.setdefault(row[0], []).append(row)
            return found, errors
        # SQLite cannot read the game's records in one go: read them one by one.
        try:
            top = self.db.execute(
                "SELECT MAX(seq) FROM records WHERE game = ?", (game,)).fetchone()[0]
        except sqlite3.DatabaseError:
            top = None
        for seq in range(1, max(upto, top if isinstance(top, int) else 0) + 1):
            try:
                rows = self.db.execute(
                    f"SELECT {columns} FROM records WHERE game = ? AND seq = ?",
                    (game, seq)).fetchall()
            except sqlite3.DatabaseError as exc:
                errors[seq] = str(exc)
                continue
            for row in rows:
                found.setdefault(seq, []).append(row)
        return found, errors

    def notes(self) -> list[tuple[int, float, dict[str, Any]]]:
        """Proven repair notes: (game, at, note)."""
        try:
            rows = self.db.execute(
                "SELECT game, at, CAST(note AS BLOB), sum FROM repairs ORDER BY id").fetchall()
        except sqlite3.DatabaseError:
            return []
        out = []
        for game, at, note, row_sum in rows:
            if row_sum == note_sum(game, at, note):
                try:
                    value = json.loads(note)
                except ValueError:
                    continue
                if isinstance(value, dict):  # every note the companion writes is an object
                    out.append((game, at, value))
        return out


def _text(value: Any, limit: int = 80) -> str:
    """Bytes as read, for a message (damaged bytes shown as the replacement character)."""
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", "replace")
    text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _clock(at: Any) -> str:
    if isinstance(at, float) and 0 < at < 1e11:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))
    return _("an unreadable time")


def _decode_kind(kind: Any) -> str | None:
    if isinstance(kind, (bytes, str)):
        text = kind.decode("utf-8", "replace") if isinstance(kind, bytes) else kind
        if text in ("action", "undo", "redo"):
            return text
    return None


def _decode_action(kind: str, action: Any) -> tuple[bool, Any]:
    if action is None:
        return kind != "action", None
    try:
        value = json.loads(action)
    except (ValueError, TypeError):
        return False, None
    return kind == "action" and isinstance(value, dict), value


class _Game:
    """One game's rows from the journal and, only once something fails, from the backup."""

    def __init__(self, source: _Source, game: int, backup: Callable[[], _Source | None] | None):
        self.game = game
        self.row = source.game_row(game)
        head = source.head(game)
        self.head_error = head if isinstance(head, str) else None
        self.head = head if isinstance(head, tuple) else None
        self.head_seq = (self.head[0] if self.head and isinstance(self.head[0], int)
                         and self.head[0] >= 0 else None)
        self.head_sum = self.head[1] if self.head else None
        self.rows, self.errors = source.rows(game, self.head_seq or 0)
        self._backup = backup
        self._spare: list[_Source | None] = []
        self._spare_rows: dict[int, list[tuple]] | None = None

    def spare(self) -> _Source | None:
        if not self._spare:
            self._spare.append(self._backup() if self._backup else None)
        return self._spare[0]

    def close(self) -> None:
        if self._spare and self._spare[0] is not None:
            self._spare[0].db.close()

    def spare_row(self) -> tuple | None:
        src = self.spare()
        row = src.game_row(self.game) if src is not None else None
        return row if isinstance(row, tuple) else None

    def own(self, seq: int) -> list[tuple]:
        return [r for r in self.rows.get(seq, []) if r[0] == seq]

    def others(self, seq: int) -> list[tuple]:
        src = self.spare()
        if src is None:
            return []
        if self._spare_rows is None:
            self._spare_rows = src.rows(self.game, 0)[0]
        return [r for r in self._spare_rows.get(seq, []) if r[0] == seq]

    def candidates(self, seq: int, spare: bool) -> list[tuple[tuple, bool]]:
        out = [(r, False) for r in self.own(seq)]
        return out + [(r, True) for r in self.others(seq)] if spare else out

    def witnesses(self, seq: int, spare: bool) -> set[bytes]:
        out = {r[4] for r, _b in self.candidates(seq, spare) if isinstance(r[4], bytes)}
        if self.head_seq == seq and isinstance(self.head_sum, bytes):
            out.add(self.head_sum)
        return out

    def proves_next(self, value: bytes, seq: int, spare: bool) -> bool:
        """Does ``value``, taken as the sum before record ``seq``, make record ``seq`` verify?"""
        if self.head_seq == seq - 1 and value == self.head_sum:
            return True
        wanted = self.witnesses(seq, spare)
        return any(record_sum(value, self.game, seq, r[1], r[2]) in wanted
                   for r, _b in self.candidates(seq, spare))

    def prove(self, chain: bytes, seq: int) -> tuple[tuple, bool, bytes] | None:
        """The row the chain proves for ``seq``: the journal's own first, the backup's after.

        A row is proven by its stored sum, the backup's sum for it, or the next record (or the
        head) verifying on top of it: then only its stored sum was damaged.
        """
        for spare in (False, True):
            options = [(r, b, record_sum(chain, self.game, seq, r[1], r[2]))
                       for r, b in self.candidates(seq, spare)]
            wanted = self.witnesses(seq, spare)
            for row, from_backup, value in options:
                if value in wanted:
                    return row, from_backup, value
            for row, from_backup, value in options:
                if self.proves_next(value, seq + 1, spare):
                    return row, from_backup, value
        return None


def check_game(source: _Source, game: int, path: str,
               backup: Callable[[], _Source | None] | None = None) -> GameCheck:
    """Walk one game's chain; ``backup`` opens the backup when the journal's rows fail."""
    g = _Game(source, game, backup)
    try:
        return _check(g, GameCheck(path=path, game=game))
    finally:
        g.close()


def _check(g: _Game, check: GameCheck) -> GameCheck:
    game, path = check.game, check.path
    row_gone = g.row is None
    if row_gone:
        if not g.rows and g.head is None:
            raise JournalError(_("{journal}: no game {game}").format(journal=path, game=game))
        g.row = _("its row is gone from the list of games")  # its actions are still there
    last = max([g.head_seq or 0, *g.rows.keys(), *g.errors.keys()])
    check.total = last

    # ---- the game's own row: its sum, the backup's, or record 1 (or the head) built on it
    found = None
    own_row = g.row if isinstance(g.row, tuple) else None
    if own_row is not None:
        value = game_sum(game, own_row[0], own_row[1])
        if value == own_row[4] or g.proves_next(value, 1, False):
            found = (own_row, False, value)
    if found is None:
        alt = g.spare_row()
        for row, from_backup in ([(own_row, False)] if own_row else []) + (
                [(alt, True)] if alt else []):
            value = game_sum(game, row[0], row[1])
            wanted = {r[4] for r in (own_row, alt) if r is not None}
            if value in wanted or g.proves_next(value, 1, True):
                found = (row, from_backup, value)
                break
    if found is None:
        if isinstance(g.row, str):
            known = g.row if row_gone else _("SQLite cannot read it ({error})").format(
                error=g.row)
        else:
            known = _("it reads as {title!r} with {size} bytes of setup, which is not what "
                      "was written").format(title=_text(g.row[0], 20),
                                            size=len(g.row[1] or b""))
        check.damage = Problem(game, 0, "unreadable" if isinstance(g.row, str) else "changed",
                               known, False)
        check.problems.append(check.damage)
        _note_backup(check, g.spare())
        return check
    row, from_backup, chain = found
    title, setup, _created, _finished, stored, _stamp, sealed = row
    check.title = _text(title)
    try:
        check.setup = json.loads(setup)
        check.setup_raw = bytes(setup)
    except (ValueError, TypeError):
        check.damage = Problem(game, 0, "changed", _(
            "its setup could not be read when the journal was given checksums"), False)
        check.problems.append(check.damage)
        return check
    if from_backup:
        check.problems.append(Problem(game, 0, "restored", _("taken from the backup"), True))
    elif stored != chain:
        check.problems.append(Problem(game, 0, "checksum", _(
            "its checksum is damaged; the setup itself is intact"), True))
    check.sealed = sealed if isinstance(sealed, float) else None
    sums = [chain]  # the proven sum of the game row, then of each record

    # ---- the records, in order, as far as there are rows (the head judges the end)
    seq = 0
    stored = max([0, *g.rows.keys(), *g.errors.keys()])
    while seq < stored or g.own(seq + 1):
        seq += 1
        own = g.rows.get(seq, ())
        found = None
        if len(own) == 1 and own[0][0] == seq:  # the usual case: one row, its own sum holds
            value = record_sum(chain, game, seq, own[0][1], own[0][2])
            if value == own[0][4]:
                found = (own[0], False, value)
        if found is None:
            found = g.prove(chain, seq)
        if found is None:
            check.damage = _damaged_record(g, seq)
            break
        row, from_backup, value = found
        kind = _decode_kind(row[1])
        readable, parsed = _decode_action(kind or "", row[2])
        if kind is None or not readable:
            check.damage = Problem(game, seq, "changed", _(
                "it could not be read when the journal was given checksums ({text})").format(
                text=_text(row[2])), False)
            break
        if from_backup:
            check.problems.append(Problem(game, seq, "restored", _("taken from the backup"),
                                          True))
        elif row[4] != value:
            check.problems.append(Problem(game, seq, "checksum", _(
                "its checksum is damaged; the action itself is intact"), True))
        raw = bytes(row[2]) if row[2] is not None else None
        check.records.append(Record(seq, kind, parsed, None, raw, from_backup))
        chain = value
        sums.append(value)
    check.chain = chain

    # ---- the end: every record is there (the head agrees), and the finish mark
    n = check.good
    head_seal = g.head[2] if g.head else None
    finished = own_row[3] if own_row is not None else None
    if check.damage is None:
        intact_head = g.head_seq == n and g.head_sum == chain
        seal_at = _sealed_time(g, n, chain, finished, head_seal)
        check.total = n
        if intact_head or seal_at is not None:
            if not intact_head:
                check.problems.append(Problem(game, n, "head", _(
                    "the game's end mark is damaged; every action is intact"), True))
            if seal_at is not None:
                check.finished = finished if isinstance(finished, float) else None
        else:
            if g.head_error:
                known = _("the game's end mark cannot be read ({error})").format(
                    error=g.head_error)
            elif g.head is None:
                known = _("the game's end mark is missing")
            else:
                known = _("the game's end mark says {seq} actions; there may have been "
                          "more").format(seq=g.head_seq if g.head_seq is not None else "?")
            check.damage = Problem(game, n + 1, "missing", known, False)
            check.total = max(n + 1, g.head_seq or 0)
    else:
        seal_at = None
    _prove_times(g, check, sums, seal_at)
    if check.damage is not None:
        check.problems.append(check.damage)
        check.after = _intact_after(g, check.damage.seq, last)
        _note_backup(check, g.spare())
        check.finish_proven = False
        return check
    if seal_at is None:
        check.finish_proven = False
        check.problems.append(Problem(game, n, "finish", _(
            "its finish mark is damaged (the replay tells whether the game is over)"), True))
    return check


def _sealed_time(g: _Game, n: int, chain: bytes, finished: Any, head_seal: Any) -> Any:
    """The last row's time the head's seal proves (with the finish mark), or None."""
    if not isinstance(head_seal, bytes):
        return None
    for spare in (False, True):
        for at, _stamp, _from_backup in _times(g, n, spare):
            if isinstance(at, float) and seal(g.game, n, chain, finished, at) == head_seal:
                return at
    return None


def _times(g: _Game, seq: int, spare: bool) -> list[tuple[Any, Any, bool]]:
    """(time, stamp, from the backup) as read for a row (0: the game's start)."""
    if seq == 0:
        rows = [g.row] if isinstance(g.row, tuple) else []
        out = [(r[2], r[5], False) for r in rows]
        alt = g.spare_row() if spare else None
        return out + ([(alt[2], alt[5], True)] if alt else [])
    return [(r[3], r[5], b) for r, b in g.candidates(seq, spare)]


def _prove_times(g: _Game, check: GameCheck, sums: list[bytes], seal_at: Any) -> None:
    """Each row's time: proven by its own stamp (which covers the time before it too) or by
    the next row's stamp (the head's seal for the last), the backup's rows if need be."""
    n = len(sums) - 1
    damaged = check.damage.seq if check.damage is not None else None

    def value(k: int, spare: bool) -> list[bytes]:
        if k < len(sums):
            return [sums[k]]
        return [r[4] for r, _b in g.candidates(k, spare) if isinstance(r[4], bytes)]

    def own_ok(k: int, at: Any, spare: bool) -> bool:
        befores = [None] if k == 0 else [t for t, _s, _b in _times(g, k - 1, spare)]
        stamps = {s for _t, s, _b in _times(g, k, spare)}
        return any(stamp(v, at, before) in stamps for v in value(k, spare) for before in befores)

    def next_ok(k: int, at: Any, spare: bool) -> bool:
        if k == n and damaged is None:
            return seal_at is not None and at == seal_at
        stamps = {s for _t, s, _b in _times(g, k + 1, spare)}
        return any(stamp(v, later, at) in stamps for v in value(k + 1, spare)
                   for later, _s, _b in _times(g, k + 1, spare))

    before = None
    for k in range(n + 1):
        when = None
        own = (([g.row] if isinstance(g.row, tuple) else []) if k == 0
               else g.rows.get(k, ()))
        if len(own) == 1:  # the usual case: one row, its stamp holds with the time before
            at, own_stamp = (own[0][2], own[0][5]) if k == 0 else (own[0][3], own[0][5])
            if isinstance(at, float) and stamp(sums[k], at, before) == own_stamp:
                if k == 0:
                    check.created = at
                else:
                    check.records[k - 1].at = at
                before = at
                continue
        before = None  # the slow path below looks at every candidate for the time before
        for spare in (False, True):
            for at, own_stamp, from_backup in _times(g, k, spare):
                if not isinstance(at, float):
                    continue
                if own_ok(k, at, spare) or next_ok(k, at, spare):
                    when = (at, own_stamp, from_backup)
                    break
            if when is not None:
                break
        what = _("its start time") if k == 0 else _("its time")
        if when is None:
            check.problems.append(Problem(g.game, k, "time", _(
                "{what} is damaged; the action itself is intact").format(what=what)
                if k else _("its start time is damaged"), True))
            continue
        at, own_stamp, from_backup = when
        if k == 0:
            check.created = at
        else:
            check.records[k - 1].at = at
        if from_backup:
            check.problems.append(Problem(g.game, k, "restored", _(
                "{what} was taken from the backup").format(what=what), True))
        elif not own_ok(k, at, False):
            check.problems.append(Problem(g.game, k, "checksum", _(
                "{what}'s checksum is damaged; the time itself is intact").format(what=what),
                True))


def _damaged_record(g: _Game, seq: int) -> Problem:
    if seq in g.errors:
        known = _("SQLite cannot read it ({error})").format(error=g.errors[seq])
        return Problem(g.game, seq, "unreadable", known, False)
    own = g.own(seq)
    if not own and g.head_seq is not None and seq <= g.head_seq:
        return Problem(g.game, seq, "missing", _(
            "it is missing, and the game's end mark says {n} actions").format(n=g.head_seq),
            False)
    if not own:
        return Problem(g.game, seq, "missing", _("it is missing"), False)
    _seq, kind, action, at = own[0][:4]
    known = _("it reads as {kind} {text}, recorded at {when}, but that is not what was "
              "written").format(kind=_text(kind, 10), text=_text(action), when=_clock(at))
    return Problem(g.game, seq, "changed", known, False)


def _intact_after(g: _Game, seq: int, last: int) -> tuple[int, int]:
    """Records after ``seq``: how many verify against the sum stored before them, of how many."""
    intact = later = 0
    for n in range(seq + 1, last + 1):
        later += 1
        before = [r[4] for r in g.own(n - 1) if isinstance(r[4], bytes)]
        if any(record_sum(p, g.game, n, r[1], r[2]) == r[4] for p in before for r in g.own(n)):
            intact += 1
    return intact, later


def _note_backup(check: GameCheck, source: _Source | None) -> None:
    if source is None:
        check.backup_note = _("There is no backup to restore it from.")
    else:
        check.backup = source.name
        check.backup_note = _("The backup ({backup}) does not hold it intact.").format(
            backup=source.name)


# --------------------------------------------------------------------------- the journal


class Journal:
    """An append-only journal in one SQLite file (``":memory:"`` for tests).

    ``backup``: the backup file (default: beside the journal, ``<name>.backup.sqlite3``), read
    to restore damaged records. ``backup_every``: seconds between rolling backups while records
    are added (0: only at the end of each game); None: this journal writes no backups.
    """

    def __init__(self, path: str | Path, backup: str | Path | None = None,
                 backup_every: float | None = None, read_only: bool = False):
        self.path = str(path)
        self.read_only = read_only  # reading commands: never writes, opens a read-only file
        memory = self.path == ":memory:"
        self.backup_path = None if memory else str(backup or default_backup(self.path))
        self.backup_every = None if memory else backup_every
        # No backup yet: the first one is taken with the first action recorded.
        has_backup = self.backup_path is not None and Path(self.backup_path).exists()
        self._last_backup = time.monotonic() - (0 if has_backup else (backup_every or 0))
        self._backup_thread: threading.Thread | None = None
        self._backup_again = False
        self.last_backup: BackupResult | None = None
        if Path(self.path).is_dir():
            raise JournalError(_("{journal} is a folder; a journal is a file: give its path, "
                                 "e.g. {example}").format(
                journal=self.path, example=Path(self.path) / "journal.sqlite3"))
        if not memory and os.path.islink(self.path) and not Path(self.path).exists():
            raise JournalError(_("{journal} is a link that leads to no file (or round in a "
                                 "loop); give the journal's own path").format(
                journal=self.path))
        if not memory and Path(self.path).exists() and not Path(self.path).is_file():
            raise JournalError(_("{journal} is not a file (a pipe or a device?); a journal is "
                                 "a file: give the path of one").format(journal=self.path))
        if read_only:
            self.backup_every = None
            if not Path(self.path).is_file():
                raise JournalError(_("{journal}: no such journal file").format(
                    journal=self.path))
        elif not memory:
            folder = Path(self.path).parent
            if not folder.is_dir():  # a typo in a path must not make folders: say it
                raise JournalError(_("{journal}: the folder {folder} does not exist; create "
                                     "it first or give another path").format(
                    journal=self.path, folder=folder))
        self.db = self._connect()

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            return self._connect_read_only()
        db = None
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA cell_size_check=ON")
            _open_schema(db, self.path)
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            problem = write_problem(exc, self.path)
            if problem is not None:
                raise problem from exc
            raise JournalError(
                _("{journal}: not a usable journal ({error}). Move the file aside to start a "
                  "new journal; its games can be read with the sqlite3 tool.").format(
                    journal=self.path, error=exc)) from exc
        return db

    def _connect_read_only(self) -> sqlite3.Connection:
        """A read-only connection; on a read-only folder (no room for WAL's shared-memory
        file) the file is read as it is on disk (SQLite's immutable mode)."""
        error: Exception | None = None
        for flags in ("mode=ro", "mode=ro&immutable=1"):
            try:
                db = sqlite3.connect(f"file:{self.path}?{flags}", uri=True,
                                     isolation_level=None, timeout=10)
                db.execute("PRAGMA cell_size_check=ON")
                version = db.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.DatabaseError as exc:
                error = exc
                continue
            if version != VERSION:
                db.close()
                raise JournalError(_("{journal}: journal version {version}, read-only here; "
                                     "the companion brings it to version {current} the first "
                                     "time it can write to it").format(
                    journal=self.path, version=version, current=VERSION))
            return db
        raise JournalError(
            _("{journal}: not a usable journal ({error}). Move the file aside to start a new "
              "journal; its games can be read with the sqlite3 tool.").format(
                journal=self.path, error=error)) from error

    def close(self) -> None:
        self.wait_for_backup()
        self.db.close()

    # ----------------------------------------------------------------- writing

    def new_game(self, title: str, setup: dict[str, Any]) -> int:
        text = json.dumps(setup, sort_keys=True)
        with self._transaction():
            self._whole_tables()
            created = time.time()
            cur = self.db.execute(
                "INSERT INTO games (title, setup, created) VALUES (?, ?, ?)",
                (title, text, created),
            )
            game = int(cur.lastrowid)
            value = game_sum(game, title, text)
            self.db.execute("UPDATE games SET sum = ?, stamp = ? WHERE id = ?",
                            (value, stamp(value, created), game))
            self.db.execute("INSERT INTO heads (game, seq, sum, seal) VALUES (?, 0, ?, ?)",
                            (game, value, seal(game, 0, value, None, created)))
        return game

    def append(self, game: int, action: dict[str, Any]) -> int:
        """Record a confirmed action; returns its sequence number once it is on disk."""
        seq = self._record(game, "action", json.dumps(action, sort_keys=True))
        self._maybe_backup()
        return seq

    def undo(self, game: int) -> dict[str, Any] | None:
        """Take back the last action (None if there is nothing to undo)."""
        stack, _undone = self._stacks(game)
        if not stack:
            return None
        self._record(game, "undo", None)
        return stack[-1]

    def redo(self, game: int) -> dict[str, Any] | None:
        """Put back the last undone action (None if there is nothing to redo)."""
        _done, undone = self._stacks(game)
        if not undone:
            return None
        self._record(game, "redo", None)
        return undone[-1]

    def finish(self, game: int, finished: bool = True) -> None:
        """Mark a game over (or open again, when the winning action is undone)."""
        with self._transaction():
            seq, last, last_at = self._head(game)
            value = time.time() if finished else None
            self.db.execute("UPDATE games SET finished = ? WHERE id = ?", (value, game))
            self.db.execute("UPDATE heads SET seal = ? WHERE game = ?",
                            (seal(game, seq, last, value, last_at), game))
        if finished:
            self._maybe_backup(now=True)  # the end of every game

    def lost_columns(self) -> dict[str, list[str]]:
        """The columns (all of them: the table) each table of the journal has lost."""
        out = {}
        for table, wanted in _COLUMNS.items():
            try:
                have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
            except sqlite3.DatabaseError:  # the schema itself: reading the tables says it
                continue
            lost = [c for c in wanted if c not in have]
            if lost:
                out[table] = lost
        return out

    def table_problems(self) -> list[str]:
        """What is wrong with the file's own tables (its list of games unreadable, a table or
        a column gone), a message each; the games are checked apart."""
        problems = []
        try:
            self.games()
        except JournalError as exc:
            problems.append(str(exc))
        for table, lost in self.lost_columns().items():
            problems.append(_("{journal}: the table {table} lacks {columns}: nothing new can be "
                              "recorded; `companion journal repair` writes a whole journal").format(
                journal=self.path, table=table, columns=", ".join(lost)))
        return problems

    def _whole_tables(self) -> None:
        """Raise JournalError when a table or a column of the journal is gone: a game written
        into such a file would read as damaged at once (and the next press write another)."""
        lost_columns = self.lost_columns()
        if lost_columns:
            table, lost = next(iter(lost_columns.items()))
            raise damaged_write(self.path, _("its table {table} lacks {columns}").format(
                table=table, columns=", ".join(lost)))

    def set_aside(self, game: int, reason: str) -> None:
        """Close a game that cannot go on (kept whole, never resumed), saying why."""
        text = json.dumps({"closed": True, "reason": reason}, sort_keys=True)
        with self._transaction():
            at = time.time()
            self.db.execute("INSERT INTO repairs (game, at, note, sum) VALUES (?, ?, ?, ?)",
                            (game, at, text, note_sum(game, at, text)))

    def _head(self, game: int) -> tuple[int, bytes, float]:
        """The game's last record number, sum and time, checked against that record's row."""
        head = self.db.execute("SELECT seq, sum FROM heads WHERE game = ?", (game,)).fetchone()
        if head is None:
            if self.db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise JournalError(_("{journal}: no game {game}").format(
                    journal=self.path, game=game))
            raise JournalDamaged(self.check(game))
        seq, value = head
        if isinstance(seq, int) and seq > 0:
            row = self.db.execute("SELECT sum, at FROM records WHERE game = ? AND seq = ?",
                                  (game, seq)).fetchone()
        else:
            row = self.db.execute("SELECT sum, created FROM games WHERE id = ?",
                                  (game,)).fetchone()
        if row is not None and row[0] == value and isinstance(row[1], float):
            return seq, value, row[1]
        # The head and the last record disagree: never chain a new record onto damage. If
        # the chain proves every record, build on what it proves (the head is rewritten).
        check = self.check(game)
        if check.damage is not None or check.chain is None:
            raise JournalDamaged(check)
        log.error("%s", check.message())
        last = check.records[-1] if check.records else None
        stored = self.db.execute(
            "SELECT at FROM records WHERE game = ? AND seq = ?", (game, check.good)
        ).fetchone() if last else self.db.execute(
            "SELECT created FROM games WHERE id = ?", (game,)).fetchone()
        before = stored[0] if stored and isinstance(stored[0], float) else time.time()
        return check.good, check.chain, before

    def _record(self, game: int, kind: str, action: str | None) -> int:
        with self._transaction():
            seq, prev, before = self._head(game)
            seq += 1
            value = record_sum(prev, game, seq, kind, action)
            at = time.time()
            self.db.execute(
                "INSERT INTO records (game, seq, kind, action, at, sum, stamp) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game, seq, kind, action, at, value, stamp(value, at, before)),
            )
            row = self.db.execute("SELECT finished FROM games WHERE id = ?",
                                  (game,)).fetchone()
            if row is None:  # its row went from the list of games: never chain onto that
                raise JournalDamaged(self.check(game))
            finished = row[0]
            self.db.execute("UPDATE heads SET seq = ?, sum = ?, seal = ? WHERE game = ?",
                            (seq, value, seal(game, seq, value, finished, at), game))
        return seq

    def _transaction(self):
        if self.read_only:
            raise JournalWriteError(_("{journal}: opened for reading only").format(
                journal=self.path), "read-only")
        return _Transaction(self.db, self.path)

    # ----------------------------------------------------------------- reading

    def check(self, game: int) -> GameCheck:
        """What the chain proves of one game (the backup is consulted for damaged rows)."""
        try:
            return check_game(_Source(self.db, self.path), game, self.path, self._backup_source)
        except sqlite3.DatabaseError as exc:
            raise JournalError(_("{journal}: game {game} cannot be read ({error}); run "
                                 "`companion journal check`").format(
                journal=self.path, game=game, error=exc)) from exc

    def check_all(self) -> list[GameCheck]:
        return [self.check(g) for g in self.game_ids()]

    def game_ids(self) -> list[int]:
        """Every game this journal holds: those of its list of games and those its actions
        and heads name (a row lost from the list, or the list unreadable); with the list
        unreadable, those of the backup too (their rows restore them)."""
        ids: set[int] = set()
        sources = [(self.db, ("SELECT DISTINCT game FROM records", "SELECT game FROM heads"))]
        backup = None
        try:
            ids.update(g["id"] for g in self.games())
        except JournalError:
            backup = self._backup_source()
        if backup is not None:
            sources.append((backup.db, ("SELECT id FROM games",)))
        try:
            for db, queries in sources:
                for query in queries:
                    try:
                        ids.update(g for (g,) in db.execute(query) if isinstance(g, int))
                    except sqlite3.DatabaseError:
                        continue
        finally:
            if backup is not None:
                backup.db.close()
        return sorted(ids)

    def _backup_source(self) -> _Source | None:
        return open_source(self.backup_path) if self.backup_path else None

    def proven(self, game: int) -> GameCheck:
        """The check of a game, raising JournalDamaged if anything is not proven."""
        check = self.check(game)
        if check.damage is not None:
            log.error("%s", check.message())
            raise JournalDamaged(check)
        return check

    def setup(self, game: int) -> dict[str, Any]:
        return self.proven(game).setup

    def title(self, game: int) -> str:
        return self.proven(game).title

    def unfinished(self) -> int | None:
        """The most recent game that has not finished, if any (closed games do not count).

        A game whose finish mark does not match its seal counts as unfinished: resuming it
        checks its records, and the replay tells whether it is over.
        """
        closed = self.closed()
        try:
            rows = self.db.execute(
                "SELECT g.id, g.finished, g.created, h.seq, h.sum, h.seal FROM games g "
                "LEFT JOIN heads h ON h.game = g.id ORDER BY g.id DESC").fetchall()
        except sqlite3.DatabaseError as exc:
            # A damaged heads table, or a column gone: the newest game that is not closed is
            # resumed, and resuming checks it and offers the choices damage gives.
            log.error("%s", _("{journal}: which game is unfinished cannot be read ({error}); "
                              "the newest game is checked").format(journal=self.path, error=exc))
            return next((g for g in reversed(self.game_ids()) if g not in closed), None)
        for game, finished, created, seq, head_sum, head_seal in rows:
            if not isinstance(game, int) or game in closed:
                continue
            if finished is None:
                return game
            try:  # the seal covers the last action's time too
                row = self.db.execute("SELECT at FROM records WHERE game = ? AND seq = ?",
                                      (game, seq)).fetchone() if seq else (created,)
            except sqlite3.DatabaseError:
                return game  # unreadable: resuming it checks it, and says what is wrong
            if row is None or head_seal != seal(game, seq, head_sum, finished, row[0]):
                return game
        return None

    def closed(self) -> set[int]:
        """Games set aside after damage (by a choice at the table or a repair)."""
        return {game for game, _at, note in _Source(self.db, self.path).notes()
                if note.get("closed")}

    def notes(self, game: int) -> list[dict[str, Any]]:
        """What repairs did to a game (restored actions, where it was cut, the file kept)."""
        return [{"at": at, **note} for g, at, note in _Source(self.db, self.path).notes()
                if g == game]

    def games(self) -> list[dict[str, Any]]:
        try:
            rows = self.db.execute(
                "SELECT id, CAST(title AS BLOB), created, finished FROM games ORDER BY id"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalError(_("{journal}: the list of games cannot be read ({error}). "
                                 "`companion journal repair` writes a clean journal of what "
                                 "the backup and the actions prove and keeps this file "
                                 "aside.").format(journal=self.path, error=exc)) from exc
        return [{"id": g, "title": _text(t), "created": c, "finished": f}
                for g, t, c, f in rows if isinstance(g, int)]

    def records(self, game: int) -> list[dict[str, Any]]:
        return [{"seq": r.seq, "kind": r.kind, "action": r.action, "at": r.at}
                for r in self.proven(game).records]

    def actions(self, game: int) -> list[dict[str, Any]]:
        """The actions in force: every action, less those undone and not redone."""
        return self._stacks(game)[0]

    def _stacks(self, game: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return stacks(self.proven(game).records)

    def export(self, game: int, mark: bool = False) -> dict[str, Any]:
        """The whole game as JSON-ready data: setup, every record, and the actions in force.

        With ``mark``, a damaged game is exported as far as it is proven: the damaged record
        is marked, with how many of the records after it read intact (they are not exported:
        they cannot be replayed without it), and every problem found is listed.
        """
        check = self.check(game) if mark else self.proven(game)
        out: dict[str, Any] = {
            "game": game,
            "title": check.title,
            "setup": check.setup,
            "records": [{"seq": r.seq, "kind": r.kind, "action": r.action, "at": r.at}
                        for r in check.records],
            "actions": stacks(check.records)[0],
        }
        if check.sealed is not None:
            out["checksums_since"] = check.sealed
        notes = self.notes(game)
        if notes:
            out["repairs"] = notes
        if mark and check.problems:
            out["problems"] = [{"seq": p.seq, "what": p.what, "known": p.known,
                                "proven": p.proven} for p in check.problems]
            if check.damage is not None:
                intact, later = check.after
                out["damaged"] = {"seq": check.damage.seq, "message": check.message(),
                                  "after": {"intact": intact, "records": later}}
                out["records"].append({"seq": check.damage.seq, "damaged": check.damage.known})
        return out

    # ----------------------------------------------------------------- backups

    def _maybe_backup(self, now: bool = False) -> None:
        if self.backup_every is None or self.backup_path is None:
            return
        due = now or (self.backup_every > 0
                      and time.monotonic() - self._last_backup >= self.backup_every)
        if not due:
            return
        if self._backup_thread is not None and self._backup_thread.is_alive():
            self._backup_again = self._backup_again or now
            return
        self._last_backup = time.monotonic()
        self._backup_thread = threading.Thread(target=self._backup_job, name="journal-backup",
                                               daemon=True)
        self._backup_thread.start()

    def _backup_job(self) -> None:
        while True:
            self._backup_again = False
            try:
                self.last_backup = write_backup(self.path, self.backup_path)
            except (JournalError, OSError, sqlite3.DatabaseError) as exc:  # logged; play goes on
                log.error("%s", _("journal backup failed: {error}").format(error=exc))
            if not self._backup_again:
                return

    def backup_refused(self) -> str | None:
        """Why the backup file would not be written over (None: it would be), e.g. it holds
        games this journal does not: another journal's, or this one's games lost here."""
        if self.backup_path is None:
            return None
        try:
            return _not_this_backup(self.db, Path(self.path), Path(self.backup_path))
        except sqlite3.DatabaseError:
            return None  # this journal's own list cannot be read: its check says so

    def wait_for_backup(self, timeout: float = 60.0) -> None:
        thread = self._backup_thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    # ----------------------------------------------------------------- repair

    def rebuild(self, cut: dict[int, int] | None = None, close: Iterable[int] = ()) -> Rebuilt:
        """Write a clean journal of everything proven and keep the damaged file aside.

        Damaged rows the backup holds intact are put back; a damaged checksum, time or finish
        mark is written anew from the proven content. ``cut`` keeps only the first N actions
        of a game (going on from there); ``close`` sets games aside (they never resume). A
        game with damage that cannot be restored is kept up to its last good action and, if
        not in ``cut``, closed. Nothing of the old file is lost: it is kept as
        ``<name>.damaged-<time>.sqlite3`` beside the journal.
        """
        if self.path == ":memory:":
            raise JournalError(_("an in-memory journal cannot be rebuilt"))
        cut = dict(cut or {})
        close = set(close)
        self.wait_for_backup()
        checks = self.check_all()
        old_notes = _Source(self.db, self.path).notes()
        stamp_name = time.strftime("%Y%m%d-%H%M%S")
        aside = _free_name(Path(self.path), stamp_name)
        tmp = Path(self.path + ".rebuild")
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            leftover.unlink(missing_ok=True)
        done = Rebuilt(aside=str(aside))
        new = sqlite3.connect(tmp, isolation_level=None)
        try:
            new.execute("PRAGMA journal_mode=WAL")
            new.execute("PRAGMA synchronous=FULL")
            _open_schema(new, str(tmp))
            new.execute("BEGIN IMMEDIATE")
            now = time.time()
            for game, at, note in old_notes:
                text = json.dumps(note, sort_keys=True)
                new.execute("INSERT INTO repairs (game, at, note, sum) VALUES (?, ?, ?, ?)",
                            (game, at, text, note_sum(game, at, text)))
            for check in checks:
                notes = _copy_game(new, check, cut.get(check.game), check.game in close,
                                   aside.name)
                for note in notes:
                    text = json.dumps(note, sort_keys=True)
                    new.execute("INSERT INTO repairs (game, at, note, sum) VALUES (?, ?, ?, ?)",
                                (check.game, now, text, note_sum(check.game, now, text)))
                    done.notes.append((check.game, note))
            new.execute("COMMIT")
        except BaseException as exc:
            new.close()
            tmp.unlink(missing_ok=True)
            problem = write_problem(exc, tmp) if isinstance(exc, sqlite3.DatabaseError) else None
            if problem is not None:
                raise problem from exc
            raise
        new.close()
        self.db.close()
        if Path(f"{self.path}-wal").exists():  # someone else (the table?) has it open
            tmp.unlink(missing_ok=True)
            self.db = self._connect()
            raise JournalError(_("{journal} is open in another process (the table?): stop it "
                                 "first (systemctl stop companion), then repair").format(
                journal=self.path))
        try:
            os.link(self.path, aside)
        except OSError:
            shutil.copy2(self.path, aside)
        os.replace(tmp, self.path)
        fsync_folder(Path(self.path).parent)
        self.db = self._connect()
        log.warning("%s", _("journal rebuilt: {what}; the damaged file is kept as {aside}").format(
            what="; ".join(done.lines()) or _("nothing lost"), aside=aside))
        return done


@dataclass
class Rebuilt:
    aside: str
    notes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [_note_text(game, note) for game, note in self.notes]


def _note_text(game: int, note: dict[str, Any]) -> str:
    parts = []
    if note.get("restored"):
        parts.append(_("actions {seqs} restored from the backup").format(
            seqs=", ".join(map(str, note["restored"]))))
    if note.get("rewritten"):
        parts.append(_("checksums written anew: {what}").format(what=", ".join(
            map(str, note["rewritten"]))))
    if note.get("times"):
        parts.append(_("times of actions {seqs} unknown, estimated from the action "
                       "before").format(seqs=", ".join(map(str, note["times"]))))
    if "kept" in note and note.get("total", 0) > note["kept"]:
        parts.append(_("damaged at action {seq}: kept actions 1 to {kept} of {total}, the rest "
                       "is in {aside}").format(seq=note.get("damaged_at", note["kept"] + 1),
                                               kept=note["kept"], total=note["total"],
                                               aside=note.get("aside", "?")))
    if note.get("setup_lost"):
        parts.append(_("setup damaged: the game is in {aside}").format(aside=note.get("aside")))
    if note.get("closed"):
        parts.append(_("closed (set aside, not resumed)"))
    if note.get("reason"):
        parts.append(str(note["reason"]))
    return _("game {game}: {what}").format(game=game, what="; ".join(parts) or _("checked"))


def _copy_game(new: sqlite3.Connection, check: GameCheck, cut: int | None, close: bool,
               aside: str) -> list[dict[str, Any]]:
    """Write one checked game into a new journal; returns its repair notes."""
    game = check.game
    note: dict[str, Any] = {}
    if check.setup_raw is None:  # the setup is not proven: only a marker stays here
        created = time.time()
        title, text = "?", "{}"
        value = game_sum(game, title, text)
        new.execute("INSERT INTO games (id, title, setup, created, finished, sum, stamp) "
                    "VALUES (?, ?, ?, ?, NULL, ?, ?)",
                    (game, title, text, created, value, stamp(value, created)))
        new.execute("INSERT INTO heads (game, seq, sum, seal) VALUES (?, 0, ?, ?)",
                    (game, value, seal(game, 0, value, None, created)))
        return [{"setup_lost": True, "aside": aside, "closed": True, "kept": 0,
                 "total": check.total, "damaged_at": 0}]
    keep = check.good if cut is None else min(cut, check.good)
    records = check.records[:keep]
    created = check.created
    if created is None:
        created = next((r.at for r in records if r.at is not None), time.time())
        note.setdefault("times", []).append(0)
    title = check.title
    value = game_sum(game, title, check.setup_raw)
    finished = check.finished if (keep == check.total and check.finish_proven
                                  and not close) else None
    new.execute("INSERT INTO games (id, title, setup, created, finished, sum, stamp, sealed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game, title, check.setup_raw.decode("utf-8"), created, finished, value,
                 stamp(value, created), check.sealed))
    chain = value
    before = created
    for record in records:
        at = record.at
        if at is None:  # not known: the time before stands in, and the note says so
            at = before
            note.setdefault("times", []).append(record.seq)
        action = record.raw.decode("utf-8") if record.raw is not None else None
        chain = record_sum(chain, game, record.seq, record.kind, action)
        new.execute("INSERT INTO records (game, seq, kind, action, at, sum, stamp) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game, record.seq, record.kind, action, at, chain,
                     stamp(chain, at, before)))
        before = at
    new.execute("INSERT INTO heads (game, seq, sum, seal) VALUES (?, ?, ?, ?)",
                (game, keep, chain, seal(game, keep, chain, finished, before)))
    restored = sorted({p.seq for p in check.problems if p.what == "restored" and p.seq <= keep})
    if restored:
        note["restored"] = restored
    rewritten = sorted({p.seq for p in check.problems
                        if p.what in ("checksum", "head", "finish") and p.seq <= keep})
    if rewritten:
        note["rewritten"] = rewritten
    if keep < check.total or check.damage is not None:
        note.update(kept=keep, total=check.total, aside=aside,
                    damaged_at=check.damage.seq if check.damage else keep + 1)
        if cut is None or close:
            note["closed"] = True
    elif close:
        note.update(closed=True, aside=aside, kept=keep, total=check.total)
    return [note] if note else []


def stacks(records: Iterable[Record]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The actions in force, and the undone ones that can be redone, after ``records``."""
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    for rec in records:
        if rec.kind == "action":
            done.append(rec.action)
            undone.clear()  # a new action ends the redo history
        elif rec.kind == "undo" and done:
            undone.append(done.pop())
        elif rec.kind == "redo" and undone:
            done.append(undone.pop())
    return done, undone


# --------------------------------------------------------------------------- schema, migration


def _open_schema(db: sqlite3.Connection, path: str) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > VERSION:
        # Not damage: never set aside, and never written by this version (it waits).
        raise JournalWriteError(_("{journal}: written by a newer version of the companion "
                                  "(journal version {version}); update the companion").format(
            journal=path, version=version), "newer")
    if version == VERSION:
        return
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "games" not in tables:  # a new journal
        db.executescript(SCHEMA + SCHEMA_2 + f"PRAGMA user_version = {VERSION};")
        return
    games = {r[1] for r in db.execute("PRAGMA table_info(games)")}
    if "heads" in tables and "sum" in games:
        # Checksummed already: the header's number is what was damaged. Giving checksums
        # again would seal whatever else changed; the checks read them as they are.
        log.error("%s", _("{journal}: its header says journal version {version}, but it has "
                          "version {current}'s checksums; read as version {current}").format(
            journal=path, version=version, current=VERSION))
        db.execute(f"PRAGMA user_version = {VERSION}")
        return
    migrate(db, path)


def migrate(db: sqlite3.Connection, path: str) -> None:
    """Give a first-version journal (no checksums) its checksums, in one transaction.

    The checksums are computed from the bytes as they read now: from here on every change is
    noticed, but what changed before the migration cannot be told (docs/journal.md).
    """
    now = time.time()
    db.execute("BEGIN IMMEDIATE")
    try:
        for table, column, kind in (("games", "sum", "BLOB"), ("games", "stamp", "BLOB"),
                                    ("games", "sealed", "REAL"), ("records", "sum", "BLOB"),
                                    ("records", "stamp", "BLOB")):
            columns = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
            if column not in columns:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        for statement in SCHEMA_2.split(";"):
            if statement.strip():
                db.execute(statement)
        games = db.execute("SELECT id, CAST(title AS BLOB), CAST(setup AS BLOB), created, "
                           "finished FROM games").fetchall()
        for game, title, setup, created, finished in games:
            value = game_sum(game, title, setup)
            db.execute("UPDATE games SET sum = ?, stamp = ?, sealed = ? WHERE id = ?",
                       (value, stamp(value, created), now, game))
            chain, last, before = value, 0, created
            rows = db.execute("SELECT seq, CAST(kind AS BLOB), CAST(action AS BLOB), at "
                              "FROM records WHERE game = ? ORDER BY seq", (game,)).fetchall()
            for seq, kind, action, at in rows:
                chain = record_sum(chain, game, seq, kind, action)
                db.execute("UPDATE records SET sum = ?, stamp = ? WHERE game = ? AND seq = ?",
                           (chain, stamp(chain, at, before), game, seq))
                last, before = seq, at
            db.execute("INSERT OR REPLACE INTO heads (game, seq, sum, seal) VALUES (?, ?, ?, ?)",
                       (game, last, chain, seal(game, last, chain, finished, before)))
        db.execute(f"PRAGMA user_version = {VERSION}")
        db.execute("COMMIT")
    except sqlite3.DatabaseError as exc:
        db.execute("ROLLBACK")
        raise JournalError(_("{journal}: the journal could not be given checksums ({error}); "
                             "it was left as it was").format(journal=path, error=exc)) from exc
    log.info("%s", _("{journal}: migrated to journal version {version} ({n} games given "
                     "checksums)").format(journal=path, version=VERSION, n=len(games)))


# --------------------------------------------------------------------------- backup files


def default_backup(path: str | Path) -> Path:
    """``journal.sqlite3`` -> ``journal.backup.sqlite3`` in the same folder."""
    p = Path(path)
    return p.with_name(p.stem + BACKUP_SUFFIX + p.suffix)


def open_source(path: str | Path) -> _Source | None:
    """A read-only view of a journal file (a backup), or None if there is none to read."""
    p = Path(path)
    if not p.exists():
        return None
    try:
        db = sqlite3.connect(f"file:{p}?mode=ro", uri=True, timeout=5)
        db.execute("PRAGMA cell_size_check=ON")
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError:
        return None
    return _Source(db, str(p))


@dataclass
class BackupResult:
    path: str
    written: int  # bytes written
    seconds: float
    skipped: str = ""  # why no backup was written (the journal is damaged)


def write_backup(path: str | Path, backup: str | Path) -> BackupResult:
    """Copy the journal to ``backup`` with SQLite's online backup API, if every game checks.

    A damaged journal is never copied over the backup: the backup may be what restores it.
    The copy is written beside the backup and renamed over it, so a power cut leaves the
    old backup whole.
    """
    start = time.perf_counter()
    backup = Path(backup)
    src = sqlite3.connect(str(path), timeout=10)
    try:
        src.execute("PRAGMA cell_size_check=ON")
        source = _Source(src, str(path))
        try:
            games = [g for (g,) in src.execute("SELECT id FROM games ORDER BY id")]
            for game in games:
                check = check_game(source, game, str(path))
                if check.problems:
                    msg = _("the backup was not written, so that it keeps what it holds: {why}")
                    return BackupResult(str(backup), 0, time.perf_counter() - start,
                                        msg.format(why=check.message()))
        except sqlite3.DatabaseError as exc:
            return BackupResult(str(backup), 0, time.perf_counter() - start, _(
                "the backup was not written, so that it keeps what it holds: {journal}: its "
                "list of games cannot be read ({error}); run `companion journal check`").format(
                    journal=path, error=exc))
        why = _not_this_backup(src, Path(path), backup)
        if why:
            raise JournalError(why)
        tmp = backup.with_name(backup.name + ".tmp")
        try:
            backup.parent.mkdir(parents=True, exist_ok=True)
            tmp.unlink(missing_ok=True)
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                dst.close()
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            written = tmp.stat().st_size
            os.replace(tmp, backup)
        except (sqlite3.DatabaseError, OSError) as exc:  # the old backup stays whole
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            problem = write_problem(exc, backup)
            raise problem or JournalError(_("{backup}: the backup was not written "
                                            "({error})").format(backup=backup, error=exc)) from exc
    finally:
        src.close()
    fsync_folder(backup.parent)
    return BackupResult(str(backup), written, time.perf_counter() - start)


SQLITE_MAGIC = b"SQLite format 3\x00"


def _game_row_proven(game: Any, title: Any, setup: Any, created: Any, row_sum: Any,
                     row_stamp: Any) -> bool:
    """Whether a games row is as written: its sum and its time check both hold."""
    try:
        value = game_sum(game, title, setup)
        return value == row_sum and stamp(value, created) == row_stamp
    except (TypeError, ValueError):
        return False


def _not_this_backup(src: sqlite3.Connection, journal: Path, backup: Path) -> str | None:
    """Why ``backup`` must not be written over (None: it may be). Only this journal's own
    backup is replaced: never a folder or a device, the journal itself, a file of another
    kind, nor a journal holding games this one does not (another table's, or the games of a
    journal since started anew)."""
    if not os.path.lexists(backup):
        return None
    keep = _("it was left as it is; give the backup another path, or move that file aside")
    if not backup.is_file():  # a folder, a device such as /dev/null, a pipe
        return _("{backup}: not a file: {keep}").format(backup=backup, keep=keep)
    try:
        if backup.samefile(journal):
            return _("{backup} is the journal itself; give the backup another path").format(
                backup=backup)
        with open(backup, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError:
        return None  # unreadable here: writing it will say why
    if head != SQLITE_MAGIC:
        return _("{backup}: not a journal backup: {keep}").format(backup=backup, keep=keep)
    try:
        old = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {name for (name,) in old.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            theirs = {(game, created) for game, title, setup, created, row_sum, row_stamp
                      in old.execute("SELECT id, title, setup, created, sum, stamp FROM games")
                      if _game_row_proven(game, title, setup, created, row_sum, row_stamp)} \
                if "games" in tables else None
        finally:
            old.close()
    except sqlite3.DatabaseError:  # a damaged backup: this journal, every game proven,
        return None  # replaces it (as a damaged row of it, left out above, is replaced)
    if theirs is None:
        return _("{backup}: an SQLite file, not a journal backup: {keep}").format(
            backup=backup, keep=keep)
    if not theirs <= set(src.execute("SELECT id, created FROM games")):
        return _("{backup} holds games this journal does not (another journal's backup, or "
                 "this one's before it started anew): {keep}").format(backup=backup, keep=keep)
    return None


def recover_unreadable(path: str | Path, backup: str | Path | None = None) -> tuple[str, str]:
    """A journal SQLite cannot open at all: keep it aside and put the backup in its place.

    Returns (the file kept aside, what the table now holds). Without an intact backup the
    new journal starts empty.
    """
    p = Path(path)
    backup = Path(backup or default_backup(p))
    aside = _free_name(p, time.strftime("%Y%m%d-%H%M%S"))
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{p}{suffix}").exists():
            os.replace(f"{p}{suffix}", f"{aside}{suffix}")
    fsync_folder(p.parent)
    source = open_source(backup) if backup.exists() else None
    if source is not None:
        try:
            bad = [g for (g,) in source.db.execute("SELECT id FROM games")
                   if check_game(source, g, str(backup)).damage is not None]
        except sqlite3.DatabaseError:
            bad = ["?"]
        if not bad:
            dst = sqlite3.connect(p)
            source.db.backup(dst)
            dst.close()
            source.db.close()
            return str(aside), _("the backup {backup}").format(backup=backup)
        source.db.close()
    return str(aside), _("a new, empty journal")


def _free_name(path: Path, when: str) -> Path:
    base = path.with_name(f"{path.stem}{DAMAGED_INFIX}{when}{path.suffix}")
    n = 1
    candidate = base
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"{path.stem}{DAMAGED_INFIX}{when}-{n}{path.suffix}")
    return candidate


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error (autocommit connection). A full disk
    or a read-only file raises JournalWriteError, a damaged file JournalError: nothing of the
    transaction is recorded."""

    def __init__(self, db: sqlite3.Connection, path: str = ""):
        self.db = db
        self.path = path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            self._raise(exc)

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.DatabaseError as failed:
                exc = failed
        self._rollback()
        if isinstance(exc, sqlite3.DatabaseError):
            self._raise(exc)

    def _rollback(self) -> None:
        if self.db.in_transaction:  # SQLite may have rolled back by itself (a full disk)
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.OperationalError:
                pass

    def _raise(self, exc: sqlite3.DatabaseError) -> None:
        problem = write_problem(exc, self.path)
        if problem is not None:
            raise problem from exc
        # Not the disk: the file itself (a table gone, a malformed page). Said as damage,
        # never as a traceback at each press.
        raise damaged_write(self.path, str(exc)) from exc
