"""Eight `ruling search` processes started together on a cold cache all succeed alike.

Each may build the index in its own temporary directory; one rename wins, the others use
the winner's index. Afterwards the cache holds one finished index and no temporary left.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each child waits for the same start time, so that all eight meet the cold cache together.
CHILD = """
import sys, time
start = float(sys.argv[1])
time.sleep(max(0.0, start - time.time()))
from ruling.cli import main
sys.argv = ["ruling", "search", "relanse", "insufisante", "--json", "--limit", "5"]
main()
"""


def _start_together(n: int, env: dict) -> list[subprocess.Popen]:
    start = time.time() + 2.0
    return [subprocess.Popen([sys.executable, "-c", CHILD, str(start)], env=env, cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(n)]


def test_eight_cold_searches_at_once_all_succeed_with_the_same_hits(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("RULING_KB", None)
    procs = _start_together(8, env)
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        outputs.append(json.loads(out))
    assert all(o == outputs[0] for o in outputs)
    assert "club:9-9" in [h.get("citation") for h in outputs[0]["hits"][:3]]
    cache = tmp_path / "cache" / "ruling"
    indexes = [p for p in cache.iterdir() if p.name.startswith("index-")]
    assert len(indexes) == 1 and (indexes[0] / "ruling-index.ok").is_file()
    assert not [p for p in cache.iterdir() if p.name.startswith(".")]  # every temporary removed


def test_concurrent_searches_after_damage_all_succeed(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("RULING_KB", None)
    subprocess.run([sys.executable, "-m", "ruling", "search", "relance"], env=env, cwd=ROOT,
                   check=True, capture_output=True)
    [index] = [p for p in (tmp_path / "cache" / "ruling").iterdir() if p.name.startswith("index-")]
    for f in index.iterdir():
        if f.suffix in (".toc", ".seg"):
            f.write_bytes(b"garbage")
    procs = _start_together(3, env)
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        outputs.append(json.loads(out))
    assert all(o == outputs[0] for o in outputs)
    assert "club:9-9" in [h.get("citation") for h in outputs[0]["hits"][:3]]


# A process building indexes in memory (no usable cache directory, the benches' folds), many times.
RAM_CHILD = """
import sys, time
start = float(sys.argv[1])
from ruling.kb.load import load_kb
from ruling.search.index import documents, ram_index
docs = documents(load_kb())[:40]
time.sleep(max(0.0, start - time.time()))
for _ in range(60):
    ram_index(docs, [], ["b"], "ram-test")
"""


def test_indexes_built_in_memory_by_two_processes_at_once_do_not_collide(tmp_path):
    """whoosh spills a memory segment through <tmp>/<index name>.tmp: with one name for every process,
    two builds at once deleted each other's files (FileNotFoundError in a bench run)."""
    env = dict(os.environ, TMPDIR=str(tmp_path))
    start = time.time() + 1.5
    procs = [subprocess.Popen([sys.executable, "-c", RAM_CHILD, str(start)], env=env, cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    errors = [proc.communicate(timeout=300)[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0], errors
