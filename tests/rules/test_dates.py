from collections.abc import Callable

from ddl_catalog import builddate

L = "data/libraries"


def test_dates_are_real_days_and_none_is_in_the_future(
    findings: Callable[[str], list[str]],
) -> None:
    today = builddate.clock_today()
    assert findings("dates") == [
        f"{L}/futurecheck.yml:9:12: error: maintenance.checked 2099-01-01 is after today "
        f"({today}, UTC): no evidence can be dated in the future [dates]",
        f"{L}/noday.yml:9:12: error: maintenance.checked 2026-02-30 is no real day: check the "
        "date [dates]",
    ]
