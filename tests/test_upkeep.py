"""States from a repository's facts, and when new facts may replace a curated state."""

from __future__ import annotations

import pytest

from ddl_catalog import upkeep

TODAY = "2026-11-25"


@pytest.mark.parametrize(
    ("archived", "pushed", "state"),
    [
        (True, "2026-11-01T00:00:00Z", "archived"),
        (False, "2025-11-25T08:00:00Z", "active"),  # exactly a year before: still active
        (False, "2025-11-24T23:00:00Z", "unmaintained"),
        (False, None, "unknown"),
        (False, "not a date", "unknown"),
    ],
)
def test_facts_give_a_state_with_their_evidence(
    archived: bool, pushed: str | None, state: str
) -> None:
    found = upkeep.from_repository("o/n", archived, pushed, TODAY)
    assert found["state"] == state and found["checked"] == TODAY
    if state != "unknown":
        assert found["source"] == "https://github.com/o/n"
        assert TODAY in found["evidence"]


def test_a_state_from_a_notice_is_never_replaced_by_facts() -> None:
    facts = upkeep.from_repository("o/n", True, None, TODAY)
    for notice in ("deprecated", "moved", "superseded", "maintenance-only"):
        assert upkeep.proposal({"state": notice}, facts) is None
    assert upkeep.proposal({"state": "active"}, facts) == facts
    assert upkeep.proposal({"state": "archived"}, facts) is None  # nothing new
    assert upkeep.proposal(None, facts) == facts
    unknown = upkeep.from_repository("o/n", False, None, TODAY)
    assert upkeep.proposal({"state": "active"}, unknown) is None
