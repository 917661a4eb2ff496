"""Awesome-list Markdown -> raw items: one per resource-like list item, with its links and text.

The parser knows list styles, not the catalog: it reads headings, ``-``/``*``/``1.`` items,
``[Title](url) - text`` items, ``Title [[Label]](url) [[Label 2]](url2)`` items (the words are
the title, each bracketed label titles its link), bold titles followed by labelled links
(``- paper: [..](..)``), bare URLs and links broken across lines, and says why it skipped
everything else. A table of contents is skipped as a section of its own: sections nested under
its heading (``###`` under ``## Table of Contents``) are content.
Markdown is tokenised by markdown-it-py (CommonMark), so nesting and continuation lines follow
the same rules GitHub uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ddl_catalog.load import LoadError, read_bytes

#: Larger files are refused: the biggest awesome lists are a few hundred kilobytes.
MAX_BYTES = 5 * 1024 * 1024
#: Longer lines are refused with their line number: an awesome list's longest lines (table rows
#: full of badges) stay far below this, and a line of megabytes of brackets is an attack or an
#: accident, not a list. With it, every step of the importer stays linear in the file's size.
MAX_LINE = 16_384

#: Schemes of links that name a resource (ftp is kept so that the validator can flag it).
WEB_SCHEMES = ("http://", "https://", "ftp://")

#: Link texts that say what a link is rather than what the resource is called.
GENERIC_TEXTS = frozenset(
    {
        "arxiv",
        "article",
        "blog",
        "blog post",
        "book",
        "code",
        "data",
        "dataset",
        "demo",
        "doc",
        "docs",
        "documentation",
        "github",
        "gitxiv",
        "here",
        "home page",
        "homepage",
        "link",
        "mirror",
        "notes",
        "paper",
        "pdf",
        "post",
        "poster",
        "project",
        "project page",
        "repo",
        "repository",
        "slides",
        "source",
        "source code",
        "talk",
        "video",
        "web page",
        "webpage",
        "website",
        "youtube",
    }
)

_BARE_URL = re.compile(r"(?:https?|ftp)://[^\s<>\[\]()\"']+")
_LABEL = re.compile(r"^\s*(?P<label>[A-Za-z][A-Za-z0-9 /&._-]{0,30}?)\s*:\s*(?P<rest>.*)$", re.S)
_BROKEN_PAREN = re.compile(r"\]([ \t]*)\r?\n[ \t]*\((?=\s*(?:https?|ftp)://)")
#: Headings of a table of contents: only the section itself is skipped, not those under it.
_TOC = frozenset({"contents", "table of contents", "toc"})
_NOT_CONTENT = _TOC | frozenset(
    {
        "license",
        "licence",
        "contributing",
        "contributors",
        "contribute",
        "footnotes",
        "acknowledgements",
        "acknowledgments",
    }
)


class BadList(Exception):
    """The file cannot be read as a Markdown list; carries a located message."""

    def __init__(self, path: str, line: int, column: int, message: str) -> None:
        super().__init__(f"{path}:{line}:{column}: error: {message}")
        self.path, self.line, self.column, self.message = path, line, column, message


@dataclass(frozen=True)
class RawLink:
    """A link of an item: its URL, its text ('' for a bare URL) and any ``label:`` before it."""

    url: str
    text: str
    label: str
    line: int

    @property
    def generic(self) -> bool:
        """Say whether the text names the link's type ('paper', a URL ...) rather than a title."""
        text = self.text.strip().strip("[]").strip().lower().rstrip(".:")
        return not text or text in GENERIC_TEXTS or text.startswith(WEB_SCHEMES)


@dataclass
class RawItem:
    """One resource as the list gives it: a title (None when only a URL), links, text, notes."""

    line: int
    title: str | None
    links: list[RawLink]
    text: str
    headings: tuple[str, ...]
    notes: list[str] = field(default_factory=list)
    context: str = ""
    venue: str | None = None
    year: int | None = None
    #: Language and licence bits (a column, a ``(MIT)`` or `` `Python` `` tag): (kind, value,
    #: the note that says it). The planner makes them tags when the catalog has the tag.
    hints: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Skip:
    """Something that looked like an item and is not one, with the reason and its URLs."""

    line: int
    reason: str
    text: str
    urls: tuple[str, ...] = ()


@dataclass
class Heading:
    """A heading of the list, by line."""

    line: int
    level: int
    title: str


@dataclass
class ParsedList:
    """What a list file holds: items, skipped things, headings."""

    path: str
    items: list[RawItem] = field(default_factory=list)
    skips: list[Skip] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    #: The list's own GitHub repositories (owner/name, lower case), whose links are skipped.
    own_repos: tuple[str, ...] = ()


class _Markdown(MarkdownIt):
    """CommonMark that keeps link destinations as written (no percent-encoding)."""

    def normalizeLink(self, url: str) -> str:
        """Return the URL unchanged: the catalog stores URLs as their authors wrote them."""
        return url


class _Code(str):
    """Text that the list wrote as inline code (`` `Python` ``): a tag when it ends an item."""

    __slots__ = ()


# --------------------------------------------------------------------------- reading


def read_list(file: Path, display: str) -> str:
    """Read a list file as text, or raise BadList saying where and why it is unusable."""
    try:  # a regular file only (a FIFO or /dev/zero is refused unread), bounded
        raw = read_bytes(file, display, MAX_BYTES, "a list to import")
    except LoadError as exc:
        raise BadList(display, 1, 1, exc.problem.message) from exc
    if b"\x00" in raw:
        line, column = _position(raw, raw.index(b"\x00"))
        raise BadList(display, line, column, "binary file (NUL byte): not a Markdown list")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = _position(raw, exc.start)
        raise BadList(display, line, column, "not UTF-8 text: save the list as UTF-8") from exc
    if not text.strip():
        raise BadList(display, 1, 1, "empty file: no list to import")
    for number, row in enumerate(text.split("\n"), 1):
        if len(row) > MAX_LINE:
            raise BadList(
                display,
                number,
                MAX_LINE + 1,
                f"line is {len(row):,} characters long; the importer reads lines of up to "
                f"{MAX_LINE:,} (an awesome list's are far shorter): wrap or shorten it",
            )
    return text


def _position(raw: bytes, offset: int) -> tuple[int, int]:
    """Return the 1-based line and column of a byte offset."""
    before = raw[:offset]
    line = before.count(b"\n") + 1
    return line, offset - (before.rfind(b"\n") + 1) + 1


_HTML_ANCHOR = re.compile(
    r"<a\s[^>]*?href\s*=\s*[\"'](?P<url>[^\"']+)[\"'][^>]*>(?P<text>.*?)</a\s*>", re.I | re.S
)
_HTML_SUMMARY = re.compile(r"<summary[^>]*>(?P<text>.*?)</summary\s*>", re.I | re.S)
#: Lines that are only block-level tags of an HTML list or a collapsible section.
_HTML_FRAME = re.compile(
    r"^\s*(?:</?(?:details|ul|ol|div|p|br|center|table|tbody|thead)\b[^>]*>\s*)+$", re.I
)
_HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")


def _html_line(line: str) -> str:
    """Rewrite one line of an HTML list or <details> block as Markdown (same line count).

    ``<details>``/``<ul>`` frames become blank lines, a ``<summary>`` a bold title (the items
    under it keep it as their context; their category comes from the real headings), and an
    ``<li>`` with ``<a href>`` links a Markdown item.
    Other lines are returned unchanged.
    """
    end = "\n" if line.endswith("\n") else ""
    body = line.rstrip("\r\n")
    if _HTML_FRAME.match(body):
        return end
    # Only search when a closing tag follows an opening one: a line of opening tags alone
    # would make the lazy ``.*?`` rescan the rest of the line from each of them.
    lower = body.lower()
    opening = lower.find("<summary")
    closed = opening >= 0 and lower.find("</summary", opening) >= 0
    summary = _HTML_SUMMARY.search(body, opening) if closed else None
    if summary is not None:
        title = " ".join(_HTML_TAG.sub(" ", summary.group("text")).split())
        return f"**{title}**{end}" if title else end
    stripped = body.strip()
    if not stripped.lower().startswith("<li"):
        return line
    indent = " " * (2 * max(0, (len(body) - len(body.lstrip())) // 4))
    item = body
    if "</a" in lower:  # as above: no lazy rescans on a line without a closing tag
        item = _HTML_ANCHOR.sub(
            lambda m: f"[{_HTML_TAG.sub('', m.group('text')).strip()}]({m.group('url').strip()})",
            body,
        )
    item = " ".join(_HTML_TAG.sub(" ", item).split())
    return f"{indent}- {item}{end}" if item else end


def _prepare(text: str) -> str:
    """Blank out YAML front matter, turn HTML lists into Markdown, join ``[text]`` to ``(url)``.

    Each keeps the line count, so that every reported line is the file's own.
    """
    lines = text.splitlines(keepends=True)
    if lines and lines[0].strip() == "---":
        for end in range(1, len(lines)):
            if lines[end].strip() in ("---", "..."):
                lines[: end + 1] = ["\n"] * (end + 1)
                break
    if "<" in text:
        lines = [_html_line(line) if "<" in line else line for line in lines]
    # CommonMark allows a line break between "(" and the destination, not between "]" and "(".
    return _BROKEN_PAREN.sub("](\n", "".join(lines))


# --------------------------------------------------------------------------- inline text


@dataclass
class _Inline:
    """An inline run split into text and links; images and badges set aside."""

    parts: list[str | RawLink]
    images: list[str]
    line: int = 0

    @property
    def links(self) -> list[RawLink]:
        """Return the links, in order."""
        return [p for p in self.parts if isinstance(p, RawLink)]

    def lead(self) -> str:
        """Return the text before the first link."""
        out: list[str] = []
        for part in self.parts:
            if isinstance(part, RawLink):
                break
            out.append(part)
        return _clean("".join(out))

    def after_first(self) -> str:
        """Return the text after the first link (other links' texts left out)."""
        seen, out = False, []
        for part in self.parts:
            if isinstance(part, RawLink):
                seen = True
            elif seen:
                out.append(part)
        return _clean_description("".join(out))

    def split_tail_code(self) -> tuple[_Inline, list[str]]:
        """Split off the short code spans that end an item (`` `MIT` `Python` ``): its tags.

        Returns the inline without them and their texts, in order; code inside the text stays.
        """
        end = len(self.parts)
        tags: list[str] = []
        for i in range(len(self.parts) - 1, -1, -1):
            part = self.parts[i]
            if isinstance(part, _Code):
                value = " ".join(part.split())
                if not value or len(value) > _MAX_TAG or len(value.split()) > 2:
                    break
                tags.insert(0, value)
                end = i
            elif isinstance(part, RawLink) or part.strip(" \t.,;·|/"):
                break
        if not tags or not any(isinstance(p, RawLink) for p in self.parts[:end]):
            return self, []
        return _Inline(self.parts[:end], self.images, self.line), tags

    def plain(self) -> str:
        """Return all the text, with link texts in place."""
        return _clean("".join(p if isinstance(p, str) else p.text for p in self.parts))


def _inline(token: Token, line: int) -> _Inline:
    """Split an inline token into text parts and links (bare URLs included)."""
    parts: list[str | RawLink] = []
    images: list[str] = []
    href: str | None = None
    link_text: list[str] = []
    link_images: list[str] = []
    for child in token.children or []:
        kind = child.type
        if kind == "link_open":
            href, link_text, link_images = str(child.attrs.get("href", "")), [], []
        elif kind == "link_close" and href is not None:
            text = _clean("".join(link_text))
            if link_images and not text:
                pass  # a badge: an image that links somewhere, never a resource
            elif not href.strip():
                pass  # "[code]()": a link the list left empty
            elif href.lower().startswith(WEB_SCHEMES):
                parts.append(RawLink(href.strip(), text, "", line))
            else:
                parts.append(text)  # an anchor or a relative link: keep its words only
            href = None
        elif kind == "image":
            (link_images if href is not None else images).append(str(child.attrs.get("src", "")))
        elif kind in ("text", "code_inline", "softbreak", "hardbreak"):
            words = child.content if kind in ("text", "code_inline") else " "
            if href is not None:
                link_text.append(words)
            else:
                parts.append(_Code(words) if kind == "code_inline" else words)
    return _Inline(_split_bare_urls(parts, line), images, line)


def _split_bare_urls(parts: list[str | RawLink], line: int) -> list[str | RawLink]:
    """Turn URLs written as plain text into links without text."""
    out: list[str | RawLink] = []
    for part in parts:
        if isinstance(part, (RawLink, _Code)):
            out.append(part)
            continue
        last = 0
        for match in _BARE_URL.finditer(part):
            url = match.group(0).rstrip(".,;:!?")
            out.append(part[last : match.start()])
            out.append(RawLink(url, "", "", line))
            last = match.start() + len(url)
        out.append(part[last:])
    return [p for p in out if not (isinstance(p, str) and not p)]


def _clean(text: str) -> str:
    """Fold whitespace and drop emphasis markers left in text."""
    text = text.replace("**", "").replace("__", "")
    return " ".join(text.split())


#: Longest code span read as a tag (`` `Python` ``, `` `GPL-3.0` ``); longer ones are code.
_MAX_TAG = 24

_EMPTY_BRACKETS = re.compile(r"\(\s*[,;|/]?\s*\)|\[\s*\]|\{\s*\}")


def _clean_description(text: str) -> str:
    """Drop the separator between a link and its description (``-``, ``:``, ``—``, ``->``).

    Brackets left empty by stripped badges or links (``()``, ``[]``) and separators left
    dangling at the end go too.
    """
    text = _clean(text)
    for _ in range(2):
        text = _EMPTY_BRACKETS.sub("", text)
    text = " ".join(text.split())
    text = re.sub(r"^(?:->|=>|[-–—:,;|])+\s*", "", text)
    text = re.sub(r"\s*(?:->|=>|[-–—:,;|])+$", "", text)
    text = re.sub(r"\s+([,.;:])", r"\1", text)
    return "" if re.fullmatch(r"[\s\W]*", text) else text


#: A venue-and-year tag such as ``[ICLR'24]``, ``(NeurIPS 2023)`` or ``[OSDI 2022]``.
_VENUE_TAG = re.compile(
    r"[\[(](?P<venue>[A-Z][A-Za-z&.+-]{1,20}(?: [A-Z][A-Za-z&.+-]{1,15})?)\s*"
    r"(?:['’](?P<yy>\d{2})|(?P<yyyy>(?:19|20)\d{2}))[\])]"
)
#: A licence or language tag the list put in brackets: kept as a note, not as description.
_LICENCE_TAG = re.compile(
    r"[\[(](?P<tag>MIT|Apache(?:[- ]2(?:\.0)?)?|(?:A|L)?GPL(?:[- ]?v?[23](?:\.0)?)?\+?|"
    r"BSD(?:[- ]?[23]-Clause)?|MPL(?:[- ]?2\.0)?|CC[- ]BY(?:[- ][A-Z-]+)?(?:[- ]\d\.\d)?|"
    r"CC0|Unlicense|ISC|Proprietary|Free|Open[- ]source)[\])]",
    re.I,
)


def structured_bits(item: RawItem) -> RawItem:
    """Move venue/year tags (``[ICLR'24]``) and licence tags (``(MIT)``) out of title and text."""
    for field_name in ("title", "text"):
        value = getattr(item, field_name)
        if not value:
            continue
        venue = _VENUE_TAG.search(value)
        if venue is not None and item.venue is None:
            item.venue = venue.group("venue")
            item.year = int(venue.group("yyyy") or f"20{venue.group('yy')}")
            value = value[: venue.start()] + value[venue.end() :]
        for tag in list(_LICENCE_TAG.finditer(value)):
            note = f"licence: {tag.group('tag')}"
            item.notes.append(note)
            item.hints.append(("licence", tag.group("tag"), note))
        value = _LICENCE_TAG.sub("", value)
        cleaned = clean_title(value) if field_name == "title" else _clean_description(value)
        setattr(item, field_name, cleaned or (None if field_name == "title" else ""))
    return item


#: A coloured LaTeX marker some lists put before new items: ``$\color{red}{(New)}$``.
_COLOUR_MARK = re.compile(r"\$\\color\{[^{}$]*\}\{[^{}$]*\}\$")


def clean_title(text: str) -> str:
    """Return a link text fit for a title: one line, no trailing punctuation or brackets."""
    text = _clean(_COLOUR_MARK.sub(" ", text))
    text = re.sub(r"\s*([:,;/|-])\s*$", "", text)
    text = text.rstrip(" .,;:")
    return text.strip()


def label_of(text: str) -> tuple[str, str]:
    """Split ``paper: rest`` into ('paper', 'rest'); ('', text) when there is no short label."""
    match = _LABEL.match(text)
    if not match or _BARE_URL.match(text.strip()):
        return "", text
    label = match.group("label").strip().lower()
    if len(label.split()) > 3:
        return "", text
    return label, match.group("rest").strip()


# --------------------------------------------------------------------------- own repository

_REPO = r"(?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+?)(?:\.git)?"
_URL_END = r"(?=[\s)\]\"'<>#?]|$)"
#: A list's housekeeping links name its own repository: the contribution guide or code of
#: conduct, its pull requests and issues, contributors, fork and CI pages.
_HOUSEKEEPING = re.compile(
    r"https?://(?:www\.)?github\.com/" + _REPO + r"/(?:"
    r"(?:blob|tree|edit)/[^/\s)]+/(?:\.github/|docs/)?"
    r"(?:contributing|code[-_]of[-_]conduct)(?:\.md)?"
    r"|pulls|issues(?:/new[^\s)\]\"'<>]*)?|graphs/contributors|network/members|fork|compare"
    r"|actions(?:/workflows/[^\s)\]\"'<>]*)?)/?" + _URL_END,
    re.I,
)
#: On the awesome badge's line, the badges beside it name the list's repository too.
_AWESOME_BADGE = re.compile(r"awesome\.re/badge|sindresorhus/awesome", re.I)
_BADGE_REPO = re.compile(
    r"https?://(?:img\.shields\.io/github/[a-z-]+/|(?:www\.)?github\.com/)"
    + _REPO
    + r"(?=[/\s)\]\"'<>#?]|$)",
    re.I,
)
_GITHUB_REPO_URL = re.compile(r"https?://(?:www\.)?github\.com/" + _REPO + r"(?=[/\s#?]|$)", re.I)
#: What --list-repo accepts: OWNER/NAME or the repository's GitHub URL.
_LIST_REPO = re.compile(r"^(?:https?://(?:www\.)?github\.com/)?" + _REPO + r"/?$", re.I)


def list_repo_name(value: str) -> str | None:
    """Return OWNER/NAME (lower case) from ``OWNER/NAME`` or its GitHub URL; None if neither."""
    match = _LIST_REPO.match(value.strip())
    return match.group("repo").lower() if match else None


def repo_of(url: str) -> str | None:
    """Return the owner/name (lower case) of a github.com URL, or None."""
    match = _GITHUB_REPO_URL.match(url)
    return match.group("repo").lower() if match else None


def own_repositories(text: str) -> set[str]:
    """Return the GitHub repositories the list names as its own (owner/name, lower case).

    Read from its housekeeping links (contribution guide, pull requests, issues, contributors,
    fork, CI) and from the links beside its awesome badge.
    """
    found = {m.group("repo").lower() for m in _HOUSEKEEPING.finditer(text)}
    for line in text.splitlines():
        if _AWESOME_BADGE.search(line):
            for match in _BADGE_REPO.finditer(line):
                repo = match.group("repo").lower()
                if repo != "sindresorhus/awesome":
                    found.add(repo)
    return found


def _skip_own_links(result: ParsedList) -> None:
    """Drop links to the list's own repository; an item left without links becomes a skip."""
    own = set(result.own_repos)
    if not own:
        return
    kept: list[RawItem] = []
    for item in result.items:
        links = [link for link in item.links if repo_of(link.url) not in own]
        if links:
            item.links = links
            kept.append(item)
            continue
        repos = sorted({repo_of(link.url) or "" for link in item.links})
        result.skips.append(
            Skip(
                item.line,
                f"link to the list's own repository ({', '.join(repos)})",
                item.title or item.links[0].url,
                tuple(link.url for link in item.links),
            )
        )
    result.items = kept
    for i, skip in enumerate(result.skips):  # a paragraph's or a meta section's own links
        repos = sorted({repo_of(url) or "" for url in skip.urls})
        if skip.urls and set(repos) <= own:
            reason = f"link to the list's own repository ({', '.join(repos)})"
            result.skips[i] = Skip(skip.line, reason, skip.text, skip.urls)


# --------------------------------------------------------------------------- block structure


@dataclass
class _Node:
    """A list item: its own inline text and its nested items."""

    line: int
    inlines: list[_Inline] = field(default_factory=list)
    children: list[_Node] = field(default_factory=list)

    def merged(self) -> _Inline:
        """Return the item's own paragraphs as one inline run."""
        parts: list[str | RawLink] = []
        images: list[str] = []
        for inline in self.inlines:
            if parts:
                parts.append(" ")
            parts.extend(inline.parts)
            images.extend(inline.images)
        return _Inline(parts, images, self.line)


@dataclass
class _Block:
    """A top-level block in document order: a heading, a paragraph or a list."""

    kind: str  # "heading", "paragraph", "list", "table"
    line: int
    level: int = 0
    inline: _Inline | None = None
    bold_only: bool = False
    items: list[_Node] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    rows: list[list[_Inline]] = field(default_factory=list)


def _blocks(tokens: list[Token]) -> list[_Block]:
    """Group the token stream into top-level blocks, lists as item trees."""
    blocks: list[_Block] = []
    stack: list[_Node] = []
    lists: list[list[_Node]] = []
    pending_heading: Token | None = None
    table: _Block | None = None
    row: list[_Inline] | None = None
    in_head = False
    for i, tok in enumerate(tokens):
        line = (tok.map[0] + 1) if tok.map else 0
        if tok.type == "table_open" and not stack:
            table = _Block("table", line)
            blocks.append(table)
        elif tok.type == "table_close":
            table = None
        elif table is not None and tok.type in ("thead_open", "thead_close"):
            in_head = tok.type == "thead_open"
        elif table is not None and tok.type == "tr_open":
            row = []
        elif table is not None and tok.type == "tr_close" and row is not None:
            if in_head:
                table.header = [cell.plain() for cell in row]
            else:
                table.rows.append(row)
            row = None
        elif table is not None and tok.type == "inline" and row is not None:
            row.append(_inline(tok, line))
        elif tok.type in ("bullet_list_open", "ordered_list_open"):
            if not stack:
                blocks.append(_Block("list", line))
                lists.append(blocks[-1].items)
            else:
                lists.append(stack[-1].children)
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif tok.type == "list_item_open":
            node = _Node(line)
            lists[-1].append(node)
            stack.append(node)
        elif tok.type == "list_item_close":
            stack.pop()
        elif tok.type == "heading_open":
            pending_heading = tok
        elif tok.type == "inline":
            where = (tok.map[0] + 1) if tok.map else 0
            inline = _inline(tok, where)
            if pending_heading is not None:
                level = int(pending_heading.tag[1:])
                blocks.append(_Block("heading", where, level=level, inline=inline))
                pending_heading = None
            elif stack:
                stack[-1].inlines.append(inline)
            else:
                bold = _is_bold_only(tokens, i)
                blocks.append(_Block("paragraph", where, inline=inline, bold_only=bold))
    return blocks


def _is_bold_only(tokens: list[Token], index: int) -> bool:
    """Say whether a paragraph is nothing but strong text (a bold title)."""
    children = [
        c
        for c in tokens[index].children or []
        if c.type != "softbreak" and not (c.type == "text" and not c.content.strip())
    ]
    if (
        len(children) < 3
        or children[0].type != "strong_open"
        or children[-1].type != "strong_close"
    ):
        return False
    return all(c.type in ("text", "code_inline") for c in children[1:-1])


# --------------------------------------------------------------------------- items


def parse_list(text: str, display: str, list_repo: str | None = None) -> ParsedList:
    """Parse list text into items and skips; raise BadList when it holds no list items.

    Links to the list's own repository (``list_repo``, OWNER/NAME, and those its housekeeping
    links name) are skipped with the reason.
    """
    tokens = _Markdown("commonmark").enable("table").parse(_prepare(text))
    own = own_repositories(text) | ({list_repo.lower()} if list_repo else set())
    result = ParsedList(display, own_repos=tuple(sorted(own)))
    headings: list[Heading] = []
    bold: tuple[int, str] | None = None
    bold_parts: list[_Node | _Inline] = []
    saw_items = False

    def close_bold() -> None:
        nonlocal bold
        if bold is not None:
            _bold_block(result, bold, bold_parts, _titles(headings))
        bold = None
        bold_parts.clear()

    for block in _blocks(tokens):
        if block.kind == "heading" and block.inline is not None:
            close_bold()
            title = clean_title(block.inline.plain())
            heading = Heading(block.line, block.level, title)
            while headings and headings[-1].level >= block.level:
                headings.pop()
            headings.append(heading)
            result.headings.append(heading)
        elif _in_non_content(headings, block):
            for url in _urls_of_block(block):
                result.skips.append(
                    Skip(block.line, "table of contents or meta section", "", (url,))
                )
        elif block.kind == "paragraph" and block.inline is not None:
            if block.bold_only:
                close_bold()
                bold = (block.line, clean_title(block.inline.plain()))
            elif bold is not None:
                bold_parts.append(block.inline)
            else:
                _prose(result, block)
        elif block.kind == "table":
            saw_items = True
            close_bold()
            _table(result, block, _titles(headings))
        elif block.kind == "list":
            saw_items = True
            if bold is not None:
                bold_parts.extend(block.items)
            else:
                for node in block.items:
                    _item(result, node, _titles(headings), context="")
    close_bold()
    if not saw_items and not result.items:
        raise BadList(
            display,
            1,
            1,
            "no list items found: expected '-', '*' or '1.' items or bold titles followed by links",
        )
    _skip_own_links(result)
    result.items = [structured_bits(item) for item in result.items]
    result.items.sort(key=lambda item: item.line)
    result.skips.sort(key=lambda skip: skip.line)
    return result


def _titles(headings: list[Heading]) -> tuple[str, ...]:
    """Return the titles of the open headings, outermost first (a table of contents left out)."""
    return tuple(h.title for h in headings if _heading_key(h) not in _TOC)


def _heading_key(heading: Heading) -> str:
    """Return a heading's title as the section names above are written (``Contents:``)."""
    return heading.title.lower().strip(" :")


def _in_non_content(headings: list[Heading], block: _Block) -> bool:
    """Say whether a block is in a table of contents, a licence section or the like.

    A table of contents is its own section only: lists whose content headings (``###``) sit
    under a ``## Table of Contents`` heading are content, unless they link nothing but the
    page's own anchors (a table of contents in parts).
    """
    if not headings:
        return False
    if any(_heading_key(h) in _NOT_CONTENT - _TOC for h in headings):
        return True
    if _heading_key(headings[-1]) in _TOC:
        return True
    return any(_heading_key(h) in _TOC for h in headings) and not any(_urls_of_block(block))


def _urls_of_block(block: _Block) -> Iterator[str]:
    """Yield the web URLs of a paragraph or list block (for skip records)."""
    if block.inline is not None:
        yield from (link.url for link in block.inline.links)
    for row in block.rows:
        yield from (link.url for cell in row for link in cell.links)
    stack = list(block.items)
    while stack:
        node = stack.pop()
        yield from (link.url for link in node.merged().links)
        stack.extend(node.children)


#: Table columns that hold a description, a name, or a structured bit kept as a note.
_DESCRIPTION_COLUMN = re.compile(
    r"\b(description|summary|about|what|details|notes?|comments?|abstract|purpose|info)\b", re.I
)
_NAME_COLUMN = re.compile(
    r"^(name|title|project|tool|paper|resource|library|framework|repo(sitory)?|app|software)s?$",
    re.I,
)
_HOME_COLUMN = re.compile(
    r"^(links?|url|website|homepage|home|site|code|repo(sitory)?|github|source)$", re.I
)
_HINT_COLUMN = re.compile(r"^(licen[cs]es?|languages?|lang)$", re.I)
_NOTE_COLUMN = re.compile(
    r"^(venue|conference|journal|year|date|licen[cs]e|language|lang|platform|stars?)$", re.I
)


def _table(result: ParsedList, block: _Block, headings: tuple[str, ...]) -> None:
    """Turn each body row of a GFM table into an item.

    The title is the first cell's link that names something (else a name column's text, with
    the row's first link); the description the description column (else the longest plain
    cell); links in other columns are typed by their column's header (``Paper``, ``Code``);
    venue, year, licence and language columns become notes.
    """
    header = [h.strip() for h in block.header]
    for row in block.rows:
        line = row[0].line if row else block.line
        for cell in row:
            _note_images(result, line, cell)
        plain = " | ".join(cell.plain() for cell in row)
        if not any(cell.links for cell in row):
            result.skips.append(Skip(line, "table row without a link", plain[:80]))
            continue
        column = [header[i] if i < len(header) else "" for i in range(len(row))]
        named = [i for i, cell in enumerate(row) if cell.links and not cell.links[0].generic]
        used: set[int] = set()
        if named:
            title_at = named[0]
            main = row[title_at].links[0]
            title: str | None = clean_title(main.text)
            lead = row[title_at].lead()
            links = [main]
        else:
            names = [i for i, c in enumerate(row) if _NAME_COLUMN.match(column[i]) and c.plain()]
            texts = [i for i, c in enumerate(row) if not c.links and c.plain()]
            title_at = (names or texts or [0])[0]
            title = clean_title(row[title_at].plain()) or None
            linked = [i for i, c in enumerate(row) if c.links]
            home = [i for i in linked if _HOME_COLUMN.match(column[i])]
            first = row[(home or linked)[0]].links[0]
            main = RawLink(first.url, title or first.text, "", first.line)
            links = [main]
            lead = ""
        used.add(title_at)
        for i, cell in enumerate(row):
            for link in cell.links:
                if link is main or link.url == main.url:
                    continue
                label = column[i].lower() if (link.generic or i != title_at) else ""
                links.append(RawLink(link.url, link.text, label, link.line))
        described = [
            i for i, c in enumerate(row) if i not in used and _DESCRIPTION_COLUMN.search(column[i])
        ]
        if not described:
            plain_cells = [(len(c.plain()), i) for i, c in enumerate(row) if i not in used]
            plain_cells = [
                (n, i)
                for n, i in plain_cells
                if not row[i].links and len(row[i].plain().split()) > 2
            ]
            described = [max(plain_cells)[1]] if plain_cells else []
        text = " ".join(
            t for t in [lead, *(_clean_description(row[i].plain()) for i in described)] if t
        )
        notes = [
            f"{column[i]}: {row[i].plain()}"
            for i in range(len(row))
            if i not in used
            and i not in described
            and _NOTE_COLUMN.match(column[i])
            and row[i].plain()
            and not row[i].links
        ]
        hints = [
            hint
            for i in range(len(row))
            if f"{column[i]}: {row[i].plain()}" in notes
            for hint in _column_hints(column[i], row[i].plain())
        ]
        result.items.append(RawItem(line, title, links, text, headings, notes, "", hints=hints))


def _code_hint(value: str) -> tuple[str, str, str]:
    """Return the hint of a code tag ending an item: a licence (`` `MIT` ``) or another tag."""
    kind = "licence" if _LICENCE_TAG.fullmatch(f"({value})") else "tag"
    return kind, value, f"{kind}: {value}"


def _column_hints(column: str, value: str) -> list[tuple[str, str, str]]:
    """Return the hints of a language or licence cell (``Python, Go``: one per value)."""
    if not _HINT_COLUMN.match(column) or not value:
        return []
    kind = "licence" if column.lower().startswith("licen") else "language"
    note = f"{column}: {value}"
    return [(kind, v.strip(), note) for v in re.split(r"[,;/]", value) if v.strip()]


def _prose(result: ParsedList, block: _Block) -> None:
    """Record the links of a paragraph outside any list: prose, not items."""
    if block.inline is None:
        return
    urls = tuple(link.url for link in block.inline.links)
    _note_images(result, block.line, block.inline)
    if urls:
        result.skips.append(
            Skip(
                block.line, "link in a paragraph, not a list item", block.inline.plain()[:80], urls
            )
        )


def _note_images(result: ParsedList, line: int, inline: _Inline) -> None:
    """Record the images of an item (badges and embeds are not resources)."""
    for image in inline.images:
        result.skips.append(Skip(line, "image", "", (image,)))


def _item(result: ParsedList, node: _Node, headings: tuple[str, ...], context: str) -> None:
    """Turn one top-level (or promoted) list item into items and skips."""
    inline = node.merged()
    _note_images(result, node.line, inline)
    links = inline.links
    if links:
        _linked_item(result, node, inline, headings, context)
        return
    linked_children = [c for c in node.children if _has_links(c)]
    label = clean_title(inline.plain())
    if not linked_children:
        result.skips.append(Skip(node.line, "no link", label))
        for child in node.children:
            _note_images(result, child.line, child.merged())
        return
    if any(_child_is_labelled(c) for c in linked_children):
        _labelled_resource(result, node.line, label, node.children, headings, context)
        return
    result.skips.append(Skip(node.line, "grouping label", label))
    for child in node.children:
        _item(result, child, headings, context=label)


def _has_links(node: _Node) -> bool:
    """Say whether an item or any item under it carries a link."""
    return bool(node.merged().links) or any(_has_links(c) for c in node.children)


def _child_is_labelled(node: _Node) -> bool:
    """Say whether a sub-item is a typed link of its parent (``paper: ...``, ``[Github](..)``)."""
    links = node.merged().links
    return bool(links) and (links[0].generic or _ends_with_colon(node))


def _ends_with_colon(node: _Node) -> bool:
    """Say whether the text before an item's first link ends with a colon (``slides: [..]``)."""
    parts = node.merged().parts
    for i, part in enumerate(parts):
        if isinstance(part, RawLink):
            before = "".join(p for p in parts[:i] if isinstance(p, str)).strip()
            return before.endswith(":")
    return False


def _typed_links(inline: _Inline) -> list[RawLink]:
    """Return an inline's links, each with the ``label:`` written before it (if any)."""
    out: list[RawLink] = []
    text = ""
    for part in inline.parts:
        if isinstance(part, RawLink):
            before = text.strip()
            label = label_of(before)[0] if before.endswith(":") else ""
            out.append(RawLink(part.url, part.text, label, part.line))
            text = ""
        else:
            text += part
    return out


def labelled(link: RawLink) -> str | None:
    """Return the label of a link written ``[[Label]](url)`` (its text in brackets), else None."""
    text = link.text.strip()
    if len(text) > 2 and text[0] == "[" and text[-1] == "]":
        return _clean(text[1:-1]) or None
    return None


def _title_before_labels(lead: str, first: RawLink) -> str | None:
    """Return the title of ``Some Title [[Label]](url)``: the words before the first link.

    None when the first link is not a bracketed label, or the item has no words of its own
    before it (``[[Medium]](url)`` alone keeps its label as the title, as it always did), or
    those words are only a link type (``Paper: [[arXiv]](url)``).
    """
    if labelled(first) is None:
        return None
    title = clean_title(lead)
    if not title or not any(ch.isalnum() for ch in title) or title.lower() in GENERIC_TEXTS:
        return None
    return title


def _unlabelled(link: RawLink, first: bool) -> RawLink:
    """Return a ``[[Label]](url)`` link with its label as its text (the title of the link).

    The first link's ``label:`` is dropped: the words before it are the item's title, not a
    link type (``Some Title: [[Medium]](url)``).
    """
    label = labelled(link)
    if label is None:
        return RawLink(link.url, link.text, "" if first else link.label, link.line)
    return RawLink(link.url, label, "" if first else link.label, link.line)


def _linked_item(
    result: ParsedList, node: _Node, inline: _Inline, headings: tuple[str, ...], context: str
) -> None:
    """Build the item(s) of a list item that has links of its own."""
    inline, code_tags = inline.split_tail_code()
    links = _typed_links(inline)
    own = [c for c in node.children if _is_own_entry(c)]
    rest = [c for c in node.children if not _is_own_entry(c)]
    notes, extra = _children_links_and_notes(result, rest)
    lead = inline.lead()
    connector_only = not re.sub(
        r"\b(and|or|also|cf|see)\b|[\s,;&+.]", "", lead + inline.after_first()
    )
    if all(not link.text for link in links) and len(links) > 1 and connector_only:
        for link in links:  # "* URL1 and URL2": two resources
            result.items.append(
                RawItem(link.line, None, [link], "", headings, list(notes), context)
            )
        return
    first = links[0]
    hints = [_code_hint(value) for value in code_tags]
    notes = [*notes, *(note for _, _, note in hints)]
    if (title := _title_before_labels(lead, first)) is not None:
        # "Some Title [[Publisher]](url) [[Slides]](url2)": the words are the title, the
        # bracketed labels say what each link is (they become the links' titles)
        links = [_unlabelled(link, index == 0) for index, link in enumerate(links)]
        text = inline.after_first()
    elif first.generic:
        title = (
            clean_title(lead)
            or (
                clean_title(first.text)
                if first.text and not first.text.startswith(WEB_SCHEMES)
                else ""
            )
            or None
        )
        text = inline.after_first()
    else:
        title = clean_title(first.text)
        text = " ".join(t for t in (lead, inline.after_first()) if t)
    result.items.append(
        RawItem(node.line, title, links + extra, text, headings, notes, context, hints=hints)
    )
    for child in own:  # "  - [Other Title](url) - text": a resource of its own
        _item(result, child, headings, context=title or context)


#: Words that make a sub-item's link a typed link of its parent, not a resource of its own.
_TYPED_WORDS = frozenset(word for text in GENERIC_TEXTS for word in text.split()) | frozenset(
    {
        "implementation",
        "implementations",
        "reimplementation",
        "available",
        "official",
        "unofficial",
        "port",
        "version",
        "example",
        "examples",
        "notebook",
        "colab",
        "recording",
        "transcript",
        "supplementary",
        "appendix",
        "discussion",
        "issue",
        "thread",
    }
)


def _is_own_entry(node: _Node) -> bool:
    """Say whether a sub-item is a resource of its own: it starts with a link naming it."""
    inline = node.merged()
    links = inline.links
    if not links or links[0].generic or _ends_with_colon(node) or inline.lead():
        return False
    words = set(re.findall(r"[a-z]+", links[0].text.lower()))
    if words & _TYPED_WORDS:
        return False  # "[Code available for TensorFlow](..)", "[PyTorch implementation](..)"
    return bool(words)


def _children_links_and_notes(
    result: ParsedList, children: list[_Node]
) -> tuple[list[str], list[RawLink]]:
    """Collect the notes (text-only sub-items) and links of the sub-items of an item."""
    notes: list[str] = []
    links: list[RawLink] = []
    for child in children:
        inline = child.merged()
        _note_images(result, child.line, inline)
        typed = _typed_links(inline)
        if typed:
            first = typed[0]
            if not first.label and first.text and not first.generic:
                typed[0] = RawLink(first.url, first.text, first.text.lower(), first.line)
            links.extend(typed)
            rest = inline.after_first()
            if rest:
                notes.append(rest)
        else:
            text = inline.plain()
            if text:
                notes.append(text)
        more_notes, more_links = _children_links_and_notes(result, child.children)
        notes.extend(more_notes)
        links.extend(more_links)
    return notes, links


def _labelled_resource(
    result: ParsedList,
    line: int,
    title: str,
    parts: list[_Node | _Inline] | list[_Node],
    headings: tuple[str, ...],
    context: str,
) -> None:
    """Build one item from a title and its typed links (bold title + ``- paper: ..`` style)."""
    notes: list[str] = []
    links: list[RawLink] = []
    for part in parts:
        if isinstance(part, _Inline):
            _note_images(result, part.line, part)
            links.extend(_typed_links(part))
            continue
        inline = part.merged()
        _note_images(result, part.line, inline)
        typed = _typed_links(inline)
        if typed:
            lead = inline.lead().rstrip(":").strip()
            label, _ = label_of(lead + ":")
            first = typed[0]
            if not first.label:
                typed[0] = RawLink(first.url, first.text, label or first.text.lower(), first.line)
            links.extend(typed)
            rest = inline.after_first()
            if lead and not label:
                notes.append(lead)
            if rest:
                notes.append(rest)
        elif inline.plain():
            notes.append(inline.plain())
        child_notes, child_links = _children_links_and_notes(result, part.children)
        notes.extend(child_notes)
        links.extend(child_links)
    if not links:
        result.skips.append(Skip(line, "no link", title))
        return
    result.items.append(RawItem(line, title or None, links, "", headings, notes, context))


def _bold_block(
    result: ParsedList,
    bold: tuple[int, str],
    parts: list[_Node | _Inline],
    headings: tuple[str, ...],
) -> None:
    """Turn a bold title and what follows it into one resource, or a group of items."""
    line, title = bold
    nodes = [p for p in parts if isinstance(p, _Node)]
    titled = [n for n in nodes if n.merged().links and not _child_is_labelled(n)]
    if titled:  # the bold text heads a list of resources: a pseudo-heading
        result.skips.append(Skip(line, "grouping label", title))
        for part in parts:
            if isinstance(part, _Node):
                _item(result, part, headings, context=title)
            else:
                _prose(result, _Block("paragraph", line, inline=part))
        return
    _labelled_resource(result, line, title, parts, headings, context="")
