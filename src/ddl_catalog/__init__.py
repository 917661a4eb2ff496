"""ddl-catalog: keep a curated list as data and build its README, website and exports from it."""

__version__ = "0.1.0"
