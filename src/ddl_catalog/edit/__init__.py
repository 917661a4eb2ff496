"""Editing the catalog's data files: ``add`` a new entry from a URL, ``fmt`` to canonical form."""
