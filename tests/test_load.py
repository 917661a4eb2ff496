"""The loader reads YAML as PyYAML's safe loader does, except that dates stay text."""

from __future__ import annotations

import math

import pytest
import yaml

from ddl_catalog.load import parse_yaml

SCALARS = """\
text: plain words
quoted_number: "2012"
single_quoted: '1.5'
year: 2012
negative: -3
hex: 0x1F
octal: 0o17
underscored: 1_000
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


@pytest.mark.parametrize("written", ["2024-01-31", "2024-01-31 10:00:00", "2024-01-31T10:00:00Z"])
def test_dates_and_times_stay_text(written: str) -> None:
    assert parse_yaml(f"added: {written}\n", "x.yml").data == {"added": written}


def test_keys_are_text_and_positions_are_kept() -> None:
    document = parse_yaml("id: x\n2012: year\ntrue: yes\nlist:\n  - a\n  - b: c\n", "x.yml")
    assert document.data == {"id": "x", "2012": "year", "true": True, "list": ["a", {"b": "c"}]}
    assert document.where(("list", 1, "b")) == (6, 8)
    assert document.where(("list", 1, "b"), key=True) == (6, 5)
    assert document.where(("2012",), key=True) == (2, 1)
