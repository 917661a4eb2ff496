"""GitHub REST API: a repository's stars, forks, last push, archived flag, license, homepage."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import requests

from ddl_catalog.net.enrich.base import EnrichError, api_base, get_json

DEFAULT_API = "https://api.github.com"
ENV_VAR = "DDL_GITHUB_API"


@dataclass(frozen=True, slots=True)
class RepoRecord:
    """What GitHub says about one repository."""

    full_name: str
    html_url: str
    description: str | None
    stars: int
    forks: int
    pushed_at: str | None
    archived: bool
    license: str | None
    homepage: str | None


def fetch(
    repo: str,
    session: requests.Session,
    base_url: str | None = None,
    *,
    token: str | None = None,
    **kwargs: Any,
) -> RepoRecord:
    """Fetch ``owner/name`` from the GitHub REST API; a transferred repo gives its new name."""
    if repo.count("/") != 1 or not all(repo.split("/")):
        raise EnrichError(f"not a GitHub repository: {repo!r}")
    url = f"{api_base(base_url, ENV_VAR, DEFAULT_API)}/repos/{repo}"
    headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
    token = token if token is not None else os.environ.get("GITHUB_TOKEN")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = get_json(session, url, headers=headers, **kwargs)
    return parse(data, url)


def parse(data: Any, url: str = "GitHub") -> RepoRecord:
    """Build a record from a ``/repos/{owner}/{repo}`` JSON document; raises EnrichError."""
    name = data.get("full_name") if isinstance(data, dict) else None
    if not isinstance(name, str) or name.count("/") != 1 or not all(name.split("/")):
        raise EnrichError(f"{url}: unexpected payload (full_name is not OWNER/NAME)")
    try:
        licence = data.get("license") or {}
        spdx = licence.get("spdx_id") if isinstance(licence, dict) else None
        return RepoRecord(
            full_name=data["full_name"],
            html_url=str(data.get("html_url") or f"https://github.com/{data['full_name']}"),
            description=data.get("description") or None,
            stars=int(data.get("stargazers_count") or 0),
            forks=int(data.get("forks_count") or 0),
            pushed_at=data.get("pushed_at") or None,
            archived=bool(data.get("archived", False)),
            license=spdx if spdx and spdx != "NOASSERTION" else None,
            homepage=data.get("homepage") or None,
        )
    except (TypeError, ValueError, OverflowError) as exc:  # OverflowError: a count of 1e400
        raise EnrichError(f"{url}: unexpected payload ({exc})") from exc


@dataclass(frozen=True, slots=True)
class Commit:
    """One commit as the maintenance rule reads it."""

    sha: str
    day: str
    author: str
    subject: str


@dataclass(frozen=True, slots=True)
class Activity:
    """What a repository's recent commits and latest release say about its upkeep."""

    #: The newest commit of any kind, and the newest of substance (None: none in the page).
    newest: Commit | None
    substance: Commit | None
    #: Commits of substance in the year before ``today``, among those read.
    commits_in_year: int
    #: The latest release as (tag, day, page), or None when the project publishes none.
    release: tuple[str, str, str] | None


def activity(
    repo: str,
    session: requests.Session,
    today: str,
    base_url: str | None = None,
    *,
    token: str | None = None,
    **kwargs: Any,
) -> Activity:
    """Read the newest commits and the latest release of ``owner/name``; raises EnrichError.

    One page of the default branch's commits (the newest 100) tells the newest commit, the
    newest of substance (``upkeep.is_housekeeping`` sets aside bots, CI switches, typo and bump
    commits) and how many of substance fall in the year before ``today``; ``releases/latest``
    tells the latest release, and a 404 there says the project publishes none.
    """
    from ddl_catalog import upkeep
    from ddl_catalog.net.enrich.base import NotFound

    base = f"{api_base(base_url, ENV_VAR, DEFAULT_API)}/repos/{repo}"
    headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
    token = token if token is not None else os.environ.get("GITHUB_TOKEN")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    listed = get_json(
        session, f"{base}/commits", params={"per_page": "100"}, headers=headers, **kwargs
    )
    if not isinstance(listed, list):
        raise EnrichError(f"{base}/commits: unexpected payload (not a list)")
    commits = [c for c in (_commit(item) for item in listed) if c is not None]
    substantive = [c for c in commits if not upkeep.is_housekeeping(c.author, c.subject)]
    year_ago = _days_before(today, 365)
    try:
        latest = get_json(session, f"{base}/releases/latest", headers=headers, **kwargs)
    except NotFound:
        latest = None
    release = None
    if isinstance(latest, dict):
        tag, when, page = latest.get("tag_name"), latest.get("published_at"), latest.get("html_url")
        if isinstance(tag, str) and tag and isinstance(when, str) and len(when) >= 10:
            release = (tag, when[:10], page if isinstance(page, str) else f"{base}/releases")
    return Activity(
        newest=commits[0] if commits else None,
        substance=substantive[0] if substantive else None,
        commits_in_year=sum(1 for c in substantive if c.day >= year_ago),
        release=release,
    )


def _commit(item: Any) -> Commit | None:
    """Read one item of the commits list (None when it is not the expected shape)."""
    if not isinstance(item, dict) or not isinstance(item.get("sha"), str):
        return None
    inner = _mapping(item.get("commit"))
    dated = _mapping(inner.get("committer")) or _mapping(inner.get("author"))
    day = dated.get("date")
    if not isinstance(day, str) or len(day) < 10:
        return None
    name = _mapping(item.get("author")).get("login") or _mapping(inner.get("author")).get("name")
    message = inner.get("message") if isinstance(inner.get("message"), str) else ""
    return Commit(
        item["sha"], day[:10], str(name or ""), message.splitlines()[0] if message else ""
    )


def _mapping(value: Any) -> dict[str, Any]:
    """Return ``value`` when it is a mapping, else an empty one (payloads vary)."""
    return value if isinstance(value, dict) else {}


def _days_before(day: str, days: int) -> str:
    """Return the YYYY-MM-DD ``days`` before ``day``."""
    import datetime

    return (datetime.date.fromisoformat(day) - datetime.timedelta(days=days)).isoformat()
