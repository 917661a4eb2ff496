"""Rule ``registered-exclusion``: an entry that the register says was considered and left out.

data/register.yml records the resources maintainers looked at and left out, with the reason
and the day. A contributor who adds one of them is told that reason (a warning, so a pull
request shows it); to include the resource anyway, the register's item gets ``admitted`` (the
day and the new reason), which keeps the history and silences the warning. Resources are the
same when they share a canonical identity (arXiv id, DOI, repository, normalised URL).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ddl_catalog import identity
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, mappings, problem

ID = "registered-exclusion"


def title_key(title: Any) -> tuple[str, str] | None:
    """Return a title's comparison key: lower case, letters and digits only, or None."""
    if not isinstance(title, str):
        return None
    words = "".join(ch if ch.isalnum() else " " for ch in title.casefold()).split()
    return ("title", " ".join(words)) if len(words) >= 3 else None


def item_keys(item: Any) -> set[tuple[str, str]]:
    """Return the identity keys of one register item: its url and identifiers, else its title.

    An item the register knows only by title (a peer list that linked nothing) is matched by
    title; one with an address or an identifier by those alone.
    """
    if not isinstance(item, dict):
        return set()
    keys = identity.identity_keys(item)
    if not keys and (key := title_key(item.get("title"))) is not None:
        keys.add(key)
    return keys


def check(ctx: Context) -> Iterator[Problem]:
    """Warn about entries that match an item of the register not yet admitted."""
    register = ctx.register
    if register is None:
        return
    left_out: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
    for index, item in mappings(register.data.get("considered")):
        if "admitted" in item:
            continue
        for key in item_keys(item):
            left_out.setdefault(key, (index, dict(item)))
    ids = ctx.entry_ids()
    if not left_out:
        return
    for doc in ctx.entries:
        if not isinstance(doc.data, dict):
            continue
        keys = identity.identity_keys(doc.data)
        titled = title_key(doc.data.get("title"))
        if titled is not None:
            keys.add(titled)
        for key in sorted(keys):
            if key not in left_out:
                continue
            index, item = left_out[key]
            if item.get("reason") == "duplicate" and item.get("duplicate_of") == doc.data.get("id"):
                continue  # the register points at this very entry: it holds the resource
            yield problem(
                doc,
                ("url",),
                f"data/register.yml (item {index + 1}, {item.get('date')}) left this out as "
                f"{item.get('reason')}: {item.get('note')} To include it anyway, add "
                "`admitted: {date, reason}` to that item",
                ID,
                severity="warning",
            )
            break
    for index, item in mappings(register.data.get("considered")):
        target = item.get("duplicate_of")
        if isinstance(target, str) and target not in ids:
            yield problem(
                register,
                ("considered", index, "duplicate_of"),
                f"duplicate_of '{target}' is no entry of the catalog: check the id",
                ID,
            )
