"""Shared helpers of the network tests: a threaded local server, a concurrency-counting handler."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response


@contextmanager
def local_server() -> Iterator[HTTPServer]:
    """Yield a threaded pytest-httpserver bound to 127.0.0.1."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        yield server
    finally:
        server.clear()
        if server.is_running():
            server.stop()


class ConcurrencyCounter:
    """A handler that sleeps a little and records the most requests it saw at once."""

    def __init__(self, pause: float) -> None:
        self.pause = pause
        self.current = 0
        self.peak = 0
        self._lock = threading.Lock()

    def __call__(self, request: Request) -> Response:
        with self._lock:
            self.current += 1
            self.peak = max(self.peak, self.current)
        time.sleep(self.pause)
        with self._lock:
            self.current -= 1
        return Response("", status=200)


def drip(chunks: int, pause: float) -> Callable[[Request], Response]:
    """Return a handler that sends headers at once, then one byte every ``pause`` seconds."""

    def body() -> Iterator[bytes]:
        for _ in range(chunks):
            time.sleep(pause)
            yield b"x"

    def handler(request: Request) -> Response:
        return Response(body(), status=200, headers={"Content-Length": str(chunks)})

    return handler


@contextmanager
def resetting_server(partial: bytes) -> Iterator[str]:
    """Yield the URL of a raw server that sends ``partial`` then resets the connection (RST)."""

    def reply(conn: socket.socket) -> None:
        conn.sendall(partial)
        time.sleep(0.05)
        # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00" * 2)

    with raw_server(reply) as base:
        yield f"{base}/reset"


def free_port() -> int:
    """Return a port on 127.0.0.1 that nothing listens on (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def raw_server(reply: Callable[[socket.socket], None]) -> Iterator[str]:
    """Yield the base URL of a raw TCP server on 127.0.0.1 that answers each connection by
    reading the request and calling ``reply`` with the socket (bounded: 10 s per connection)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()

    def handle(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(10)
            try:
                conn.recv(65536)
                reply(conn)
            except OSError:
                pass

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(2)
        listener.close()


def header_drip(pause: float, limit: float = 10.0) -> Callable[[socket.socket], None]:
    """Return a reply that sends a status line and long headers one byte every ``pause`` s.

    Each byte comes well within any read timeout, so only a total deadline stops the client;
    the server gives up after ``limit`` seconds whatever happens.
    """
    head = b"HTTP/1.1 200 OK\r\nX-Drip: " + b"z" * 400 + b"\r\nContent-Length: 0\r\n\r\n"

    def reply(conn: socket.socket) -> None:
        started = time.monotonic()
        for byte in head:
            if time.monotonic() - started > limit:
                return
            conn.sendall(bytes([byte]))
            time.sleep(pause)

    return reply


def send_bytes(data: bytes) -> Callable[[socket.socket], None]:
    """Return a reply that sends ``data`` and closes (a TLS alert, a non-HTTP banner ...)."""

    def reply(conn: socket.socket) -> None:
        conn.sendall(data)
        time.sleep(0.05)

    return reply


#: What a TLS server sends to a client that speaks plain HTTP to it: a fatal TLS alert record.
TLS_ALERT = b"\x15\x03\x01\x00\x02\x02\x46"
