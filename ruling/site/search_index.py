"""The site's search index: what `ruling search` knows, exported for the browser.

The export is read from the whoosh index the command line searches (`ruling.search.open_index`):
every analysed term with its postings, positions and idf as whoosh computes them, each field's
lengths, the ranking constants of `ruling.search.ranking` (`ranking_data`) and the query's and
snippets' limits, the house book, the analysed glossary, and a map from each
written (folded) word to its term (a word typed that the map lacks goes through the browser's
copy of whoosh's French stemmer, `site/assets/search-stemmer.js`). The
browser engine (`site/assets/search-engine.js`) scores from this data alone: a change to the
command line's weights, boosts, analysis or glossary reaches the site at the next build.
It is a JavaScript file (`window.RULING_SEARCH = {...}`), so the site searches from `file://`.
"""
from __future__ import annotations

from ruling.site.escape import script_json

SEARCH_DATA_SCRIPT = "assets/javascripts/ruling-search-data.js"
EXPORT_FORMAT = 3


def search_export(kb, url_of=None, clause_pages=None) -> dict:
    """Everything the browser needs to rank `kb` exactly as `ruling search` does.

    `url_of` turns a page path into its built URL and `clause_pages` maps a citation to its
    `page.md#anchor` (both from the site); without them the entries carry no URL.
    """
    from ruling.search import analysis, open_index, query, ranking, snippets
    from ruling.search.index import ALL_FIELDS, SEARCH_FIELDS, said_of
    from ruling.site import paths

    index = open_index(kb)
    searcher, reader = index.searcher, index.reader
    count = reader.doc_count_all()
    titles = {b.id: b.title for b in kb.books}
    docs = []
    for n in range(count):
        stored = searcher.stored_fields(n)
        url = ""
        if url_of is not None:
            if stored["kind"] == "clause" and clause_pages and stored["ref"] in clause_pages:
                url = url_of(clause_pages[stored["ref"]])
            elif stored["kind"] == "procedure":
                url = url_of(paths.procedure_page(stored["book"], stored["ref"]))
        docs.append({"kind": stored["kind"], "ref": stored["ref"], "book": stored["book"],
                     "bookTitle": titles.get(stored["book"], stored["book"]),
                     "title": stored.get("display_title") or "", "body": stored.get("body") or stored.get("questions") or "",
                     "group": stored["group"], "url": url,
                     "said": said_of(stored)})  # its phrasings, analysed: ranking.SAID_WEIGHT
    fields = {}
    for name in [*SEARCH_FIELDS, "number"]:
        scorable = bool(searcher.schema[name].scorable)
        positional = searcher.schema[name].format.supports("positions")  # not "cited", not "number"
        postings = {}
        for term in reader.field_terms(name):
            matcher = reader.postings(name, term)
            entries = []
            while matcher.is_active():
                positions = list(matcher.value_as("positions")) if positional else []
                entries.append([matcher.id(), matcher.weight(), positions])
                matcher.next()
            # searcher.idf asks the ranking's weighting: the idf of the "all" field
            postings[term] = [searcher.idf(name, term) if scorable else 0.0, entries]
        fields[name] = {
            "scorable": scorable,
            "avgfl": (searcher.avg_field_length(name) or 1) if scorable else 1,
            "lengths": [reader.doc_field_length(n, name) for n in range(count)] if scorable else [],
            "postings": postings,
        }
    return {
        "format": EXPORT_FORMAT,
        "params": {
            **ranking.ranking_data(),
            "all_fields": list(ALL_FIELDS),  # the fields whose words make up "all": word rarity, known words
            "max_concepts": query.MAX_CONCEPTS, "long_query_concepts": query.LONG_QUERY_CONCEPTS,
            "max_pairs": query.MAX_PAIRS, "max_query_words": query.MAX_QUERY_WORDS,
            "number_re": query.NUMBER_RE.pattern, "id_re": query.ID_RE.pattern, "number_punctuation": query.NUMBER_PUNCTUATION,
            "number_words": sorted(query.NUMBER_WORDS),
            "snippet_chars": snippets.SNIPPET_CHARS, "snippet_surround": snippets.SNIPPET_SURROUND,
            "snippet_charlimit": snippets.SNIPPET_CHARLIMIT,
        },
        "analysis": {"elisions": list(analysis.ELISIONS), "apostrophes": analysis._APOSTROPHES,
                     "max_word": analysis.MAX_WORD, "stop_words": sorted(analysis.STOP_WORDS),
                     "negations": sorted(analysis.NEGATIONS)},
        "surface": packed(surface_terms(index, kb.glossary)),
        "glossary": index.glossary.to_json(),
        "house_book": index.lexicon.house_book or "",
        "doc_count": reader.doc_count(),
        "docs": docs,
        "fields": fields,
    }


def surface_terms(index, glossary) -> dict[str, str]:
    """folded word -> its term, for every word of the index and of the glossary: the browser
    analyses these words from this map, and only the others with its copy of the stemmer."""
    from ruling.search.analysis import STOP_WORDS, fold, stem, words

    out = dict(index.lexicon.stems)  # folded word -> its term, for every indexed word
    for entry in glossary:
        if not isinstance(entry, dict):
            continue
        for phrasing in [entry.get("term", "")] + list(entry.get("en") or []) + list(entry.get("synonyms") or []):
            for word, _, _ in words(str(phrasing)):
                folded = fold(word)
                if folded not in STOP_WORDS:
                    out.setdefault(folded, stem(folded))
    return dict(sorted(out.items()))


def packed(surface: dict[str, str]) -> dict[str, str]:
    """term -> its written forms, space-separated, each as the ending after the term ("" is the
    term itself) or, when it does not start with the term, "=" and the whole form: a third the size."""
    out: dict[str, list[str]] = {}
    for form, term in surface.items():
        out.setdefault(term, []).append(form[len(term):] if form.startswith(term) else "=" + form)
    return {term: " ".join(forms) for term, forms in out.items()}


def search_script(kb, url_of=None, clause_pages=None) -> str:
    """The export as the JavaScript file the site loads with a script tag (works from file://)."""
    return "window.RULING_SEARCH = " + script_json(search_export(kb, url_of, clause_pages)) + ";\n"
