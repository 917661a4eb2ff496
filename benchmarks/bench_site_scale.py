"""The website at N entries: Lighthouse on each page type beside the docs page: `make bench-site`.

Grows a copy of this catalog deterministically to N entries (``--sizes``, default 500,2000):
the real entries first, then variants of them in file order (variant 1 of every entry, then
variant 2, ...), each a file of its own beside the original with its own id (``<id>-v<k>``),
title (`` (variant k)``) and URL (``https://example.org/grown/<id>/v<k>``), and without the
original's identifiers (arXiv, DOI, GitHub), so the duplicate rule holds; everything else
(kind, categories, tags, year, authors, links, capabilities) is the original's, so the lists
grow as the real ones would. A size below the real catalog's takes the real catalog. Each copy
is built with ``build_site`` (what ``ddl-catalog site`` runs, validation included) by each engine
(``--engines``, default mkdocs,zensical) and served with gzip on 127.0.0.1 by
``lighthouse.py``'s server, which runs Lighthouse (mobile, its default) ``--runs`` times on each
page type and on the plain docs page (data-format/) of the same build in the same run: each
engine's pages are measured against that engine's own docs page. The table gives each page's
median performance and accessibility score, its gap to the docs page's performance, total
blocking time, the page's HTML bytes and the failing accessibility audits; the search index's
bytes (entries and text, raw and gzip) are printed per size, with two timings in Chromium with
its CPU slowed 4 times (as Lighthouse's phone): Explore's text filter per keystroke (script,
style and layout of the new rows) and the time from the first key typed in the search box to
the first result of the catalog's own search (the index is fetched on first use, so that is
included).
Reports go to build/site-scale/, a side-by-side table of the engines last.

The largest subtopic is the category page with the most HTML; the kind page is the largest
under kinds/. Lighthouse scales what this machine did onto a simulated phone, so one run
moves by up to about 5 points on a shared machine: compare gaps (measured in the same run), and
use ``--runs 3`` for figures to quote.

    .venv/bin/python benchmarks/bench_site_scale.py [--sizes 500,2000,5000] [--runs N]
        [--engines mkdocs,zensical]
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

from lighthouse import LIGHTHOUSE, find_chromium, measure, serve, side_by_side

REPO = Path(__file__).resolve().parent.parent
#: What a catalog's root holds besides data/ (copied as they are).
ROOT_FILES = ("catalog.yml", "mkdocs.yml")
ROOT_DIRS = ("docs", "templates")
#: Page types at fixed paths: (label, path). The largest subtopic and kind page are found.
FIXED = (
    ("Home", ""),
    ("Topic", "parallelism/"),
    ("Explore", "explore/"),
    ("Compare", "compare/"),
    ("Timeline", "timeline/"),
    ("Papers by year", "papers-by-year/"),
    ("Venues", "venues/"),
    ("Venue (SOSP)", "venues/sosp/"),
    ("What's new", "new/"),
    ("Tags", "tags/"),
)
DOCS = ("Docs page", "data-format/")
#: Top-level folders of the built site that are not category pages.
NOT_CATEGORIES = {
    "api",
    "assets",
    "bib",
    "compare",
    "explore",
    "kinds",
    "papers-by-year",
    "venues",
    "new",
    "search",
    "tags",
    "timeline",
    "architecture",
    "contributing",
    "data-format",
    "use-it-for-your-own-list",
}


def entry_files(data: Path) -> list[Path]:
    """Return the catalog's entry files in a stable order (folders of kinds, then names)."""
    return sorted(
        p
        for p in data.glob("*/*.yml")
        if p.parent.name != "metadata" and not p.name.startswith(".")
    )


def variant(doc: dict[str, Any], k: int) -> dict[str, Any]:
    """Return variant ``k`` of an entry: its own id, title and URL, no identifiers."""
    grown = dict(doc)
    grown["id"] = f"{doc['id']}-v{k}"
    grown["title"] = f"{doc['title']} (variant {k})"
    grown["url"] = f"https://example.org/grown/{doc['id']}/v{k}"
    grown.pop("identifiers", None)
    return grown


def grow(root: Path, size: int) -> int:
    """Copy this catalog into ``root`` grown to ``size`` entries; return the entry count."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    for name in ROOT_FILES:
        shutil.copy(REPO / name, root / name)
    for name in ROOT_DIRS:
        shutil.copytree(REPO / name, root / name)
    shutil.copytree(REPO / "data", root / "data")
    files = entry_files(root / "data")
    docs = [(p, yaml.safe_load(p.read_text(encoding="utf-8"))) for p in files]
    count, k = len(docs), 0
    while count < size:
        k += 1
        for path, doc in docs:
            if count >= size:
                break
            grown = variant(doc, k)
            text = yaml.safe_dump(grown, sort_keys=False, allow_unicode=True, width=10_000)
            (path.parent / f"{grown['id']}.yml").write_text(text, encoding="utf-8")
            count += 1
    return count


def build(root: Path, engine: str) -> Path:
    """Build the grown catalog's site with ``engine`` beside the catalog; return the site."""
    from ddl_catalog.render.site import build_site

    return build_site(root, site_dir=root.parent / f"site-{engine}", engine=engine)


def largest(site: Path, under: Path, skip: set[str]) -> str:
    """Return the site path (with a slash) of the largest page below ``under``."""
    pages = [
        p
        for p in under.rglob("index.html")
        if p.parent != site and p.relative_to(site).parts[0] not in skip
    ]
    if under == site:  # subtopics only: two levels deep
        pages = [p for p in pages if len(p.relative_to(site).parts) == 3]
    biggest = max(pages, key=lambda p: p.stat().st_size)
    return biggest.parent.relative_to(site).as_posix() + "/"


def pages_of(site: Path) -> list[tuple[str, str]]:
    """Return the page types to measure for a built site, the docs page last."""
    subtopic = largest(site, site, NOT_CATEGORIES)
    kind = largest(site, site / "kinds", set())
    return [
        *FIXED[:2],
        (f"Subtopic ({subtopic.rstrip('/')})", subtopic),
        *FIXED[2:],
        (f"Kind ({kind.rstrip('/')})", kind),
        DOCS,
    ]


#: Typed into Explore's text filter, one key at a time, and into the search box.
WORD = "tensor"
#: Lighthouse's mobile preset slows the CPU four times; so do these timings.
THROTTLE = 4
KEYSTROKES = """async (word) => {
  const input = document.querySelector("form.ddl-filters").elements.text;
  const took = [];
  for (const key of word) {
    const start = performance.now();
    input.value += key;
    input.dispatchEvent(new Event("input", {bubbles: true}));
    document.body.offsetHeight;  // the style and layout of the new rows, too
    took.push(performance.now() - start);
    await new Promise(done => setTimeout(done, 50));
  }
  return took;
}"""


#: A click on Explore's Year header with no filter set: the sort of every entry, and the
#: first rows placed again.
SORT = """async () => {
  const input = document.querySelector("form.ddl-filters").elements.text;
  input.value = "";
  input.dispatchEvent(new Event("input", {bubbles: true}));
  await new Promise(done => setTimeout(done, 200));
  const start = performance.now();
  document.querySelector("button[data-sort='y']").click();
  document.body.offsetHeight;
  return performance.now() - start;
}"""


def interaction(site: Path, chromium: str) -> dict[str, float]:
    """Time Explore's filter per keystroke and search's first result, CPU slowed 4 times."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    found: dict[str, float] = {}
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        page = browser.new_page(viewport={"width": 390, "height": 844})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        page.goto(base + "explore/", wait_until="networkidle")
        page.locator("table.ddl-table tbody tr").first.wait_for(timeout=60_000)
        # The text filter fetches authors and descriptions on first use: time the keys once
        # they are in, so every key searches all the text.
        page.locator("form.ddl-filters input[name='text']").focus()
        page.locator("#ddl-explore[data-text='ready']").wait_for(timeout=60_000)
        took = sorted(page.evaluate(KEYSTROKES, WORD))
        found["explore median"] = took[len(took) // 2]
        found["explore max"] = took[-1]
        found["explore sort"] = page.evaluate(SORT)
        page.goto(base + "data-format/", wait_until="networkidle")
        try:
            # The catalog's own search (assets/search.js), the same with either engine: the
            # header's button opens it and the index is fetched then, so that is timed too.
            page.locator("[data-ddl-search]").click(timeout=10_000)
            start = page.evaluate("performance.now()")
            page.keyboard.type(WORD, delay=30)
            page.locator("#ddl-search__results a[role='option']").first.wait_for(timeout=60_000)
            found["search first result"] = page.evaluate("performance.now()") - start
        except PlaywrightTimeout:  # a theme without the catalog's search button
            found["search first result"] = float("nan")
        browser.close()
    return found


def report(
    size: int,
    engine: str,
    site: Path,
    rows: list[tuple[str, dict[str, Any]]],
    runs: int,
    timings: dict[str, float],
    pages: list[tuple[str, str]],
) -> str:
    """Return the Markdown table of one size's results with one engine."""
    from ddl_catalog.render import search_index

    index = b"".join(
        (site / uri).read_bytes()
        for uri in (search_index.SRC_URI, search_index.TEXT_URI)
        if (site / uri).is_file()
    )
    docs = dict(rows)[DOCS[0]]
    paths = dict(pages)
    search = timings["search first result"]
    lines = [
        f"## {size} entries, {engine} (median of {runs} run(s) per page)",
        "",
        "The search index (entries and text, fetched on first search): "
        f"{len(index) / 1024:.0f} KB, "
        f"{len(gzip.compress(index)) / 1024:.0f} KB gzipped.",
        "",
        f"CPU slowed {THROTTLE}x, 390px: Explore's text filter "
        f"{timings['explore median']:.0f} ms a keystroke (median; slowest "
        f"{timings['explore max']:.0f} ms; a sort by year {timings['explore sort']:.0f} ms), "
        "search's first result "
        + (f"{search:.0f} ms" if search == search else "n/a")  # NaN: not timed
        + " after the first key (the index fetched on first use included).",
        "",
        "| Page | Perf | Gap to docs | A11y | TBT | HTML KB | Failing a11y audits |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for label, row in rows:
        html = site / paths[label] / "index.html"
        gap = row["performance"] - docs["performance"]
        lines.append(
            f"| {label} | {row['performance']} | {gap:+d} | {row['accessibility']} | "
            f"{row['TBT']:.0f} ms | {html.stat().st_size / 1024:.0f} | "
            f"{', '.join(row['a11y failed']) or '-'} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,2000", help="comma-separated entry counts")
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page (median)")
    parser.add_argument(
        "--engines", default="mkdocs,zensical", help="comma-separated site engines to build with"
    )
    parser.add_argument(
        "--out", type=Path, default=REPO / "build" / "site-scale", help="where results go"
    )
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.is_file():
        raise SystemExit(f"{LIGHTHOUSE.relative_to(REPO)} missing: run `make npm-tools`")
    chromium = find_chromium()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    tables = ["# The website at scale: Lighthouse (mobile) beside the docs page", ""]
    summary = []
    for size in sizes:
        work = args.out / f"n{size}"
        count = grow(work / "catalog", size)
        results = {}
        pages: list[tuple[str, str]] = []
        for engine in [e for e in args.engines.split(",") if e]:
            site = build(work / "catalog", engine)
            raw = work / f"lighthouse-{engine}"
            raw.mkdir(parents=True, exist_ok=True)
            # The largest subtopic and kind page of the first build, measured in every build.
            pages = pages or pages_of(site)
            rows = measure(site, pages, runs=args.runs, raw=raw, chromium=chromium)
            results[engine] = rows
            timings = interaction(site, chromium)
            tables.append(report(count, engine, site, rows, args.runs, timings, pages))
            print(tables[-1], flush=True)
        if len(results) > 1:
            summary += [f"## {count} entries: the engines side by side", "", side_by_side(results)]
            print(summary[-1], flush=True)
    (args.out / "table.md").write_text("\n".join(tables + summary), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
