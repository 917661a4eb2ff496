"""Small SVG figures written by hand, so the site needs no chart library: the papers-per-year
bar chart and the timelines (a column per year, a mark per work, arcs for lineage)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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


#: Timeline geometry, in pixels: the figure is drawn at its natural size (its frame scrolls
#: sideways when it is wider than the column), so its year labels stay legible on a phone.
TL_COL = 38  # a year's column
TL_STEP = 13  # between two marks of the same year (and lane), one above the other
TL_R = 4.5  # a mark's radius
TL_TOP = 40  # room above the marks for the arcs
TL_AXIS = 24  # the year labels under the marks
TL_LANE_GAP = 12  # between two lanes
TL_LANE_LABEL = 150  # the lane names' column (lanes only)


@dataclass(frozen=True, slots=True)
class Mark:
    """One work on a timeline: a dot (a paper, a writing) or a square (software)."""

    id: str
    year: int
    title: str
    href: str
    #: Software is drawn as a square; a paper drawn together with its code gets a ring.
    software: bool = False
    with_code: bool = False
    #: The lane (an index into ``lanes``) on a timeline of several lanes.
    lane: int = 0


def timeline(
    marks: Sequence[Mark],
    edges: Sequence[tuple[str, str]],
    *,
    label: str,
    caption_id: str,
    lanes: Sequence[str] = (),
    column: float = TL_COL,
) -> str:
    """Return an inline SVG timeline: a column per year, a mark per work, arcs for lineage.

    Only the years that have works get a column (in order), so a long span stays compact; in
    a column the works of a year stand one above the other, in title order. ``edges`` are
    (later id, earlier id) for "builds on", drawn as arcs above the marks with the arrowhead at
    the earlier work, so they spread over the figure instead of bundling at one edge. With
    ``lanes`` (a timeline of the whole field), each lane is a band of its own, named on the
    left. ``column`` is a year's width in pixels. Every mark is a link named by its work's
    title and year; the colours come from CSS classes, so the figure follows the light and
    dark palettes.
    """
    years = sorted({m.year for m in marks})
    slot = {year: n for n, year in enumerate(years)}
    left = (TL_LANE_LABEL if lanes else 0) + column / 2
    ordered = sorted(marks, key=lambda m: (m.lane, m.year, m.title.casefold(), m.id))
    stacks: dict[tuple[int, int], int] = {}
    for mark in ordered:
        stacks[(mark.lane, mark.year)] = stacks.get((mark.lane, mark.year), 0) + 1
    lane_count = max(len(lanes), 1)
    lane_height = [
        max((n for (lane, _y), n in stacks.items() if lane == index), default=0) * TL_STEP
        for index in range(lane_count)
    ]
    lane_top: list[float] = []
    y: float = TL_TOP
    for band in lane_height:
        lane_top.append(y)
        y += max(band, TL_STEP) + TL_LANE_GAP
    bottom = y - TL_LANE_GAP
    where: dict[str, tuple[float, float]] = {}
    placed: dict[tuple[int, int], int] = {}
    for mark in ordered:
        n = placed.get((mark.lane, mark.year), 0)
        placed[(mark.lane, mark.year)] = n + 1
        x = left + slot[mark.year] * column
        where[mark.id] = (x, lane_top[mark.lane] + TL_STEP / 2 + n * TL_STEP)
    width = left + (len(years) - 1) * column + column / 2 + 4
    height = bottom + TL_AXIS
    parts: list[str] = []
    for index, name in enumerate(lanes):
        top = lane_top[index]
        parts.append(
            f'<text class="ddl-tl-lane" x="0" y="{top + TL_STEP / 2 + 4:.1f}">{escape(name)}</text>'
        )
        if index:
            parts.append(
                f'<line class="ddl-tl-rule" x1="0" y1="{top - TL_LANE_GAP / 2:.1f}" '
                f'x2="{width:.1f}" y2="{top - TL_LANE_GAP / 2:.1f}"/>'
            )
    for year in years:
        x = left + slot[year] * column
        parts.append(
            f'<text class="ddl-tl-year" x="{x:.1f}" y="{bottom + 16:.1f}" '
            f'text-anchor="middle">{year}</text>'
        )
    arcs = []
    for later, earlier in sorted(set(edges)):
        if later not in where or earlier not in where or later == earlier:
            continue
        (x1, y1), (x2, y2) = where[later], where[earlier]
        if abs(x1 - x2) < 1:  # the same year: a bow to the right
            cx, cy = x1 + column * 0.45, (y1 + y2) / 2
        else:
            lift = min(TL_TOP - 6, 8 + abs(x1 - x2) * 0.12)
            cx, cy = (x1 + x2) / 2, min(y1, y2) - lift - abs(y1 - y2) * 0.1
        # The arrowhead stops at the earlier mark's edge, along the curve's last direction.
        dx, dy = x2 - cx, y2 - cy
        length = max((dx * dx + dy * dy) ** 0.5, 1e-6)
        ex, ey = x2 - dx / length * (TL_R + 2), y2 - dy / length * (TL_R + 2)
        path = f"M{x1:.1f} {y1:.1f} Q{cx:.1f} {cy:.1f} {ex:.1f} {ey:.1f}"
        arcs.append(f'<path class="ddl-tl-edge" d="{path}" marker-end="url(#{caption_id}-arrow)"/>')
    dots = []
    for mark in ordered:
        x, y = where[mark.id]
        if mark.software:
            shape = (
                f'<rect class="ddl-tl-mark ddl-tl-mark--software" x="{x - TL_R:.1f}" '
                f'y="{y - TL_R:.1f}" width="{2 * TL_R:.1f}" height="{2 * TL_R:.1f}"/>'
            )
        else:
            shape = f'<circle class="ddl-tl-mark" cx="{x:.1f}" cy="{y:.1f}" r="{TL_R}"/>'
            if mark.with_code:
                shape += f'<circle class="ddl-tl-ring" cx="{x:.1f}" cy="{y:.1f}" r="{TL_R + 2.5}"/>'
        dots.append(
            f'<a href="{escape(mark.href)}" aria-label="{escape(mark.title)} ({mark.year})">'
            f"<title>{escape(mark.title)} ({mark.year})</title>{shape}</a>"
        )
    return (
        f'<svg class="ddl-timeline-svg" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        f'aria-labelledby="{caption_id}">'
        f'<defs><marker id="{caption_id}-arrow" viewBox="0 0 8 8" refX="8" refY="4" '
        f'markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
        f'<path class="ddl-tl-arrow" d="M0 0 L8 4 L0 8 z"/></marker></defs>'
        + "".join(parts)
        + "".join(arcs)
        + "".join(dots)
        + "</svg>"
    )
