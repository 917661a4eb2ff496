"""Entry kinds and their data folders: constants the validator needs without the model."""

from __future__ import annotations

#: Entry kinds and the folder under data/ that holds each.
KIND_FOLDERS: dict[str, str] = {
    "framework": "frameworks",
    "library": "libraries",
    "paper": "papers",
    "article": "articles",
    "talk": "talks",
    "tutorial": "tutorials",
    "book": "books",
    "benchmark": "benchmarks",
    "dataset": "datasets",
    "list": "lists",
    "docs": "docs",
}
FOLDER_KINDS: dict[str, str] = {folder: kind for kind, folder in KIND_FOLDERS.items()}
