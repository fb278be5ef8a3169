"""Benchmark of `ruling diff` on two synthetic editions of 5,000 clauses each.

    python bench/bench_diff.py [--clauses 5000] [--seed 11] [--repeat 3]

The new edition plants known changes in the old one: 10% edited in place, 5% renumbered
(half of them lightly edited too), 2% removed, 2% added. Renumbered clauses partly take the
numbers of removed clauses, and added clauses partly take the numbers freed by renumbered ones,
so pairing by number alone would be wrong; 20% of clauses are near-duplicates of one another
(variants of a few model clauses), as in real rulebooks. Prints the time of the diff, the peak memory of
the pairing, and the precision and recall of the planted pairs (target: under 5 s).
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruling.diff.revisions import Side, diff_sides  # noqa: E402
from ruling.kb.model import Chapter, Clause  # noqa: E402

PER_CHAPTER = 50


def vocabulary() -> list[str]:
    """Words of the real rulebooks, with their frequencies (so rare and common words both occur)."""
    words = []
    for path in sorted((ROOT / "rulebook").glob("*/source.txt")):
        words += re.findall(r"[A-Za-zÀ-ÿ’']+", path.read_text(encoding="utf-8"))
    return words


def sentence(rng: random.Random, words: list[str]) -> list[str]:
    return [rng.choice(words) for _ in range(rng.randint(12, 40))]


def edit(rng: random.Random, words: list[str], vocab: list[str], low: float, high: float) -> list[str]:
    """Replace, insert or delete a fraction of the words (at least one change)."""
    out = list(words)
    for _ in range(max(1, round(len(out) * rng.uniform(low, high)))):
        k = rng.randrange(len(out))
        op = rng.random()
        if op < 0.6:
            out[k] = rng.choice(vocab)
        elif op < 0.8:
            out.insert(k, rng.choice(vocab))
        elif len(out) > 5:
            del out[k]
    return out if out != words else out + [rng.choice(vocab)]


def text(words: list[str]) -> str:
    return " ".join(words).capitalize() + "."


def make_side(name: str, clauses: list[tuple[str, str]]) -> Side:
    chapters: dict[str, list[Clause]] = {}
    for cid, body in clauses:
        ch = cid.split("-")[0]
        chapters.setdefault(ch, []).append(Clause(book="synth", revision=name, chapter=ch, id=cid, text=body))
    return Side(name=name, book="synth", title=name,
                chapters=[Chapter(id=ch, title=None, clauses=cl) for ch, cl in chapters.items()])


def plant(n: int, seed: int, similar: float = 0.2):
    """Two editions and the truth: {old id: (new id or None, status)} and {new id: status} for additions."""
    rng = random.Random(seed)
    vocab = vocabulary()
    old_ids = [f"{1 + k // PER_CHAPTER}-{1 + k % PER_CHAPTER}" for k in range(n)]
    # a share of near-duplicates (variants of a few model clauses), as real rulebooks have
    models = [sentence(rng, vocab) for _ in range(max(1, round(n * similar / 10)))]
    old_words = {cid: edit(rng, rng.choice(models), vocab, 0.15, 0.35) if rng.random() < similar
                 else sentence(rng, vocab) for cid in old_ids}
    order = list(old_ids)
    rng.shuffle(order)
    n_edit, n_move, n_gone, n_new = (round(n * f) for f in (0.10, 0.05, 0.02, 0.02))
    edited = order[:n_edit]
    moved = order[n_edit:n_edit + n_move]
    removed = order[n_edit + n_move:n_edit + n_move + n_gone]
    truth: dict[str, tuple[str | None, str]] = {cid: (cid, "unchanged") for cid in old_ids}
    new: dict[str, list[str]] = {cid: old_words[cid] for cid in old_ids}
    for cid in edited:
        new[cid] = edit(rng, old_words[cid], vocab, 0.1, 0.3)
        truth[cid] = (cid, "modified")
    for cid in removed:
        del new[cid]
        truth[cid] = (None, "removed")
    fresh = iter(f"{1 + k // PER_CHAPTER}-{1 + k % PER_CHAPTER}" for k in range(n, 3 * n))
    freed_by_removal = list(removed)
    freed_by_moves = []
    for k, cid in enumerate(moved):
        target = freed_by_removal.pop() if k % 5 < 2 and freed_by_removal else next(fresh)
        body = new.pop(cid)
        new[target] = edit(rng, body, vocab, 0.05, 0.15) if k % 2 else body
        truth[cid] = (target, "renumbered")
        freed_by_moves.append(cid)
    added = {}
    for k in range(n_new):
        target = freed_by_moves.pop() if k % 2 and freed_by_moves else next(fresh)
        new[target] = sentence(rng, vocab)
        added[target] = "added"
    old_side = make_side("ancienne", [(cid, text(old_words[cid])) for cid in old_ids])
    new_side = make_side("nouvelle", [(cid, text(words)) for cid, words in new.items()])
    return old_side, new_side, truth, added


def score(result, truth, added):
    """Precision and recall of the planted change pairs, and the share of planted statuses found."""
    predicted = {(c.old.id if c.old else None, c.new.id if c.new else None): c.status for c in result.changes}
    planted_old = {o for o, (_, st) in truth.items() if st != "unchanged"}
    true_pairs = {(o, nw) for o, (nw, st) in truth.items() if st in ("modified", "renumbered")}
    got_pairs = {(o, nw) for (o, nw) in predicted if o is not None and nw is not None
                 and (o in planted_old or nw in added or (o, nw) in true_pairs)}
    hits = len(got_pairs & true_pairs)
    precision = hits / len(got_pairs) if got_pairs else 1.0
    recall = hits / len(true_pairs) if true_pairs else 1.0
    status_of_old = {o: st for (o, _), st in predicted.items() if o is not None}
    status_of_new = {nw: st for (_, nw), st in predicted.items() if nw is not None}
    planted = [(status_of_old.get(o), st) for o, (_, st) in truth.items() if st != "unchanged"]
    planted += [(status_of_new.get(nw), st) for nw, st in added.items()]
    right = sum(1 for got, want in planted if got == want)
    all_pairs = {(o, nw) for o, (nw, _) in truth.items() if nw is not None}
    got_all = {(o, nw) for (o, nw) in predicted if o is not None and nw is not None}
    return {"precision": precision, "recall": recall, "status_accuracy": right / len(planted),
            "all_pairs_precision": len(got_all & all_pairs) / len(got_all),
            "all_pairs_recall": len(got_all & all_pairs) / len(all_pairs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clauses", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--similar", type=float, default=0.2,
                        help="part des règles qui sont des variantes proches d'une autre (0,2 par défaut)")
    args = parser.parse_args()
    old, new, truth, added = plant(args.clauses, args.seed, args.similar)
    n_new = len(new.clauses())
    print(f"éditions synthétiques : {len(old.clauses())} règles avant, {n_new} après")
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = diff_sides(old, new)
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    diff_sides(old, new)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    figures = score(result, truth, added)
    counts = result.counts()
    print("statuts trouvés : " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"temps du diff : médiane {statistics.median(times):.2f} s, meilleur {min(times):.2f} s "
          f"sur {args.repeat} essais (objectif < 5 s)")
    print(f"mémoire de pointe du diff : {peak / 2**20:.1f} Mo "
          f"(une matrice de similarité complète aurait {len(old.clauses()) * n_new / 1e6:.0f} M cases)")
    print(f"paires plantées (modifiées + renumérotées) : précision {figures['precision']:.4f}, "
          f"rappel {figures['recall']:.4f}")
    print(f"statut juste pour {100 * figures['status_accuracy']:.2f} % des règles plantées ; "
          f"toutes paires : précision {figures['all_pairs_precision']:.4f}, rappel {figures['all_pairs_recall']:.4f}")


if __name__ == "__main__":
    main()
