"""Benchmark of the published site: `mkdocs build` time and search index size.

    python bench/bench_site.py [--runs 2] [--skip-synthetic]

Builds the real knowledge base, then a synthetic one of 5,000 clauses (10 books × 500 clauses,
100 procedures, from bench/synthetic.py), each in a fresh cache (cold: the YAML is parsed) and
again with the parsed cache warm. Prints a Markdown table: build times, pages, site size and
search index size. Target: the real site builds in under 15 s.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from synthetic import generate  # noqa: E402

TARGET_S = 15.0


def build(kb: Path, dest: Path, cache: Path) -> float:
    """One `mkdocs build --strict`; returns its wall time in seconds."""
    env = {**os.environ, "RULING_KB": str(kb), "XDG_CACHE_HOME": str(cache), "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(dest)], cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"échec de mkdocs build sur {kb} :\n{proc.stderr[-2000:]}")
    return elapsed


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(name: str, kb: Path, work: Path, runs: int) -> dict:
    cache = work / f"cache-{name}"
    dest = work / f"site-{name}"
    cold = build(kb, dest, cache)
    warm = [build(kb, dest, cache) for _ in range(runs)]
    from ruling.kb.load import load_kb

    clauses = len(load_kb(kb, use_cache=False).clauses(all_revisions=True))
    index = dest / "search" / "search_index.json"
    return {
        "name": name, "clauses": clauses, "cold": cold, "warm": min(warm),
        "pages": sum(1 for _ in dest.rglob("*.html")), "site_mb": folder_size(dest) / 1e6,
        "index_mb": index.stat().st_size / 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="warm builds per knowledge base (best kept)")
    parser.add_argument("--skip-synthetic", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-site-") as tmp:
        work = Path(tmp)
        rows.append(measure("réel", ROOT / "rulebook", work, args.runs))
        if not args.skip_synthetic:
            synth = generate(work / "synthetic", books=10, clauses=500, procedures=100)
            rows.append(measure("synthétique", synth, work, args.runs))
    print("| base | règles | build à froid (s) | build, cache chaud (s) | pages | site (Mo) | index de recherche (Mo) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['name']} | {r['clauses']} | {r['cold']:.1f} | {r['warm']:.1f} | {r['pages']} | "
              f"{r['site_mb']:.1f} | {r['index_mb']:.2f} |")
    real = rows[0]
    verdict = "atteint" if real["cold"] < TARGET_S else "MANQUÉ"
    print(f"\nObjectif : site réel en moins de {TARGET_S:.0f} s — {verdict} ({real['cold']:.1f} s à froid).")


if __name__ == "__main__":
    main()
