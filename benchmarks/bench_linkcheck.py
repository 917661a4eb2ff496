"""Benchmark `check-links` against linkinator (--retry) on a local workload with ground truth.

A threaded workload server on 127.0.0.1 answers on several ports (several origins): mostly 200,
redirect chains, permanent moves, HEAD 405 then GET 200, slow 1.5 s answers, 429 with
Retry-After then 200, 404, 500 and redirect loops; two more ports refuse connections;
--latency adds a delay to every answer, as a distant server has. Both
checkers read the same HTML page listing every link, each in its own process (wall time, CPU
time and peak RSS are that process's own). The server counts requests and the requests in flight per
origin; the run fails if ours ever exceeds its per-origin cap, or reports a false positive or
negative.

    .venv/bin/python benchmarks/bench_linkcheck.py [--links 2000] [--origins 9] [--latency 0.05]
                                                   [--repeat 3] [--per-origin N] [--concurrency N]

`check-links` runs with its default limits unless --per-origin or --concurrency is given.

The machine may be shared: --repeat N (default 3) runs both checkers N times, alternating, and
prints each checker's median run (and the range of its wall times); the checks (cap, false
positives and negatives) hold for every run.

linkinator is tools/npm/node_modules/.bin/linkinator (`make npm-tools`), or $LINKINATOR.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ddl_catalog.net.linkcheck import Options

ROOT = Path(__file__).resolve().parents[1]
LINKINATOR = ROOT / "tools" / "npm" / "node_modules" / ".bin" / "linkinator"
SERVING_ORIGINS = 9  # the default of --origins
REFUSED_ORIGINS = 2
REFUSED_LINKS = 20
SLOW_SECONDS = 1.5
RUN_TIMEOUT = 180.0
#: Links of each kind per serving origin (the rest are plain 200s), and whether they are good.
MIX: dict[str, tuple[int, bool]] = {
    "chain": (12, True),
    "moved": (6, True),
    "nohead": (12, True),
    "slow": (3, True),
    "limited": (6, True),
    "missing": (8, False),
    "fail": (6, False),
    "loop": (4, False),
}


@dataclass
class OriginStats:
    """What one origin saw: requests, requests in flight, first hits of 429 paths."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    current: int = 0
    peak: int = 0
    limited_seen: set[str] = field(default_factory=set)

    def reset(self) -> None:
        with self.lock:
            self.requests = self.current = self.peak = 0
            self.limited_seen.clear()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: WorkloadServer

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_HEAD(self) -> None:
        self._handle(body=False)

    def do_GET(self) -> None:
        self._handle(body=True)

    def _handle(self, body: bool) -> None:
        stats = self.server.stats
        with stats.lock:
            stats.requests += 1
            stats.current += 1
            stats.peak = max(stats.peak, stats.current)
        try:
            status, headers = self._answer(body)
            if self.server.latency and self.path != "/index.html":
                time.sleep(self.server.latency)
        finally:
            # Counted until the answer is ready: a client past its cap shows up here.
            with stats.lock:
                stats.current -= 1
        payload = b"<html><body>ok</body></html>" if body and status == 200 else b""
        if headers.pop("X-Index", None):
            payload = self.server.index.encode() if body else b""
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if payload:
            self.wfile.write(payload)

    def _answer(self, body: bool) -> tuple[int, dict[str, str]]:
        parts = self.path.strip("/").split("/")
        kind = parts[0]
        if self.path == "/index.html":
            return 200, {"X-Index": "1"}
        if kind == "chain":
            hops = int(parts[2])
            return (302, {"Location": f"/chain/{parts[1]}/{hops - 1}"}) if hops else (200, {})
        if kind == "moved":
            return 301, {"Location": f"/ok/moved-{parts[1]}"}
        if kind == "nohead":
            return (200, {}) if body else (405, {"Allow": "GET"})
        if kind == "slow":
            time.sleep(SLOW_SECONDS)
            return 200, {}
        if kind == "limited":
            with self.server.stats.lock:
                first = self.path not in self.server.stats.limited_seen
                self.server.stats.limited_seen.add(self.path)
            return (429, {"Retry-After": "1"}) if first else (200, {})
        if kind == "missing":
            return 404, {}
        if kind == "fail":
            return 500, {}
        if kind == "loop":
            target = f"/loop/{parts[1]}" if len(parts) == 3 else f"/loop/{parts[1]}/b"
            return 302, {"Location": target}
        return 200, {}


class WorkloadServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def handle_error(self, request: object, client_address: object) -> None:
        return  # clients that hang up early (a GET whose body is not read) are expected

    def __init__(self, latency: float = 0.0) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.stats = OriginStats()
        self.index = ""
        self.latency = latency  # seconds added to every answer but the page's

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


def refused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def workload(servers: list[WorkloadServer], total: int) -> dict[str, bool]:
    """Return {url: is_good} for ``total`` links over the servers and refused ports."""
    truth: dict[str, bool] = {}
    refused = [refused_port() for _ in range(REFUSED_ORIGINS)]
    for i in range(REFUSED_LINKS):
        truth[f"http://127.0.0.1:{refused[i % REFUSED_ORIGINS]}/gone/{i}"] = False
    per_origin = (total - REFUSED_LINKS) // len(servers)
    for index, server in enumerate(servers):
        count = 0
        for kind, (number, good) in MIX.items():
            for i in range(number):
                path = f"/chain/{index}-{i}/{1 + i % 4}" if kind == "chain" else f"/{kind}/{i}"
                truth[server.base + path] = good
                count += 1
        extra = per_origin + (1 if index < (total - REFUSED_LINKS) % len(servers) else 0)
        for i in range(extra - count):
            truth[f"{server.base}/ok/{i}"] = True
    return truth


@dataclass
class Run:
    name: str
    wall: float = 0.0
    cpu: float = 0.0
    rss_mb: float = 0.0
    requests: int = 0
    peak_per_origin: int = 0
    false_pos: int = 0
    false_neg: int = 0
    missing: int = 0
    note: str = ""


def run_process(command: list[str], cwd: Path) -> tuple[float, float, float, str, str]:
    """Run a command; return wall seconds, CPU seconds, its own peak RSS in MB, stdout, stderr."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err)
        deadline = started + RUN_TIMEOUT
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        wall = time.monotonic() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        cpu = usage.ru_utime + usage.ru_stime
        return wall, cpu, usage.ru_maxrss / 1024, out.read().decode(), err.read().decode()


def score(run: Run, verdicts: dict[str, bool], truth: dict[str, bool]) -> None:
    for url, good in truth.items():
        if url not in verdicts:
            run.missing += 1
        elif good and not verdicts[url]:
            run.false_pos += 1
        elif not good and verdicts[url]:
            run.false_neg += 1


def measure(
    name: str,
    command: list[str],
    parse: Callable[[str], dict[str, bool]],
    servers: list[WorkloadServer],
    truth: dict[str, bool],
) -> Run:
    for server in servers:
        server.stats.reset()
    run = Run(name)
    run.wall, run.cpu, run.rss_mb, out, err = run_process(command, ROOT)
    run.requests = sum(s.stats.requests for s in servers[1:])  # [0] only serves the page
    run.peak_per_origin = max(s.stats.peak for s in servers[1:])
    try:
        score(run, parse(out), truth)
    except (ValueError, KeyError) as exc:
        run.note = f"unreadable output ({exc}): {err.strip()[-300:]}"
        run.missing = len(truth)
    return run


def parse_ours(text: str) -> dict[str, bool]:
    return {r["url"]: r["outcome"] in ("ok", "moved") for r in json.loads(text)}


def parse_linkinator(text: str) -> dict[str, bool]:
    links = json.loads(text[text.index("{") :])["links"]
    return {link["url"]: link["state"] == "OK" for link in links}


def linkinator_path() -> tuple[str | None, str]:
    """Return the linkinator to run, or None and why it cannot run here."""
    path = os.environ.get("LINKINATOR") or str(LINKINATOR)
    if not Path(path).exists():
        return None, f"{path} is missing (run `make npm-tools`)"
    try:
        probe = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, str(exc)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"{path} does not start: {last}"
    return path, probe.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=2000)
    parser.add_argument("--origins", type=int, default=SERVING_ORIGINS, help="serving origins")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every answer")
    parser.add_argument("--per-origin", type=int, help="check-links' own default unless given")
    parser.add_argument("--concurrency", type=int, help="check-links' own default unless given")
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds (both checkers each); medians are printed"
    )
    args = parser.parse_args(argv)

    # [0] serves the page
    servers = [WorkloadServer(args.latency if i else 0.0) for i in range(args.origins + 1)]
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in servers]
    for thread in threads:
        thread.start()
    rounds: list[list[Run]] = []
    try:
        truth = workload(servers[1:], args.links)
        order = list(truth)
        random.Random(2026).shuffle(order)  # a page does not group its slow links
        page = "".join(f'<li><a href="{url}">{i}</a></li>\n' for i, url in enumerate(order))
        html = f"<!doctype html><html><body><ul>\n{page}</ul></body></html>\n"
        lk, info = linkinator_path()
        if lk is None:
            print(f"baseline skipped: linkinator unavailable: {info}")
        with tempfile.TemporaryDirectory() as tmp:
            page_file = Path(tmp) / "index.html"
            page_file.write_text(html, encoding="utf-8")
            servers[0].index = html
            for _ in range(max(1, args.repeat)):
                rounds.append(one_round(args, page_file, servers, truth, lk, info))
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    cap = args.per_origin or Options().per_origin
    return report(rounds, truth, cap, args.origins, args.latency)


def one_round(
    args: argparse.Namespace,
    page_file: Path,
    servers: list[WorkloadServer],
    truth: dict[str, bool],
    lk: str | None,
    info: str,
) -> list[Run]:
    """Run ours, then linkinator when it is there, on the same workload."""
    ours = [sys.executable, "-m", "ddl_catalog", "check-links", str(page_file), "--no-cache"]
    ours += ["--format", "json", "--timeout", "5", "--fail-on", ""]
    if args.per_origin:
        ours += ["--per-origin", str(args.per_origin)]
    if args.concurrency:
        ours += ["--concurrency", str(args.concurrency)]
    runs = [
        measure(
            "ddl-catalog check-links",
            ours,
            parse_ours,
            servers,
            truth,
        )
    ]
    if lk is not None:
        runs.append(
            measure(
                f"linkinator {info} --retry",
                [
                    lk,
                    f"{servers[0].base}/index.html",
                    "--retry",
                    "--format",
                    "json",
                    "--timeout",
                    "10000",
                ],
                parse_linkinator,
                servers,
                truth,
            )
        )
    return runs


def median_run(runs: list[Run]) -> Run:
    """Return the run of median wall time (the lower middle one for an even count)."""
    return sorted(runs, key=lambda r: r.wall)[(len(runs) - 1) // 2]


def report(
    rounds: list[list[Run]], truth: dict[str, bool], cap: int, origins: int, latency: float
) -> int:
    bad = sum(not good for good in truth.values())
    print(
        f"workload: {len(truth)} links ({bad} bad) over {origins} origins "
        f"+ {REFUSED_ORIGINS} refused ports; {latency * 1000:.0f} ms added to every answer; "
        f"our per-origin cap {cap}; {len(rounds)} round(s), median run shown"
    )
    header = (
        f"{'checker':34} {'wall s':>7} {'range s':>11} {'ratio':>6} {'cpu s':>6} "
        f"{'requests':>8} {'peak MB':>8} {'peak/origin':>11} {'FP':>4} {'FN':>4} {'missing':>7}"
    )
    print(header)
    print("-" * len(header))
    by_checker = [list(runs) for runs in zip(*rounds, strict=True)]
    medians = [median_run(runs) for runs in by_checker]
    base = medians[-1].wall if len(medians) > 1 else None
    for run, runs in zip(medians, by_checker, strict=True):
        ratio = f"{run.wall / base:.2f}" if base else "-"
        walls = [r.wall for r in runs]
        spread = f"{min(walls):.2f}-{max(walls):.2f}"
        print(
            f"{run.name:34} {run.wall:7.2f} {spread:>11} {ratio:>6} {run.cpu:6.2f} "
            f"{run.requests:8d} {run.rss_mb:8.1f} {run.peak_per_origin:11d} "
            f"{run.false_pos:4d} {run.false_neg:4d} {run.missing:7d}"
        )
        if run.note:
            print(f"  note: {run.note}")
    ours = by_checker[0]
    failures = []
    peak = max(r.peak_per_origin for r in ours)
    if peak > cap:
        failures.append(f"per-origin cap {cap} exceeded: {peak} at once")
    if any(r.false_pos or r.false_neg or r.missing for r in ours):
        failures.append("ours has false positives, false negatives or missing results")
    for failure in failures:
        print(f"FAIL: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
