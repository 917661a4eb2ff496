from collections.abc import Callable

L = "data/libraries"


def test_successors_exist_and_dates_are_days_in_order(
    findings: Callable[[str], list[str]],
) -> None:
    assert findings("maintenance") == [
        f"{L}/ghostlib.yml:12:18: error: superseded_by 'ghost-successor' is no entry of the "
        "catalog: add it first, or use state deprecated and name the successor in evidence "
        "[maintenance]",
        f"{L}/notaday.yml:9:12: error: checked 2026-02-30 is no real day [maintenance]",
        f"{L}/selfsuper.yml:10:16: error: last_commit 2026-03-01 is after checked 2026-01-10: "
        "the commit must have been seen when the state was established [maintenance]",
        f"{L}/selfsuper.yml:13:18: error: an entry cannot supersede itself [maintenance]",
    ]
