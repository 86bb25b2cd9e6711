"""The game journal: an append-only SQLite log of every confirmed action.

The journal is the truth. A game's state is never stored: it is rebuilt by replaying the game's
setup and its actions through the title's engine, so undo, redo, crash recovery and history are
one mechanism. Undo and redo are records of their own (nothing is ever deleted or rewritten).

Every append is its own transaction, committed with ``synchronous=FULL`` in WAL mode before the
call returns, so an action that was announced can never be lost by a power cut or a SIGKILL.

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
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    setup TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS records (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo')),
    action TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


class JournalError(RuntimeError):
    """The journal file cannot be used; the message says which file and what to do."""


class Journal:
    """An append-only journal in one SQLite file (``":memory:"`` for tests)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise JournalError(
                f"{self.path}: not a usable journal ({exc}). Move the file aside to start a new "
                "journal; its games can be read with the sqlite3 tool."
            ) from exc

    def close(self) -> None:
        self.db.close()

    # ----------------------------------------------------------------- writing

    def new_game(self, title: str, setup: dict[str, Any]) -> int:
        with self._transaction():
            cur = self.db.execute(
                "INSERT INTO games (title, setup, created) VALUES (?, ?, ?)",
                (title, json.dumps(setup, sort_keys=True), time.time()),
            )
        return int(cur.lastrowid)

    def append(self, game: int, action: dict[str, Any]) -> int:
        """Record a confirmed action; returns its sequence number once it is on disk."""
        return self._record(game, "action", json.dumps(action, sort_keys=True))

    def undo(self, game: int) -> dict[str, Any] | None:
        """Take back the last action (None if there is nothing to undo)."""
        stack, _ = self._stacks(game)
        if not stack:
            return None
        self._record(game, "undo", None)
        return stack[-1]

    def redo(self, game: int) -> dict[str, Any] | None:
        """Put back the last undone action (None if there is nothing to redo)."""
        _, undone = self._stacks(game)
        if not undone:
            return None
        self._record(game, "redo", None)
        return undone[-1]

    def finish(self, game: int, finished: bool = True) -> None:
        """Mark a game over (or open again, when the winning action is undone)."""
        with self._transaction():
            self.db.execute(
                "UPDATE games SET finished = ? WHERE id = ?",
                (time.time() if finished else None, game),
            )

    def _record(self, game: int, kind: str, action: str | None) -> int:
        with self._transaction():
            row = self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM records WHERE game = ?", (game,)
            ).fetchone()
            self.db.execute(
                "INSERT INTO records (game, seq, kind, action, at) VALUES (?, ?, ?, ?, ?)",
                (game, row[0], kind, action, time.time()),
            )
        return int(row[0])

    def _transaction(self):
        return _Transaction(self.db)

    # ----------------------------------------------------------------- reading

    def setup(self, game: int) -> dict[str, Any]:
        row = self.db.execute("SELECT setup FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: no game {game}")
        return json.loads(row[0])

    def title(self, game: int) -> str:
        row = self.db.execute("SELECT title FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: no game {game}")
        return row[0]

    def unfinished(self) -> int | None:
        """The most recent game that has not finished, if any."""
        row = self.db.execute(
            "SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else int(row[0])

    def games(self) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT id, title, created, finished FROM games ORDER BY id"
        ).fetchall()
        return [dict(zip(("id", "title", "created", "finished"), r, strict=True)) for r in rows]

    def records(self, game: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT seq, kind, action, at FROM records WHERE game = ? ORDER BY seq", (game,)
        ).fetchall()
        return [
            {"seq": seq, "kind": kind, "action": json.loads(a) if a else None, "at": at}
            for seq, kind, a, at in rows
        ]

    def actions(self, game: int) -> list[dict[str, Any]]:
        """The actions in force: every action, less those undone and not redone."""
        return self._stacks(game)[0]

    def _stacks(self, game: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        done: list[dict[str, Any]] = []
        undone: list[dict[str, Any]] = []
        for rec in self.records(game):
            if rec["kind"] == "action":
                done.append(rec["action"])
                undone.clear()  # a new action ends the redo history
            elif rec["kind"] == "undo" and done:
                undone.append(done.pop())
            elif rec["kind"] == "redo" and undone:
                done.append(undone.pop())
        return done, undone

    def export(self, game: int) -> dict[str, Any]:
        """The whole game as JSON-ready data: setup, every record, and the actions in force."""
        return {
            "game": game,
            "title": self.title(game),
            "setup": self.setup(game),
            "records": self.records(game),
            "actions": self.actions(game),
        }


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error (autocommit connection)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")
