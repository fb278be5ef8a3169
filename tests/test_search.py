"""`ruling search`: what a tournament director types, and what must come back.

The query suite (tests/search_queries.yaml) measures recall; the other tests pin the
behaviours it relies on: French analysis, glossary synonyms, typo tolerance that keeps
exact words first, printed numbers, filters, suggestions, any input accepted, and the
on-disk index cache (reused, rebuilt when damaged, in memory when it cannot be written).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruling.search import index as search_module
from ruling.search import search
from ruling.search.analysis import analyze, fold

SUITE = yaml.safe_load((Path(__file__).parent / "search_queries.yaml").read_text(encoding="utf-8"))["queries"]


def refs(result, n=3):
    return [h.ref for h in result.hits[:n]]


# -- the query suite ---------------------------------------------------------------------------

def _top3_ok(case, hits):
    if "expect" in case:
        return all(e in hits[:3] for e in case["expect"])
    return any(e in hits[:3] for e in case["expect_any"])


def test_query_suite_recall_at_3_is_at_least_95_percent(kb):
    assert len(SUITE) >= 40
    misses, first = [], 0
    for case in SUITE:
        hits = refs(search(kb, case["query"]), 3)
        expected = case.get("expect") or case["expect_any"]
        first += bool(hits) and hits[0] in expected
        if not _top3_ok(case, hits):
            misses.append(f"{case['query']!r}: attendu {expected}, obtenu {hits}")
    recall3 = 1 - len(misses) / len(SUITE)
    print(f"\nrecall@1 {first / len(SUITE):.1%}, recall@3 {recall3:.1%} sur {len(SUITE)} requêtes")
    assert recall3 >= 0.95, "\n".join(misses)


@pytest.mark.parametrize("query, citation", [
    ("carte brulee oubliee au flop", "club:2-5"),
    ("relanse insufisante", "club:9-9"),
    ("overchip", "club:9-18"),
    ("heads-up blinds", "club:8-16"),
    ("maldonne", "club:2-17"),
])
def test_the_issue_examples_find_their_clause_in_the_top_3(kb, query, citation):
    assert citation in refs(search(kb, query))


@pytest.mark.parametrize("query, first", [  # issue 15: queries seen failing elsewhere, house book club
    ("joueur pas assis pendant la distribution", "club:2-18"),
    ("montrer ses cartes pendant le coup", "club:6-1"),  # held out, never tuned on: first since the situation keywords
    ("qui montre en premier a l abattage", "club:10-1"),
    ("showdown order", "club:10-1"),
    ("regarder les cartes brulees", "club:2-21"),
    ("le croupier a montre une carte en distribuant", "club:2-4"),
    ("un joueur part du tournoi avant la fin", "club:3-3"),  # held out, never tuned on: first since the situation keywords
    ("deux joueurs sautent en meme temps", "club:10-10"),
    ("toc toc sur la table", "club:9-4"),
    ("il a dit suivre mais a mis plus", "club:9-2"),
])
def test_issue_15_queries_put_the_clause_first_with_the_house_book(kb, query, first):
    assert refs(search(kb, query, kind="clause", house="club"), 1) == [first]


def test_issue_15_duplicate_card_query_finds_the_cash_rule(kb):
    assert "cash:irregularites-4" in refs(search(kb, "deux cartes identiques dans le paquet", kind="clause"))
    assert refs(search(kb, "deux cartes identiques dans le paquet", kind="clause", house="cash"), 1) == [
        "cash:irregularites-4"]


def test_situations_and_search_share_one_ranking(kb):
    from ruling.decide.questionnaire import rank_situations

    procs = rank_situations(kb, "flop sans carte brulee", "club")
    assert procs and procs[0].id == "flop-irregulier" and procs[0].book == "club"
    hits = search(kb, "flop sans carte brulee", kind="procedure", house="club").hits
    assert hits[0].ref == procs[0].id
    assert [p.book for p in procs] == sorted((p.book for p in procs), key=lambda b: b != "club")  # house first
    given = rank_situations(kb, "un joueur donne des jetons a un autre", "club")
    assert given and given[0].id == "donner-des-jetons"


def test_suite_queries_are_written_as_people_type():
    queries = [c["query"] for c in SUITE]
    assert sum(q == fold(q) for q in queries) >= 0.8 * len(queries)  # mostly no accents
    assert any(q.endswith("?") for q in queries)  # questions
    assert {"overchip", "misdeal second card exposed", "dead button"} <= set(queries)  # poker English


# -- French analysis -------------------------------------------------------------------------------

def test_accents_case_and_plural_meet_on_one_term():
    assert analyze("Pénalités") == analyze("penalite") == analyze("PÉNALITÉ")
    assert analyze("carte brûlée") == analyze("cartes brulees")
    assert analyze("brûlé") == analyze("brûlée") == analyze("brulees")


def test_elisions_are_split_with_straight_and_typographic_apostrophes():
    assert analyze("l'ordre d'apparition") == analyze("ordre apparition")
    assert analyze("l’ordre qu’il") == analyze("ordre")


def test_stop_words_are_dropped_but_negations_kept():
    terms = analyze("Il n'y a pas de pénalité sans aucun avertissement, jamais plus")
    for negation in ("ne", "pas", "sans", "aucun", "jamais", "plus"):
        assert negation in terms
    assert "il" not in terms and "de" not in terms and "y" not in terms


def test_unaccented_query_finds_accented_text(kb):
    hits = search(kb, "penalite pour maldonne", house="").hits  # no house book: club's 2-9 (« sanctionnée ») comes first for a club TD
    assert hits[0].ref == "infos:maldonne"  # "Il n'y a pas de pénalité pour maldonne."
    assert "**pénalité**" in hits[0].snippet


# -- synonyms, typos, numbers ----------------------------------------------------------------------

def test_english_term_finds_the_french_clause_through_the_glossary(kb):
    result = search(kb, "misdeal", kind="clause")
    assert not any("misdeal" in h.snippet.lower() for h in result.hits)  # no clause says "misdeal"
    assert {"club:2-17", "tda:fausses-donnes"} & set(refs(result, 5))


def test_multi_word_synonyms_work_both_ways(kb):
    # "fausse donne" finds the clause that only says "maldonne", and the other way round
    assert "infos:maldonne" in refs(search(kb, "fausse donne", kind="clause"), 10)
    assert "club:2-17" in refs(search(kb, "maldonne", kind="clause"), 5)
    assert "club:8-16" in refs(search(kb, "heads up", kind="clause"), 5)  # "En tête-à-tête…"


def test_quebec_cash_terms_find_the_cash_rules(kb):
    assert "cash:mises-et-relances-9" in refs(search(kb, "check taper la table", book="cash"))  # attente
    assert "cash:maldonnes-2" in refs(search(kb, "blinds action maldonne", book="cash"))  # pisses


def test_typos_are_tolerated(kb):
    assert "club:9-9" in refs(search(kb, "relanse insufisante"))
    assert "club:5-5" in refs(search(kb, "telefone pendant le coup"))
    assert "club:9-18" in refs(search(kb, "jetton superieur sans anonce"))


def test_exact_words_rank_above_typo_neighbours(kb):
    # "joker" is a word of the rulebook: "joue", "jouer" (a typo away) must not come first
    hits = search(kb, "joker", kind="clause", limit=20).hits
    assert len(hits) >= 3 and all("**joker**" in h.snippet.lower() for h in hits)
    # "jocker" is in no clause: its neighbour "joker" is what is found
    typo = search(kb, "jocker", kind="clause", limit=3).hits
    assert [h.ref for h in typo[:2]] == [h.ref for h in hits[:2]]


def test_printed_number_finds_its_clause_first(kb):
    assert refs(search(kb, "9-13"), 1) == ["club:9-13"]
    assert refs(search(kb, "club:2-17"), 1) == ["club:2-17"]
    assert refs(search(kb, "voir 2-5 svp"), 1) == ["club:2-5"]


@pytest.mark.parametrize("query, first", [
    ("regle 9-13", "club:9-13"),  # « règle » found 1-6 (« règlement » three times) first
    ("article 9.13", "club:9-13"),  # the number written with a dot
    ("art. 9.13 relance", "club:9-13"),
    ("que dit le reglement 9-13 sur les relances", "club:9-13"),
    ("regle 14.8-bis", "club:14-8-bis"),
])
def test_a_rule_number_with_the_words_that_announce_it_finds_that_rule_first(kb, query, first):
    assert refs(search(kb, query), 1) == [first]


def test_a_seat_or_a_count_does_not_name_the_cash_rules_of_that_number(kb):
    """The cash book numbers its rules 1 to 16 in each section: « le siège 3 » put achat-3 and
    mains-mortes-3 first, « seat 5 » mises-et-relances-5."""
    seat = refs(search(kb, "le siege 3 a fait tapis", kind="clause", house="cash"), 3)
    assert "cash:achat-3" not in seat and "cash:mains-mortes-3" not in seat
    assert refs(search(kb, "seat 5 a mis 300", kind="clause", house="cash"), 1) != ["cash:mises-et-relances-5"]
    # announced, a bare number is still a rule number
    assert set(refs(search(kb, "article 5", kind="clause", house="cash"), 3)) <= {
        "cash:irregularites-5", "cash:mises-et-relances-5", "cash:etalement-5", "cash:egalites-5", "cash:maldonnes-5"}


def test_procedures_are_among_the_hits_once_per_situation(kb):
    result = search(kb, "flop irregulier carte brulee", limit=10)
    procedures = [h for h in result.hits if h.kind == "procedure"]
    assert procedures and procedures[0].ref == "flop-irregulier"
    assert len({h.ref for h in procedures}) == len(procedures)
    assert refs(search(kb, "flop-irregulier"), 1) == ["flop-irregulier"]


# -- filters, snippets, suggestions ------------------------------------------------------------------

def test_book_kind_and_limit_filter_the_hits(kb):
    assert {h.book for h in search(kb, "relance", book="tda").hits} == {"tda"}
    assert {h.kind for h in search(kb, "relance", kind="procedure").hits} == {"procedure"}
    assert {h.kind for h in search(kb, "relance", kind="clause").hits} == {"clause"}
    assert len(search(kb, "relance", limit=3).hits) == 3


def test_snippet_highlights_the_matched_words(kb):
    hit = next(h for h in search(kb, "relance insuffisante").hits if h.ref == "club:9-9")
    assert "**Relance insuffisante**" in hit.snippet
    assert hit.title == "LES ACTIONS ET LES RELANCES"


def test_no_hit_gives_a_suggestion_from_the_vocabulary(kb):
    result = search(kb, "pokr")
    assert result.hits == [] and result.suggestion == "poker"
    assert search(kb, "zzqxwv").suggestion is None


def test_a_suggestion_is_a_word_of_the_rulebook_never_a_typo_people_typed(kb):
    # phrasings.yaml holds what outside TDs typed, typos included (« anonce », « asoit »): a
    # suggestion drawn from them printed « Vouliez-vous dire « anonce » ? »
    assert search(kb, "anoncce").suggestion == "annoncée"
    assert search(kb, "zzz asoitt").suggestion == "zzz assoit"
    assert search(kb, "arivantt").suggestion is None


def test_said_similarity_is_the_f1_of_the_best_phrasing():
    from ruling.search.ranking import said_similarity

    concepts = [[("relanc",)], [("insuffis",), ("insuf",)]]
    # first phrasing: both concepts (recall 4/4), two of its three terms (precision 2/3): F1 0.8;
    # the second: « relanc » only (recall 1/4, precision 1): F1 0.4
    assert said_similarity(concepts, [1.0, 3.0], [["relanc", "insuffis", "tapis"], ["relanc"]]) == pytest.approx(0.8)
    assert said_similarity(concepts, [1.0, 3.0], [["relanc"]]) == pytest.approx(0.4)
    assert said_similarity(concepts, [1.0, 3.0], [["tapis", "jeton"]]) == 0.0
    assert said_similarity([[("carte", "brul")]], [2.0], [["carte"], ["brul", "carte"]]) == 1.0  # all its words


def test_every_entry_keeps_its_phrasings_one_by_one_for_the_ranking(kb):
    from ruling.search.index import open_index, said_of

    index = open_index(kb)
    said = {index.searcher.stored_fields(n)["ref"]: said_of(index.searcher.stored_fields(n))
            for n in range(index.reader.doc_count_all())}
    typed = kb.phrasings["clauses"]["club:9-9"]
    assert [list(dict.fromkeys(analyze(t))) for t in typed] == said["club:9-9"] and len(typed) >= 3
    assert all(len(p) == len(set(p)) for phrasings in said.values() for p in phrasings)


def test_bad_options_are_french_user_errors(kb):
    from ruling.errors import UserError

    with pytest.raises(UserError, match="vouliez-vous club"):
        search(kb, "relance", book="clu")
    with pytest.raises(UserError, match="au moins 1"):
        search(kb, "relance", limit=0)
    with pytest.raises(UserError, match="clause ou procedure"):
        search(kb, "relance", kind="regle")


# -- any query string ------------------------------------------------------------------------------

NASTY = ['"', '""', "'", "(", ")", "((relance", "relance AND tapis", "relance OR", "NOT", "*", "rel*",
         "~", "relance~2", "tapis^3", "field:value", "title:relance", "[a TO z]", "{}", "\\", "😀",
         "carte 😀 brûlée", "\x00", "\ud800", "", "   ", "\n\t", "a" * 10_000, "relance " * 2000,
         "9-13-", "club:", ":", "@", "club@v1:8-10", "-", "--", "l'", "qu’", "é" * 50]


@pytest.mark.parametrize("query", NASTY, ids=range(len(NASTY)))
def test_any_query_string_gives_a_list_never_an_error(kb, query):
    result = search(kb, query, limit=5)
    assert isinstance(result.hits, list) and len(result.hits) <= 5
    json.dumps(result.to_json(), ensure_ascii=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=80))
def test_random_text_never_raises(kb, query):
    assert isinstance(search(kb, query, limit=3).hits, list)


# -- the command -----------------------------------------------------------------------------------

def test_command_json_shape(run):
    result = run("search", "relance", "insuffisante", "--json", "--limit", "3")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) == {"query", "hits", "suggestion"} and data["query"] == "relance insuffisante"
    for hit in data["hits"]:
        key = "citation" if hit["kind"] == "clause" else "procedure"
        assert set(hit) == {"kind", key, "book", "title", "snippet", "score"}
    assert "club:9-9" in [h.get("citation") for h in data["hits"]]


def test_command_piped_is_plain_text_and_lists_procedures(run):
    result = run("search", "flop irregulier")  # the procedure is 6th, after the five flop clauses
    assert result.exit_code == 0
    assert "**" not in result.output and "\x1b[" not in result.output
    assert "Flop prématuré : le flop seul est repris" in result.output  # the matched words, unmarked
    assert "procédure flop-irregulier (club)" in result.output
    assert "ruling ask flop-irregulier --book club" in result.output


def test_command_without_hits_suggests_and_exits_0(run):
    result = run("search", "pokr")
    assert result.exit_code == 0
    assert "Aucun résultat pour « pokr ». Vouliez-vous dire « poker » ?" in result.output
    data = json.loads(run("search", "pokr", "--json").output)
    assert data == {"query": "pokr", "hits": [], "suggestion": "poker"}


def test_command_user_errors_exit_2(run):
    for args, message in [(("search",), "indiquez les mots"), (("search", "x", "--book", "nope"), "nope"),
                          (("search", "x", "--limit", "0"), "au moins 1")]:
        result = run(*args)
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_command_does_not_import_whoosh_at_start():
    import subprocess
    import sys

    code = "import sys, ruling.cli; print('whoosh' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# -- the index cache ---------------------------------------------------------------------------------

@pytest.fixture
def cold_cache(tmp_path, monkeypatch):
    """A fresh cache directory, and no index kept open by this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(search_module, "_OPEN", {})
    return tmp_path / "cache" / "ruling"


def _index_dirs(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if p.name.startswith("index-")) if cache.is_dir() else []


def test_index_is_built_once_in_the_cache_and_reused(kb, cold_cache):
    first = refs(search(kb, "relance insuffisante"), 5)
    [index_dir] = _index_dirs(cold_cache)
    assert index_dir.name == f"index-{kb.digest}"
    assert (index_dir / search_module.MARKER).is_file()
    assert not [p for p in cold_cache.iterdir() if p.name.startswith(".")]  # no temporary left
    stamp = index_dir.stat().st_ino, (index_dir / search_module.MARKER).stat().st_mtime_ns
    search_module._OPEN.clear()  # as a new process would
    assert refs(search(kb, "relance insuffisante"), 5) == first
    assert (index_dir.stat().st_ino, (index_dir / search_module.MARKER).stat().st_mtime_ns) == stamp


def test_half_written_index_is_removed_and_rebuilt(kb, cold_cache):
    expected = refs(search(kb, "overchip"), 5)
    [index_dir] = _index_dirs(cold_cache)
    (index_dir / search_module.MARKER).unlink()  # as if the build had stopped before the end
    search_module._OPEN.clear()
    assert refs(search(kb, "overchip"), 5) == expected
    assert (index_dir / search_module.MARKER).is_file()


def test_corrupted_index_files_are_detected_and_rebuilt(kb, cold_cache):
    expected = refs(search(kb, "carte tombee par terre"), 5)
    [index_dir] = _index_dirs(cold_cache)
    for f in index_dir.iterdir():
        if f.suffix in (".seg", ".toc", ".trm", ".pst", ".fdt"):
            f.write_bytes(b"\x00garbage" * 8)
    search_module._OPEN.clear()
    assert refs(search(kb, "carte tombee par terre"), 5) == expected
    [rebuilt] = _index_dirs(cold_cache)
    assert (rebuilt / search_module.MARKER).is_file()


def test_unwritable_cache_falls_back_to_an_in_memory_index(kb, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setattr(search_module, "_OPEN", {})
    result = search(kb, "relance insuffisante")
    assert "club:9-9" in refs(result)
    assert blocker.is_file()


def test_permission_denied_falls_back_to_an_in_memory_index(kb, cold_cache, monkeypatch):
    import tempfile

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkdtemp", denied)
    assert "club:9-18" in refs(search(kb, "overchip"))
    assert _index_dirs(cold_cache) == []


def test_base_without_digest_gets_an_index_keyed_by_its_content(cold_cache, kb_copy):
    from ruling.kb.load import parse_kb

    base, problems = parse_kb(kb_copy)
    assert not problems and base.digest == ""
    assert "club:9-9" in refs(search(base, "relanse insufisante"))
    [first] = _index_dirs(cold_cache)
    chapter = kb_copy / "club" / "09-actions-et-les-relances.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("check-raise", "checkraise"), encoding="utf-8")
    changed, _ = parse_kb(kb_copy)
    search(changed, "relance")
    assert len(_index_dirs(cold_cache)) == 2 and first in _index_dirs(cold_cache)


def _searches_without_loading_the_base(run, monkeypatch) -> None:
    """`ruling search` from the cache alone: a fresh process's view, and the parser forbidden."""
    import ruling.kb.load

    monkeypatch.setattr(search_module, "_OPEN", {})

    def no_load(*args, **kwargs):
        raise AssertionError("the base was loaded although its index is cached")

    monkeypatch.setattr(ruling.kb.load, "load_kb", no_load)
    result = run("search", "relanse", "insufisante", "--json")
    assert result.exit_code == 0 and "club:9-9" in result.output


def test_prepare_leaves_the_first_search_nothing_to_build(run, monkeypatch, cold_cache):
    """The install step (`prepare`, called by scripts/setup.sh) caches the base and its index:
    the first search then neither parses the base nor builds an index."""
    from ruling.search import prepare

    prepare()
    assert len(_index_dirs(cold_cache)) == 1
    _searches_without_loading_the_base(run, monkeypatch)


def test_command_with_cached_index_does_not_load_the_base(run, monkeypatch, cold_cache):
    run("search", "relance")  # builds the index (loads the base once)
    _searches_without_loading_the_base(run, monkeypatch)


# -- the house book on the command line -------------------------------------------------------------

def cli_refs(result) -> list[str]:
    return [h.get("citation") or h.get("procedure") for h in json.loads(result.output)["hits"]]


def test_house_option_ranks_that_book_first_and_defaults_to_the_base(run, monkeypatch):
    monkeypatch.delenv("RULING_BOOK", raising=False)
    housed = run("search", "fausse", "donne", "--kind", "clause", "--house", "tda", "--json")
    assert housed.exit_code == 0 and cli_refs(housed)[:2] == ["tda:fausses-donnes", "club:2-17"]
    default = run("search", "fausse", "donne", "--kind", "clause", "--json")  # base.yaml: house_book club
    first_two = cli_refs(default)[:2]
    assert first_two[0] == "club:2-17" and first_two[1].startswith("club:")
    monkeypatch.setenv("RULING_BOOK", "tda")
    assert cli_refs(run("search", "fausse", "donne", "--kind", "clause", "--json"))[:2] == cli_refs(housed)[:2]


def test_unknown_house_book_is_one_french_line_exit_2(run):
    result = run("search", "fausse", "donne", "--house", "tdaa")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "Le livre « tdaa » n'existe pas ; vouliez-vous tda ?" in result.output
    as_json = run("search", "fausse", "donne", "--house", "tdaa", "--json")
    assert as_json.exit_code == 2 and json.loads(as_json.output)["error"]["suggestions"] == ["tda"]


def test_a_situation_is_found_by_the_keywords_of_the_clauses_its_procedure_cites(kb):
    """« knock » is in no word of the annonce-verbale procedure (title, keywords, questions) but
    in the keywords of 9-4, which it cites: the picker's ranking finds the situation by them."""
    from ruling.search.analysis import analyze
    from ruling.search.index import documents

    doc = next(d for d in documents(kb) if d["key"] == "procedure:club:annonce-verbale")
    assert "knock" not in analyze(" ".join([doc["title"], doc["keywords"], doc["questions"]]))
    assert "knock" in analyze(doc["cited"])
    assert [h.ref for h in search(kb, "knock", kind="procedure", house="club", limit=1).hits] == ["annonce-verbale"]


def test_the_cited_keywords_do_not_change_how_rare_a_word_is(kb):
    """The "cited" field is not part of "all": a clause's score (idf of "all") is what it was
    without it, so copying clause keywords into procedures takes nothing from the clauses."""
    from ruling.search.index import ALL_FIELDS, SEARCH_FIELDS, open_index

    assert "cited" in SEARCH_FIELDS and "cited" not in ALL_FIELDS
    index = open_index(kb)
    clauses = sum(1 for c in kb.clauses() if "knock" in " ".join(c.keywords))
    assert index.reader.doc_frequency("all", "knock") == clauses


def test_a_procedure_is_found_by_its_cited_clauses_text_and_by_what_it_decides(kb):
    """« jurisprudence » is only in the text of club:9-9, which relance-insuffisante cites; « la
    monnaie lui est rendue » only in what jeton-superieur decides: the picker (`ruling ask`) finds both situations."""
    from ruling.search import search

    by_text = search(kb, "jurisprudence", kind="procedure", house="club", limit=1).hits
    assert [(h.book, h.ref) for h in by_text] == [("club", "relance-insuffisante")]
    by_decision = search(kb, "la monnaie lui est rendue", kind="procedure", house="club", limit=1).hits
    assert [(h.book, h.ref) for h in by_decision] == [("club", "jeton-superieur")]


@pytest.mark.parametrize("query, first", [
    ("out of turn", "club:9-14"),  # glossary « action hors tour »
    ("replacement player", "club:8-9"),  # glossary « nouveau joueur »
    ("skipped player", "club:2-13"),  # glossary « joueur oublié »
])
def test_english_words_of_the_glossary_families_find_their_clause(kb, query, first):
    from ruling.search import search

    assert search(kb, query, kind="clause", house="club", limit=1).hits[0].ref == first


@pytest.mark.parametrize("query, first", [("mises etagees", "cash:mises-et-relances-14")])
def test_a_clause_named_by_its_term_comes_before_its_situation_in_a_mixed_list(kb, query, first):
    """Procedures hold their cited clauses' text too: PROCEDURE_WEIGHT keeps the clause first."""
    from ruling.search import search

    assert search(kb, query, house="", limit=1).hits[0].ref == first
