#!/usr/bin/env bash
# Create .venv and install ruling into it (editable) with the extras named in $1 (default: none;
# "test", "site", or both comma-separated), once: scripts/install_state.py records what was
# installed for which pyproject.toml, so a later run with nothing new to install runs no pip at
# all (instant, and offline). A .venv whose Python is missing or older than 3.11 is rebuilt.
# Quiet on success (pip's log goes to .venv/setup.log); on failure the end of that log is shown.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"

# The usual case, in one Python start: everything asked for is installed (install_state.py needs
# Python 3.11+, so an older .venv fails here and is rebuilt below).
if [ -x .venv/bin/python ] && .venv/bin/python -I scripts/install_state.py check "$extras" 2>/dev/null; then
  exit 0
fi

# Two set-ups at once (two terminals, ask.sh while test.sh installs) would build the same .venv
# together and leave it half made: the second waits for the first, then finds it done.
if command -v flock >/dev/null; then
  exec 9>.venv.lock
  flock 9
  if [ -x .venv/bin/python ] && .venv/bin/python -I scripts/install_state.py check "$extras" 2>/dev/null; then
    exit 0
  fi
fi

python_ok() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; }

if [ -e .venv ] && ! python_ok .venv/bin/python; then
  found=$(.venv/bin/python -c 'import sys; print("Python %d.%d" % sys.version_info[:2])' 2>/dev/null || echo "un Python introuvable")
  echo "setup : .venv utilise $found, il faut Python 3.11 ou plus ; reconstruction de .venv" >&2
  rm -rf .venv
fi

if [ ! -x .venv/bin/python ]; then
  python=""
  for candidate in "${RULING_PYTHON:-}" python3 python3.13 python3.12 python3.11; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null && python_ok "$candidate"; then
      python="$candidate"
      break
    fi
  done
  if [ -z "$python" ]; then
    echo "setup : aucun Python 3.11 ou plus trouvé (python3, python3.11…) ; installez-en un ou indiquez-le dans RULING_PYTHON" >&2
    exit 1
  fi
  "$python" -m venv .venv
fi

echo "setup : installation de ruling${extras:+ [$extras]} dans .venv (une seule fois ; journal : .venv/setup.log)" >&2
spec="."
[ -n "$extras" ] && spec=".[$extras]"
if ! .venv/bin/python -m pip install --disable-pip-version-check -e "$spec" >.venv/setup.log 2>&1; then
  # Offline (the usual cause on a first install): pip's ~30 lines of traceback stay in the log.
  if grep -Eq 'NewConnectionError|ProxyError|Failed to establish a new connection|Temporary failure in name resolution|Network is unreachable|Could not fetch URL|No matching distribution found|from versions: none' .venv/setup.log; then
    echo "setup : les dépôts de paquets (PyPI) n'ont pas pu être joints (pas de réseau ?) ; connectez-vous puis relancez (détail : .venv/setup.log)" >&2
  else
    tail -n 15 .venv/setup.log >&2
    echo "setup : l'installation a échoué (journal complet : .venv/setup.log)" >&2
  fi
  exit 1
fi
# Material for MkDocs 9.x prints an end-of-life banner on every build (support ends 2027-05-05, noted
# in docs/ARCHITECTURE.md); it reads NO_MKDOCS_2_WARNING before any hook could set it, so this venv
# sets it at start-up (a .pth line), for `mkdocs build` however it is started.
site_packages=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf 'import os; os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")\n' >"$site_packages/ruling-quiet-mkdocs.pth.tmp"
mv -f "$site_packages/ruling-quiet-mkdocs.pth.tmp" "$site_packages/ruling-quiet-mkdocs.pth"
# What the first command would otherwise do: bytecode for ruling's modules, and the bundled base
# parsed and indexed into the user's cache (about 2 s here instead of in the first search). A
# failure (read-only disk, a cache refused) is not an install failure: the first search does it.
.venv/bin/python -m compileall -q ruling >/dev/null 2>&1 || true
.venv/bin/python -c 'from ruling.search import prepare; prepare()' >/dev/null 2>&1 || true
.venv/bin/python -I scripts/install_state.py record "$extras"
