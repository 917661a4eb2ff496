"""Rule ``maintenance-missing`` (warning): software says whether it is still maintained.

Which entries are software is the catalog's choice: the kinds catalog.yml lists under
``maintained_kinds`` (default framework and library), and benchmarks and datasets that are
repositories (they name one in ``identifiers.github``). A paper's code repository is not
asked about: the paper is the resource. What cannot be established is written as state unknown,
so a reader can tell "nobody looked" from "nobody could tell".
"""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, problem
from ddl_catalog.settings import MAINTAINED_KINDS

ID = "maintenance-missing"
#: Kinds that count as software when they are a repository.
REPOSITORY_KINDS = ("benchmark", "dataset")


def needs_state(kind: object, identifiers: object, kinds: tuple[str, ...]) -> bool:
    """Say whether an entry of this kind and with these identifiers must give its state."""
    if kind in kinds:
        return True
    return (
        kind in REPOSITORY_KINDS
        and isinstance(identifiers, dict)
        and isinstance(identifiers.get("github"), str)
    )


def check(ctx: Context) -> Iterator[Problem]:
    """Warn about software entries without a maintenance state."""
    listed = ctx.settings.get("maintained_kinds")
    kinds = tuple(listed) if isinstance(listed, list) else MAINTAINED_KINDS
    for doc in ctx.entries:
        data = doc.data
        if "maintenance" in data or not needs_state(
            data.get("kind"), data.get("identifiers"), kinds
        ):
            continue
        yield problem(
            doc,
            ("id",),
            "software entries say whether the project is maintained: add maintenance: with "
            "state, checked, source and evidence (state: unknown when it cannot be established)",
            ID,
            severity="warning",
        )
