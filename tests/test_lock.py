"""The committed lock: every Python package pinned with hashes, in step with pyproject.toml."""

from __future__ import annotations

import os
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parent.parent
LOCK = REPO / "requirements" / "dev.txt"
#: One pinned requirement of the lock: name==version, an optional marker, then its hashes.
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+?)(?:\s*;\s*(.+?))?\s*\\$")


def pins() -> list[tuple[str, str, str | None, list[str]]]:
    """Return (name, version, marker, hashes) for every requirement of the lock."""
    found: list[tuple[str, str, str | None, list[str]]] = []
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if match := PIN.match(line):
            found.append((canonicalize_name(match[1]), match[2], match[3], []))
        elif line.strip().startswith("--hash=sha256:"):
            found[-1][3].append(line.strip().removeprefix("--hash=sha256:").rstrip(" \\"))
    return found


def applies(marker: str | None) -> bool:
    """Say whether a lock line's marker holds for the Python running the tests."""
    return marker is None or Marker(marker).evaluate()


def declared() -> list[Requirement]:
    """Return the project's dependencies and its dev extra, as pyproject.toml states them."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [
        Requirement(r) for r in [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    ]


def test_every_package_is_pinned_with_hashes() -> None:
    locked = pins()
    assert len(locked) > 40
    for name, version, _marker, hashes in locked:
        assert hashes, f"{name}=={version} has no hash"
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), name
    requirement_lines = [
        line for line in LOCK.read_text().splitlines() if re.match("[A-Za-z]", line)
    ]
    assert len(requirement_lines) == len(locked), "a requirement of the lock is not name==version"


def test_every_declared_dependency_is_locked_within_its_range() -> None:
    locked = {(name, version) for name, version, marker, _ in pins() if applies(marker)}
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        versions = [version for locked_name, version in locked if locked_name == name]
        assert versions, f"{requirement} is declared in pyproject.toml but not in the lock"
        assert all(requirement.specifier.contains(v, prereleases=True) for v in versions), (
            f"the lock has {name} {versions}, outside {requirement.specifier}: run make lock"
        )


def test_the_lock_pins_the_installer_too() -> None:
    assert "pip" in {name for name, *_ in pins()}


def test_make_installs_from_the_lock_with_hashes_and_nothing_else() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "LOCK := requirements/dev.txt" in makefile
    stamp = re.search(r"^\$\(STAMP\):.*\n((?:\t.*\n)+)", makefile, re.M)
    assert stamp and "scripts/make-venv $(PYTHON) $(LOCK)" in stamp[1]
    # The recipe runs scripts/make-venv, which makes .venv under a lock.
    recipe = (REPO / "scripts" / "make-venv").read_text(encoding="utf-8")
    assert '"--require-hashes", "--no-deps",' in recipe and '"-r", str(lock_file)' in recipe
    assert '"--no-deps",\n            "--no-build-isolation", "-e", "."' in recipe
    assert '"venv", "--clear"' in recipe  # a changed lock rebuilds .venv from nothing
    assert "--upgrade" not in recipe and "fcntl.LOCK_EX" in recipe
    header = LOCK.read_text(encoding="utf-8").splitlines()[1]
    lock_recipe = re.search(r"^lock:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert lock_recipe
    # The header records the command (Renovate reruns it): the one `make lock` runs.
    for flag in ("--generate-hashes", "--universal", "--python-version 3.11", "--extra dev"):
        assert flag in header and flag in lock_recipe[1], flag


@pytest.mark.skipif(
    bool(os.environ.get("DDL_CATALOG_UNLOCKED")), reason="make test-latest: newest releases"
)
def test_the_running_environment_is_the_locked_one() -> None:
    wanted = {name: version for name, version, marker, _ in pins() if applies(marker)}
    installed = {
        canonicalize_name(dist.metadata["Name"]): dist.version for dist in metadata.distributions()
    }
    installed.pop("ddl-catalog", None)
    differ = {n: (v, wanted.get(n)) for n, v in installed.items() if wanted.get(n) != v}
    assert not differ, f"installed (version, locked): {differ}; run make venv"


def test_two_makes_at_once_build_the_environment_once(tmp_path: Path) -> None:
    """scripts/make-venv holds a lock: the second run waits, then finds .venv made."""
    import subprocess
    import sys

    work = tmp_path / "proj"
    work.mkdir()
    (work / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    lock = work / "lock.txt"
    lock.write_text("", encoding="utf-8")
    stamp = work / ".venv" / ".installed"
    stamp.parent.mkdir()
    stamp.touch()  # made after the inputs: up to date
    import fcntl

    with open(work / ".venv.lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a first run is still making it
        waiting = subprocess.Popen(
            [sys.executable, str(REPO / "scripts" / "make-venv"), sys.executable, str(lock)],
            cwd=work,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            waiting.wait(timeout=1)
            raise AssertionError("the second run did not wait for the lock")
        except subprocess.TimeoutExpired:
            pass
    out, _ = waiting.communicate(timeout=30)
    assert waiting.returncode == 0 and "made by another run meanwhile" in out
