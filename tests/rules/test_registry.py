"""Every registered rule has its own test module and fixture folder."""

from pathlib import Path

from ddl_catalog.rules import RULES

HERE = Path(__file__).parent
FIXTURES = HERE.parent / "fixtures" / "rules"
MODULE_OF = {
    "unknown-category": "category_exists",
    "unknown-tag": "tag_exists",
    "unknown-related": "related_exists",
    "identifier-mismatch": "identifier_match",
    "duplicate-identity": "duplicate_identity",
    "registered-exclusion": "registered",
}


def test_every_rule_has_a_test_and_a_fixture() -> None:
    for rule in RULES:
        module = MODULE_OF.get(rule, rule.replace("-", "_"))
        assert (HERE / f"test_{module}.py").exists(), rule
        assert (FIXTURES / rule).is_dir(), rule
