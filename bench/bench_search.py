"""Benchmark of `ruling search`: the whole process, a query inside the process, the index build.

Prints figures, asserts nothing. Run: `python bench/bench_search.py [--runs N]`.
- process: `ruling search QUERY` with the index already cached, against
  `python -c "import click"` measured in the same run (interleaved), medians over N runs;
  the target is a ratio of at most 3.5 (also measured with bytecode caching when the
  environment disables it);
- query: `search()` in a warm process over the query suite (median, 95th percentile);
- cold: the first `ruling search` after install (empty cache: base parsed, index built);
- long: 40-word pasted queries on the 10,000-clause synthetic base (bench/synthetic.py);
- build: the on-disk index (documents, whoosh, vocabulary, marker) and the in-memory one;
- quality: recall@1 and recall@3 on tests/search_queries.yaml (the outside suite, split
  train / held-out: `python bench/search_quality.py`).
Targets (issue 15): process ≤ 2.5× `import click`, cold ≤ 0.57 s, long < 0.2 s.
`--module` runs `python -m ruling` instead of the console script (to time another checkout
through PYTHONPATH, as the "before" figures of bench/README.md were).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ROOT / "tests" / "search_queries.yaml"


CPU: list[tuple[str, float]] = []  # (what, CPU seconds) of each timed run: the figure load disturbs least


def timed_run(argv: list[str], env: dict, what: str = "") -> float:
    """Wall time of one process; its CPU time (user + system) is noted in CPU under `what`."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append((what, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
    return wall


def cpu_median(what: str) -> float:
    return statistics.median([c for w, c in CPU if w == what])


def bench_process_both(runs: int, env: dict, pycache: str) -> None:
    """As this environment runs Python, and with bytecode caching on if it was off.

    PYTHONDONTWRITEBYTECODE=1 (set in some sandboxes) makes every run recompile the
    package's modules while click's come precompiled from site-packages; an installed
    package has its bytecode compiled, so both figures are printed.
    """
    if env.get("PYTHONDONTWRITEBYTECODE"):
        print("# PYTHONDONTWRITEBYTECODE is set: every run recompiles ruling's modules")
        bench_process(runs, env)
        cached = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cached["PYTHONPYCACHEPREFIX"] = pycache  # bytecode kept out of the source tree
        print("# the same with bytecode caching (as an installed package runs)")
        bench_process(runs, cached)
    else:
        bench_process(runs, env)


MODULE = False  # --module: `python -m ruling`


def ruling_argv() -> list[str]:
    """The console script next to this interpreter: a version manager's shim on PATH (pyenv's
    is a bash script) would add its own start-up to every run."""
    if MODULE:
        return [sys.executable, "-m", "ruling"]
    beside = Path(sys.executable).with_name("ruling")
    return [str(beside) if beside.is_file() else (shutil.which("ruling") or "ruling")]


def bench_process(runs: int, env: dict) -> None:
    ruling = ruling_argv()
    query = ["relanse", "insufisante"]
    timed_run([*ruling, "search", *query], env)  # builds and caches the index
    search_times, click_times = [], []
    for _ in range(runs):
        click_times.append(timed_run([sys.executable, "-c", "import click"], env, "click"))
        search_times.append(timed_run([*ruling, "search", *query], env, "search"))
    s, c = statistics.median(search_times), statistics.median(click_times)
    print(f"process  ruling search (index cached): median {s * 1000:.0f} ms over {runs} runs "
          f"(min {min(search_times) * 1000:.0f}, max {max(search_times) * 1000:.0f})")
    print(f"process  python -c 'import click':     median {c * 1000:.0f} ms over {runs} runs "
          f"(min {min(click_times) * 1000:.0f}, max {max(click_times) * 1000:.0f})")
    print(f"process  ratio of medians {s / c:.2f} (target <= 2.5); ratio of minima "
          f"{min(search_times) / min(click_times):.2f}")
    cs, cc = cpu_median("search"), cpu_median("click")
    print(f"process  CPU time (user + system), medians: search {cs * 1000:.0f} ms, click {cc * 1000:.0f} ms, "
          f"ratio {cs / cc:.2f}")
    del CPU[:]


def bench_cold(runs: int, env: dict) -> None:
    """The first search after install: an empty cache, so the base is parsed and the index built."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            times.append(timed_run([*ruling_argv(), "search", "relanse", "insufisante"],
                                   dict(env, XDG_CACHE_HOME=cache), "cold"))
    print(f"cold     first ruling search, empty cache: median {statistics.median(times) * 1000:.0f} ms over "
          f"{runs} runs (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; target <= 570); "
          f"CPU median {cpu_median('cold') * 1000:.0f} ms")


def bench_long(queries: int = 10) -> None:
    """40-word pasted queries on the synthetic base of 20 books × 500 clauses."""
    import random

    sys.path.insert(0, str(ROOT / "bench"))
    from ruling.kb.load import load_kb
    from ruling.search import search

    from synthetic import generate, vocabulary

    rng = random.Random(40)
    words = vocabulary()
    with tempfile.TemporaryDirectory() as work:
        kb = load_kb(generate(Path(work) / "kb", books=20, clauses=500, procedures=200))
        search(kb, "carte")  # builds the index
        times, cpu = [], []
        for _ in range(queries):
            start = rng.randrange(len(words) - 40)
            query = " ".join(words[start:start + 40])  # a run of real text, as pasted
            t, c = time.perf_counter(), time.process_time()
            search(kb, query)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
    print(f"long     40-word queries, {len(kb.clauses())} clauses: median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms over {queries} queries (target < 200); CPU median "
          f"{statistics.median(cpu) * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms")


def load_suite() -> list[dict]:
    import yaml

    return yaml.safe_load(QUERIES.read_text(encoding="utf-8"))["queries"]


def bench_in_process(suite: list[dict]) -> None:
    from ruling.kb.load import load_kb
    from ruling.search import search

    kb = load_kb()
    search(kb, "warm up")
    times, first, top3 = [], 0, 0
    for case in suite:
        start = time.perf_counter()
        hits = [h.ref for h in search(kb, case["query"]).hits]
        times.append(time.perf_counter() - start)
        expected = case.get("expect") or case["expect_any"]
        mode = all if "expect" in case else any
        first += bool(hits) and hits[0] in expected and (mode is any or len(expected) == 1)
        top3 += mode(e in hits[:3] for e in expected)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(f"query    in process: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms over {len(times)} queries")
    n = len(suite)
    print(f"quality  recall@1 {first / n:.1%} ({first}/{n}), recall@3 {top3 / n:.1%} ({top3}/{n})")


def bench_build(repeats: int = 3) -> None:
    from ruling.kb.load import load_kb
    try:
        from ruling.search.index import build_index_dir, documents
        from ruling.search.index import ram_index as _ram_index
    except ImportError:  # the flat module before the package
        from ruling.search import _ram_index, build_index_dir, documents

    kb = load_kb()
    disk, ram = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            docs = documents(kb)
            build_index_dir(Path(tmp), "bench", docs, kb.glossary, [b.id for b in kb.books])
            disk.append(time.perf_counter() - start)
        start = time.perf_counter()
        _ram_index(documents(kb), kb.glossary, [b.id for b in kb.books], "bench")
        ram.append(time.perf_counter() - start)
    print(f"build    on disk: median {statistics.median(disk) * 1000:.0f} ms; in memory: "
          f"median {statistics.median(ram) * 1000:.0f} ms ({len(docs)} entries, {repeats} builds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="process runs (at least 10)")
    parser.add_argument("--module", action="store_true", help="time `python -m ruling` (another checkout)")
    parser.add_argument("--skip-long", action="store_true", help="no synthetic base")
    args = parser.parse_args()
    global MODULE
    MODULE = args.module
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as pycache:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        env.pop("RULING_KB", None)
        os.environ["XDG_CACHE_HOME"] = cache
        bench_process_both(max(10, args.runs), env, pycache)
        bench_cold(5, env)
        bench_in_process(load_suite())
        if not args.skip_long:
            bench_long()
        bench_build()


if __name__ == "__main__":
    main()
