"""Generate a synthetic knowledge base the size of a federation, for the benchmarks.

    python bench/synthetic.py OUT_DIR [--books 20] [--clauses 500] [--procedures 200]

Clause texts are made of the real rulebooks' vocabulary so search and diff see French text;
each book has chapters of 50 clauses, refs between clauses and procedures citing them.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import re
import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "rulebook"
SCHEMA = "# yaml-language-server: $schema=../schema/{}.schema.json\n"


def vocabulary() -> list[str]:
    words = []
    for path in RULEBOOK.glob("*/source.txt"):
        words += re.findall(r"[A-Za-zÀ-ÿ']{3,}", path.read_text(encoding="utf-8"))
    return words


def sentence(rng: random.Random, words: list[str], n: int) -> str:
    return " ".join(rng.choice(words) for _ in range(n)).capitalize() + "."


def generate(out: Path, books: int = 20, clauses: int = 500, procedures: int = 200, seed: int = 7) -> Path:
    rng = random.Random(seed)
    words = vocabulary()
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(RULEBOOK / "schema", out / "schema")
    per_book_procs = max(1, procedures // books)
    for b in range(1, books + 1):
        book_id = f"livre{b:02d}"
        bdir = out / book_id
        bdir.mkdir(parents=True)
        (bdir / "source.txt").write_text("synthétique\n", encoding="utf-8")
        (bdir / "book.yaml").write_text(SCHEMA.format("book") + yaml.safe_dump({
            "id": book_id, "title": f"Règlement synthétique {b}", "kind": "tournament", "source": "source.txt",
            "labels": "id", "revisions": [{"id": "v1", "title": "Édition unique", "path": ".", "source": "source.txt"}],
        }, allow_unicode=True, sort_keys=False), encoding="utf-8")
        ids, texts = [], {}
        chapters = max(1, clauses // 50)
        for ch in range(1, chapters + 1):
            items = []
            for n in range(1, 51):
                cid = f"{ch}-{n}"
                ids.append(cid)
                clause = {"id": cid, "text": sentence(rng, words, rng.randint(12, 60)),
                          "kind": "normative", "topics": [rng.choice(words).lower(), rng.choice(words).lower()]}
                if len(ids) > 1 and rng.random() < 0.05:
                    target = rng.choice(ids[:-1])
                    clause["text"] += f" (cf {target})"
                    clause["refs"] = [target]
                texts[cid] = clause["text"]
                items.append(clause)
            (bdir / f"{ch:02d}-chapitre.yaml").write_text(SCHEMA.format("chapter") + yaml.safe_dump(
                {"chapter": str(ch), "title": f"CHAPITRE {ch}", "clauses": items}, allow_unicode=True,
                sort_keys=False, width=100), encoding="utf-8")
        pdir = bdir / "procedures"
        pdir.mkdir()
        for p in range(1, per_book_procs + 1):
            cites = [f"{c}#{hashlib.sha256(texts[c].encode()).hexdigest()[:6]}" for c in rng.sample(ids, 3)]
            proc = {
                "id": f"situation-{p}", "situation": f"situation-{p}", "title": sentence(rng, words, 4)[:-1],
                "keywords": [rng.choice(words).lower() for _ in range(4)],
                "questions": {
                    "cas": {"text": "Quel est le cas ?", "choices": {"a": "Premier cas", "b": "Second cas"}},
                    "volontaire": {"text": "Est-ce volontaire ?", "type": "bool"},
                },
                "rules": [
                    {"when": {"cas": "a"}, "outcome": "premier", "decision": sentence(rng, words, 10), "cites": [cites[0]]},
                    {"when": {"cas": "b", "volontaire": True}, "outcome": "second-volontaire",
                     "decision": sentence(rng, words, 10), "cites": [cites[1]]},
                    {"when": {"cas": "b", "volontaire": False}, "outcome": "second-involontaire",
                     "decision": sentence(rng, words, 10), "cites": [cites[2]]},
                ],
            }
            (pdir / f"situation-{p}.yaml").write_text("# yaml-language-server: $schema=../../schema/procedure.schema.json\n"
                                                       + yaml.safe_dump(proc, allow_unicode=True, sort_keys=False),
                                                       encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--books", type=int, default=20)
    parser.add_argument("--clauses", type=int, default=500)
    parser.add_argument("--procedures", type=int, default=200)
    args = parser.parse_args()
    generate(args.out, args.books, args.clauses, args.procedures)
    print(f"{args.out}: {args.books} livres × {args.clauses} règles, {args.procedures} procédures")


if __name__ == "__main__":
    main()
