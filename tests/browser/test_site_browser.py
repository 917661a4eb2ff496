"""The website in a real browser: Debian's headless Chromium driven by Playwright for Python.

The built site is served on 127.0.0.1 by a thread of http.server; any request to another host
is blocked and recorded, so these tests also prove a page makes no third-party request.
Outside CI, when no Chromium-based browser is on PATH, the tests are left out with one summary
line saying how to run them (conftest.py); in CI (CI=true) that is a failure.
Screenshots go to test-artifacts/ (git-ignored). Fixtures: conftest.py; helpers: helpers.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from browser.helpers import (
    ARTIFACTS,
    SEARCH_OPEN,
    Tab,
    axe_violations,
)

pytestmark = pytest.mark.browser


def test_home_loads_without_console_errors(tab: Tab, base_url: str) -> None:
    tab.page.goto(base_url, wait_until="networkidle")
    assert "Distributed Deep Learning Catalog" in tab.page.title()
    assert tab.page.locator("#recently-added").count() == 1
    assert tab.errors == []
    assert tab.foreign == []
    ARTIFACTS.mkdir(exist_ok=True)
    tab.page.screenshot(path=str(ARTIFACTS / "site-home.png"), full_page=True)


def test_explore_filters_and_sorts(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url + "explore/", wait_until="networkidle")
    page.locator("#ddl-explore[data-ready='true']").wait_for(timeout=15000)
    index = page.evaluate("async () => (await fetch('index.json')).json()")
    rows = index["entries"]
    # The first 25 rows come at once; "Show all" adds the rest.
    assert len(rows) > 25 and page.locator("#ddl-explore tbody tr").count() == 25
    assert page.locator("[data-ddl-count]").inner_text() == str(len(rows))
    show_all = page.get_by_role("button", name=f"Show all {len(rows)} entries")
    show_all.click()
    page.wait_for_function(
        f"document.querySelectorAll('#ddl-explore tbody tr').length === {len(rows)}"
    )
    assert not show_all.is_visible()

    page.select_option("select[name='kind']", "paper")
    page.fill("input[name='from']", "2015")
    page.fill("input[name='to']", "2017")
    expected = {r["id"] for r in rows if r["k"] == "paper" and r["y"] and 2015 <= r["y"] <= 2017}
    assert expected, "the real catalog has papers from 2015 to 2017"
    assert set(matching_rows(page)) == expected
    assert page.locator("[data-ddl-count]").inner_text() == str(len(expected))
    assert "kind=paper" in page.url and "from=2015" in page.url

    page.fill("input[name='from']", "")
    page.fill("input[name='to']", "")
    year_column = "rs => rs.map(r => r.children[2].textContent)"
    page.locator("button[data-sort='y']").click()
    years = [int(y) for y in page.locator("#ddl-explore tbody tr").evaluate_all(year_column) if y]
    assert years == sorted(years) and len(set(years)) > 1
    assert page.locator("th:has(button[data-sort='y'])").get_attribute("aria-sort") == "ascending"
    page.locator("button[data-sort='y']").click()
    years = [int(y) for y in page.locator("#ddl-explore tbody tr").evaluate_all(year_column) if y]
    assert years == sorted(years, reverse=True)
    assert tab.errors == []


def test_palette_toggle_switches_scheme(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url, wait_until="networkidle")
    body = page.locator("body")
    assert body.get_attribute("data-md-color-scheme") == "default"
    page.locator("form[data-md-component='palette'] label:visible").first.click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'", timeout=5000)
    page.locator("form[data-md-component='palette'] label:visible").first.click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'default'", timeout=5000)


def test_explore_screenshot_and_no_foreign_requests(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url + "explore/?kind=paper", wait_until="networkidle")
    page.locator("#ddl-explore[data-ready='true']").wait_for(timeout=15000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site-explore.png"), full_page=False)
    assert tab.foreign == []
    assert tab.errors == []


@pytest.mark.parametrize("path", ["", "explore/"])
def test_no_serious_accessibility_violations(tab: Tab, base_url: str, path: str) -> None:
    tab.page.goto(base_url + path, wait_until="networkidle")
    if path == "explore/":
        tab.page.locator("#ddl-explore[data-ready='true']").wait_for(timeout=15000)
    violations = axe_violations(tab.page)
    assert violations == [], "\n".join(violations)


def test_moved_card_permalink_is_followed(tab: Tab, base_url: str) -> None:
    """A topic's page keeps /<top>/#<id> working: its overview line forwards to the card."""
    page = tab.page
    page.goto(base_url + "parallelism/#horovod")
    page.wait_for_function(
        "location.href.endsWith('/parallelism/data-parallelism/#horovod')", timeout=10000
    )
    page.locator("h3#horovod").wait_for(state="visible")
    from playwright.sync_api import expect

    expect(page.locator("h3#horovod")).to_be_in_viewport()
    # The same from a stub reached by a change of the address within a page.
    page.goto(base_url + "explore/", wait_until="networkidle")
    page.evaluate(
        """() => {
            const li = document.createElement('li');
            li.id = 'moved-probe';
            const card = '../parallelism/pipeline-parallelism/#huang2019gpipe';
            li.setAttribute('data-ddl-moved', card);
            document.body.appendChild(li);
            location.hash = 'moved-probe';
        }"""
    )
    page.wait_for_function("location.href.endsWith('/pipeline-parallelism/#huang2019gpipe')")
    page.locator("h3#huang2019gpipe").wait_for(state="visible")
    # And from a long page's JSON map of the lines it leaves out (no element of its own).
    page.goto(base_url + "explore/", wait_until="networkidle")
    page.evaluate(
        """() => {
            const map = document.createElement('script');
            map.type = 'application/json';
            map.className = 'ddl-moved-map';
            map.textContent = JSON.stringify({
                'map-probe': '../parallelism/data-parallelism/#horovod',
                'evil': 'javascript:alert(1)'});
            document.body.appendChild(map);
            location.hash = 'evil';
        }"""
    )
    page.wait_for_timeout(300)
    assert page.url.endswith("/explore/#evil")
    page.evaluate("() => { location.hash = 'map-probe'; }")
    page.wait_for_function("location.href.endsWith('/data-parallelism/#horovod')")
    page.locator("h3#horovod").wait_for(state="visible")
    assert json.dumps(tab.errors) == "[]"


# -- Explore state in the address, tag links, citing one paper -------------------------------

ROW_IDS = "rs => rs.map(r => r.dataset.id)"
FILTER_VALUES = """root => Object.fromEntries(
    ['kind', 'venue', 'from', 'to', 'tagmode', 'text'].map(n => [n, root.elements[n].value])
    .concat(['category', 'tag'].map(n => [n, Array.from(root.querySelectorAll(
        `input[name="${n}"]:checked`)).map(box => box.value)])))"""


def checked(page: Any, name: str) -> list[str]:
    """Return the values of an Explore checkbox group that are ticked."""
    values: list[str] = page.locator(f"#ddl-explore input[name='{name}']:checked").evaluate_all(
        "boxes => boxes.map(box => box.value)"
    )
    return values


def tick(page: Any, name: str, value: str) -> None:
    """Open the disclosure of an Explore checkbox group and tick one of its boxes."""
    details = page.locator(f"#ddl-explore details[data-pick='{name}']")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    details.locator(f"input[name='{name}'][value='{value}']").check()


def explore_ready(page: Any) -> None:
    """Wait until the Explore table is filled from its index."""
    page.locator("#ddl-explore[data-ready='true']").wait_for(timeout=15000)


def words_ready(page: Any) -> None:
    """Wait until the text filter has the authors and descriptions (fetched on first use)."""
    page.locator("#ddl-explore[data-text='ready']").wait_for(timeout=15000)


def shown_rows(page: Any) -> list[str]:
    """Return the ids of the Explore rows, in the order shown."""
    ids: list[str] = page.locator("#ddl-explore tbody tr").evaluate_all(ROW_IDS)
    return ids


def matching_rows(page: Any) -> list[str]:
    """Return the ids of every Explore row that matches, after "Show all" when it is offered."""
    button = page.locator("[data-ddl-more]:not([hidden]) button")
    if button.count():
        button.click()
        page.wait_for_function("document.querySelector('[data-ddl-more]').hidden")
    return shown_rows(page)


def search_overlay_open(page: Any) -> bool:
    """Return whether the site's search dialog is open (it opens on ?q=; Explore's filters not)."""
    return bool(page.locator(SEARCH_OPEN).count() > 0)


def test_explore_view_is_shared_by_its_address(tab: Tab, browser: Any, base_url: str) -> None:
    """Every filter and the sort go into the address; that address reopens the same rows."""
    page = tab.page
    page.goto(base_url + "explore/", wait_until="networkidle")
    explore_ready(page)
    index = page.evaluate("async () => (await fetch('index.json')).json()")
    row = next(r for r in index["entries"] if r["k"] == "paper" and r["y"] and r["g"])
    word = max(row["t"].split(), key=len).lower()

    page.select_option("select[name='kind']", "paper")
    tick(page, "category", row["c"][0])
    tick(page, "tag", row["g"][0])
    page.fill("input[name='from']", str(row["y"] - 3))
    page.fill("input[name='to']", str(row["y"]))
    page.fill("input[name='text']", word)
    words_ready(page)
    page.locator("button[data-sort='y']").click()
    page.locator("button[data-sort='y']").click()  # newest first
    rows = shown_rows(page)
    assert row["id"] in rows
    filters = page.locator("#ddl-explore form").evaluate(FILTER_VALUES)
    url = page.url
    query = url.split("?", 1)[1]
    for name in ("kind=paper", "category=", "tag=", "from=", "to=", "text=", "sort=-y"):
        assert name in query, (name, url)
    assert "q=" not in query.replace("text=", "")  # the site's search reads ?q=

    other = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        second = other.new_page()
        second.goto(url, wait_until="networkidle")
        explore_ready(second)
        assert shown_rows(second) == rows
        assert second.locator("#ddl-explore form").evaluate(FILTER_VALUES) == filters
        assert not search_overlay_open(second)
        sort = second.locator("th:has(button[data-sort='y'])").get_attribute("aria-sort")
        assert sort == "descending"
    finally:
        other.close()
    assert tab.errors == []


def test_explore_typing_writes_the_address_once_typing_pauses(tab: Tab, base_url: str) -> None:
    """One history entry for a word typed, written when typing pauses, not per keystroke."""
    page = tab.page
    page.goto(base_url + "explore/", wait_until="networkidle")
    explore_ready(page)
    page.evaluate(
        """() => { window.historyCalls = 0;
        for (const name of ["pushState", "replaceState"]) {
          const original = history[name].bind(history);
          history[name] = (...args) => { window.historyCalls++; return original(...args); };
        } }"""
    )
    page.locator("input[name='text']").press_sequentially("tensor", delay=40)
    assert shown_rows(page)
    page.wait_for_function("() => new URLSearchParams(location.search).get('text') === 'tensor'")
    assert page.evaluate("window.historyCalls") == 2  # the first key's entry, then the word
    page.go_back()
    page.wait_for_function("() => location.search === ''")
    assert tab.errors == []


def test_explore_back_and_forward_restore_the_filters(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url + "explore/", wait_until="networkidle")
    explore_ready(page)
    everything = shown_rows(page)

    def matching() -> int:
        return int(page.locator("[data-ddl-count]").inner_text())

    total = matching()
    page.select_option("select[name='kind']", "paper")
    papers = shown_rows(page)
    assert 0 < matching() < total and papers != everything
    page.fill("input[name='from']", "2016")
    recent = shown_rows(page)
    assert recent and matching() < total

    page.go_back()
    page.wait_for_function("() => !new URLSearchParams(location.search).has('from')")
    assert page.input_value("input[name='from']") == ""
    assert page.input_value("select[name='kind']") == "paper"
    assert shown_rows(page) == papers
    page.go_back()
    page.wait_for_function("() => location.search === ''")
    assert page.input_value("select[name='kind']") == ""
    assert shown_rows(page) == everything
    page.go_forward()
    page.go_forward()
    page.wait_for_function("() => new URLSearchParams(location.search).get('from') === '2016'")
    assert page.input_value("input[name='from']") == "2016"
    assert shown_rows(page) == recent
    assert not search_overlay_open(page)
    assert tab.errors == []


def test_tag_chip_opens_explore_filtered_by_that_tag(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url + "parallelism/data-parallelism/", wait_until="networkidle")
    chip = page.locator("article:has(h3#horovod) a.ddl-tag").first
    tag = chip.inner_text()
    chip.click()
    page.wait_for_url(lambda url: "/explore/" in url and f"tag={tag}" in url)
    explore_ready(page)
    assert checked(page, "tag") == [tag]
    index = page.evaluate("async () => (await fetch('index.json')).json()")
    expected = {r["id"] for r in index["entries"] if tag in r["g"]}
    assert "horovod" in expected
    assert set(matching_rows(page)) == expected
    assert not search_overlay_open(page)

    # The tags page lists every tag, each leading to the same view.
    page.goto(base_url + "tags/", wait_until="networkidle")
    page.locator(f"dt#tag-{tag} a.ddl-tag").click()
    page.wait_for_url(lambda url: "/explore/" in url and f"tag={tag}" in url)
    explore_ready(page)
    assert set(matching_rows(page)) == expected

    # A tag in the table filters by that tag alone, in place, as a new history entry.
    link = page.locator("#ddl-explore tbody a[data-tag]").filter(has_not_text=tag).first
    other = link.inner_text()
    link.click()
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('tag') === '{other}'")
    assert checked(page, "tag") == [other]  # that tag alone
    assert set(matching_rows(page)) == {r["id"] for r in index["entries"] if other in r["g"]}
    page.go_back()
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('tag') === '{tag}'")
    assert set(matching_rows(page)) == expected
    assert tab.errors == []


def test_paper_card_offers_its_bibtex_file_copy_and_permalink(browser: Any, base_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        service_workers="block",
        permissions=["clipboard-read", "clipboard-write"],
    )
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base_url + "parallelism/pipeline-parallelism/", wait_until="networkidle")
        card = page.locator("article.ddl-entry--paper").first
        entry_id = card.locator("h3").get_attribute("id")
        link = card.locator("a.ddl-bib-file")
        assert link.get_attribute("download") == f"{entry_id}.bib"
        bib = page.evaluate("async href => (await fetch(href)).text()", link.get_attribute("href"))
        assert bib.startswith("@") and "{" + f"{entry_id}," in bib.splitlines()[0]

        card.locator("button.ddl-copy-bib__button").click()
        page.get_by_text("Copied to clipboard").wait_for()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied.strip() == bib.strip()

        card.locator("a.ddl-permalink").click()
        page.wait_for_function(f"() => location.hash === '#{entry_id}'")
        assert errors == []
    finally:
        context.close()


# -- phone layout and accessibility of every page type ---------------------------------------

#: One page of each type: home, a topic (overview), a subtopic, Explore, papers by year, tags,
#: a docs page.
PAGE_TYPES = (
    "",
    "parallelism/",
    "parallelism/expert-parallelism/",
    "explore/",
    "compare/",
    "timeline/",
    "papers-by-year/",
    "venues/",
    "venues/sosp/",
    "new/",
    "kinds/software/",
    "tags/",
    "data-format/",
)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

#: Elements of the main content whose own text is below 12px (Lighthouse's legible-font size).
SMALL_TEXT = """() => {
  const small = [];
  for (const el of document.querySelectorAll('.md-content *')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 12) small.push(`${el.tagName} ${size}px: ${el.textContent.trim().slice(0, 40)}`);
  }
  return small;
}"""

#: Titles (cards, lists, Explore rows) with a word split over two lines.
BROKEN_WORDS = """() => {
  const broken = [];
  const titles = document.querySelectorAll(
    '.ddl-entry h3 > a:first-child, .ddl-compact a, #ddl-explore tbody td:first-child a');
  for (const el of [...titles].slice(0, 400)) {
    const text = el.firstChild;
    if (!text || text.nodeType !== 3) continue;
    const words = /[^\\s\\-\\u2010-\\u2015\\/]+/g;
    let m;
    while ((m = words.exec(text.textContent))) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      if (range.getClientRects().length > 1) {
        broken.push(m[0] + ' in ' + text.textContent);
        break;
      }
    }
  }
  return broken;
}"""

#: Sum of the layout shifts since the page started loading (Cumulative Layout Shift, roughly).
LAYOUT_SHIFT = """() => new Promise(resolve => {
  let total = 0;
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value;
  }).observe({type: 'layout-shift', buffered: true});
  setTimeout(() => resolve(total), 500);
})"""


def open_page(browser: Any, base_url: str, path: str, viewport: dict[str, int], scheme: str) -> Any:
    """Open one page in a fresh context; wait for the Explore table when it is the page."""
    context = browser.new_context(color_scheme=scheme, viewport=viewport, service_workers="block")
    page = context.new_page()
    page.goto(base_url + path, wait_until="networkidle")
    if path == "explore/":
        explore_ready(page)
    if path == "compare/":
        page.locator("#ddl-compare[data-ready='true']").wait_for(timeout=15000)
    return page


@pytest.mark.parametrize("path", PAGE_TYPES)
def test_phone_layout_is_legible_and_fits(browser: Any, base_url: str, path: str) -> None:
    """At 390 px: no text below 12px, nothing wider than the screen, no word broken in a title."""
    page = open_page(browser, base_url, path, PHONE, "light")
    try:
        # Lay out the cards that wait for the screen, so they are measured too.
        page.evaluate(
            "() => document.querySelectorAll('.ddl-deferred').forEach("
            "box => { box.style.contentVisibility = 'visible'; })"
        )
        assert page.evaluate(SMALL_TEXT) == []
        width = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"page is {width[0]}px wide on a {width[1]}px screen"
        assert page.evaluate(BROKEN_WORDS) == []
        styles = page.evaluate(
            """() => [...document.querySelectorAll('.md-content *')].map(
                e => getComputedStyle(e).wordBreak).filter(w => w === 'break-all')"""
        )
        assert styles == []
        if path == "explore/":
            wrap = page.locator(".ddl-table-wrap")
            # A row is a block of its own on a phone (test_reading_browser measures its height):
            # every column is in view, nothing to scroll sideways.
            assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
    finally:
        page.context.close()


def test_explore_does_not_shift_while_it_loads(browser: Any, base_url: str) -> None:
    """The Explore table reserves its space: CLS stays under 0.1 on a phone and a desktop."""
    for viewport in (PHONE, DESKTOP):
        page = open_page(browser, base_url, "explore/?kind=paper", viewport, "light")
        try:
            shift = page.evaluate(LAYOUT_SHIFT)
            assert shift < 0.1, f"layout shift {shift:.3f} at {viewport['width']}px"
        finally:
            page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", PAGE_TYPES)
def test_axe_finds_nothing_on_each_page_type(
    browser: Any, base_url: str, path: str, scheme: str, viewport: dict[str, int]
) -> None:
    """axe-core, every rule and impact, in both of Material's schemes at both widths."""
    page = open_page(browser, base_url, path, viewport, scheme)
    try:
        # Material picks the palette whose media query matches once its script has run.
        expected = "slate" if scheme == "dark" else "default"
        page.wait_for_function(f"document.body.dataset.mdColorScheme === '{expected}'")
        found = axe_violations(page, impacts=())
        assert found == [], "\n".join(found)
    finally:
        page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["papers-by-year/", "parallelism/expert-parallelism/"])
def test_axe_finds_nothing_on_the_parts_of_a_long_list(
    browser: Any, split_url: str, path: str, scheme: str
) -> None:
    """A list in parts: "Page 1 · 2 · 3" not told apart by colour alone, each nav named apart."""
    page = open_page(browser, split_url, path, PHONE, scheme)
    try:
        assert page.locator("nav.ddl-parts a").count() >= 1, "expected a list in parts"
        found = axe_violations(page, impacts=())
        assert found == [], "\n".join(found)
    finally:
        page.context.close()


def test_explore_filters_by_upkeep(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url + "explore/?state=not-maintained", wait_until="networkidle")
    explore_ready(page)
    index = page.evaluate("async () => (await fetch('index.json')).json()")
    expected = {
        r["id"]
        for r in index["entries"]
        if r["m"] and r["m"] not in ("active", "maintenance-only", "unknown")
    }
    assert expected and page.locator("select[name='state']").input_value() == "not-maintained"
    assert set(matching_rows(page)) == expected
    page.select_option("select[name='state']", "maintained")
    looked = {r["id"] for r in index["entries"] if r["m"] in ("active", "maintenance-only")}
    page.wait_for_function(
        f"document.querySelector('[data-ddl-count]').textContent === '{len(looked)}'"
    )
    assert "state=maintained" in page.url
    assert tab.errors == []


def test_a_year_on_a_later_part_keeps_its_old_anchor(tab: Tab, base_url: str) -> None:
    """/papers-by-year/#year-N, written before the list came in parts, lands on N's part."""
    page = tab.page
    page.goto(base_url + "papers-by-year/", wait_until="networkidle")
    stubs = page.locator("[data-ddl-moved^='2/#year-']").evaluate_all(
        "ss => ss.map(s => [s.id, s.dataset.ddlMoved])"
    )
    assert stubs, "the real catalog's year list comes in parts"
    anchor, href = stubs[-1]
    page.goto(base_url + f"papers-by-year/#{anchor}")
    page.wait_for_function(f"location.href.endsWith('/papers-by-year/{href}')", timeout=10000)
    page.locator(f"h2#{anchor}").wait_for(state="visible")
    assert tab.errors == []


#: The boxes laid out on approach (later cards, lists below them): for each, the height it
#: holds until laid out, its laid-out height, its cards.
DEFERRED = """() => [...document.querySelectorAll('.ddl-deferred')].map(box => {
  const held = parseFloat(getComputedStyle(box).containIntrinsicHeight.replace('auto ', ''));
  box.style.contentVisibility = 'visible';
  const real = box.getBoundingClientRect().height;
  box.style.contentVisibility = '';
  return [held, real, box.querySelectorAll('article.ddl-entry').length];
})"""


@pytest.mark.parametrize(
    "path", ["parallelism/expert-parallelism/", "frameworks/llm-frameworks/", "parallelism/"]
)
def test_later_cards_wait_for_the_screen_and_anchors_still_reach_them(
    browser: Any, base_url: str, path: str
) -> None:
    """Cards past the third are laid out on approach: their box holds more than they take (so
    nothing lands on the footer before), an anchor scrolls to its card, a printout shows all."""
    page = open_page(browser, base_url, path, {"width": 320, "height": 640}, "light")
    try:
        boxes = page.evaluate(DEFERRED)
        if path == "parallelism/":  # a topic page: an overview of lines, no cards to defer
            assert boxes == []
            return
        assert any(cards for _held, _real, cards in boxes), boxes  # the later cards wait too
        for held, real, _cards in boxes:
            assert real <= held, boxes
        last = page.locator(".ddl-later-cards article.ddl-entry h3").last
        anchor = last.get_attribute("id")
        assert last.evaluate("e => e.checkVisibility({contentVisibilityAuto: true})") is False
        page.goto(f"{base_url}{path}#{anchor}")
        from playwright.sync_api import expect

        expect(page.locator(f"h3#{anchor}")).to_be_in_viewport()
        page.emulate_media(media="print")
        box = page.locator(".ddl-later-cards")
        assert box.evaluate("e => getComputedStyle(e).contentVisibility") == "visible"
    finally:
        page.context.close()


def test_explore_text_filter_fetches_descriptions_on_first_use(tab: Tab, base_url: str) -> None:
    """Opening Explore fetches no words; the text filter fetches them once, and then a word
    found only in a description finds its entry."""
    page = tab.page
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(base_url + "explore/", wait_until="networkidle")
    explore_ready(page)
    page.locator("select[name='kind']").select_option("paper")
    assert not any(url.endswith("/explore/text.json") for url in fetched)
    page.locator("input[name='text']").press_sequentially("memory redundancy", delay=30)
    words_ready(page)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#ddl-explore tbody tr')]"
        ".some(tr => tr.dataset.id === 'rajbhandari2020zero')"
    )
    assert sum(url.endswith("/explore/text.json") for url in fetched) == 1
    page.locator("input[name='text']").fill("")
    page.locator("input[name='text']").press_sequentially("memory redundancy", delay=30)
    assert sum(url.endswith("/explore/text.json") for url in fetched) == 1
    assert tab.errors == []
