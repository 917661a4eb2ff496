"""The site's own search at N entries: its index's build time and bytes, and a phone's first result.

Grows a copy of this catalog to each size (``--sizes``, default real,2000,5000) with
``bench_site_scale.grow`` (the real entries, then variants of them: their own id, a title with
`` (variant k)`` and no identifiers). For each size it prints the search index's build time
(``render/search_index.py``, fastest of ``--repeat`` runs) beside laying out the site's pages
(``PageBuilder.build``, which the index needs first) measured in the same run, and the bytes
of its two files, raw and gzipped (as GitHub Pages serves them): ``entries.json``, read before
the first result, and ``text.json`` (the descriptions), read after it. A grown title's
"(variant k)" also gives it a name of its own (the title without it), so the grown sizes weigh
a little more than a real catalog of that size would (about 9 % of entries.json at 5,000).

At the largest size (``--browser-at``, default 5000; 0 skips it) the site is built with MkDocs
and served with gzip on 127.0.0.1; Chromium at 390 px with its CPU slowed 4 times (as
Lighthouse's phone) times, as the median of ``--runs`` fresh page loads each:

* search: from the "/" key on a docs page to the first results of a query put in the field at
  once (the index read, parsed and prepared on this first use included; titles, names,
  authors, venue, year, kind and tags searched), to every result (the descriptions, folded
  next, searched too), then one more key;
* the baseline, Explore's text filter on the same data and page load: from the same query put
  in its field to the rows filtered with its words file (read on that first use) in, then one
  more key.

Both sides read their file from the browser's cache (fetched once before the clock starts:
this server compresses as it goes, which would time the server, not the phone's CPU) and pay
for a parse on first use; the ratios say what search costs beside the filter a reader already
waits for. The files' bytes are in the first table. Nothing here runs in the test suite.

    .venv/bin/python benchmarks/bench_search.py [--sizes real,2000,5000] [--browser-at 5000]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench_site_scale import grow
from lighthouse import find_chromium, serve

REPO = Path(__file__).resolve().parent.parent
#: The query timed in the browser: a word of many titles, as a reader starts typing.
QUERY = "pipeline"
THROTTLE = 4

#: The search dialog opened with "/", the query put in at once; resolves with the times of the
#: first results (titles, names, authors, venue, year, kind and tags searched) and of all of
#: them (descriptions too, folded after the first results).
SEARCH_FIRST = """async (word) => {
  const start = performance.now();
  document.body.dispatchEvent(new KeyboardEvent("keydown", {key: "/", bubbles: true}));
  const input = document.querySelector("#ddl-search__input");
  input.value = word;
  input.dispatchEvent(new Event("input", {bubbles: true}));
  const dialog = document.querySelector("dialog.ddl-search");
  const frame = () => new Promise(done => requestAnimationFrame(done));
  while (dialog.getAttribute("data-ddl-shown") !== word) await frame();
  document.body.offsetHeight;
  const first = performance.now() - start;
  while (dialog.getAttribute("data-ddl-query") !== word) await frame();
  document.body.offsetHeight;
  return [first, performance.now() - start];
}"""
#: Explore's text filter given the same query at once; resolves when its words are in and the
#: rows are drawn again with them.
EXPLORE_FIRST = """async (word) => {
  const root = document.querySelector("#ddl-explore");
  const input = root.querySelector("form.ddl-filters").elements.text;
  const start = performance.now();
  input.value = word;
  input.dispatchEvent(new Event("input", {bubbles: true}));
  while (root.getAttribute("data-text") !== "ready") {
    await new Promise(done => requestAnimationFrame(done));
  }
  document.body.offsetHeight;
  const took = performance.now() - start;
  return [took, took];
}"""
#: What a reader's browser may hold already (the HTTP cache), so the timings are of the CPU
#: work alone: the site's server here compresses each response as it goes, which a phone's
#: transfer from GitHub Pages would not cost its CPU.
WARM = """async (url) => { await (await fetch(url)).arrayBuffer(); }"""
#: One more key in a field already loaded: script, style and layout of the new list.
KEY = """(args) => {
  const [selector, extra] = args;
  const input = document.querySelector(selector);
  const start = performance.now();
  input.value += extra;
  input.dispatchEvent(new Event("input", {bubbles: true}));
  document.body.offsetHeight;
  return performance.now() - start;
}"""


def best(func: Any, runs: int) -> tuple[float, Any]:
    """Return the fastest of ``runs`` calls, in seconds, and the last call's result."""
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), result


def index_figures(root: Path, repeat: int) -> dict[str, float]:
    """Time laying out the pages and building the index; return the times and the bytes."""
    from ddl_catalog import resources, settings
    from ddl_catalog.model.build import open_catalog
    from ddl_catalog.render.search_index import render_index
    from ddl_catalog.render.site_pages import PageBuilder

    catalog = open_catalog(root)
    options = settings.of(catalog)
    templates = resources.site_templates((root / options.site_templates).resolve())

    def lay_out() -> Any:
        return PageBuilder(catalog, templates, edit_base="").build()

    layout_s, layout = best(lay_out, repeat)
    index_s, files = best(lambda: render_index(catalog, layout, root / "docs"), repeat)
    found: dict[str, float] = {"entries": len(catalog), "layout_s": layout_s, "index_s": index_s}
    for uri, text in files.items():
        raw = text.encode("utf-8")
        name = uri.rsplit("/", 1)[-1]
        found[f"{name} raw"] = len(raw)
        found[f"{name} gzip"] = len(gzip.compress(raw, compresslevel=6, mtime=0))
    return found


def browser_figures(site: Path, runs: int) -> dict[str, float]:
    """Time search's and Explore's first result and next key, CPU slowed 4 times, 390 px."""
    from playwright.sync_api import sync_playwright

    found: dict[str, list[float]] = {}
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=find_chromium(), args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        for _ in range(runs):
            for side in ("search", "explore"):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                page = context.new_page()
                path = "data-format/" if side == "search" else "explore/"
                page.goto(base + path, wait_until="networkidle")
                if side == "explore":
                    page.locator("#ddl-explore[data-ready='true']").wait_for(timeout=60_000)
                for url in (
                    ("../search/entries.json", "../search/text.json")
                    if side == "search"
                    else ("text.json",)
                ):
                    page.evaluate(WARM, url)
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
                if side == "search":
                    first, every = page.evaluate(SEARCH_FIRST, QUERY)
                    key = page.evaluate(KEY, ["#ddl-search__input", " p"])
                else:
                    first, every = page.evaluate(EXPLORE_FIRST, QUERY)
                    key = page.evaluate(KEY, ["form.ddl-filters input[name='text']", " p"])
                found.setdefault(f"{side} first", []).append(first)
                found.setdefault(f"{side} every", []).append(every)
                found.setdefault(f"{side} key", []).append(key)
                context.close()
        browser.close()
    return {name: statistics.median(values) for name, values in found.items()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="real,2000,5000", help="entry counts (real: as is)")
    parser.add_argument("--browser-at", type=int, default=5000, help="size timed in Chromium")
    parser.add_argument("--repeat", type=int, default=3, help="index builds per size (fastest)")
    parser.add_argument("--runs", type=int, default=3, help="page loads per side (median)")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "bench-search")
    args = parser.parse_args(argv)
    rows: list[dict[str, float]] = []
    sites: dict[int, Path] = {}
    for size in args.sizes.split(","):
        if size.strip() == "real":
            root = REPO
        else:
            root = args.out / f"n{size.strip()}" / "catalog"
            grow(root, int(size))
        figures = index_figures(root, args.repeat)
        rows.append(figures)
        if args.browser_at and int(figures["entries"]) == args.browser_at:
            sites[args.browser_at] = root
    print(
        "| entries | lay out pages | build index | index / lay out "
        "| entries.json KB (gzip) | text.json KB (gzip) |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['entries']:,.0f} | {r['layout_s'] * 1000:.0f} ms | {r['index_s'] * 1000:.0f} ms "
            f"| {r['index_s'] / r['layout_s']:.2f} "
            f"| {r['entries.json raw'] / 1024:.0f} ({r['entries.json gzip'] / 1024:.0f}) "
            f"| {r['text.json raw'] / 1024:.0f} ({r['text.json gzip'] / 1024:.0f}) |"
        )
    if args.browser_at:
        if args.browser_at not in sites:
            print(f"\n(no size of {args.browser_at} entries: the browser timing is skipped)")
            return 0
        from ddl_catalog.render.site import build_site

        root = sites[args.browser_at]
        site = build_site(root, site_dir=args.out / f"site-{args.browser_at}", engine="mkdocs")
        t = browser_figures(site, args.runs)
        print(
            f"\nAt {args.browser_at:,} entries, Chromium at 390 px with its CPU slowed "
            f"{THROTTLE}x (median of {args.runs} page loads each), query {QUERY!r}:\n"
        )
        print("| | search | Explore's text filter (baseline) | ratio |")
        print("|---|---:|---:|---:|")
        for label, key in (
            ("first results (data read on first use)", "first"),
            ("every result (descriptions searched too)", "every"),
            ("one more key", "key"),
        ):
            ours, base = t[f"search {key}"], t[f"explore {key}"]
            print(f"| {label} | {ours:.0f} ms | {base:.0f} ms | {ours / base:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
