"""The link checker: fast, polite and right about what is really broken.

Every request goes through its origin's gate (at most ``per_origin`` requests in flight, and
optionally a delay between starts), including redirect hops to other origins. Worker threads
pull their URLs from a board (``linkboard``) that never hands out one whose origin is full while
another origin has work. HEAD comes
first; a streamed GET (body never read) replaces it when HEAD is refused. Redirects are followed
by hand to record each hop, detect loops and tell permanent moves (301, 308) from temporary
ones. 429 and 503 are retried after their Retry-After (seconds or HTTP date), with exponential
backoff when there is none, without holding the origin meanwhile.

Each URL is checked on its own: one total deadline bounds its whole redirect chain (the time
spent waiting for its origin's turn left out), and it has its own cookie jar, which keeps the
cookies its redirects set for the next hop and is dropped with it.
"""

from __future__ import annotations

import http.client
import itertools
import math
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from queue import SimpleQueue
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import requests
from requests.cookies import RequestsCookieJar, extract_cookies_to_jar

from ddl_catalog.net import hosts
from ddl_catalog.net.cache import LinkCache
from ddl_catalog.net.enrich.base import retry_after
from ddl_catalog.net.linkboard import Board, Task
from ddl_catalog.net.session import (
    budget,
    causes,
    make_session,
    outside_deadline,
    read_body,
    total_deadline,
    transport_problem,
)

OUTCOMES: tuple[str, ...] = ("ok", "moved", "broken", "error", "skipped")
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
PERMANENT_STATUSES = frozenset({301, 308})
#: HEAD answers that mean "ask me with GET": refused, forbidden to robots, not implemented.
HEAD_REFUSED = frozenset({400, 403, 405, 501})
RETRY_STATUSES = frozenset({429, 503})
#: Statuses that mean the resource is gone (others in 4xx and 5xx are errors to look at).
GONE_STATUSES = frozenset({404, 410})
DNS_NOT_FOUND = "DNS: host not found"
#: The longest --delay or --timeout (a day): sockets and sleeps overflow long before infinity.
MAX_SECONDS = 86400.0
#: What a "host not found" means when no host at all answered: the machine is offline.
DNS_UNSURE = "DNS: host not found, but no host answered in this run (offline?)"


class LinkCheckError(Exception):
    """The link checker was asked something it cannot do (bad option, bad pattern)."""


@dataclass(frozen=True, slots=True)
class Options:
    """How hard and how politely to check."""

    concurrency: int = 64
    per_origin: int = 8
    delay: float = 0.0
    timeout: float = 10.0
    max_redirects: int = 10
    retries: int = 3
    backoff: float = 1.0
    max_retry_wait: float = 60.0
    exclude: tuple[str, ...] = ()
    oembed: str | None = None
    resolvers: frozenset[str] = hosts.RESOLVER_HOSTS

    def __post_init__(self) -> None:
        if self.concurrency < 1 or self.per_origin < 1:
            raise LinkCheckError("--concurrency and --per-origin must be at least 1")
        finite = math.isfinite(self.delay) and math.isfinite(self.timeout)
        if not finite or not 0 <= self.delay <= MAX_SECONDS or not 0 < self.timeout <= MAX_SECONDS:
            raise LinkCheckError(
                f"--delay must be from 0 to {MAX_SECONDS:g} s and --timeout above 0, at most "
                f"{MAX_SECONDS:g} s"
            )
        for pattern in self.exclude:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise LinkCheckError(f"bad --exclude pattern {pattern!r}: {exc}") from exc


@dataclass(frozen=True, slots=True)
class Result:
    """What checking one URL found."""

    url: str
    outcome: str
    status: int | None = None
    final_url: str | None = None
    new_url: str | None = None
    elapsed: float = 0.0
    error: str | None = None
    checked_at: float = 0.0
    cached: bool = False

    def record(self) -> dict[str, Any]:
        """Return the JSON record of the result (the cache and ``--format json`` use it)."""
        return {
            "url": self.url,
            "status": self.status,
            "outcome": self.outcome,
            "final_url": self.final_url,
            "new_url": self.new_url,
            "elapsed": round(self.elapsed, 3),
            "error": self.error,
            "checked_at": round(self.checked_at, 3),
            "cached": self.cached,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Result:
        """Rebuild a result from its cached record."""
        return cls(
            url=str(record["url"]),
            outcome=str(record["outcome"]),
            status=record.get("status"),
            final_url=record.get("final_url"),
            new_url=record.get("new_url"),
            elapsed=float(record.get("elapsed") or 0.0),
            error=record.get("error"),
            checked_at=float(record.get("checked_at") or 0.0),
            cached=True,
        )


@dataclass(frozen=True, slots=True)
class _Retry:
    """An attempt that the server asked to repeat later."""

    wait: float
    status: int
    elapsed: float


@dataclass
class Stats:
    """Counters of a run, for the summary and the benchmark."""

    requests: int = 0
    peak_in_flight: dict[str, int] = field(default_factory=dict)


class _OriginGate:
    """At most ``limit`` requests in flight to one origin, and ``delay`` between their starts."""

    def __init__(self, limit: int, delay: float) -> None:
        self._slots = threading.BoundedSemaphore(limit)
        self._lock = threading.Lock()
        self._delay = delay
        self._next_start = 0.0
        self.in_flight = 0
        self.peak = 0

    def __enter__(self) -> None:
        with outside_deadline():  # waiting for a turn is not the server's time
            self._slots.acquire()
            with self._lock:
                now = time.monotonic()
                start = max(now, self._next_start)
                self._next_start = start + self._delay
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
            if start > now:
                time.sleep(start - now)

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.in_flight -= 1
        self._slots.release()


class Checker:
    """Checks URLs with one session, a thread pool, origin gates and an optional cache."""

    def __init__(
        self,
        options: Options | None = None,
        session: requests.Session | None = None,
    ) -> None:
        self.options = options or Options()
        self.session = session or make_session(
            max(self.options.per_origin, min(self.options.concurrency, 64))
        )
        self.stats = Stats()
        self._gates: dict[str, _OriginGate] = {}
        self._gates_lock = threading.Lock()
        self._count_lock = threading.Lock()
        self._exclude = [re.compile(p) for p in self.options.exclude]
        self._reached = False  # whether any server answered: DNS failures mean gone only then

    # -- one URL ---------------------------------------------------------------------------

    def check(self, url: str) -> Result:
        """Check one URL to the end, sleeping through the retries the server asks for."""
        elapsed = 0.0
        for attempt in itertools.count():
            outcome = self._attempt(url, attempt)
            if isinstance(outcome, Result):
                return replace(outcome, elapsed=elapsed + outcome.elapsed)
            elapsed += outcome.elapsed
            time.sleep(outcome.wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def skip_reason(self, url: str) -> str | None:
        """Return why ``url`` is not checked (scheme or --exclude), or None."""
        scheme = urlsplit(url).scheme.lower()
        if scheme not in ("http", "https"):
            return f"not checked: {scheme or 'no'} scheme"
        for pattern in self._exclude:
            if pattern.search(url):
                return f"excluded by {pattern.pattern!r}"
        return None

    def _attempt(self, url: str, attempt: int) -> Result | _Retry:
        """Check ``url`` once; a 429 or 503 gives a _Retry unless retries are used up."""
        start = time.monotonic()
        timeout = self.options.timeout
        try:
            with total_deadline(budget((timeout, timeout))):  # the chain, as for one request
                found = self._follow(url)
        except requests.RequestException as exc:
            outcome, message = classify_exception(exc)
            found = Result(url, outcome, error=message)
        elapsed = time.monotonic() - start
        if isinstance(found, _Retry):
            wait = found.wait if found.wait >= 0 else self.options.backoff * 2**attempt
            if attempt >= self.options.retries:
                found = Result(
                    url,
                    "error",
                    found.status,
                    error=f"HTTP {found.status} after {attempt} retries",
                )
            elif wait > self.options.max_retry_wait:
                found = Result(
                    url,
                    "error",
                    found.status,
                    error=f"HTTP {found.status}, Retry-After {wait:.0f} s is too long",
                )
            else:
                return _Retry(wait, found.status, elapsed)
        return replace(found, elapsed=elapsed, checked_at=time.time())

    def _follow(self, url: str) -> Result | _Retry:
        """Request ``url`` and its redirects; return the result or a retry request."""
        plan = hosts.plan(url, oembed=self.options.oembed, resolvers=self.options.resolvers)
        jar = RequestsCookieJar()  # this URL's cookies, for its next hops only
        if plan.mode == "oembed":
            return self._oembed(url, plan.check_url, jar)
        current, seen = url, {url}
        new_url: str | None = None
        permanent_so_far = True
        for _ in range(self.options.max_redirects + 1):
            status, location = self._request(current, jar)
            if status in RETRY_STATUSES:
                return _Retry(location_wait(location), status, 0.0)
            if status not in REDIRECT_STATUSES or location is None:
                return self._final(url, status, current, new_url)
            try:
                target = urljoin(current, location)
            except ValueError:  # an unclosed "[": "https://[::1/x"
                return Result(url, "error", status, error=f"unusable redirect: {location!r}")
            if plan.mode == "resolver" and current == url:
                return Result(url, "ok", status, final_url=target)
            if status in PERMANENT_STATUSES and permanent_so_far:
                new_url = target
            else:
                permanent_so_far = False
            if target in seen:
                return Result(url, "broken", status, final_url=target, error="redirect loop")
            if urlsplit(target).scheme.lower() not in ("http", "https"):
                return Result(url, "error", status, target, error="redirect to a non-HTTP URL")
            seen.add(target)
            current = target
        return Result(
            url,
            "broken",
            status,
            final_url=current,
            error=f"more than {self.options.max_redirects} redirects",
        )

    def _final(self, url: str, status: int, final: str, new_url: str | None) -> Result:
        """Classify the last answer of a redirect chain."""
        final_url = final if final != url else None
        if status < 300:
            if new_url is not None and new_url != url:
                return Result(url, "moved", status, final_url, new_url=new_url)
            return Result(url, "ok", status, final_url)
        if status in GONE_STATUSES:
            return Result(url, "broken", status, final_url, error=f"HTTP {status}")
        if status in REDIRECT_STATUSES:
            return Result(url, "error", status, final_url, error="redirect without Location")
        return Result(url, "error", status, final_url, error=f"HTTP {status}")

    def _oembed(self, url: str, endpoint: str, jar: RequestsCookieJar) -> Result | _Retry:
        """Ask YouTube's oEmbed endpoint whether the video still exists."""
        timeout = self.options.timeout
        with self._gate(endpoint):
            self._count()
            response = self._send("GET", endpoint, jar, stream=True)
            self._reached = True
            status = response.status_code
            wait = location_wait(response.headers.get("Retry-After"))
            read_body(response, max_seconds=2 * timeout, max_bytes=1_000_000)
        if status in RETRY_STATUSES:
            return _Retry(wait, status, 0.0)
        if status in (200, 401):  # 401: the video exists but may not be embedded
            return Result(url, "ok", status)
        if status in (400, 403, 404):
            return Result(url, "broken", status, error="video unavailable (oEmbed)")
        return Result(url, "error", status, error=f"oEmbed HTTP {status}")

    def _request(self, url: str, jar: RequestsCookieJar) -> tuple[int, str | None]:
        """HEAD ``url`` (then GET, body unread, if HEAD is refused); return status and Location.

        For 429 and 503 the second value is the Retry-After header instead.
        """
        with self._gate(url):
            self._count()
            response = self._send("HEAD", url, jar)
            response.close()
            self._reached = True
            if response.status_code in HEAD_REFUSED:
                self._count()
                response = self._send("GET", url, jar, stream=True)
                response.close()
        if response.status_code in RETRY_STATUSES:
            return response.status_code, response.headers.get("Retry-After")
        return response.status_code, location(response.headers.get("Location"))

    def _send(
        self, method: str, url: str, jar: RequestsCookieJar, *, stream: bool = False
    ) -> requests.Response:
        """Send one request, redirects not followed, with the session's headers and the
        cookies its URL's chain has set so far (``jar``, which keeps those it sets).

        The request is prepared here and given to ``Session.send``: ``Session.request`` would
        first merge every session setting (params, auth, hooks, proxies...) into it, which
        costs a quarter of the CPU time of a HEAD (requests 2.34), and a link check spends
        most of its time there. The session still supplies verify, cert and proxies.
        """
        prepared = requests.PreparedRequest()
        prepared.prepare(method=method, url=url, headers=self.session.headers, cookies=jar)
        timeout = (self.options.timeout, self.options.timeout)
        response = self.session.send(
            prepared, timeout=timeout, allow_redirects=False, stream=stream
        )
        if "Set-Cookie" in response.headers:
            extract_cookies_to_jar(jar, prepared, response.raw)  # type: ignore[no-untyped-call]
        return response

    def _gate(self, url: str) -> _OriginGate:
        """Return the gate of ``url``'s origin, creating it on first use."""
        key = origin(url)
        with self._gates_lock:
            gate = self._gates.get(key)
            if gate is None:
                gate = self._gates[key] = _OriginGate(self.options.per_origin, self.options.delay)
            return gate

    def _count(self) -> None:
        """Count one request sent."""
        with self._count_lock:
            self.stats.requests += 1

    # -- many URLs -------------------------------------------------------------------------

    def check_all(
        self,
        urls: Iterable[str],
        *,
        cache: LinkCache | None = None,
        on_result: Callable[[Result], None] | None = None,
        save_every: float = 2.0,
    ) -> list[Result]:
        """Check every URL once (cached fresh results are reused); return results by URL.

        URLs are started in the given order, except that URLs the cache remembers as slow
        start first, so that they do not make the tail of the run.
        """
        results: dict[str, Result] = {}
        todo: list[str] = []
        for url in dict.fromkeys(urls):
            reason = self.skip_reason(url)
            record = cache.fresh(url) if cache is not None and reason is None else None
            if reason is not None:
                results[url] = Result(url, "skipped", error=reason)
            elif record is not None:
                results[url] = Result.from_record(record)
            else:
                todo.append(url)
                continue
            if on_result is not None:
                on_result(results[url])
        if cache is not None:
            todo.sort(key=lambda u: -float(cache.records.get(u, {}).get("elapsed") or 0.0))
        last_save = time.monotonic()
        for result in self._schedule(todo):
            results[result.url] = result
            if cache is not None:
                cache.put(result.url, _unsure_dns(result).record())
                if time.monotonic() - last_save >= save_every:
                    cache.save()
                    last_save = time.monotonic()
            if on_result is not None:
                on_result(result)
        for url, result in results.items():
            if result.error == DNS_NOT_FOUND:
                results[url] = result if self._reached else _unsure_dns(result)
                if cache is not None:
                    cache.put(url, results[url].record())
        if cache is not None:
            cache.save()
        self.stats.peak_in_flight = {k: g.peak for k, g in sorted(self._gates.items())}
        return [results[url] for url in sorted(results)]

    def _schedule(self, urls: Sequence[str]) -> Iterator[Result]:
        """Check ``urls`` on ``concurrency`` worker threads that pull their work from a board."""
        board = Board((Task(url, origin(url)) for url in urls), self.options.per_origin)
        finished: SimpleQueue[Result | BaseException] = SimpleQueue()

        def work() -> None:
            try:
                while (task := board.take()) is not None:
                    found = self._attempt(task.url, task.attempt)
                    if isinstance(found, _Retry):
                        spent = task.spent + found.elapsed
                        retry = replace(task, attempt=task.attempt + 1, spent=spent)
                        board.finish(task, retry, found.wait)
                    else:
                        board.finish(task)
                        finished.put(replace(found, elapsed=task.spent + found.elapsed))
            except BaseException as exc:  # a bug: stop the run and raise it in the caller
                board.close()
                finished.put(exc)

        workers = [
            threading.Thread(target=work, name=f"linkcheck-{i}", daemon=True)
            for i in range(min(self.options.concurrency, len(urls)))
        ]
        for worker in workers:
            worker.start()
        try:
            for _ in urls:
                item = finished.get()
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            board.close()  # workers stop after their current request when the run is cut short


def _unsure_dns(result: Result) -> Result:
    """Return a "host not found" result as an error: safe until some host is known to answer."""
    if result.error != DNS_NOT_FOUND:
        return result
    return replace(result, outcome="error", error=DNS_UNSURE)


def origin(url: str) -> str:
    """Return ``scheme://host[:port]``, the unit of politeness."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{hosts.origin_host(url)}"


def location(value: str | None) -> str | None:
    """Return a Location header as the URL a browser would follow, or None without one.

    Header values arrive decoded as Latin-1; a server that writes raw UTF-8 (or any byte past
    ASCII) there means those bytes. They are percent-encoded, as browsers do, so the URL holds
    printable ASCII only, except a host written in Unicode (valid UTF-8), which stays readable.
    """
    if value is None or (value.isascii() and value.isprintable()):
        return value
    raw = value.encode("latin-1", "replace")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:  # not UTF-8: the bytes themselves, percent-encoded
        return quote(raw, safe=_PRINTABLE_ASCII)
    try:
        parts = urlsplit(text)
    except ValueError:
        return _percent(text)
    host = parts.netloc
    if not (host.isprintable() and " " not in host):
        host = _percent(host)
    return parts._replace(
        netloc=host,
        path=_percent(parts.path),
        query=_percent(parts.query),
        fragment=_percent(parts.fragment),
    ).geturl()


#: What a URL may hold as it is: printable ASCII but the space.
_PRINTABLE_ASCII = "".join(chr(c) for c in range(0x21, 0x7F))


def _percent(text: str) -> str:
    """Percent-encode (as UTF-8) what is not printable ASCII; keep everything else as it is."""
    return quote(text, safe=_PRINTABLE_ASCII)


def location_wait(value: str | None) -> float:
    """Return the seconds a Retry-After value asks for, or -1 when absent (use backoff)."""
    seconds = retry_after(value)
    return -1.0 if seconds is None else seconds


def classify_exception(exc: requests.RequestException) -> tuple[str, str]:
    """Return (outcome, reason) for a transport failure: DNS, refused, reset, TLS, timeout."""
    named = transport_problem(exc)
    if named:
        return "error", named
    chain = list(causes(exc))
    if isinstance(exc, requests.exceptions.SSLError):
        return "error", f"TLS error: {_last_words(chain)}"
    if isinstance(exc, requests.ConnectTimeout):
        return "error", "connect timeout"
    if isinstance(exc, requests.ReadTimeout):
        return "error", "read timeout"
    if isinstance(exc, requests.exceptions.InvalidURL | requests.exceptions.MissingSchema):
        return "broken", f"invalid URL: {exc}"
    for cause in chain:
        if isinstance(cause, socket.gaierror):
            if cause.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", -5)):
                return "broken", DNS_NOT_FOUND
            return "error", f"DNS lookup failed: {cause.strerror or cause}"
        if type(cause).__name__ == "NameResolutionError":
            continue  # the gaierror it wraps is more precise
        if isinstance(cause, ConnectionRefusedError):
            return "error", "connection refused"
        if isinstance(cause, ConnectionResetError):
            return "error", "connection reset"
    if any(isinstance(c, http.client.HTTPException) for c in chain):
        return "error", "connection broken mid-response"
    if any(type(c).__name__ == "NameResolutionError" for c in chain):
        return "error", "DNS lookup failed"
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return "error", "connection broken mid-response"
    if isinstance(exc, requests.ConnectionError):
        return "error", f"connection failed: {_last_words(chain)}"
    return "error", f"{type(exc).__name__}: {exc}"


def _last_words(causes: list[BaseException]) -> str:
    """Return the innermost cause's message, shortened."""
    text = str(causes[-1]) if causes else ""
    return text[:160] or "unknown"
