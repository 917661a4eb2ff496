"""Rule ``hidden-text``: what an entry says is what a reader sees.

Two ways text hides itself:

* a name that shows nothing: a title (or an author, a venue, a link's title) made only of
  invisible characters, such as a zero-width space (U+200B), the Hangul filler (U+3164), a
  soft hyphen or combining marks without a letter to sit on. The schema's one character and
  ``title-style``'s blank check both pass it, and the page shows an empty link;
* bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) in any text:
  they reorder the characters after them, so the page shows other words than the file holds
  (``gpj.exe`` read as ``exe.jpg``). Left-to-right and right-to-left marks (U+200E, U+200F)
  reorder nothing and stay allowed, for titles in Arabic or Hebrew.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from ddl_catalog.load import Path_, Problem
from ddl_catalog.rules.base import Context, field_name, problem

ID = "hidden-text"

#: Embeddings, overrides and isolates: each changes the display order of what follows it.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: Characters that show nothing on their own: Unicode's default-ignorable code points (from
#: DerivedCoreProperties.txt: format characters, fillers, variation selectors, tags) and the
#: Braille blank, which is a letter that draws no dots. Spaces and combining marks are checked by
#: category.
_SHOWS_NOTHING = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
#: Fields that name something and so must show at least one character.
NAMED_FIELDS = ("title", "venue")


def visible(text: str) -> bool:
    """Say whether text shows at least one character (not only spaces, marks or fillers)."""
    return any(
        not (ch.isspace() or _SHOWS_NOTHING.match(ch) or unicodedata.category(ch)[0] == "M")
        for ch in text
    )


def describe(chars: str) -> str:
    """Name the distinct characters of ``chars`` (at most three): ``U+200B (ZERO WIDTH SPACE)``."""
    seen = list(dict.fromkeys(chars))
    named = [f"U+{ord(ch):04X} ({unicodedata.name(ch, 'unnamed')})" for ch in seen[:3]]
    more = f" and {len(seen) - 3} more" if len(seen) > 3 else ""
    return ", ".join(named) + more


def text_problem(value: str, *, named: bool, what: str = "write the real name") -> str | None:
    """Return what hides in a text value (the end of a message), or None when nothing does.

    ``named``: the value names something, so it must show a character; ``what`` says what to
    do when it does not.
    """
    controls = BIDI_CONTROLS.findall(value)
    if controls:
        return (
            f"carries {describe(''.join(controls))}: bidirectional controls reorder what "
            "readers see; delete them"
        )
    if named and value and not visible(value):
        return f"is invisible: it holds only {describe(value)}; {what}"
    return None


def _strings(value: Any, path: Path_) -> Iterator[tuple[Path_, str]]:
    """Yield (path, text) of every string in a value, nested lists and mappings included."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))


def _is_named(path: Path_) -> bool:
    """Say whether a path is a field that names something (a title, an author, a venue)."""
    if len(path) == 1:
        return path[0] in NAMED_FIELDS
    if len(path) == 2:
        return path[0] == "authors"
    return len(path) == 3 and path[0] == "links" and path[2] == "title"


def check(ctx: Context) -> Iterator[Problem]:
    """Report invisible names and bidirectional controls in every text of every entry."""
    for doc in ctx.entries:
        for path, text in _strings(doc.data, ()):
            if text.isascii() or (path == ("title",) and not text.strip()):
                continue  # nothing hides in ASCII; a blank title is title-style's to report
            what = "give the resource's real title" if path == ("title",) else "write the real name"
            why = text_problem(text, named=_is_named(path), what=what)
            if why:
                yield problem(doc, path, f"'{field_name(path)}' {why}", ID)
