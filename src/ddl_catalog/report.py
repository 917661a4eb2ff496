"""Render a validation Report for people (text), machines (JSON) and GitHub (annotations).

``run`` is the body of ``ddl-catalog validate``. Messages quote the data, so every line goes
out through :mod:`ddl_catalog.terminal`: no control character reaches the terminal, and under
GitHub Actions no value can form a workflow command (a fake annotation, ``stop-commands``).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator

from ddl_catalog import terminal
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
    """Yield one line per problem, sorted, then the count (values escaped: terminal.line)."""
    for problem in report.problems:
        yield terminal.line(str(problem))
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
    github = terminal.github_actions()
    if fmt == "json":
        text = as_json(report)
        # The runner reads ##[name] anywhere in a line; the same string, escaped as JSON allows.
        out.write((text.replace("##[", "##\\u005b") if github else text) + "\n")
    else:
        out.writelines(line + "\n" for line in as_text(report))
    if github:
        out.writelines(line + "\n" for line in as_annotations(report))
        write_step_summary(report, os.environ.get("GITHUB_STEP_SUMMARY"))
    out.flush()
    return 1 if report.failed(strict=strict) else 0


def as_annotations(report: Report) -> Iterator[str]:
    """Yield GitHub workflow commands, so problems show on the pull request's diff."""
    for p in report.problems:
        level = "error" if p.severity == "error" else "warning"
        path, title = terminal.safe(p.path), terminal.safe(f"ddl-catalog {p.rule}")
        yield (
            f"::{level} file={terminal.command_property(path)},line={p.line},col={p.column},"
            f"title={terminal.command_property(title)}::"
            f"{terminal.command_data(terminal.safe(p.message))}"
        )


#: What a table cell may show as a code span: no backtick, pipe, white space but the space,
#: or anything Markdown or HTML would read (paths and rule ids, as they normally are).
_PLAIN_CODE = re.compile(r"[\w./ -]+")


def _code_cell(text: str) -> str:
    """Return a Markdown table cell that shows ``text`` as code, or escaped when it is odd."""
    from ddl_catalog.render.markdown import md_text

    return f"`{text}`" if _PLAIN_CODE.fullmatch(text) else md_text(terminal.safe(text))


def write_step_summary(report: Report, target: str | None) -> None:
    """Append a Markdown summary of the run to GitHub's job summary file, if there is one."""
    if not target:
        return
    from ddl_catalog.render.markdown import md_text  # only here: validate's start-up stays small

    lines = ["## ddl-catalog validate", "", summary(report), ""]
    if report.problems:
        lines += ["| file | line | severity | problem | rule |", "|---|---|---|---|---|"]
        for p in report.problems[:200]:
            message = md_text(terminal.safe(p.message))  # no pipe, line break, HTML or link
            lines.append(
                f"| {_code_cell(p.path)} | {p.line} | {p.severity} | {message} "
                f"| {_code_cell(p.rule)} |"
            )
    with open(target, "a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
