"""The user cache folder (`$XDG_CACHE_HOME/ruling`): used only if no one else can write in it.

What is read back from the cache decides which rule text a user is shown, and whoosh
unpickles its index's table of contents: a folder another user could have filled first (a
shared or `/tmp` cache) is refused with one French line on stderr, and everything then
lives in memory. The folder is created 0700. `prune` keeps it small (rule below).
Standard library only: this is on the path of every command.
"""
from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

from ruling.kb.files import write_atomic

#: Pruning rule: per kind (parsed bases `kb-*`, search indexes `index-*`), the KEEP_NEWEST most
#: recently used entries are kept, and any entry used within KEEP_SECONDS; the rest is removed.
KEEP_NEWEST = 4
KEEP_SECONDS = 24 * 3600
#: Temporary files and folders of an interrupted write or index build are removed after an hour
#: (an index build in progress takes seconds, never an hour).
STALE_TEMP_SECONDS = 3600
KINDS = ("kb-", "index-")
OBSOLETE = ("stat-",)  # earlier versions' entries (size+mtime memos), and every *.pickle

_warned: set[str] = set()


def cache_dir() -> Path:
    """Where the cache would be (it may not exist, or be refused by `usable_cache_dir`)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ruling"


def usable_cache_dir() -> Path | None:
    """The cache folder, created 0700 if missing, or None when it cannot be used.

    Refused (one French line on stderr, once per process) when it belongs to another user or
    others may write in it; silently None when it cannot be created (read-only disk)."""
    path = cache_dir()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            pass
        st = os.stat(path)  # follows a symlink: the folder that would really be used
    except (OSError, ValueError):
        return None
    reason = unsafe_reason(st)
    if reason:
        what = "dossier" if stat.S_ISDIR(st.st_mode) else "fichier"
        warn(f"cache « {path} » refusé : {reason} ; le cache reste en mémoire pour cette commande "
             f"(supprimez ce {what}, ou choisissez un autre XDG_CACHE_HOME)")
        return None
    if stat.S_IMODE(st.st_mode) & 0o077:
        try:
            os.chmod(path, 0o700)  # ours but readable by others (an earlier version made it 0755)
        except OSError:
            pass
    return path


def unsafe_reason(st: os.stat_result) -> str | None:
    """Why a cache folder with this stat must not be trusted, or None."""
    if stat.S_ISREG(st.st_mode):
        return "c'est un fichier, pas un dossier"
    if not stat.S_ISDIR(st.st_mode):
        return "ce n'est pas un dossier"
    if st.st_uid != os.geteuid():
        return f"il appartient à un autre utilisateur (uid {st.st_uid})"
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o022:
        return f"d'autres utilisateurs peuvent y écrire (droits {mode:04o}, attendu 0700)"
    return None


def trusted_entry(path: Path) -> bool:
    """Whether an entry of the cache folder (a file or an index folder) is ours and not writable by others."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if stat.S_ISLNK(st.st_mode):
        return False
    return st.st_uid == os.geteuid() and not stat.S_IMODE(st.st_mode) & 0o022


def trusted_folder(path: Path) -> bool:
    """Whether a cache folder (a search index) and every file in it are ours and not writable by others.

    whoosh unpickles the index's table of contents (`_MAIN_*.toc`): a file in it that another
    user owns or could rewrite, a symbolic link or anything but a regular file makes the whole
    folder untrusted, even inside a private folder of ours."""
    if not trusted_entry(path):
        return False
    try:
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode):
            return False
        with os.scandir(path) as entries:
            for entry in entries:
                est = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(est.st_mode) or est.st_uid != os.geteuid() \
                        or stat.S_IMODE(est.st_mode) & 0o022:
                    return False
    except OSError:
        return False
    return True


def warn(message: str) -> None:
    """One French line on stderr, once per process for the same message."""
    if message in _warned:
        return
    _warned.add(message)
    try:
        sys.stderr.write(f"Avertissement : {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def touch(path: Path) -> None:
    """Mark a cache entry as just used (its mtime is what `prune` keeps by)."""
    try:
        os.utime(path)
    except OSError:
        pass


def write_atomically(path: Path, data: bytes) -> bool:
    """`write_atomic` for the cache (owner-only, 0600): no reader sees half a file. False when the
    cache is full or read-only: the knowledge base still works without it."""
    try:
        write_atomic(path, data, mode=0o600)
        return True
    except OSError:
        return False


def prune(folder: Path, now: float | None = None) -> list[str]:
    """Remove what no current base uses (rule at the top of this module); returns the names removed."""
    now = time.time() if now is None else now
    removed: list[str] = []
    by_kind: dict[str, list[tuple[float, str]]] = {k: [] for k in KINDS}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        try:
            mtime = entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if name.startswith("."):  # .index-*, .trash-*, .<file>.<random>.tmp
            if now - mtime > STALE_TEMP_SECONDS:
                removed += _remove(folder / name)
        elif name.endswith(".pickle") or name.startswith(OBSOLETE):
            removed += _remove(folder / name)
        else:
            kind = next((k for k in KINDS if name.startswith(k)), None)
            if kind:
                by_kind[kind].append((mtime, name))
    for items in by_kind.values():
        items.sort(reverse=True)
        for mtime, name in items[KEEP_NEWEST:]:
            if now - mtime > KEEP_SECONDS:
                removed += _remove(folder / name)
    return removed


def _remove(path: Path) -> list[str]:
    import shutil  # it imports zlib, bz2 and lzma: only removing an index folder pays for them

    try:
        if path.is_dir() and not path.is_symlink():
            trash = path.with_name(f".trash-{path.name}-{os.getpid()}")
            try:
                os.rename(path, trash)  # atomic: no reader opens half a removed index
            except OSError:
                trash = path
            shutil.rmtree(trash, ignore_errors=True)
        else:
            path.unlink()
    except OSError:
        return []
    return [path.name]
