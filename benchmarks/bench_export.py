"""Benchmark the exports on synthetic in-memory catalogs of 1k and 20k entries.

Baseline, measured in the same run: ``json.dumps`` of every entry's fields as a plain dict, the
least any serialisation must do. Each export's time is shown beside it as a ratio. The catalog
is built in memory (no YAML), so only the export itself is timed; best of three runs.

    .venv/bin/python benchmarks/bench_export.py [--sizes 1000,20000]
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

from _timing import best
from ddl_catalog import export
from ddl_catalog.export.json import entry_record
from ddl_catalog.model import Catalog, Category, Entry, Identifiers, Tag

VENUES = ["NeurIPS", "ACM Computing Surveys", None]


def synthetic(size: int) -> Catalog:
    cats = {
        "parallelism": Category("parallelism", "Parallelism", "Splitting work.", None, ("dp",)),
        "dp": Category("dp", "Data parallelism", "Replicas.", "parallelism"),
    }
    entries = tuple(
        Entry(
            id=f"author{n:06d}scaling",
            kind="paper" if n % 3 else "framework",
            title=f"Scaling Training of GPT-{n} with SGD & Allreduce: 100% Faster",
            url=f"https://arxiv.org/abs/2001.{n % 100000:05d}",
            description=f"Synthetic entry {n} used to measure how fast the exports run.",
            categories=("dp", "parallelism"),
            source=f"data/papers/author{n:06d}scaling.yml",
            tags=("gpu", "sgd"),
            authors=("Ada Lovelace", "Christopher De Sa", "Martín Abadi"),
            year=2000 + n % 25,
            venue=VENUES[n % 3],
            identifiers=Identifiers(arxiv=f"2001.{n % 100000:05d}", doi=f"10.1/{n}"),
            added=f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}",
        )
        for n in range(size)
    )
    tags = {"gpu": Tag("gpu", "GPUs."), "sgd": Tag("sgd", "SGD.")}
    return Catalog(root=Path("."), entries=entries, categories=cats, tags=tags)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,20000")
    args = parser.parse_args(argv)
    print("| entries | format | seconds | × baseline | bytes |")
    print("|---:|---|---:|---:|---:|")
    for size in (int(s) for s in args.sizes.split(",")):
        catalog = synthetic(size)
        base = best(lambda c=catalog: json.dumps([entry_record(e) for e in c.entries]))
        print(f"| {size} | baseline json.dumps | {base:.3f} | 1.0 | |")
        for fmt in export.FORMATS:
            text = export.render(catalog, fmt)
            took = best(partial(export.render, catalog, fmt))
            print(f"| {size} | {fmt} | {took:.3f} | {took / base:.1f} | {len(text.encode())} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
