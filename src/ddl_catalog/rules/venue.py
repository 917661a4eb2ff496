"""Rule ``venue``: a paper's venue is a known series, paired with a year it could have held.

A citation prints the venue with the year of its edition ("NeurIPS 2019"), so the pair must be
right: ``venue`` is an id of data/venues.yml (when the catalog has that file), the edition is
not before the work was first published nor before the series existed, nor after next year,
nor years after, no ``venue_year`` stands without a venue, and the venue's name does not carry a
year of its own (which the citation would print twice). A paper's venue without its edition's
year is a warning (a draft may not know it yet; ``validate --strict`` refuses it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ddl_catalog import builddate
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem
from ddl_catalog.rules.year_range import FIRST_YEAR

ID = "venue"
#: A year written into a venue's name: "NeurIPS 2020", "OSDI '22", "SOSP'25".
_YEAR_IN_NAME = re.compile(r"(?:^|[\s'’])(?:19|20)\d{2}\b|'\d{2}\b|’\d{2}\b")
#: How many years after first publication an edition may be: a paper on arXiv in 2019 can
#: appear in a journal years later, but not a decade later.
MAX_DELAY = 6


def check(ctx: Context) -> Iterator[Problem]:
    """Report unknown venues, a venue without its year (or the reverse), impossible editions."""
    last = builddate.this_year() + 1
    for doc in ctx.entries:
        data = doc.data
        if not isinstance(data, dict):
            continue
        venue, edition, year = data.get("venue"), data.get("venue_year"), data.get("year")
        if isinstance(edition, bool) or not isinstance(edition, int):
            edition = None
        if isinstance(year, bool) or not isinstance(year, int) or not FIRST_YEAR <= year <= last:
            year = None  # no year, or one year-range reports: nothing to compare with
        if not isinstance(venue, str):
            if edition is not None and "venue" not in data:
                yield problem(
                    doc,
                    ("venue_year",),
                    "venue_year without a venue: add the venue, or remove venue_year",
                    ID,
                )
            continue
        if _YEAR_IN_NAME.search(venue) and any(ch.isalpha() for ch in venue):
            yield problem(
                doc,
                ("venue",),
                f"venue '{venue}' carries a year: write the series alone ('NeurIPS') and the "
                "edition's year in venue_year",
                ID,
            )
        known = ctx.venues
        series = known.get(venue) if known is not None else None
        if known is not None and series is None:
            former = next(
                (
                    v["id"]
                    for v in known.values()
                    for f in v.get("former", [])
                    if f["short"] == venue
                ),
                None,
            )
            message = (
                f"venue '{venue}' is a former name of {former}: write venue: {former} (citations "
                "print the name of the edition's year)"
                if former
                else f"venue '{venue}' is not in data/venues.yml: use its id there, or add the "
                "venue with its full name, type and first year"
            )
            yield problem(doc, ("venue",), message, ID)
        if edition is None:
            if data.get("kind") == "paper" and "venue_year" not in data:
                yield problem(
                    doc,
                    ("venue",),
                    "a paper's venue needs venue_year, the year of the edition it appeared in "
                    "(citations give that year; without it they fall back to the first "
                    "publication's)",
                    ID,
                    severity="warning",
                )
            continue
        where = ("venue_year",)
        if edition > last:
            yield problem(doc, where, f"venue_year {edition} is after next year ({last})", ID)
        elif year is not None and edition < year:
            yield problem(
                doc,
                where,
                f"venue_year {edition} is before the work's first publication ({year}): year "
                "is the first publication, venue_year the edition it appeared in",
                ID,
            )
        elif year is not None and edition > year + MAX_DELAY:
            yield problem(
                doc,
                where,
                f"venue_year {edition} is more than {MAX_DELAY} years after the first "
                f"publication ({year}): check both years",
                ID,
            )
        elif (
            series is not None
            and isinstance(series.get("since"), int)
            and (edition < series["since"])
        ):
            yield problem(
                doc,
                where,
                f"{venue} was first held in {series['since']}: no edition in {edition}",
                ID,
            )
