"""The in-memory catalog every output reads: its types, and how a catalog on disk becomes one.

``model.types`` defines the frozen data types (Entry, Category, Catalog ...), re-exported here;
``model.build`` validates a catalog and builds them (``open_catalog``). Importing this package
loads the types only: building imports validation, which the types do not need.
"""

from ddl_catalog.model.types import (
    FIELD_ORDER,
    INVERSE_RELATIONS,
    KIND_FOLDERS,
    KIND_LABELS,
    MAINTENANCE_LABELS,
    Capabilities,
    Catalog,
    Category,
    Cell,
    Entry,
    Identifiers,
    Link,
    Maintenance,
    Related,
    Release,
    Tag,
    Venue,
)

__all__ = [
    "FIELD_ORDER",
    "INVERSE_RELATIONS",
    "KIND_FOLDERS",
    "KIND_LABELS",
    "MAINTENANCE_LABELS",
    "Capabilities",
    "Catalog",
    "Category",
    "Cell",
    "Entry",
    "Identifiers",
    "Link",
    "Maintenance",
    "Related",
    "Release",
    "Tag",
    "Venue",
]
