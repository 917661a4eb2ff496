"""Lighthouse on one page of each type, served with gzip as GitHub Pages does: `make lighthouse`.

Builds the site with each engine (``--engines``, default mkdocs,zensical; or takes a built one),
serves it on 127.0.0.1 with gzip and GitHub Pages' cache header, runs the pinned Lighthouse
(tools/npm) with Debian's chromium in its default mobile emulation, and writes, per engine, a
table of the four category scores, each page's performance gap to the docs page of the same
build (data-format/, measured in the same run) and the Core Web Vitals per page type to
build/lighthouse.md, then the engines side by side (the raw reports go to
build/lighthouse/<engine>/). A benchmark, not a test: it prints the tables and fails only when
Lighthouse cannot run.

    .venv/bin/python benchmarks/lighthouse.py [--root DIR] [--engines mkdocs,zensical]
        [--site DIR] [--runs N] [--page LABEL]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
LIGHTHOUSE = REPO / "tools" / "npm" / "node_modules" / ".bin" / "lighthouse"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: One page of each type: (label, path).
PAGES: tuple[tuple[str, str], ...] = (
    ("Home", ""),
    ("Topic", "parallelism/"),
    ("Subtopic", "parallelism/expert-parallelism/"),
    ("Explore", "explore/"),
    ("Compare", "compare/"),
    ("Timeline", "timeline/"),
    ("Papers by year", "papers-by-year/"),
    ("Venues", "venues/"),
    ("Venue (SOSP)", "venues/sosp/"),
    ("What's new", "new/"),
    ("Tags", "tags/"),
    ("Docs page", "data-format/"),
)
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
#: Audits reported in the table: (audit id, column, unit).
METRICS = (
    ("first-contentful-paint", "FCP", "ms"),
    ("largest-contentful-paint", "LCP", "ms"),
    ("total-blocking-time", "TBT", "ms"),
    ("cumulative-layout-shift", "CLS", ""),
    ("speed-index", "SI", "ms"),
)
#: Types GitHub Pages compresses.
COMPRESSIBLE = (".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".bib", ".csv")


class GzipHandler(SimpleHTTPRequestHandler):
    """Serve files like GitHub Pages: gzip for text when asked, ``Cache-Control: max-age=600``."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # the redirect to the URL with a slash
            path = path / "index.html"
        wants = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (wants and path.is_file() and path.suffix in COMPRESSIBLE):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve a built site on 127.0.0.1 (a free port); yield its base URL."""
    handler = functools.partial(GzipHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def find_chromium() -> str:
    """Return the browser Lighthouse drives ($CHROMIUM, else the first one on PATH)."""
    for name in (os.environ.get("CHROMIUM", ""), *BROWSERS):
        found = name and shutil.which(name)
        if found:
            return found
    raise SystemExit("no chromium on PATH: apt-get install chromium (or set CHROMIUM)")


def run_lighthouse(url: str, out: Path, chromium: str) -> dict[str, Any]:
    """Run Lighthouse (mobile, its default) on one URL; return its JSON report."""
    env = dict(os.environ, CHROME_PATH=chromium)
    command = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={out}",
        "--only-categories=" + ",".join(CATEGORIES),
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run",
        "--quiet",
    ]
    subprocess.run(command, check=True, env=env, cwd=REPO, timeout=300)
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def measure(
    site: Path, pages: Iterable[tuple[str, str]], *, runs: int, raw: Path, chromium: str
) -> list[tuple[str, dict[str, Any]]]:
    """Serve a built site and run Lighthouse ``runs`` times on each page; return the rows.

    Each row is the page's label and :func:`summarise` of its reports (plus ``version``); the
    raw reports are kept in ``raw``. Shared by this script and ``bench_site_scale.py``.
    """
    rows = []
    with serve(site) as base:
        for label, path in pages:
            slug = path.strip("/").replace("/", "-") or "home"
            reports = [
                run_lighthouse(base + path, raw / f"{slug}-{n}.json", chromium) for n in range(runs)
            ]
            row = summarise(reports)
            row["version"] = reports[0].get("lighthouseVersion", "?")
            rows.append((label, row))
            print(f"{label}: {row}", file=sys.stderr, flush=True)
    return rows


def summarise(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the median score per category and median value per metric over the runs."""
    row: dict[str, Any] = {}
    for category in CATEGORIES:
        scores = [r["categories"][category]["score"] for r in reports]
        row[category] = round(100 * statistics.median(s or 0 for s in scores))
    for audit, column, _unit in METRICS:
        row[column] = statistics.median(r["audits"][audit]["numericValue"] for r in reports)
    row["a11y failed"] = sorted(
        {
            ref["id"]
            for r in reports
            for ref in r["categories"]["accessibility"]["auditRefs"]
            if ref.get("weight") and r["audits"][ref["id"]].get("score") == 0
        }
    )
    font = [r["audits"].get("font-size", {}).get("score") for r in reports]
    row["legible"] = "pass" if all(s == 1 for s in font) else "fail"
    return row


DOCS_LABEL = "Docs page"


def gap(rows: list[tuple[str, dict[str, Any]]], row: dict[str, Any]) -> str:
    """Return a page's performance gap to the docs page of the same build ("" without one)."""
    docs = dict(rows).get(DOCS_LABEL)
    return f"{row['performance'] - docs['performance']:+d}" if docs else ""


def table(rows: list[tuple[str, dict[str, Any]]], runs: int, engine: str = "") -> str:
    """Return the Markdown table of one build's results."""
    head = ["Page", "Perf", "Gap to docs", "A11y", "BP", "SEO"]
    head += [c for _a, c, _u in METRICS] + ["Legible"]
    lines = [
        "## " + (engine or "Lighthouse (mobile emulation, gzip as GitHub Pages serves it)"),
        "",
        f"Median of {runs} run(s) per page; Lighthouse "
        f"{rows[0][1]['version'] if rows else '?'}, served from 127.0.0.1.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    for label, row in rows:
        cells = [label, str(row["performance"]), gap(rows, row)]
        cells += [str(row[c]) for c in CATEGORIES if c != "performance"]
        for _audit, column, unit in METRICS:
            value = row[column]
            cells.append(f"{value:.3f}" if not unit else f"{value:.0f} {unit}")
        cells.append(row["legible"])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def side_by_side(results: dict[str, list[tuple[str, dict[str, Any]]]]) -> str:
    """Return one table of every engine's performance, gap to its docs page and accessibility."""
    names = list(results)
    head = ["Page"]
    for name in names:
        head += [f"{name} Perf", f"{name} gap to docs", f"{name} A11y"]
    lines = [
        "| " + " | ".join(head) + " |",
        "|---|" + "|".join("---:" for _ in head[1:]) + "|",
    ]
    labels = [label for label, _row in results[names[0]]]
    for label in labels:
        cells = [label]
        for name in names:
            row = dict(results[name]).get(label)
            cells += (
                [str(row["performance"]), gap(results[name], row), str(row["accessibility"])]
                if row
                else ["-", "-", "-"]
            )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=REPO, help="the catalog to build")
    parser.add_argument(
        "--engines", default="mkdocs,zensical", help="comma-separated site engines to build with"
    )
    parser.add_argument("--site", type=Path, help="a built site to measure instead of building")
    # One run's score moves by a few points (Lighthouse's simulated phone scales what this
    # machine did): the median of three is the figure to compare.
    parser.add_argument("--runs", type=int, default=3, help="runs per page (median reported)")
    parser.add_argument("--out", type=Path, default=REPO / "build", help="where results go")
    parser.add_argument(
        "--page",
        action="append",
        choices=[label for label, _path in PAGES],
        help="measure only this page type (repeatable; default: all)",
    )
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.is_file():
        raise SystemExit(f"{LIGHTHOUSE.relative_to(REPO)} missing: run `make npm-tools`")
    chromium = find_chromium()
    pages = [page for page in PAGES if not args.page or page[0] in args.page]
    if args.page and DOCS_LABEL not in args.page:
        pages.append(next(page for page in PAGES if page[0] == DOCS_LABEL))
    engines = ["given"] if args.site else [e for e in args.engines.split(",") if e]
    results: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    texts = ["# Lighthouse (mobile emulation, gzip as GitHub Pages serves it), per engine", ""]
    for engine in engines:
        raw = args.out / "lighthouse" / engine
        raw.mkdir(parents=True, exist_ok=True)
        site = args.site
        if site is None:
            from ddl_catalog.render.site import build_site

            site = build_site(args.root, site_dir=raw / "site", engine=engine)
        results[engine] = measure(site, pages, runs=args.runs, raw=raw, chromium=chromium)
        texts.append(table(results[engine], args.runs, engine))
        print(texts[-1], flush=True)
    if len(results) > 1:
        texts += ["## The engines side by side", "", side_by_side(results)]
        print(texts[-1])
    (args.out / "lighthouse.md").write_text("\n".join(texts), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
