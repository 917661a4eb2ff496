"""Rule ``lineage``: what builds on and supersedes what holds together in time.

``builds-on`` and ``supersedes`` point from a later work to an earlier one: a publication cannot
build on one first published after it, two works cannot build on each other (directly or round
a cycle), and neither can supersede the other both ways. (Software is dated by its first release
and keeps growing, so a framework may build on a later paper whose method it took in.) A
successor named in ``maintenance.superseded_by`` is a project that replaces it, not a
publication, and successors do not go round in a circle. Timelines draw these links, so a
contradiction would draw an arrow backwards in time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ddl_catalog.load import Document, Problem
from ddl_catalog.rules.base import Context, mappings, problem

ID = "lineage"
#: Relations that point from a later work to an earlier one.
ORDERED = ("builds-on", "supersedes")
VERBS = {"builds-on": "build on", "supersedes": "supersede"}
#: Kinds that are writings, dated once: they cannot be a project's successor, and they cannot
#: build on what came after them.
WRITINGS = frozenset({"paper", "article", "talk", "book", "tutorial"})


def _year(doc: Document | None) -> int | None:
    """Return an entry's year, or None."""
    year = doc.data.get("year") if doc is not None else None
    return year if isinstance(year, int) and not isinstance(year, bool) else None


def _cycle(graph: dict[str, list[str]], start: str) -> list[str] | None:
    """Return a cycle through ``start`` in ``graph`` (start ... start), or None."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in graph.get(node, []):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def check(ctx: Context) -> Iterator[Problem]:
    """Report backwards, circular and two-way lineage, and successors that are not software."""
    by_id = ctx.entry_ids()
    graphs: dict[str, dict[str, list[str]]] = {relation: {} for relation in ORDERED}
    where: dict[tuple[str, str, str], tuple[Document, tuple[Any, ...]]] = {}
    for doc in ctx.entries:
        data = doc.data
        source = data.get("id") if isinstance(data, dict) else None
        if not isinstance(source, str):
            continue
        for index, rel in mappings(data.get("related")):
            target, relation = rel.get("id"), rel.get("relation")
            if relation not in ORDERED or not isinstance(target, str) or target == source:
                continue
            path = ("related", index, "id")
            graphs[relation].setdefault(source, []).append(target)
            where.setdefault((relation, source, target), (doc, path))
            earlier, later = _year(by_id.get(target)), _year(doc)
            writing = data.get("kind") in WRITINGS
            if writing and earlier is not None and later is not None and earlier > later:
                yield problem(
                    doc,
                    path,
                    f"{source} ({later}) cannot {VERBS[relation]} {target}, first "
                    f"published later ({earlier}): point the link from the later work",
                    ID,
                )
    for relation, graph in graphs.items():
        reported: set[frozenset[str]] = set()
        for source in sorted(graph):
            cycle = _cycle(graph, source)
            if cycle is None or frozenset(cycle) in reported:
                continue
            reported.add(frozenset(cycle))
            doc, path = where[(relation, cycle[0], cycle[1])]
            shown = " -> ".join(cycle)
            yield problem(
                doc, path, f"{relation} goes round in a circle ({shown}): remove one link", ID
            )
    yield from _successors(ctx, by_id)


def _successors(ctx: Context, by_id: dict[str, Document]) -> Iterator[Problem]:
    """Report successors that are not software, and successors that go round in a circle."""
    graph: dict[str, list[str]] = {}
    for entry_id, doc in by_id.items():
        block = doc.data.get("maintenance")
        successor = block.get("superseded_by") if isinstance(block, dict) else None
        if not isinstance(successor, str) or successor == entry_id or successor not in by_id:
            continue  # the maintenance rule reports a missing or self successor
        graph[entry_id] = [successor]
        kind = by_id[successor].data.get("kind")
        if kind in WRITINGS:
            yield problem(
                doc,
                ("maintenance", "superseded_by"),
                f"superseded_by '{successor}' is a {kind}, not a project that replaces this "
                "one: name the successor project, or use state deprecated",
                ID,
            )
    reported: set[frozenset[str]] = set()
    for start in sorted(graph):
        cycle = _cycle(graph, start)
        if cycle is not None and frozenset(cycle) not in reported:
            reported.add(frozenset(cycle))
            yield problem(
                by_id[cycle[0]],
                ("maintenance", "superseded_by"),
                f"superseded_by goes round in a circle ({' -> '.join(cycle)}): one of them is "
                "the successor",
                ID,
            )
