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
