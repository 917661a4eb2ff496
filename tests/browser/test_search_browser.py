"""The site's own search in a real browser, on each engine's build (assets/search.js).

What issue 32 asked of search: a result per entry (its card), an exact title or well-known name
first, phrases and all-words matching, a venue and year finding that venue's papers; the index
fetched on first use only; the "/" and "s" keys and ?q=; keyboard use alone; axe clean in both
schemes and on a phone; no console error and no third-party request (the ``tab`` fixture blocks
and records them). Fixtures: conftest.py; helpers: helpers.py.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.helpers import ARTIFACTS, RESULT, SEARCH_OPEN, Tab, axe_violations, search

pytestmark = pytest.mark.browser

#: Well-known names and the entry each must bring first.
NAMED = (
    ("NCCL", "nccl"),
    ("Horovod", "horovod"),
    ("Ring Attention", "liu2023ring"),
    ("MegaBlocks", "megablocks"),  # the library's exact title, before the paper's short name
    ("MegaBlocks: Efficient Sparse Training with Mixture-of-Experts", "gale2023megablocks"),
    ("vLLM", "vllm"),
    ("Triton", "triton"),
    ("DeepSpeed", "deepspeed"),
    ("ZeRO", "rajbhandari2020zero"),
)
#: Entries drawn from the catalog (seeded: the same sample each run) whose exact title is tried.
SAMPLE = 48
SEED = 32


def index_of(base_url: str) -> dict[str, Any]:
    """Return the site's search index, as the browser gets it."""
    with urllib.request.urlopen(base_url + "search/entries.json", timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read().decode("utf-8"))
    return data


def fold(text: str) -> str:
    """Fold a title as search.js does (case, accents, punctuation aside)."""
    value = unicodedata.normalize("NFKD", text)
    value = "".join(c for c in value if not unicodedata.combining(c)).lower()
    words = re.sub(r"[^\w+]|_", " ", value).split()
    return " ".join(w for w in words if not re.fullmatch(r"\++", w))


def open_search(page: Any) -> None:
    """Open the dialog with the header's button and wait until the index is in."""
    page.locator("[data-ddl-search]").click()
    page.locator("#ddl-search__input").wait_for(state="visible")


def showing(page: Any, words: str) -> None:
    """Wait until the dialog's list shows the results of ``words``."""
    page.wait_for_function(
        "(q) => document.querySelector('dialog.ddl-search').getAttribute('data-ddl-query') === q",
        arg=words,
        timeout=15000,
    )


def ask(page: Any, words: str) -> list[str]:
    """Put ``words`` in the open dialog's field; return the shown results' anchors, in order."""
    page.locator("#ddl-search__input").fill(words)
    showing(page, words)
    hrefs = page.locator(RESULT).evaluate_all("els => els.map(e => e.getAttribute('href'))")
    return [href.rsplit("#", 1)[1] if "#" in href else href for href in hrefs]


def test_an_exact_title_or_a_well_known_name_comes_first(
    tab: Tab, base_url: str, engine: str
) -> None:
    """Every sampled entry's exact title, and each well-known name, brings that entry first.

    Two entries with the same title (a paper and its code, both called so) cannot both come
    first: for those, either is accepted first and the other must follow it.
    """
    index = index_of(base_url)
    entries = [(e["t"], e["id"]) for e in index["entries"]]
    same_title: dict[str, set[str]] = {}
    for title, entry_id in entries:
        same_title.setdefault(fold(title), set()).add(entry_id)
    sample = random.Random(SEED).sample(entries, SAMPLE)
    page = tab.page
    page.goto(base_url, wait_until="networkidle")
    open_search(page)
    misses = []
    for words, entry_id in [*NAMED, *sample]:
        found = ask(page, words)
        twins = same_title.get(fold(words), set()) if (words, entry_id) in sample else set()
        twins = twins or {entry_id}
        if not found or found[0] not in twins or entry_id not in found[: len(twins)]:
            misses.append((words, entry_id, found[:3]))
    assert misses == [], f"{engine}: {len(misses)} of {len(NAMED) + SAMPLE} missed: {misses}"
    assert tab.errors == []
    assert tab.foreign == []


def test_phrases_all_words_prefixes_and_case(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url, wait_until="networkidle")
    open_search(page)
    # A quoted phrase matches in order; the same words the other way round do not.
    assert ask(page, '"blockwise transformers"')[0] == "liu2023ring"
    assert "liu2023ring" not in ask(page, '"transformers blockwise"')
    # Every word, in any order, in the title.
    assert ask(page, "context blockwise ring")[0] == "liu2023ring"
    # The last word while it is being typed is a prefix; case and punctuation do not count.
    assert ask(page, "Horov")[0] == "horovod"
    assert ask(page, "megatron lm")[0] == "megatron-lm"
    assert ask(page, "FLASHATTENTION-2")[0] == "dao2023flashattention2"
    # A title with a colon (a field prefix in other engines' query languages) is plain text.
    assert ask(page, "ZeRO: Memory Optimizations")[0] == "rajbhandari2020zero"
    # An author's family name, then a word of the description.
    assert "dean2012large" in ask(page, "dean downpour")[:3]
    # One result per entry: no entry twice.
    found = ask(page, "pipeline")
    assert len(found) == len(set(found)) == 20
    assert tab.errors == []


def test_a_venue_and_year_finds_that_venues_papers_first(tab: Tab, base_url: str) -> None:
    """'NSDI 2025' lists NSDI 2025's papers first (every one of them), each result once."""
    index = index_of(base_url)
    expected = {e["id"] for e in index["entries"] if e.get("v") == "NSDI 2025"}
    assert len(expected) >= 3
    page = tab.page
    page.goto(base_url, wait_until="networkidle")
    open_search(page)
    found = ask(page, "NSDI 2025")
    while page.locator(".ddl-search__more").is_visible():
        page.locator(".ddl-search__more").click()
        found = [
            h.rsplit("#", 1)[-1]
            for h in page.locator(RESULT).evaluate_all(
                "els => els.map(e => e.getAttribute('href'))"
            )
        ]
    assert set(found[: len(expected)]) == expected
    assert len(found) == len(set(found))
    meta = page.locator(f"{RESULT} .ddl-search__meta").first.inner_text()
    assert "NSDI 2025" in meta
    assert page.locator(f"{RESULT} mark").count() > 0  # the matched words are marked
    assert tab.errors == []


@pytest.mark.parametrize(
    ("words", "anchor", "path"),
    [
        ("Horovod", "horovod", "/parallelism/data-parallelism/"),
        # A card past the third: laid out only as it nears the screen, as the search lands.
        ("MegaBlocks", "gale2023megablocks", "/parallelism/expert-parallelism/"),
    ],
)
def test_a_result_on_another_page_opens_its_card(
    tab: Tab, base_url: str, words: str, anchor: str, path: str
) -> None:
    page = tab.page
    page.goto(base_url, wait_until="networkidle")
    search(page, words, anchor).click()
    page.wait_for_url(lambda url: path in url and url.endswith(f"#{anchor}"))
    heading = page.locator(f"h3#{anchor}")
    heading.wait_for(state="visible")
    expect(heading).to_be_in_viewport()
    assert tab.errors == []
    assert tab.foreign == []


def test_a_result_on_this_page_closes_search_and_scrolls_to_the_card(
    tab: Tab, base_url: str
) -> None:
    """The same page: no reload; the dialog closes and the card, laid out late, is in view."""
    index = index_of(base_url)
    page = tab.page
    page.goto(base_url + "parallelism/data-parallelism/", wait_until="networkidle")
    last = page.locator("article.ddl-entry h3").last.get_attribute("id")
    titles = [e["t"] for e in index["entries"]]
    title = next(e["t"] for e in index["entries"] if e["id"] == last)
    assert titles.count(title) == 1
    page.evaluate("window.ddlNoReload = true")
    open_search(page)
    found = ask(page, title)
    assert found[0] == last
    page.keyboard.press("Enter")
    page.wait_for_function("(id) => location.hash === '#' + id", arg=last)
    assert page.locator(SEARCH_OPEN).count() == 0
    assert page.evaluate("window.ddlNoReload") is True
    expect(page.locator(f"h3#{last}")).to_be_in_viewport()
    # The card's title link has the focus, so the keyboard carries on from the card.
    assert page.evaluate("document.activeElement.closest('h3').id") == last
    assert tab.errors == []


def test_the_index_is_fetched_on_first_use_only(tab: Tab, base_url: str) -> None:
    """Reading fetches no index (ours or an engine's); the first search fetches ours, once."""
    page = tab.page
    fetched: list[str] = []
    page.on(
        "request", lambda r: "search" in r.url and r.url.endswith(".json") and fetched.append(r.url)
    )
    for path in ("", "parallelism/data-parallelism/", "explore/"):
        page.goto(base_url + path, wait_until="networkidle")
        page.mouse.wheel(0, 2000)  # reading: scrolling, hovering, nothing typed
        page.locator("[data-ddl-search]").hover()
        page.wait_for_timeout(300)
    assert fetched == []
    assert search(page, "Horovod", "horovod")
    page.keyboard.press("Escape")
    assert search(page, "Ring Attention", "liu2023ring")
    page.wait_for_timeout(300)
    # The index, then the descriptions (searched and shown once the first results are out).
    assert fetched == [base_url + "search/entries.json", base_url + "search/text.json"]
    assert tab.errors == []
    assert tab.foreign == []


def test_slash_s_and_q_open_search(tab: Tab, base_url: str) -> None:
    """ "/" and "s" open search (not while typing in a field); ?q=words opens it with them."""
    page = tab.page
    page.goto(base_url + "tags/", wait_until="networkidle")
    page.keyboard.press("/")
    expect(page.locator("#ddl-search__input")).to_be_focused()
    page.keyboard.type("ZeRO", delay=20)
    showing(page, "ZeRO")
    assert page.locator(RESULT).first.get_attribute("href").endswith("#rajbhandari2020zero")
    page.keyboard.press("Escape")
    assert page.locator(SEARCH_OPEN).count() == 0
    page.keyboard.press("s")
    expect(page.locator(SEARCH_OPEN)).to_have_count(1)
    page.keyboard.press("Escape")
    # Typing "s" in a field types it.
    page.goto(base_url + "explore/", wait_until="networkidle")
    field = page.locator("form.ddl-filters input[name='text']")
    field.click()
    page.keyboard.type("s/")
    assert field.input_value() == "s/"
    assert page.locator(SEARCH_OPEN).count() == 0
    # An address with ?q= opens search with the words; closing drops q from the address.
    page.goto(base_url + "?q=Horovod", wait_until="networkidle")
    expect(page.locator("#ddl-search__input")).to_have_value("Horovod")
    page.locator(f"{RESULT}[href$='#horovod']").first.wait_for(state="visible")
    assert page.locator(RESULT).first.get_attribute("href").endswith("#horovod")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('q')")
    assert tab.errors == []


def test_search_by_keyboard_alone(tab: Tab, base_url: str) -> None:
    """Tab to the button, Enter, type, arrows, Enter: a combobox over a listbox; Esc goes back."""
    page = tab.page
    page.goto(base_url + "data-format/", wait_until="networkidle")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.hasAttribute('data-ddl-search')"):
            break
    else:
        pytest.fail("Tab never reaches the search button")
    page.keyboard.press("Enter")
    query = page.locator("#ddl-search__input")
    expect(query).to_be_focused()
    assert query.get_attribute("role") == "combobox"
    page.keyboard.press("Escape")  # back where it was opened from
    assert page.evaluate("document.activeElement.hasAttribute('data-ddl-search')")
    page.keyboard.press("Enter")
    page.keyboard.type("pipeline", delay=20)
    showing(page, "pipeline")
    status = page.locator("#ddl-search__status")
    assert status.get_attribute("role") == "status"
    assert re.fullmatch(r"\d+ results, 20 shown", status.inner_text())
    assert query.get_attribute("aria-expanded") == "true"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    first = page.locator(RESULT).nth(0)
    assert query.get_attribute("aria-activedescendant") == first.get_attribute("id")
    assert first.get_attribute("aria-selected") == "true"
    expect(query).to_be_focused()
    # Show more: Tab leaves the field for the close button, then the list's "Show more".
    more = page.locator(".ddl-search__more")
    more.focus()
    page.keyboard.press("Enter")
    expect(page.locator(RESULT)).to_have_count(40)
    query.focus()
    page.keyboard.press("ArrowDown")  # the second result, now
    chosen = page.locator("#" + query.get_attribute("aria-activedescendant"))
    assert chosen.get_attribute("id") == page.locator(RESULT).nth(1).get_attribute("id")
    target = chosen.get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(target)
    assert tab.errors == []


def test_nothing_found_says_what_to_try(tab: Tab, base_url: str) -> None:
    page = tab.page
    page.goto(base_url, wait_until="networkidle")
    open_search(page)
    assert ask(page, "qqqxyzzy") == []
    assert page.locator("#ddl-search__status").inner_text() == "No results"
    empty = page.locator(".ddl-search__empty")
    expect(empty).to_be_visible()
    assert "Try fewer words" in empty.inner_text()
    assert empty.locator("a").get_attribute("href").endswith("/explore/")
    assert page.locator("#ddl-search__results").is_hidden()
    # A click beside the dialog (on its backdrop) closes it; the page behind is inert until then.
    page.mouse.click(5, 600)
    expect(page.locator(SEARCH_OPEN)).to_have_count(0)
    assert page.url == base_url
    assert tab.errors == []


@pytest.mark.parametrize(
    ("scheme", "width"), [("light", 1280), ("dark", 1280), ("light", 390), ("dark", 390)]
)
def test_search_dialog_passes_axe(
    tab: Tab, base_url: str, engine: str, scheme: str, width: int
) -> None:
    """The open dialog with results (one selected): no serious or critical axe violation."""
    page = tab.page
    page.set_viewport_size({"width": width, "height": 844 if width < 600 else 900})
    page.emulate_media(color_scheme=scheme)
    page.goto(base_url + "parallelism/", wait_until="networkidle")
    found = "slate" if scheme == "dark" else "default"
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == found
    expect(page.locator("[data-ddl-search]")).to_be_visible()
    search(page, "ZeRO")
    page.keyboard.press("ArrowDown")
    dialog = page.locator(SEARCH_OPEN)
    box = dialog.bounding_box()
    if width < 600:  # the whole screen on a phone
        assert box["x"] == 0 and box["y"] == 0 and box["width"] == width
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"search-{engine}-{scheme}-{width}.png"))
    assert axe_violations(page) == []
    assert tab.errors == []
    assert tab.foreign == []


def test_every_address_in_the_index_leads_to_its_element(base_url: str) -> None:
    """Each entry's card, and each docs section's heading, has the id its result points to."""
    index = index_of(base_url)
    wanted: dict[str, set[str]] = {}
    for entry in index["entries"]:
        wanted.setdefault(index["pages"][entry["p"]]["u"], set()).add(entry["id"])
    for page in index["pages"]:
        url, _, anchor = page["u"].partition("#")
        wanted.setdefault(url, set())
        if anchor:
            wanted[url].add(anchor)
    missing = []
    for url, ids in sorted(wanted.items()):
        with urllib.request.urlopen(base_url + url, timeout=30) as response:
            html = response.read().decode("utf-8")
        present = set(re.findall(r'\sid="([^"]+)"', html))
        missing += [f"{url}#{i}" for i in sorted(ids - present)]
    assert missing == []
