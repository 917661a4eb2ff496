"""``ddl-catalog init DIR``: write a new catalog that validates, builds and passes awesome-lint.

The skeleton lives in the package (resources/init); dot-files are stored without their dot
(``gitignore``, ``github/``, ``pre-commit-config.yaml``) so that package data keeps them. The
catalog's own values (title, intro, addresses) go into catalog.yml, mkdocs.yml and docs/index.md;
the JSON Schemas are copied into schemas/ so that every ``$schema`` line resolves offline.
"""

from __future__ import annotations

import datetime as dt
import errno
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ddl_catalog import __version__, files, resources
from ddl_catalog.schema import validators

#: The schemas a catalog's files name in their ``$schema`` lines, copied into DIR/schemas/.
CATALOG_SCHEMAS = ("entry", "categories", "tags", "catalog")
#: Skeleton path -> path in the new catalog, for the files stored without their leading dot.
_RENAMES = {
    "gitignore": ".gitignore",
    "pre-commit-config.yaml": ".pre-commit-config.yaml",
    "github": ".github",
}
_GITHUB_REPO = re.compile(r"^https://github\.com/([^/\s]+)/([^/\s]+?)(?:\.git)?/?$")


class InitError(Exception):
    """The catalog cannot be created (the folder is not empty, a value is malformed ...)."""


@dataclass(frozen=True, slots=True)
class InitOptions:
    """What ``init`` asks for: every value has a neutral default."""

    title: str = "Awesome List"
    description: str = "A curated list of resources."
    site_url: str | None = None
    repository: str | None = None


def _check(options: InitOptions) -> None:
    """Refuse values the settings schema would refuse, with the option's name."""
    if not 3 <= len(options.title) <= 100:
        raise InitError("--title: give 3 to 100 characters")
    if not 10 <= len(" ".join(options.description.split())) <= 2000:
        raise InitError("--description: give one paragraph of 10 to 2000 characters")
    if options.site_url is not None:
        parts = urlsplit(options.site_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise InitError(f"--site-url: not an http(s) address: {options.site_url!r}")
    if options.repository is not None and not _GITHUB_REPO.match(options.repository):
        raise InitError(
            f"--repository: give the https://github.com/OWNER/NAME address: {options.repository!r}"
        )


def settings_text(options: InitOptions, *, year: int) -> str:
    """Return the catalog.yml of a new catalog (values JSON-quoted: valid YAML scalars)."""
    site = options.site_url.rstrip("/") + "/" if options.site_url else None
    authority = urlsplit(site).hostname if site else None
    if authority is None and options.repository:
        authority = "github.com"
    slug = re.sub(r"[^a-z0-9]+", "-", options.title.lower()).strip("-") or "list"
    feed_id = f"tag:{authority or 'example.org'},{year}:{slug}:"
    lines = [
        "# yaml-language-server: $schema=schemas/catalog.schema.json",
        "# This catalog's settings: its README title and intro, its addresses, its feed and the",
        "# kinds of entry it lists. `ddl-catalog validate` checks this file.",
        f"title: {json.dumps(options.title, ensure_ascii=False)}",
        f"description: {json.dumps(' '.join(options.description.split()), ensure_ascii=False)}",
    ]
    if site:
        lines.append(f"site_url: {json.dumps(site)}")
    if options.repository:
        lines.append(f"repository: {json.dumps(options.repository.rstrip('/'))}")
    lines += [
        "feed:",
        "  # The feed's entry ids start with this tag: URI; never change it once published.",
        f"  id: {json.dumps(feed_id)}",
        "licence: CC0-1.0",
        "# The kinds of entry this list uses (an entry of another kind is an error).",
        "kinds: [framework, library, paper, article, talk, tutorial, book, benchmark, dataset, "
        "list, docs]",
    ]
    return "\n".join(lines) + "\n"


def _mkdocs_values(options: InitOptions) -> dict[str, str]:
    """Return the placeholders of the skeleton's mkdocs.yml and docs/index.md."""
    name = options.title.removeprefix("Awesome ").strip() or options.title
    repo_lines = ""
    if options.repository:
        repo = options.repository.rstrip("/")
        match = _GITHUB_REPO.match(repo)
        repo_name = f"{match.group(1)}/{match.group(2)}" if match else repo
        repo_lines = (
            f"repo_url: {json.dumps(repo)}\nrepo_name: {json.dumps(repo_name)}\n"
            "edit_uri: edit/main/docs/\n"
        )
    site = options.site_url.rstrip("/") + "/" if options.site_url else None
    description = " ".join(options.description.split())
    return {
        "@SITE_NAME@": json.dumps(name, ensure_ascii=False),
        "@SITE_DESCRIPTION@": json.dumps(description, ensure_ascii=False),
        "@SITE_URL_LINE@": f"site_url: {json.dumps(site)}" if site else "",
        "@REPO_LINES@": repo_lines,
        "@NAME@": name,
        "@DESCRIPTION@": description,
    }


def init(
    target: Path,
    options: InitOptions,
    *,
    today: dt.date | None = None,
    complete: Callable[[Path], None] | None = None,
) -> list[Path]:
    """Write a new catalog into ``target`` (absent or empty); return the files written.

    All or nothing: the catalog is built in a new folder beside ``target``, ``complete`` (if
    given) finishes it there, and only then is the folder renamed to ``target``. A failure at
    any step (a value the new catalog refuses, a full disk, Ctrl-C) removes it, leaving
    ``target`` as it was, so the same command can simply be run again.

    Writes no README.md: the caller renders it from the new catalog in ``complete``, so it is
    the same bytes a later ``make build`` gives.
    """
    _check(options)
    if target.exists() and not target.is_dir():
        raise InitError(f"{target}: exists and is not a folder")
    if target.is_dir() and any(target.iterdir()):
        raise InitError(f"{target}: the folder is not empty; init writes only into a new one")
    parent = target.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.init-", dir=parent))
    try:
        written = _write(staging, options, today)
        if complete is not None:
            complete(staging)
        _move_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return sorted(target / path.relative_to(staging) for path in written)


def _move_into_place(staging: Path, target: Path) -> None:
    """Rename the finished catalog to ``target`` (absent, or an empty folder it replaces)."""
    mode = target.stat().st_mode & 0o7777 if target.is_dir() else 0o777 & ~_umask()
    os.chmod(staging, mode)  # mkdtemp made it private
    try:
        os.rename(staging, target)
    except OSError as exc:
        if exc.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
            raise InitError(
                f"{target}: something was written there meanwhile; init writes only into a "
                "new or empty folder"
            ) from exc
        raise


def _umask() -> int:
    """Return the process's umask (the mode a new folder would lose)."""
    current = os.umask(0o022)
    os.umask(current)
    return current


def _write(target: Path, options: InitOptions, today: dt.date | None) -> list[Path]:
    """Write the skeleton, the settings and the schemas into ``target``; return the files."""
    skeleton = resources.path("init")
    values = _mkdocs_values(options)
    written: list[Path] = []
    for source in sorted(p for p in skeleton.rglob("*") if p.is_file()):
        relative = source.relative_to(skeleton)
        if "__pycache__" in relative.parts:
            continue
        parts = list(relative.parts)
        parts[0] = _RENAMES.get(parts[0], parts[0])
        dest = target.joinpath(*parts)
        text = source.read_text(encoding="utf-8")
        if relative.as_posix() == "Makefile":
            text = text.replace("@VERSION@", __version__)
        if relative.as_posix() in ("mkdocs.yml", "docs/index.md"):
            for key, value in values.items():
                text = text.replace(key, value)
            text = re.sub(r"\n{3,}", "\n\n", text)
        files.write_atomic(dest, text)
        written.append(dest)
    year = (today or dt.date.today()).year
    files.write_atomic(target / "catalog.yml", settings_text(options, year=year))
    written.append(target / "catalog.yml")
    for name in CATALOG_SCHEMAS:
        dest = target / "schemas" / f"{name}.schema.json"
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(validators.schema_path(name), dest)
        written.append(dest)
    return sorted(written)
