"""Benchmark `ddl-catalog import` on hostile lists: time must grow linearly with the file.

Each pattern fills a list of a given size with lines just under the importer's line limit
(MAX_LINE): runs of '[' in a bullet and in a table cell, opening <summary> tags without a
closing one, opening <a href> tags without one. The baseline is an ordinary list of the same
size (one link per bullet). For each size the table prints the seconds and the ratio to the
baseline at that size; a linear importer keeps the ratio flat as the size doubles (a quadratic
step would double it). Lines past MAX_LINE are refused outright (tests/test_import_bad.py).

    .venv/bin/python benchmarks/bench_import.py [--sizes 64,128,256] (KiB)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _timing import best
from ddl_catalog.importer import markdown
from ddl_catalog.importer.markdown import MAX_LINE, parse_list

LINE = MAX_LINE - 64


def _fill(head: str, make: Callable[[int], str], size: int) -> str:
    lines, total, n = [head], len(head), 0
    while total < size:
        line = make(n) + "\n"
        lines.append(line)
        total += len(line)
        n += 1
    lines.append("\n- [Last](https://last.example/) - An ordinary item, so the list has one.\n")
    return "".join(lines)


PATTERNS: dict[str, Callable[[int], str]] = {
    "ordinary list (baseline)": lambda n: f"- [Tool {n}](https://t{n}.example/) - A tool.",
    "brackets in a bullet": lambda n: "- " + "[" * LINE,
    "brackets in a table cell": lambda n: "| " + "[" * LINE + " | x |",
    "unclosed <summary> tags": lambda n: "<summary>" * (LINE // 9),
    "unclosed <a href> tags": lambda n: "<li>" + '<a href="https://x.example/">' * (LINE // 30),
}
HEADS = {
    "brackets in a table cell": "# L\n\n## S\n\n| a | b |\n|---|---|\n",
    "unclosed <summary> tags": "# L\n\n## S\n\n<details>\n",
    "unclosed <a href> tags": "# L\n\n## S\n\n<ul>\n",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,128,256", help="file sizes in KiB")
    args = parser.parse_args()
    sizes = [int(s) * 1024 for s in args.sizes.split(",")]
    print(f"importer on hostile lists; lines of {LINE:,} characters (MAX_LINE {MAX_LINE:,})")
    print(f"{'pattern':28} " + " ".join(f"{s // 1024:>6} KiB  ratio" for s in sizes))
    baseline: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in PATTERNS.items():
            cells = []
            for size in sizes:
                text = _fill(HEADS.get(name, "# L\n\n## S\n\n"), make, size)
                path = Path(tmp) / "list.md"
                path.write_text(text, encoding="utf-8")

                def run(path: Path = path) -> None:
                    parse_list(markdown.read_list(path, "list.md"), "list.md")

                seconds = best(run, runs=1 if size > 128 * 1024 else 2)
                baseline.setdefault(size, seconds)
                cells.append(f"{seconds:8.2f}s {seconds / baseline[size]:5.1f}")
            print(f"{name:28} " + " ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
