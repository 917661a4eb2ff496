"""Rule ``placeholder``: no field still holds a ``TODO`` left by ``ddl-catalog add``.

``add`` fills what it cannot know (offline, or a description in our own words) with text that
starts with ``TODO``; this rule makes sure such an entry cannot be merged as is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ddl_catalog.load import Path_, Problem
from ddl_catalog.rules.base import Context, problem

ID = "placeholder"
#: The placeholder is the word TODO at the start of a value ("TODO: ...", "todo"), not any
#: text that starts with those letters: the author Todor Mihaylov is no placeholder.
MARKER = re.compile(r"\s*todo\b", re.IGNORECASE)


def _walk(value: Any, path: Path_) -> Iterator[tuple[Path_, str]]:
    """Yield (path, text) for every string in a value, nested lists and mappings included."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, (*path, str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, (*path, index))


#: What to write instead of the placeholder, per field.
ADVICE = {
    "title": "give the resource's real title, as its authors give it",
    "description": "write one sentence in our own words: what it is and why to open it",
}


def check(ctx: Context) -> Iterator[Problem]:
    """Report every string value that starts with TODO."""
    for doc in ctx.entries:
        # Cheap exact gate: repr() shows every string of the data, so no "todo" in it means
        # no placeholder anywhere; only the rare entry that has one is walked.
        if "todo" not in repr(doc.data).lower():
            continue
        for path, text in _walk(doc.data, ()):
            if MARKER.match(text):
                name = ".".join(str(p) for p in path)
                advice = ADVICE.get(name, "replace it with the real value")
                yield problem(doc, path, f"{name} is still a TODO placeholder: {advice}", ID)
