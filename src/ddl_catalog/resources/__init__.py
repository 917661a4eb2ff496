"""The package's default files: templates, site theme overrides and assets, ``init``'s skeleton.

In a built wheel the defaults live here (``templates/`` and ``site-assets/`` are copied in from
the repository's ``templates/`` and ``docs/assets/`` by setup.py's build step; ``init/`` is kept
here). In a source checkout (an editable install) the repository's own folders are the defaults,
so they are never duplicated. A catalog overrides any of them with its own ``templates/``.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The repository, when the package runs from a source checkout (src/ddl_catalog/resources).
_CHECKOUT = HERE.parents[2]
#: Default folder -> where a source checkout keeps it.
_IN_CHECKOUT = {"templates": "templates", "site-assets": "docs/assets"}


def path(name: str) -> Path:
    """Return the folder of the package's defaults called ``name`` (templates, site-assets, init).

    Raises FileNotFoundError when the installation lacks it (a broken build).
    """
    packaged = HERE / name
    if packaged.is_dir():
        return packaged
    if name in _IN_CHECKOUT:
        checkout = _CHECKOUT / _IN_CHECKOUT[name]
        if checkout.is_dir():
            return checkout
    raise FileNotFoundError(f"the ddl-catalog package has no {name}/ folder: reinstall it")


def site_templates(configured: Path) -> Path:
    """Return the site templates: the catalog's own folder if it has one, else the package's."""
    return configured if configured.is_dir() else path("templates") / "site"


def site_assets() -> dict[str, Path]:
    """Return {site path: file} of the package's site assets (assets/extra.css ...)."""
    folder = path("site-assets")
    return {f"assets/{f.name}": f for f in sorted(folder.iterdir()) if f.is_file()}
