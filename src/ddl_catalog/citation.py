"""How a catalog entry is cited: one answer for the card, README, BibTeX, CSL-JSON, CSV and JSON.

A paper has two years. ``year`` is its first publication (an arXiv version, often), and
``venue_year`` the edition of the venue it appeared in. A citation names the venue, so it gives
the edition's year: GPipe is "NeurIPS 2019" although it was first published in 2018, and every
output says the same, with the first-publication year kept beside it (BibTeX ``origdate``, CSL
``original-date``) and the arXiv id in the eprint fields.

The venue's full name comes from data/venues.yml (``Venue``): a conference's record prints
"Advances in Neural Information Processing Systems (NeurIPS 2019)", keeping the acronym readers
know, and a renamed series its name of that year ("NIPS 2017"). A catalog without a venues file
cites the venue as written, typed by the naming patterns of ``export.venues``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ddl_catalog.model import Entry, Venue


@dataclass(frozen=True, slots=True)
class Citation:
    """What every output says when it cites an entry."""

    #: "inproceedings", "article", "book" or "misc" (the BibTeX types; CSL maps them).
    kind: str
    #: The people, in order, or empty when a team is the author.
    authors: tuple[str, ...]
    #: The team credited as author, when the byline is a team.
    team: str | None
    #: True when the authors are the first ones and more follow.
    more_authors: bool
    #: The year to cite: the venue edition's, else the first publication's.
    year: int | None
    #: The first publication's year, when it differs from ``year``.
    first_year: int | None
    #: The venue's short name of that year ("NIPS"), and with its year ("NIPS 2017").
    venue_short: str | None
    venue_label: str | None
    #: Where it appeared, in full: a conference's proceedings title (with the acronym and
    #: year) or a journal's name; the venue as written when the catalog has no venues file.
    container: str | None
    pages: str | None


def venue_label(entry: Entry, venues: Mapping[str, Venue]) -> str | None:
    """Return the venue as a reader reads it: "NeurIPS 2019", "NIPS 2017", or None."""
    if not entry.venue:
        return None
    venue = venues.get(entry.venue)
    short = venue.short_for(entry.venue_year) if venue is not None else entry.venue
    return f"{short} {entry.venue_year}" if entry.venue_year else short


def cite(entry: Entry, venues: Mapping[str, Venue]) -> Citation:
    """Return how ``entry`` is cited, the venue resolved through ``venues``."""
    from ddl_catalog.export.venues import is_journal

    venue = venues.get(entry.venue) if entry.venue else None
    label = venue_label(entry, venues)
    short = venue.short_for(entry.venue_year) if venue is not None else entry.venue
    if entry.kind == "book":
        kind = "book"
    elif entry.kind == "paper" and entry.venue:
        journal = venue.journal if venue is not None else is_journal(entry.venue)
        kind = "article" if journal else "inproceedings"
    else:
        kind = "misc"
    if venue is None:
        container = entry.venue
    elif kind == "article" or entry.kind == "book":
        container = venue.name
    else:
        container = f"{venue.name} ({label})"
    year = entry.venue_year if entry.venue and entry.venue_year else entry.year
    first = entry.year if entry.year is not None and entry.year != year else None
    return Citation(
        kind=kind,
        authors=entry.authors,
        team=entry.team,
        more_authors=entry.more_authors,
        year=year,
        first_year=first,
        venue_short=short,
        venue_label=label,
        container=container,
        pages=entry.pages,
    )
