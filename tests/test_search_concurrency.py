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
