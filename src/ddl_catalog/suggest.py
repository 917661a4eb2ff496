"""Spelling suggestions for error messages ("did you mean ...?")."""

from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, options: Iterable[str], cutoff: float = 0.6) -> str | None:
    """Return the option most like ``word``, or None when none is close enough."""
    import difflib  # only needed when something is wrong, so kept off the start-up path

    found = difflib.get_close_matches(word, list(options), n=1, cutoff=cutoff)
    return found[0] if found else None


def did_you_mean(word: str, options: Iterable[str], cutoff: float = 0.6, fmt: str = "'{}'") -> str:
    """Return `` (did you mean 'x'?)`` for the closest option, or an empty string."""
    near = closest(word, options, cutoff)
    return f" (did you mean {fmt.format(near)}?)" if near else ""
