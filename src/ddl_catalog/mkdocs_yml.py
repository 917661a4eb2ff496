"""What the outputs need to know about the website from mkdocs.yml, read without MkDocs."""

from __future__ import annotations

import re
from pathlib import Path

_SITE_URL = re.compile(r"^site_url:\s*['\"]?(https?://[^\s'\"#]+)", re.MULTILINE)
_DOCS_DIR = re.compile(r"^docs_dir:\s*['\"]?([^\s'\"#]+)", re.MULTILINE)

#: Paths the site uses for its own pages; a top-level category may not take one of them.
RESERVED = frozenset(
    {
        "index",
        "kinds",
        "explore",
        "compare",
        "timeline",
        "papers-by-year",
        "venues",
        "new",
        "tags",
        "contributing",
        "data-format",
        "assets",
        "api",
        "search",
    }
)


def page_clash(category_id: str, parent: str | None = None) -> str | None:
    """Say which of the site's own pages a category's page would overwrite, or None.

    A topic lives at /<id>/, so it may not take a name of RESERVED; a subtopic lives at
    /<parent>/<id>/, where /<parent>/2/ is the second part of a long topic page and
    /<parent>/index/ the topic's own page. ``validate`` and the site build both ask here.
    """
    if parent is None and category_id in RESERVED:
        return f"category id {category_id!r} clashes with the site page /{category_id}/"
    if parent is not None and (category_id.isdigit() or category_id == "index"):
        return (
            f"category id {category_id!r} clashes with the page /{parent}/{category_id}/ "
            f"of the topic {parent!r}"
        )
    return None


def site_url(root: Path) -> str | None:
    """Return the http(s) site_url of root/mkdocs.yml, or None when there is none.

    A plain line match, so the README and the exports can link the published site without
    importing MkDocs or evaluating its YAML tags.
    """
    try:
        text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    except OSError:
        return None
    match = _SITE_URL.search(text)
    return match.group(1) if match else None


def published_url(root: Path, configured: str | None) -> str | None:
    """Return where the catalog is published: mkdocs.yml's site_url, else ``configured``.

    ``configured`` is catalog.yml's site_url; the README, the exports and the site's own
    exports all ask here, so a catalog that sets its address only in catalog.yml gets links
    everywhere.
    """
    return site_url(root) or configured or None


def docs_dir(root: Path) -> Path:
    """Return the folder of the hand-written pages: mkdocs.yml's docs_dir, else root/docs."""
    try:
        text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return root / "docs"
    match = _DOCS_DIR.search(text)
    return root / match.group(1) if match else root / "docs"
