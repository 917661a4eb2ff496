"""The validation rules, one module each, in the order they run.

Each rule module has an ``ID`` and a ``check(ctx)`` that yields Problems.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ddl_catalog.load import Problem
from ddl_catalog.rules import (
    added_date,
    authors,
    capabilities,
    capability_column,
    category_exists,
    dates,
    description_style,
    duplicate_identity,
    duplicate_related,
    file_name,
    folder_kind,
    hidden_text,
    identifier_match,
    lineage,
    maintenance,
    maintenance_missing,
    placeholder,
    registered,
    related_exists,
    schema,
    tag_exists,
    title_style,
    unique_id,
    url_host,
    url_scheme,
    venue,
    year_range,
)
from ddl_catalog.rules.base import Context

Check = Callable[[Context], Iterable[Problem]]

RULES: dict[str, Check] = {
    module.ID: module.check
    for module in (
        schema,
        file_name,
        folder_kind,
        unique_id,
        category_exists,
        tag_exists,
        related_exists,
        duplicate_related,
        url_scheme,
        url_host,
        year_range,
        venue,
        authors,
        added_date,
        dates,
        description_style,
        title_style,
        hidden_text,
        duplicate_identity,
        identifier_match,
        placeholder,
        maintenance,
        maintenance_missing,
        capability_column,
        capabilities,
        lineage,
        registered,
    )
}

__all__ = ["RULES", "Check", "Context"]
