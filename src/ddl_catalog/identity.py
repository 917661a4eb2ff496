"""URL normalisation and canonical identity of resources.

Two entries describe the same resource when they share any identity key: the same arXiv id
(whatever the URL form), DOI, GitHub repository (across known transfers) or normalised URL.
The rules here are the ones the seed lists showed to be needed; each has a test.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

#: Repositories that moved; keys and values are lower-case ``owner/name``.
GITHUB_TRANSFERS: dict[str, str] = {
    "uber/horovod": "horovod/horovod",
    "dmlc/mxnet": "apache/mxnet",
    "apache/incubator-mxnet": "apache/mxnet",
    # Moves verified while building the catalog (see data/seed-corrections.yml):
    "microsoft/deepspeed": "deepspeedai/deepspeed",  # the repository's README and badges
    "facebookincubator/gloo": "pytorch/gloo",  # pytorch/pytorch PR #152438
    "nvidia/framework-determinism": "nvidia/framework-reproducibility",  # renamed 2023-02-14
}

#: Hosts that serve the same files as another host.
HOST_ALIASES: dict[str, str] = {
    "websrv.cs.fsu.edu": "cs.fsu.edu",
    "engineering.skymind.io": "blog.skymind.ai",
    "dx.doi.org": "doi.org",
    "papers.neurips.cc": "papers.nips.cc",
    "m.youtube.com": "youtube.com",
    "youtu.be": "youtube.com",
}

_TRACKING_PARAMS = frozenset({"fbclid", "gclid", "ref_src", "source", "sk", "si"})
_ARXIV_HOSTS = frozenset({"arxiv.org", "export.arxiv.org"})
_ARXIV_PATH = re.compile(
    r"^/(?:abs|pdf|html|format)/"
    r"(?P<id>\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Za-z]{2})?/\d{7})"
    r"(?:v\d+)?(?:\.pdf)?/?$"
)
_ARXIV_ID = re.compile(
    r"^(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Za-z]{2})?/\d{7})(?:v\d+)?$", re.I
)
_DOI = re.compile(r"^(10\.\d{4,9}/\S+)$")
_ACM_DOI_PATH = re.compile(r"^/doi/(?:abs/|pdf/|full/|fullHtml/)?(10\.\d{4,9}/.+)$")
_NEURIPS_HASH = re.compile(
    r"^/paper(?:_files/paper)?/(?P<year>\d{4})/(?:hash|file)/(?P<hash>[0-9a-f]{32})-"
    r"(?:Abstract|Paper)(?:-[A-Za-z_]+)?\.(?:html|pdf)$"
)
_GITHUB_RESERVED = frozenset(
    {"orgs", "topics", "features", "marketplace", "settings", "sponsors", "about", "search"}
)


def _split(url: str) -> tuple[str, str, str, str, str]:
    """Split a URL into lower-cased scheme and host, and its path, query and fragment."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").rstrip(".")
    if parts.port and parts.port not in (80, 443):
        host = f"{host}:{parts.port}"
    return parts.scheme.lower(), host.lower(), parts.path, parts.query, parts.fragment


def _bare_host(host: str) -> str:
    """Drop a leading ``www.`` and map mirror hosts to their canonical name."""
    if host.startswith("www."):
        host = host[4:]
    return HOST_ALIASES.get(host, host)


def arxiv_id(url: str) -> str | None:
    """Return the version-less arXiv id of an arXiv abs/pdf URL (any form), else None."""
    _, host, path, _, _ = _split(url)
    if _bare_host(host) not in _ARXIV_HOSTS:
        return None
    match = _ARXIV_PATH.match(re.sub(r"/{2,}", "/", path))
    return match.group("id") if match else None


def normalize_arxiv(value: str) -> str | None:
    """Return the version-less arXiv id of ``1802.09941v2`` or ``arXiv:1802.09941``, else None."""
    match = _ARXIV_ID.match(value.strip())
    return match.group(1) if match else None


def doi_from_url(url: str) -> str | None:
    """Return the lower-cased DOI of a doi.org or ACM Digital Library DOI URL, else None."""
    _, host, path, _, _ = _split(url)
    host = _bare_host(host)
    if host == "doi.org":
        return normalize_doi(unquote(path.lstrip("/")))
    if host == "dl.acm.org":
        match = _ACM_DOI_PATH.match(unquote(path))
        if match:
            return normalize_doi(match.group(1))
    return None


def normalize_doi(value: str) -> str | None:
    """Return a DOI in canonical lower-case form, or None when it is not a DOI."""
    value = value.strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "doi:"):
        if value.lower().startswith(prefix):
            value = value[len(prefix) :]
    match = _DOI.match(value)
    return match.group(1).lower().rstrip("/") if match else None


def github_repo(url: str) -> str | None:
    """Return the canonical lower-case ``owner/name`` of a repository's home URL, else None.

    Deep links (a file, an issue) are not the repository itself and give None, so that two
    entries linking different files of one repository are not taken for duplicates.
    """
    _, host, path, _, _ = _split(url)
    if _bare_host(host) != "github.com":
        return None
    segments = [s for s in path.split("/") if s]
    is_root = len(segments) == 2 or (len(segments) == 4 and segments[2] == "tree")
    if not is_root:
        return None
    owner, name = segments[0], segments[1]
    if owner.lower() in _GITHUB_RESERVED:
        return None
    return canonical_github(f"{owner}/{name.removesuffix('.git')}")


def canonical_github(repo: str) -> str:
    """Return ``owner/name`` lower-cased, following known repository transfers."""
    key = repo.strip().strip("/").lower()
    seen: set[str] = set()
    while key in GITHUB_TRANSFERS and key not in seen:
        seen.add(key)
        key = GITHUB_TRANSFERS[key]
    return key


def normalize_url(url: str) -> str:
    """Return the comparison form of a URL: scheme-less, host and path canonicalised.

    Used only to compare URLs; what a page shows is always the URL as written.
    """
    if (aid := arxiv_id(url)) is not None:
        return f"arxiv.org/abs/{aid}"
    if (doi := doi_from_url(url)) is not None:
        return f"doi.org/{doi}"
    if (repo := github_repo(url)) is not None:
        return f"github.com/{repo}"
    _, host, path, query, _ = _split(url)
    host = _bare_host(host)
    path = re.sub(r"/{2,}", "/", path)
    path = quote(unquote(path), safe="/:@!$&'()*+,;=~-._")
    if host in ("papers.nips.cc", "proceedings.neurips.cc"):
        match = _NEURIPS_HASH.match(path)
        if match:
            return f"neurips/{match.group('year')}/{match.group('hash')}"
    pairs = [
        (k, v)
        for k, v in parse_qsl(query, keep_blank_values=True)
        if not k.lower().startswith("utm_") and k.lower() not in _TRACKING_PARAMS
    ]
    if _split(url)[1] == "youtu.be":
        pairs, path = [("v", path.strip("/"))], "/watch"
    elif host == "youtube.com" and path.startswith("/watch"):
        pairs = [(k, v) for k, v in pairs if k == "v"]
    if host == "arxiv.org" or host.endswith(".arxiv.org"):
        pairs = []
    path = path.rstrip("/") if path not in ("", "/") else ""
    query = urlencode(sorted(pairs))
    return urlunsplit(("", host, path, query, "")).lstrip("/")


def identity_keys(data: Mapping[str, Any]) -> set[tuple[str, str]]:
    """Return the canonical identity keys of an entry mapping (its url and identifiers)."""
    keys: set[tuple[str, str]] = set()
    url = data.get("url")
    if isinstance(url, str) and url.strip():
        keys.add(("url", normalize_url(url)))
        if (aid := arxiv_id(url)) is not None:
            keys.add(("arxiv", aid))
        if (doi := doi_from_url(url)) is not None:
            keys.add(("doi", doi))
        if (repo := github_repo(url)) is not None:
            keys.add(("github", repo))
    identifiers = data.get("identifiers")
    if isinstance(identifiers, Mapping):
        keys.update(_identifier_keys(identifiers))
    return keys


def _identifier_keys(identifiers: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    """Yield identity keys for the ``identifiers`` block of an entry."""
    arxiv = identifiers.get("arxiv")
    if isinstance(arxiv, str) and (aid := normalize_arxiv(arxiv)):
        yield ("arxiv", aid)
        yield ("url", f"arxiv.org/abs/{aid}")
    doi = identifiers.get("doi")
    if isinstance(doi, str) and (norm := normalize_doi(doi)):
        yield ("doi", norm)
        yield ("url", f"doi.org/{norm}")
    repo = identifiers.get("github")
    if isinstance(repo, str) and repo.count("/") == 1:
        canonical = canonical_github(repo)
        yield ("github", canonical)
        yield ("url", f"github.com/{canonical}")


def describe_key(key: tuple[str, str]) -> str:
    """Return a human phrase for an identity key, for error messages."""
    kind, value = key
    return {
        "arxiv": f"arXiv id {value}",
        "doi": f"DOI {value}",
        "github": f"GitHub repository {value}",
    }.get(kind, f"URL {value}")
