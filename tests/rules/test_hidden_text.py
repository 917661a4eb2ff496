from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from ddl_catalog.cli import cli
from ddl_catalog.rules.hidden_text import visible

F = "data/articles"
BIDI = ": bidirectional controls reorder what readers see; delete them [hidden-text]"


def test_invisible_names_and_bidi_controls(findings: Callable[[str], list[str]]) -> None:
    # hebrew-title (a right-to-left mark) and combining-accent-title (Cafe + U+0301) pass
    assert findings("hidden-text") == [
        f"{F}/combining-marks-title.yml:3:8: error: 'title' is invisible: it holds only U+0301 "
        "(COMBINING ACUTE ACCENT), U+0308 (COMBINING DIAERESIS), U+20DD (COMBINING ENCLOSING "
        "CIRCLE); give the resource's real title [hidden-text]",
        f"{F}/hangul-filler-title.yml:3:8: error: 'title' is invisible: it holds only U+3164 "
        "(HANGUL FILLER); give the resource's real title [hidden-text]",
        f"{F}/invisible-author.yml:7:25: error: 'authors[1]' is invisible: it holds only U+200B "
        "(ZERO WIDTH SPACE); write the real name [hidden-text]",
        f"{F}/invisible-author.yml:11:12: error: 'links[0].title' is invisible: it holds only "
        "U+00AD (SOFT HYPHEN); write the real name [hidden-text]",
        f"{F}/isolate-description.yml:5:14: error: 'description' carries U+2067 (RIGHT-TO-LEFT "
        f"ISOLATE), U+2069 (POP DIRECTIONAL ISOLATE){BIDI}",
        f"{F}/override-title.yml:3:8: error: 'title' carries U+202E (RIGHT-TO-LEFT OVERRIDE){BIDI}",
        f"{F}/zero-width-title.yml:3:8: error: 'title' is invisible: it holds only U+200B (ZERO "
        "WIDTH SPACE); give the resource's real title [hidden-text]",
    ]


def test_what_counts_as_visible() -> None:
    assert visible("Horovod") and visible("e\u0301") and visible("\u05e9\u200f")
    for blank in ("\u200b", "\u3164", "\u0301", "\u00ad\ufeff", "\u2800", "\u115f\u1160"):
        assert not visible(blank), repr(blank)


ENTRY = """\
id: {id}
kind: article
title: {title}
url: https://example.org/{id}
description: A page with a title that hides what it says.
categories: [frameworks]
"""


def test_validate_strict_fails_with_a_located_message(
    catalog_dir: Callable[..., Path],
) -> None:
    root = catalog_dir(
        {
            "data/articles/override.yml": ENTRY.format(id="override", title="Read \u202egpj.exe"),
            "data/articles/filler.yml": ENTRY.format(id="filler", title="\u3164"),
        }
    )
    for args in (["validate"], ["validate", "--strict"]):
        result = CliRunner().invoke(cli, [*args, "--root", str(root)])
        assert result.exit_code == 1, result.output
        assert "data/articles/filler.yml:3:8: error: 'title' is invisible" in result.output
        assert "data/articles/override.yml:3:8: error: 'title' carries U+202E" in result.output
