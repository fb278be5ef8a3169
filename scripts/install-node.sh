#!/usr/bin/env bash
# What the kernel parity test needs: Node (Debian's nodejs), which runs site/assets/kernels.js
# against the Python kernels without a browser (tests/test_kernels_parity.py). Installs it only
# when it can (root, apt-get); otherwise it says in one line what to run and exits 0, so that the
# tests still run (the parity test then skips, or fails with CI=true).
set -euo pipefail
source "$(dirname "$0")/debian-package.sh"
if ! command -v node >/dev/null 2>&1; then
  debian_install install-node node "le test de parité des calculs" "sera sauté" "" nodejs
fi
exit 0
