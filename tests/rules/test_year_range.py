import datetime
from collections.abc import Callable


def test_years_outside_range(findings: Callable[[str], list[str]]) -> None:
    last = datetime.date.today().year + 1
    assert findings("year-range") == [
        "data/papers/float2012paper.yml:7:7: error: year 2012.0 must be a whole number: write "
        "2012 [year-range]",
        f"data/papers/future2999paper.yml:7:7: error: year 2999 is outside 1950-{last} "
        "[year-range]",
        f"data/papers/old1900paper.yml:7:7: error: year 1900 is outside 1950-{last} [year-range]",
    ]
