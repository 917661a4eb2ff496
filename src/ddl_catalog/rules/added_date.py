"""Rule ``added-date``: ``added`` is a real calendar day, between 1990 and the end of next year.

The schema checks the form (YYYY-MM-DD); this rule checks the day exists, so that no later
step (the Atom feed, the site's build date, the exports) meets a date it cannot read.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator

from ddl_catalog import builddate
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "added-date"
#: No entry joined a list of web resources before the web: and before 1970 (the Unix epoch)
#: the site could not even be stamped with the newest date.
FIRST_YEAR = 1990
_FORM = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


def days_in(year: int, month: int) -> int:
    """Return the number of days of a month of the Gregorian calendar."""
    return calendar.monthrange(year, month)[1]


def date_problem(text: str, last_year: int) -> str | None:
    """Return why a YYYY-MM-DD text is no acceptable ``added`` date, or None (other forms too)."""
    match = _FORM.fullmatch(text)
    if match is None:
        return None  # the schema rule reports the form
    year, month, day = (int(part) for part in match.groups())
    if not 1 <= month <= 12:
        return f"added date {text} does not exist: there is no month {month:02d}"
    if day == 0:
        return f"added date {text} does not exist: days start at 01"
    if day > days_in(year, month):
        name = calendar.month_name[month]  # English: Python leaves the C locale unless told
        return f"added date {text} does not exist: {name} {year} has {days_in(year, month)} days"
    if not FIRST_YEAR <= year <= last_year:
        return f"added date {text} is outside {FIRST_YEAR}-01-01 to {last_year}-12-31"
    return None


def check(ctx: Context) -> Iterator[Problem]:
    """Report ``added`` dates that do not exist or lie outside the plausible range."""
    last_year = builddate.this_year() + 1
    for doc, added in ctx.field_values("added"):
        if isinstance(added, str) and (why := date_problem(added, last_year)):
            yield problem(doc, ("added",), why, ID)
