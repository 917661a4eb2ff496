"""The Compare page in a real browser: filters, combinations, a phone's layout, notes, colours.

Every test runs on the site of each engine (DDL_ENGINES); the layout, note, colour and axe tests
at a phone's and a desktop's width, in the light and the dark scheme. Fixtures: conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser.helpers import REPO, Tab, axe_violations, copy_of_the_catalog, serving
from ddl_catalog import matrix
from ddl_catalog.model.build import open_catalog
from ddl_catalog.render.site import build_site

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
SCHEMES = pytest.mark.parametrize("scheme", ["light", "dark"])
PP_EP_AMD = ("pipeline-parallel", "expert-parallel", "amd-rocm")


def open_compare(
    browser: Any, url: str, viewport: dict[str, int], scheme: str = "light", query: str = ""
) -> tuple[Any, list[str]]:
    """Open the Compare page in a fresh context (touch on a phone); return it and its errors."""
    context = browser.new_context(
        color_scheme=scheme,
        viewport=viewport,
        has_touch=viewport["width"] < 600,
        service_workers="block",
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.extend([m.text] if m.type == "error" else []))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "compare/" + query, wait_until="networkidle")
    page.locator("#ddl-compare[data-ready='true']").wait_for(timeout=15000)
    return page, errors


def compare_rows(page: Any) -> list[str]:
    """Return the names of the Compare rows shown, in order."""
    names = page.locator("#ddl-compare tbody tr:not([hidden])").evaluate_all(
        "rs => rs.map(r => r.dataset.name)"
    )
    return [str(name) for name in names]


def caveats(page: Any) -> dict[str, str]:
    """Return {row name: its caveat} for the rows shown with one."""
    return dict(
        page.locator("#ddl-compare tbody tr:not([hidden]) .ddl-caveat").evaluate_all(
            "cs => cs.map(c => [c.closest('tr').dataset.name, c.textContent])"
        )
    )


def column_index(page: Any, column: str) -> int:
    """Return the place of a column among the cells of a row (1: the first after the name)."""
    order = page.locator("#ddl-compare thead th[data-col]").evaluate_all(
        "ths => ths.map(th => th.dataset.col)"
    )
    return int(order.index(column)) + 1


def mark(page: Any, row: str, column: str) -> Any:
    """Return the value (link, or span without a source) of one cell."""
    index = column_index(page, column) + 1  # nth-child counts the row's name
    return page.locator(
        f"#ddl-compare tr[data-name='{row}'] > td:nth-child({index}) > :first-child"
    )


WRAP = "#ddl-compare .ddl-table-wrap"
CORNER = "#ddl-compare thead th.ddl-corner"


def box(locator: Any) -> tuple[float, float]:
    """Return the left and right edges of an element on the screen."""
    found = locator.bounding_box()
    assert found is not None
    return found["x"], found["x"] + found["width"]


def expected_caveats(
    needs: tuple[str, ...], partial: bool = False, together: bool = False
) -> dict[str, str]:
    """Return what matrix.combination says of the real catalog's rows shown for these needs."""
    catalog = open_catalog(REPO)
    found = {}
    for row in matrix.rows(catalog):
        combined = matrix.combination(row, needs)
        text = combined.caveat(partial)
        if text and combined.holds(partial, together=together) and combined.holds(partial):
            found[row.entry.title.lower()] = f"⚠ {text}"
    return found


# -- filters -------------------------------------------------------------------------------


def test_compare_filters_by_needed_capabilities_and_keeps_them_in_the_address(
    tab: Tab, browser: Any, base_url: str
) -> None:
    """ "Pipeline and expert parallelism on AMD": the rows that claim all three, shareable."""
    page = tab.page
    page.goto(base_url + "compare/", wait_until="networkidle")
    page.locator("#ddl-compare[data-ready='true']").wait_for(timeout=15000)
    cells = page.locator("#ddl-compare tbody tr").evaluate_all(
        "rs => rs.map(r => [r.dataset.name, r.dataset.cells, r.dataset.maintained])"
    )
    names = [name for name, _, _ in cells]
    assert len(cells) >= 25 and compare_rows(page) == names[:30]  # the first rows at first
    page.locator("#ddl-compare [data-ddl-more] button").click()
    assert compare_rows(page) == names

    def has(spec: str, key: str, partial: bool = False) -> bool:
        value = dict(pair.split("=") for pair in spec.split())[key]
        return value == "yes" or (partial and value == "partial")

    for need in PP_EP_AMD:
        page.check(f"input[name='need'][value='{need}']")
    wanted = [n for n, spec, _ in cells if all(has(spec, k) for k in PP_EP_AMD)]
    assert wanted, "the real catalog has frameworks with PP + EP on AMD"
    assert compare_rows(page) == wanted  # as claimed: the default reading
    assert page.locator("[data-ddl-count]").inner_text() == str(len(wanted))
    assert "need=pipeline-parallel%2Cexpert-parallel%2Camd-rocm" in page.url
    page.check("input[name='partial']")
    page.check("input[name='maintained']")
    with_partial = [
        n for n, spec, kept in cells if kept == "yes" and all(has(spec, k, True) for k in PP_EP_AMD)
    ]
    assert compare_rows(page) == with_partial
    # The address reopens the same view in a new tab; back returns to the previous one.
    other = browser.new_context(service_workers="block").new_page()
    other.goto(page.url, wait_until="networkidle")
    other.locator("#ddl-compare[data-ready='true']").wait_for(timeout=15000)
    assert compare_rows(other) == with_partial
    assert other.locator("input[name='maintained']").is_checked()
    other.context.close()
    page.go_back()
    page.wait_for_function("!document.querySelector(\"input[name='maintained']\").checked")
    assert not page.locator("input[name='maintained']").is_checked()
    # Sorting by capabilities puts the richest first.
    page.locator("#ddl-compare button[type='reset']").click()
    page.select_option("select[name='sort']", "most")
    score = {n: 2 * spec.count("=yes") for n, spec, _ in cells}
    order = [score[n] for n in compare_rows(page)]
    assert order == sorted(order, reverse=True) and len(set(order)) > 1
    assert "sort=most" in page.url
    # Every value with a source links it, and the source is http(s).
    hrefs = page.locator("#ddl-compare td.ddl-cell > a").evaluate_all("as => as.map(a => a.href)")
    assert hrefs and all(h.startswith(("https://", "http://")) for h in hrefs)
    assert tab.errors == []


def test_compare_says_which_combinations_are_not_shown_together(tab: Tab, base_url: str) -> None:
    """verl claims PP, EP and AMD, but its PP and EP come via Megatron-LM, partial on AMD."""
    page = tab.page
    query = "?need=" + ",".join(PP_EP_AMD)
    page.goto(base_url + "compare/" + query, wait_until="networkidle")
    page.locator("#ddl-compare[data-ready='true']").wait_for(timeout=15000)
    claimed = compare_rows(page)
    assert "verl" in claimed
    shown = caveats(page)
    assert shown["verl"] == (
        "⚠ Not shown to work together: PP comes via Megatron-LM, whose AMD support is partial; "
        "EP comes via Megatron-LM, whose AMD support is partial."
    )
    assert shown == expected_caveats(PP_EP_AMD)  # the script reads the matrix as Python does
    status = page.locator(".ddl-count").inner_text()
    assert f"of these, {len(shown)} claim every need cell by cell" in status
    # The other reading: only the combinations shown to work together.
    page.check("input[name='together']")
    assert "together=1" in page.url
    together = compare_rows(page)
    assert "verl" not in together and together == [n for n in claimed if n not in shown]
    assert page.locator("[data-ddl-count]").inner_text() == str(len(together))
    assert f"{len(shown)} more claim every need" in page.locator(".ddl-count").inner_text()
    # Counting partial support, PP via a project that is partial on AMD is "at most partial".
    page.check("input[name='partial']")
    assert "verl" in compare_rows(page)
    assert caveats(page)["verl"].startswith("⚠ Together at most partial: PP comes via Megatron-LM")
    assert caveats(page) == expected_caveats(PP_EP_AMD, partial=True, together=True)
    # A need without hardware has no caveat: PP + EP alone.
    page.uncheck("input[name='need'][value='amd-rocm']")
    assert caveats(page) == {}
    assert tab.errors == []


@pytest.fixture(scope="module")
def wide_compare_url(tmp_path_factory: pytest.TempPathFactory, engine: str) -> Iterator[str]:
    """The real catalog plus a copy of every framework in the matrix: about 100 rows to compare."""
    import yaml

    root = copy_of_the_catalog(tmp_path_factory.mktemp(f"wide-{engine}"))
    for path in sorted((root / "data").glob("*/*.yml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict) or "capabilities" not in doc:
            continue
        doc.pop("identifiers", None)
        doc.update(
            id=f"{doc['id']}-copy",
            title=f"{doc['title']} (copy)",
            url=f"https://example.org/copy/{doc['id']}",
        )
        text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=10_000)
        (path.parent / f"{doc['id']}.yml").write_text(text, encoding="utf-8")
    with serving(build_site(root, engine=engine)) as url:
        yield url


def test_compare_shows_its_first_rows_then_all_and_every_row_without_javascript(
    browser: Any, wide_compare_url: str
) -> None:
    """A long matrix: 30 rows at first, "Show all N", filters reach every row; no JS: all."""
    page, errors = open_compare(browser, wide_compare_url, PHONE)
    every = page.locator("#ddl-compare tbody tr").evaluate_all(
        "rs => rs.map(r => [r.dataset.name, r.dataset.cells])"
    )
    assert len(every) > 50
    assert compare_rows(page) == [name for name, _ in every[:30]]
    assert page.locator("#ddl-compare tr.ddl-later").count() == 0
    assert page.locator("[data-ddl-count]").inner_text() == str(len(every))
    # A filter looks at every row, the later ones too (a copy sorts right after its original).
    page.check("input[name='need'][value='expert-parallel']")
    wanted = [n for n, spec in every if "expert-parallel=yes" in spec.split()]
    assert compare_rows(page) == wanted[:30] and any(n.endswith("(copy)") for n in wanted[:30])
    assert page.locator("[data-ddl-count]").inner_text() == str(len(wanted))
    page.locator("#ddl-compare button[type='reset']").click()
    page.wait_for_function(
        f"document.querySelector('[data-ddl-count]').textContent === '{len(every)}'"
    )
    show_all = page.get_by_role("button", name=f"Show all {len(every)} frameworks")
    show_all.click()
    assert compare_rows(page) == [name for name, _ in every] and not show_all.is_visible()
    assert errors == []
    page.context.close()
    # Without JavaScript the table is the whole matrix, and the form is not shown.
    plain = browser.new_context(java_script_enabled=False, service_workers="block")
    page = plain.new_page()
    page.goto(wide_compare_url + "compare/")
    assert page.locator("#ddl-compare tbody tr:visible").count() == len(every)
    assert not page.locator("#ddl-compare form").is_visible()
    assert page.locator("#ddl-compare td.ddl-cell > a[href^='http']").count() > 500
    plain.close()


# -- a phone's layout ---------------------------------------------------------------------

#: Where the sticky parts of the table are after a sideways and a downward scroll: each shown
#: row's name beside its cells, the corner above the names, the labels at the top, and what
#: the browser finds on top at the middle of each name and of the corner.
GEOMETRY = """() => {
  const wrap = document.querySelector('#ddl-compare .ddl-table-wrap');
  const box = wrap.getBoundingClientRect();
  const corner = document.querySelector('#ddl-compare thead th.ddl-corner');
  const c = corner.getBoundingClientRect();
  const rows = [];
  for (const tr of document.querySelectorAll('#ddl-compare tbody tr:not([hidden])')) {
    const th = tr.querySelector('th').getBoundingClientRect();
    const td = tr.querySelector('td').getBoundingClientRect();
    const last = tr.lastElementChild.getBoundingClientRect();
    const x = th.left + th.width / 2, y = Math.max(th.top, c.bottom) + 4;
    if (th.bottom < c.bottom + 8 || y > Math.min(box.bottom, innerHeight) - 4) continue;  // hidden
    const hit = document.elementFromPoint(x, y);
    rows.push({name: tr.dataset.name, th: [th.left, th.top, th.bottom, th.right],
               cells: [td.top, td.bottom, last.top, last.bottom],
               onTop: !!hit && tr.querySelector('th').contains(hit)});
  }
  const labels = [...document.querySelectorAll('#ddl-compare thead th[data-col]')].map(th => {
    const r = th.getBoundingClientRect();
    return {col: th.dataset.col, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
  const hit = document.elementFromPoint(c.left + 6, c.top + c.height / 2);
  return {wrap: [box.left, box.top, box.right, box.bottom],
          corner: [c.left, c.top, c.right, c.bottom],
          cornerOnTop: !!hit && corner.contains(hit), rows, labels,
          scroll: [wrap.scrollLeft, wrap.scrollTop]};
}"""


@VIEWPORTS
@SCHEMES
def test_compare_names_and_labels_stay_put_when_the_table_scrolls(
    browser: Any, base_url: str, viewport: dict[str, int], scheme: str
) -> None:
    """After a swipe sideways and down, names stay beside their rows and above the labels."""
    page, errors = open_compare(browser, base_url, viewport, scheme)
    # The frame's top just below the site's header, then a swipe sideways and down inside it.
    page.locator("#ddl-compare .ddl-table-wrap").evaluate(
        "w => { scrollTo(0, w.getBoundingClientRect().top + scrollY - 70);"
        " w.scrollLeft = 400; w.scrollTop = 300; }"
    )
    page.wait_for_timeout(100)
    g = page.evaluate(GEOMETRY)
    assert g["scroll"][0] > 0 and g["scroll"][1] > 0, "the table scrolls inside its frame"
    left, top = g["wrap"][0], g["wrap"][1]
    assert abs(g["corner"][0] - left) < 2 and abs(g["corner"][1] - top) < 2  # the corner stays
    assert g["cornerOnTop"], "the corner is above the labels that slid under it"
    assert len(g["rows"]) >= 2
    for row in g["rows"]:
        th_left, th_top, th_bottom, _ = row["th"]
        assert abs(th_left - left) < 2, row  # the name stays at the left
        assert abs(th_top - row["cells"][0]) < 1.5 and abs(th_bottom - row["cells"][1]) < 1.5
        assert abs(th_top - row["cells"][2]) < 1.5, row  # the same line as its last cell
        assert row["onTop"], f"{row['name']}: cells or labels cover the name"
    names_right = g["corner"][2]
    for label in g["labels"]:
        assert abs(label["bottom"] - g["corner"][3]) < 1.5  # labels stay at the top
        if label["right"] > names_right + 1 and label["left"] < g["wrap"][2]:
            # a label in view is right of the names (it slid under the corner otherwise)
            hit = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y).closest('th')?.dataset.col || null",
                [max(label["left"], names_right) + 3, (label["top"] + label["bottom"]) / 2],
            )
            assert hit == label["col"], (label, hit)
    assert errors == []
    page.context.close()


@VIEWPORTS
def test_compare_ticking_a_need_brings_its_column_into_view(
    browser: Any, base_url: str, viewport: dict[str, int]
) -> None:
    """The chosen column, far right on a phone, scrolls in beside the names and is tinted."""
    page, errors = open_compare(browser, base_url, viewport)
    for need in ("huawei-ascend", "checkpoint-resharding", "data-parallel"):
        page.check(f"input[name='need'][value='{need}']")
        th = page.locator(f"#ddl-compare thead th[data-col='{need}']")
        r, names, wrap = box(th), box(page.locator(CORNER)), box(page.locator(WRAP))
        place = [r[0], r[1], names[1], wrap[1], "ddl-chosen" in (th.get_attribute("class") or "")]
        left, right, names_right, wrap_right, chosen = place
        assert left >= names_right - 1 and right <= wrap_right + 1, (need, place)
        assert chosen
    index = column_index(page, "huawei-ascend") + 1
    tinted = page.locator(f"#ddl-compare tbody tr > td:nth-child({index}).ddl-chosen").count()
    assert tinted == page.locator("#ddl-compare tbody tr").count()
    # Opened from an address with needs, the first chosen column is in view too.
    other, more = open_compare(browser, base_url, viewport, query="?need=cpu")
    r, wrap = box(other.locator("#ddl-compare thead th[data-col='cpu']")), box(other.locator(WRAP))
    place = [r[0] >= wrap[0], r[1] <= wrap[1] + 1]
    assert place == [True, True]
    assert errors == [] and more == []
    page.context.close()
    other.context.close()


# -- notes --------------------------------------------------------------------------------


@VIEWPORTS
def test_compare_note_opens_by_keyboard_and_by_tap(
    browser: Any, base_url: str, viewport: dict[str, int]
) -> None:
    """A noted value is a button: Tab to it, Enter opens its note, Escape closes; a tap too."""
    query = "?need=pipeline-parallel,expert-parallel"
    page, errors = open_compare(browser, base_url, viewport, query=query)
    assert page.locator("#ddl-compare td.ddl-cell [title]").count() == 0  # no hover-only notes
    value = mark(page, "verl", "pipeline-parallel")
    assert value.get_attribute("role") == "button"
    assert value.get_attribute("aria-label") == "PP: yes via Megatron-LM"
    assert value.get_attribute("aria-expanded") == "false"
    # Keyboard: from the cell before it, Tab, then Enter.
    mark(page, "verl", "sequence-parallel").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "PP: yes via Megatron-LM"
    )
    page.keyboard.press("Enter")
    note = page.locator("#ddl-compare-note")
    assert note.is_visible() and value.get_attribute("aria-expanded") == "true"
    assert note.get_attribute("role") == "dialog"
    assert note.get_attribute("aria-label") == "verl, PP: yes via Megatron-LM"
    text = note.inner_text()
    assert "Comes via Megatron-LM" in text
    assert "Limited to Megatron-LM's support: AMD partial, Ascend partial." in text
    assert note.get_by_role("link", name="Source").get_attribute("href").startswith("https://")
    assert (
        note.get_by_role("link", name="Megatron-LM").get_attribute("href").endswith("#megatron-lm")
    )
    in_view = page.evaluate(
        """() => {
          const n = document.querySelector('#ddl-compare-note').getBoundingClientRect();
          const w = document.querySelector('#ddl-compare .ddl-table-wrap').getBoundingClientRect();
          return n.left >= w.left - 1 && n.right <= w.right + 1;
        }"""
    )
    assert in_view, "the note fits in the frame"
    page.keyboard.press("Escape")
    assert not note.is_visible() and value.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "PP: yes via Megatron-LM"
    )
    # Space opens it too, and a value without a source (a span) is a button as well.
    page.keyboard.press(" ")
    assert note.is_visible()
    page.keyboard.press("Escape")
    spans = page.locator("#ddl-compare tr:not([hidden]) td.ddl-cell > span[role='button']")
    if spans.count():
        spans.first.focus()
        page.keyboard.press("Enter")
        assert note.is_visible()
        page.keyboard.press("Escape")
    # Tap (a phone) or click: opens; the close button or a tap elsewhere shuts it.
    if viewport["width"] < 600:
        value.tap()
    else:
        value.click()
    assert note.is_visible()
    note.get_by_role("button", name="Close the note").click()
    assert not note.is_visible()
    if viewport["width"] < 600:
        value.tap()
        assert note.is_visible()
        page.locator("h1").tap()
    else:
        value.click()
        assert note.is_visible()
        page.locator("h1").click()
    assert not note.is_visible()
    assert errors == []
    page.context.close()


# -- colours and accessibility ------------------------------------------------------------

#: Each value's colour and its contrast with the background under it (the nearest opaque one,
#: tints blended in), for the first cell of each value.
COLOURS = """() => {
  const parse = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      const img = s.backgroundImage.match(/rgba?\\([^)]*\\)/g) || [];
      img.forEach(c => layers.push(parse(c)));
      const c = parse(s.backgroundColor);
      if (c.length) layers.push(c);
      if (c.length && (c[3] === undefined || c[3] === 1)) break;
    }
    let out = [255, 255, 255];
    const base = layers.findIndex(l => l[3] === undefined || l[3] === 1);
    if (base >= 0) out = layers[base].slice(0, 3);
    for (let i = (base >= 0 ? base : layers.length) - 1; i >= 0; i--) {
      const [r, g, b, a = 1] = layers[i];
      out = [r * a + out[0] * (1 - a), g * a + out[1] * (1 - a), b * a + out[2] * (1 - a)];
    }
    return out;
  };
  const out = {};
  for (const v of ['yes', 'partial', 'no', 'unknown']) {
    const el = document.querySelector(`#ddl-compare td.ddl-cell--${v} > :first-child`);
    const fg = parse(getComputedStyle(el).color).slice(0, 3);
    const bg = background(el.parentElement);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    out[v] = {colour: fg.join(','), contrast: (a + 0.05) / (b + 0.05), symbol: el.textContent[0]};
  }
  return out;
}"""


@VIEWPORTS
@SCHEMES
def test_compare_marks_differ_in_symbol_and_colour_and_axe_finds_nothing(
    browser: Any, base_url: str, viewport: dict[str, int], scheme: str
) -> None:
    """✓ ◐ ✗ ? each in a colour of its own, 3:1 at least; axe: nothing serious, note open."""
    page, errors = open_compare(browser, base_url, viewport, scheme, "?need=" + ",".join(PP_EP_AMD))
    colours = page.evaluate(COLOURS)
    assert len({c["symbol"] for c in colours.values()}) == 4
    assert len({c["colour"] for c in colours.values()}) == 4, colours
    assert all(c["contrast"] >= 3 for c in colours.values()), colours
    # The chosen (tinted) columns keep the contrast.
    tinted = page.evaluate(COLOURS.replace("td.ddl-cell--${v}", "td.ddl-chosen.ddl-cell--${v}"))
    assert all(c["contrast"] >= 3 for c in tinted.values()), tinted
    assert caveats(page), "the view has a caveat to check"
    found = axe_violations(page)
    assert found == [], "\n".join(found)
    mark(page, "verl", "pipeline-parallel").click()
    assert page.locator("#ddl-compare-note").is_visible()
    found = axe_violations(page)
    assert found == [], "\n".join(found)
    assert errors == []
    page.context.close()
