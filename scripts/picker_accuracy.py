"""Top-1 of the `ruling ask` situation picker on tests/suites/situations_outside.yaml.

The suite is split once, by the words' hash: HELD-OUT when sha1(words) % 5 == 0 (tuning looks
only at the other four fifths). `python scripts/picker_accuracy.py [--misses]` prints both figures;
`--train` prints the training figure only, `cv [--misses]` the estimate to tune by: the training
entries in 4 folds (`sha1("cv:" + words) % 4`), each fold ranked in an index whose procedure
keywords (its own and its cited clauses') copied from that fold's own words, and those words as phrasings (rulebook/phrasings.yaml), are left out (as `bench/search_quality.py cv` does for
clauses), so a fold only gains from what the other entries taught. `fresh` prints the top-1 on
tests/suites/situations_fresh.yaml, a second held-out set written after the tuning (never tuned on).
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent / "tests" / "suites" / "situations_outside.yaml"
FRESH = SUITE.with_name("situations_fresh.yaml")  # a second held-out set, never tuned on


def held_out(words: str) -> bool:
    """The deterministic 20 % the picker is never tuned on."""
    return int(hashlib.sha1(words.encode()).hexdigest(), 16) % 5 == 0


def yaml_entries(path: Path) -> list[dict]:
    """The `situations:` list of a suite file."""
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))["situations"]


def suite() -> list[dict]:
    return yaml_entries(SUITE)


def first_proposals(kb, entries) -> list[tuple[dict, str | None]]:
    """Each entry with the picker's first proposal (`book:id`), the entry's book as house book."""
    from ruling.decide.questionnaire import rank_situations

    out = []
    for entry in entries:
        ranked = rank_situations(kb, entry["words"], entry.get("book"))
        out.append((entry, f"{ranked[0].book}:{ranked[0].id}" if ranked else None))
    return out


def accuracy(kb) -> dict:
    """{"train": (right, total), "held_out": (right, total)} and the misses of each part."""
    result = {"train": [0, 0, []], "held_out": [0, 0, []]}
    for entry, first in first_proposals(kb, suite()):
        part = result["held_out" if held_out(entry["words"]) else "train"]
        part[1] += 1
        if first == entry["expect"]:
            part[0] += 1
        else:
            part[2].append((entry["words"], entry["expect"], first))
    return result


FOLDS = 4


def fold_of(words: str) -> int:
    """The cross-validation fold of a training entry (a hash independent of the 80/20 split)."""
    return int(hashlib.sha1(f"cv:{words}".encode()).hexdigest(), 16) % FOLDS


def cross_validate(kb, misses: list | None = None) -> tuple[int, int]:
    """(right, total) over the training entries, each fold without the keywords copied from it."""
    import importlib.util

    import ruling.search
    from ruling.search.index import default_house, documents, ram_index

    spec = importlib.util.spec_from_file_location("search_quality", SUITE.parents[2] / "bench" / "search_quality.py")
    quality = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(quality)
    train = [e for e in suite() if not held_out(e["words"])]
    right = total = 0
    real_open = ruling.search.open_index
    for k in range(FOLDS):
        fold = [e for e in train if fold_of(e["words"]) == k]
        words = [e["words"] for e in fold]
        docs = documents(kb)
        for doc in docs:
            if doc["kind"] == "procedure":
                doc["phrasings"] = quality.phrasings_without(doc["phrasings"], set(words))
                for name in ("keywords", "cited"):
                    doc[name] = " ; ".join(w for w in doc[name].split(" ; ") if not quality.copied_from(w, words))
        index = ram_index(docs, kb.glossary, [b.id for b in kb.books], f"picker-cv-{k}", default_house(kb))
        ruling.search.open_index = lambda _kb, index=index: index
        try:
            for entry, first in first_proposals(kb, fold):
                total += 1
                right += first == entry["expect"]
                if misses is not None and first != entry["expect"]:
                    misses.append((entry["words"], entry["expect"], first))
        finally:
            ruling.search.open_index = real_open
    return right, total


def main() -> None:
    from ruling.kb.load import load_kb

    args = sys.argv[1:]
    if "cv" in args:
        misses: list = []
        right, total = cross_validate(load_kb(), misses)
        print(f"cv (train, keywords of each fold left out): {right}/{total} = {100 * right / total:.1f} %")
        if "--misses" in args:
            for words, want, got in misses:
                print(f"   {words!r}: attendu {want}, proposé {got}")
        return
    if "fresh" in args:
        entries = yaml_entries(FRESH)
        right = sum(first == entry["expect"] for entry, first in first_proposals(load_kb(), entries))
        print(f"fresh (second held-out set, never tuned on): {right}/{len(entries)} = {100 * right / len(entries):.1f} %")
        return
    result = accuracy(load_kb())
    if "--train" in args:
        result.pop("held_out")
    for name, (right, total, misses) in result.items():
        print(f"{name}: {right}/{total} = {100 * right / total:.1f} %")
        if "--misses" in sys.argv[1:] and name == "train":
            for words, want, got in misses:
                print(f"   {words!r}: attendu {want}, proposé {got}")


if __name__ == "__main__":
    main()
