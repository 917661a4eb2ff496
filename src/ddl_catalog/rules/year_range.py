"""Rule ``year-range``: a year lies between 1950 and next year."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "year-range"
FIRST_YEAR = 1950


def check(ctx: Context) -> Iterator[Problem]:
    """Report years outside the plausible range."""
    last = datetime.date.today().year + 1
    for doc, year in ctx.field_values("year"):
        if isinstance(year, int) and not isinstance(year, bool) and not FIRST_YEAR <= year <= last:
            yield problem(doc, ("year",), f"year {year} is outside {FIRST_YEAR}-{last}", ID)
