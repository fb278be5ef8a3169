#!/usr/bin/env bash
# The test command: install everything the tests need (Python packages once, Debian's chromium for
# the browser tests and Debian's nodejs for the kernel parity test when this user can), then run
# the whole suite. Extra arguments go to pytest.
# Without chromium the browser tests skip, the reason in pytest's summary; with CI=true they fail.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
bash scripts/install-browser.sh
bash scripts/install-node.sh
export NO_MKDOCS_2_WARNING=1  # Material for MkDocs' end-of-life banner (see docs/ARCHITECTURE.md)
.venv/bin/ruff check ruling tests bench scripts ||  # the style of pyproject.toml's [tool.ruff]
  { echo "ruff : écarts de style ci-dessus ; corrigez-les (ruff check --fix corrige les plus simples)" >&2; exit 1; }
.venv/bin/mypy ||  # the types, as [tool.mypy] of pyproject.toml configures them
  { echo "mypy : erreurs de types ci-dessus ; corrigez-les (une annotation, ou le bogue qu'elles montrent)" >&2; exit 1; }
.venv/bin/ruling check
exec .venv/bin/python -m pytest "$@"
