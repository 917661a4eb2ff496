from collections.abc import Callable


def test_lineage_runs_forward_in_time_without_circles(
    findings: Callable[[str], list[str]],
) -> None:
    assert findings("lineage") == [
        "data/frameworks/aframe.yml:16:18: error: superseded_by goes round in a circle (aframe "
        "-> bframe -> aframe): one of them is the successor [lineage]",
        "data/frameworks/cframe.yml:12:18: error: superseded_by 'new2024paper' is a paper, not a "
        "project that replaces this one: name the successor project, or use state deprecated "
        "[lineage]",
        "data/papers/circle2020a.yml:10:9: error: supersedes goes round in a circle (circle2020a "
        "-> circle2020b -> circle2020a): remove one link [lineage]",
        "data/papers/new2024paper.yml:10:9: error: builds-on goes round in a circle "
        "(new2024paper -> old2015paper -> new2024paper): remove one link [lineage]",
        "data/papers/old2015paper.yml:10:9: error: old2015paper (2015) cannot build on "
        "new2024paper, first published later (2024): point the link from the later work "
        "[lineage]",
    ]


def test_software_may_build_on_a_later_paper(findings: Callable[[str], list[str]]) -> None:
    """A framework is dated by its first release and keeps taking in later methods."""
    assert not any("aframe.yml:11:" in line for line in findings("lineage"))
