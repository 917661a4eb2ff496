"""SOURCE_DATE_EPOCH: a well-formed value dates the outputs; a malformed one is one Error: line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import real_tree_catalog, snapshot
from ddl_catalog import builddate
from ddl_catalog.cli import cli


def test_unset_means_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert builddate.source_date_epoch() is None
    assert len(builddate.today()) == 10


@pytest.mark.parametrize(
    ("value", "day"),
    [("0", "1970-01-01"), ("1700000000", "2023-11-14"), ("253402300799", "9999-12-31")],
)
def test_seconds_since_1970_give_their_utc_day(
    monkeypatch: pytest.MonkeyPatch, value: str, day: str
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    assert builddate.today() == day


@pytest.mark.parametrize(
    "value",
    [
        "",
        " ",
        "abc",
        "1.5",
        "-1",
        "-99999999999",
        "\u00b2",
        "\u0661\u0662",
        "253402300800",
        "9" * 400,
    ],
)
def test_a_malformed_value_is_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    # Each of these once ended in a ValueError/OverflowError traceback (isdigit() accepts "²").
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    with pytest.raises(builddate.BuildDateError, match="SOURCE_DATE_EPOCH="):
        builddate.today()


def test_a_command_says_which_setting_is_wrong(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    catalog = real_tree_catalog(tmp_path / "catalog")
    listing = tmp_path / "list.md"
    listing.write_text("# L\n\n## Things\n\n- [Foo](https://example.com/foo) - A foo thing.\n")
    before = snapshot(catalog)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "99999999999999999")
    result = CliRunner().invoke(cli, ["import", "--root", str(catalog), str(listing)])
    assert result.exit_code == 1
    assert result.output.startswith("Error: SOURCE_DATE_EPOCH=99999999999999999 is after the year")
    assert "Traceback" not in result.output
    assert snapshot(catalog) == before


@pytest.mark.parametrize("command", ["site", "build", "enrich"])
def test_commands_that_date_their_outputs_refuse_it_before_writing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, command: str
) -> None:
    # mkdocs reads SOURCE_DATE_EPOCH itself: "abc" ended the site build in its traceback.
    catalog = real_tree_catalog(tmp_path / "catalog")
    before = snapshot(catalog)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "abc")
    result = CliRunner().invoke(cli, [command, "--root", str(catalog)])
    assert (result.exit_code, result.output.splitlines()) == (
        1,
        [
            "Error: SOURCE_DATE_EPOCH='abc' is not a time: give whole seconds since 1970 in "
            "digits (what `date +%s` prints), or unset it"
        ],
    )
    assert snapshot(catalog) == before
