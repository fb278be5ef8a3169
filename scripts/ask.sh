#!/usr/bin/env bash
# The main job: the guided questionnaire on the bundled rulebooks (`ruling ask`).
# Arguments are passed on: `bash scripts/ask.sh flop sans carte brulee`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
exec .venv/bin/ruling ask "$@"
