"""Benchmark the website build with each engine: the real catalog and grown ones (2k, 5k, 20k).

Ours: ``build_site`` as ``ddl-catalog site`` runs it, on a copy of this catalog grown to N
entries by ``bench_site_scale.grow`` (the real entries, then variants of them: each a file of
its own, so loading and validating them is part of the build); ``real`` is the catalog as it
is. The time is split into its three steps: load (read and validate data/), stage (render every
page, the nav and the exports into the staging folder) and engine (MkDocs or Zensical turning
that folder into HTML).

Baseline, measured in the same run: a bare build by the same engine of as many plain Markdown
pages as ours made, with the same theme and features and the engine's own search, and nothing
of ddl-catalog: the catalog's entries shared out evenly among those pages, each entry a ``###``
heading with its id and its description. The bare pages hold each entry's title and description
only, not its authors, links, tags or facts, so they are lighter than the cards: the ratio errs
against us, never for us.

Each build runs in a fresh process, so its peak memory is its own: the table gives the largest
resident set of the build's process plus that of its largest subprocess (Zensical's build is a
Rust runtime started as ``python -m zensical``; MkDocs builds in process, so its subprocess part
is 0), an upper bound of what the build held at once; and the CPU time of both processes, which
a shared machine disturbs less than the wall time. With ``--repeat N`` each build runs N times
and the fastest counts, for both sides alike.

    .venv/bin/python benchmarks/bench_site.py [--sizes real,2000[,5000,20000]]
        [--engines mkdocs,zensical] [--repeat N]

The table is printed and written to build/bench-site/table.md.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench_site_scale import grow

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "bench-site"
ENGINES = ("mkdocs", "zensical")

BARE_CONFIG = """\
site_name: Bare
site_url: https://example.org/bare/
theme:
  name: material
  font: false
  language: en
  features: [navigation.tabs, navigation.prune, navigation.top, search.suggest, search.highlight]
plugins: [search]
markdown_extensions: [attr_list, {toc: {permalink: true}}]
"""


# -- in the measuring child process ----------------------------------------------------------


def _usage() -> dict[str, float]:
    """Return this process's and its largest subprocess's peak RSS (MB), and their CPU time."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "own_mb": own.ru_maxrss / 1024,
        "child_mb": children.ru_maxrss / 1024,
        "cpu": own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime,
    }


def measure_ours(root: Path, site_dir: Path, engine: str) -> dict[str, Any]:
    """Build the catalog at ``root`` with ``build_site``; return times per step and the pages."""
    from ddl_catalog.render import engines, site

    steps: dict[str, float] = {"load": 0.0, "stage": 0.0, "engine": 0.0}

    def timed(step: str, func: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                steps[step] += time.perf_counter() - start

        return run

    site.open_site_catalog = timed("load", site.open_site_catalog)
    site.stage = timed("stage", site.stage)
    engines.Engine.build = timed("engine", engines.Engine.build)  # type: ignore[method-assign]
    start = time.perf_counter()
    built = site.build_site(root, site_dir=site_dir, engine=engine)
    total = time.perf_counter() - start
    pages = list(built.rglob("*.html"))
    return {
        "total": total,
        **steps,
        "pages": len(pages),
        "largest_kb": max(p.stat().st_size for p in pages) / 1024,
    }


def measure_bare(root: Path, engine: str) -> dict[str, Any]:
    """Build the bare site at ``root`` (its mkdocs.yml, its docs/) with the engine alone."""
    from ddl_catalog.render import engines

    start = time.perf_counter()
    engines.get(engine).build(root / "mkdocs.yml", strict=False, env={"NO_MKDOCS_2_WARNING": "1"})
    total = time.perf_counter() - start
    return {"total": total, "pages": len(list((root / "site").rglob("*.html")))}


def child(argv: list[str]) -> int:
    """``--child ours|bare ENGINE ROOT [SITE]``: build once, print the figures as JSON."""
    kind, engine, root = argv[0], argv[1], Path(argv[2])
    if kind == "ours":
        found = measure_ours(root, Path(argv[3]), engine)
    else:
        found = measure_bare(root, engine)
    found.update(_usage())
    print(json.dumps(found))
    return 0


# -- in the parent ---------------------------------------------------------------------------


def run_child(*args: str) -> dict[str, Any]:
    """Run one measured build in a fresh process; return its figures."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args],
        check=True,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def write_bare(catalog_root: Path, work: Path, pages: int) -> int:
    """Write a bare site of ``pages`` plain pages holding the catalog's entries; return entries."""
    from ddl_catalog.model.build import open_catalog

    catalog = open_catalog(catalog_root)
    shutil.rmtree(work, ignore_errors=True)
    docs = work / "docs"
    docs.mkdir(parents=True)
    (work / "mkdocs.yml").write_text(BARE_CONFIG, encoding="utf-8")
    (docs / "index.md").write_text("# Bare\n\nA plain site of the same size.\n", encoding="utf-8")
    entries = list(catalog)
    count = max(1, pages - 2)  # the home page and 404.html are two of them
    for n in range(count):
        share = entries[n * len(entries) // count : (n + 1) * len(entries) // count]
        lines = [f"# Page {n + 1}\n"]
        lines += [f"### {e.title} {{ #{e.id} }}\n\n{e.description}\n" for e in share]
        folder = docs / f"part-{n // 100:03d}"
        folder.mkdir(exist_ok=True)
        (folder / f"page-{n:05d}.md").write_text("\n".join(lines), encoding="utf-8")
    return len(entries)


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the fastest run (its memory figures with it)."""
    return min(runs, key=lambda r: float(r["total"]))


def peak(run: dict[str, Any]) -> float:
    """Return a run's peak: its process plus its largest subprocess."""
    return float(run["own_mb"]) + float(run["child_mb"])


HEAD = (
    "| Entries | Engine | Pages | Load s | Stage s | Engine s | Ours s (CPU) | Bare s (CPU) | "
    "Ours/bare | Ours/bare CPU | Engine/bare | Ours MB | Bare MB | Ours/bare MB | "
    "Largest page KB |\n"
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def row(entries: int, engine: str, ours: dict[str, Any], bare: dict[str, Any]) -> str:
    """Return one table row."""
    return (
        f"| {entries:,} | {engine} | {ours['pages']} | {ours['load']:.1f} | {ours['stage']:.1f} | "
        f"{ours['engine']:.1f} | {ours['total']:.1f} ({ours['cpu']:.1f}) | "
        f"{bare['total']:.1f} ({bare['cpu']:.1f}) | "
        f"{ours['total'] / bare['total']:.2f} | {ours['cpu'] / bare['cpu']:.2f} | "
        f"{ours['engine'] / bare['total']:.2f} | "
        f"{peak(ours):.0f} ({ours['own_mb']:.0f}+{ours['child_mb']:.0f}) | "
        f"{peak(bare):.0f} ({bare['own_mb']:.0f}+{bare['child_mb']:.0f}) | "
        f"{peak(ours) / peak(bare):.2f} | {ours['largest_kb']:.0f} |"
    )


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        return child(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="real,2000", help="comma-separated: real and counts")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated engines")
    parser.add_argument("--repeat", type=int, default=1, help="runs per build; the fastest counts")
    parser.add_argument("--out", type=Path, default=OUT, help="work folder and table.md")
    args = parser.parse_args(argv)
    chosen = [e for e in args.engines.split(",") if e]
    lines = [
        "# Site build time and peak memory per engine, beside a bare build of as many pages",
        "",
        "Seconds of wall time (fastest of the runs), with the CPU time of the build's processes; "
        "MB: peak resident set of the build's process + that of its largest subprocess (the "
        "Zensical engine).",
        "",
        HEAD,
    ]
    print("\n".join(lines), flush=True)
    for size in args.sizes.split(","):
        work = args.out / f"n{size}"
        catalog = work / "catalog"
        started = time.perf_counter()
        grow(catalog, 0 if size == "real" else int(size))  # below the real size: as it is
        for engine in chosen:
            ours = best(
                [
                    run_child("ours", engine, str(catalog), str(work / f"site-{engine}"))
                    for _ in range(max(1, args.repeat))
                ]
            )
            bare_root = work / f"bare-{engine}"
            entries = write_bare(catalog, bare_root, ours["pages"])
            bare = best(
                [run_child("bare", engine, str(bare_root)) for _ in range(max(1, args.repeat))]
            )
            lines.append(row(entries, engine, ours, bare))
            print(lines[-1], flush=True)
            shutil.rmtree(work / f"site-{engine}", ignore_errors=True)
            shutil.rmtree(bare_root, ignore_errors=True)
        took = time.perf_counter() - started
        print(f"(size {size}: {took / 60:.1f} minutes for every build)", file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "table.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
