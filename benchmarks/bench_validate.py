"""Benchmark `validate` against a lower bound, on synthetic catalogs of 1k, 20k and 100k entries.

Lower bound: what any validator must at least do — parse every file with libyaml's CSafeLoader
and run one compiled (fastjsonschema) schema check per entry. Ours also keeps positions, refuses
tags/anchors/duplicate keys and runs every catalog rule. Each measurement runs in a fresh
process, so peak RSS is that measurement's own.

The start-up table runs whole commands on the real catalog: `python -c "import yaml"` (the
baseline), the floor any click + PyYAML validator pays (the two imports, then loading every
entry file with CSafeLoader and checking nothing), and `ddl-catalog validate` with and without
entries.

    .venv/bin/python benchmarks/bench_validate.py [--sizes 1000,20000,100000]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KINDS = [("paper", "papers"), ("framework", "frameworks"), ("article", "articles")]
CATEGORIES = ["data-parallelism", "model-parallelism", "synchronous", "asynchronous", "surveys"]

ENTRY = """\
# yaml-language-server: $schema=../../src/ddl_catalog/schema/entry.schema.json
id: {id}
kind: {kind}
title: "Synthetic Resource Number {n}: Scaling Training"
url: https://example.org/{folder}/{n}
description: Synthetic entry {n} used to measure how fast the catalog validates at scale.
categories: [{cat1}, {cat2}]
tags: [gpu, sgd]
authors: [Ada Lovelace, Alan Turing, Grace Hopper]
year: {year}
venue: NeurIPS
identifiers:
  arxiv: "{arxiv}"
links:
  - type: code
    url: https://github.com/example/repo{n}
added: "2026-11-22"
"""

LOWER_BOUND = """
import json, resource, sys, time
from pathlib import Path
import fastjsonschema, yaml
from ddl_catalog.schema import validators
root = Path(sys.argv[1])
start = time.perf_counter()
check = fastjsonschema.compile(validators.schema("entry"))
for path in sorted((root / "data").glob("*/*.yml")):
    check(yaml.load(path.read_text("utf-8"), Loader=yaml.CSafeLoader))
elapsed = time.perf_counter() - start
rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": elapsed, "rss_mb": rss_mb}))
"""

#: The start-up floor: load every entry file of a catalog with CSafeLoader and check nothing.
PARSE_ONLY = """
import sys, yaml, click
from pathlib import Path
for path in sorted(Path(sys.argv[1]).glob("data/*/*.yml")):
    yaml.load(path.read_text("utf-8"), Loader=yaml.CSafeLoader)
"""

OURS = """
import json, resource, sys, time
from pathlib import Path
from ddl_catalog.validate import validate
root = Path(sys.argv[1])
start = time.perf_counter()
report = validate(root)
elapsed = time.perf_counter() - start
assert not report.errors, report.errors[:3]
rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": elapsed, "rss_mb": rss_mb}))
"""


def make_catalog(root: Path, size: int) -> None:
    """Write a deterministic synthetic catalog of ``size`` entries under root."""
    (root / "data").mkdir(parents=True)
    for name in ("categories.yml", "tags.yml"):
        shutil.copy(ROOT / "data" / name, root / "data" / name)
    for _kind, folder in KINDS:
        (root / "data" / folder).mkdir()
    for n in range(size):
        kind, folder = KINDS[n % len(KINDS)]
        entry_id = f"synthetic{n}"
        text = ENTRY.format(
            id=entry_id,
            kind=kind,
            folder=folder,
            n=n,
            cat1=CATEGORIES[n % 5],
            cat2=CATEGORIES[(n + 1) % 5],
            year=1990 + n % 35,
            arxiv=f"{1000 + n // 100000:04d}.{n % 100000:05d}",
        )
        (root / "data" / folder / f"{entry_id}.yml").write_text(text, encoding="utf-8")


def warm(root: Path) -> None:
    """Read every file once, so neither side pays for a cold page cache."""
    for path in (root / "data").glob("*/*.yml"):
        path.read_bytes()


def measure(scripts: dict[str, str], root: Path, repeat: int) -> dict[str, dict[str, float]]:
    """Run each measurement script ``repeat`` times in fresh processes, interleaved.

    The page cache is warmed before every run (this machine's memory management drops file
    pages that stay idle), so each run starts from the same state; returns, per script, the
    median time and the largest peak RSS.
    """
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in scripts}
    for _ in range(repeat):
        for name, script in scripts.items():
            warm(root)
            out = subprocess.run(
                [sys.executable, "-c", script, str(root)],
                capture_output=True,
                text=True,
                check=True,
            )
            runs[name].append(json.loads(out.stdout))
    return {
        name: {
            "seconds": statistics.median(r["seconds"] for r in found),
            "rss_mb": max(r["rss_mb"] for r in found),
        }
        for name, found in runs.items()
    }


def startup(
    commands: dict[str, list[str]], repeat: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Return the wall and CPU times of whole commands, run in turn ``repeat`` times.

    Runs are interleaved (a, b, c, a, b, c ...) so that a slow spell of a shared machine hits
    every command alike. CPU time (user + system of the child) is less disturbed by other
    processes than wall time, so both are kept.
    """
    import resource
    import time

    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, check=False, cwd=ROOT)
            wall[name].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def startup_table(repeat: int) -> float:
    """Print the start-up table of `ddl-catalog validate`; return its ratio to the baseline."""
    bindir = Path(sys.executable).parent
    # An installed package carries bytecode (pip compiles it); the editable src/ may not, when
    # PYTHONDONTWRITEBYTECODE is set. Compile it so start-up is measured as users get it.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "src")], check=True)
    entries = len(list((ROOT / "data").glob("*/*.yml")))
    baseline = "python -c 'import yaml' (baseline)"
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp)
        make_catalog(empty, 0)  # the fixed cost: the same command with no entry to check
        commands = {
            baseline: [sys.executable, "-c", "import yaml"],
            # What any click + PyYAML validator of this catalog pays before checking anything:
            # the two imports, and then parsing every entry file with libyaml's CSafeLoader.
            "python -c 'import yaml, click' (floor)": [sys.executable, "-c", "import yaml, click"],
            "CSafeLoader load of the same files, no checks (floor)": [
                sys.executable,
                "-c",
                PARSE_ONLY,
                str(ROOT),
            ],
            "ddl-catalog validate": [str(bindir / "ddl-catalog"), "validate"],
            "python -m ddl_catalog validate": [sys.executable, "-m", "ddl_catalog", "validate"],
            "ddl-catalog validate, no entries": [
                str(bindir / "ddl-catalog"),
                "validate",
                "--root",
                str(empty),
            ],
        }
        wall, cpu = startup(commands, repeat)
    base, base_cpu = wall[baseline], cpu[baseline]
    print(
        f"## start-up on the real catalog ({entries} entries; {repeat} rounds, commands "
        "interleaved)"
    )
    print()
    print(
        "| command | min ms | median ms | ratio: median of rounds | ratio: min / min "
        "| CPU median ms | ratio: CPU median |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    ratios = {}
    for name, runs in wall.items():
        # Each round runs the baseline and then the command, so the two meet the same state
        # of a shared machine; the median over rounds discards the rounds a slow spell spoilt.
        ratios[name] = statistics.median(run / b for run, b in zip(runs, base, strict=True))
        cpu_median = statistics.median(cpu[name])
        print(
            f"| {name} | {min(runs) * 1000:.1f} | {statistics.median(runs) * 1000:.1f} | "
            f"{ratios[name]:.2f} | {min(runs) / min(base):.2f} | {cpu_median * 1000:.1f} | "
            f"{cpu_median / statistics.median(base_cpu):.2f} |"
        )
    print()
    print(
        f"- `ddl-catalog validate` start-up: {ratios['ddl-catalog validate']:.2f}x "
        f"`python -c 'import yaml'` (target <= 3); with no entries to check: "
        f"{ratios['ddl-catalog validate, no entries']:.2f}x; importing yaml and click and "
        "loading the same files with CSafeLoader, checking nothing: "
        f"{ratios['CSafeLoader load of the same files, no checks (floor)']:.2f}x"
    )
    return ratios["ddl-catalog validate"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,20000,100000")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--startup-repeat", type=int, default=31, help="runs of each start-up command"
    )
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]  # --sizes "" : start-up table only
    print("## validate: synthetic catalogs (median of", args.repeat, "run(s), fresh process each)")
    print()
    print("| entries | lower bound s | validate s | ratio | peak RSS MB | lower-bound RSS MB |")
    print("|---:|---:|---:|---:|---:|---:|")
    results: dict[int, dict[str, float]] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_catalog(root, size)
            found = measure({"low": LOWER_BOUND, "ours": OURS}, root, args.repeat)
            low, ours = found["low"], found["ours"]
        ratio = ours["seconds"] / low["seconds"]
        results[size] = {**ours, "ratio": ratio, "low": low["seconds"]}
        print(
            f"| {size:,} | {low['seconds']:.2f} | {ours['seconds']:.2f} | {ratio:.2f} | "
            f"{ours['rss_mb']:.0f} | {low['rss_mb']:.0f} |"
        )
    print()
    if 20000 in results and 100000 in results:
        linear = results[100000]["seconds"] / results[20000]["seconds"]
        base = results[100000]["low"] / results[20000]["low"]
        print(
            f"- 100k / 20k time: {linear:.2f} (target <= 5.5); the lower bound's own 100k / 20k "
            f"in the same run: {base:.2f}, so ours grows {linear / base:.2f}x as fast as it"
        )
    if 20000 in results:
        print(f"- ratio at 20k: {results[20000]['ratio']:.2f} (target <= 1.5)")
        print(f"- peak RSS at 20k: {results[20000]['rss_mb']:.0f} MB (target <= 250)")
    print()
    startup_table(args.startup_repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
