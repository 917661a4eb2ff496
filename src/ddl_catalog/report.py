"""Render a validation Report for people (text), machines (JSON) and GitHub (annotations).

``run`` is the body of ``ddl-catalog validate``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

from ddl_catalog.load import FilePath
from ddl_catalog.validate import Report, validate


def _plural(n: int, word: str) -> str:
    """Return ``n word`` with an s when n is not 1."""
    return f"{n} {word}{'s' * (n != 1)}"


def summary(report: Report) -> str:
    """Return the closing count line."""
    if not report.problems:
        count = len(report.documents)
        return f"ok: {count} {'entry' if count == 1 else 'entries'}, no problems"
    return (
        f"{_plural(len(report.errors), 'error')}, {_plural(len(report.warnings), 'warning')} "
        f"in {_plural(report.files, 'file')}"
    )


def as_text(report: Report) -> Iterator[str]:
    """Yield one line per problem, sorted, then the count."""
    for problem in report.problems:
        yield str(problem)
    yield summary(report)


def as_json(report: Report) -> str:
    """Return the report as a JSON document."""
    import json  # imported here: the text report, the common case, needs no json

    return json.dumps(
        {
            "version": 1,
            "files": report.files,
            "entries": len(report.documents),
            "errors": len(report.errors),
            "warnings": len(report.warnings),
            "problems": [
                {
                    "path": p.path,
                    "line": p.line,
                    "column": p.column,
                    "severity": p.severity,
                    "message": p.message,
                    "rule": p.rule,
                }
                for p in report.problems
            ],
        },
        indent=2,
        ensure_ascii=False,
    )


def run(root: FilePath, *, strict: bool = False, fmt: str = "text") -> int:
    """Validate the catalog at root, print the report, and return the exit status (0 or 1)."""
    report = validate(root)
    out = sys.stdout
    if fmt == "json":
        out.write(as_json(report) + "\n")
    else:
        out.writelines(line + "\n" for line in as_text(report))
    if os.environ.get("GITHUB_ACTIONS") == "true":
        out.writelines(line + "\n" for line in as_annotations(report))
        write_step_summary(report, os.environ.get("GITHUB_STEP_SUMMARY"))
    out.flush()
    return 1 if report.failed(strict=strict) else 0


def _escape_property(value: str) -> str:
    """Escape a workflow-command property value."""
    return (
        value.replace("%", "%25")
        .replace("\r", "%0D")
        .replace("\n", "%0A")
        .replace(":", "%3A")
        .replace(",", "%2C")
    )


def _escape_data(value: str) -> str:
    """Escape a workflow-command message."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def as_annotations(report: Report) -> Iterator[str]:
    """Yield GitHub workflow commands, so problems show on the pull request's diff."""
    for p in report.problems:
        level = "error" if p.severity == "error" else "warning"
        yield (
            f"::{level} file={_escape_property(p.path)},line={p.line},col={p.column},"
            f"title={_escape_property('ddl-catalog ' + p.rule)}::{_escape_data(p.message)}"
        )


def write_step_summary(report: Report, target: str | None) -> None:
    """Append a Markdown summary of the run to GitHub's job summary file, if there is one."""
    if not target:
        return
    lines = ["## ddl-catalog validate", "", summary(report), ""]
    if report.problems:
        lines += ["| file | line | severity | problem | rule |", "|---|---|---|---|---|"]
        for p in report.problems[:200]:
            message = p.message.replace("|", "\\|")
            lines.append(f"| `{p.path}` | {p.line} | {p.severity} | {message} | `{p.rule}` |")
    with open(target, "a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
