"""Run every benchmark (benchmarks/bench_*.py) and print their tables: `make bench`.

.venv/bin/python benchmarks/run.py [NAME ...]     e.g. run.py validate site
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).parent


def main(argv: list[str]) -> int:
    chosen = set(argv)
    status = 0
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if chosen and name not in chosen:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"\n# {name}\n", flush=True)
        status |= int(module.main([]) or 0)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
