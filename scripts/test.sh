#!/usr/bin/env bash
# The test command: install everything the tests need (Python packages, Debian chromium for
# the browser tests, Debian nodejs for the kernel parity test), then run the whole suite. Extra
# arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
if [ -f scripts/install-browser.sh ]; then
  bash scripts/install-browser.sh
fi
bash scripts/install-node.sh
.venv/bin/ruling check
exec .venv/bin/python -m pytest "$@"
