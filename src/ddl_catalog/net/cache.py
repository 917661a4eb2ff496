"""The link checker's cache: one JSON file, written atomically, each result with a time-to-live.

A run killed at any moment leaves either the previous file or a complete new one, never a torn
file: every save writes a temporary file in the same folder, syncs it, then ``os.replace``-s it.
"""

from __future__ import annotations

import json
import os
import time
from math import isfinite
from pathlib import Path
from typing import Any

from ddl_catalog.files import write_atomic
from ddl_catalog.load import LoadError, read_bytes
from ddl_catalog.rules.url_scheme import url_problem

#: How long a result stays fresh, per outcome, in seconds. Errors are re-checked soon.
TTL: dict[str, float] = {
    "ok": 7 * 86400.0,
    "moved": 7 * 86400.0,
    "broken": 86400.0,
    "error": 3600.0,
}
VERSION = 1


#: The largest cache file read (~300 bytes a link: room for a million links).
MAX_BYTES = 512 * 1024 * 1024


def _usable(url: str, record: Any) -> bool:
    """Say whether a cached record has the shape of a result of ``url``.

    A hand-edited or corrupt cache must neither crash the run (Result.from_record) nor feed
    --fix an address that validate would refuse.
    """
    if not isinstance(record, dict) or record.get("url") != url:
        return False
    if record.get("outcome") not in TTL or not _number(record.get("checked_at")):
        return False
    status, new_url = record.get("status"), record.get("new_url")
    if status is not None and (not isinstance(status, int) or isinstance(status, bool)):
        return False
    if record.get("elapsed") is not None and not _number(record["elapsed"]):
        return False
    for name in ("final_url", "error"):
        if record.get(name) is not None and not isinstance(record[name], str):
            return False
    return new_url is None or (isinstance(new_url, str) and url_problem(new_url) is None)


def _number(value: Any) -> bool:
    """Say whether ``value`` is a finite JSON number (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and isfinite(value)


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
        if not os.path.lexists(path):
            return cache
        try:  # a regular file of bounded size only: a FIFO or /dev/zero is not read
            data = json.loads(read_bytes(path, str(path), MAX_BYTES, "a link cache"))
        except LoadError as exc:
            cache.warning = f"ignoring unreadable link cache {path}: {exc.problem.message}"
            return cache
        except (ValueError, RecursionError) as exc:
            cache.warning = f"ignoring unreadable link cache {path}: {exc}"
            return cache
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, dict) or data.get("version") != VERSION:
            cache.warning = f"ignoring link cache {path}: unknown format"
            return cache
        cache.records = {url: rec for url, rec in results.items() if _usable(url, rec)}
        if dropped := len(results) - len(cache.records):
            cache.warning = f"ignoring {dropped} of {len(results)} records of {path}: malformed"
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
