#!/usr/bin/env bash
# The main job: the guided questionnaire on the bundled rulebooks (`ruling ask`).
# Arguments are passed on: `bash scripts/ask.sh flop sans carte brulee`.
# The first launch installs (scripts/setup.sh); later ones start the installed command at once, offline.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/ruling ask "$@"
