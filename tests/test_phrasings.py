"""rulebook/phrasings.yaml: what outside TDs and players typed, searched in a field of its own.

It holds the training part of the outside suites and never a word of what is kept for measuring
(the held-out fifth, the fresh suites): the held-out figures stay those of words never seen.
"""
from __future__ import annotations

import sys

import pytest
import yaml

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import learn_phrasings  # noqa: E402  (scripts/ is not a package)

SUITES = ROOT / "tests" / "suites"


def _file() -> dict:
    return yaml.safe_load(learn_phrasings.TARGET.read_text(encoding="utf-8"))


def _all_texts(data: dict) -> set[str]:
    return {w for section in data.values() for words in section.values() for w in words}


def test_every_training_phrasing_is_in_the_file():
    current = _file()
    learned = learn_phrasings.training_phrasings()
    assert learn_phrasings.merged(current, learned) == learn_phrasings.merged(current, {}), \
        "lancez python scripts/learn_phrasings.py"
    assert len(learned["situations"]) > 80 and sum(map(len, learned["clauses"].values())) > 600


def test_nothing_kept_for_measuring_is_in_the_file():
    measured = learn_phrasings.measured_texts()
    assert len(measured) > 400
    assert "j ai echappe une carte sur le plancher" in measured  # fresh, and also in a training batch
    assert not _all_texts(_file()) & measured


def test_the_split_is_the_one_the_measures_use():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import picker_accuracy
        import search_quality
    finally:
        sys.path.pop(0)
    for text in ("carte flashee", "relanse insufisante", "il a dit suivre mais a mis plus", "tete a tete"):
        assert learn_phrasings.held_out(text) == search_quality.held_out(text) == picker_accuracy.held_out(text)


def test_a_phrasing_finds_its_entry_and_its_typos_stay_unknown_words(kb):
    from ruling.search import search
    from ruling.search.index import documents, open_index

    docs = {d["key"]: d for d in documents(kb)}
    said = _file()["situations"]["club:annonce-verbale"]
    assert docs["procedure:club:annonce-verbale"]["phrasings"].split("\n") == said
    assert docs["clause:club:9-2"]["phrasings"]
    # « paqet » is typed in phrasings (« deux as de pique dans le paqet ») but is no word of the
    # rulebook: it is still corrected to « paquet »
    assert "paqet" in " ".join(_all_texts(_file()))
    assert not open_index(kb).knows("paqet")
    assert search(kb, "paqet", house="cash", kind="clause").hits


@pytest.mark.parametrize("content, message", [
    ('situations:\n  "club:nulle-part":\n    - "mots"\n',
     "situations.club:nulle-part : procédure inconnue ; attendu livre:id d'une procédure de la base"),
    ('clauses:\n  "club:99-99":\n    - "mots"\n',
     "clauses.club:99-99 : règle inconnue ; attendu livre:id d'une règle de la base"),
])
def test_a_phrasing_for_an_unknown_entry_is_a_problem_of_the_base(run, kb_copy, content, message):
    (kb_copy / "phrasings.yaml").write_text(content, encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1
    assert f"rulebook/phrasings.yaml:3: {message}" in result.output  # the line of its first phrasing


def test_a_phrasing_that_is_not_text_is_refused_by_the_schema(run, kb_copy):
    (kb_copy / "phrasings.yaml").write_text('situations:\n  "club:annonce-verbale": [12]\n', encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1 and "phrasings.yaml" in result.output
