"""Text from outside (an API's description, a server's reason phrase) made safe to print.

A server can put escape sequences in what it sends; printed raw, they retitle or clear the
reader's terminal, or fake lines of output. Control characters are shown escaped instead.

Under GitHub Actions the log is read by the runner too: a line that starts with ``::name`` (after
white space) or holds ``##[name]`` anywhere is a workflow command (an annotation, ``add-mask``,
``stop-commands``, which hides every later annotation). :func:`line` keeps a value from forming
one; :func:`command_data` and :func:`command_property` escape a value inside a command.
"""

from __future__ import annotations

import os
import re

#: C0 controls (tab aside), DEL and C1 controls: what a terminal may act on.
_CONTROLS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")

#: A workflow command at the start of a line: the runner trims leading white space first
#: (.NET's, which also holds the format characters some older runtimes count as space).
_LEADING_COMMAND = re.compile(r"^([\s\u180e\u200b\ufeff]*):(?=:)")


def safe(text: str) -> str:
    """Return ``text`` with every control character written as an escape (ESC -> \\x1b)."""
    return _CONTROLS.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


def github_actions() -> bool:
    """Tell whether this runs as a GitHub Actions step (its runner parses the output)."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def line(text: str) -> str:
    """Return a line to print that quotes outside text: controls escaped, and under GitHub
    Actions no workflow command (``##[`` becomes ``##\\x5b``; a leading ``::``, ``\\x3a:``)."""
    text = safe(text)
    if github_actions():
        text = _LEADING_COMMAND.sub(r"\1\\x3a", text.replace("##[", "##\\x5b"))
    return text


def command_data(value: str) -> str:
    """Escape a value for the message of a workflow command (``::error ...::message``)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def command_property(value: str) -> str:
    """Escape a value for a property of a workflow command (``file=...,title=...``)."""
    return command_data(value).replace(":", "%3A").replace(",", "%2C")
