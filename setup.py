"""Build step: ship the repository's templates and site assets inside the package.

``templates/`` and ``docs/assets/`` are this catalog's files and, at the same time, the package's
defaults. Rather than keeping two copies in the repository, the build copies them into
``ddl_catalog/resources/`` of the built package (wheel or sdist install); a source checkout
reads them in place (see ``ddl_catalog.resources``). tests/test_wheel.py builds the wheel and
runs every command from it outside the repository.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: Repository folder -> folder inside the built package.
DEFAULTS = {
    "templates": "ddl_catalog/resources/templates",
    "docs/assets": "ddl_catalog/resources/site-assets",
}


class BuildWithDefaults(build_py):
    """build_py, then copy the default templates and site assets into the package."""

    def run(self) -> None:
        """Build the package, then add the defaults."""
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them from the checkout
        for source, target in DEFAULTS.items():
            dest = Path(self.build_lib) / target
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(
                HERE / source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )


setup(cmdclass={"build_py": BuildWithDefaults})
