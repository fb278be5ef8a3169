"""Top-1 of the `ruling ask` situation picker on tests/suites/situations_outside.yaml.

The suite is split once, by the words' hash: HELD-OUT when sha1(words) % 5 == 0 (tuning looks
only at the other four fifths). `python scripts/picker_accuracy.py [--misses]` prints both figures.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent / "tests" / "suites" / "situations_outside.yaml"


def held_out(words: str) -> bool:
    """The deterministic 20 % the picker is never tuned on."""
    return int(hashlib.sha1(words.encode()).hexdigest(), 16) % 5 == 0


def suite() -> list[dict]:
    import yaml

    return yaml.safe_load(SUITE.read_text(encoding="utf-8"))["situations"]


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


def main() -> None:
    from ruling.kb.load import load_kb

    result = accuracy(load_kb())
    for name, (right, total, misses) in result.items():
        print(f"{name}: {right}/{total} = {100 * right / total:.1f} %")
        if "--misses" in sys.argv[1:] and name == "train":
            for words, want, got in misses:
                print(f"   {words!r}: attendu {want}, proposé {got}")


if __name__ == "__main__":
    main()
