"""URL normalisation and canonical identity of resources.

Two entries describe the same resource when they share any identity key: the same arXiv id
(whatever the URL form), DOI, GitHub repository (across known transfers) or normalised URL.
The rules here are the ones the seed lists showed to be needed; each has a test.

This module is the one place that says which URLs and hosts are the same: ``validate`` (the
duplicate-identity and url-host rules), ``add``, ``import`` and ``check-links --fix`` all ask
it. Hosts are compared as a browser resolves them: UTS #46 mapped (case, full-width letters,
invisible characters such as U+200B and the soft hyphen), then written as IDNA A-labels, so
``café.example``, ``CAFÉ.example`` and ``xn--caf-dma.example`` are one host.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import Any, NamedTuple
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
    # ACM's old DOI resolver: doi.acm.org/10.1145/... is the DOI itself.
    "doi.acm.org": "doi.org",
    "papers.neurips.cc": "papers.nips.cc",
    "m.youtube.com": "youtube.com",
    "youtu.be": "youtube.com",
}

_TRACKING_PARAMS = frozenset({"fbclid", "gclid", "ref_src", "source", "sk", "si"})
#: arXiv and its mirrors: ar5iv renders the same papers as HTML at /html/<id> (and /abs/<id>).
_ARXIV_HOSTS = frozenset({"arxiv.org", "export.arxiv.org", "ar5iv.labs.arxiv.org", "ar5iv.org"})
_ARXIV_PATH = re.compile(
    r"^/(?:abs|pdf|html|format)/"
    r"(?P<id>\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Za-z]{2})?/\d{7})"
    r"(?:v\d+)?(?:\.pdf)?/?$"
)
#: ASCII letters spelt out rather than re.IGNORECASE, which would also let Unicode look-alikes
#: through (the Kelvin sign matches k) and takes twice as long to compile.
_ARXIV_ID = re.compile(
    r"^(?:[Aa][Rr][Xx][Ii][Vv]:)?(\d{4}\.\d{4,5}|[A-Za-z-]+(?:\.[A-Za-z]{2})?/\d{7})(?:[Vv]\d+)?$"
)
_DOUBLE_SLASH = re.compile(r"/{2,}")
_DOI = re.compile(r"^(10\.\d{4,9}/\S+)$")
_ACM_DOI_PATH = re.compile(r"^/doi/(?:abs/|pdf/|epdf/|epub/|full/|fullHtml/)?(10\.\d{4,9}/.+)$")
_NEURIPS_HASH = re.compile(
    r"^/paper(?:_files/paper)?/(?P<year>\d{4})/(?:hash|file)/(?P<hash>[0-9a-f]{32})-"
    r"(?:Abstract|Paper)(?:-[A-Za-z_]+)?\.(?:html|pdf)$"
)
_GITHUB_RESERVED = frozenset(
    {"orgs", "topics", "features", "marketplace", "settings", "sponsors", "about", "search"}
)


class Analysis(NamedTuple):
    """What one URL is: its comparison form and the identifiers it carries."""

    normal: str
    arxiv: str | None
    doi: str | None
    github: str | None


def _split(url: str) -> tuple[str, str, str, str]:
    """Split a URL into its lower-cased host as written, canonical host, path and query.

    A URL that does not parse (an unclosed IPv6 bracket) is compared as written and a bad port
    is left out: the ``url-scheme`` rule reports both.
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return "", "", url.strip(), ""
    host = normal_host(parts.hostname or "")
    try:
        port = parts.port
    except ValueError:
        port = None
    if port and port not in (80, 443):
        host = f"{host}:{port}"
    return host, _bare_host(host), parts.path, parts.query


#: Joiners: UTS #46 keeps them, IDNA refuses them in most labels; a comparison drops them.
_JOINERS = str.maketrans("", "", "\u200c\u200d")


@lru_cache(maxsize=4096)
def normal_host(host: str) -> str:
    """Return a host's comparison form: UTS #46 mapped, in IDNA A-labels, without a final dot.

    ``ExAmple.COM``, ``ｅｘａｍｐｌｅ.com``, ``exa\u200bmple.com`` and ``ex\u00adample.com`` are
    all ``example.com``; ``café.com`` and ``xn--caf-dma.com`` are both ``xn--caf-dma.com``. A
    label IDNA refuses (an underscore, a symbol) is compared in its mapped form.
    """
    host = host.strip()
    if "%" in host:  # browsers decode a percent-encoded host before anything else
        host = unquote(host)
    if host.isascii():
        host = host.lower()
        if "xn--" not in host:  # nearly every host: nothing to map
            return host.rstrip(".")
    import idna  # only for the rare non-ASCII host: validate's start-up stays small

    try:
        mapped = idna.uts46_remap(host, std3_rules=False)
    except (idna.IDNAError, ValueError):  # a code point UTS #46 disallows
        mapped = unicodedata.normalize("NFKC", host).casefold()
    return ".".join(_label_key(label) for label in mapped.split(".")).rstrip(".")


def _label_key(label: str) -> str:
    """Return one mapped host label as an A-label (``xn--...``), or as ASCII when it is."""
    import idna

    if label.startswith("xn--"):
        decoded = punycode_label(label)
        if decoded is None:
            return label  # not valid punycode: compared as written
        try:
            label = idna.uts46_remap(decoded, std3_rules=False)
        except (idna.IDNAError, ValueError):
            label = unicodedata.normalize("NFKC", decoded).casefold()
    if label.isascii():
        return label
    label = label.translate(_JOINERS)
    try:
        return str(idna.alabel(label).decode("ascii"))
    except (idna.IDNAError, UnicodeError):
        return "xn--" + label.encode("punycode").decode("ascii")


def unicode_host(host: str) -> str:
    """Return a host as people read it: mapped like ``normal_host``, punycode labels decoded."""
    labels = normal_host(host).split(".")
    return ".".join(punycode_label(label) or label for label in labels)


def punycode_label(label: str) -> str | None:
    """Return the Unicode text of an ``xn--`` label, None when it is not one (or not valid)."""
    if not label.startswith("xn--"):
        return None
    try:
        decoded = label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return None
    return None if decoded.isascii() else decoded  # "xn--abc-" hides plain "abc": not IDNA


def url_host(url: str) -> str:
    """Return the comparison form of a URL's host (``normal_host``), "" when it has none."""
    try:
        return normal_host(urlsplit(url.strip()).hostname or "")
    except ValueError:
        return ""


def _bare_host(host: str) -> str:
    """Drop a leading ``www.`` and map mirror hosts to their canonical name."""
    if host.startswith("www."):
        host = host[4:]
    return HOST_ALIASES.get(host, host)


@cache
def analyse(url: str) -> Analysis:
    """Split and classify a URL once: its comparison form, arXiv id, DOI and repository.

    Cached, because several rules ask about the same URLs; ``validate`` empties the cache when
    it finishes (``analyse.cache_clear()``), so the cache lives as long as one run.
    """
    written_host, host, path, query = _split(url)
    if host in _ARXIV_HOSTS:
        match = _ARXIV_PATH.match(_DOUBLE_SLASH.sub("/", path))
        if match:
            aid = match.group("id")
            return Analysis(f"arxiv.org/abs/{aid}", aid, None, None)
    elif host == "doi.org" or host == "dl.acm.org":
        doi = _doi_from_path(host, path)
        if doi is not None:
            return Analysis(f"doi.org/{doi}", None, doi, None)
    elif host == "github.com":
        repo = _repo_from_path(path)
        if repo is not None:
            return Analysis(f"github.com/{repo}", None, None, repo)
    return Analysis(_normal_form(written_host, host, path, query), None, None, None)


def arxiv_id(url: str) -> str | None:
    """Return the version-less arXiv id of an arXiv abs/pdf URL (any form), else None."""
    return analyse(url).arxiv


def normalize_arxiv(value: str) -> str | None:
    """Return the version-less arXiv id of ``1802.09941v2`` or ``arXiv:1802.09941``, else None."""
    match = _ARXIV_ID.match(value.strip())
    return match.group(1) if match else None


def doi_from_url(url: str) -> str | None:
    """Return the lower-cased DOI of a doi.org or ACM Digital Library DOI URL, else None."""
    return analyse(url).doi


def _doi_from_path(host: str, path: str) -> str | None:
    """Return the DOI in the path of a doi.org or dl.acm.org URL, else None."""
    if host == "doi.org":
        return normalize_doi(unquote(path.lstrip("/")))
    match = _ACM_DOI_PATH.match(unquote(path))
    return normalize_doi(match.group(1)) if match else None


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
    return analyse(url).github


def repo_as_written(url: str) -> str | None:
    """Return ``owner/name`` of a repository's home URL as written (case kept, no transfer)."""
    return _repo_segments(_split(url)[2]) if github_repo(url) is not None else None


def _repo_from_path(path: str) -> str | None:
    """Return the canonical repository of a github.com path that is a repository's home."""
    repo = _repo_segments(path)
    return canonical_github(repo) if repo is not None else None


def _repo_segments(path: str) -> str | None:
    """Return ``owner/name`` of a github.com path that is a repository's home, else None."""
    segments = [s for s in path.split("/") if s]
    is_root = len(segments) == 2 or (len(segments) == 4 and segments[2] == "tree")
    if not is_root or segments[0].lower() in _GITHUB_RESERVED:
        return None
    return f"{segments[0]}/{segments[1].removesuffix('.git')}"


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
    return analyse(url).normal


def _normal_form(written_host: str, host: str, path: str, query: str) -> str:
    """Return the comparison form of a URL that carries no arXiv id, DOI or repository."""
    path = _DOUBLE_SLASH.sub("/", path)
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
    if written_host == "youtu.be":
        pairs, path = [("v", path.strip("/"))], "/watch"
    elif host == "youtube.com" and path.startswith("/watch"):
        pairs = [(k, v) for k, v in pairs if k == "v"]
    if host == "arxiv.org" or host.endswith(".arxiv.org"):
        pairs = []
    path = path.rstrip("/") if path not in ("", "/") else ""
    return urlunsplit(("", host, path, urlencode(sorted(pairs)), "")).lstrip("/")


def identity_keys(data: Mapping[str, Any]) -> set[tuple[str, str]]:
    """Return the canonical identity keys of an entry mapping (its url and identifiers)."""
    keys: set[tuple[str, str]] = set()
    url = data.get("url")
    if isinstance(url, str) and url.strip():
        found = analyse(url)
        keys.add(("url", found.normal))
        for kind, value in (("arxiv", found.arxiv), ("doi", found.doi), ("github", found.github)):
            if value is not None:
                keys.add((kind, value))
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
