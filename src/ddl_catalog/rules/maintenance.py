"""Rule ``maintenance``: a maintenance state that holds together.

The schema checks each field's form and which fields a state needs (moved_to with moved, a
source with anything but unknown). This rule checks what needs the whole catalog or a calendar:
``superseded_by`` names another entry of the catalog, and the dates are real days with the last
commit seen no later than the day the state was established.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "maintenance"


def _day(text: Any) -> datetime.date | None:
    """Return the date of a YYYY-MM-DD text, or None when it is not a real day."""
    try:
        return datetime.date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


def check(ctx: Context) -> Iterator[Problem]:
    """Report successors that do not exist and dates that are not days or out of order."""
    ids = {doc.data.get("id") for doc in ctx.entries}
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
        days = {}
        for key in ("checked", "last_commit"):
            text = value.get(key)
            if isinstance(text, str) and len(text) == 10:
                day = _day(text)
                if day is None:
                    yield problem(doc, ("maintenance", key), f"{key} {text} is no real day", ID)
                days[key] = day
        checked, last = days.get("checked"), days.get("last_commit")
        if checked and last and last > checked:
            yield problem(
                doc,
                ("maintenance", "last_commit"),
                f"last_commit {last} is after checked {checked}: the commit must have been "
                "seen when the state was established",
                ID,
            )
