"""The one HTTP session factory: a polite User-Agent, a sized pool and no hidden retries.

Retries and backoff are done by the callers (the link checker, the enrichment clients), where
they can honour Retry-After and count every request; urllib3's automatic retries would hide
both.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import requests
import urllib3
from requests.adapters import HTTPAdapter

from ddl_catalog import __version__

#: Where the catalog lives; servers that log our User-Agent can find who we are.
PROJECT_URL = "https://github.com/ddl-catalog/ddl-catalog"
USER_AGENT = f"ddl-catalog/{__version__} (+{PROJECT_URL})"


#: Proxy variables: when one is set, the session trusts the environment (and its no_proxy).
_PROXY_SETTINGS = ("http_proxy", "https_proxy", "all_proxy")


def _env(name: str) -> str | None:
    """Return an environment variable in lower or upper case, or None when unset or empty."""
    return os.environ.get(name) or os.environ.get(name.upper()) or None


def make_session(pool_size: int = 10, *, user_agent: str = USER_AGENT) -> requests.Session:
    """Return a session whose pool holds ``pool_size`` connections per host, without retries.

    The environment is read once here, not on every request: requests looks proxies and the CA
    bundle up per request when ``trust_env`` is on, which costs nearly half the CPU time of a
    HEAD request. So a CA bundle variable becomes the session's ``verify``, and ``trust_env``
    stays on only when a proxy variable is set (no_proxy needs requests' per-URL logic). Off, it
    also keeps ~/.netrc credentials from the arbitrary hosts a link checker visits.
    """
    session = requests.Session()
    session.trust_env = any(_env(name) for name in _PROXY_SETTINGS)
    # requests' own order: its variable, then curl's.
    bundle = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE")
    if bundle:
        session.verify = bundle
    adapter = HTTPAdapter(pool_connections=pool_size, pool_maxsize=pool_size, max_retries=0)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    session.headers["User-Agent"] = user_agent
    return session


class BodyTooLarge(requests.RequestException):
    """A response body was larger than the caller is willing to hold."""


def read_body(response: requests.Response, *, max_seconds: float, max_bytes: int) -> bytes:
    """Read a streamed body within a total time budget, so a slow drip cannot stall a worker.

    The read timeout of requests bounds each socket read, not the whole body; this bounds both.
    Raises ``requests.ReadTimeout`` past the budget and ``BodyTooLarge`` past ``max_bytes``.
    """
    deadline = time.monotonic() + max_seconds
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in _chunks(response):
            size += len(chunk)
            if size > max_bytes:
                raise BodyTooLarge(f"body larger than {max_bytes} bytes")
            chunks.append(chunk)
            if time.monotonic() > deadline:
                raise requests.ReadTimeout(f"body not read within {max_seconds:g} s")
    finally:
        response.close()
    return b"".join(chunks)


def _chunks(response: requests.Response) -> Iterator[bytes]:
    """Yield the body as it arrives (``read1``), not in fixed blocks that a drip never fills."""
    raw = response.raw
    if not hasattr(raw, "read1"):  # pragma: no cover - urllib3 1.x
        yield from response.iter_content(chunk_size=16384)
        return
    try:
        while chunk := raw.read1(16384, decode_content=True):
            yield chunk
    except urllib3.exceptions.ReadTimeoutError as exc:
        raise requests.ReadTimeout(str(exc)) from exc
    except urllib3.exceptions.DecodeError as exc:
        raise requests.exceptions.ContentDecodingError(str(exc)) from exc
    except (urllib3.exceptions.ProtocolError, OSError) as exc:
        raise requests.exceptions.ChunkedEncodingError(str(exc)) from exc
