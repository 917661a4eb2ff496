"""``ddl-catalog import``: turn an awesome-list Markdown file into draft entry files.

markdown.py parses the list, plan.py merges and names the drafts, write.py writes them.
Drafts carry a TODO description, so ``ddl-catalog validate`` fails until a person rewrites it.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ddl_catalog import builddate, settings
from ddl_catalog.files import write_atomic
from ddl_catalog.importer.markdown import BadList, list_repo_name, parse_list, read_list
from ddl_catalog.importer.plan import Plan, Planner, read_existing
from ddl_catalog.importer.write import WriteError, render, write_new
from ddl_catalog.load import LoadError, outside
from ddl_catalog.model.build import read_categories

__all__ = ["BadList", "ImportFailed", "ImportResult", "report_lines", "run_import"]


class ImportFailed(Exception):
    """The import cannot run (no catalog at --root, unreadable categories.yml ...)."""


@dataclass
class ImportResult:
    """The plan of an import and what was written."""

    plan: Plan
    target: Path
    dry_run: bool
    written: list[Path] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    #: Categories added to data/categories.yml from the list's headings.
    created: list[str] = field(default_factory=list)


def add_categories(file: Path, plan: Plan, have: set[str]) -> list[str]:
    """Add a top-level category for each heading that matched none (a fresh catalog's tree).

    The list's own headings become the catalog's sections, in the list's order, so the drafts
    filed under them validate; comments and layout of categories.yml are kept. ``have`` holds
    the ids the tree defines already (model.build.read_categories, which skips malformed nodes).
    """
    from ruamel.yaml import YAML

    new = [h for h in plan.headings if not h.known]
    if not new:
        return []
    yaml = YAML(typ="rt")
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096
    yaml.preserve_quotes = True  # a reason written "..." stays so: the diff is the addition
    data = yaml.load(file.read_text(encoding="utf-8"))
    tree = data.get("categories") if isinstance(data, dict) else None
    if not isinstance(tree, list):
        return []  # not a tree this can extend: validate says why
    have = set(have)
    created: list[str] = []
    for heading in new:
        if heading.category in have:
            continue
        have.add(heading.category)
        tree.append(
            {
                "id": heading.category,
                "title": heading.title,
                "description": f"What the imported list gathered under {heading.title}.",
            }
        )
        created.append(heading.category)
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    write_atomic(file, buffer.getvalue())
    return created


def run_import(
    list_file: Path,
    root: Path,
    *,
    into: Path | None = None,
    dry_run: bool = False,
    added: str | None = None,
    keep_descriptions: bool = False,
    list_repo: str | None = None,
) -> ImportResult:
    """Parse a list, plan drafts against the catalog at root, and write them (unless dry_run).

    ``keep_descriptions``: the list is the maintainer's own, so its descriptions become the
    entries' (TODO drafts only where it has none). ``list_repo``: the list's own GitHub
    repository (OWNER/NAME), whose links are skipped, besides those its housekeeping links name.
    """
    categories_file = root / "data" / "categories.yml"
    if not categories_file.is_file():
        raise ImportFailed(
            f"{categories_file}:1:1: error: no data/categories.yml under {root}: is --root right?"
        )
    display = str(list_file)
    repo = None
    if list_repo is not None:
        repo = list_repo_name(list_repo)
        if repo is None:
            raise ImportFailed(f"--list-repo: give OWNER/NAME or a GitHub URL, not {list_repo!r}")
    parsed = parse_list(read_list(list_file, display), display, repo)
    target = into if into is not None else root / "data"
    existing = read_existing(root, extra_dirs=(target,))
    try:
        existing.categories = read_categories(root)
    except LoadError as exc:
        raise ImportFailed(str(exc.problem)) from exc
    stamp = added or builddate.today()
    try:
        kinds = settings.load(root).kinds
    except settings.SettingsError as exc:
        raise ImportFailed(f"{exc}: fix catalog.yml first") from exc
    plan = Planner(existing, kinds, keep_descriptions=keep_descriptions).run(parsed)
    result = ImportResult(plan, target, dry_run)
    if dry_run:
        return result
    if target == root / "data":
        _refuse_links_outside(
            [categories_file, *(target / d.folder / f"{d.id}.yml" for d in plan.drafts)], root
        )
        result.created = add_categories(categories_file, plan, set(existing.categories))
    for draft in plan.drafts:
        path = target / draft.folder / f"{draft.id}.yml"
        try:
            write_new(path, render(draft, stamp, root, path))
        except (WriteError, OSError) as exc:
            result.failed.append(str(exc))
        else:
            result.written.append(path)
    return result


def _refuse_links_outside(paths: list[Path], root: Path) -> None:
    """Raise ImportFailed, before anything is written, if a path's links lead out of ``root``.

    ``validate`` refuses a symbolic link under data/ that leads outside the catalog; writing
    drafts through one would put files wherever it points.
    """
    for path in paths:
        if (real := outside(path, root)) is not None:
            shown = path.relative_to(root)
            raise ImportFailed(
                f"{shown}:1:1: error: not written: a symbolic link on the way leads outside the "
                f"catalog (to {real}); nothing was written"
            )


def report_lines(result: ImportResult) -> Iterator[str]:
    """Yield the import report: headings, one line per item, dropped links, then the counts."""
    plan = result.plan
    src = plan.source
    if plan.own_repos:
        yield (
            f"{src}: the list's own repository: {', '.join(plan.own_repos)} "
            "(links to it are skipped)"
        )
    for heading in plan.headings:
        if heading.known:
            yield f"{src}:{heading.line}: heading '{heading.title}' -> category {heading.category}"
        elif heading.category in result.created:
            yield (
                f"{src}:{heading.line}: heading '{heading.title}' -> new category "
                f"{heading.category} (added to data/categories.yml)"
            )
        else:
            yield (
                f"{src}:{heading.line}: heading '{heading.title}' -> '{heading.category}' "
                "(no close match in data/categories.yml: add it or re-file the drafts)"
            )
    drafts = {d.id: d for d in plan.drafts}
    for outcome in plan.outcomes:
        where = f"{src}:{outcome.line}:"
        if outcome.status == "new":
            draft = drafts[outcome.target]
            yield f"{where} new {draft.folder}/{draft.id}.yml ({draft.kind}): {outcome.title}"
        elif outcome.status == "merged":
            into = outcome.target if outcome.into_catalog else f"draft {outcome.target}"
            yield f"{where} merged into {into} ({outcome.reason}): {outcome.title}"
        else:
            yield f"{where} skipped ({outcome.reason}): {outcome.title}".rstrip(": ")
    for drop in plan.dropped:
        yield f"{src}:{drop.line}: {drop.reason}: {', '.join(drop.urls)}"
    yield from (f"error: {message}" for message in result.failed)
    yield from summary(result).splitlines()


def summary(result: ImportResult) -> str:
    """Return the closing count lines."""
    plan = result.plan
    merged_catalog = sum(1 for o in plan.outcomes if o.status == "merged" and o.into_catalog)
    merged = plan.count("merged")
    reasons = Counter(o.reason for o in plan.outcomes if o.status == "skipped")
    skipped = ", ".join(f"{n} {reason}" for reason, n in sorted(reasons.items()))
    items = plan.count("new") + merged
    line = (
        f"{items} items: {plan.count('new')} new, {merged} merged "
        f"({merged_catalog} into the catalog, {merged - merged_catalog} within the list); "
        f"{sum(reasons.values())} skipped" + (f" ({skipped})" if skipped else "")
    )
    if result.dry_run:
        return line + "\ndry run: nothing written"
    return (
        line
        + f"\nwrote {len(result.written)} draft files under {result.target}"
        + (f"; {len(result.failed)} not written" if result.failed else "")
        + (
            "; rewrite each TODO description before committing"
            if result.written and any(d.description.startswith("TODO") for d in plan.drafts)
            else ""
        )
    )
