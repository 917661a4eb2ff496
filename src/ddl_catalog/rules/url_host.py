"""Rule ``url-host``: warn about host names that mix scripts or imitate a known host.

``gіthub.com`` with a Cyrillic ``і`` looks like GitHub and leads elsewhere. A host is
suspicious when one of its labels mixes letters of several scripts (Latin with Cyrillic,
say), or when replacing look-alike letters by the Latin ones they imitate turns it into a host
the catalog already links or a well-known one. Punycode labels (``xn--...``) are decoded first.
A host written with characters that IDNA maps away (``exa\u200bmple.com``, full-width
``ｅｘａｍｐｌｅ.com``) is the plain host to a browser but hides it from a reader: it is flagged,
naming the host it is (``identity.normal_host``, the comparison the duplicate check uses).
Plain ASCII hosts cost one check and are never flagged. This is a warning: a real host can use
another script, and a maintainer decides.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from urllib.parse import urlsplit

from ddl_catalog.identity import punycode_label, unicode_host
from ddl_catalog.load import Problem
from ddl_catalog.rules.base import Context, field_name, problem
from ddl_catalog.rules.url_scheme import url_fields

ID = "url-host"

#: Hosts a look-alike would most likely imitate, besides those the catalog links already.
WELL_KNOWN = frozenset(
    {
        "github.com",
        "gitlab.com",
        "arxiv.org",
        "doi.org",
        "dl.acm.org",
        "openreview.net",
        "proceedings.neurips.cc",
        "proceedings.mlr.press",
        "usenix.org",
        "ieeexplore.ieee.org",
        "huggingface.co",
        "pytorch.org",
        "youtube.com",
        "google.com",
        "microsoft.com",
        "nvidia.com",
        "pypi.org",
    }
)

#: Letters of other scripts that look like Latin ones (a small part of Unicode's confusables).
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j",
        "к": "k", "ӏ": "l", "м": "m", "п": "n", "о": "o", "р": "p", "ԛ": "q", "г": "r",
        "ѕ": "s", "т": "t", "у": "y", "ѵ": "v", "ԝ": "w", "х": "x", "ү": "y", "ԍ": "g",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "γ": "y",
        # Armenian and Latin variants
        "օ": "o", "ս": "u", "ı": "i", "ɡ": "g", "ʀ": "r",
    }
)  # fmt: skip


def host_warning(host: str, known: frozenset[str] | set[str] = WELL_KNOWN) -> str | None:
    """Return why a host name may be a look-alike, or None when it reads as what it is."""
    written = host.lower().rstrip(".")
    if written.isascii() and "xn--" not in written:
        return None
    name = unicode_host(written)
    as_written = ".".join(punycode_label(label) or label for label in written.split("."))
    if unicodedata.normalize("NFC", as_written) != name:
        return (
            "is written with characters that IDNA maps away (invisible, full-width or "
            f"compatibility forms): it is the host '{name}'; write it so"
        )
    if name.isascii():
        return None
    for label in name.split("."):
        scripts = {_script(ch) for ch in label if ch.isalpha()}
        if len(scripts) > 1:
            mixed = " and ".join(sorted(s.title() for s in scripts))
            imitated = _imitated(name, known)
            also = f", and reads as {imitated}" if imitated else ""
            return f"mixes {mixed} letters in '{label}'{also}: is it a look-alike?"
    imitated = _imitated(name, known)
    if imitated:
        return f"reads as {imitated} but uses look-alike letters: is it a look-alike?"
    return None


def _script(char: str) -> str:
    """Return a letter's script as Unicode names it (LATIN, CYRILLIC, GREEK ...)."""
    try:
        return unicodedata.name(char).split()[0]
    except ValueError:
        return "UNKNOWN"


def _imitated(name: str, known: frozenset[str] | set[str]) -> str | None:
    """Return the known host this name turns into once look-alikes are replaced, if any."""
    skeleton = name.translate(LOOK_ALIKES)
    if skeleton == name or not skeleton.isascii():
        return None
    bare = skeleton.removeprefix("www.")
    for candidate in (skeleton, bare, f"www.{bare}"):
        if candidate in known:
            return candidate
    return None


#: The host of an ASCII URL: after the scheme and any user info, before port, path or query.
_ASCII_HOST = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(?P<host>[^:/?#]+)")


def ascii_host(url: str) -> str | None:
    """Return the host of a plain ASCII URL ("" when it has none), None for one to inspect.

    Cheaper than urlsplit, which matters because nearly every URL of a catalog is plain ASCII.
    """
    if not url.isascii() or "xn--" in url:
        return None
    match = _ASCII_HOST.match(url)
    return match["host"].lower() if match else ""


def check(ctx: Context) -> Iterator[Problem]:
    """Warn about the URL hosts of every entry that mix scripts or imitate a known host."""
    found = []
    known: set[str] = set(WELL_KNOWN)
    for doc in ctx.entries:
        for path, value in url_fields(doc.data):
            if not isinstance(value, str):
                continue
            host = ascii_host(value)
            if host is not None:
                if host:
                    known.add(host)
                continue
            try:
                host = urlsplit(value).hostname or ""
            except ValueError:
                continue  # url-scheme reports it
            if host.isascii() and "xn--" not in host:
                known.add(host)
            else:
                found.append((doc, path, host))
    for doc, path, host in found:
        why = host_warning(host, known)
        if why:
            yield problem(
                doc, path, f"'{field_name(path)}' host {host!r} {why}", ID, severity="warning"
            )
