#!/usr/bin/env bash
# What the browser tests need: a chromium (Debian's /usr/bin/chromium, or the one RULING_CHROMIUM
# names) and the Playwright Python package. Playwright's own browser download does not work here,
# so never `playwright install`: the tests drive that chromium through executable_path.
# Installs Debian's chromium only when it can (root, apt-get, RULING_CHROMIUM unset); otherwise it
# says in one line what to run and exits 0, so that the tests still run (the browser ones skip).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/debian-package.sh
chromium="${RULING_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ -n "${RULING_CHROMIUM:-}" ]; then
    echo "install-browser : pas de chromium exécutable à $chromium (RULING_CHROMIUM) ; les tests du navigateur seront sautés" >&2
  else
    debian_install install-browser chromium "les tests du navigateur" "seront sautés" \
      "(ou RULING_CHROMIUM=/chemin/du/chromium)" chromium
  fi
fi
# The printable rulebook: WeasyPrint needs Debian's pango; its test reads the PDFs with poppler-utils.
if ! command -v pdftotext >/dev/null || ! ldconfig -p 2>/dev/null | grep -q libpango-1.0; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils libpango-1.0-0 libpangoft2-1.0-0 >/dev/null \
      || echo "install-browser : poppler-utils ou pango ne s'installent pas ; le PDF ou son test seront sautés" >&2
  else
    echo "install-browser : pour le PDF imprimable, lancez en root : apt-get install poppler-utils libpango-1.0-0 libpangoft2-1.0-0" >&2
  fi
fi
python=python3
[ -x .venv/bin/python ] && python=.venv/bin/python
if ! "$python" -c "import weasyprint" 2>/dev/null; then
  "$python" -m pip install --quiet weasyprint || echo "install-browser : weasyprint ne s'installe pas ; le PDF sera sauté" >&2
fi
if ! "$python" -c "import playwright.sync_api" 2>/dev/null; then
  "$python" -m pip install --quiet playwright || echo "install-browser : playwright ne s'installe pas ; les tests du navigateur seront sautés" >&2
fi
exit 0
