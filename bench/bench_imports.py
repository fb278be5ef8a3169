"""What each runtime dependency costs at import, as `python -X importtime` reports it.

    python bench/bench_imports.py [--runs 7]

Prints a Markdown table: for each dependency (as ruling imports it), the median cumulative
import time over fresh processes, the same as a multiple of `import click` (the floor of every
command, measured in the same run, so the ratio holds on a loaded machine better than the
milliseconds), and which commands pay it. Standard library only.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

#: (module ruling imports, distribution, who pays it)
IMPORTS = [
    ("click", "click", "every command"),
    ("yaml", "pyyaml", "a base loaded from YAML: first run, changed base, `check`"),
    ("jsonschema", "jsonschema", "the same (validation), never on a cache hit"),
    ("ruling.search.whoosh_fast", "whoosh-reloaded", "`search`, `ask` (situation picker)"),
    ("rapidfuzz.process", "rapidfuzz", "`search` when a word is unknown (typo suggestions), `diff`"),
    ("jinja2", "jinja2", "`mkdocs build` (site pages) only"),
    ("cached_property", "cached-property", "nobody: whoosh's need of it is served by functools"),
]


def cumulative_us(module: str) -> int:
    """The cumulative import time of `module`, in microseconds, in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                         capture_output=True, text=True, check=True).stderr
    for line in reversed(out.splitlines()):
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() == module:
            return int(parts[1])
    raise RuntimeError(f"{module} absent from -X importtime output")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    medians = {}
    for _ in range(args.runs):  # interleaved, so that a busy moment weighs on every import alike
        for module, _dist, _who in IMPORTS:
            medians.setdefault(module, []).append(cumulative_us(module))
    medians = {m: statistics.median(t) for m, t in medians.items()}
    print("| import | distribution | median (ms) | × `import click` | paid by |")
    print("|---|---|---|---|---|")
    for module, dist, who in IMPORTS:
        print(f"| `{module}` | {dist} | {medians[module] / 1000:.1f} | {medians[module] / medians['click']:.2f} | {who} |")


if __name__ == "__main__":
    main()
