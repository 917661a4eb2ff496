"""The static-site engines that turn the staged site sources into HTML: MkDocs and Zensical.

Both read the same staged folder (``site.stage``): an ``mkdocs.yml`` that inherits the
catalog's own, a ``docs/`` folder holding the hand-written pages beside every generated one, and
the merged theme overrides. Neither needs a hook of ours: the pages are plain files. An engine
here only says how to build and serve that folder, and which of the package's theme overrides
it takes (``overrides/`` for both, plus ``overrides-<name>/`` for what only that engine's
templates need).

MkDocs + Material is the default: it is what the project was built on. Zensical, Material's
successor by the same authors, reads ``mkdocs.yml`` and keeps Material's look; it runs as a
subprocess (``python -m zensical``) because its build is a Rust runtime that calls back into
Python and prints its own report.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: The engines `ddl-catalog site --engine` and catalog.yml's ``site.engine`` accept.
ENGINES = ("mkdocs", "zensical")
DEFAULT_ENGINE = "mkdocs"


class EngineError(Exception):
    """The engine failed; the message says why in one line."""


@dataclass(frozen=True)
class Engine:
    """One engine: its name, the search index it writes, how to build and serve."""

    name: str
    #: Where the engine writes its search index in the built site (site-relative).
    search_index: str
    #: Whether the engine reads every relative href and src of a page from the page's source
    #: file (``a/b.md``: from ``a/``) rather than from its URL (``a/b/``). MkDocs does that only
    #: for links to files it knows (``x.md``) and leaves other links as written; Zensical does it
    #: for every one, so the stage rebases the generated pages' links for it
    #: (``site.links_from_source``).
    links_from_source: bool = False

    def build(self, config_file: Path, *, strict: bool, env: dict[str, str]) -> None:
        """Build the staged site whose config is ``config_file`` into its ``site_dir``."""
        if self.name == "mkdocs":
            _mkdocs_build(config_file, strict=strict, env=env)
        else:
            _zensical(["build", "-f", str(config_file), *(["--strict"] if strict else [])], env)

    def serve(self, config_file: Path, *, address: str, env: dict[str, str]) -> None:
        """Serve the staged site with live reload until interrupted."""
        if self.name == "mkdocs":
            from mkdocs.commands.serve import serve

            os.environ.update(env)
            logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
            serve(config_file=str(config_file), dev_addr=address)
        else:
            # Zensical takes its address from the config (dev_addr), which the stage sets.
            _zensical(["serve", "-f", str(config_file)], env, capture=False)


MKDOCS = Engine("mkdocs", "search/search_index.json")
ZENSICAL = Engine("zensical", "search.json", links_from_source=True)


def get(name: str) -> Engine:
    """Return the engine called ``name``; raises EngineError naming the choices."""
    for engine in (MKDOCS, ZENSICAL):
        if engine.name == name:
            return engine
    raise EngineError(f"unknown site engine {name!r}; choose one of {', '.join(ENGINES)}")


class _Collector(logging.Handler):
    """Keep the warnings and errors MkDocs logs, to say in one line why a build failed."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Remember one message (first line only)."""
        self.messages.append(record.getMessage().strip().splitlines()[0])


def _mkdocs_build(config_file: Path, *, strict: bool, env: dict[str, str]) -> None:
    """Build with MkDocs in this process; its warnings and errors become one EngineError."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    problems = _Collector()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(problems)
    try:
        config = load_config(str(config_file), strict=strict)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
    except MkDocsException as error:
        reason = "; ".join(problems.messages) or str(error).strip() or type(error).__name__
        raise EngineError(reason) from error
    finally:
        mkdocs_log.removeHandler(problems)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _zensical(args: list[str], env: dict[str, str], *, capture: bool = True) -> None:
    """Run ``python -m zensical ARGS``; a failure becomes one EngineError with its last line."""
    command = [sys.executable, "-m", "zensical", *args]
    try:
        done = subprocess.run(  # noqa: S603 - our own interpreter and fixed arguments
            command,
            env={**os.environ, **env},
            capture_output=capture,
            text=True,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except OSError as err:
        raise EngineError(f"cannot run zensical: {err.strerror or err}") from err
    if done.returncode != 0:
        output = f"{done.stdout or ''}\n{done.stderr or ''}" if capture else ""
        if "No module named zensical" in output:
            raise EngineError(
                "the zensical engine is not installed: pip install zensical (it is in the lock)"
            )
        lines = [line.strip() for line in output.splitlines() if line.strip()]
        raise EngineError(lines[-1] if lines else f"zensical exited with {done.returncode}")
