"""Rule ``folder-kind``: an entry lives in the folder of its kind (papers in data/papers/)."""

from __future__ import annotations

from collections.abc import Iterator

from ddl_catalog.kinds import FOLDER_KINDS, KIND_FOLDERS
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, folder_of, problem
from ddl_catalog.suggest import did_you_mean

ID = "folder-kind"


def check(ctx: Context) -> Iterator[Problem]:
    """Report entries in an unknown folder or in the folder of another kind."""
    for doc in ctx.entries:
        folder = folder_of(doc)
        kind = doc.data.get("kind")
        if folder not in FOLDER_KINDS:
            hint = did_you_mean(folder, FOLDER_KINDS, fmt="data/{}/")
            yield problem(
                doc,
                (),
                f"unknown folder data/{folder}/{hint}; folders are {', '.join(FOLDER_KINDS)}",
                ID,
            )
        elif isinstance(kind, str) and kind in KIND_FOLDERS and KIND_FOLDERS[kind] != folder:
            yield problem(
                doc,
                ("kind",),
                f"kind '{kind}' belongs in data/{KIND_FOLDERS[kind]}/, but the file is in "
                f"data/{folder}/: move it or fix the kind",
                ID,
            )
