#!/usr/bin/env bash
# What the kernel parity test needs: Node (Debian's nodejs), which runs site/assets/kernels.js
# against the Python kernels without a browser (tests/test_kernels_parity.py).
set -euo pipefail
if ! command -v node >/dev/null 2>&1; then
  echo "install-node: node absent, installation du paquet Debian nodejs" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null
fi
