#!/usr/bin/env bash
# What the kernel parity test needs: Node (Debian's nodejs), which runs site/assets/kernels.js
# against the Python kernels without a browser (tests/test_kernels_parity.py). Installs it only
# when it can (root, apt-get); otherwise it says in one line what to run and exits 0, so that the
# tests still run (the parity test then skips, or fails with CI=true).
set -euo pipefail
if ! command -v node >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "install-node : node absent, installation du paquet Debian nodejs" >&2
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; }; then
      echo "install-node : l'installation de nodejs a échoué ; le test de parité des calculs sera sauté" >&2
    fi
  else
    echo "install-node : node absent ; pour le test de parité des calculs, lancez en root : apt-get install nodejs" >&2
  fi
fi
exit 0
