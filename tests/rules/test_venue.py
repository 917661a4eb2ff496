from collections.abc import Callable

from ddl_catalog import builddate

P = "data/papers"
NEXT = builddate.this_year() + 1


def test_venues_are_known_series_paired_with_a_possible_edition(
    findings: Callable[[str], list[str]],
) -> None:
    assert findings("venue") == [
        f"{P}/before2020edition.yml:10:13: error: venue_year 2019 is before the work's first "
        "publication (2020): year is the first publication, venue_year the edition it appeared "
        "in [venue]",
        f"{P}/early2015mlsys.yml:10:13: error: MLSys was first held in 2018: no edition in 2015 "
        "[venue]",
        f"{P}/far2010paper.yml:10:13: error: venue_year 2024 is more than 6 years after the first "
        "publication (2010): check both years [venue]",
        f"{P}/future2020paper.yml:10:13: error: venue_year 99999 is after next year ({NEXT}) "
        "[venue]",
        f"{P}/loose2020year.yml:9:13: error: venue_year without a venue: add the venue, or remove "
        "venue_year [venue]",
        f"{P}/noyear2019paper.yml:9:8: warning: a paper's venue needs venue_year, the year of the "
        "edition it appeared in (citations give that year; without it they fall back to the "
        "first publication's) [venue]",
        f"{P}/twice2020paper.yml:9:8: error: venue 'NeurIPS 2020' carries a year: write the "
        "series alone ('NeurIPS') and the edition's year in venue_year [venue]",
        f"{P}/twice2020paper.yml:9:8: error: venue 'NeurIPS 2020' is not in data/venues.yml: use "
        "its id there, or add the venue with its full name, type and first year [venue]",
        f"{P}/unknown2019venue.yml:9:8: error: venue 'NIPS' is a former name of NeurIPS: write "
        "venue: NeurIPS (citations print the name of the edition's year) [venue]",
    ]
