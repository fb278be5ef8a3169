"""Benchmark of the site's search box engine (site/assets/search-engine.js), run in Node.

Prints figures, asserts nothing. Run: `python bench/bench_site_search.py [--runs N]`.
- size: the exported index as the site ships it (assets/javascripts/ruling-search-data.js);
- engine: building the engine from the export (what the first keystroke of a page pays);
- query: a whole suite query, and every prefix of it (what typing costs), median and 95th percentile;
- quality: recall@1 and recall@3 of the site and of `ruling search` on the suite files, and on
  the outside suite's held-out and train parts as `bench/search_quality.py` measures the command
  line (clauses only, the query's book as the house book).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

NODE_TIMER = r"""
const fs = require("fs");
const [engineFile, dataFile, queriesFile, runs] = process.argv.slice(1);
const {Engine} = require(engineFile);
const text = fs.readFileSync(dataFile, "utf8");
const queries = JSON.parse(fs.readFileSync(queriesFile, "utf8"));
const t0 = process.hrtime.bigint();
const engine = new Engine(JSON.parse(text));
const build = Number(process.hrtime.bigint() - t0) / 1e6;
const whole = [], prefix = [];
for (let r = 0; r < Number(runs); r++) {
  for (const q of queries) {
    let t = process.hrtime.bigint();
    engine.search(q, {limit: 10});
    whole.push(Number(process.hrtime.bigint() - t) / 1e6);
    for (let i = 1; i <= q.length; i++) {
      t = process.hrtime.bigint();
      engine.search(q.slice(0, i), {limit: 10});
      prefix.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
}
const top = queries.map((q) => engine.search(q, {limit: 3}).map((h) => h.ref));
process.stdout.write(JSON.stringify({build, whole, prefix, top}));
"""


NODE_RANKER = r"""
const fs = require("fs");
const [engineFile, dataFile, casesFile] = process.argv.slice(1);
const {Engine} = require(engineFile);
const engine = new Engine(JSON.parse(fs.readFileSync(dataFile, "utf8")));
const cases = JSON.parse(fs.readFileSync(casesFile, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([q, options]) => engine.search(q, options).map((h) => h.ref))));
"""


def split_recall(node: str, data: Path, tmp: Path) -> None:
    """recall@1/@3 of the site on the outside suite's parts, beside the command line's."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("search_quality", ROOT / "bench" / "search_quality.py")
    quality = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(quality)
    for part in ("heldout", "train"):
        cases = quality.split(part)
        runs = [[c["query"], {"kind": "clause", "limit": 5, "house": c.get("book")}] for c in cases]
        (tmp / "cases.json").write_text(json.dumps(runs, ensure_ascii=False), encoding="utf-8")
        done = subprocess.run([node, "-e", NODE_RANKER, str(ROOT / "site" / "assets" / "search-engine.js"),
                               str(data), str(tmp / "cases.json")], capture_output=True, text=True, check=True)
        tops = json.loads(done.stdout)
        one = sum(quality.passes(c, refs)[0] for c, refs in zip(cases, tops)) / len(cases)
        three = sum(quality.passes(c, refs)[1] for c, refs in zip(cases, tops)) / len(cases)
        print(f"site, outside suite {part} ({len(cases)}), house book known: recall@1 {one:.1%}, recall@3 {three:.1%}")


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--node", default="/usr/bin/node")
    args = parser.parse_args()

    from test_search_site_parity import suite_cases

    from ruling.kb.load import load_kb
    from ruling.search import search
    from ruling.site.search_index import search_script

    kb = load_kb(None)
    cases = [c for c in suite_cases() if c.get("expect") or c.get("expect_any")]
    script = search_script(kb)
    with tempfile.TemporaryDirectory() as tmp:
        data, queries = Path(tmp) / "data.json", Path(tmp) / "queries.json"
        data.write_text(script[len("window.RULING_SEARCH = "):].rstrip().rstrip(";"), encoding="utf-8")
        queries.write_text(json.dumps([c["query"] for c in cases], ensure_ascii=False), encoding="utf-8")
        done = subprocess.run([args.node, "-e", NODE_TIMER, str(ROOT / "site" / "assets" / "search-engine.js"),
                               str(data), str(queries), str(args.runs)], capture_output=True, text=True, check=True)
        out = json.loads(done.stdout)
        split_recall(args.node, data, Path(tmp))

    def recall(tops):
        first = three = 0
        for case, top in zip(cases, tops):
            wanted = case.get("expect") or case["expect_any"]
            first += bool(top) and top[0] in wanted
            three += all(e in top for e in wanted) if "expect" in case else any(e in top for e in wanted)
        return first / len(cases), three / len(cases)

    cli = [[h.ref for h in search(kb, c["query"], limit=3).hits] for c in cases]
    print(f"export: {len(script.encode()) / 1024:.0f} KiB (ruling-search-data.js)")
    print(f"engine built from the export: {out['build']:.1f} ms")
    print(f"whole query: median {quantile(out['whole'], 0.5):.2f} ms, p95 {quantile(out['whole'], 0.95):.2f} ms"
          f" ({len(out['whole'])} searches)")
    print(f"each keystroke (every prefix): median {quantile(out['prefix'], 0.5):.2f} ms,"
          f" p95 {quantile(out['prefix'], 0.95):.2f} ms ({len(out['prefix'])} searches)")
    site1, site3 = recall(out["top"])
    cli1, cli3 = recall(cli)
    same = sum(a == b for a, b in zip(out["top"], cli))
    print(f"recall@1 / @3 on {len(cases)} queries: site {site1:.1%} / {site3:.1%},"
          f" ruling search {cli1:.1%} / {cli3:.1%}; same top 3 for {same}/{len(cases)}")


if __name__ == "__main__":
    main()
