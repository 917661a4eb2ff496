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
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    conn.recv(65536)
                    conn.sendall(partial)
                    time.sleep(0.05)
                except OSError:
                    pass
                # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00" * 2)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/reset"
    finally:
        stop.set()
        thread.join(2)
        listener.close()


def free_port() -> int:
    """Return a port on 127.0.0.1 that nothing listens on (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
