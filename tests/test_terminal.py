"""Escape sequences in the rulebook or in typed answers are shown, never obeyed by the terminal.

OSC 52 (`ESC ] 52 ; c ; … BEL`) writes the clipboard, `ESC [2J` clears the screen: every command
that prints text must show them as `\\x1b…`, and the diff's own colours must still work on a tty.
"""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

import pytest

from ruling.render.terminal import OWN_STYLES, visible

OSC52 = "\x1b]52;c;SGVsbG8=\x07"
CLEAR = "\x1b[2J"
CHAPTER = "club/08-blinds-et-les-changements-de-place.yaml"
PROC = "club/procedures/flop-irregulier.yaml"


def _replace(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def hostile_kb(kb_copy):
    """Clause 8-2, the flop procedure's title and one of its decisions hold OSC 52 and a screen clear."""
    _replace(kb_copy / CHAPTER, "  text: On retire les places au sort uniquement pour la Table final (par logiciel ou tirages de cartes)",
             '  text: "On retire zorglub \\e]52;c;SGVsbG8=\\a les places \\e[2J au sort uniquement pour la Table '
             'final (par logiciel ou tirages de cartes)"')
    _replace(kb_copy / PROC, "title: Flop exposé de façon irrégulière", 'title: "Flop exposé \\e]52;c;SGVsbG8=\\a irrégulier"')
    _replace(kb_copy / PROC, "decision: La quatrième carte du flop est brûlée ; la turn sera exposée directement.",
             'decision: "La quatrième carte du flop est brûlée \\e[2J ; la turn sera exposée directement."')
    return kb_copy


def test_visible_shows_controls_and_keeps_layout():
    text = f"a{OSC52}b\n\tc{CLEAR}\r\x85\u202e"
    assert visible(text) == "a\\x1b]52;c;SGVsbG8=\\x07b\n\tc\\x1b[2J\\x0d\\u0085\\u202e"
    assert visible("plain\n\ttext") == "plain\n\ttext"


def test_visible_keeps_only_rulings_own_styles():
    styled = "".join(f"{s}x" for s in OWN_STYLES)
    assert visible(styled, keep_styles=True) == styled
    assert "\x1b" not in visible(styled)
    assert visible("\x1b[8mcaché\x1b[0m", keep_styles=True) == "\\x1b[8mcaché\x1b[0m"


def _clean(result, *visible_forms: str) -> None:
    assert "\x1b" not in result.output and "\x07" not in result.output, result.output
    for form in visible_forms:
        assert form in result.output, result.output


ESC_SHOWN = "\\x1b]52;c;SGVsbG8=\\x07"
CLEAR_SHOWN = "\\x1b[2J"


@pytest.mark.parametrize("args, forms", [
    (["show", "club:8-2"], [ESC_SHOWN, CLEAR_SHOWN]),
    (["search", "zorglub"], [ESC_SHOWN]),
    (["list", "club"], [ESC_SHOWN]),
    (["diff", "club"], [ESC_SHOWN, CLEAR_SHOWN]),
    (["procedures", "--book", "club"], [ESC_SHOWN]),
    (["decide", "flop-irregulier", "--book", "club", "-a", "defaut=quatre-cartes", "-a", "ordre-connu=oui"],
     [ESC_SHOWN, CLEAR_SHOWN]),
    (["compare", "flop-irregulier", "-a", "defaut=quatre-cartes", "-a", "ordre-connu=oui"], [CLEAR_SHOWN]),
])
def test_commands_show_escape_sequences_visibly(run, hostile_kb, args, forms):
    result = run(*args, kb_path=hostile_kb)
    assert result.exit_code == 0, result.output
    _clean(result, *forms)


def test_json_output_stays_valid_and_faithful(run, hostile_kb):
    import json

    result = run("show", "club:8-2", "--json", kb_path=hostile_kb)
    assert result.exit_code == 0
    assert OSC52 in json.loads(result.output)["text"]


def test_ask_shows_the_title_and_typed_answers_without_escapes(run, hostile_kb):
    typed = f"flop quatre cartes\n1\n{CLEAR}\n3\n{OSC52}\no\n"
    result = run("ask", "--book", "club", input=typed, kb_path=hostile_kb)
    assert result.exit_code == 0, result.output
    _clean(result, ESC_SHOWN, f"Réponse « {CLEAR_SHOWN} » invalide", f"Réponse « {ESC_SHOWN} » invalide")
    assert "la turn sera exposée directement" in result.output


def test_error_messages_show_escapes(run):
    result = run("show", f"club:9-13{CLEAR}")
    assert result.exit_code == 2
    _clean(result, CLEAR_SHOWN)


def _tty_output(argv: list[str], env: dict) -> str:
    """What a terminal receives from `argv` (run on a pseudo-terminal)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(argv, stdin=follower, stdout=follower, stderr=follower, env=env, close_fds=True)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(leader, 65536)
        except OSError:  # the child closed its side
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_diff_keeps_its_colours_on_a_terminal(hostile_kb):
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    out = _tty_output([sys.executable, "-m", "ruling", "--kb", str(hostile_kb), "diff", "club"], env)
    assert "\x1b[9;31m" in out and "\x1b[4;32m" in out  # struck red deletions, underlined green insertions
    assert "8-2" in out and ESC_SHOWN in out and CLEAR_SHOWN in out
    assert OSC52 not in out and CLEAR not in out
    shown_alone = _tty_output([sys.executable, "-m", "ruling", "--kb", str(hostile_kb), "show", "club:8-2"], env)
    assert "\x1b[1m" in shown_alone and CLEAR not in shown_alone and CLEAR_SHOWN in shown_alone


def test_ask_on_a_terminal_prints_typed_escapes_visibly(hostile_kb):
    """On a real terminal (the prompt goes through readline), a typed ESC comes back as \\x1b."""
    import termios
    import time

    leader, follower = pty.openpty()
    attrs = termios.tcgetattr(follower)
    attrs[3] &= ~termios.ECHO  # only what ruling writes is read back, not the terminal's own echo
    termios.tcsetattr(follower, termios.TCSANOW, attrs)
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = subprocess.Popen([sys.executable, "-m", "ruling", "--kb", str(hostile_kb), "ask", "flop", "quatre", "cartes",
                             "--book", "club"], stdin=follower, stdout=follower, stderr=follower, env=env,
                            close_fds=True)
    os.close(follower)
    out = b""

    def read_until(marker: bytes, seconds: float = 60) -> None:
        nonlocal out
        end = time.monotonic() + seconds
        while marker not in out and time.monotonic() < end:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    out += os.read(leader, 65536)
                except OSError:
                    return

    for wait_for, typed in [(b"0 pour d'autres mots)", b"1\n"), (b"Votre choix (1-4)", CLEAR.encode() + b"\n"),
                            (b"recommencez", b"3\n"), (b"o/n", b"o\n")]:
        read_until(wait_for)
        os.write(leader, typed)
    read_until(b"Pour rejouer")
    proc.wait(timeout=60)
    os.close(leader)
    text = out.decode("utf-8", "replace")
    assert proc.returncode == 0, text[-2000:]
    assert f"Réponse « {CLEAR_SHOWN} » invalide" in text and CLEAR not in text and OSC52 not in text
    assert ESC_SHOWN in text and "\x1b[1m" in text  # the hostile title shown; ruling's own bold kept
