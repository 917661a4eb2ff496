"""Hosts whose answers mislead a plain HTTP check, and how to ask them instead.

* YouTube answers 200 for removed videos; its oEmbed endpoint answers 404 for them.
* doi.org redirects to publishers that often refuse robots (403, 418, captchas); a redirect from
  the resolver already proves the DOI is registered, so it is not followed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlsplit

DEFAULT_OEMBED = "https://www.youtube.com/oembed"
OEMBED_ENV_VAR = "DDL_YOUTUBE_OEMBED"
#: Identifier resolvers: any redirect from them means the identifier resolves.
RESOLVER_HOSTS: frozenset[str] = frozenset({"doi.org", "dx.doi.org", "www.doi.org"})
_YOUTUBE_HOSTS = frozenset({"youtube.com", "www.youtube.com", "m.youtube.com"})


@dataclass(frozen=True, slots=True)
class Plan:
    """How to check one URL: which URL to request and how to read the answer."""

    check_url: str
    mode: str = "default"  # "default", "oembed" or "resolver"


def youtube_video(url: str) -> str | None:
    """Return the video id of a YouTube video URL (watch, youtu.be, embed, shorts, live)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    segments = [s for s in parts.path.split("/") if s]
    if host == "youtu.be" and segments:
        return segments[0]
    if host not in _YOUTUBE_HOSTS:
        return None
    if segments == ["watch"]:
        ids = parse_qs(parts.query).get("v")
        return ids[0] if ids else None
    if len(segments) == 2 and segments[0] in ("embed", "shorts", "live", "v"):
        return segments[1]
    return None


def plan(
    url: str,
    *,
    oembed: str | None = None,
    resolvers: frozenset[str] = RESOLVER_HOSTS,
) -> Plan:
    """Return how to check ``url``: through oEmbed, as a resolver, or plainly."""
    video = youtube_video(url)
    if video is not None:
        base = oembed or os.environ.get(OEMBED_ENV_VAR) or DEFAULT_OEMBED
        watch = quote(f"https://www.youtube.com/watch?v={video}", safe="")
        return Plan(f"{base}?format=json&url={watch}", "oembed")
    if origin_host(url) in resolvers:
        return Plan(url, "resolver")
    return Plan(url)


def origin_host(url: str) -> str:
    """Return ``host`` or ``host:port`` (non-default port) of a URL, lower-cased.

    An IPv6 host keeps its brackets (``[::1]:8080``), so that the port stays apart.
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port and port not in (80, 443) else host
