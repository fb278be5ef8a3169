"""How hits are ranked: whoosh's BM25F scores summed over the query's parts, then three factors.

    score(entry) = HOUSE_BOOST[clause in the house book] (PROCEDURE_HOUSE_BOOST for a procedure)
                   × PROCEDURE_WEIGHT[entry is a procedure]
                   × Σ over the parts of the query: part boost × BM25F(term or phrase, field)
                   × (concepts of the query the entry matches / concepts of the query) ** COVERAGE_POWER

A part boost is the field's boost (FIELD_BOOSTS) times the alternative's weight (1 for a word
as typed, SYNONYM_WEIGHT for a glossary equivalent, FUZZY_WEIGHT for a typo neighbour,
PHRASE_WORD_WEIGHT for a word of a phrase, PAIR_WEIGHT for two typed words side by side);
`NUMBER_BOOST` for a printed number. All of it is data (`ranking_data`) so that another client
(the site) can compute the same score. whoosh does the scoring, the filtering, the limit and
the collapsing of procedures per situation (`searcher.search(..., collapse=...)`); the coverage
factor re-sorts whoosh's best COVERAGE_DEPTH hits, each concept looked for in them through the
reader's postings (`reader.postings(...).skip_to`).
"""
from __future__ import annotations

#: How much a word found in each field counts (a title match beats a mention in the text).
#: Tuned by cross-validation inside the training queries (`bench/search_quality.py cv`): the
#: body at 2.5 (from 1.5) lifts cv r@1 / r@3 from 67.7 / 86.3 % to 69.3 / 86.8 % with the house
#: factor below: people describe the situation the text describes, not its title.
#: A procedure's questions are a field of their own ("questions", at the body's former 1.5): they
#: ask about the situation rather than describe it, and the picker (`ruling ask`) ranks on them.
#: A procedure's "cited" field (the topics, keywords and text of the clauses it cites, and what its
#: outcomes decide) counts 1.0: the picker's cv (`scripts/picker_accuracy.py cv`) chose 1.0 with the
#: keywords only (69.3 % without the field, 72.1 % at 0.5, 73.8 % at 1, 73.0 % at 2), and again with
#: the texts and decisions added (179 of 244 at 0.5, 182 at 1, 178 at 1.5); the clause cv is
#: unchanged: the field is not in "all". With the suites grown to 515 / 332 training entries
#: (2026-12-02), the picker's cv moved from 255 of 332 to 260 with "cited" at 0.75 and "questions"
#: at 2 (cited 0.5: 257, 0.75: 258, 1.5: 255; questions 1: 252, 2: 258, 2.5 with cited 0.75: 256);
#: the title and keywords stay at 2 (the clause cv chose 3 / 2 on three folds of four, 81.1 %
#: chosen so against 81.8 % at 2 / 2).
#: "phrasings" (rulebook/phrasings.yaml: what outside TDs and players typed for an entry, the
#: training part of the suites; not in "all", so their typos are no words of the rulebook) at 1:
#: each cv fold searched without its own phrasings, search cv r@1 / r@3 81.4 / 95.1 % without the
#: field -> 83.8 / 95.9 at 0.5, 83.5 / 95.9 at 1, 82.4 / 95.4 at 1.5, 81.1 / 94.8 at 3; the picker's
#: cv 313 -> 335 of 401 at 1 (336 at 1.5 and 2) (2026-12-03).
FIELD_BOOSTS = {"title": 2.0, "keywords": 2.0, "chapter": 0.6, "body": 2.5, "questions": 2.0, "cited": 0.75,
                "phrasings": 1.0}
#: The fields where two typed words side by side earn PAIR_WEIGHT.
PAIR_FIELDS = ("title", "keywords", "body", "questions")
#: The fields where an alternative of several words ("relance insuffisante") is looked for as a
#: phrase: not "cited" (a procedure's copy of its clauses' text and decisions), whose positions are
#: then not indexed. Its phrases were a third of a search's time, and without them the picker's cv
#: rose from 592 to 595 of 690 (`scripts/picker_accuracy.py cv`), clauses' cv unchanged (the field
#: is a procedure's only), 2026-12-04. Nor "phrasings" (what people typed, 3,200 of them since the
#: twelfth outside batch): search cv r@1 / r@3 79.1 / 91.7 % -> 79.6 / 91.7 %, picker cv 937 -> 935
#: of 1068, and an index built 0.08 s sooner (`bench/bench_search_cold.py`), 2026-12-04.
PHRASE_FIELDS = ("title", "keywords", "chapter", "body", "questions")
#: Procedures are ranked among clauses, their score scaled down: their questions and
#: keyword lists hold many everyday words that would otherwise push the clause aside. 0.8
#: (0.6 with the body at 1.5) kept a situation's procedure among the first hits beside its clause;
#: 0.7 since procedures also hold their cited clauses' text and their decisions (the project's own
#: suite, `bench/search_quality.py old`: r@1 78.2 % at 0.8 before, 75.9 % at 0.8 after, 78.2 % at 0.7).
#: It orders procedures against clauses only: the picker and clause-only searches do not move.
PROCEDURE_WEIGHT = 0.7
#: The house book's entries (the user's own rulebook) count this much more; not a filter. cv
#: (the query's own book as house): 1.6 -> 2.5 lifts r@1 / r@3 from 65.2 / 82.2 % to about
#: 67 / 86 %; 4 adds 0.5-1.5 points there but the project's own suite, asked with the base's house
#: book about other books, falls from 100 to 93.1 % at 3 (2.5 keeps it at 100 %). With the
#: coverage factor and 515 training queries (2026-12-02) cv r@1 / r@3 is 79.9 / 94.6 % at 2.5,
#: 81.2 / 94.8 at 3.5, 81.8 / 95.6 at 5, 81.8 / 95.4 at 8 (5 chosen on every fold); the project's
#: suite asked with the base's house book about every book keeps 100 % at 3 (80.5 % at 1,
#: `tests/test_search.py`).
HOUSE_BOOST = 5.0
#: A procedure of the house book counts less more: a situation has one procedure per book, and
#: the other books' wording of the same situation helps find it (the picker, `ruling ask`, takes
#: the house's own procedure of the situation found): 4 took it from 94.7 to 93.4 % (train).
PROCEDURE_HOUSE_BOOST = 1.6
NUMBER_BOOST = 20.0  # "9-13", "club:9-13", a procedure id: straight to that entry (12 with the body at 1.5)
#: A glossary equivalent counts less than the word typed when that word is in the rulebook
#: (exact hits first), and almost as much when it is not ("overchip"): it is then the only
#: reading of what was typed.
SYNONYM_WEIGHT, SYNONYM_WEIGHT_UNKNOWN = 0.5, 0.9
#: Words one or two typos away are looked for only when the word typed is in no entry
#: ("relanse"), so they never outrank an entry that has the exact word.
FUZZY_WEIGHT = 0.8
#: Two typed words found side by side (within PAIR_SLOP) earn a bonus. 1.0 until the tenth outside
#: batch; then cv (`bench/search_quality.py cv --grid PAIR_WEIGHT=0,0.5,1,1.5`) r@1 / r@3 79.8 / 93.2 %
#: at 0, 80.6 / 93.3 at 0.5 (chosen on every fold), 80.3 / 92.9 at 1, 79.6 / 92.7 at 1.5; the
#: picker's cv 592 of 690 at 0.5, 590 at 1 (2026-12-04).
PAIR_WEIGHT = 0.5
PAIR_SLOP = 3
PHRASE_WORD_WEIGHT = 0.5  # each word of a glossary phrase ("carte brûlée") also counts alone
#: An entry matching few of the things asked about loses to one matching most of them (« parle »
#: alone, strongly, no longer beats the clause that has « trois », « joueurs », « après », « pas »):
#: its score is multiplied by (concepts of the query it matches / concepts of the query) **
#: COVERAGE_POWER, a concept (a typed word with its synonyms and typo neighbours, a glossary
#: phrase, a word of that phrase, a printed number) being matched when the entry holds all the
#: words of one of its alternatives (in any of its fields; for a phrase, side by side or not: the
#: phrase itself scores in the sum); word pairs are not concepts. Only whoosh's best COVERAGE_DEPTH
#: entries of the sum (one per situation) are re-sorted so; 0 switches the factor off. Tuned on cv
#: (`bench/search_quality.py cv --grid COVERAGE_POWER=…`): r@1 / r@3 75.5 / 94.5 % without,
#: 78.3 / 94.9 at 0.5, 79.5 / 94.7 at 0.75, 79.2 / 94.9 at 1, 77.5 / 94.4 at 1.5, 76.0 / 92.9 at 2;
#: the picker's cv (`scripts/picker_accuracy.py cv`) 181 of 244 without, 185 at 0.75, 187 at 1;
#: so 1. The depth does not matter from 10 to 100 (search cv at 0.75 and 1; picker cv 187 at 20
#: and 50): 20 costs 0.4 ms a search less than 50. Looking for each alternative's words in one
#: field, a phrase side by side, gave the same figures within 0.3 point and took 2-4 ms a search
#: (whoosh's phrase matchers) where the postings take 0.5-2. With SAID_WEIGHT below, 15 (from 20):
#: search cv 77.8 / 89.7 % at 20, 77.8 / 89.8 at 15 and at 10, the picker's cv 952 of 1068 at 20, 15
#: and 10, and the said factor looks at fewer entries (0.5 ms of the first search); not 10, the
#: 10 hits `ruling search` shows: a procedure 11th in whoosh's sum could no longer climb among them
#: (« flop irregulier carte brulee », tests/test_search.py), 2026-12-06.
COVERAGE_POWER = 1.0
COVERAGE_DEPTH = 15
#: An entry one of whose phrasings (rulebook/phrasings.yaml, what outside TDs and players typed for
#: it) says what the query says gains: its score is multiplied by 1 + SAID_WEIGHT × the best, over
#: its phrasings, of the F1 of recall (the rarity of the query's concepts the phrasing holds, over
#: that of all of them; a concept is held when all the words of one of its alternatives are, a
#: concept's rarity is that of its rarest word, log(entries / entries holding it in "all") + 1, the
#: highest for a word of no rulebook text) and precision (the share of the phrasing's distinct terms
#: that the first held alternative of each held concept accounts for). The "phrasings" field sums
#: every phrasing of an entry into one text; this looks at each one whole, as a person who typed
#: the same would. Only whoosh's best COVERAGE_DEPTH (15) entries are re-sorted so, with the coverage
#: factor; not for a query that names a rule's number (« voir 2-5 svp »: NUMBER_BOOST leads there;
#: « blinds 200-400 » names none). cv, each fold without its own phrasings (`bench/search_quality.py cv --grid
#: SAID_WEIGHT=0,3,4`, `scripts/picker_accuracy.py cv`): search r@1 / r@3 76.6 / 89.3 % at 0,
#: 77.8 / 89.7 at 3 and at 4 (4 chosen on three folds of four); the picker 934 of 1068 at 0, 953
#: at 3, 952 at 4. Before the phrasings were split on line breaks (96 of them hold « ; »), a grid
#: gave 79.6 / 91.7 at 0, 80.5 / 92.1 at 2, 80.5 / 92.2 at 3, 80.8 / 92.2 at 4, 80.4 / 92.2 at 6.
#: A precision weighted by rarity too gave +0.1 to +0.4 point, and 1 ms a search more to look up
#: the rarity of every word of 200-odd phrasings (2026-12-06).
SAID_WEIGHT = 4.0
#: BM25F's parameters (whoosh's defaults), stated so another client can use the same.
BM25_B, BM25_K1 = 0.75, 1.2


def ranking_data() -> dict:
    """Every constant of the formula above, for a client that ranks the same way (the site)."""
    return {"field_boosts": dict(FIELD_BOOSTS), "procedure_weight": PROCEDURE_WEIGHT, "house_boost": HOUSE_BOOST,
            "procedure_house_boost": PROCEDURE_HOUSE_BOOST,
            "number_boost": NUMBER_BOOST, "synonym_weight": SYNONYM_WEIGHT,
            "synonym_weight_unknown": SYNONYM_WEIGHT_UNKNOWN, "fuzzy_weight": FUZZY_WEIGHT,
            "pair_weight": PAIR_WEIGHT, "pair_slop": PAIR_SLOP, "pair_fields": list(PAIR_FIELDS), "phrase_word_weight": PHRASE_WORD_WEIGHT,
            "phrase_fields": list(PHRASE_FIELDS),
            "coverage_power": COVERAGE_POWER, "coverage_depth": COVERAGE_DEPTH, "said_weight": SAID_WEIGHT,
            "bm25": {"B": BM25_B, "K1": BM25_K1, "idf_field": "all"}}


def entry_factors(lexicon, house: str | None, book: str | None = None, kind: str | None = None) -> list[float]:
    """Each entry's factor, by document number: PROCEDURE_WEIGHT for a procedure, times
    HOUSE_BOOST for a clause of the house book (PROCEDURE_HOUSE_BOOST for a procedure); 0 for an entry that `book` or `kind` filters out."""
    procedures = lexicon.procedure_groups
    factors = []
    for n, entry_book in enumerate(lexicon.doc_books):
        entry_kind = "procedure" if n in procedures else "clause"
        if (book and entry_book != book) or (kind and entry_kind != kind):
            factors.append(0.0)
        else:
            procedure = entry_kind == "procedure"
            house_factor = (PROCEDURE_HOUSE_BOOST if procedure else HOUSE_BOOST) if house and entry_book == house else 1.0
            factors.append((PROCEDURE_WEIGHT if procedure else 1.0) * house_factor)
    return factors


def weighting(lexicon, house: str | None, book: str | None = None, kind: str | None = None):
    """whoosh's BM25F with each word's rarity measured over whole entries, times the entry's factor.

    With per-field statistics "jeton", a common word, looks rare in titles (few entries have
    one) and a title mention of it outweighs the one rare word the user typed; so `idf` is
    that of the "all" field (every searchable text of the entry). The entry factor multiplies
    every term's score, so it multiplies their sum; the scorer's bounds (`max_quality`,
    `block_quality`) are multiplied by the largest factor, so whoosh's skipping of entries
    that cannot rank would stay exact if it were on (`ranked` switches it off: it is slower here).
    The filters are factors too (0: the entry scores 0 and is dropped), see `ranked`.
    """
    from whoosh.scoring import BM25F, BaseScorer

    factors = entry_factors(lexicon, house, book, kind)
    top = max(factors, default=1.0)

    class FactorScorer(BaseScorer):
        """A BM25F term scorer times the factor of the entry its matcher is on."""

        def __init__(self, inner, offset):
            self.inner, self.offset = inner, offset

        def supports_block_quality(self):
            return self.inner.supports_block_quality()

        def score(self, matcher):
            n = self.offset + matcher.id()
            return self.inner.score(matcher) * (factors[n] if n < len(factors) else 1.0)

        def max_quality(self):
            return self.inner.max_quality() * top

        def block_quality(self, matcher):
            return self.inner.block_quality(matcher) * top

    class RulingBM25F(BM25F):
        def idf(self, searcher, fieldname, text):
            if fieldname in FIELD_BOOSTS:
                fieldname = "all"
            return super().idf(searcher, fieldname, text)

        def scorer(self, searcher, fieldname, text, qf=1):
            return FactorScorer(super().scorer(searcher, fieldname, text, qf=qf), _offset(searcher))

    return RulingBM25F(B=BM25_B, K1=BM25_K1)


def _offset(searcher) -> int:
    """The first document number of a segment's searcher within its whole index."""
    if not searcher.has_parent():
        return 0
    for leaf, offset in searcher.get_parent().leaf_searchers():
        if leaf is searcher:
            return offset
    return 0


def ranked(index, plan, *, house: str | None, book: str | None, kind: str | None, limit: int) -> list[tuple[int, float]]:
    """(document number, score) of the best `limit` entries for `plan`, best first.

    `book` and `kind` filter; `house` only boosts. One procedure per situation is kept
    (whoosh collapses on the `group` column, unique for a clause).
    """
    from whoosh.sorting import FieldFacet

    from ruling.search.query import asked, whoosh_query

    # The filters are entry factors of 0, not whoosh's `filter=`: whoosh-reloaded 2.7.5's
    # FilterCollector hands the entries it keeps straight to the collector under the
    # CollapseCollector, so nothing would be collapsed; and intersecting the query with the
    # filter (`Require`, `And`) loses matching entries in its IntersectionMatcher.
    searcher = index.searcher_for(house, book, kind)
    things = asked(plan) if COVERAGE_POWER else []
    # a query naming a rule number (« voir 2-5 svp ») is about that rule: no phrasing outranks it
    saying = bool(SAID_WEIGHT and plan.concepts) and not any(index.knows_number(n) for n in plan.numbers)
    resorted = len(things) > 1 or saying
    depth = max(limit, COVERAGE_DEPTH) if resorted else limit
    # optimize=False: whoosh's block-quality skipping asks every sub-matcher of the union (every
    # alternative in every field: often hundreds) whether it can skip, every few entries, and skips
    # nothing on a union it has read whole (ArrayUnionMatcher): the same hits, 10 to 25 % faster
    # (`python bench/bench_search_skipping.py`, bench/README.md 2026-12-04).
    results = searcher.search(whoosh_query(plan), limit=depth, collapse=FieldFacet("group"), collapse_limit=1,
                              optimize=False)
    hits = [(hit.docnum, hit.score) for hit in results if hit.score > 0]
    if resorted and len(hits) > 1:
        docnums = [n for n, _ in hits]
        found = _covered(searcher, things, docnums) if len(things) > 1 else None
        said = _said(index, searcher, plan, docnums) if saying else None
        factors = {n: ((found[n] / len(things)) ** COVERAGE_POWER if found is not None else 1.0)
                   * (1.0 + SAID_WEIGHT * said[n] if said is not None else 1.0) for n in docnums}
        hits = sorted(((n, score * factors[n]) for n, score in hits),
                      key=lambda hit: -hit[1])  # stable: equal scores keep whoosh's order
    return hits[:limit]


def _said(index, searcher, plan, docnums: list[int]) -> dict[int, float]:
    """Each entry's best phrasing similarity to the query (see SAID_WEIGHT), from its stored
    phrasings: 0 for an entry without one."""
    import math

    from ruling.search.index import said_of

    unknown = math.log(max(1, index.reader.doc_count())) + 1.0  # a word no entry holds: the rarest
    concepts = [[terms for terms, _ in concept.variants] for concept in plan.concepts]
    weights = [max(index.rarity((t,)) or unknown for terms in alternatives for t in terms) for alternatives in concepts]
    return {n: said_similarity(concepts, weights, said_of(searcher.stored_fields(n))) for n in docnums}


def said_similarity(concepts: list[list[tuple[str, ...]]], weights: list[float], phrasings: list[list[str]]) -> float:
    """The best F1 over `phrasings` (each a list of distinct terms) of the concepts' recall, weighted
    by `weights`, and the phrasing's precision (SAID_WEIGHT); sums in list order, as the site's."""
    total = 0.0
    for weight in weights:
        total += weight
    asked = set().union(*(terms for alternatives in concepts for terms in alternatives))
    pairs = list(zip(concepts, weights))
    best = 0.0
    for phrasing in phrasings:
        held = set(phrasing)
        if held.isdisjoint(asked):
            continue
        matched, covered = 0.0, set[str]()
        for alternatives, weight in pairs:
            for terms in alternatives:
                if held.issuperset(terms):
                    matched += weight
                    covered.update(terms)
                    break
        if not matched:
            continue
        recall, precision = matched / total, len(covered) / len(phrasing)
        best = max(best, 2 * recall * precision / (recall + precision))
    return best


def _covered(searcher, things: list, docnums: list[int]) -> dict[int, int]:
    """How many of the `things` asked about (`query.asked`) each of `docnums` holds: one of its
    alternatives all of whose words are in the entry (in "all", the searchable text, or in a
    field outside it), read from the index's postings of each word, skipped to each entry in turn."""
    from ruling.search.index import ALL_FIELDS

    reader, schema = searcher.reader(), searcher.schema
    anywhere = ["all"] + [name for name in FIELD_BOOSTS if name not in ALL_FIELDS]
    order = sorted(docnums)
    holding: dict[tuple[str, str], set[int]] = {}

    def holders(field: str, term: str) -> set[int]:
        if (field, term) not in holding:
            docs: set[int] = set()
            for name in anywhere if field == "" else [field]:
                text = schema[name].to_bytes(term)
                if (name, text) not in reader:
                    continue
                matcher = reader.postings(name, text)
                for n in order:
                    if matcher.id() < n:
                        matcher.skip_to(n)
                        if not matcher.is_active():
                            break
                    if matcher.id() == n:
                        docs.add(n)
            holding[field, term] = docs
        return holding[field, term]

    found = dict.fromkeys(docnums, 0)
    for thing in things:
        held: set[int] = set()
        for field, terms in thing:
            docs = holders(field, terms[0])
            for term in terms[1:]:
                if not docs:
                    break
                docs = docs & holders(field, term)
            held |= docs
            if len(held) == len(order):
                break
        for n in held:
            found[n] += 1
    return found
