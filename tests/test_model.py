"""The model's lookups: categories (primary or not) and relations in both directions."""

from __future__ import annotations

from pathlib import Path

from ddl_catalog.model import Catalog, Entry, Related


def entry(entry_id: str, title: str, categories: tuple[str, ...], **extra: object) -> Entry:
    return Entry(
        id=entry_id,
        kind="paper",
        title=title,
        url=f"https://example.org/{entry_id}",
        description="A description.",
        categories=categories,
        source=f"data/papers/{entry_id}.yml",
        **extra,  # type: ignore[arg-type]
    )


def catalog() -> Catalog:
    return Catalog(
        root=Path("."),
        entries=(
            entry("a", "Alpha", ("x", "y")),
            entry("b", "beta", ("y",), related=(Related("a", "implements"),)),
            entry("c", "Gamma", ("y", "x"), related=(Related("a", "describes"),)),
        ),
        categories={},
        tags={},
    )


def test_in_category_keeps_catalog_order_and_splits_primary() -> None:
    cat = catalog()
    assert [e.id for e in cat.in_category("y")] == ["a", "b", "c"]
    assert [e.id for e in cat.in_category("y", primary=True)] == ["b", "c"]
    assert [e.id for e in cat.in_category("y", primary=False)] == ["a"]
    assert [e.id for e in cat.in_category("x", primary=True)] == ["a"]
    assert cat.in_category("nowhere") == []


def test_related_of_both_ways_sorted_by_title() -> None:
    cat = catalog()
    assert [(rel, e.id) for rel, e in cat.related_of("a")] == [
        ("implemented-by", "b"),
        ("described-by", "c"),
    ]
    assert [(rel, e.id) for rel, e in cat.related_of("b")] == [("implements", "a")]


def test_related_of_names_each_pair_once() -> None:
    # the entries say see-also of each other (and validate refuses a related id listed twice,
    # rule duplicate-related): each card names the other once, not once per direction
    cat = Catalog(
        root=Path("."),
        entries=(
            entry("a", "Alpha", ("x",), related=(Related("b", "see-also"),)),
            entry("b", "Beta", ("x",), related=(Related("a", "see-also"), Related("a", "part-of"))),
        ),
        categories={},
        tags={},
    )
    assert [(rel, e.id) for rel, e in cat.related_of("a")] == [
        ("see-also", "b"),
        ("has-part", "b"),
    ]
    assert [(rel, e.id) for rel, e in cat.related_of("b")] == [
        ("see-also", "a"),
        ("part-of", "a"),
    ]
