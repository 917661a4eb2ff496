"""Rule ``capabilities``: a capability row that reads right on the Compare page.

* Only software has capabilities (the kinds of ``maintained_kinds``): a paper with a
  capabilities block would become a row of the framework matrix.
* ``via`` names another software entry of the catalog (the project the capability comes
  through), never the entry itself, and the chain of a column's ``via`` (verl's PP via
  Megatron-LM, whose PP may be via another) never returns to an entry it left: the matrix
  holds a capability to the hardware support of every project along the chain.
* A partial cell says what is missing in a note that shows (not blank, not invisible).
* The cells' dates are no later than the day they were read (``checked``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Document, Problem
from ddl_catalog.rules.base import Context, problem
from ddl_catalog.rules.dates import day
from ddl_catalog.rules.hidden_text import visible

ID = "capabilities"


def check(ctx: Context) -> Iterator[Problem]:
    """Report capabilities on non-software, unknown, self or circular ``via``, empty notes."""
    maintained = tuple(ctx.settings.get("maintained_kinds") or ("framework", "library"))
    by_id = ctx.entry_ids()
    for doc, block in ctx.field_values("capabilities"):
        if not isinstance(block, dict):
            continue
        kind = doc.data.get("kind")
        if kind not in maintained:
            yield problem(
                doc,
                ("capabilities",),
                f"a {kind} has no capabilities: the matrix compares software "
                f"({', '.join(maintained)}); move the block to the project's entry",
                ID,
                key=True,
            )
        checked = day(block.get("checked"))
        as_of = day(block.get("as_of"))
        if checked and as_of and as_of > checked:
            yield problem(
                doc,
                ("capabilities", "as_of"),
                f"as_of {as_of} is after checked {checked}: evidence is read on or after its date",
                ID,
            )
        cells = block.get("cells")
        if not isinstance(cells, dict):
            continue
        for column, cell in cells.items():
            if not isinstance(cell, dict):
                continue
            via = cell.get("via")
            if isinstance(via, str):
                target = by_id.get(via)
                if via == doc.data.get("id"):
                    yield problem(
                        doc,
                        ("capabilities", "cells", column, "via"),
                        "via names the entry itself: name the project the capability comes "
                        "through, or remove via",
                        ID,
                    )
                elif target is None:
                    yield problem(
                        doc,
                        ("capabilities", "cells", column, "via"),
                        f"via '{via}' is no entry of the catalog: add the project first",
                        ID,
                    )
                elif target.data.get("kind") not in maintained:
                    yield problem(
                        doc,
                        ("capabilities", "cells", column, "via"),
                        f"via '{via}' is a {target.data.get('kind')}: name the software the "
                        "capability comes through",
                        ID,
                    )
                elif loop := _cycle(doc, str(column), by_id):
                    yield problem(
                        doc,
                        ("capabilities", "cells", column, "via"),
                        f"via goes round in a circle ({' -> '.join(loop)}): the capability "
                        "must come from a project that has it itself; end the chain there",
                        ID,
                    )
            note = cell.get("note")
            if cell.get("value") == "partial" and isinstance(note, str) and not visible(note):
                yield problem(
                    doc,
                    ("capabilities", "cells", column, "note"),
                    "a partial cell's note must say what is missing; it shows nothing",
                    ID,
                )
            cell_day = day(cell.get("as_of"))
            if checked and cell_day and cell_day > checked:
                yield problem(
                    doc,
                    ("capabilities", "cells", column, "as_of"),
                    f"as_of {cell_day} is after checked {checked}",
                    ID,
                )


def _via(doc: Document, column: str) -> object:
    """Return the via of one cell of an entry document (None: no such cell or via)."""
    block = doc.data.get("capabilities") if isinstance(doc.data, dict) else None
    cells = block.get("cells") if isinstance(block, dict) else None
    cell = cells.get(column) if isinstance(cells, dict) else None
    return cell.get("via") if isinstance(cell, dict) else None


def _cycle(doc: Document, column: str, by_id: dict[str, Document]) -> list[str]:
    """Return the ids of a via chain of one column that comes back to doc ([]: it ends)."""
    start = doc.data.get("id")
    path = [str(start)]
    current: Document | None = doc
    while current is not None:
        via = _via(current, column)
        if not isinstance(via, str) or via in path[1:]:
            return []  # the chain ends, or loops without passing doc (reported there)
        path.append(via)
        if via == start:
            return path
        current = by_id.get(via)
    return []
