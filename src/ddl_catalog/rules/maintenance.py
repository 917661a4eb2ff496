"""Rule ``maintenance``: a maintenance state that holds together and agrees with its evidence.

The schema checks each field's form and which fields a state needs (moved_to with moved, a
source with anything but unknown). This rule checks what needs the whole catalog, a calendar or
the rule of docs/maintenance.md:

* ``superseded_by`` names another entry of the catalog;
* the dates are in order: the newest commit of substance no later than the newest commit seen,
  both no later than the evidence's date (``as_of``), which is no later than the day it was
  read (``checked``), and a release no later than that day;
* ``source`` is the evidence itself (a commit, a release, a notice, a docs page), not a
  repository's home page, which shows whatever it shows on the day a reader opens it;
* the state agrees with the evidence (``upkeep.decide``): an "active" project whose newest
  commit of substance is three years old, or a fixes-only notice nobody followed, is refused.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from ddl_catalog import upkeep
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "maintenance"
#: Hosts whose bare ``/owner/name`` page is a repository's home, not a piece of evidence.
REPOSITORY_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"})


def _day(text: Any) -> datetime.date | None:
    """Return the date of a YYYY-MM-DD text, or None when it is not a real day."""
    try:
        return datetime.date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


def is_repository_home(url: str) -> bool:
    """Tell whether a URL is a repository's home page (``https://github.com/owner/name``)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    segments = [s for s in parts.path.split("/") if s]
    host = (parts.hostname or "").removeprefix("www.")
    return host in REPOSITORY_HOSTS and len(segments) <= 2 and not parts.fragment


def check(ctx: Context) -> Iterator[Problem]:
    """Report missing successors, dates out of order, a home page as evidence, a wrong state."""
    ids = {doc.data.get("id") for doc in ctx.entries if isinstance(doc.data, dict)}
    for doc, value in ctx.field_values("maintenance"):
        if not isinstance(value, dict):
            continue  # the schema rule reports it
        successor = value.get("superseded_by")
        if isinstance(successor, str):
            if successor == doc.data.get("id"):
                yield problem(
                    doc, ("maintenance", "superseded_by"), "an entry cannot supersede itself", ID
                )
            elif successor not in ids:
                yield problem(
                    doc,
                    ("maintenance", "superseded_by"),
                    f"superseded_by '{successor}' is no entry of the catalog: add it first, or "
                    "use state deprecated and name the successor in evidence",
                    ID,
                )
        release = value.get("release")
        days = {key: _day(value.get(key)) for key in ("checked", "as_of", "last_commit")}
        days["newest_commit"] = _day(value.get("newest_commit"))
        days["release"] = _day(release.get("date")) if isinstance(release, dict) else None
        for earlier, later, why in (
            ("last_commit", "newest_commit", "the newest commit seen is at least as new"),
            ("last_commit", "as_of", "the evidence's date is that of what was read"),
            ("newest_commit", "as_of", "the evidence's date is that of what was read"),
            ("as_of", "checked", "evidence is read on or after its date"),
            ("last_commit", "checked", "the commit must have been seen when it was read"),
            ("release", "checked", "a release is read on or after its date"),
        ):
            first, second = days.get(earlier), days.get(later)
            if first and second and first > second:
                where = ("maintenance", "release", "date") if earlier == "release" else None
                yield problem(
                    doc,
                    where or ("maintenance", earlier),
                    f"{earlier.replace('_', ' ')} {first} is after {later.replace('_', ' ')} "
                    f"{second}: {why}",
                    ID,
                )
        source = value.get("source")
        if isinstance(source, str) and is_repository_home(source):
            yield problem(
                doc,
                ("maintenance", "source"),
                "source is the repository's home page: link the evidence itself (the commit, "
                "the release, or the notice's file at a commit)",
                ID,
            )
        yield from _state(doc, value)


def _state(doc: Any, value: dict[str, Any]) -> Iterator[Problem]:
    """Report a state that the recorded evidence does not support (docs/maintenance.md)."""
    state = value.get("state")
    if state in ("maintenance-only",) and not value.get("notice"):
        yield problem(
            doc,
            ("maintenance", "state"),
            "maintenance-only rests on the project's own words: quote them in `notice`",
            ID,
        )
        return
    dated = value.get("last_commit") or isinstance(value.get("release"), dict)
    if state in ("active", "unmaintained", "winding-down") and not (
        dated or (state == "active" and value.get("as_of"))
    ):
        yield problem(
            doc,
            ("maintenance", "state"),
            f"state {state} needs its evidence: the newest commit of substance (last_commit), "
            "the latest release, or for active the date of the activity seen (as_of)",
            ID,
        )
        return
    decision = upkeep.decide(value)
    if decision is not None and decision.state != state:
        yield problem(
            doc,
            ("maintenance", "state"),
            f"state {state} disagrees with its evidence: {decision.why}, so the rule "
            f"(docs/maintenance.md, line {decision.line}) says {decision.state}",
            ID,
        )
