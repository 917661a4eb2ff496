"""The loader reads YAML as PyYAML's safe loader does, except that dates stay text."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from ddl_catalog import load
from ddl_catalog.load import MAX_DEPTH, MAX_FILE_BYTES, LoadError, parse_yaml, read_text

SCALARS = """\
text: plain words
quoted_number: "2012"
single_quoted: '1.5'
year: 2012
negative: -3
octal: 0o17
float: 1.5
exponent: 6.02e+23
infinite: .inf
not_a_number: .nan
yes_no: [yes, no, on, off, true, false, True]
nothing: null
tilde: ~
empty:
literal: |
  two
  lines
folded: >
  one
  line
colon_in_text: "a: b"
url: https://example.org/a?b=c#d
version: 1.2.3
"""


def test_plain_scalars_are_typed_as_pyyaml_types_them() -> None:
    ours = parse_yaml(SCALARS, "x.yml").data
    theirs = yaml.safe_load(SCALARS)
    nan = ours.pop("not_a_number")
    assert math.isnan(nan) and math.isnan(theirs.pop("not_a_number"))
    assert ours == theirs
    assert ours["year"] == 2012 and isinstance(ours["year"], int)
    assert ours["quoted_number"] == "2012"
    assert ours["yes_no"] == [True, False, True, False, True, False, True]
    assert ours["empty"] is None and ours["tilde"] is None


@pytest.mark.parametrize("written", ["0x7e0", "03740", "0b11111100000", "2_016", "33:36", "-0x1"])
def test_an_integer_not_in_plain_decimal_is_refused(written: str) -> None:
    # YAML 1.1 reads 03740 as octal (2016), YAML 1.2 as 3740, and fmt wrote 33:36 back quoted
    # ("33:36", which validate refused): one spelling, read alike everywhere.
    with pytest.raises(LoadError, match="in plain decimal digits") as caught:
        parse_yaml(f"id: x\nyear: {written}\n", "x.yml")
    assert (caught.value.problem.line, caught.value.problem.column) == (2, 7)


@pytest.mark.parametrize("written", ["0", "2016", "-3", "+7"])
def test_plain_decimal_integers_are_read(written: str) -> None:
    assert parse_yaml(f"n: {written}\n", "x.yml").data == {"n": int(written)}


@pytest.mark.parametrize("written", ["2024-01-31", "2024-01-31 10:00:00", "2024-01-31T10:00:00Z"])
def test_dates_and_times_stay_text(written: str) -> None:
    assert parse_yaml(f"added: {written}\n", "x.yml").data == {"added": written}


def test_keys_are_text_and_positions_are_kept() -> None:
    document = parse_yaml("id: x\n2012: year\ntrue: yes\nlist:\n  - a\n  - b: c\n", "x.yml")
    assert document.data == {"id": "x", "2012": "year", "true": True, "list": ["a", {"b": "c"}]}
    assert document.where(("list", 1, "b")) == (6, 8)
    assert document.where(("list", 1, "b"), key=True) == (6, 5)
    assert document.where(("2012",), key=True) == (2, 1)


#: The parsers PyYAML may give the loader: libyaml's (whose scanner, from PyYAML 6.0.4 on, stops
#: flow nesting past 1,000 levels by itself) and the pure-Python one (which has no such limit).
PARSERS = [
    pytest.param(yaml.SafeLoader, id="python-parser"),
    pytest.param(
        getattr(yaml, "CSafeLoader", None),
        id="libyaml",
        marks=pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without libyaml"),
    ),
]
DEEP = [
    pytest.param("[" * 10_000, 1, id="10k brackets"),
    pytest.param("[" * 1_000_000, 1, id="1M brackets"),
    pytest.param("{a: " * 1_000_000, 1, id="1M mappings"),
    pytest.param("[" * 999 + "]" * 999, 1, id="999 brackets, closed"),
    pytest.param(
        "a:\n" + "".join(" " * n + "- \n" for n in range(0, 120, 2)), 51, id="block lists"
    ),
]


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize(("text", "line"), DEEP)
def test_any_depth_is_the_loaders_own_located_error_under_any_parser(
    text: str, line: int, parser: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whichever layer notices first (the builder's bound or libyaml's scanner), the reader
    # gets the same one-line message with its rule, at the line of the deep nesting: never
    # libyaml's wording, never a RecursionError. The column is where a parser stopped, so it
    # is not asserted.
    monkeypatch.setattr(load, "_Parser", parser)
    with pytest.raises(LoadError) as caught:
        parse_yaml(text, "x.yml")
    problem = caught.value.problem
    assert (problem.path, problem.line, problem.rule) == ("x.yml", line, "yaml")
    assert problem.message == (
        f"lists and mappings nest more than {MAX_DEPTH} levels deep here; an entry needs three"
    )
    assert "\n" not in str(caught.value)


def test_a_nesting_limit_in_every_parser_is_still_the_loaders_own_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Should a PyYAML limit nesting in its pure-Python parser too, the message stays ours.
    class Refusing(yaml.SafeLoader):
        def get_event(self) -> Any:
            mark = yaml.Mark("x.yml", 0, 0, 7, None, None)
            raise yaml.scanner.ScannerError(
                "while scanning", mark, "exceeded maximum nesting depth", mark
            )

    monkeypatch.setattr(load.yaml, "SafeLoader", Refusing)
    monkeypatch.setattr(load, "_Parser", Refusing)
    with pytest.raises(LoadError) as caught:
        parse_yaml("[[[[", "x.yml")
    problem = caught.value.problem
    assert (problem.line, problem.column, problem.rule) == (1, 8, "yaml")
    assert problem.message.startswith(f"lists and mappings nest more than {MAX_DEPTH} levels")


def test_fifty_levels_are_allowed_and_fifty_one_are_not() -> None:
    assert parse_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x.yml").data is not None
    with pytest.raises(LoadError, match=r"x\.yml:1:51: error: lists and mappings nest"):
        parse_yaml("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "x.yml")


@pytest.mark.parametrize(
    ("char", "named"),
    [
        ("\x00", "control character U+0000 (NUL)"),
        ("\x07", "control character U+0007"),
        ("\x1b", "control character U+001B (ESC)"),
        ("\x7f", "control character U+007F (DEL)"),
        ("\x80", "control character U+0080"),
        ("\ud800", "lone surrogate U+D800"),
        ("\udfff", "lone surrogate U+DFFF"),
        ("\ufffe", "non-character U+FFFE"),
        ("\uffff", "non-character U+FFFF"),
    ],
)
def test_characters_yaml_forbids_are_located_encoding_errors(char: str, named: str) -> None:
    with pytest.raises(LoadError) as caught:
        parse_yaml(f"id: x\ntitle: ab{char}c\n", "x.yml")
    assert str(caught.value.problem) == (
        f"x.yml:2:10: error: {named} is not allowed in YAML: delete it [encoding]"
    )


@pytest.mark.parametrize("char", ["\t", "\x85", "\xa0", "\u2028", "\ufeff", "\U0001f600"])
def test_characters_yaml_allows_pass(char: str) -> None:
    assert parse_yaml(f"title: 'a{char}b'\n", "x.yml").data is not None


def test_a_file_larger_than_its_size_says_is_refused_at_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "grows.yml"
    big.write_bytes(b"a: '" + b"x" * (MAX_FILE_BYTES * 2) + b"'\n")
    real_fstat = os.fstat

    def says_empty(fd: int) -> os.stat_result:
        found = real_fstat(fd)
        return os.stat_result((found.st_mode, *found[1:6], 0, *found[7:]))

    monkeypatch.setattr(os, "fstat", says_empty)  # as /proc files and growing files do
    with pytest.raises(LoadError) as caught:
        read_text(big, "grows.yml")
    assert str(caught.value.problem) == (
        "grows.yml:1:1: error: file is over the 262,144-byte limit for a catalog file; "
        "an entry needs a few hundred bytes [file-size]"
    )
