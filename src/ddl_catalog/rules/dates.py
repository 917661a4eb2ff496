"""Rule ``dates``: every date of an entry is a real day, and none is in the future.

The schema checks the YYYY-MM-DD form; this rule checks the calendar (2026-02-30 is no day) and
the clock: no evidence can be dated after today (in UTC, the day every tool writes), so a
``checked: 2099-01-01`` is a typo. Which fields are dates is ``fields.DATES``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

from ddl_catalog import builddate, fields
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, field_name, problem

ID = "dates"


def day(text: Any) -> datetime.date | None:
    """Return the date of a YYYY-MM-DD text, or None when it is not a real day."""
    if not isinstance(text, str) or len(text) != 10:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def check(ctx: Context) -> Iterator[Problem]:
    """Report dates that are no real day or lie after today (UTC)."""
    today = datetime.date.fromisoformat(builddate.clock_today())
    for doc in ctx.entries:
        if not isinstance(doc.data, dict):
            continue
        for name in fields.DATES["entry"]:
            for path, value in fields.values(doc.data, name):
                if not isinstance(value, str) or len(value) != 10 or name == "added":
                    continue  # the schema reports the form; added-date has its own rule
                when = day(value)
                if when is None:
                    message = f"{field_name(path)} {value} is no real day: check the date"
                    yield problem(doc, path, message, ID)
                elif when > today:
                    message = (
                        f"{field_name(path)} {value} is after today ({today}, UTC): no "
                        "evidence can be dated in the future"
                    )
                    yield problem(doc, path, message, ID)
