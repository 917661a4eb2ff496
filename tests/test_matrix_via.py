"""Capabilities that hold in combination: ``via`` passes a project's hardware limits on.

matrix.py reads a cell that comes via another project as holding on a hardware column only as
far as that project does (the lower value: yes > partial > no, unknown), along the chain of
projects, and Compare, the card and the README say so. Each branch on a small catalog, the
escaping of every value the pages carry, and the real catalog's cases (verl, Accelerate,
DeepSpeed).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from markupsafe import escape

from conftest import REPO
from ddl_catalog import matrix
from ddl_catalog.model import Catalog
from ddl_catalog.model.build import build, open_catalog
from ddl_catalog.render import readme
from ddl_catalog.render.site_pages import PageBuilder
from ddl_catalog.validate import validate

MATRIX = """
capabilities:
  section: frameworks
  hardware_group: Hardware
  columns:
    - {id: data-parallel, label: DP, group: Parallelism}
    - {id: pipeline-parallel, label: PP, group: Parallelism}
    - {id: expert-parallel, label: EP, group: Parallelism}
    - {id: fp8-training, label: FP8, group: Precision}
    - {id: nvidia-gpu, label: NVIDIA, group: Hardware}
    - {id: amd-rocm, label: AMD, group: Hardware}
    - {id: google-tpu, label: TPU, group: Hardware}
    - {id: huawei-ascend, label: Ascend, group: Hardware}
"""

#: A hostile title and note: every page must escape them (HTML, attributes, JSON in one).
MEGA_TITLE = "Mega <LM> \"Core\" & 'co'"
NOTE = '1F1B <b>bold</b> & "quoted"'


def framework(entry_id: str, title: str, cells: dict[str, dict[str, str]]) -> str:
    """Return an entry file of a framework with these capability cells."""
    lines = [
        f"id: {entry_id}",
        "kind: framework",
        f"title: {json.dumps(title)}",
        f"url: https://example.org/{entry_id}",
        "description: A framework for the matrix tests.",
        "categories: [frameworks]",
        "capabilities:",
        '  as_of: "2026-08-01"',
        "  cells:",
    ]
    for column, cell in cells.items():
        lines.append(f"    {column}:")
        lines += [f"      {key}: {json.dumps(value)}" for key, value in cell.items()]
    return "\n".join(lines) + "\n"


def cell(value: str, **more: str) -> dict[str, str]:
    """Return one cell: a value with a source (unless unknown) and more keys."""
    out = {"value": value}
    if value != "unknown":
        out["source"] = "https://example.org/evidence"
    if value == "partial":
        out.setdefault("note", "some of it")
    out.update(more)
    return out


YES_EVERYWHERE = {
    "nvidia-gpu": cell("yes"),
    "amd-rocm": cell("yes", covers="MI250X, MI300X"),
    "google-tpu": cell("yes"),
    "huawei-ascend": cell("yes"),
}

FILES = {
    # The project others come through: partial on AMD, no on Ascend, silent on TPU.
    "data/frameworks/mega.yml": framework(
        "mega",
        MEGA_TITLE,
        {
            "pipeline-parallel": cell("yes"),
            "expert-parallel": cell("yes"),
            "nvidia-gpu": cell("yes"),
            "amd-rocm": cell("partial", note="a fork"),
            "huawei-ascend": cell("no"),
        },
    ),
    # verl's shape: PP and EP via Mega, runs on everything itself.
    "data/frameworks/onmega.yml": framework(
        "onmega",
        "On Mega",
        {
            "data-parallel": cell("yes"),
            "pipeline-parallel": cell("yes", via="mega", note=NOTE),
            "expert-parallel": cell("yes", via="mega"),
            **YES_EVERYWHERE,
        },
    ),
    # A chain: PP via On Mega, whose PP is via Mega.
    "data/frameworks/chained.yml": framework(
        "chained",
        "Chained",
        {"pipeline-parallel": cell("yes", via="onmega"), **YES_EVERYWHERE},
    ),
    # Partial PP via a project partial on AMD: still partial PP on AMD, no caveat there.
    "data/frameworks/halfpp.yml": framework(
        "halfpp",
        "Half PP",
        {"pipeline-parallel": cell("partial", via="mega"), **YES_EVERYWHERE},
    ),
    # A hardware cell via projects: capped where the project records a value, not elsewhere.
    "data/frameworks/hwvia.yml": framework(
        "hwvia",
        "Hardware Via",
        {
            "amd-rocm": cell("yes", via="mega"),
            "google-tpu": cell("partial", via="mega"),
            "nvidia-gpu": cell("yes", via="mega"),
        },
    ),
    # Via a project with no capabilities at all: nothing shows the combination.
    "data/frameworks/ontools.yml": framework(
        "ontools",
        "On Tools",
        {"fp8-training": cell("yes", via="tools"), "nvidia-gpu": cell("yes")},
    ),
    "data/libraries/tools.yml": (
        "id: tools\nkind: library\ntitle: Tools\nurl: https://example.org/tools\n"
        "description: A library with no capabilities block.\ncategories: [frameworks]\n"
    ),
    # A project whose AMD cell says unknown.
    "data/frameworks/vague.yml": framework(
        "vague", "Vague", {"expert-parallel": cell("yes"), "amd-rocm": cell("unknown")}
    ),
    "data/frameworks/onvague.yml": framework(
        "onvague",
        "On Vague",
        {"expert-parallel": cell("yes", via="vague"), "amd-rocm": cell("yes")},
    ),
}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The small catalog above, validated."""
    from conftest import make_catalog

    root = make_catalog(tmp_path_factory.mktemp("via") / "catalog", FILES)
    with (root / "catalog.yml").open("a", encoding="utf-8") as handle:
        handle.write(MATRIX)
    return open_catalog(root)


@pytest.fixture(scope="module")
def real() -> Catalog:
    """The real catalog."""
    return open_catalog(REPO)


def row(catalog: Catalog, entry_id: str) -> matrix.Row:
    entry = catalog.get(entry_id)
    assert entry is not None
    return matrix.row_of(catalog, entry)


def limits(catalog: Catalog, entry_id: str, column: str) -> dict[str, tuple[str, str, bool]]:
    """Return {hardware: (value, whose, recorded)} of one cell's limits that show."""
    found = row(catalog, entry_id)
    effective = found.get(column)
    assert effective is not None
    return {
        lim.hardware.id: (lim.value, lim.weakest.id, lim.recorded)
        for lim in found.shown_limits(effective)
    }


# -- the rule, branch by branch --------------------------------------------------------------


def test_the_hardware_columns_come_from_the_setting(small: Catalog) -> None:
    assert [c.id for c in matrix.hardware_columns(small)] == [
        "nvidia-gpu",
        "amd-rocm",
        "google-tpu",
        "huawei-ascend",
    ]


def test_lower_takes_the_weaker_value() -> None:
    assert matrix.lower("yes", "partial") == "partial"
    assert matrix.lower("partial", "yes") == "partial"
    assert matrix.lower("partial", "no") == "no"
    assert matrix.lower("no", "unknown") == "no"  # a tie keeps the first
    assert matrix.lower("unknown", "no") == "unknown"


def test_a_capability_via_a_project_holds_only_as_far_as_the_project_on_hardware(
    small: Catalog,
) -> None:
    """PP via Mega: partial on AMD, none on Ascend, not recorded on TPU, NVIDIA untouched."""
    assert limits(small, "onmega", "pipeline-parallel") == {
        "amd-rocm": ("partial", "mega", True),
        "google-tpu": ("unknown", "mega", False),
        "huawei-ascend": ("no", "mega", True),
    }
    reasons = [
        lim.reason for lim in row(small, "onmega").shown_limits(row(small, "onmega").effective[1])
    ]
    assert reasons == [
        f"PP comes via {MEGA_TITLE}, whose AMD support is partial",
        f"PP comes via {MEGA_TITLE}, whose TPU support this catalog does not record",
        f"PP comes via {MEGA_TITLE}, which has no Ascend support",
    ]
    # A cell of the framework's own has no limits.
    assert limits(small, "onmega", "data-parallel") == {}


def test_a_combination_is_claimed_cell_by_cell_and_shown_together_with_the_limits(
    small: Catalog,
) -> None:
    onmega = row(small, "onmega")
    both = matrix.combination(onmega, ["pipeline-parallel", "expert-parallel", "amd-rocm"])
    assert (both.claimed, both.shown) == ("yes", "partial")
    assert both.holds() and not both.holds(together=True)
    assert both.holds(partial=True, together=True)
    assert both.caveat() == (
        f"Not shown to work together: PP comes via {MEGA_TITLE}, whose AMD support is partial; "
        f"EP comes via {MEGA_TITLE}, whose AMD support is partial."
    )
    assert str(both.caveat(partial=True)).startswith("Together at most partial: PP comes via")
    # Without a hardware need, or with hardware Mega runs on fully, nothing to say.
    assert matrix.combination(onmega, ["pipeline-parallel", "expert-parallel"]).caveat() is None
    plain = matrix.combination(onmega, ["pipeline-parallel", "nvidia-gpu"])
    assert (plain.claimed, plain.shown, plain.caveat()) == ("yes", "yes", None)
    # Hardware the project says nothing of: unknown together.
    tpu = matrix.combination(onmega, ["pipeline-parallel", "google-tpu"])
    assert (tpu.claimed, tpu.shown) == ("yes", "unknown") and not tpu.holds(True, True)
    # Needs the row does not claim: no caveat is needed to exclude it (the value does).
    assert matrix.combination(row(small, "mega"), ["pipeline-parallel", "amd-rocm"]).limits == ()


def test_a_chain_is_followed_to_its_weakest_project(small: Catalog) -> None:
    """Chained's PP via On Mega, whose PP is via Mega: Mega's AMD limits it, named as such."""
    chained = row(small, "chained")
    assert [e.id for e in chained.effective[1].chain] == ["onmega", "mega"]
    assert limits(small, "chained", "pipeline-parallel") == {
        "amd-rocm": ("partial", "mega", True),
        "google-tpu": ("unknown", "mega", False),
        "huawei-ascend": ("no", "mega", True),
    }
    combined = matrix.combination(chained, ["pipeline-parallel", "amd-rocm"])
    assert combined.caveat() == (
        f"Not shown to work together: PP comes via On Mega and {MEGA_TITLE}; "
        f"{MEGA_TITLE}'s AMD support is partial."
    )


def test_a_limit_no_lower_than_the_cell_itself_is_no_caveat(small: Catalog) -> None:
    """Partial PP via a project partial on AMD is partial PP on AMD: as claimed."""
    assert limits(small, "halfpp", "pipeline-parallel") == {
        "google-tpu": ("unknown", "mega", False),
        "huawei-ascend": ("no", "mega", True),
    }
    combined = matrix.combination(row(small, "halfpp"), ["pipeline-parallel", "amd-rocm"])
    assert (combined.claimed, combined.shown, combined.limits) == ("partial", "partial", ())


def test_a_hardware_cell_via_a_project_is_capped_where_the_project_records_it(
    small: Catalog,
) -> None:
    """AMD yes via Mega (partial there): partial; TPU via Mega (no cell there): as claimed."""
    assert limits(small, "hwvia", "amd-rocm") == {"amd-rocm": ("partial", "mega", True)}
    assert limits(small, "hwvia", "google-tpu") == {}
    assert limits(small, "hwvia", "nvidia-gpu") == {}  # Mega says yes too
    amd = matrix.combination(row(small, "hwvia"), ["amd-rocm"])
    assert (amd.claimed, amd.shown) == ("yes", "partial")
    assert amd.caveat() == (
        f"Not shown to work together: AMD comes via {MEGA_TITLE}, whose AMD support is partial."
    )


def test_via_a_project_without_capabilities_or_with_unknown_cells(small: Catalog) -> None:
    assert limits(small, "ontools", "fp8-training") == {"nvidia-gpu": ("unknown", "tools", False)}
    assert matrix.combination(row(small, "ontools"), ["fp8-training", "nvidia-gpu"]).caveat() == (
        "Not shown to work together: FP8 comes via Tools, whose NVIDIA support this catalog "
        "does not record."
    )
    assert limits(small, "onvague", "expert-parallel") == {"amd-rocm": ("unknown", "vague", True)}
    assert matrix.combination(row(small, "onvague"), ["expert-parallel", "amd-rocm"]).caveat() == (
        "Not shown to work together: EP comes via Vague, whose AMD support is unknown."
    )


def test_without_a_hardware_group_nothing_is_inherited(catalog_dir: Callable[..., Path]) -> None:
    root = catalog_dir(FILES)
    with (root / "catalog.yml").open("a", encoding="utf-8") as handle:
        handle.write(MATRIX.replace("  hardware_group: Hardware\n", ""))
    catalog = open_catalog(root)
    assert matrix.hardware_columns(catalog) == ()
    assert matrix.caveats(catalog) == []
    assert row(catalog, "onmega").get("pipeline-parallel").via.id == "mega"  # type: ignore[union-attr]


def test_a_hardware_group_that_names_no_column_is_refused(
    catalog_dir: Callable[..., Path],
) -> None:
    root = catalog_dir()
    with (root / "catalog.yml").open("a", encoding="utf-8") as handle:
        handle.write(MATRIX.replace("hardware_group: Hardware", "hardware_group: Chips"))
    found = [str(p) for p in validate(root).problems if "hardware_group" in p.message]
    assert len(found) == 1 and "'Chips' is the group of no column" in found[0], found
    assert "(Hardware, Parallelism, Precision)" in found[0]


def test_a_circle_of_via_ends_the_chain_and_is_refused(catalog_dir: Callable[..., Path]) -> None:
    """Validation refuses the circle; the matrix, read all the same, stops before repeating."""
    files = {
        "data/frameworks/loopa.yml": framework(
            "loopa", "Loop A", {"pipeline-parallel": cell("yes", via="loopb"), **YES_EVERYWHERE}
        ),
        "data/frameworks/loopb.yml": framework(
            "loopb",
            "Loop B",
            {"pipeline-parallel": cell("yes", via="loopa"), "amd-rocm": cell("partial")},
        ),
    }
    root = catalog_dir(files)
    with (root / "catalog.yml").open("a", encoding="utf-8") as handle:
        handle.write(MATRIX)
    report = validate(root)
    assert sum("via goes round in a circle" in p.message for p in report.problems) == 2
    catalog = build(root, report)
    loop = row(catalog, "loopa")
    assert [e.id for e in loop.effective[1].chain] == ["loopb"]
    assert limits(catalog, "loopa", "pipeline-parallel")["amd-rocm"] == ("partial", "loopb", True)


# -- what readers see ---------------------------------------------------------------------------


def test_card_lists_via_covers_note_and_limits(small: Catalog) -> None:
    entry = small.get("onmega")
    assert entry is not None
    cells = {c.label: c for c in matrix.card_cells(small, entry)}
    assert cells["PP"] == matrix.CardCell(
        "PP",
        "yes",
        NOTE,
        MEGA_TITLE,
        None,
        f"Limited to {MEGA_TITLE}'s support: AMD partial, Ascend no. "
        f"{MEGA_TITLE}'s support not recorded: TPU.",
    )
    assert cells["AMD"].covers == "MI250X, MI300X" and cells["AMD"].via is None
    assert cells["DP"] == matrix.CardCell("DP", "yes")


def test_readme_names_what_comes_via_a_project_and_what_evidence_covers(small: Catalog) -> None:
    text = readme.render(small)
    line = next(line for line in text.splitlines() if line.startswith("| On Mega "))
    cells = [c.strip() for c in line.split("|")[1:-1]]
    assert cells[1].startswith("DP; via Mega") and cells[1].endswith(": PP, EP")
    assert cells[3] == "NVIDIA, AMD (MI250X, MI300X), TPU, Ascend"
    assert "in parentheses the hardware or versions the evidence covers" in text


@pytest.fixture(scope="module")
def pages(small: Catalog) -> dict[str, str]:
    """The small catalog's generated pages (Markdown with HTML), by source path."""
    builder = PageBuilder(small, REPO / "templates" / "site", edit_base="https://example.org/")
    return {page.src_uri: page.markdown for page in builder.build().pages}


def test_compare_page_escapes_every_value_and_carries_the_limits(pages: dict[str, str]) -> None:
    page = pages["compare.md"]
    assert "<LM>" not in page and "<b>" not in page  # escaped everywhere
    tr = re.search(r'<tr[^>]*data-name="on mega".*?</tr>', page)
    assert tr is not None
    data = re.search(r'data-limits="([^"]*)"', tr.group(0).split(">")[0])
    assert data is not None
    limits = json.loads(html.unescape(data.group(1)))
    assert limits["pipeline-parallel"]["amd-rocm"] == [
        "partial",
        f"PP comes via {MEGA_TITLE}, whose AMD support is partial",
    ]
    assert set(limits) == {"pipeline-parallel", "expert-parallel"}
    # The PP value: a link to its source, named in words, its note, via and limits as data.
    value = re.search(r'<a href="https://example.org/evidence" aria-label="PP: [^>]*>', tr.group(0))
    assert value is not None
    attrs = html.unescape(value.group(0))
    assert f'aria-label="PP: yes via {MEGA_TITLE}"' in attrs
    assert f'data-note="{NOTE}"' in attrs
    assert f'data-via="{MEGA_TITLE}"' in attrs
    assert 'data-via-href="../frameworks/#mega"' in attrs
    assert f"data-limit=\"Limited to {MEGA_TITLE}'s support: AMD partial, Ascend no." in attrs
    assert "title=" not in value.group(0)  # no hover-only note
    assert escape(NOTE) in page and escape(MEGA_TITLE) in page
    # ↪ marks what comes via a project; covers shows under the value.
    assert '<span class="ddl-via-mark" aria-hidden="true">↪</span>' in page
    assert '<span class="ddl-covers">MI250X, MI300X</span>' in page
    assert 'aria-label="AMD: yes on MI250X, MI300X"' in page
    # A row without limits carries none; the note box and the reading toggle are there.
    vague = re.search(r'<tr[^>]*data-name="vague"[^>]*>', page)
    assert vague is not None and "data-limits" not in vague.group(0)
    assert 'name="together"' in page and 'id="ddl-compare-note"' in page


def test_card_escapes_the_capabilities(pages: dict[str, str]) -> None:
    card_page = next(text for text in pages.values() if '<h3 id="onmega">' in text)
    card = card_page[card_page.index('<h3 id="onmega">') :]
    caps = card[card.index('<details class="ddl-caps"') : card.index("</details>")]
    assert "<LM>" not in caps and "<b>" not in caps
    assert f"PP: yes via {escape(MEGA_TITLE)} ({escape(NOTE)})" in caps
    assert "AMD: yes on MI250X, MI300X" in caps
    assert f"Limited to {escape(MEGA_TITLE)}&#39;s support: AMD partial, Ascend no." in caps


# -- the real catalog ----------------------------------------------------------------------------


def test_verl_pp_ep_on_amd_rests_on_separate_claims(real: Catalog) -> None:
    verl = row(real, "verl")
    combined = matrix.combination(verl, ["pipeline-parallel", "expert-parallel", "amd-rocm"])
    assert (combined.claimed, combined.shown) == ("yes", "partial")
    assert combined.caveat() == (
        "Not shown to work together: PP comes via Megatron-LM, whose AMD support is partial; "
        "EP comes via Megatron-LM, whose AMD support is partial."
    )
    # On NVIDIA, where Megatron-LM is yes, the same needs hold together.
    nvidia = matrix.combination(verl, ["pipeline-parallel", "expert-parallel", "nvidia-gpu"])
    assert nvidia.caveat() is None and nvidia.holds(together=True)


def test_accelerate_pp_via_megatron_and_deepspeed_amd_evidence(real: Catalog) -> None:
    accelerate = row(real, "accelerate")
    pp = accelerate.get("pipeline-parallel")
    assert pp is not None and pp.via is not None and pp.via.id == "megatron-lm"
    assert matrix.limits_text(accelerate, pp) == (
        "Limited to Megatron-LM's support: AMD partial, TPU no, Gaudi no, Ascend partial, CPU no."
    )
    deepspeed = row(real, "deepspeed").get("amd-rocm")
    assert deepspeed is not None and deepspeed.covers == "MI100, MI200"
    # Every caveat the matrix makes names a project and a hardware column of catalog.yml.
    found = matrix.caveats(real)
    hardware = {c.id for c in matrix.hardware_columns(real)}
    assert found and all(lim.hardware.id in hardware and lim.chain for _, lim in found)
    assert {r.entry.id for r, _ in matrix.caveats(real, {"pipeline-parallel", "amd-rocm"})} >= {
        "verl",
        "accelerate",
        "ms-swift",
    }
