"""The ``ddl-catalog`` console script: plain ``validate`` calls start without click.

``ddl-catalog validate`` runs in every pre-commit hook and pull request, so it has a start-up
budget: twice the time of ``python -c "import yaml"`` (benchmarks/bench_validate.py). Importing
click, with the inspect, gettext and uuid modules it needs, costs most of that budget on its
own. So the plain forms of ``validate`` (``--root``, ``--strict`` and ``--format``, each at most
once) are recognised here and run directly; every other command line, ``--help``, a typo or a
bad value included, goes to the click application in ``ddl_catalog.cli``, which stays the one
definition of the command line. tests/test_entry.py keeps the two in step: same options, same
output, same exit status.
"""

from __future__ import annotations

import gc
import os
import sys

#: The options of ``validate`` recognised here: name -> (parameter, allowed values). An empty
#: tuple allows any value; None marks a flag.
VALIDATE_OPTIONS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "--root": ("root", ()),
    "--strict": ("strict", None),
    "--format": ("fmt", ("text", "json")),
}


def plain_validate(args: list[str]) -> dict[str, str | bool] | None:
    """Return the options of a plain ``validate`` command line, or None if click must parse it."""
    if not args or args[0] != "validate":
        return None
    found: dict[str, str | bool] = {}
    rest = iter(args[1:])
    for arg in rest:
        name, equals, value = arg.partition("=")
        spec = VALIDATE_OPTIONS.get(name)
        if spec is None or spec[0] in found:
            return None  # unknown, --help, or repeated: click explains or decides
        parameter, allowed = spec
        if allowed is None:
            if equals:
                return None
            found[parameter] = True
            continue
        if not equals:
            value = next(rest, "")
        if not value or value.startswith("-") or (allowed and value not in allowed):
            return None
        found[parameter] = value
    root = found.get("root", ".")
    if isinstance(root, str) and os.path.isfile(root):
        return None  # click says why a file is not a catalog directory
    return found


def main() -> None:
    """Run the command line (console script entry point)."""
    options = plain_validate(sys.argv[1:])
    if options is None:
        from ddl_catalog.cli import main as click_main

        click_main()
        return
    # The cyclic garbage collector finds nothing in a validation run (validate() pauses it for
    # the run, see there); pausing it from here spares the imports its passes as well.
    collecting = gc.isenabled()
    gc.disable()
    try:
        from ddl_catalog import report

        status = report.run(
            str(options.get("root", ".")),
            strict=bool(options.get("strict", False)),
            fmt=str(options.get("fmt", "text")),
        )
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")  # as click reports it
        status = 1
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as click does.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = 1
    finally:
        if collecting:
            gc.enable()
    sys.exit(status)
