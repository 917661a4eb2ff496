"""Atom feed of additions, built with feedgen: the newest ``added`` first, deterministic.

The feed carries the latest additions only: catalog.yml's ``feed.limit`` (default 50) newest
entries, so a reader's client fetches a bounded file however large the catalog grows; the
website's "What's new" page lists every addition by month.

Ids are tag: URIs (RFC 4151) made from the entry id under the catalog's feed id (catalog.yml's
``feed.id``), so they survive any change of the site's address or layout. ``updated`` is the
newest ``added`` date of the catalog, never the time of the build, so the same data gives the
same bytes. Entries without an ``added`` date are left out: the feed lists additions.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from feedgen.feed import FeedGenerator

from ddl_catalog import __version__
from ddl_catalog.model import KIND_LABELS, Entry
from ddl_catalog.settings import Settings

#: Used for the feed's id-less fallback date when no entry has an ``added`` date.
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def entry_tag(entry_id: str, prefix: str | None = None) -> str:
    """Return the permanent Atom id of an entry under a feed id (default: the neutral one)."""
    return f"{prefix or Settings().feed_id}entry:{entry_id}"


def _date(value: str) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(value), dt.time(), tzinfo=dt.UTC)


def render(
    entries: Iterable[Entry], *, site_url: str | None = None, config: Settings | None = None
) -> str:
    """Write the Atom feed of the newest entries with an ``added`` date, then by id.

    At most ``config.feed_limit`` entries.

    Its id, title, subtitle and author come from the catalog's settings (``config``).
    """
    config = config or Settings()
    dated = sorted(  # newest first; entries added the same day in id order
        (e for e in entries if e.added),
        key=lambda e: (-_date(e.added or "").toordinal(), e.id),
    )[: config.feed_limit]
    updated = _date(dated[0].added or "") if dated else EPOCH
    fg = FeedGenerator()
    fg.id(f"{config.feed_id}feed")
    fg.title(config.feed_name)
    fg.subtitle(config.feed_about)
    fg.author({"name": config.author})
    fg.updated(updated)
    fg.generator("ddl-catalog", version=__version__)
    fg.language("en")
    if site_url:
        base = site_url.rstrip("/") + "/"
        fg.link(href=base, rel="alternate", type="text/html")
        fg.link(href=base + "feed.xml", rel="self", type="application/atom+xml")
    for entry in dated:
        item = fg.add_entry(order="append")
        item.id(entry_tag(entry.id, config.feed_id))
        item.title(entry.title)
        item.link(href=entry.url, rel="alternate")
        item.updated(_date(entry.added or ""))
        item.published(_date(entry.added or ""))
        item.summary(entry.description)
        item.category(term=entry.kind, label=KIND_LABELS[entry.kind][0])
        for category in entry.categories:
            item.category(term=category)
    xml: bytes = fg.atom_str(pretty=True, encoding="UTF-8", xml_declaration=True)
    return xml.decode("utf-8")
