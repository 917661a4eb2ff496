"""Rule ``description-style``: one sentence, capitalised, ending with a period, not the title again.

These are the rules awesome-lint applies to list items, so the generated README passes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem

ID = "description-style"
MAX_LENGTH = 250


_NON_WORD = re.compile(r"[\W_]+")


def _norm(text: str) -> str:
    """Lower-case text with punctuation and spacing folded, for comparing with the title."""
    return _NON_WORD.sub(" ", text.lower()).strip()


def check(ctx: Context) -> Iterator[Problem]:
    """Report descriptions that break the style rules."""
    for doc, text in ctx.field_values("description"):
        if not isinstance(text, str):
            continue
        where = ("description",)
        if not text.strip():  # the schema counts ten characters: ten spaces must not do
            yield problem(doc, where, "description is blank: write one sentence about it", ID)
            continue
        stripped = text.strip()
        if not (stripped[0].isupper() or stripped[0].isdigit()):
            yield problem(doc, where, "description must start with a capital letter or a digit", ID)
        if not stripped.endswith("."):
            yield problem(doc, where, "description must end with a period", ID)
        title = doc.data.get("title")
        title_words = _norm(title) if isinstance(title, str) else ""
        # Cheap exact gate before normalising the whole description: one that starts with a
        # letter or digit can repeat the title only if the title starts with it too.
        first = stripped[0].lower()
        maybe = not first.isalnum() or title_words.startswith(first)
        if title_words and maybe and _norm(stripped).startswith(title_words):
            yield problem(
                doc,
                where,
                "description repeats the title: say what the resource is and why to open it",
                ID,
            )
        if len(stripped) > MAX_LENGTH:
            yield problem(
                doc,
                where,
                f"description is {len(stripped)} characters; keep it to one sentence of at most "
                f"{MAX_LENGTH}",
                ID,
                severity="warning",
            )
        if "  " in stripped or text != stripped:
            yield problem(
                doc, where, "description has doubled or surrounding spaces", ID, severity="warning"
            )
