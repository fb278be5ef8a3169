"""What reaches the terminal: every control character shown, never obeyed.

A clause text, a title or a typed answer may hold escape sequences (`ESC ] 52` writes the
clipboard, `ESC [2J` clears the screen). `visible` turns each control character into a readable
escape (`\\x1b`), keeping line breaks and tabs, and keeps only the few styles `ruling` itself
prints (bold, the diff's red and green, search highlights) when the output is a terminal.
`guarded_output` applies it to everything written to stdout and stderr while a command runs:
the one place text is written to the terminal. Standard library only (`ruling show` stays fast).
It also turns a write that fails (a full disk, a closed stdout) into `OutputLost`, which the
command line reports as one French line on stderr with exit status 2; a broken pipe (`| head`)
is left to click, which keeps it quiet.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import sys

#: The styles ruling prints itself (render_text.bold, redline.render_terminal, search.result_text).
OWN_STYLES = ("\x1b[0m", "\x1b[1m", "\x1b[9;31m", "\x1b[4;32m", "\x1b[33m")
_STYLE_RE = re.compile("|".join(re.escape(s) for s in OWN_STYLES))
# C0 but \t and \n, DEL, C1, and the invisible controls of bidirectional text and line separators.
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    # \x1b for C0 (JSON output never holds one raw: json.dumps escapes them); \u0085 beyond, which
    # is also a valid JSON escape, so `--json` output stays valid JSON with the same strings.
    return f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}"


def visible(text: str, keep_styles: bool = False) -> str:
    """`text` with every control character as a visible escape (`\\x1b[2J`), \\n and \\t kept;
    with `keep_styles`, ruling's own styles (OWN_STYLES) stay as they are."""
    if not _CONTROL_RE.search(text):
        return text
    if not keep_styles:
        return _CONTROL_RE.sub(_escape, text)
    out, start = [], 0
    for style in _STYLE_RE.finditer(text):
        out.append(_CONTROL_RE.sub(_escape, text[start:style.start()]))
        out.append(style.group())
        start = style.end()
    out.append(_CONTROL_RE.sub(_escape, text[start:]))
    return "".join(out)


class OutputLost(Exception):
    """The command's output could not be written (full disk, closed stdout…): its French reason."""

    def __init__(self, reason: str):
        super().__init__(f"impossible d'écrire la sortie : {reason}")


def _lost(error: OSError) -> OutputLost:
    if error.errno == errno.ENOSPC:
        return OutputLost("disque plein (libérez de la place ou redirigez la sortie ailleurs)")
    if error.errno == errno.EBADF:
        return OutputLost("la sortie standard est fermée (redirigez-la vers un fichier, ou vers /dev/null)")
    return OutputLost(f"{error.strerror or error} (vérifiez le fichier ou l'appareil où va la sortie)")


class ClosedOutput:
    """What stdout is when the process was started with it closed (`ruling show 9-13 >&-`):
    every write fails, so the command reports it instead of losing its output in silence."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, text) -> int:
        raise OSError(errno.EBADF, "sortie standard fermée")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    @property
    def buffer(self):  # bytes (`journal --csv`) fail the same way
        return self


class _GuardedBinary:
    """stdout's byte buffer (bytes go out as they are), with the same report of a failed write."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, data) -> int:
        return _reporting(self._stream.write, data)

    def flush(self) -> None:
        _reporting(self._stream.flush)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _reporting(call, *args):
    """`call(*args)`, a failed write raised as OutputLost (a broken pipe stays click's)."""
    try:
        return call(*args)
    except OSError as e:
        if e.errno == errno.EPIPE:
            raise
        raise _lost(e) from None


class GuardedStream:
    """A text stream that writes through `visible`: styles kept only when it is a terminal."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text) -> int:
        if not isinstance(text, str):  # click probes for a binary stream with write(b"")
            raise TypeError("GuardedStream writes text only")
        keep = self.isatty()
        _reporting(self._stream.write, visible(text, keep_styles=keep))
        return len(text)

    def flush(self) -> None:
        _reporting(self._stream.flush)

    @property
    def buffer(self):
        return _GuardedBinary(self._stream.buffer)  # AttributeError when there is none, as before

    def isatty(self) -> bool:
        try:
            return self._stream.isatty()
        except (AttributeError, ValueError):
            return False

    def __getattr__(self, name):  # flush, fileno, encoding, errors, buffer…
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_output():
    """Route sys.stdout and sys.stderr through `visible` for the duration of a command."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is None:
        sys.stdout = GuardedStream(ClosedOutput())
    elif not isinstance(sys.stdout, GuardedStream):
        sys.stdout = GuardedStream(sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, GuardedStream):
        sys.stderr = GuardedStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def discard_pending_output() -> None:
    """After a failed write, point stdout at /dev/null so the interpreter's last flush of what
    is still buffered raises nothing (and sets no exit status of its own)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (AttributeError, OSError, ValueError):  # no real file behind stdout (CliRunner, closed)
        pass
