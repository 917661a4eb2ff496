"""Renderers: the catalog as Markdown and HTML pages (README, website)."""
