#!/usr/bin/env bash
# Create .venv (once) and install ruling into it with the extras named in $1 (default: none).
# Idempotent: a second run only reinstalls the package itself.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
spec="."
[ -n "$extras" ] && spec=".[$extras]"
.venv/bin/python -m pip install --quiet -e "$spec"
