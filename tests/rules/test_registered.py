"""Rule registered-exclusion: the register's reason reaches whoever adds what it left out."""

from collections.abc import Callable


def test_adding_a_left_out_resource_quotes_the_reason(
    findings: Callable[[str], list[str]],
) -> None:
    assert findings("registered-exclusion") == [
        "data/papers/serving2024.yml:3:6: warning: data/register.yml (item 1, 2026-11-26) left "
        "this out as inference-only: It serves trained models and trains nothing. To include it "
        "anyway, add `admitted: {date, reason}` to that item [registered-exclusion]",
        "data/papers/titleonly2024.yml:3:6: warning: data/register.yml (item 5, 2026-11-26) left "
        "this out as out-of-scope: Federated learning on phones, not datacenter training. To "
        "include it anyway, add `admitted: {date, reason}` to that item [registered-exclusion]",
        "data/register.yml:23:19: error: duplicate_of 'nosuch2024' is no entry of the catalog: "
        "check the id [registered-exclusion]",
    ]
