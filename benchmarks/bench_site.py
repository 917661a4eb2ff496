"""Benchmark the website build: the real catalog and synthetic 2k (and 20k) entry catalogs.

Baseline, measured in the same run: a bare mkdocs-material build (same theme features, search
plugin, no ddl-catalog plugin) of equivalent flat Markdown: one page per top-level category
with every entry as a ``###`` heading and its description. Ours: the full site through the
ddl-catalog plugin (cards, kind and year pages, Explore index, tags). The catalog is handed to
the plugin in memory, so YAML loading and validation are not timed (bench_validate covers them)
and the exports hook is switched off (bench_export covers it). The table shows both build times,
their ratio, what our generation adds in per cent (target: at most 20 % at 20k), the number of
HTML pages and the largest generated page (target: about 1 MB at most). With ``--repeat N``
each build runs N times and the fastest run counts, for both sides alike (the machine may be
shared).

The baseline holds each entry's title and description only, not its authors, links or tags,
so it is lighter than the cards: the ratio errs against us, never for us.

    .venv/bin/python benchmarks/bench_site.py [--sizes real,2000[,20000]] [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from ddl_catalog.model import KIND_FOLDERS, Catalog, Entry, Link, Related
from ddl_catalog.model.build import open_catalog
from ddl_catalog.render import site

ROOT = Path(__file__).resolve().parents[1]
KINDS = list(KIND_FOLDERS)

BARE_CONFIG = """\
site_name: Bare
site_url: https://example.org/
theme:
  name: material
  font: false
  features: [navigation.tabs, navigation.sections, navigation.instant, search.suggest,
             search.highlight]
plugins: [search]
markdown_extensions: [attr_list, toc]
"""


def synthetic(size: int) -> Catalog:
    real = open_catalog(ROOT)
    categories, tags = dict(real.categories), dict(real.tags)
    ids = list(categories)
    tag_ids = sorted(tags)
    rng = random.Random(size)
    entries = []
    for n in range(size):
        kind = "paper" if n % 2 else KINDS[n % len(KINDS)]
        entries.append(
            Entry(
                id=f"entry-{n:06d}",
                kind=kind,
                title=f"Scaling Deep Network Training Across Many Accelerators, Part {n}",
                url=f"https://example.org/resources/{n:06d}/scaling-deep-network-training",
                description=(
                    "A synthetic resource whose description is as long as a real one may be, to "
                    f"measure how fast the website builds, number {n}."
                ),
                categories=tuple(rng.sample(ids, 1 + n % 2)),
                source=f"data/{KIND_FOLDERS[kind]}/entry-{n:06d}.yml",
                tags=tuple(rng.sample(tag_ids, 2)),
                authors=("Ada Lovelace", "Grace Hopper", "Alan Turing"),
                year=2000 + n % 25,
                venue="NeurIPS" if kind == "paper" else None,
                links=(Link("code", f"https://github.com/example/code-{n:06d}"),),
                related=(Related(f"entry-{n - 1:06d}", "see-also"),) if n % 10 == 1 else (),
                added="2026-11-22",
            )
        )
    return Catalog(root=ROOT, entries=tuple(entries), categories=categories, tags=tags)


def bare_build(catalog: Catalog, work: Path) -> float:
    """Build the flat-Markdown equivalent with plain mkdocs-material; return seconds."""
    root = work / "bare"
    shutil.rmtree(root, ignore_errors=True)
    docs = root / "docs"
    docs.mkdir(parents=True)
    (root / "mkdocs.yml").write_text(BARE_CONFIG, encoding="utf-8")
    (docs / "index.md").write_text("# Bare\n\nHome.\n", encoding="utf-8")
    for top in catalog.top_categories():
        lines = [f"# {top.title}\n"]
        for cat in [top.id, *top.children]:
            for entry in catalog.in_category(cat, primary=True):
                lines.append(f"### {entry.title} {{ #{entry.id} }}\n\n{entry.description}\n")
        (docs / f"{top.id}.md").write_text("\n".join(lines), encoding="utf-8")
    config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
    start = time.perf_counter()
    build(config)
    return time.perf_counter() - start


def our_build(catalog: Catalog, work: Path) -> tuple[float, int, int]:
    """Build the real site for this catalog; return seconds, page count and max page bytes."""
    root = work / "ours"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copytree(ROOT / "templates" / "site", root / "templates" / "site")
    site.open_catalog = lambda _root: catalog  # type: ignore[attr-defined,assignment]
    site.export_hook = lambda: None
    start = time.perf_counter()
    out = site.build_site(root, site_dir=root / "site")
    took = time.perf_counter() - start
    pages = list(out.rglob("*.html"))
    return took, len(pages), max(p.stat().st_size for p in pages)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="real,2000", help="comma-separated: real and counts")
    parser.add_argument("--repeat", type=int, default=1, help="runs per build; the fastest counts")
    args = parser.parse_args(argv)
    print(
        f"{'entries':>8} {'bare s':>8} {'ours s':>8} {'ratio':>6} {'adds':>7} "
        f"{'pages':>6} {'max page KB':>12}"
    )
    for size in args.sizes.split(","):
        catalog = open_catalog(ROOT) if size == "real" else synthetic(int(size))
        with tempfile.TemporaryDirectory(prefix="bench-site-") as tmp:
            work = Path(tmp)
            bare = min(bare_build(catalog, work) for _ in range(max(1, args.repeat)))
            runs = [our_build(catalog, work) for _ in range(max(1, args.repeat))]
            ours, pages, biggest = min(runs)
        print(
            f"{len(catalog):>8} {bare:>8.2f} {ours:>8.2f} {ours / bare:>6.2f} "
            f"{(ours / bare - 1) * 100:>6.0f}% {pages:>6} {biggest / 1024:>12.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
