"""Split "Given Family" author names into parts, for BibTeX and CSL-JSON.

The catalog stores authors as written in citations (``Tal Ben-Nun``, ``Christopher De Sa``).
Reference managers want family and given names apart. The rule: the family name is the last
word, extended to the left over name particles (``van``, ``De``, ``Del`` ...); a trailing
``Jr.``/``III`` is a suffix; a one-word name or a group (``OpenAI Dota Team``) stays whole.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Words that belong to the family name when they precede it (compared in lower case).
PARTICLES: frozenset[str] = frozenset(
    {
        "da",
        "das",
        "de",
        "del",
        "della",
        "der",
        "den",
        "di",
        "do",
        "dos",
        "du",
        "la",
        "le",
        "st.",
        "ten",
        "ter",
        "van",
        "von",
        "zu",
    }
)
#: Name suffixes kept apart from the family name.
SUFFIXES: frozenset[str] = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
#: Words that mark a group author rather than a person.
GROUP_WORDS: frozenset[str] = frozenset(
    {
        "team",
        "group",
        "lab",
        "labs",
        "inc",
        "inc.",
        "consortium",
        "project",
        "contributors",
        "collaboration",
        "authors",
    }
)


@dataclass(frozen=True, slots=True)
class Name:
    """An author's name in parts; ``literal`` is set (and the rest empty) for groups."""

    given: str = ""
    family: str = ""
    suffix: str = ""
    literal: str = ""


def split_name(name: str) -> Name:
    """Split one author name, so exports can write family and given names apart."""
    words = name.split()
    if len(words) < 2 or "," in name or any(w.lower() in GROUP_WORDS for w in words):
        return Name(literal=" ".join(words))
    suffix = ""
    if words[-1].lower() in SUFFIXES and len(words) > 2:
        suffix = words.pop()
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in PARTICLES:
        start -= 1
    return Name(given=" ".join(words[:start]), family=" ".join(words[start:]), suffix=suffix)
