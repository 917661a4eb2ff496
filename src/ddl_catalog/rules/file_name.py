"""Rule ``file-name``: the file name is the entry's id, with the .yml extension.

And the id can be a file name everywhere: not a device name Windows reserves (``con``, ``nul``,
``aux``, ``prn``, ``com0``-``com9``, ``lpt0``-``lpt9``), which would stop the repository from
being checked out there.
"""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.edit.new_id import reserved
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem, stem_of

ID = "file-name"


def check(ctx: Context) -> Iterator[Problem]:
    """Report entries whose id differs from their file name."""
    for doc in ctx.entries:
        entry_id = doc.data.get("id")
        if not doc.path.endswith(".yml"):
            yield problem(doc, (), "entry files end in .yml", ID)
        if isinstance(entry_id, str) and entry_id != stem_of(doc):
            yield problem(
                doc,
                ("id",),
                f"id '{entry_id}' differs from the file name '{stem_of(doc)}': "
                f"rename the file to {entry_id}.yml or fix the id",
                ID,
            )
        if isinstance(entry_id, str) and reserved(entry_id):
            yield problem(
                doc,
                ("id",),
                f"id '{entry_id}' is a device name Windows reserves (con, prn, aux, nul, "
                f"com0-com9, lpt0-lpt9): a file {entry_id}.yml cannot be checked out there; "
                f"choose another id (such as {entry_id}-{doc.data.get('kind') or 'entry'}) and "
                "rename the file",
                ID,
            )
