"""BibTeX export: one entry per citable resource, written with bibtexparser 2.

Keys are the stable entry ids. Entry types follow the venue table in ``venues``. Text fields
are LaTeX-escaped (``& % $ # _ { } ~ ^ \\ @``) and every word holding a capital letter is
wrapped in braces, so styles that lower-case titles keep "TensorFlow", "GPUs" and "SGD".
Non-ASCII characters are kept as UTF-8 (biber and modern BibTeX read it); URL, DOI and eprint
fields are left verbatim apart from braces and backslashes, which are percent-encoded.

BibTeX counts every brace, escaped or not: ``\\}`` ends a field as surely as ``}``. So a brace
of the data becomes ``\\{``/``\\}`` only as one of a matched pair; a lone one becomes
``\\textbraceleft{}``/``\\textbraceright{}``, and every value stays balanced. ``@`` is written
``{@}``, so no ``@type{`` can start an entry inside a value; an author name holding the word
"and" (BibTeX's name separator, in any case) is braced whole, so it stays one author.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from bibtexparser import middlewares, model
from bibtexparser.entrypoint import write_string
from bibtexparser.library import Library
from bibtexparser.writer import BibtexFormat

from ddl_catalog.citation import Citation, cite
from ddl_catalog.export.names import split_name
from ddl_catalog.model import KIND_LABELS, Entry, Venue

#: Kinds that go into papers.bib.
CITABLE_KINDS: tuple[str, ...] = ("paper", "book")

_LATEX_SPECIALS: dict[str, str] = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "@": "{@}",
}
#: Braces: ``\{``/``\}`` for a matched pair (balanced for BibTeX too), else these.
_MATCHED_BRACE = {"{": r"\{", "}": r"\}"}
_LONE_BRACE = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}
# A word's core: what lies between its leading and trailing punctuation.
_WORD = re.compile(r"^([\"'(\[“‘]*)(.*?)([\"')\].,:;!?”’]*)$", re.DOTALL)
_OLD_ARXIV = re.compile(r"^([a-z-]+(?:\.[A-Z]{2})?)/\d{7}$")


def escape(text: str) -> str:
    """Escape LaTeX's special characters, so a title with "&" or "_" compiles.

    The result is balanced for BibTeX, which counts escaped braces too: only a matched pair of
    braces stays ``\\{...\\}``; a lone brace is written as a command that holds none.
    """
    opened: list[int] = []
    matched: set[int] = set()
    for index, char in enumerate(text):
        if char == "{":
            opened.append(index)
        elif char == "}" and opened:
            matched.update((opened.pop(), index))
    return "".join(
        (_MATCHED_BRACE if index in matched else _LONE_BRACE)[char]
        if char in "{}"
        else _LATEX_SPECIALS.get(char, char)
        for index, char in enumerate(text)
    )


def protect(text: str) -> str:
    """Escape text and brace every word with a capital letter, so styles keep its case."""
    words = []
    for word in text.split():
        match = _WORD.match(word)
        assert match is not None  # the pattern matches any string
        lead, core, trail = match.groups()
        core = escape(core)
        if any(ch.isupper() for ch in core):
            core = "{" + core + "}"
        words.append(escape(lead) + core + escape(trail))
    return " ".join(words)


def verbatim(text: str) -> str:
    """Make a URL or identifier safe inside braces: percent-encode braces, keep the rest."""
    return text.replace("{", "%7B").replace("}", "%7D").replace("\\", "%5C")


def author_field(authors: Iterable[str], *, others: bool = False) -> str:
    """Join authors as "Family, Given and ...", the form every BibTeX style parses.

    ``others`` ends the list with "and others" (BibTeX's "et al."), for a list that holds the
    first authors only.
    """
    names = []
    for author in authors:
        name = split_name(author)
        if any(word.lower() == "and" for word in author.split()):
            # BibTeX splits names at the word "and" in any case; braced, it is part of one.
            names.append("{" + escape(" ".join(author.split())) + "}")
        elif name.literal:
            names.append("{" + escape(name.literal) + "}")
        elif name.suffix:
            names.append(f"{escape(name.family)}, {escape(name.suffix)}, {escape(name.given)}")
        else:
            names.append(f"{escape(name.family)}, {escape(name.given)}")
    if others and names:
        names.append("others")
    return " and ".join(names)


def entry_type(entry: Entry, venues: Mapping[str, Venue] | None = None) -> str:
    """Return the BibTeX entry type of an entry (``citation.cite`` decides)."""
    return cite(entry, venues or {}).kind


def _author(citation: Citation) -> str | None:
    """Return the author field: the people, else the team braced as one corporate name."""
    if citation.authors:
        return author_field(citation.authors, others=citation.more_authors)
    if citation.team:
        return "{" + escape(" ".join(citation.team.split())) + "}"
    return None


def _fields(entry: Entry, venues: Mapping[str, Venue]) -> list[tuple[str, str]]:
    """List an entry's BibTeX fields in a fixed order.

    ``year`` is the year of the venue's edition (the one a reader cites), ``origdate`` the
    first publication's when it differs (biblatex), and the arXiv id goes in the eprint fields.
    """
    citation = cite(entry, venues)
    kind = citation.kind
    fields: list[tuple[str, str]] = [("title", protect(entry.title))]
    author = _author(citation)
    if author is not None:
        fields.append(("author", author))
    if citation.container:
        venue_field = {"article": "journal", "inproceedings": "booktitle", "book": "series"}
        fields.append((venue_field.get(kind, "howpublished"), protect(citation.container)))
    if citation.year is not None:
        fields.append(("year", str(citation.year)))
    if citation.first_year is not None:
        fields.append(("origdate", str(citation.first_year)))
    if citation.pages:
        fields.append(("pages", escape(citation.pages.replace("-", "--"))))
    ids = entry.identifiers
    if ids.doi:
        fields.append(("doi", verbatim(ids.doi)))
    if ids.arxiv:
        fields.append(("eprint", verbatim(ids.arxiv)))
        fields.append(("archivePrefix", "arXiv"))
        old = _OLD_ARXIV.match(ids.arxiv)
        if old:
            fields.append(("primaryClass", old.group(1)))
    if kind == "misc" and not ids.arxiv and not entry.venue:
        fields.append(("howpublished", r"\url{" + verbatim(entry.url) + "}"))
    fields.append(("url", verbatim(entry.url)))
    if author is None or entry.kind not in CITABLE_KINDS:
        fields.append(("note", KIND_LABELS[entry.kind][0]))
    return fields


def to_block(entry: Entry, venues: Mapping[str, Venue] | None = None) -> model.Entry:
    """Build the bibtexparser entry for one catalog entry."""
    known = venues or {}
    fields = [model.Field(key, value) for key, value in _fields(entry, known)]
    return model.Entry(entry_type(entry, known), entry.id, fields)


def _format() -> BibtexFormat:
    fmt = BibtexFormat()  # type: ignore[no-untyped-call]
    fmt.indent = "  "
    fmt.block_separator = "\n"
    fmt.trailing_comma = True
    return fmt


def render(entries: Iterable[Entry], venues: Mapping[str, Venue] | None = None) -> str:
    """Write entries as one BibTeX file, sorted by key, for reference managers and LaTeX."""
    library = Library()
    for entry in sorted(entries, key=lambda e: e.id):
        library.add(to_block(entry, venues))
    if not library.entries:
        return ""
    # The library is built here and thrown away: let the writer's middlewares work in place.
    stack = middlewares.default_unparse_stack(allow_inplace_modification=True)
    text: str = write_string(library, unparse_stack=stack, bibtex_format=_format())
    return text


def entry_bibtex(entry: Entry, venues: Mapping[str, Venue] | None = None) -> str:
    """Return one entry as BibTeX, for the copyable block on a paper's card."""
    return render([entry], venues)


def citable(entries: Iterable[Entry]) -> list[Entry]:
    """Keep the entries that belong in papers.bib (papers and books)."""
    return [e for e in entries if e.kind in CITABLE_KINDS]
