"""The site's search engine (site/assets/search-engine.js) gives `ruling search`'s answers.

Run in Node (/usr/bin/node), without a browser: the index exported for the site
(`ruling.site.search_index.search_export`) and the suite queries go in, the JS top 3 must be the
Python top 3 (same entries, same order, same scores to the thousandth), on the suites and on
clause titles mangled as people type (typos, no accents, plurals). Also: the browser's copy of
whoosh's French stemmer stems every word as whoosh does, the ranking constants come from the
export (changed in Python, the site follows), and the questionnaire's picker finds the
situations the old every-word filter missed.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from ruling.search import index as index_module
from ruling.search import ranking as search_module
from ruling.search import search
from ruling.site.search_index import search_export

TESTS = Path(__file__).parent
ENGINE = TESTS.parent / "site" / "assets" / "search-engine.js"
STEMMER = TESTS.parent / "site" / "assets" / "search-stemmer.js"
DRIVER = TESTS / "search_parity.js"
NODE = os.environ.get("RULING_NODE") or shutil.which("node") or "/usr/bin/node"
SUITE_FILES = [TESTS / "search_queries.yaml", TESTS / "suites" / "search_queries_outside.yaml",
               TESTS / "suites" / "search_queries_fresh.yaml"]

pytestmark = pytest.mark.skipif(not Path(NODE).is_file(), reason=f"node absent ({NODE}) : apt-get install nodejs")


def suite_cases(files: list[Path] = SUITE_FILES) -> list[dict]:
    """The query suites' cases ({query, expect | expect_any}) of the suite files present."""
    cases = []
    for path in files:
        if path.is_file():
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            cases += [c for c in (data["queries"] if isinstance(data, dict) else data) if c.get("query")]
    return cases


ISSUE_QUERIES = ["carte brulee", "maldone", "relanse insufisante", "tete a tete", "brulees", "9-13",
                 "club:2-17", "flop sans carte brulee", "un joueur donne des jetons a un autre",
                 "regle 9-13", "article 9.13", "art. 9.13 relance", "regle 14.8-bis",
                 "le siege 3 a fait tapis", "seat 5 a mis 300", "article 5", "regle 5 9"]


def run_js(tmp_path: Path, data: dict, queries: list[str], **options) -> list[list[dict]]:
    (tmp_path / "data.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "queries.json").write_text(json.dumps(queries, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "options.json").write_text(json.dumps(options), encoding="utf-8")
    done = subprocess.run([NODE, str(DRIVER), str(ENGINE), *(str(tmp_path / n) for n in
                           ("data.json", "queries.json", "options.json"))],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def py_top(kb, query: str, limit: int = 3, **options) -> list[tuple]:
    return [(h.kind, h.ref, h.book, h.score) for h in search(kb, query, limit=limit, **options).hits]


def differences(kb, js: list[list[dict]], queries: list[str], limit=3, **options) -> list[str]:
    out = []
    for query, hits in zip(queries, js):
        python = py_top(kb, query, limit, **options)
        site = [(h["kind"], h["ref"], h["book"], h["score"]) for h in hits]
        same = [p[:3] for p in python] == [s[:3] for s in site] and all(
            abs(p[3] - s[3]) <= 0.0011 for p, s in zip(python, site))
        if not same:
            out.append(f"{query!r}: ruling search {python} / site {site}")
    return out


@pytest.fixture(scope="module")
def export(kb):
    return search_export(kb)


def test_suite_queries_top3_is_the_command_lines(kb, export, tmp_path):
    queries = [c["query"] for c in suite_cases()] + ISSUE_QUERIES
    assert len(queries) >= 90
    diff = differences(kb, run_js(tmp_path, export, queries, limit=3), queries)
    assert not diff, f"{len(diff)} sur {len(queries)} requêtes diffèrent :\n" + "\n".join(diff)


def mangled_queries(kb, count: int, seed: int) -> list[str]:
    """A few words of clause titles and texts as people type them: accents dropped, a letter
    missed, doubled, swapped or wrong, a plural "s" (deterministic for a seed)."""
    from ruling.search.analysis import fold

    rnd = random.Random(seed)
    clauses = list(kb.clauses())
    out = []
    while len(out) < count:
        clause = rnd.choice(clauses)
        words = [w.strip(".,:;()«»!?") for w in (clause.title or clause.text).split()]
        words = [w for w in words if w]
        if not words:
            continue
        n = rnd.randint(1, min(5, len(words)))
        start = rnd.randint(0, len(words) - n)
        query = []
        for word in words[start:start + n]:
            word = fold(word) if rnd.random() < 0.7 else word
            if len(word) >= 5 and rnd.random() < 0.35:
                i = rnd.randrange(1, len(word) - 1)
                word = rnd.choice([word[:i] + word[i + 1:], word[:i] + word[i] + word[i:],
                                   word[:i] + rnd.choice("aeioustnrlc") + word[i + 1:],
                                   word[:i] + word[i + 1] + word[i] + word[i + 2:]])
            elif rnd.random() < 0.15:
                word += "s"
            query.append(word)
        out.append(" ".join(query))
    return out


def test_mangled_queries_top3_is_the_command_lines(kb, export, tmp_path):
    """Words found nowhere in the rulebook go through the browser's stemmer and typo search."""
    queries = mangled_queries(kb, 300, seed=11)
    diff = differences(kb, run_js(tmp_path, export, queries, limit=3), queries)
    assert not diff, f"{len(diff)} sur {len(queries)} requêtes diffèrent :\n" + "\n".join(diff[:20])


def test_browser_stemmer_is_whooshs(kb, tmp_path):
    """Every word of the rulebook, folded or not, and mangled or inflected forms of it."""
    from whoosh.lang import stemmer_for_language

    from ruling.search.analysis import fold, words

    snowball = stemmer_for_language("fr")
    rnd = random.Random(3)
    seen: set[str] = set()
    for clause in kb.clauses():
        for word, _, _ in words(clause.full_text):
            seen |= {word.lower(), fold(word)}
    for word in sorted(seen):
        for ending in ("s", "es", "ent", "ement", "ation", "euse", "ions", "aient", "issement", "ité", "ive"):
            seen.add(word + ending)
        if len(word) > 3:
            i = rnd.randrange(len(word))
            seen |= {word[:i] + word[i + 1:], word[:i] + rnd.choice("aeiouyst") + word[i:]}
    vocabulary = sorted(seen)
    assert len(vocabulary) > 20000
    (tmp_path / "words.json").write_text(json.dumps(vocabulary, ensure_ascii=False), encoding="utf-8")
    script = (f"const {{stem}} = require({json.dumps(str(STEMMER))});"
              f"const ws = JSON.parse(require('fs').readFileSync({json.dumps(str(tmp_path / 'words.json'))}, 'utf8'));"
              "process.stdout.write(JSON.stringify(ws.map(stem)));")
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    stems = json.loads(done.stdout)
    differ = [(w, snowball(w), s) for w, s in zip(vocabulary, stems) if snowball(w) != s]
    assert not differ, f"{len(differ)} mots : " + repr(differ[:20])


def test_filters_and_snippets_are_the_command_lines(kb, export, tmp_path):
    queries = ["carte brulee", "relanse insufisante", "maldone", "jetons"]
    js = run_js(tmp_path, export, queries, limit=5, book="cash")
    assert not differences(kb, js, queries, 5, book="cash")
    js = run_js(tmp_path, export, queries, limit=5, kind="procedure")
    assert not differences(kb, js, queries, 5, kind="procedure")
    js = run_js(tmp_path, export, queries, limit=3)
    for query, hits in zip(queries, js):
        assert [h["snippet"] for h in hits] == [h.snippet for h in search(kb, query, limit=3).hits]


def test_ranking_constants_come_from_the_export(kb, tmp_path, monkeypatch):
    """Changed on the command line, a weight changes the site's ranking the same way."""
    queries = ["carte brulee", "jetons sur la table", "overchip", "tete a tete", "flop"]
    before = run_js(tmp_path, search_export(kb), queries, limit=3)
    monkeypatch.setitem(search_module.FIELD_BOOSTS, "title", 0.2)
    monkeypatch.setitem(search_module.FIELD_BOOSTS, "body", 4.0)
    monkeypatch.setattr(search_module, "PROCEDURE_WEIGHT", 0.3)
    monkeypatch.setattr(index_module, "_OPEN", {})  # the entry factors are set when a searcher opens
    after = run_js(tmp_path, search_export(kb), queries, limit=3)
    assert after != before
    assert not differences(kb, after, queries)


def test_coverage_factor_is_the_command_lines(kb, tmp_path, monkeypatch):
    """The share of the query's concepts an entry matches (ranking.COVERAGE_POWER), and no
    factor at all (0), order the site's hits as they order the command line's."""
    queries = [c["query"] for c in suite_cases()][:60] + ISSUE_QUERIES
    for power in (0.0, 2.0):
        monkeypatch.setattr(search_module, "COVERAGE_POWER", power)
        diff = differences(kb, run_js(tmp_path, search_export(kb), queries, limit=5), queries, 5)
        assert not diff, f"COVERAGE_POWER={power}: " + "\n".join(diff[:10])


def test_issue_queries_find_their_clause(export, tmp_path):
    wanted = {"carte brulee": "club:2-5", "maldone": "club:2-17", "relanse insufisante": "club:9-9"}
    js = run_js(tmp_path, export, [*wanted, "tete a tete"], limit=3)
    for (query, citation), hits in zip(wanted.items(), js):
        assert citation in [h["ref"] for h in hits], (query, hits)
    # the house book's (club) two tête-à-tête clauses, then the situation's procedure (or tda's clause)
    heads_up = {"club:8-16", "club:8-17", "tda:bouton-en-tete-a-tete", "tete-a-tete"}
    assert {h["ref"] for h in js[-1]} <= heads_up and js[-1][0]["ref"] == "club:8-16", js[-1]


def test_questionnaire_picker_finds_what_every_word_missed(export, tmp_path):
    """The picker ranks procedures with the engine (every book's, no one per situation)."""
    queries = ["flop sans carte brulee", "un joueur donne des jetons a un autre"]
    js = run_js(tmp_path, export, queries, kind="procedure", limit=1000, allProcedures=True)
    assert js[0][0]["ref"] == "flop-irregulier", js[0][:3]
    assert js[1][0]["ref"] == "donner-des-jetons", js[1][:3]
    assert all(h["kind"] == "procedure" for hits in js for h in hits)


def test_said_factor_is_the_command_lines(kb, tmp_path, monkeypatch):
    """How well one of an entry's phrasings says the query (ranking.SAID_WEIGHT) orders the site's
    hits as it orders the command line's, and it does reorder them."""
    queries = [c["query"] for c in suite_cases()][:80] + ISSUE_QUERIES
    tops = {}
    for weight in (0.0, 12.0):
        monkeypatch.setattr(search_module, "SAID_WEIGHT", weight)
        js = run_js(tmp_path, search_export(kb), queries, limit=5)
        diff = differences(kb, js, queries, 5)
        assert not diff, f"SAID_WEIGHT={weight}: " + "\n".join(diff[:10])
        tops[weight] = [[h["ref"] for h in hits[:3]] for hits in js]
    assert sum(a != b for a, b in zip(tops[0.0], tops[12.0])) >= 5
