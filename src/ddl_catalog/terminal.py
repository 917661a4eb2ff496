"""Text from outside (an API's description, a server's reason phrase) made safe to print.

A server can put escape sequences in what it sends; printed raw, they retitle or clear the
reader's terminal, or fake lines of output. Control characters are shown escaped instead.
"""

from __future__ import annotations

import re

#: C0 controls (tab aside), DEL and C1 controls: what a terminal may act on.
_CONTROLS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def safe(text: str) -> str:
    """Return ``text`` with every control character written as an escape (ESC -> \\x1b)."""
    return _CONTROLS.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
