"""Rule ``year-range``: a year is a whole number between 1950 and next year."""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog import builddate
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "year-range"
FIRST_YEAR = 1950


def check(ctx: Context) -> Iterator[Problem]:
    """Report years outside the plausible range, and years written as decimals (2012.0)."""
    last = builddate.this_year() + 1
    for doc, year in ctx.field_values("year"):
        if isinstance(year, float):  # the schema's "integer" admits 2012.0; outputs want 2012
            if year.is_integer():  # (the schema reports 2012.5, inf and nan itself)
                message = f"year {year} must be a whole number: write {int(year)}"
                yield problem(doc, ("year",), message, ID)
        elif (
            isinstance(year, int) and not isinstance(year, bool) and not FIRST_YEAR <= year <= last
        ):
            yield problem(doc, ("year",), f"year {year} is outside {FIRST_YEAR}-{last}", ID)
