"""Picking the id (and so the file name) of a new entry.

Papers get BibTeX-style keys: first author's family name, year, first significant title word
(``dean2012large``). Everything else gets the kebab-case of its name (``horovod``). An id that is
taken gets ``-2``, ``-3`` ... appended.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container, Sequence

#: Longest id the schema accepts.
MAX_LENGTH = 80

#: Device names Windows reserves, with any extension: no file ``con.yml`` can be created or
#: checked out there, so no id may be one of them. (Microsoft's list names COM0 and LPT0 too.)
WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"{device}{n}" for device in ("com", "lpt") for n in range(10)]
)

#: Title words that never make a paper key.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "over",
        "the",
        "their",
        "this",
        "to",
        "towards",
        "toward",
        "under",
        "up",
        "us",
        "via",
        "we",
        "what",
        "when",
        "where",
        "which",
        "why",
        "with",
        "without",
        "your",
        "you",
    ]
)


def ascii_fold(text: str) -> str:
    """Return text with accents removed and anything outside ASCII dropped (Martín -> Martin)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def kebab(text: str) -> str:
    """Return the lower-case kebab-case ASCII form of a name ('Horovod: Fast' -> 'horovod-fast')."""
    words = re.findall(r"[a-z0-9]+", ascii_fold(text).lower())
    out = "-".join(words)
    if len(out) > MAX_LENGTH:
        out = out[:MAX_LENGTH].rsplit("-", 1)[0] or out[:MAX_LENGTH]
    return out


def family_name(author: str) -> str:
    """Return the lower-case ASCII family name of 'Given Family' ('Tal Ben-Nun' -> 'bennun')."""
    parts = ascii_fold(author).split()
    if not parts:
        return ""
    if "," in author:  # 'Family, Given'
        family = ascii_fold(author).split(",", 1)[0]
    else:
        family = parts[-1]
        if family.rstrip(".").lower() in ("jr", "sr", "ii", "iii") and len(parts) > 1:
            family = parts[-2]
    return re.sub(r"[^a-z0-9]", "", family.lower())


def first_significant_word(title: str) -> str:
    """Return the first title word that is not a stopword, lower-case ASCII."""
    for word in re.findall(r"[a-z0-9]+", ascii_fold(title).lower()):
        if word not in STOPWORDS and not word.isdigit():
            return str(word)
    return ""


def paper_id(authors: Sequence[str], year: int | None, title: str) -> str | None:
    """Return the BibTeX-style key of a paper, or None when author, year or title is missing."""
    family = family_name(authors[0]) if authors else ""
    word = first_significant_word(title)
    if not family or year is None or not word:
        return None
    return f"{family}{year}{word}"[:MAX_LENGTH]


def reserved(name: str) -> bool:
    """Say whether a file name stem is a device name Windows reserves (``con``, ``com1`` ...)."""
    return name.lower() in WINDOWS_RESERVED


def unique(candidate: str, taken: Container[str]) -> str:
    """Return candidate, or candidate-2, -3 ... the first one not in ``taken`` nor reserved."""
    if candidate not in taken and not reserved(candidate):
        return candidate
    n = 2
    while f"{candidate}-{n}" in taken:
        n += 1
    return f"{candidate}-{n}"
