"""Raw list items -> draft entries: merge by canonical identity, guess kind, map headings, name ids.

Nothing here writes files. An item whose identity the catalog already has (same arXiv id, DOI,
GitHub repository or normalised URL, or a URL the catalog keeps as one of an entry's links) is
reported as merged into that entry; repeated items of the list become one draft.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ddl_catalog import identity
from ddl_catalog.edit import new_id
from ddl_catalog.importer.markdown import (
    WEB_SCHEMES,
    ParsedList,
    RawItem,
    RawLink,
    Skip,
    clean_title,
)
from ddl_catalog.load import LoadError, load_file
from ddl_catalog.model import KIND_FOLDERS, KIND_LABELS
from ddl_catalog.validate import entry_files

#: Titles shorter than this many words are too common to identify a resource
#: ("Official documentation" names two different pages in seed 001).
TITLE_MATCH_MIN_WORDS = 4

#: How close a heading must be to a category title or id to be filed under it (difflib ratio).
CATEGORY_CUTOFF = 0.8

#: Secondary link types, by rank when the main URL has to be chosen among typed links.
LINK_RANK = ("paper", "code", "website", "docs", "blog", "slides", "video", "data")

_LINK_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("code", ("github", "gitlab", "code", "implementation", "source", "repo")),
    ("paper", ("paper", "arxiv", "pdf", "preprint")),
    ("slides", ("slide",)),
    ("video", ("video", "youtube", "talk", "recording", "vimeo")),
    ("blog", ("blog", "post", "article")),
    ("docs", ("doc", "manual", "guide", "tutorial")),
    ("data", ("dataset", "data")),
    ("website", ("page", "webpage", "website", "site", "project", "gitxiv", "home")),
)
_DROPPED_LABELS = frozenset({"mirror", "mirrors", "mirror link"})
_PAPER_HOSTS = frozenset(
    {
        "papers.nips.cc",
        "proceedings.neurips.cc",
        "openreview.net",
        "ieeexplore.ieee.org",
        "dl.acm.org",
        "usenix.org",
        "proceedings.mlr.press",
        "mlsys.org",
        "aclanthology.org",
        "aclweb.org",
        "researchgate.net",
        "semanticscholar.org",
        "pdfs.semanticscholar.org",
        "ijcai.org",
        "icml.cc",
        "link.springer.com",
        "sciencedirect.com",
        "biorxiv.org",
        "jmlr.org",
        "nowpublishers.com",
        "hal.science",
        "hgpu.org",
    }
)
_TALK_HOSTS = frozenset(
    {
        "youtube.com",
        "youtu.be",
        "vimeo.com",
        "slideshare.net",
        "speakerdeck.com",
        "videolectures.net",
    }
)
_BLOG_HOSTS = frozenset(
    {
        "medium.com",
        "towardsdatascience.com",
        "dev.to",
        "substack.com",
        "tumblr.com",
        "blogspot.com",
        "wordpress.com",
        "kdnuggets.com",
    }
)
_CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org"})
_HEADING_KINDS: tuple[tuple[str, str], ...] = (
    ("benchmark", "benchmark"),
    ("dataset", "dataset"),
    ("tutorial", "tutorial"),
    ("book", "book"),
    ("video", "talk"),
    ("talk", "talk"),
    ("course", "tutorial"),
)
_CITATION = re.compile(
    r"^\s*(?:[A-Z]{1,2}\.\s*(?:-?[A-Z]\.\s*)*)+(?P<family>[A-Z][A-Za-z'’-]+)(?=,|\s+and\b|\s+et\s+al|\.)"
)
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")


@dataclass(frozen=True)
class DraftLink:
    """A secondary link of a draft."""

    type: str
    url: str
    title: str | None = None


@dataclass
class Draft:
    """A new entry the import proposes, before it is written."""

    id: str
    kind: str
    title: str
    url: str
    description: str
    categories: list[str]
    line: int
    links: list[DraftLink] = field(default_factory=list)
    identifiers: dict[str, str] = field(default_factory=dict)
    venue: str | None = None
    year: int | None = None
    tags: list[str] = field(default_factory=list)

    @property
    def folder(self) -> str:
        """Return the data folder of the draft's kind."""
        return KIND_FOLDERS[self.kind]


@dataclass(frozen=True)
class Outcome:
    """What became of one list item: new draft, merged (into what, why) or skipped (why)."""

    line: int
    status: str  # "new", "merged", "skipped"
    title: str
    target: str = ""
    reason: str = ""
    into_catalog: bool = False


@dataclass(frozen=True)
class HeadingMap:
    """Where a heading's items are filed."""

    line: int
    title: str
    category: str
    known: bool


@dataclass
class Plan:
    """The whole proposal for one list: drafts, per-item outcomes, headings, dropped links."""

    source: str
    drafts: list[Draft] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    headings: list[HeadingMap] = field(default_factory=list)
    dropped: list[Skip] = field(default_factory=list)
    #: The list's own GitHub repositories (owner/name), whose links were skipped.
    own_repos: tuple[str, ...] = ()

    def count(self, status: str) -> int:
        """Return how many items have this status."""
        return sum(1 for o in self.outcomes if o.status == status)


@dataclass
class Existing:
    """What the catalog already holds: ids, identity owners, link URLs and titles."""

    ids: set[str] = field(default_factory=set)
    owners: dict[tuple[str, str], str] = field(default_factory=dict)
    link_owners: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)  # id -> title
    corrected: dict[str, tuple[str, str]] = field(default_factory=dict)  # url -> (entry, action)
    dropped: dict[str, str] = field(default_factory=dict)  # url -> reason
    tags: dict[str, str] = field(default_factory=dict)  # comparison form -> tag id (tags.yml)


# --------------------------------------------------------------------------- the catalog


def read_existing(root: Path, extra_dirs: tuple[Path, ...] = ()) -> Existing:
    """Index the catalog's entries (even invalid ones) and the names taken in target folders."""
    found = Existing()
    for file in entry_files(root):
        found.ids.add(file.stem)
        try:
            data = load_file(file, file.name).data
        except LoadError:
            continue
        entry_id = str(data.get("id") or file.stem)
        found.ids.add(entry_id)
        for key in sorted(identity.identity_keys(data)):
            found.owners.setdefault(key, entry_id)
        for url in _link_urls(data):
            found.link_owners.setdefault(identity.normalize_url(url), entry_id)
        title = data.get("title")
        if isinstance(title, str) and (tkey := title_key(title)):
            found.titles.setdefault(tkey, entry_id)
    _read_corrections(root, found)
    _read_tags(root, found)
    for folder in extra_dirs:
        if folder.is_dir():  # names taken in its folders; a folder that is a link is not followed
            subfolders = [sub for sub in folder.iterdir() if sub.is_dir() and not sub.is_symlink()]
            found.ids.update(p.stem for sub in subfolders for p in sub.glob("*.y*ml"))
    return found


def _read_corrections(root: Path, found: Existing) -> None:
    """Learn from data/seed-corrections.yml which old URLs an entry replaced or which were dropped.

    The file is optional; an unreadable one is ignored here (validation reports it).
    """
    data = _optional_tree_file(root, "seed-corrections.yml")
    if data is None:
        return
    rows = data.get("corrections")
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict) or not isinstance(row.get("url"), str):
            continue
        norm = identity.normalize_url(row["url"])
        if isinstance(row.get("entry"), str):
            found.corrected.setdefault(norm, (row["entry"], str(row.get("action") or "replaced")))
        elif row.get("action") == "dropped":
            found.dropped.setdefault(norm, str(row.get("reason") or "dropped"))


def _optional_tree_file(root: Path, name: str) -> Any | None:
    """Return the data of data/<name>, or None when it is missing or unreadable (validate says)."""
    file = root / "data" / name
    if not file.is_file():
        return None
    try:
        return load_file(file, f"data/{name}", root=root).data
    except LoadError:
        return None


def _read_tags(root: Path, found: Existing) -> None:
    """Learn the tag ids of data/tags.yml (an unreadable file: none; validation reports it)."""
    data = _optional_tree_file(root, "tags.yml")
    if data is None:
        return
    rows = data.get("tags")
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict) and isinstance(row.get("id"), str):
            found.tags.setdefault(tag_key(row["id"]), row["id"])


def tag_key(text: str) -> str:
    """Return the comparison form of a tag id or a list's tag: lower case, spaces as hyphens."""
    return "-".join(text.casefold().replace("_", " ").split())


def _link_urls(data: dict[str, Any]) -> list[str]:
    """Return the secondary and archive URLs of an entry mapping."""
    urls = [link.get("url") for link in data.get("links") or [] if isinstance(link, dict)]
    urls.append(data.get("archive_url"))
    return [u for u in urls if isinstance(u, str) and u.strip()]


# --------------------------------------------------------------------------- helpers


def title_key(title: str) -> str | None:
    """Return a title's comparison form, or None when it is too short to identify anything."""
    words = re.findall(r"[0-9a-z]+", new_id.ascii_fold(title).lower())
    return " ".join(words) if len(words) >= TITLE_MATCH_MIN_WORDS else None


def slug(text: str, max_words: int = 6, max_length: int = 48) -> str:
    """Return kebab-case ASCII of text, cut at a word boundary, without a dangling stopword."""
    words = [w for w in new_id.kebab(text).split("-") if w]
    out: list[str] = []
    for word in words:
        if len(out) >= max_words or len("-".join([*out, word])) > max_length:
            break
        out.append(word)
    while len(out) > 1 and out[-1] in new_id.STOPWORDS:
        out.pop()
    return "-".join(out) or "item"


def _host(url: str) -> str:
    """Return the bare host of a URL as identity.py compares it, in Unicode (``café.org``)."""
    return identity.unicode_host(identity.url_host(url)).removeprefix("www.")


def _host_in(host: str, hosts: frozenset[str]) -> bool:
    """Say whether host is one of hosts or a subdomain of one."""
    return any(host == h or host.endswith("." + h) for h in hosts)


def link_type(link: RawLink) -> str:
    """Return the catalog link type of a link, from its label or text, else from its URL."""
    text = "" if link.text.lower().startswith(WEB_SCHEMES) else link.text
    words = f"{link.label} {text}".lower()
    for kind, keys in _LINK_WORDS:
        if re.search(r"\b(?:" + "|".join(keys) + ")", words):
            return kind
    host = _host(link.url)
    if _host_in(host, _CODE_HOSTS):
        return "code"
    if _host_in(host, frozenset({"youtube.com", "youtu.be", "vimeo.com"})):
        return "video"
    if _host_in(host, frozenset({"slideshare.net", "speakerdeck.com"})):
        return "slides"
    if identity.arxiv_id(link.url) or identity.doi_from_url(link.url):
        return "paper"
    return "website"


def secondary_type(link: RawLink) -> str:
    """Return a secondary link's type; a paper host or a PDF without a label is a paper."""
    found = link_type(link)
    if found == "website" and _looks_like_paper(link.url):
        return "paper"
    return found


def _looks_like_paper(url: str) -> bool:
    """Say whether a URL points at a paper: arXiv, a DOI, a proceedings host, a PDF."""
    host, path = _host(url), urlsplit(url).path.lower()
    return bool(
        identity.arxiv_id(url)
        or identity.doi_from_url(url)
        or _host_in(host, _PAPER_HOSTS)
        or path.endswith(".pdf")
        or "/research/publication/" in path
    )


#: Where a guessed kind goes when the target catalog does not use it (catalog.yml's kinds).
_KIN = {
    "framework": ("library", "list", "docs", "article"),
    "library": ("framework", "list", "docs", "article"),
    "paper": ("article", "book", "tutorial"),
    "article": ("tutorial", "paper", "docs", "book"),
    "talk": ("article", "tutorial"),
    "tutorial": ("article", "docs", "book"),
    "book": ("tutorial", "article"),
    "benchmark": ("dataset", "library", "paper"),
    "dataset": ("benchmark", "library"),
    "list": ("article", "library"),
    "docs": ("article", "tutorial", "library"),
}


def allowed_kind(kind: str, kinds: tuple[str, ...]) -> str:
    """Return kind if the catalog uses it, else its closest kind the catalog uses."""
    if not kinds or kind in kinds:
        return kind
    return next((k for k in _KIN.get(kind, ()) if k in kinds), kinds[0])


def guess_kind(url: str, main_type: str, label: str, headings: tuple[str, ...]) -> str:
    """Guess an entry kind from its main URL, how the list labels it, and its headings."""
    host = _host(url)
    heading_text = " ".join(headings).lower()
    if re.search(r"\bbooks?\b", label):
        return "book"
    if main_type in ("slides", "video"):
        return "talk"
    if _looks_like_paper(url):
        return "paper"
    if _host_in(host, _CODE_HOSTS):
        if "awesome" in url.lower():
            return "list"
        return "framework" if "framework" in heading_text else "library"
    if _host_in(host, _TALK_HOSTS):
        return "talk"
    if (
        _host_in(host, _BLOG_HOSTS)
        or host.startswith("blog.")
        or ".blog." in host
        or "/blog" in urlsplit(url).path.lower()
        or "blog" in host
    ):
        return "article"
    if host.endswith("readthedocs.io") or host.startswith("docs."):
        return "docs"
    for word, kind in _HEADING_KINDS:
        if word in heading_text:
            return kind
    return "article"


def paper_id(title: str, text: str) -> str | None:
    """Return a BibTeX-style id (family + year + first word) when the item cites its authors.

    Only the plain ``J. Family, ...`` / ``J. Family et al. 2012`` form is trusted; anything else
    falls back to the title's kebab-case.
    """
    match = _CITATION.match(text)
    year = _YEAR.search(text, match.end()) if match else None
    if not (match and year):
        return None
    return new_id.paper_id([match.group("family")], int(year.group(1)), title)


def _unique(base: str, taken: set[str]) -> str:
    """Return base, or base-2, base-3 ... whichever is not taken; and take it."""
    candidate = new_id.unique(base[:76].strip("-") or "item", taken)
    taken.add(candidate)
    return candidate


def _words(text: str) -> str:
    """Return text's words, lower case, for comparing a description with its title."""
    return " ".join(re.findall(r"[^\W_]+", text.lower()))


def own_description(item: RawItem, title: str | None = None) -> str | None:
    """Return the list's own description of an item as an entry sentence, or None if unusable.

    For importing a list one maintains: its words are already the catalog's. Capitalised, ended
    with a period, 10 to 250 characters; None when empty or when it starts with the title.
    """
    text = " ".join(item.text.split())
    title = title or item.title
    if not text or not text[0].isalnum() or (title and _words(text).startswith(_words(title))):
        return None  # nothing, a bracketed citation ("[Tan, et al. 2019]"), or the title again
    text = text[0].upper() + text[1:]
    if not text.endswith((".", "!", "?")):
        text += "."
    return text if 10 <= len(text) <= 250 else None


#: Technology names as awesome-lint's spell-check wants them written (unambiguous ones only:
#: no common English words), so an own list's words pass it once imported.
TECH_NAMES = (
    "GitHub",
    "GitLab",
    "GraphQL",
    "JavaScript",
    "Keras",
    "Kubernetes",
    "MongoDB",
    "MySQL",
    "NumPy",
    "PostgreSQL",
    "PyTorch",
    "SQLite",
    "TensorFlow",
    "TypeScript",
    "WebAssembly",
    "YouTube",
    "macOS",
)
_TECH = re.compile(r"(?<![\w./-])(" + "|".join(TECH_NAMES) + r")(?![\w/-]|\.\w)", re.IGNORECASE)
_TECH_SPELLING = {name.lower(): name for name in TECH_NAMES}


def tech_spelling(text: str) -> str:
    """Write well-known technology names as they spell themselves (``Tensorflow``: TensorFlow).

    Words joined to a path, a package name or a file name (``tensorflow/mesh``) are left alone.
    """
    return _TECH.sub(lambda m: _TECH_SPELLING[m.group(1).lower()], text)


def filed_description(item: RawItem, kind: str) -> str:
    """Return the sentence for an own list's item that has no description: where it is filed.

    ``Paper listed under Model parallelism (Megatron).``: the list's heading and the label
    it was grouped by, so the catalog builds at once; a person can say more later.
    """
    where = item.headings[-1] if item.headings else "the imported list"
    context = f" ({item.context})" if item.context and item.context != item.title else ""
    return f"{KIND_LABELS[kind][0]} listed under {where}{context}."


def url_title(url: str) -> str:
    """Return a title for an item the list gives as a bare URL (an own list builds at once).

    The arXiv id (``arXiv 1604.00981``), else the last part of the path that reads as words
    (``its-time-to-do-cmake-right``: ``Its time to do cmake right``), else host and path.
    """
    if (aid := identity.arxiv_id(url)) is not None:
        return f"arXiv {aid}"
    parts = [p for p in urlsplit(url).path.split("/") if p]
    for part in reversed(parts):
        words = re.sub(r"\.(pdf|html?|php|aspx?)$", "", part, flags=re.I).replace("_", "-")
        tokens = [w for w in words.split("-") if w]
        if len(tokens) >= 2 and all(w.isalpha() or len(w) <= 4 for w in tokens):
            return humanise(" ".join(tokens))
    rest = "/".join(parts)
    return f"{_host(url)}/{rest}" if rest else _host(url)


def humanise(text: str) -> str:
    """Return slug-like text as words with a capital (``deep-learning-at-scale/``)."""
    words = " ".join(re.split(r"[-_/]+", text)).strip()
    return words[:1].upper() + words[1:]


#: A title that is a URL slug (``distributed-deep-learning-part-1/``), as title-style sees one.
_SLUG_TITLE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+){3,}/?$")


def draft_description(item: RawItem) -> str:
    """Return the draft description: a TODO that quotes the list's words, to be rewritten.

    It deliberately ends without a period, so that validation fails until someone writes the
    real sentence (the description-style rule requires one).
    """
    said = " ".join(t for t in (item.context and f"{item.context}:", item.text, *item.notes) if t)
    said = " ".join(said.replace('"', "'").split())
    if len(said) > 180:
        said = said[:179].rstrip() + "…"
    if not said:
        return "TODO: write one sentence in our own words about this resource"
    return f'TODO: write one sentence in our own words; the list said: "{said}"'


# --------------------------------------------------------------------------- planning


class Planner:
    """Turns the items of one parsed list into drafts and outcomes."""

    def __init__(
        self, existing: Existing, kinds: tuple[str, ...] = (), *, keep_descriptions: bool = False
    ) -> None:
        self.existing = existing
        #: Use the list's own descriptions (a list one maintains) instead of TODO drafts.
        self.keep_descriptions = keep_descriptions
        #: The kinds the target catalog uses (catalog.yml); empty: every kind.
        self.kinds = kinds
        self.taken = set(existing.ids)
        self.heading_cache: dict[tuple[str, ...], str] = {}
        self.plan = Plan("")
        self.owners: dict[tuple[str, str], Draft] = {}
        self.titles: dict[str, Draft] = {}

    def run(self, parsed: ParsedList) -> Plan:
        """Plan every item and skip of the parsed list, in line order."""
        self.plan = Plan(parsed.path, own_repos=parsed.own_repos)
        for item in parsed.items:
            self._item(item)
        for skip in parsed.skips:
            self.plan.outcomes.append(Outcome(skip.line, "skipped", skip.text, reason=skip.reason))
        self.plan.outcomes.sort(key=lambda o: (o.line, o.status != "skipped"))
        self.plan.headings = self._heading_report(parsed)
        return self.plan

    def _item(self, item: RawItem) -> None:
        """Plan one item: merge it, or make it a new draft."""
        links: list[RawLink] = []
        for link in item.links:
            if link.label in _DROPPED_LABELS or link.text.lower() in _DROPPED_LABELS:
                self.plan.dropped.append(
                    Skip(
                        link.line,
                        f"{link.label or 'mirror'} link dropped",
                        item.title or "",
                        (link.url,),
                    )
                )
            else:
                links.append(link)
        title = item.title or ""
        if not links:
            self.plan.outcomes.append(
                Outcome(item.line, "skipped", title, reason="only mirror links")
            )
            return
        main = self._main_link(links)
        if self.keep_descriptions and not main.url.lower().startswith(("http://", "https://")):
            # an own list's drafts must build at once, and the catalog takes http(s) only
            self.plan.outcomes.append(
                Outcome(
                    item.line,
                    "skipped",
                    title or main.url,
                    reason="not an http(s) link: link an https copy or the DOI",
                )
            )
            return
        others = [link for link in links if link is not main]
        keys = identity.identity_keys({"url": main.url})
        category = self._category(item.headings)
        dropped = self.existing.dropped.get(identity.normalize_url(main.url))
        if dropped is not None:
            self.plan.outcomes.append(
                Outcome(
                    item.line,
                    "skipped",
                    title or main.url,
                    reason=f"dropped by data/seed-corrections.yml: {dropped.rstrip('.')}",
                )
            )
            return
        reason, target = self._existing_match(main.url, keys, title)
        if target:
            self.plan.outcomes.append(
                Outcome(item.line, "merged", title or main.url, target, reason, into_catalog=True)
            )
            return
        draft, reason = self._draft_match(keys, title)
        if draft is not None:
            self._merge_into(draft, main, others, category)
            self.plan.outcomes.append(
                Outcome(item.line, "merged", title or main.url, draft.id, reason)
            )
            return
        draft = self._new_draft(item, main, others, category)
        self.plan.drafts.append(draft)
        for key in keys:
            self.owners.setdefault(key, draft)
        if (tkey := title_key(draft.title)) is not None:
            self.titles.setdefault(tkey, draft)
        self.plan.outcomes.append(Outcome(item.line, "new", draft.title, draft.id))

    @staticmethod
    def _main_link(links: list[RawLink]) -> RawLink:
        """Return the link that is the resource itself: the titled one, else the best typed one."""
        if not links[0].generic and not links[0].label:
            return links[0]
        ranked = sorted(
            links,
            key=lambda link: (
                LINK_RANK.index(t) if (t := link_type(link)) in LINK_RANK else len(LINK_RANK)
            ),
        )
        return ranked[0]

    def _existing_match(self, url: str, keys: set[tuple[str, str]], title: str) -> tuple[str, str]:
        """Return (reason, entry id) when the catalog already has this resource."""
        for key in sorted(keys):
            if key in self.existing.owners:
                return f"same {identity.describe_key(key)}", self.existing.owners[key]
        norm = identity.normalize_url(url)
        if norm in self.existing.link_owners:
            return "the catalog keeps this URL as one of its links", self.existing.link_owners[norm]
        if norm in self.existing.corrected:
            entry, action = self.existing.corrected[norm]
            return f"data/seed-corrections.yml: {action}", entry
        tkey = title_key(title)
        if tkey and tkey in self.existing.titles:
            return "same title", self.existing.titles[tkey]
        return "", ""

    def _draft_match(self, keys: set[tuple[str, str]], title: str) -> tuple[Draft | None, str]:
        """Return an earlier draft of this list that is the same resource, and why."""
        for key in sorted(keys):
            if key in self.owners:
                return self.owners[key], f"same {identity.describe_key(key)} earlier in the list"
        tkey = title_key(title)
        if tkey and tkey in self.titles:
            return self.titles[tkey], "same title earlier in the list"
        return None, ""

    def _merge_into(
        self, draft: Draft, main: RawLink, others: list[RawLink], category: str
    ) -> None:
        """Add a repeated item's category and URLs to the draft it repeats."""
        if category not in draft.categories:
            draft.categories.append(category)
        seen = {identity.normalize_url(u) for u in [draft.url, *(x.url for x in draft.links)]}
        for link in [main, *others]:
            norm = identity.normalize_url(link.url)
            if norm not in seen:
                seen.add(norm)
                draft.links.append(
                    DraftLink(secondary_type(link), link.url, _link_title(link, draft.title))
                )

    def _new_draft(
        self, item: RawItem, main: RawLink, others: list[RawLink], category: str
    ) -> Draft:
        """Make a draft entry for an item seen for the first time."""
        typed = main.generic or bool(main.label)
        main_type = link_type(main if typed else RawLink(main.url, "", "", main.line))
        kind = guess_kind(main.url, main_type, main.label or main.text.lower(), item.headings)
        kind = allowed_kind(kind, self.kinds)
        tags, item = self._tags(item)
        title = clean_title(item.title) if item.title else main.url
        if _SLUG_TITLE.match(title):  # a link text that is the URL's slug: its words
            title = humanise(title)
        elif not item.title and self.keep_descriptions:
            title = url_title(main.url)
        if self.keep_descriptions:  # the list's words become the catalog's as they are
            title = tech_spelling(title)
        base = None
        if kind == "paper" and item.title:
            base = paper_id(title, " ".join([item.text, *item.notes]))
        if base is None:
            base = slug(title) if item.title else _url_slug(main.url)
        links: list[DraftLink] = []
        seen = {identity.normalize_url(main.url)}
        for link in others:
            norm = identity.normalize_url(link.url)
            if norm not in seen:
                seen.add(norm)
                links.append(DraftLink(secondary_type(link), link.url, _link_title(link, title)))
        ids: dict[str, str] = {}
        if (aid := identity.arxiv_id(main.url)) is not None:
            ids["arxiv"] = aid
        if (doi := identity.doi_from_url(main.url)) is not None:
            ids["doi"] = doi
        return Draft(
            id=_unique(base, self.taken),
            kind=kind,
            title=title,
            url=main.url,
            description=self._description(item, title, kind),
            categories=[category],
            line=item.line,
            links=links,
            identifiers=ids,
            venue=item.venue if kind == "paper" else None,
            year=item.year if kind == "paper" else None,
            tags=tags,
        )

    def _description(self, item: RawItem, title: str, kind: str) -> str:
        """Return a draft's description: the list's own or where it was filed; else a TODO."""
        if not self.keep_descriptions:
            return draft_description(item)
        return tech_spelling(own_description(item, title) or filed_description(item, kind))

    def _tags(self, item: RawItem) -> tuple[list[str], RawItem]:
        """Return the catalog's tags the item's language and licence bits name, and the item.

        A bit whose value is a tag id of tags.yml (case-insensitive) becomes that tag and leaves
        the notes (a licence note stays); the others stay notes.
        """
        tags: list[str] = []
        unmatched: set[str] = set()
        matched: set[str] = set()
        for kind, value, note in item.hints:
            tag = self.existing.tags.get(tag_key(value))
            if tag is None:
                unmatched.add(note)
                continue
            if tag not in tags:
                tags.append(tag)
            if kind != "licence":
                matched.add(note)
        gone = matched - unmatched
        if gone:
            item = replace(item, notes=[n for n in item.notes if n not in gone])
        return sorted(tags), item

    def _category(self, headings: tuple[str, ...]) -> str:
        """Return the category id for items under these headings (closest match, else a slug)."""
        if headings not in self.heading_cache:
            self.heading_cache[headings] = self._match_headings(headings)
        return self.heading_cache[headings]

    def _match_headings(self, headings: tuple[str, ...]) -> str:
        """Try the innermost heading first, then its parents; fall back to a slug of it."""
        for heading in reversed(headings):
            if (found := match_category(heading, self.existing.categories)) is not None:
                return found
        return slug(headings[-1]) if headings else "uncategorised"

    def _heading_report(self, parsed: ParsedList) -> list[HeadingMap]:
        """Say, for each heading that has items, where its items went."""
        first_use: dict[tuple[str, ...], int] = {}
        for item in parsed.items:
            first_use.setdefault(item.headings, item.line)
        out: list[HeadingMap] = []
        for headings, category in sorted(self.heading_cache.items(), key=lambda kv: kv[0]):
            if headings not in first_use or not headings:
                continue
            line = max(
                (
                    h.line
                    for h in parsed.headings
                    if h.title == headings[-1] and h.line <= first_use[headings]
                ),
                default=0,
            )
            out.append(
                HeadingMap(line, headings[-1], category, category in self.existing.categories)
            )
        return sorted(out, key=lambda h: h.line)


def match_category(heading: str, categories: dict[str, str]) -> str | None:
    """Return the category whose title or id is closest to a heading (difflib), if close enough."""
    wanted = _norm_heading(heading)
    if not wanted:
        return None
    candidates: dict[str, str] = {}
    for cat_id, title in categories.items():
        candidates.setdefault(_norm_heading(title), cat_id)
        candidates.setdefault(_norm_heading(cat_id), cat_id)
    if wanted in candidates:
        return candidates[wanted]
    first = wanted.split()[0]
    for close in difflib.get_close_matches(wanted, list(candidates), n=3, cutoff=CATEGORY_CUTOFF):
        if close.split()[0] == first:  # "Pipeline parallelism" is not "Model parallelism"
            return candidates[close]
    return None


def _norm_heading(text: str) -> str:
    """Lower-case a heading, spell it in ASCII words, and drop bracketed asides."""
    text = re.sub(r"\([^)]*\)", " ", new_id.ascii_fold(text).lower())
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


def _link_title(link: RawLink, entry_title: str) -> str | None:
    """Return a secondary link's own title when its text says more than its type or entry."""
    text = clean_title(link.text)
    key = title_key(text)
    if not text or link.generic or text == entry_title:
        return None
    return None if key is not None and key == title_key(entry_title) else text


def _url_slug(url: str) -> str:
    """Return an id for a URL-only item: the arXiv id, else the last meaningful path part."""
    if (aid := identity.arxiv_id(url)) is not None:
        return "arxiv-" + slug(aid)
    parts = [p for p in urlsplit(url).path.split("/") if p]
    for part in reversed(parts):
        candidate = slug(re.sub(r"\.(pdf|html?)$", "", part))
        if len(candidate) > 3 and not candidate.isdigit():
            return candidate
    return slug(_host(url))
