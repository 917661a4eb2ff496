"""The link checker's cache: one JSON file, written atomically, each result with a time-to-live.

A run killed at any moment leaves either the previous file or a complete new one, never a torn
file: every save writes a temporary file in the same folder, syncs it, then ``os.replace``-s it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from ddl_catalog.files import write_atomic

#: How long a result stays fresh, per outcome, in seconds. Errors are re-checked soon.
TTL: dict[str, float] = {
    "ok": 7 * 86400.0,
    "moved": 7 * 86400.0,
    "broken": 86400.0,
    "error": 3600.0,
}
VERSION = 1


class LinkCache:
    """URL -> last result record, with freshness decided by the record's outcome."""

    def __init__(self, path: Path, records: dict[str, dict[str, Any]] | None = None) -> None:
        self.path = path
        self.records: dict[str, dict[str, Any]] = dict(records or {})
        self.warning: str | None = None
        self._dirty = False

    @classmethod
    def load(cls, path: Path) -> LinkCache:
        """Read the cache at ``path``; a missing or unreadable file gives an empty cache."""
        cache = cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cache
        except (OSError, ValueError) as exc:
            cache.warning = f"ignoring unreadable link cache {path}: {exc}"
            return cache
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, dict) or data.get("version") != VERSION:
            cache.warning = f"ignoring link cache {path}: unknown format"
            return cache
        cache.records = {
            url: rec for url, rec in results.items() if isinstance(rec, dict) and "outcome" in rec
        }
        return cache

    def fresh(self, url: str, now: float | None = None) -> dict[str, Any] | None:
        """Return the cached record of ``url`` if its outcome's time-to-live has not passed."""
        record = self.records.get(url)
        if record is None:
            return None
        ttl = TTL.get(str(record.get("outcome")), 0.0)
        checked = record.get("checked_at")
        if not isinstance(checked, int | float):
            return None
        return record if (time.time() if now is None else now) - checked < ttl else None

    def put(self, url: str, record: dict[str, Any]) -> None:
        """Remember the result record of ``url`` (skipped results are not worth keeping)."""
        if record.get("outcome") in TTL:
            self.records[url] = record
            self._dirty = True

    def save(self) -> None:
        """Write the cache atomically (temp file in the same folder, fsync, os.replace)."""
        if not self._dirty:
            return
        payload = json.dumps(
            {"version": VERSION, "results": self.records}, indent=1, sort_keys=True
        )
        write_atomic(self.path, payload + "\n", fsync=True)
        self._dirty = False
