"""What the outputs need to know about the website from mkdocs.yml, read without MkDocs."""

from __future__ import annotations

import re
from pathlib import Path

_SITE_URL = re.compile(r"^site_url:\s*['\"]?(https?://[^\s'\"#]+)", re.MULTILINE)


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
