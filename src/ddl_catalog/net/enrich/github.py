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
