"""Benchmark README rendering on synthetic in-memory catalogs (150, 1k and 5k entries).

Baseline, measured in the same run: joining one ``- [title](url) - description`` line per
entry with an f-string, the least any README renderer must do. The table shows the render time,
its ratio to the baseline, the README's size and how many sections were shortened to keep it
under GitHub's 512 KB limit. The catalog is built in memory over the live category tree (no
YAML, no validation), so only rendering is timed; best of three runs.

    .venv/bin/python benchmarks/bench_readme.py [--sizes 150,1000,5000]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from pathlib import Path

from _timing import best
from ddl_catalog.model import Catalog, Entry, Link
from ddl_catalog.model.build import open_catalog
from ddl_catalog.render import readme

ROOT = Path(__file__).resolve().parents[1]


def synthetic(size: int) -> Catalog:
    real = open_catalog(ROOT)
    ids = list(real.categories)
    rng = random.Random(size)
    entries = tuple(
        Entry(
            id=f"entry-{n:06d}",
            kind="paper" if n % 3 else "library",
            title=f"Scaling Deep Network Training Across Many Accelerators, Part {n}",
            url=f"https://example.org/resources/{n:06d}/scaling-deep-network-training",
            description=(
                "A synthetic resource whose description is as long as a real one may be, to "
                f"measure how fast the README renders, number {n}."
            ),
            categories=tuple(rng.sample(ids, 1 + n % 3)),
            source=f"data/papers/entry-{n:06d}.yml",
            authors=("Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"),
            year=2000 + n % 25,
            venue="NeurIPS",
            links=(Link("code", f"https://github.com/example/code-{n:06d}"),),
        )
        for n in range(size)
    )
    return dataclasses.replace(real, entries=entries)  # the live tree and tags, other entries


def baseline(catalog: Catalog) -> str:
    return "\n".join(f"- [{e.title}]({e.url}) - {e.description}" for e in catalog.entries)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="150,1000,5000")
    args = parser.parse_args(argv)
    print(
        f"{'entries':>8} {'baseline ms':>12} {'render ms':>10} {'ratio':>7} "
        f"{'README KB':>10} {'shortened':>10}"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        catalog = synthetic(size)
        base = best(lambda c=catalog: baseline(c))
        text = readme.render(catalog)
        took = best(lambda c=catalog: readme.render(c))
        shortened = text.count("\nShortened to keep this page")
        print(
            f"{size:>8} {base * 1000:>12.2f} {took * 1000:>10.1f} {took / base:>7.0f} "
            f"{len(text.encode()) / 1024:>10.0f} {shortened:>10}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
