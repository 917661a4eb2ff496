"""A small SVG bar chart (papers per year), written by hand so the site needs no chart library."""

from __future__ import annotations

from collections.abc import Mapping

from markupsafe import escape

BAR = 22
GAP = 6
PLOT_HEIGHT = 140
TOP = 18
BOTTOM = 34
LEFT = 8


def year_chart(counts: Mapping[int, int], hrefs: Mapping[int, str], *, label: str) -> str:
    """Return an inline SVG bar chart of counts per year; each bar links to its year's section.

    Years without papers between the first and the last get an empty slot, so gaps show. Colours
    come from CSS (class names), so the chart follows the light/dark palette.
    """
    if not counts:
        return f'<p class="ddl-chart-empty">{escape(label)}: no dated papers yet.</p>'
    years = list(range(min(counts), max(counts) + 1))
    peak = max(counts.values())
    width = LEFT * 2 + len(years) * (BAR + GAP)
    height = TOP + PLOT_HEIGHT + BOTTOM
    parts = [
        f'<svg class="ddl-year-chart" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-labelledby="ddl-chart-title">',
        f'<title id="ddl-chart-title">{escape(label)}</title>',
        f'<line class="ddl-axis" x1="{LEFT}" y1="{TOP + PLOT_HEIGHT}" '
        f'x2="{width - LEFT}" y2="{TOP + PLOT_HEIGHT}"/>',
    ]
    for index, year in enumerate(years):
        count = counts.get(year, 0)
        x = LEFT + index * (BAR + GAP) + GAP // 2
        bar = round(PLOT_HEIGHT * count / peak)
        y = TOP + PLOT_HEIGHT - bar
        middle = x + BAR // 2
        if count:
            parts.append(
                f'<rect class="ddl-bar" x="{x}" y="{y}" width="{BAR}" height="{bar}">'
                f"<title>{year}: {count}</title></rect>"
                f'<text class="ddl-count-label" x="{middle}" y="{y - 4}" '
                f'text-anchor="middle">{count}</text>'
            )
        if count or year % 5 == 0 or year in (years[0], years[-1]):
            parts.append(
                f'<text class="ddl-year-label" x="{middle}" y="{TOP + PLOT_HEIGHT + 14}" '
                f'text-anchor="end" transform="rotate(-45 {middle} {TOP + PLOT_HEIGHT + 14})">'
                f"{year}</text>"
            )
    parts.append("</svg>")
    links = " · ".join(
        f'<a href="{escape(hrefs[year])}">{year}</a>' for year in years if year in hrefs
    )
    return "".join(parts) + f"\n<figcaption>{escape(label)}. Jump to: {links}</figcaption>"


#: Timeline geometry (viewBox units; the SVG scales to its column, 360 wide fits a phone).
TL_WIDTH = 360
TL_ROW = 28
TL_YEAR_GAP = 10
TL_LEFT = 52  # where the nodes start; the year labels and the lineage arcs sit left of it
TL_FONT = 13
TL_CHARS = 40  # characters of a title shown in a node (the whole title is its link's name)


def _short(title: str) -> str:
    """Return a title cut to what a node shows, on a word boundary, with an ellipsis."""
    if len(title) <= TL_CHARS:
        return title
    cut = title[: TL_CHARS - 1].rsplit(" ", 1)[0].rstrip(" :,-")
    return cut + "…"


def timeline(
    nodes: list[tuple[str, int, str, str]],
    edges: list[tuple[str, str]],
    *,
    label: str,
    caption_id: str,
) -> str:
    """Return an inline SVG timeline: a row per work, grouped by year, oldest first.

    ``nodes`` are (id, year, title, href); ``edges`` are (later id, earlier id) for "builds
    on", drawn as arcs in the left margin with an arrowhead at the earlier work. Every node is a
    link named by the work's title and year, so the picture reads as a list of links to a
    screen reader; the colours come from CSS classes, so it follows the light and dark palette.
    """
    ordered = sorted(nodes, key=lambda n: (n[1], n[2].casefold(), n[0]))
    rows: dict[str, float] = {}
    parts: list[str] = []
    y, last_year = 8.0, None
    for node_id, year, title, href in ordered:
        if year != last_year:
            if last_year is not None:
                y += TL_YEAR_GAP
            parts.append(
                f'<text class="ddl-tl-year" x="0" y="{y + TL_ROW / 2 + 4:.0f}">{year}</text>'
            )
            last_year = year
        rows[node_id] = y + TL_ROW / 2
        parts.append(
            f'<a href="{escape(href)}" aria-label="{escape(title)} ({year})">'
            f'<rect class="ddl-tl-node" x="{TL_LEFT}" y="{y + 2:.0f}" rx="4" '
            f'width="{TL_WIDTH - TL_LEFT - 2}" height="{TL_ROW - 4}"/>'
            f'<text class="ddl-tl-label" x="{TL_LEFT + 6}" y="{y + TL_ROW / 2 + 4:.0f}">'
            f"{escape(_short(title))}</text></a>"
        )
        y += TL_ROW
    arcs = []
    for later, earlier in sorted(edges):
        if later not in rows or earlier not in rows:
            continue
        y1, y2 = rows[later], rows[earlier]
        bend = TL_LEFT - 8 - min(30.0, abs(y1 - y2) / 12)
        arcs.append(
            f'<path class="ddl-tl-edge" d="M{TL_LEFT} {y1:.0f} C{bend:.0f} {y1:.0f} '
            f'{bend:.0f} {y2:.0f} {TL_LEFT} {y2:.0f}" marker-end="url(#{caption_id}-arrow)"/>'
        )
    height = y + 8
    return (
        f'<svg class="ddl-timeline-svg" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {TL_WIDTH} {height:.0f}" width="{TL_WIDTH}" height="{height:.0f}" '
        f'font-size="{TL_FONT}" aria-labelledby="{caption_id}">'
        f"<title>{escape(label)}</title>"
        f'<defs><marker id="{caption_id}-arrow" viewBox="0 0 8 8" refX="7" refY="4" '
        f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        f'<path class="ddl-tl-arrow" d="M0 0 L8 4 L0 8 z"/></marker></defs>'
        + "".join(arcs)
        + "".join(parts)
        + "</svg>"
    )
