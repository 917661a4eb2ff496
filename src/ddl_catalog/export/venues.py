"""Which venues are journals: decides @article vs @inproceedings and CSL article-journal.

The catalog's ``venue`` holds a short name without the year (``NeurIPS``, ``ACM Computing
Surveys``). A venue is a journal when it is listed in JOURNALS or its name follows a journal
naming pattern (JOURNAL_PATTERNS); every other venue is treated as a conference or workshop,
because that is what the short names of the field (NeurIPS, ICML, OSDI, SC ...) are.

| entry                                   | BibTeX                      | CSL-JSON           |
|-----------------------------------------|-----------------------------|--------------------|
| kind book                               | @book (series = venue)      | book               |
| paper, journal venue                    | @article (journal)          | article-journal    |
| paper, any other venue                  | @inproceedings (booktitle)  | paper-conference   |
| paper, no venue, arXiv id               | @misc (eprint, archivePrefix) | article (preprint) |
| anything else                           | @misc (howpublished, url)   | article / webpage  |

Add a journal to JOURNALS when a new one appears whose name the patterns miss.
"""

from __future__ import annotations

import re

#: Journals (and journal-like series) whose names the patterns below do not catch.
JOURNALS: frozenset[str] = frozenset(
    {
        "ACM Computing Surveys",
        "Cluster Computing",
        "Communications of the ACM",
        "Foundations and Trends in Databases",
        "JMLR",
        "Neural Computation",
        "Nature",
        "Proceedings of the IEEE",
        "PVLDB",
        "Science",
        "TMLR",
    }
)

#: Name shapes that mark a journal: "Journal of ...", "IEEE Transactions on ...", ...
JOURNAL_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\bjournal\b", re.IGNORECASE),
    re.compile(r"\btransactions\b", re.IGNORECASE),
    re.compile(r"^foundations and trends\b", re.IGNORECASE),
    re.compile(r"\bletters\b", re.IGNORECASE),
    re.compile(r"\bmagazine\b", re.IGNORECASE),
    re.compile(r"\breview\b", re.IGNORECASE),
)


def is_journal(venue: str) -> bool:
    """Tell whether a venue is a journal, so citations get the right entry type."""
    name = venue.strip()
    return name in JOURNALS or any(p.search(name) for p in JOURNAL_PATTERNS)
