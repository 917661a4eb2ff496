"""The maintenance rule: successors, dates in order, exact evidence, and the state the evidence
calls for (docs/maintenance.md), one case a file."""

from collections.abc import Callable

L = "data/libraries"


def test_states_hold_together_and_agree_with_their_evidence(
    findings: Callable[[str], list[str]],
) -> None:
    assert findings("maintenance") == [
        f"{L}/backwards.yml:9:10: error: as of 2026-11-20 is after checked 2026-11-10: evidence "
        "is read on or after its date [maintenance]",
        f"{L}/fixesonly.yml:8:10: error: state maintenance-only disagrees with its evidence: its "
        "notice promises upkeep, but no commit of substance or release falls in the twelve "
        "months before it was checked, so the rule (docs/maintenance.md, line 7) says "
        "unmaintained [maintenance]",
        f"{L}/ghostlib.yml:12:18: error: superseded_by 'ghost-successor' is no entry of the "
        "catalog: add it first, or use state deprecated and name the successor in evidence "
        "[maintenance]",
        f"{L}/nonotice.yml:8:10: error: maintenance-only rests on the project's own words: quote "
        "them in `notice` [maintenance]",
        f"{L}/repohome.yml:8:10: error: state active disagrees with its evidence: no commit of "
        "substance and no release in the twelve months, so the rule (docs/maintenance.md, line "
        "7) says unmaintained [maintenance]",
        f"{L}/repohome.yml:12:11: error: source is the repository's home page: link the evidence "
        "itself (the commit, the release, or the notice's file at a commit) [maintenance]",
        f"{L}/selfsuper.yml:10:16: error: last commit 2026-03-01 is after checked 2026-01-10: the "
        "commit must have been seen when it was read [maintenance]",
        f"{L}/selfsuper.yml:13:18: error: an entry cannot supersede itself [maintenance]",
        f"{L}/stalerelease.yml:8:10: error: state active disagrees with its evidence: a few "
        "commits of substance, but its latest release is more than two years old, so the rule "
        "(docs/maintenance.md, line 8) says winding-down [maintenance]",
    ]
