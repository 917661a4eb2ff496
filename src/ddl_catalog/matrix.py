"""What readers are shown of maintenance states and of the capability matrix.

One place for both outputs (the README and the website) so that a state reads the same
everywhere: the README marks what is no longer looked after on the entry's line, the site
shows every state; the matrix is catalog.yml's columns against the entries that have cells.

Capabilities that hold in combination: a cell may come ``via`` another project (verl's pipeline
parallelism is Megatron-LM's). Such a cell holds on a hardware column (catalog.yml's
``capabilities.hardware_group``) only as far as that project does: the limit is the lower of
the values (yes > partial > no, unknown), read along the chain of projects (verl's cell via
Megatron-LM; NeMo-Aligner's via NeMo, whose own cell is via Megatron-LM), the weakest link
named in the reason ("PP comes via Megatron-LM, whose AMD support is partial"). A project with
no cell for that hardware limits a capability to unknown (nothing shows the two together); a
hardware cell that is itself via a project is capped by that project's value only where the
project records one (the cell's own evidence speaks of the hardware). Compare checks a
combination of needs against these limits (``combination``) and says which rows rest on
separate claims; cards list the limits beside the cell.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ddl_catalog import settings
from ddl_catalog.model import Catalog, Cell, Entry, Release
from ddl_catalog.settings import Column

#: How a cell's value is shown where space is short (the README's compact table, Explore).
SYMBOLS = {"yes": "✓", "partial": "◐", "no": "✗", "unknown": "?"}


def marker(entry: Entry, catalog: Catalog) -> str | None:
    """Return the short warning a one-line listing carries, or None for looked-after projects.

    Active projects and unknown states carry none: the marker is there to stop a reader from
    adopting what is no longer looked after, not to decorate every line.
    """
    state = entry.maintenance
    if state is None or state.state in ("active", "unknown"):
        return None
    if state.state == "unmaintained":
        since = f": last commit {state.last_commit[:7]}" if state.last_commit else ""
        return f"Unmaintained{since}."
    if state.state == "superseded" and state.superseded_by:
        successor = catalog.get(state.superseded_by)
        return f"Superseded by {successor.title}." if successor else "Superseded."
    return f"{state.label}."


def detail(entry: Entry, catalog: Catalog) -> str | None:
    """Return the state as a card shows it, each claim with the date of its evidence.

    "Active · newest commit of substance 2026-08-20 · release v0.17.4 (2026-07-30) · in what
    we read, up to 2026-08-22 (read 2026-11-25)": the state, the commit and release it rests on,
    the date the evidence ends (a snapshot's newest commit), and, apart, the day it was read, so
    that no one takes the reading day for the evidence's.
    """
    state = entry.maintenance
    if state is None:
        return None
    parts = [state.label]
    if state.state == "superseded" and state.superseded_by:
        successor = catalog.get(state.superseded_by)
        parts[0] += f" by {successor.title}" if successor else ""
    if state.last_commit:
        parts.append(f"newest commit of substance {state.last_commit}")
    release = state.release
    if isinstance(release, Release):
        parts.append(f"release {release.version} ({release.date})")
    elif release == "none":
        parts.append("no releases")
    read = f"read {state.checked}"
    if state.as_of:
        parts.append(f"in what we read, up to {state.as_of} ({read})")
    else:
        parts.append(read)
    return " · ".join(parts)


#: How much a value claims, to take the lower of two: "no" and "unknown" both claim nothing.
RANK = {"yes": 2, "partial": 1, "no": 0, "unknown": 0}


def lower(first: str, second: str) -> str:
    """Return the value that claims less; the first on a tie (no and unknown tie)."""
    return second if RANK[second] < RANK[first] else first


@dataclass(frozen=True, slots=True)
class Limit:
    """How far a capability that comes through other projects holds on one hardware column.

    ``chain`` is the projects it comes through, nearest first (the cell's via, then the via of
    that project's own cell for the same column ...); ``value`` the weakest support of any of
    them on ``hardware`` and ``weakest`` the project it is from (the nearest on a tie);
    ``recorded`` is False when that project has no cell for the hardware: the catalog does not
    say, so nothing shows the two together (``value`` is then "unknown").
    """

    capability: Column
    hardware: Column
    value: str
    chain: tuple[Entry, ...]
    weakest: Entry
    recorded: bool = True

    @property
    def reason(self) -> str:
        """Say why: "PP comes via Megatron-LM, whose AMD support is partial"."""
        label, hardware, name = self.capability.label, self.hardware.label, self.weakest.title
        if len(self.chain) == 1:
            if not self.recorded:
                why = f"whose {hardware} support this catalog does not record"
            elif self.value == "no":
                why = f"which has no {hardware} support"
            else:
                why = f"whose {hardware} support is {self.value}"
            return f"{label} comes via {name}, {why}"
        through = " and ".join(e.title for e in self.chain)
        if not self.recorded:
            why = f"this catalog does not record {name}'s {hardware} support"
        elif self.value == "no":
            why = f"{name} has no {hardware} support"
        else:
            why = f"{name}'s {hardware} support is {self.value}"
        return f"{label} comes via {through}; {why}"


@dataclass(frozen=True, slots=True)
class Effective:
    """A cell as the matrix reads it: its own claim, what it comes through, and the limits.

    ``limits`` holds one Limit per hardware column on which the projects of ``chain`` claim
    less than yes (for a hardware cell, at most its own column, and only where a project of the
    chain records a value there); none for a cell of the framework's own.
    """

    column: Column
    cell: Cell | None
    hardware: bool = False
    chain: tuple[Entry, ...] = ()
    limits: tuple[Limit, ...] = ()

    @property
    def value(self) -> str:
        """Return the value the cell claims ("unknown" without a cell)."""
        return self.cell.value if self.cell is not None else "unknown"

    @property
    def via(self) -> Entry | None:
        """Return the project the capability comes through, if any."""
        return self.chain[0] if self.chain else None

    @property
    def covers(self) -> str | None:
        """Return what the evidence covers ("MI100, MI200"), if the cell says."""
        return self.cell.covers if self.cell is not None else None

    @property
    def note(self) -> str | None:
        """Return the cell's note, if any."""
        return self.cell.note if self.cell is not None else None

    @property
    def source(self) -> str | None:
        """Return the cell's source, if any."""
        return self.cell.source if self.cell is not None else None

    def limit(self, hardware_id: str) -> Limit | None:
        """Return the limit on one hardware column, or None when nothing limits it there."""
        return next((lim for lim in self.limits if lim.hardware.id == hardware_id), None)


@dataclass(frozen=True, slots=True)
class Row:
    """One framework of the matrix: its entry, a cell (or None) per column, and as read."""

    entry: Entry
    cells: tuple[tuple[Column, Cell | None], ...]
    #: Every column's cell as the matrix reads it (via, limits), in the columns' order.
    effective: tuple[Effective, ...] = ()

    def get(self, column_id: str) -> Effective | None:
        """Return the effective cell of one column (None: no such column)."""
        return next((e for e in self.effective if e.column.id == column_id), None)

    def shown_limits(self, effective: Effective) -> tuple[Limit, ...]:
        """Return the limits of a cell that lower what the row claims with the hardware.

        Only hardware the row supports itself counts (a limit on hardware it does not run on
        changes nothing), and only a limit below both values (partial PP via a project that is
        partial on AMD is still partial PP on AMD).
        """
        shown = []
        for limit in effective.limits:
            own = self.get(limit.hardware.id)
            claimed = lower(effective.value, own.value if own is not None else "unknown")
            if RANK[claimed] > 0 and RANK[limit.value] < RANK[claimed]:
                shown.append(limit)
        return tuple(shown)


@dataclass(frozen=True, slots=True)
class Combination:
    """What a row says of a set of needs: claimed cell by cell, and shown to work together."""

    #: The lowest value of the needed cells, each read on its own.
    claimed: str
    #: The lowest once the limits of the cells that come via other projects apply.
    shown: str
    #: The limits that make ``shown`` lower than the cells' own values.
    limits: tuple[Limit, ...]

    def holds(self, partial: bool = False, together: bool = False) -> bool:
        """Return whether the row meets the needs (partial counting or not) in one reading."""
        value = self.shown if together else self.claimed
        return value == "yes" or (partial and value == "partial")

    def caveat(self, partial: bool = False) -> str | None:
        """Return what the row's combination rests on, when it is less than each cell claims.

        "Not shown to work together: PP comes via Megatron-LM, whose AMD support is partial."
        or, where partial counts and the combination is partial, "Together at most partial: ...".
        (The Compare page's script says the same from the row's data-limits.)
        """
        if not self.limits:
            return None
        lead = (
            "Together at most partial"
            if self.holds(partial, together=True)
            else "Not shown to work together"
        )
        return f"{lead}: {'; '.join(lim.reason for lim in self.limits)}."


def columns(catalog: Catalog) -> tuple[Column, ...]:
    """Return the matrix's columns, as catalog.yml lists them (none: no matrix)."""
    return settings.of(catalog).capability_columns


def hardware_columns(catalog: Catalog) -> tuple[Column, ...]:
    """Return the columns of catalog.yml's ``capabilities.hardware_group`` (none: no limits)."""
    group = settings.of(catalog).capability_hardware_group
    return tuple(c for c in columns(catalog) if group is not None and c.group == group)


def _cell(entry: Entry, column_id: str) -> Cell | None:
    return entry.capabilities.cells.get(column_id) if entry.capabilities is not None else None


def chain(catalog: Catalog, entry: Entry, column_id: str) -> tuple[Entry, ...]:
    """Return the projects a cell comes through, nearest first: via, its cell's via, ...

    The chain stops at a project without a cell (or without via) for the column, at an id
    that is no entry, and before any entry already met (rule ``capabilities`` refuses such a
    cycle; the matrix is read all the same).
    """
    found: list[Entry] = []
    seen = {entry.id}
    current: Entry | None = entry
    while current is not None and (cell := _cell(current, column_id)) is not None and cell.via:
        current = catalog.get(cell.via)
        if current is None or current.id in seen:
            break
        found.append(current)
        seen.add(current.id)
    return tuple(found)


def support(catalog: Catalog, entry: Entry, hardware_id: str) -> tuple[str, Entry, bool]:
    """Return how far an entry runs on one hardware column: (value, whose value, recorded).

    The entry's own cell, capped by the projects its cell comes through where they record a
    value; (unknown, entry, False) when the entry has no cell for the hardware.
    """
    cell = _cell(entry, hardware_id)
    if cell is None:
        return "unknown", entry, False
    value, weakest = cell.value, entry
    for project in chain(catalog, entry, hardware_id):
        theirs = _cell(project, hardware_id)
        if theirs is not None and RANK[theirs.value] < RANK[value]:
            value, weakest = theirs.value, project
    return value, weakest, True


def effective(catalog: Catalog, entry: Entry, column: Column) -> Effective:
    """Return one cell of an entry as the matrix reads it, with its chain and limits."""
    hardware = hardware_columns(catalog)
    is_hardware = column in hardware
    cell = _cell(entry, column.id)
    projects = chain(catalog, entry, column.id)
    if not projects:
        return Effective(column, cell, is_hardware)
    limits: list[Limit] = []
    if is_hardware:
        value, weakest, _recorded = support(catalog, entry, column.id)
        if weakest is not entry:
            limits.append(Limit(column, column, value, projects, weakest))
    else:
        for target in hardware:
            found: tuple[str, Entry, bool] | None = None
            for project in projects:
                theirs = support(catalog, project, target.id)
                if found is None or RANK[theirs[0]] < RANK[found[0]]:
                    found = theirs
            assert found is not None
            value, weakest, recorded = found
            if RANK[value] < RANK["yes"]:
                limits.append(Limit(column, target, value, projects, weakest, recorded))
    return Effective(column, cell, is_hardware, projects, tuple(limits))


def row_of(catalog: Catalog, entry: Entry) -> Row:
    """Return one entry's row of the matrix (every column; "unknown" where it has no cell)."""
    cols = columns(catalog)
    return Row(
        entry,
        tuple((c, _cell(entry, c.id)) for c in cols),
        tuple(effective(catalog, entry, c) for c in cols),
    )


def rows(catalog: Catalog) -> list[Row]:
    """Return a row for every entry with capabilities, by title (then id)."""
    found = [e for e in catalog.entries if e.capabilities is not None]
    found.sort(key=lambda e: (e.title.casefold(), e.id))
    return [row_of(catalog, e) for e in found]


def combination(row: Row, needs: Iterable[str]) -> Combination:
    """Return what a row says of a set of needs (column ids), each cell and together.

    Each needed cell that comes via projects is checked against each needed hardware column:
    a limit there that is below both cells' values lowers what the row shows together.
    """
    wanted = [e for n in dict.fromkeys(needs) if (e := row.get(n)) is not None]
    claimed = "yes"
    for cell in wanted:
        claimed = lower(claimed, cell.value)
    hardware = {e.column.id for e in wanted if e.hardware}
    limits = tuple(
        limit
        for cell in wanted
        for limit in row.shown_limits(cell)
        if limit.hardware.id in hardware
    )
    shown = claimed
    for limit in limits:
        shown = lower(shown, limit.value)
    return Combination(claimed, shown, limits)


def limits_data(row: Row) -> str:
    """Return the row's limits for the Compare page's script, as JSON (empty: none).

    {"pipeline-parallel": {"amd-rocm": ["partial", "PP comes via Megatron-LM, whose AMD
    support is partial"]}}: every limit that lowers what the row claims, by capability and
    hardware column, in the columns' order (deterministic). The template escapes it.
    """
    data: dict[str, dict[str, list[str]]] = {}
    for cell in row.effective:
        for limit in row.shown_limits(cell):
            data.setdefault(cell.column.id, {})[limit.hardware.id] = [limit.value, limit.reason]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) if data else ""


def limits_text(row: Row, cell: Effective) -> str | None:
    """Return a cell's limits as its card and note say them, grouped by project.

    "Limited to Megatron-LM's support: AMD partial, Ascend partial." and, for hardware the
    project has no cell for, "Transformer Engine's support not recorded: NVIDIA, AMD." (None:
    no limit applies.)
    """
    parts: dict[tuple[str, bool], list[str]] = {}
    for limit in row.shown_limits(cell):
        key = (limit.weakest.title, limit.recorded)
        hardware = limit.hardware.label
        parts.setdefault(key, []).append(
            f"{hardware} {limit.value}" if limit.recorded else hardware
        )
    out = [
        f"Limited to {name}'s support: {', '.join(items)}."
        if recorded
        else f"{name}'s support not recorded: {', '.join(items)}."
        for (name, recorded), items in parts.items()
    ]
    return " ".join(out) or None


@dataclass(frozen=True, slots=True)
class CardCell:
    """One capability as a card lists it: "PP: yes via Megatron-LM (1F1B) — Limited to ..."."""

    label: str
    value: str
    note: str | None = None
    #: The title of the project the capability comes through.
    via: str | None = None
    #: The hardware generations or versions the evidence covers.
    covers: str | None = None
    #: limits_text: the hardware the project holds the capability to, where the row claims more.
    limits: str | None = None


def card_cells(catalog: Catalog, entry: Entry) -> tuple[CardCell, ...]:
    """Return an entry's capabilities as its card lists them (empty: it has none)."""
    if entry.capabilities is None:
        return ()
    row = row_of(catalog, entry)
    return tuple(
        CardCell(
            cell.column.label,
            cell.value,
            cell.note,
            cell.via.title if cell.via is not None else None,
            cell.covers,
            limits_text(row, cell),
        )
        for cell in row.effective
    )


def caveats(catalog: Catalog, needs: Collection[str] | None = None) -> list[tuple[Row, Limit]]:
    """Return every (row, limit) that lowers what the row claims: the cells Compare qualifies.

    With ``needs`` (column ids), only the limits that a combination of those needs meets.
    """
    found = []
    for row in rows(catalog):
        for cell in row.effective:
            if needs is not None and cell.column.id not in needs:
                continue
            for limit in row.shown_limits(cell):
                if needs is None or limit.hardware.id in needs:
                    found.append((row, limit))
    return found


def groups(catalog: Catalog) -> list[tuple[str, tuple[Column, ...]]]:
    """Return the columns grouped by their group, in first-seen order."""
    out: dict[str, list[Column]] = {}
    for column in columns(catalog):
        out.setdefault(column.group, []).append(column)
    return [(name, tuple(cols)) for name, cols in out.items()]


def compact(row: Row, group: tuple[Column, ...]) -> str:
    """Return one group of a row as the README shows it.

    The labels of yes, ~label for partial, each followed by what its evidence covers ("AMD
    (MI100, MI200)"); the capabilities that come via another project follow, by project:
    "DP, ZeRO/FSDP; via Megatron-LM: PP, ~EP" (their hardware limits are on the site).
    """
    own: list[str] = []
    through: dict[str, list[str]] = {}
    for cell in row.effective:
        if cell.column not in group or cell.value not in ("yes", "partial"):
            continue
        text = cell.column.label if cell.value == "yes" else f"~{cell.column.label}"
        if cell.covers:
            text += f" ({cell.covers})"
        if cell.via is not None:
            through.setdefault(cell.via.title, []).append(text)
        else:
            own.append(text)
    parts = [", ".join(own)] if own else []
    parts += [f"via {name}: {', '.join(items)}" for name, items in through.items()]
    return "; ".join(parts) or "–"
