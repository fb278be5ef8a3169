"""Reading a file a user named or put in the base: regular files only, bounded, UTF-8; and the
one way `ruling` writes a file (`write_atomic`: a temporary file in the same folder, then os.replace).

A FIFO or `/dev/zero` would hang a reader, a symlink loop or a dangling link would raise
deep inside a parser: `read_regular` turns each into a `FileProblem` whose French text
says what the file is and what was expected. Standard library only (the cache hit path).
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_FILE_BYTES = 16 * 2**20  # a chapter of the largest federation rulebook is well under 1 MB


class FileProblem(Exception):
    """A file that cannot be read as a text file: `message` is French, `line` 0 if unknown."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.message = message
        self.line = line


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "un dossier"
    if stat.S_ISFIFO(mode):
        return "un tube nommé (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "un périphérique"
    if stat.S_ISSOCK(mode):
        return "une socket"
    return "un fichier spécial"


def read_regular(path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of `path` if it is a regular file of at most `max_bytes`; else `FileProblem`.

    Opened non-blocking, then checked with fstat: a FIFO is never waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except ValueError:  # a NUL byte in the path
        raise FileProblem("chemin invalide (caractère NUL)") from None
    except OSError as e:
        raise FileProblem(_open_error(path, e)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(f"c'est {_kind(st.st_mode)} ; attendu un fichier ordinaire")
        if st.st_size > max_bytes:
            raise FileProblem(f"fichier trop gros ({_mb(st.st_size)}) ; au plus {_mb(max_bytes)}")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:  # grew while being read
                raise FileProblem(f"fichier trop gros (plus de {_mb(max_bytes)})")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise FileProblem(_open_error(path, e)) from None
    finally:
        os.close(fd)


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} Mo"


def _open_error(path, err: OSError) -> str:
    if err.errno == errno.ENOENT:
        return "lien symbolique cassé (sa cible n'existe pas)" if os.path.islink(path) else "fichier introuvable"
    if err.errno == errno.ELOOP:
        return "boucle de liens symboliques ; attendu un fichier ordinaire"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "lecture refusée (droits du fichier) ; rendez-le lisible"
    if err.errno == errno.EISDIR:
        return "c'est un dossier ; attendu un fichier ordinaire"
    return f"fichier illisible ({os.strerror(err.errno) if err.errno else err.__class__.__name__})"


def decode_utf8(data: bytes) -> str:
    """`data` as UTF-8 text, or a `FileProblem` naming the line of the first bad byte or NUL."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise FileProblem(f"texte non UTF-8 (octet \\x{data[e.start]:02x} ligne {line}, du Latin-1 ?) ; "
                          "enregistrez le fichier en UTF-8", line) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise FileProblem(f"caractère NUL (\\x00) ligne {line} ; un fichier YAML ne contient que du texte", line)
    return text


def read_text(path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """`read_regular` then `decode_utf8`."""
    return decode_utf8(read_regular(path, max_bytes))


def write_atomic(file: Path, data: bytes, mode: int | None = None) -> None:
    """Replace `file` with `data` through a temporary file in the same folder and os.replace:
    a full disk or an interruption leaves the old file whole. The file gets `mode`, else keeps
    its own (0o644 for a new file). Raises OSError."""
    import tempfile  # it imports random: a write pays for it, never the reads of every command

    if mode is None:
        mode = stat.S_IMODE(file.stat().st_mode) if file.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=f".{file.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, file)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
