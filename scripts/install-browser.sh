#!/usr/bin/env bash
# What the browser tests need: Debian's chromium (/usr/bin/chromium) and the Playwright Python
# package. Playwright's own browser download does not work here, so never `playwright install`:
# the tests drive Debian's chromium through executable_path.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  echo "install-browser: chromium absent, installation du paquet Debian" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
python=python3
[ -x .venv/bin/python ] && python=.venv/bin/python
if ! "$python" -c "import playwright.sync_api" 2>/dev/null; then
  "$python" -m pip install --quiet playwright
fi
