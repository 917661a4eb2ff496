import datetime
from collections.abc import Callable

import pytest

from ddl_catalog.rules.added_date import date_problem, days_in

F = "data/papers/{}.yml:7:8: error: added date {} [added-date]"


def test_added_dates_are_real_days_in_range(findings: Callable[[str], list[str]]) -> None:
    last = datetime.date.today().year + 1
    assert findings("added-date") == [
        F.format("day00paper", "2026-01-00 does not exist: days start at 01"),
        F.format("feb30paper", "2026-02-30 does not exist: February 2026 has 28 days"),
        F.format("future2999paper", f"2999-01-01 is outside 1990-01-01 to {last}-12-31"),
        F.format("leap2100paper", "2100-02-29 does not exist: February 2100 has 28 days"),
        F.format("month13paper", "2026-13-01 does not exist: there is no month 13"),
        F.format("old1969paper", f"1969-12-31 is outside 1990-01-01 to {last}-12-31"),
        F.format("year0paper", f"0000-01-01 is outside 1990-01-01 to {last}-12-31"),
    ]


@pytest.mark.parametrize("year", [1990, 1999, 2000, 2023, 2024, 2100, 2400])
def test_days_in_agrees_with_the_standard_library(year: int) -> None:
    for month in range(1, 13):
        following = datetime.date(year + month // 12, month % 12 + 1, 1)
        assert days_in(year, month) == (following - datetime.timedelta(days=1)).day


def test_every_accepted_date_is_one_the_outputs_can_read() -> None:
    day = datetime.date(1990, 1, 1)
    while day.year <= 2027:
        assert date_problem(day.isoformat(), 2027) is None
        day += datetime.timedelta(days=1)
    for text in ("2026-02-29", "2026-04-31", "2026-00-10", "2026-12-32", "1989-12-31"):
        assert date_problem(text, 2027) is not None
    assert date_problem("26-1-1", 2027) is None  # the schema's business, not reported twice
