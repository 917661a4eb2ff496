"""Writing files so that a failed or killed run never leaves half a file behind.

Every output the toolchain writes (README.md, exports, data files, caches, metadata) goes
through ``write_atomic``: the text is written to a temporary file in the same folder, then moved
over the target in one ``os.replace``, so readers see the old file or the new one, never a mix.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from ddl_catalog.load import not_a_file


def write_atomic(path: Path, text: str, *, fsync: bool = False, exclusive: bool = False) -> None:
    """Replace ``path`` with ``text`` (UTF-8) in one step; raise OSError, leaving no temp file.

    The OSError always names a file (``path`` when the failure was a write to the temporary
    file, such as a full disk), so callers can say which output could not be written.

    The file keeps its permission bits (a new file gets 0644, as a plain write would give with
    the usual umask). ``fsync`` also flushes the data to disk first, for caches that must
    survive a crash of the machine, not only of the process. ``exclusive`` creates the file
    only if it does not exist, even if another process makes it meanwhile: FileExistsError.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    _refuse_special(path)
    if exclusive and path.exists():
        raise FileExistsError(errno.EEXIST, "file exists", str(path))
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            if fsync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if exclusive:
            _link_new(tmp, path)
        else:
            os.replace(tmp, path)
    except OSError as err:
        if err.filename is None:  # a write to the descriptor: name the file it was for
            raise OSError(err.errno, err.strerror or str(err), str(path)) from err
        raise
    finally:
        Path(tmp).unlink(missing_ok=True)


def _refuse_special(path: Path) -> None:
    """Raise OSError when ``path`` (or what its links lead to) exists and is not a regular file.

    Moving a new file over a named pipe, a device (``/dev/full``, ``/dev/stdout``'s target) or a
    socket would silently replace it, and as root even a device node: such a path is refused.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # nothing there yet (or unreachable: the write itself will say why)
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, f"not replaced: {not_a_file(mode)}", str(path))


def _link_new(tmp: str, path: Path) -> None:
    """Give the file ``tmp`` the new name ``path``, atomically refusing an existing one."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:  # no hard links on this file system: claim the name (O_EXCL), then move
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
        os.replace(tmp, path)
