"""Run every benchmark (benchmarks/bench_*.py) and print their tables: `make bench`.

Each script runs in its own process, so one benchmark's memory and imports do not colour the
next one's figures.

    .venv/bin/python benchmarks/run.py [NAME ...]     e.g. run.py validate site

bench_site_scale.py (Lighthouse at 500-5,000 entries, minutes) and bench_search.py (a site of
5,000 entries built and timed in Chromium) run only when named.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
#: Run only when named: Lighthouse on grown catalogs takes minutes (`make bench-site`), and so
#: does building the site of 5,000 entries that search is timed on.
SLOW = {"site_scale", "search"}


def main(argv: list[str]) -> int:
    chosen = set(argv)
    status = 0
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if (chosen and name not in chosen) or (not chosen and name in SLOW):
            continue
        print(f"\n# {name}\n", flush=True)
        status |= subprocess.run([sys.executable, str(path)], check=False).returncode
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
