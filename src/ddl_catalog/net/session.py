"""The one HTTP session factory: a polite User-Agent, a sized pool and no hidden retries.

Retries and backoff are done by the callers (the link checker, the enrichment clients), where
they can honour Retry-After and count every request; urllib3's automatic retries would hide
both. The one retry made here is for a kept-alive connection that the server closed while it
sat in the pool: a request that fails before any answer on a reused connection is sent once
more on a fresh one, so a stale connection never reads as "connection reset".

The session keeps no cookies: what one URL sets is never sent with the next (a page setting
large cookies must not make a healthy page of the same host fail with 431). Within one
redirect chain cookies still count (requests keeps them per chain; the link checker too).

Every request also has a total deadline. requests' timeouts bound the connect and each socket
read, not the whole exchange: a server that sends its status line and headers one byte a second
never trips a 10-second read timeout and can hold a worker for as long as it likes. The
session's adapter arms one shared watchdog thread for each request; past the deadline the
watchdog shuts the request's socket down, the blocked read returns, and the caller gets a
``DeadlineExceeded`` (a ``requests.Timeout``). Bodies are read with ``read_body``, under the
same watchdog. ``total_deadline`` bounds everything a thread sends for one URL (every redirect
hop, its body) by one deadline; ``outside_deadline`` leaves out the time spent waiting for a
turn.
"""

from __future__ import annotations

import contextlib
import heapq
import http.client
import http.cookiejar
import itertools
import os
import re
import socket
import ssl
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import requests
import urllib3
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from ddl_catalog import __version__

#: Where the catalog lives; servers that log our User-Agent can find who we are.
PROJECT_URL = "https://github.com/ddl-catalog/ddl-catalog"
USER_AGENT = f"ddl-catalog/{__version__} (+{PROJECT_URL})"


#: Proxy variables: when one is set, the session trusts the environment (and its no_proxy).
_PROXY_SETTINGS = ("http_proxy", "https_proxy", "all_proxy")


def _env(name: str) -> str | None:
    """Return an environment variable in lower or upper case, or None when unset or empty."""
    return os.environ.get(name) or os.environ.get(name.upper()) or None


class DeadlineExceeded(requests.Timeout):
    """No complete answer arrived within a request's (or a URL's) total deadline."""


class _Request:
    """One request under watch: its deadline and the connections it has used so far."""

    __slots__ = ("connections", "deadline", "done", "fired", "fresh", "opened")

    def __init__(self, deadline: float, *, fresh: bool = False) -> None:
        self.deadline = deadline
        self.connections: list[HTTPConnection] = []
        self.done = False
        self.fired = False
        #: Whether a connection was opened for it (not taken, kept alive, from the pool).
        self.opened = False
        #: Whether it must not use a kept-alive connection (the retry after a stale one).
        self.fresh = fresh


class _Watchdog:
    """One daemon thread that shuts down the sockets of requests past their deadline.

    Arming costs a heap push and a notify, not a thread per request: a link check sends
    thousands of requests, and a timer thread each would cost more than the requests' parsing.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, _Request]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def arm(self, watched: _Request) -> None:
        """Watch a request until it is marked done."""
        with self._cond:
            heapq.heappush(self._heap, (watched.deadline, next(self._order), watched))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="http-deadline", daemon=True)
                self._thread.start()
            if self._heap[0][2] is watched:
                self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._heap or self._heap[0][2].done:
                    if self._heap:
                        heapq.heappop(self._heap)  # finished in time: forget it
                    else:
                        self._cond.wait()
                deadline, _order, watched = self._heap[0]
                wait = deadline - time.monotonic()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                heapq.heappop(self._heap)
                watched.fired = True
                connections = list(watched.connections)
            for connection in connections:
                _shut(connection)


def _shut(connection: HTTPConnection) -> None:
    """Shut a connection's socket down so that a read blocked on it returns at once."""
    sock = getattr(connection, "sock", None)
    if sock is None:
        return
    with contextlib.suppress(OSError):  # already closed
        sock.shutdown(socket.SHUT_RDWR)


_WATCHDOG = _Watchdog()
_current = threading.local()


def _track(connection: HTTPConnection) -> None:
    """Register a connection with the request this thread is sending, if one is watched."""
    watched: _Request | None = getattr(_current, "request", None)
    if watched is not None and not watched.done:
        watched.connections.append(connection)
        if watched.fired:
            _shut(connection)


class _HTTPConnection(HTTPConnection):
    """A connection that registers with the watched request before it connects or reads."""

    def connect(self) -> None:
        _track(self)
        watched: _Request | None = getattr(_current, "request", None)
        if watched is not None:
            watched.opened = True
        super().connect()

    def getresponse(self, *args: Any, **kwargs: Any) -> Any:
        _track(self)
        return super().getresponse(*args, **kwargs)


class _HTTPSConnection(_HTTPConnection, HTTPSConnection):
    """The same for TLS: the MRO puts HTTPSConnection's connect behind _HTTPConnection's."""


class _FreshOnRetry(HTTPConnectionPool):
    """A pool that hands the retry after a stale connection a closed one, which reconnects."""

    def _get_conn(self, timeout: float | None = None) -> Any:
        conn = super()._get_conn(timeout)
        watched: _Request | None = getattr(_current, "request", None)
        if watched is not None and watched.fresh and conn is not None and not conn.is_closed:
            conn.close()
        return conn


class _HTTPPool(_FreshOnRetry):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(_FreshOnRetry, HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


_POOLS: Mapping[str, type[HTTPConnectionPool]] = {"http": _HTTPPool, "https": _HTTPSPool}


class DeadlineAdapter(HTTPAdapter):
    """An HTTPAdapter whose requests must have their headers back within a total deadline.

    The deadline is ``deadline`` seconds when given, else the connect timeout plus twice the
    read timeout of the request (so a responsive server is never cut short).
    """

    def __init__(self, *args: Any, deadline: float | None = None, **kwargs: Any) -> None:
        self.deadline = deadline
        super().__init__(*args, **kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:  # noqa: D102
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _POOLS

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:  # noqa: D102
        manager = super().proxy_manager_for(proxy, **proxy_kwargs)
        manager.pool_classes_by_scheme = _POOLS
        return manager

    def send(
        self, request: requests.PreparedRequest, *args: Any, **kwargs: Any
    ) -> requests.Response:
        """Send ``request``, once more on a fresh connection if a kept-alive one was stale.

        Raises DeadlineExceeded when its headers miss the total deadline.
        """
        try:
            return self._send_once(request, args, kwargs, fresh=False)
        except _Stale:
            return self._send_once(request, args, kwargs, fresh=True)

    def _send_once(
        self,
        request: requests.PreparedRequest,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        fresh: bool,
    ) -> requests.Response:
        """Send ``request`` under its deadline (on a new connection when ``fresh``).

        Raises _Stale when a connection kept alive from an earlier request turned out stale.
        """
        now = time.monotonic()
        seconds = self.deadline or budget(kwargs.get("timeout"))
        until: float | None = getattr(_current, "until", None)
        if until is not None and until - now < seconds:
            seconds = until - now
            if seconds <= 0:
                raise DeadlineExceeded(_late(getattr(_current, "seconds", 0.0)), request=request)
        watched = _Request(now + seconds, fresh=fresh)
        _current.request = watched
        _WATCHDOG.arm(watched)
        message = f"no complete response headers within {seconds:g} s (total deadline)"
        try:
            response = super().send(request, *args, **kwargs)
        except requests.RequestException as exc:
            if watched.fired:
                raise DeadlineExceeded(message, request=request) from exc
            if not fresh and not watched.opened and _stale(request, exc):
                raise _Stale(str(exc)) from exc
            raise
        finally:
            watched.done = True
            _current.request = None
        if watched.fired:
            # The socket was shut mid-headers: http.client took the cut for their end.
            response.close()
            raise DeadlineExceeded(message, request=request)
        return response


class _Stale(Exception):
    """A request failed before any answer on a connection kept alive from an earlier one."""


#: Methods that can be sent twice without harm (RFC 9110, 9.2.2).
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"})


def _stale(request: requests.PreparedRequest, exc: requests.RequestException) -> bool:
    """Say whether a failure looks like a kept-alive connection the server had closed.

    The server closed it (no answer at all), reset it, or the send hit a closed pipe; and the
    request can be sent again (an idempotent method, a body that is not a stream).
    """
    if request.method not in _IDEMPOTENT or not isinstance(request.body, bytes | str | None):
        return False
    if not isinstance(exc, requests.ConnectionError) or isinstance(exc, requests.Timeout):
        return False
    return any(
        isinstance(cause, ConnectionResetError | BrokenPipeError | http.client.RemoteDisconnected)
        for cause in causes(exc)
    )


def _late(seconds: float) -> str:
    """Return the message of a URL whose total deadline passed."""
    return f"no complete answer within {seconds:g} s (total deadline)"


@contextlib.contextmanager
def total_deadline(seconds: float) -> Iterator[None]:
    """Bound what this thread sends inside the block (redirect hops, bodies) by one deadline.

    Each request gets what is left of it (or less: its own deadline); once it is past, a
    request raises DeadlineExceeded without being sent. Nested blocks keep the shorter one.
    """
    outer_until: float | None = getattr(_current, "until", None)
    outer_seconds: float = getattr(_current, "seconds", 0.0)
    until = time.monotonic() + seconds
    if outer_until is None or until < outer_until:
        _current.until, _current.seconds = until, seconds
    try:
        yield
    finally:
        _current.until, _current.seconds = outer_until, outer_seconds


@contextlib.contextmanager
def outside_deadline() -> Iterator[None]:
    """Leave the time spent in the block (waiting for a turn) out of the total deadline."""
    started = time.monotonic()
    try:
        yield
    finally:
        until: float | None = getattr(_current, "until", None)
        if until is not None:
            _current.until = until + (time.monotonic() - started)


def budget(timeout: object) -> float:
    """Return a request's total deadline from its (connect, read) or single timeout."""
    if isinstance(timeout, tuple) and len(timeout) == 2:
        connect, read = timeout
        return float(connect or 30.0) + 2 * float(read or 30.0)
    if isinstance(timeout, int | float) and timeout > 0:
        return 3 * float(timeout)
    return 90.0


#: The first bytes of a TLS record (handshake or alert), as a plain-HTTP client sees them.
_TLS_RECORD = re.compile(rb"^[\x15\x16]\x03[\x00-\x04]")


def transport_problem(exc: BaseException) -> str | None:
    """Name the transport failures a reader can act on, or None for the ordinary ones.

    A total deadline passed, a redirect loop, TLS spoken to a plain http:// URL, plain HTTP on
    an https:// URL, and a status line that is not HTTP at all: each gets a message that says
    what happened, instead of "connection failed".
    """
    if isinstance(exc, DeadlineExceeded):
        return "no response within the total deadline"
    if isinstance(exc, requests.TooManyRedirects):
        return f"redirect loop: more than {_redirect_limit(exc)} redirects"
    for cause in causes(exc):
        text = str(cause)
        if isinstance(cause, ssl.SSLError) and (
            "WRONG_VERSION_NUMBER" in text or "wrong version number" in text
        ):
            return (
                "TLS error: the server does not speak TLS on this port "
                "(plain HTTP on an https:// URL?)"
            )
        if isinstance(cause, http.client.BadStatusLine):
            line = getattr(cause, "line", "")
            line = line if isinstance(line, str) else ""
            if _TLS_RECORD.match(line.encode("latin-1", "replace")):
                return "the server answered with TLS (an http:// URL for an HTTPS port?)"
            if line.startswith("HTTP/"):
                return None  # an HTTP status line cut short: a reset, named by the caller
            return f"bad status line: the server did not answer in HTTP ({line[:40]!r})"
    return None


def _redirect_limit(exc: requests.TooManyRedirects) -> int:
    """Return the redirect limit a TooManyRedirects hit (requests' default is 30)."""
    match = re.search(r"(\d+) redirects", str(exc))
    return int(match.group(1)) if match else 30


def causes(exc: BaseException) -> Iterator[BaseException]:
    """Yield an exception and everything it wraps (cause, context, urllib3 reasons, args)."""
    stack: list[BaseException] = [exc]
    seen: set[int] = set()
    while stack and len(seen) < 20:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        linked = [getattr(current, "reason", None), current.__cause__, current.__context__]
        linked += list(current.args)
        stack.extend(x for x in linked if isinstance(x, BaseException))


def make_session(
    pool_size: int = 10, *, user_agent: str = USER_AGENT, deadline: float | None = None
) -> requests.Session:
    """Return a session whose pool holds ``pool_size`` connections per host, without retries.

    Every request must have its status line and headers back within ``deadline`` seconds
    (default: its connect timeout plus twice its read timeout); see DeadlineAdapter.

    The environment is read once here, not on every request: requests looks proxies and the CA
    bundle up per request when ``trust_env`` is on, which costs nearly half the CPU time of a
    HEAD request. So a CA bundle variable becomes the session's ``verify``, and ``trust_env``
    stays on only when a proxy variable is set (no_proxy needs requests' per-URL logic). Off, it
    also keeps ~/.netrc credentials from the arbitrary hosts a link checker visits.
    """
    session = _Session()
    session.cookies.set_policy(_NoCookies())
    session.trust_env = any(_env(name) for name in _PROXY_SETTINGS)
    # requests' own order: its variable, then curl's.
    bundle = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE")
    if bundle:
        session.verify = bundle
    adapter = DeadlineAdapter(
        pool_connections=pool_size, pool_maxsize=pool_size, max_retries=0, deadline=deadline
    )
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    session.headers["User-Agent"] = user_agent
    return session


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    """A cookie policy that stores nothing: no cookie outlives the exchange that set it."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        """Refuse every cookie."""
        return False


class _Session(requests.Session):
    """A requests.Session for which a Location it cannot use means no redirect, not a crash.

    requests works out the next hop of every 3xx answer, even with ``allow_redirects=False``,
    and an unparseable Location (``https://[::1/x``) or one that is not UTF-8 raised ValueError
    or UnicodeDecodeError out of ``send``, where callers expect only RequestException.
    """

    def get_redirect_target(self, resp: requests.Response) -> str | None:
        """Return the Location to follow, or None when there is none or it is unusable."""
        try:
            target = super().get_redirect_target(resp)
            if target is not None:
                urlsplit(target)  # an unclosed "[" raises here, not later in send
        except (UnicodeError, ValueError):
            return None
        return target


class BodyTooLarge(requests.RequestException):
    """A response body was larger than the caller is willing to hold."""


def read_body(response: requests.Response, *, max_seconds: float, max_bytes: int) -> bytes:
    """Read a streamed body within a total time budget, so a slow drip cannot stall a worker.

    The read timeout of requests bounds each socket read, not the whole body; this bounds both
    (the watchdog shuts the socket at the budget, or at the URL's total deadline if sooner).
    Raises ``requests.ReadTimeout`` past the budget, ``DeadlineExceeded`` past the URL's
    deadline and ``BodyTooLarge`` past ``max_bytes``.
    """
    now = time.monotonic()
    deadline = now + max_seconds
    late: requests.Timeout = requests.ReadTimeout(f"body not read within {max_seconds:g} s")
    until: float | None = getattr(_current, "until", None)
    if until is not None and until < deadline:
        deadline = until
        late = DeadlineExceeded(_late(getattr(_current, "seconds", 0.0)))
    watched = _Request(deadline)
    connection = getattr(response.raw, "connection", None)
    if connection is not None:
        watched.connections.append(connection)
    _WATCHDOG.arm(watched)
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in _chunks(response):
            size += len(chunk)
            if size > max_bytes:
                raise BodyTooLarge(f"body larger than {max_bytes} bytes")
            chunks.append(chunk)
            if time.monotonic() > deadline:
                raise late
        if watched.fired:  # the cut ended the body early, and the server gave no length
            raise late
    except requests.RequestException as exc:
        if watched.fired and exc is not late:
            raise late from exc
        raise
    finally:
        watched.done = True
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
