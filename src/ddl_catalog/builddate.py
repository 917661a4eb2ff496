"""Today's date for what the toolchain writes, or SOURCE_DATE_EPOCH's for reproducible builds.

The variable holds what ``date +%s`` prints: whole seconds since 1970, in ASCII digits
(https://reproducible-builds.org/specs/source-date-epoch/). The specification asks a build to
stop on a malformed value rather than guess, and mkdocs itself would fail on one with a
traceback, so every command that dates its output checks it here first.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

VARIABLE = "SOURCE_DATE_EPOCH"
#: The last second a date can hold (9999-12-31T23:59:59Z).
LAST_SECOND = 253_402_300_799


class BuildDateError(ValueError):
    """SOURCE_DATE_EPOCH is set to something that is not a usable time."""


def source_date_epoch() -> int | None:
    """Return SOURCE_DATE_EPOCH in seconds, None when it is unset; BuildDateError if malformed."""
    raw = os.environ.get(VARIABLE)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()):
        shown = raw if len(raw) <= 30 else f"{raw[:27]}..."
        raise BuildDateError(
            f"{VARIABLE}={shown!r} is not a time: give whole seconds since 1970 in digits "
            "(what `date +%s` prints), or unset it"
        )
    seconds = int(raw)
    if seconds > LAST_SECOND:
        raise BuildDateError(
            f"{VARIABLE}={raw[:30]} is after the year 9999: give seconds since 1970 "
            "(what `date +%s` prints), or unset it"
        )
    return seconds


def today() -> str:
    """Return today's date as YYYY-MM-DD in UTC: SOURCE_DATE_EPOCH's when it is set.

    UTC, never the machine's local day: GitHub, arXiv and Crossref date what they report in
    UTC, so a local day behind UTC would date a commit pushed an hour ago "tomorrow" and the
    tools would write an entry that validate refuses.
    """
    seconds = source_date_epoch()
    if seconds is None:
        return datetime.now(UTC).date().isoformat()
    return datetime.fromtimestamp(seconds, UTC).date().isoformat()


def clock_today() -> str:
    """Return the real current day in UTC, whatever SOURCE_DATE_EPOCH says.

    Validation asks the clock, not the build date: "no evidence dated in the future" must not
    fail a reproducible build whose SOURCE_DATE_EPOCH is set to the epoch.
    """
    return datetime.now(UTC).date().isoformat()


def this_year() -> int:
    """Return the real current year in UTC, for year ranges (see ``clock_today``)."""
    return int(clock_today()[:4])
