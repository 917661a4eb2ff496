"""Maintenance states decided from evidence, by the rule of docs/maintenance.md.

The rule reads what a maintainer would look at: the newest commit of substance, the latest
release, the project's own notice and its successor. ``decide`` applies it to the evidence an
entry records; the ``maintenance`` validation rule checks that a recorded state agrees with it,
``add`` starts a new software entry with the state the repository's facts give, and ``enrich
--states`` proposes a change when newly read evidence calls for another state.

"Twelve months" and "two years" are counted back from ``checked``, the day the evidence was
read (in UTC); ``as_of`` is the date of the evidence itself (a snapshot's newest commit, or the
day of a live reading), which the card shows as the claim's date.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: A commit of substance in this many days before ``checked`` keeps a project active.
ACTIVE_DAYS = 365
#: A project that publishes releases and has none in this many days is winding down...
RELEASE_DAYS = 730
#: ... unless it still lands at least this many commits of substance a year.
STEADY_COMMITS = 10
#: States a project's own notice establishes (the rule's lines 1-6): facts alone never set them.
NOTICE_STATES = frozenset({"archived", "moved", "superseded", "deprecated", "maintenance-only"})
#: States that commits and releases establish (lines 7-9), which new facts may move.
FACT_STATES = frozenset({"active", "unmaintained", "winding-down", "unknown"})

#: Commit authors that are bots: their commits are housekeeping.
BOTS = re.compile(
    r"(\[bot\]$|^dependabot|^renovate|^pre-commit-ci|^github-actions|^mergify|^copybara)",
    re.IGNORECASE,
)
#: Subjects of housekeeping commits: a typo, a link or badge, a dependency bump, CI switches.
HOUSEKEEPING = re.compile(
    r"\b(typos?|spelling|misspell|broken links?|dead links?|badges?|bump\b|"
    r"update (the )?(readme|license|licence|copyright)|"
    r"(disable|enable|skip|fix|update|remove|add)\s+(the\s+)?(scheduled\s+|nightly\s+)?"
    r"(ci|workflows?|github actions?|actions)\b|\[skip ci\]|pre-commit autoupdate)",
    re.IGNORECASE,
)
#: Paths a housekeeping commit may touch (CI and repository metadata only).
HOUSEKEEPING_PATHS = re.compile(
    r"^(\.github/|\.circleci/|\.gitlab-ci\.yml$|\.pre-commit-config\.yaml$|CODEOWNERS$|"
    r"\.gitignore$|\.gitattributes$|LICEN[CS]E|\.readthedocs\.ya?ml$|\.mergify\.yml$)"
)


def is_housekeeping(author: str, subject: str, paths: list[str] | None = None) -> bool:
    """Tell whether a commit is housekeeping (a bot, CI-only, a typo or bump), not substance.

    ``paths`` are the files it touched, when known; without them the author and subject
    decide.
    """
    if BOTS.search(author.strip()):
        return True
    if paths and all(HOUSEKEEPING_PATHS.match(p) for p in paths):
        return True
    return bool(HOUSEKEEPING.search(subject))


@dataclass(frozen=True, slots=True)
class Decision:
    """The state the evidence calls for, the line of the rule that decided it, and why."""

    state: str
    line: int
    why: str


def day(value: Any) -> str | None:
    """Return the date (YYYY-MM-DD) a fetched timestamp starts with, or None if it has none."""
    found = _date(value[:10]) if isinstance(value, str) else None
    return found.isoformat() if found else None


def _date(text: Any) -> datetime.date | None:
    """Return a YYYY-MM-DD text's date, or None."""
    try:
        return datetime.date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


def decide(block: Mapping[str, Any]) -> Decision | None:
    """Return the state a maintenance block's evidence calls for, or None when it cannot say.

    Notice states (archived, moved, superseded, deprecated) rest on the project's own words,
    which the data quotes but cannot prove: they are taken as recorded. A fixes-only or
    winding-down notice needs a commit of substance in the twelve months, or the project is
    unmaintained (the rule's fall-through). Without a notice, commits and releases decide.
    """
    state = block.get("state")
    checked = _date(block.get("checked"))
    if state in ("archived", "moved", "superseded", "deprecated", "unknown") or checked is None:
        return None
    last = _date(block.get("last_commit"))
    release = block.get("release")
    released = _date(release.get("date")) if isinstance(release, Mapping) else None
    if last is None and released is None and state == "active":
        # Evidence of activity that is neither a dated commit nor a release (a merged pull
        # request seen on a page, release notes linked on a day): its date stands for both.
        last = _date(block.get("as_of"))
    recent_commit = last is not None and (checked - last).days <= ACTIVE_DAYS
    recent_release = released is not None and (checked - released).days <= ACTIVE_DAYS
    stale_release = released is not None and (checked - released).days > RELEASE_DAYS
    has_notice = bool(block.get("notice"))
    if state in ("maintenance-only", "winding-down") and has_notice:
        if recent_commit or recent_release:
            return Decision(state, 5 if state == "maintenance-only" else 6, "its notice")
        return Decision(
            "unmaintained",
            7,
            "its notice promises upkeep, but no commit of substance or release falls in the "
            "twelve months before it was checked",
        )
    if last is None and released is None:
        return None
    if not recent_commit and not recent_release:
        return Decision(
            "unmaintained", 7, "no commit of substance and no release in the twelve months"
        )
    count = block.get("commits_in_year")
    steady = isinstance(count, int) and not isinstance(count, bool) and count >= STEADY_COMMITS
    if recent_commit and not recent_release and stale_release and not steady:
        return Decision(
            "winding-down",
            8,
            "a few commits of substance, but its latest release is more than two years old",
        )
    return Decision("active", 9, "a commit of substance or a release in the twelve months")


def from_repository(
    full_name: str,
    archived: bool,
    pushed_at: str | None,
    today: str,
    *,
    activity: Any = None,
) -> dict[str, Any]:
    """Return the maintenance block a repository's live facts establish on ``today`` (UTC).

    ``activity`` (``github.Activity``) gives the newest commit of substance, the newest commit,
    their count in the year and the latest release, each with its page; without it, GitHub's
    last push stands for the newest commit of substance. The evidence is the reading itself, so
    ``as_of`` is ``today`` and ``source`` the exact commit (or release) it rests on.
    """
    home = f"https://github.com/{full_name}"
    seen = f"read from GitHub's API on {today}"
    if archived:
        return {
            "state": "archived",
            "as_of": today,
            "checked": today,
            "source": f"{home}/commits",
            "evidence": f"GitHub marks the repository as archived (read-only), {seen}.",
        }
    block: dict[str, Any] = {"state": "unknown", "as_of": today, "checked": today}
    if activity is not None:
        said = []
        if activity.substance is not None:
            sub = activity.substance
            block["last_commit"] = sub.day
            block["last_commit_url"] = f"{home}/commit/{sub.sha}"
            said.append(
                f"newest commit of substance {sub.day} ({sub.sha[:7]}, '{sub.subject[:60]}')"
            )
        newest = activity.newest
        if newest is not None and (
            activity.substance is None or newest.sha != activity.substance.sha
        ):
            block["newest_commit"] = newest.day
            said.append(f"newest commit {newest.day} is housekeeping ('{newest.subject[:60]}')")
        block["commits_in_year"] = activity.commits_in_year
        if activity.release is not None:
            tag, day_, page = activity.release
            block["release"] = {"version": tag, "date": day_, "url": page}
            said.append(f"latest release {tag} on {day_}")
        else:
            block["release"] = "none"
            said.append("no releases")
        block["source"] = block.get("last_commit_url") or (
            block["release"]["url"] if isinstance(block["release"], dict) else f"{home}/commits"
        )
        block["evidence"] = "; ".join(said).capitalize() + f", {seen}."
    else:
        pushed = day(pushed_at)
        if pushed is None:
            return {"state": "unknown", "checked": today}
        block["last_commit"] = pushed
        block["source"] = f"{home}/commits"
        block["evidence"] = f"GitHub reports the last push to the repository on {pushed}, {seen}."
    decision = decide({**block, "state": "active"})
    block["state"] = decision.state if decision is not None else "unknown"
    return block


def proposal(current: dict[str, Any] | None, facts: dict[str, Any]) -> dict[str, Any] | None:
    """Return the state to write when the facts contradict the current one, else None.

    A state from a notice is never replaced; a fact state is replaced when its state differs,
    so the diff of the maintenance pull request shows the new evidence beside the old.
    """
    if facts["state"] == "unknown":
        return None
    if current is None:
        return facts
    if current.get("state") not in FACT_STATES or current.get("notice"):
        return None
    return facts if current.get("state") != facts["state"] else None
