from collections.abc import Callable


def test_capability_rows_are_software_with_real_sources_and_visible_notes(
    findings: Callable[[str], list[str]],
) -> None:
    assert findings("capabilities") == [
        # A chain of via that comes back (each end of the circle is told); Loop B's DP via
        # Loop A, whose DP is via Base, ends there.
        "data/frameworks/loopa.yml:12:12: error: via goes round in a circle (loopa -> loopb -> "
        "loopa): the capability must come from a project that has it itself; end the chain "
        "there [capabilities]",
        "data/frameworks/loopb.yml:12:12: error: via goes round in a circle (loopb -> loopa -> "
        "loopb): the capability must come from a project that has it itself; end the chain "
        "there [capabilities]",
        "data/frameworks/onbase.yml:8:10: error: as_of 2026-12-01 is after checked 2026-11-25: "
        "evidence is read on or after its date [capabilities]",
        "data/frameworks/onbase.yml:17:12: error: via names the entry itself: name the project "
        "the capability comes through, or remove via [capabilities]",
        "data/frameworks/onbase.yml:21:12: error: via 'apaper2020' is a paper: name the software "
        "the capability comes through [capabilities]",
        "data/frameworks/onbase.yml:22:13: error: a partial cell's note must say what is "
        "missing; it shows nothing [capabilities]",
        "data/papers/apaper2020.yml:9:1: error: a paper has no capabilities: the matrix "
        "compares software (framework, library); move the block to the project's entry "
        "[capabilities]",
    ]
