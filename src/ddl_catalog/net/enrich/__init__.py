"""Metadata from the sources of record: GitHub, arXiv and Crossref.

Each source module exposes one ``fetch`` function returning a small frozen record and raising
``EnrichError`` on any failure; ``run`` writes them under ``data/metadata/``.
"""

from ddl_catalog.net.enrich.base import EnrichError, NotFound, RateLimitExhausted

__all__ = ["EnrichError", "NotFound", "RateLimitExhausted"]
