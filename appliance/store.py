"""A unit's event log in SQLite: append-only, one transaction an event.

WAL with synchronous=FULL: once append() returns, the event survives a power cut, and a
cut during append() leaves either the whole event or none of it. The unit's state is a
fold over these events, so restarting is just reading them again.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from appliance.errors import UserError

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,
    t    REAL NOT NULL,
    body TEXT NOT NULL
)
"""
FILENAME = "events.sqlite"


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    t: float  # wall-clock seconds when stored (for the history, never for the rules)
    body: dict[str, Any]


class EventStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise UserError(f"cannot open the event store {self.path}: {exc}") from None

    @classmethod
    def in_dir(cls, data_dir: str | Path) -> EventStore:
        return cls(Path(data_dir) / FILENAME)

    def append(self, body: dict[str, Any], t: float) -> int:
        text = json.dumps(body, separators=(",", ":"))
        cur = self._db.execute("INSERT INTO events (t, body) VALUES (?, ?)", (t, text))
        return int(cur.lastrowid)

    def events(self, after: int = 0) -> Iterator[StoredEvent]:
        rows = self._db.execute("SELECT seq, t, body FROM events WHERE seq > ? ORDER BY seq", (after,))
        for seq, t, body in rows.fetchall():
            yield StoredEvent(seq, t, json.loads(body))

    def last_seq(self) -> int:
        """The seq of the newest event, 0 for an empty log (without reading the log)."""
        return int(self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def close(self) -> None:
        self._db.close()
