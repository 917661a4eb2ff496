"""Maintenance states read off a repository's facts (GitHub's archived flag and last push).

``add`` starts a new software entry with the state these facts give, and ``enrich --states``
proposes a change when newly fetched facts contradict a state of the same kind. Only the states
that facts alone can establish are set here (active, unmaintained, archived); a state that came
from the project's own notice (deprecated, moved, superseded, maintenance-only) is never changed
by facts: it is reported for review instead.
"""

from __future__ import annotations

import datetime
from typing import Any

from ddl_catalog.metadata import day

#: A project with a push in this many days before the check counts as active.
ACTIVE_DAYS = 365
#: States that commit facts establish, and so may move with new facts.
FACT_STATES = frozenset({"active", "unmaintained", "archived", "unknown"})


def from_repository(
    full_name: str, archived: bool, pushed_at: str | None, today: str
) -> dict[str, Any]:
    """Return the maintenance mapping that a repository's facts establish on ``today``."""
    source = f"https://github.com/{full_name}"
    seen = f"as fetched from GitHub's API on {today}"
    if archived:
        return {
            "state": "archived",
            "checked": today,
            "source": source,
            "evidence": f"GitHub marks the repository as archived (read-only), {seen}.",
        }
    pushed = day(pushed_at)
    if pushed is None:
        return {"state": "unknown", "checked": today}
    age = datetime.date.fromisoformat(today) - datetime.date.fromisoformat(pushed)
    return {
        "state": "active" if age.days <= ACTIVE_DAYS else "unmaintained",
        "checked": today,
        "last_commit": pushed,
        "source": source,
        "evidence": f"GitHub reports the last push to the repository on {pushed}, {seen}.",
    }


def proposal(current: dict[str, Any] | None, facts: dict[str, Any]) -> dict[str, Any] | None:
    """Return the state to write when the facts contradict the current one, else None.

    A state from a notice is never replaced; a fact state is replaced when its state differs,
    so the diff of the maintenance pull request shows the new evidence beside the old.
    """
    if facts["state"] == "unknown":
        return None
    if current is None:
        return facts
    if current.get("state") not in FACT_STATES:
        return None
    return facts if current.get("state") != facts["state"] else None
