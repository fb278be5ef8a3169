"""Add the training part of the outside suites to rulebook/phrasings.yaml (what people typed).

`python scripts/learn_phrasings.py [--check]`

The search index holds these phrasings in a field of their own (`phrasings`), so an entry is
found by the words outside TDs and players used for it, not only by the rulebook's. Only the
training part goes in: the held-out fifth of tests/suites/search_queries_outside.yaml and
situations_outside.yaml (the same hash split as bench/search_quality.py and
scripts/picker_accuracy.py) and the fresh suites never do, so the held-out figures stay measures
of words never seen (tests/test_phrasings.py checks both). Phrasings already in the file (one a
rule editor wrote by hand) are kept. `--check` writes nothing: exit 1 when the file lacks some.
"""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "rulebook" / "phrasings.yaml"
SEARCH_SUITE = ROOT / "tests" / "suites" / "search_queries_outside.yaml"
SITUATION_SUITE = ROOT / "tests" / "suites" / "situations_outside.yaml"
FRESH_SUITES = (ROOT / "tests" / "suites" / "situations_fresh.yaml", ROOT / "tests" / "suites" / "search_queries_fresh.yaml")
HEADER = """\
# yaml-language-server: $schema=schema/phrasings.schema.json
# Les mots des gens : ce que des TD et des joueurs extérieurs au projet ont tapé pour trouver une
# situation (`ruling ask`) ou une règle (`ruling search`), fautes comprises. La recherche les lit
# dans un champ à part (`phrasings`) ; ils ne sont jamais affichés. Ajoutés par
# scripts/learn_phrasings.py depuis la partie d'entraînement de tests/suites/ (jamais la partie
# réservée à la mesure) ; on peut en ajouter à la main.
"""


def held_out(text: str) -> bool:
    """The 80/20 split of both outside suites (bench/search_quality.py, scripts/picker_accuracy.py)."""
    return int(hashlib.sha1(text.encode()).hexdigest(), 16) % 5 == 0


def _entries(path: Path) -> list[dict]:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data.get("situations") or data.get("queries") or []


def _text(entry: dict) -> str:
    return entry.get("words") or entry.get("query") or ""


def measured_texts() -> set[str]:
    """What is kept for measuring: the held-out fifth of both outside suites, the fresh suites."""
    held = {_text(e) for path in (SITUATION_SUITE, SEARCH_SUITE) for e in _entries(path) if held_out(_text(e))}
    return held | {_text(e) for path in FRESH_SUITES for e in _entries(path)}


def training_phrasings() -> dict[str, dict[str, list[str]]]:
    """{"situations": {book:procedure: [words]}, "clauses": {citation: [query]}} of the training
    parts, without a text that is also kept for measuring (a query two writers both wrote)."""
    measured = measured_texts()
    out: dict[str, dict[str, list[str]]] = {"situations": {}, "clauses": {}}
    for entry in _entries(SITUATION_SUITE):
        if entry["words"] not in measured:
            out["situations"].setdefault(entry["expect"], []).append(entry["words"])
    for case in _entries(SEARCH_SUITE):
        if case["query"] not in measured:
            for citation in case.get("expect") or case.get("expect_any") or []:
                out["clauses"].setdefault(citation, []).append(case["query"])
    return out


def merged(current: dict, learned: dict) -> dict:
    """`current` plus what `learned` adds, each list without repeats, the targets sorted."""
    out = {}
    for section in ("situations", "clauses"):
        both: dict[str, list[str]] = {}
        for source in (current.get(section) or {}, learned.get(section) or {}):
            for target, words in source.items():
                both.setdefault(target, [])
                both[target] += [w for w in words if w not in both[target]]
        out[section] = dict(sorted(both.items()))
    return out


def render(data: dict) -> str:
    import json

    lines = [HEADER.rstrip("\n")]
    for section in ("situations", "clauses"):
        lines.append(f"{section}:")
        for target, words in data[section].items():
            lines.append(f"  {json.dumps(target)}:")
            lines += [f"    - {json.dumps(w, ensure_ascii=False)}" for w in words]
    return "\n".join(lines) + "\n"


def main() -> int:
    import yaml

    current = yaml.safe_load(TARGET.read_text(encoding="utf-8")) if TARGET.exists() else {}
    data = merged(current or {}, training_phrasings())
    if data == merged(current or {}, {}):
        print("phrasings.yaml : à jour")
        return 0
    if "--check" in sys.argv[1:]:
        print("phrasings.yaml : il manque des formulations d'entraînement ; lancez python scripts/learn_phrasings.py")
        return 1
    fd, tmp = tempfile.mkstemp(dir=TARGET.parent, prefix=".phrasings-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(render(data))
    os.replace(tmp, TARGET)
    print(f"phrasings.yaml : {sum(map(len, data['situations'].values()))} formulations de situations, "
          f"{sum(map(len, data['clauses'].values()))} de règles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
