"""What the enrichment sources share: one error family, base URLs and a careful GET.

The GET honours Retry-After (429, 503 and GitHub's secondary limits) and GitHub's primary rate
limit headers: when ``X-RateLimit-Remaining`` is 0 it waits for the reset if that is near, else
raises ``RateLimitExhausted`` so the run stops with a clear message instead of hammering.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from email.utils import parsedate_to_datetime
from typing import Any

import requests

from ddl_catalog.net.session import budget, read_body, total_deadline, transport_problem

#: (connect, read) timeouts of one API request, in seconds.
DEFAULT_TIMEOUT: tuple[float, float] = (5.0, 20.0)
#: Longest an API body may take to arrive, and its largest accepted size.
MAX_BODY_SECONDS = 30.0
MAX_BODY_BYTES = 5_000_000
#: Longest wait for a rate limit reset or a Retry-After before giving up.
MAX_WAIT = 60.0
#: How many times a request is retried after a 429 or 503.
RETRIES = 2

Sleep = Callable[[float], None]


class EnrichError(Exception):
    """A source could not give a record: network error, HTTP error or malformed payload."""


class NotFound(EnrichError):
    """The source does not know this identifier (HTTP 404 or an empty result)."""


class RateLimitExhausted(EnrichError):
    """The API's rate limit is used up and resets too late to wait for it."""

    def __init__(self, message: str, reset_at: float | None) -> None:
        super().__init__(message)
        self.reset_at = reset_at


def api_base(override: str | None, env_var: str, default: str) -> str:
    """Return the API base URL: the explicit override, else the environment, else the default."""
    return (override or os.environ.get(env_var) or default).rstrip("/")


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Return the seconds a Retry-After header asks for (delta-seconds or HTTP-date), else None."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():  # not "²", which isdigit() accepts and float refuses
        return float(value)  # inf for absurdly many digits: longer than any caller waits
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def get(
    session: requests.Session,
    url: str,
    *,
    params: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    timeout: tuple[float, float] = DEFAULT_TIMEOUT,
    sleep: Sleep = time.sleep,
    max_wait: float = MAX_WAIT,
) -> bytes:
    """GET ``url`` and return its body, waiting politely on rate limits; raises EnrichError.

    Each attempt, its redirects and its body together get one total deadline: the connect
    timeout plus twice the read timeout, as for a single request.
    """
    for attempt in range(RETRIES + 1):
        with total_deadline(budget(timeout)):
            response = _send(session, url, params, headers, timeout)
            wait = _wait_for(response, url, max_wait)
            if wait is None:
                return _body(response, url, timeout)
        response.close()
        if attempt == RETRIES:
            raise EnrichError(f"{url}: still HTTP {response.status_code} after {RETRIES} retries")
        sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def _body(response: requests.Response, url: str, timeout: tuple[float, float]) -> bytes:
    """Return the body of a final answer; raise NotFound or EnrichError for an HTTP error."""
    if response.status_code == 404:
        response.close()
        raise NotFound(f"{url}: not found (HTTP 404)")
    if response.status_code >= 400:
        response.close()
        raise EnrichError(f"{url}: HTTP {response.status_code} {response.reason}")
    try:
        seconds = min(MAX_BODY_SECONDS, 2 * timeout[1])
        return read_body(response, max_seconds=seconds, max_bytes=MAX_BODY_BYTES)
    except requests.RequestException as exc:
        raise EnrichError(f"{url}: {_describe(exc)}") from exc


def get_json(session: requests.Session, url: str, **kwargs: Any) -> Any:
    """GET ``url`` and decode its JSON body; malformed JSON raises EnrichError."""
    body = get(session, url, **kwargs)
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EnrichError(f"{url}: malformed JSON ({exc})") from exc


def _send(
    session: requests.Session,
    url: str,
    params: Mapping[str, str] | None,
    headers: Mapping[str, str] | None,
    timeout: tuple[float, float],
) -> requests.Response:
    """Send one streamed GET, turning every transport failure into EnrichError."""
    try:
        return session.get(url, params=params, headers=headers, timeout=timeout, stream=True)
    except requests.RequestException as exc:
        raise EnrichError(f"{url}: {_describe(exc)}") from exc


def _wait_for(response: requests.Response, url: str, max_wait: float) -> float | None:
    """Return how long to wait before retrying, None when the response is final."""
    status = response.status_code
    if status in (403, 429) and response.headers.get("X-RateLimit-Remaining") == "0":
        reset = _int_header(response, "X-RateLimit-Reset")
        wait = None if reset is None else max(0.0, reset - time.time()) + 1.0
        if wait is None or wait > max_wait:
            response.close()
            when = "" if reset is None else time.strftime(" at %H:%M:%S UTC", time.gmtime(reset))
            raise RateLimitExhausted(
                f"{url}: API rate limit exhausted; it resets{when or ' later'}. "
                "Set GITHUB_TOKEN for a higher limit, or run again after the reset.",
                reset_at=None if reset is None else float(reset),
            )
        return wait
    if status in (429, 503) or (status == 403 and "Retry-After" in response.headers):
        wait = retry_after(response.headers.get("Retry-After"))
        wait = 1.0 if wait is None else wait
        if wait > max_wait:
            response.close()
            raise EnrichError(f"{url}: HTTP {status}, asked to retry after {wait:.0f} s")
        return wait
    return None


def _int_header(response: requests.Response, name: str) -> int | None:
    """Return an integer header, or None when absent, malformed or too large to be a time.

    Only ASCII digits count ("²" passes isdigit()), and at most 12 of them: a Unix time of
    more overflowed time.gmtime and the float arithmetic of the wait.
    """
    value = response.headers.get(name, "").strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 12 else None


def _describe(exc: requests.RequestException) -> str:
    """Return a short human reason for a transport failure."""
    named = transport_problem(exc)
    if named:
        return named
    if isinstance(exc, requests.Timeout):
        return f"timed out ({exc.__class__.__name__})"
    if isinstance(exc, requests.exceptions.SSLError):
        return "TLS error"
    if isinstance(exc, requests.ConnectionError):
        return "connection failed"
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return "connection broken mid-response"
    return str(exc) or exc.__class__.__name__
