"""How the site leads a reader (issue 32), in a real browser on each engine's build.

The order of a page's cards and its re-sort control, venues as a way in, what is new, topic
timelines that fold so the first card comes first, and Explore's software choice, several
topics and tags at once, its empty state and its phone rows.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser.helpers import REPO, Tab, axe_violations
from ddl_catalog.model.build import open_catalog
from ddl_catalog.model.order import reading_order

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
CATALOG = open_catalog(REPO)


def cards(page: Any) -> list[dict[str, Any]]:
    """Return the page's cards in document order: id, year (or None) and kind rank."""
    found: list[dict[str, Any]] = page.locator("article.ddl-entry").evaluate_all(
        """cards => cards.map(card => ({
            id: card.querySelector('h3').id,
            year: card.dataset.ddlYear ? Number(card.dataset.ddlYear) : null,
            kind: Number(card.dataset.ddlKind),
            title: card.dataset.ddlTitle}))"""
    )
    return found


# -- order ---------------------------------------------------------------------------------


def test_a_topic_page_states_its_order_and_re_sorts_in_place(tab: Tab, base_url: str) -> None:
    page = tab.page
    path = "parallelism/expert-parallelism/"
    page.goto(base_url + path, wait_until="networkidle")
    category = CATALOG.categories["expert-parallelism"]
    picks = [pick for pick, _why in category.start_here]
    listed = reading_order(CATALOG.in_category(category.id, primary=True), picks)
    shown = [c["id"] for c in cards(page)]
    assert shown == [e.id for e in listed][: len(shown)], "the cards come in reading order"
    assert shown[: len(picks)] == [p for p in picks if p in shown][: len(picks)]
    assert "start-here picks" in page.locator(".ddl-order").inner_text()

    control = page.locator("select[data-ddl-sort]")
    control.select_option("newest")
    page.wait_for_function("() => new URLSearchParams(location.search).get('sort') === 'newest'")
    years = [c["year"] for c in cards(page)]
    dated = [y for y in years if y is not None]
    assert dated == sorted(dated, reverse=True) and years[: len(dated)] == dated
    assert sorted(c["id"] for c in cards(page)) == sorted(shown)  # the same cards, resorted

    control.select_option("title")
    titles = [c["title"].casefold() for c in cards(page)]
    assert titles == sorted(titles) or len(titles) < 2

    control.select_option("suggested")
    assert [c["id"] for c in cards(page)] == shown
    assert "sort=" not in page.url

    # A shared address keeps the order and still lands on the card it names.
    target = shown[-1]
    page.goto(f"{base_url}{path}?sort=oldest#{target}", wait_until="networkidle")
    years = [c["year"] for c in cards(page) if c["year"] is not None]
    assert years == sorted(years)
    from playwright.sync_api import expect

    expect(page.locator(f"h3#{target}")).to_be_in_viewport()
    assert tab.errors == []


def test_without_javascript_the_page_keeps_its_order_and_no_control(
    browser: Any, base_url: str
) -> None:
    ctx = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(base_url + "parallelism/expert-parallelism/?sort=newest")
        assert not page.locator(".ddl-order__control").is_visible()
        category = CATALOG.categories["expert-parallelism"]
        picks = [pick for pick, _why in category.start_here]
        listed = reading_order(CATALOG.in_category(category.id, primary=True), picks)
        shown = [c["id"] for c in cards(page)]
        assert shown == [e.id for e in listed][: len(shown)]
    finally:
        ctx.close()


def leaf_pages() -> list[str]:
    """Return the path of every subtopic page (and every topic without subtopics)."""
    paths = []
    for category in CATALOG.categories.values():
        if category.children:
            continue
        paths.append(f"{category.parent}/{category.id}/" if category.parent else f"{category.id}/")
    return paths


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_the_first_card_of_every_topic_page_is_within_one_screen_of_its_title(
    browser: Any, base_url: str, viewport: dict[str, int]
) -> None:
    ctx = browser.new_context(viewport=viewport, service_workers="block")
    try:
        page = ctx.new_page()
        far = []
        for path in leaf_pages():
            page.goto(base_url + path, wait_until="load")
            gap = page.evaluate(
                """() => { const card = document.querySelector('article.ddl-entry');
                if (!card) return null;
                return card.getBoundingClientRect().top
                  - document.querySelector('h1').getBoundingClientRect().top; }"""
            )
            if gap is not None and gap > viewport["height"]:
                far.append((path, round(gap)))
        assert far == [], f"first card more than one screen below the title: {far}"
    finally:
        ctx.close()


# -- venues ----------------------------------------------------------------------------------


def test_the_sosp_2025_papers_are_two_clicks_from_home(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url, wait_until="networkidle")
    page.locator("nav.ddl-ways a", has_text="Venues").click()  # 1
    page.wait_for_url(lambda url: url.rstrip("/").endswith("/venues"))
    page.get_by_role("link", name="SOSP 2025", exact=False).first.click()  # 2
    page.wait_for_url(lambda url: url.endswith("#sosp-2025"))
    heading = page.locator("h2#sosp-2025")
    from playwright.sync_api import expect

    expect(heading).to_be_in_viewport()
    expected = {e.id for e in CATALOG if e.venue == "SOSP" and e.venue_year == 2025}
    items = page.locator("h2#sosp-2025 + ul li a").evaluate_all(
        "links => links.map(a => a.getAttribute('href').split('#')[1])"
    )
    assert set(items) == expected and expected
    assert tab.errors == []


def test_papers_by_year_links_each_year_s_venue_editions(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url + "papers-by-year/", wait_until="networkidle")
    line = page.locator("h2#year-2025 + p.ddl-section-links")
    assert "NSDI 2025" in line.inner_text()
    line.get_by_role("link", name="NSDI 2025", exact=False).click()
    page.wait_for_url(lambda url: url.endswith("#nsdi-2025"))
    assert tab.errors == []


# -- what is new -----------------------------------------------------------------------------


def test_the_home_page_says_where_to_go_and_what_was_added_in_its_first_screen(
    browser: Any, base_url: str
) -> None:
    for viewport in (PHONE, DESKTOP):
        ctx = browser.new_context(viewport=viewport, service_workers="block")
        try:
            page = ctx.new_page()
            page.goto(base_url, wait_until="networkidle")
            ways = page.locator("nav.ddl-ways a")
            names = [w.split("\n")[0] for w in ways.all_inner_texts()]
            for name in ("Topics", "Compare", "Timeline", "Explore", "Venues", "What's new"):
                assert name in names
            bottom = page.evaluate(
                "() => document.querySelector('nav.ddl-ways').getBoundingClientRect().bottom"
            )
            assert bottom <= viewport["height"], "the ways in fit the first screen"
            latest = page.locator("#recently-added + ul li")
            assert latest.count() == 10
            dates = latest.locator("time").evaluate_all("ts => ts.map(t => t.dateTime)")
            assert len(dates) == 10 and dates == sorted(dates, reverse=True)
        finally:
            ctx.close()


def test_whats_new_lists_additions_by_month_and_the_feed_is_bounded(
    tab: Tab, base_url: str
) -> None:
    page = tab.page
    page.goto(base_url + "new/", wait_until="networkidle")
    months = page.locator("h2[id^='added-']").all_inner_texts()
    assert months and all("(" in m for m in months)
    first = page.locator("ul.ddl-compact li time").first.get_attribute("datetime")
    newest = max(e.added for e in CATALOG if e.added)
    assert first == newest
    feed = page.evaluate("async () => (await fetch('../feed.xml')).text()")
    assert feed.count("<entry>") == 50
    assert tab.errors == []


# -- timelines -------------------------------------------------------------------------------


def luminance(rgb: tuple[float, float, float]) -> float:
    """Return the relative luminance of an sRGB colour (0-255 channels)."""

    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else float(((c + 0.055) / 1.055) ** 2.4)

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """Return the WCAG contrast ratio of two colours."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: The colours (resolved, alpha blended over the page) of a timeline's marks, arcs and labels.
COLOURS = """() => {
  const parse = c => c.match(/[\\d.]+/g).map(Number);
  const bg = parse(getComputedStyle(document.body).backgroundColor);
  const blend = c => { const [r, g, b, a = 1] = parse(c);
    return [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)]; };
  const svg = document.querySelector('.ddl-timeline-svg');
  const of = (sel, prop) => blend(getComputedStyle(svg.querySelector(sel))[prop]);
  return {bg: bg.slice(0, 3), mark: of('.ddl-tl-mark', 'fill'), edge: of('.ddl-tl-edge', 'stroke'),
          year: of('.ddl-tl-year', 'fill')};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_topic_timeline_folds_opens_and_keeps_three_to_one(
    browser: Any, base_url: str, scheme: str
) -> None:
    ctx = browser.new_context(viewport=PHONE, color_scheme=scheme, service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(base_url + "parallelism/pipeline-parallelism/", wait_until="networkidle")
        details = page.locator("details.ddl-timeline")
        assert details.get_attribute("open") is None
        details.locator("summary").click()
        figure = page.locator(".ddl-timeline-svg")
        figure.wait_for(state="visible")
        colours = page.evaluate(COLOURS)
        for part in ("mark", "edge", "year"):
            ratio = contrast(tuple(colours[part]), tuple(colours["bg"]))
            assert ratio >= 3, f"{part}: {ratio:.2f}:1 in the {scheme} scheme"
        # Full titles at one size in the list under the figure, every mark a named link.
        names = figure.locator("a").evaluate_all("as => as.map(a => a.getAttribute('aria-label'))")
        listed = page.locator(".ddl-timeline-list a").all_inner_texts()
        assert names and all(name.rsplit(" (", 1)[0] in listed for name in names)
        sizes = page.locator(".ddl-timeline-list > li > ul > li > a").evaluate_all(
            "as => [...new Set(as.map(a => getComputedStyle(a).fontSize))]"
        )
        assert len(sizes) == 1
        found = axe_violations(page, impacts=())
        assert found == [], "\n".join(found)
    finally:
        ctx.close()


def test_the_field_timeline_has_a_band_per_topic(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url + "timeline/", wait_until="networkidle")
    lanes = page.locator(".ddl-tl-lane").evaluate_all("ts => ts.map(t => t.textContent)")
    tops = [t.title for t in CATALOG.top_categories()]
    assert len(lanes) >= 5 and all(lane in tops for lane in lanes)
    # Arcs spread over the figure: their starting points are not all in one column.
    starts = page.locator(".ddl-tl-edge").evaluate_all(
        "ps => ps.map(p => Math.round(Number(p.getAttribute('d').slice(1).split(' ')[0])))"
    )
    assert len(set(starts)) >= 5
    assert tab.errors == []


# -- explore ---------------------------------------------------------------------------------


def explore(page: Any, base_url: str, query: str = "") -> dict[str, Any]:
    """Open Explore (with a query string); return its index once the table is filled."""
    page.goto(base_url + "explore/" + query, wait_until="networkidle")
    page.locator("#ddl-explore[data-ready='true']").wait_for(timeout=15000)
    index: dict[str, Any] = page.evaluate("async () => (await fetch('index.json')).json()")
    return index


def all_rows(page: Any) -> set[str]:
    """Return the ids of every matching Explore row (after "Show all" when offered)."""
    button = page.locator("[data-ddl-more]:not([hidden]) button")
    if button.count():
        button.click()
        page.wait_for_function("document.querySelector('[data-ddl-more]').hidden")
    ids: list[str] = page.locator("#ddl-explore tbody tr").evaluate_all(
        "rs => rs.map(r => r.dataset.id)"
    )
    return set(ids)


def test_explore_software_covers_frameworks_and_libraries(tab: Tab, base_url: str) -> None:
    page = tab.page
    index = explore(page, base_url, "?kind=software")
    expected = {r["id"] for r in index["entries"] if r["k"] in ("framework", "library")}
    assert {"deepspeed", "torchtitan"} <= expected
    assert all_rows(page) == expected
    assert tab.errors == []


def test_explore_takes_several_topics_and_tags_at_once(tab: Tab, base_url: str) -> None:
    page = tab.page
    index = explore(page, base_url, "?tag=moe&tag=long-context")
    rows = index["entries"]
    tags = {"moe", "long-context"} & set(index["tags"])
    assert len(tags) == 2, "the real catalog has both tags"
    either = {r["id"] for r in rows if tags & set(r["g"])}
    both = {r["id"] for r in rows if tags <= set(r["g"])}
    assert all_rows(page) == either
    page.locator("details[data-pick='tag'] summary").click()
    page.locator("input[name='tagmode'][value='all']").check()
    page.wait_for_function("() => new URLSearchParams(location.search).get('tagmode') === 'all'")
    assert all_rows(page) == both and both < either
    assert "2 chosen (all)" in page.locator("details[data-pick='tag'] summary").inner_text()

    topics = ["fault-tolerance", "communication"]
    explore(page, base_url, "?" + "&".join(f"category={t}" for t in topics))
    assert all_rows(page) == {r["id"] for r in rows if set(topics) & set(r["c"])}
    assert tab.errors == []


def test_explore_matches_venue_words_and_has_a_venue_facet(tab: Tab, base_url: str) -> None:
    page = tab.page
    index = explore(page, base_url)
    nsdi_2025 = {r["id"] for r in index["entries"] if r.get("vl") == "NSDI 2025"}
    assert nsdi_2025
    page.fill("input[name='text']", "NSDI 2025")
    page.wait_for_function("() => new URLSearchParams(location.search).get('text') === 'NSDI 2025'")
    assert nsdi_2025 <= all_rows(page)
    explore(page, base_url, "?venue=NSDI")
    assert all_rows(page) == {r["id"] for r in index["entries"] if r.get("v") == "NSDI"}
    assert tab.errors == []


def test_explore_says_what_to_do_when_nothing_matches(tab: Tab, base_url: str) -> None:
    page = tab.page
    explore(page, base_url, "?kind=paper&tag=moe&text=zzqqxx")
    empty = page.locator("[data-ddl-empty]")
    assert empty.is_visible()
    buttons = empty.locator("button").all_inner_texts()
    assert any("Words: zzqqxx" in b for b in buttons) and any("Tag: moe" in b for b in buttons)
    empty.get_by_role("button", name="Remove Words: zzqqxx").click()
    page.wait_for_function("() => !new URLSearchParams(location.search).has('text')")
    assert not empty.is_visible() and all_rows(page)
    found = axe_violations(page, impacts=())
    assert found == [], "\n".join(found)
    assert tab.errors == []


def test_explore_rows_are_short_on_a_phone(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = ctx.new_page()
        explore(page, base_url, "?kind=paper")
        heights = page.locator("#ddl-explore tbody tr").evaluate_all(
            "rs => rs.map(r => r.getBoundingClientRect().height)"
        )
        assert heights and sum(heights) / len(heights) <= 100, heights[:5]
        width = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1]
    finally:
        ctx.close()
