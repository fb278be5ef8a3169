"""Ranking quality on the outside suite (tests/suites/search_queries_outside.yaml), held-out part.

495 queries written from the source rulebooks by someone who never saw the search; a query is
held out when `int(sha1(query), 16) % 5 == 0`. The search was tuned on the other 80 % only
(bench/search_quality.py prints both parts). Clauses only, the house book as a preference.
A second held-out set, written after that tuning by another outside writer, is measured too (`fresh`).
The issue's targets are recall@1 ≥ 90 % and recall@3 ≥ 97 %; the floors below are the
figures reached (bench/README.md), so a change that loses held-out queries fails here.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: reached 78/101 and 89/101, then 78/101 and 88/101 after the glossary families and keywords of
#: 2026-12-01 (cv 75.0/93.2 -> 75.5/94.5 %), then 77/101 and 88/101 once the tenth reading's new
#: outcomes were indexed (their decisions are procedure text), then 78/101 and 90/101 with the
#: coverage factor (ranking.COVERAGE_POWER, cv 75.5/94.5 -> 79.2/94.9 %). The fifth outside batch
#: (2026-12-02) made it 133 queries: 106/133 and 120/133 before tuning on that batch's training
#: part, 105/133 and 122/133 after (HOUSE_BOOST 5, cv 79.9/94.6 -> 81.8/95.6 %); the targets, 90
#: and 97 %, are NOT met. The sixth (2026-12-03) made it 159: 126/159 and 146/159 before and after
#: the keywords of its training misses (cv 81.0/94.7 -> 81.1/95.1 %), then 134/159 and 148/159 with
#: the training queries searched as phrasings (rulebook/phrasings.yaml; cv 81.4/95.1 -> 83.5/95.9 %).
#: The eighth (2026-12-03, 112/122 and 121/122 before any tuning) made it 187: 157/187 and 175/187
#: once its training part joined the phrasings (cv 83.8/96.3 %); the ninth (100/118 and 111/118
#: before any tuning) made it 211: 177/211 and 198/211 (cv 84.2/95.8 %). The tenth (2026-12-04, 3
#: queries for each clause with at most 2 phrasings: 159/230 and 200/230 before any tuning) made it
#: 249: 210/249 and 237/249 (the 211 earlier ones 179 and 200; cv 80.3/92.9 %, on a harder train set),
#: then 211/249 and 239/249 with PAIR_WEIGHT 0.5 (cv 80.6/93.3 %; the 211: 180 and 202). The eleventh
#: (3 queries for each clause with at most 3 phrasings: 100/166 and 132/166 before any tuning) made it
#: 279: 232/279 and 259/279 once its training part joined the phrasings (the 211: 184 and 201; the
#: eleventh's 30: 16 and 21; cv 78.0/91.5 %), then 232/279 and 261/279 once a bare seat or count
#: (« seat 5 ») no longer named the cash rules of that number (cv unchanged; the 211: 184 and 203).
#: The twelfth (3 queries for each of the 237 clauses: 532/711 and 613/711 before any tuning) made
#: it 409: 337/409 and 376/409 before its training part joined the phrasings, 332/409 and 375/409
#: after (the 279 earlier ones 232 -> 236 and 261 -> 261; the twelfth's 130: 105 -> 96 and 115 -> 114;
#: cv 79.1/91.7 %), then 336/409 and 375/409 without phrases looked for in the phrasings
#: (ranking.PHRASE_FIELDS, cv 79.6/91.7 %; the 279: 238 and 262), then 336/409 and 382/409 with each
#: phrasing compared whole to the query (ranking.SAID_WEIGHT; cv 76.6/89.3 % -> 77.8/89.7 %, the
#: folds' own phrasings now left out whole, 96 of them holding « ; »)
HELD_OUT_AT_1, HELD_OUT_AT_3 = 0.82, 0.93
#: the second held-out set (120 queries): reached 93/120 and 109/120, then 100/120 and 109/120 with the coverage factor,
#: then 100/120 and 111/120 with HOUSE_BOOST 5, then 101/120 and 111/120 with the sixth batch's keywords,
#: then 107/120 and 117/120 with the phrasings, 109/120 and 117/120 with the eighth batch's,
#: 110/120 and 118/120 with the ninth's, the same with the tenth's, 111/120 and 118/120 with the eleventh's,
#: 111/120 and 119/120 with the twelfth's, 113/120 and 118/120 without phrases in the phrasings,
#: 115/120 and 120/120 with each phrasing compared whole (ranking.SAID_WEIGHT); with a thirteenth
#: writer's 87 (84 and 87 of them before joining), 199/207 and 207/207
FRESH_AT_1, FRESH_AT_3 = 0.95, 0.99


def _quality():
    spec = importlib.util.spec_from_file_location("search_quality", ROOT / "bench" / "search_quality.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def quality():
    return _quality()


def test_the_split_is_80_20_and_deterministic(quality):
    cases = quality.split("all")
    held = quality.split("heldout")
    assert len(cases) >= 250 and 0.15 < len(held) / len(cases) < 0.25
    assert {c["query"] for c in held} == {c["query"] for c in cases if quality.held_out(c["query"])}
    assert quality.held_out("regarder les cartes brulees") is False  # sha1 % 5 == 3: train


def test_held_out_recall_with_the_house_book(kb, quality):
    r1, r3 = quality.recall(kb, quality.split("heldout"), house=True)
    print(f"\nheld-out: recall@1 {r1:.1%}, recall@3 {r3:.1%} (house book known)")
    assert r1 >= HELD_OUT_AT_1 and r3 >= HELD_OUT_AT_3


def test_fresh_recall_with_the_house_book(kb, quality):
    """tests/suites/search_queries_fresh.yaml: written by a second outside writer after the tuning of
    e87a6ad (sources only), never tuned on; e87a6ad reached 86/120 at 1 and 106/120 in the top 3.
    A thirteenth writer's 87 joined it on 2026-12-06 (84 and 87 of them before joining)."""
    cases = quality.load(quality.FRESH)
    assert len(cases) == 207
    r1, r3 = quality.recall(kb, cases, house=True)
    print(f"\nfresh: recall@1 {r1:.1%}, recall@3 {r3:.1%} (house book known)")
    assert r1 >= FRESH_AT_1 and r3 >= FRESH_AT_3


def test_the_house_book_is_a_preference_not_a_filter(kb):
    from ruling.search import search

    plain = [h.ref for h in search(kb, "fausse donne", kind="clause", house="", limit=5).hits]
    housed = [h.ref for h in search(kb, "fausse donne", kind="clause", house="tda", limit=5).hits]
    assert plain[:2] == ["club:2-17", "tda:fausses-donnes"] and housed[:2] == ["tda:fausses-donnes", "club:2-17"]
    assert sum(r.startswith("club:") for r in housed) >= 3  # the other books' hits follow
    burn = search(kb, "carte brulee", kind="clause", house="tda", limit=3).hits
    assert [h.book for h in burn] == ["club"] * 3  # a far better clause elsewhere still comes first


def test_recall_counts_a_wrong_first_hit_as_a_miss_at_1(quality):
    assert quality.passes({"expect": ["club:2-5"]}, ["club:2-6", "club:2-5"]) == (False, True)
    assert quality.passes({"expect_any": ["club:2-5", "tda:x"]}, ["tda:x"]) == (True, True)
    assert quality.passes({"expect": ["club:2-5", "club:2-6"]}, ["club:2-5", "club:2-7", "club:2-8"]) == (False, False)


def test_no_held_out_query_is_written_into_keywords(kb, quality):
    """Tuning never saw the held-out queries: none of them is in a clause's keywords (the suite
    ranks clauses only, so procedures' keywords do not reach it)."""
    from ruling.search.analysis import fold

    keywords = [fold(k) for clause in kb.clauses() for k in clause.keywords]
    assert len(keywords) > 100
    leaked = [c["query"] for c in quality.split("heldout")
              if any(fold(c["query"]).strip(" ?!.") in k for k in keywords)]
    # Two queries of the fifth outside batch (2026-12-02) happen to repeat keywords written
    # before that batch existed (tda's keywords at 5d299e1), one of the eleventh (2026-12-04) a
    # keyword of club 9-10 written at 256eaec, seven short ones of the twelfth (2026-12-04) keywords
    # already at 1a1d332, before its writers began (who saw only the sources and the clause list):
    # coincidences, not leaks.
    assert set(leaked) <= WRITTEN_BEFORE_THE_QUERY, leaked


WRITTEN_BEFORE_THE_QUERY = {"all in cartes retournees", "compter le pot", "ou poser ses mises",
                            "carte tombee par terre", "pas de petite blind", "mise devant soi", "jeton impair partage",
                            "vieux jetons retrouves", "joker dans le paquet", "une main un joueur"}


def test_cross_validation_leaves_out_the_keywords_copied_from_the_measured_fold(quality):
    """`search_quality.py cv`: four folds of the training queries; a keyword that repeats a
    query of the fold being measured is left out of that fold's index."""
    train = quality.split("train")
    assert {quality.fold_of(c["query"]) for c in train} == {0, 1, 2, 3}
    assert quality.copied_from("joueur debout quand la dernière carte est donnée",
                               ["le joueur etait debout quand la derniere carte est donnee"])
    assert not quality.copied_from("joueur debout quand la dernière carte est donnée", ["carte brulee au flop"])
    assert quality.grid_settings(["HOUSE_BOOST=1,2", "field.body=3"]) == [
        {"HOUSE_BOOST": 1.0, "field.body": 3.0}, {"HOUSE_BOOST": 2.0, "field.body": 3.0}]
