/* The site's search engine: `ruling search` in the browser, from the exported index alone.
 *
 * `window.RULING_SEARCH` (ruling/site/search_index.py) holds the command line's analysed terms,
 * postings, idf, field lengths, weights and glossary. This file repeats `ruling.search`'s steps
 * on them: the query's words folded and mapped to their terms (the exported map, else the copy of
 * whoosh's stemmer in search-stemmer.js plus ruling's own trimming), glossary phrasings recognised
 * and expanded, unknown words corrected by edit distance, then each entry scored with BM25F per field
 * (best field plus a tiebreak, best alternative per concept, pairs of typed words, printed
 * numbers), procedures scaled down and one per situation. Nothing here is a constant of the
 * ranking: every weight comes from the export. Runs in the browser and in Node (the parity test).
 */
(function (root) {
  "use strict";

  var snowball = (typeof module !== "undefined" && module.exports ? require("./search-stemmer.js")
    : root.RulingFrenchStemmer).stem;

  function Engine(data) {
    this.data = data;
    this.params = data.params;
    var a = data.analysis;
    var elisions = a.elisions.slice().sort(function (x, y) { return y.length - x.length; });
    var apos = a.apostrophes.replace(/[\]\\^-]/g, "\\$&");
    this.wordRe = new RegExp("(?:(" + elisions.join("|") + ")[" + apos + "])?([\\p{L}\\p{N}]+)", "giu");
    this.stops = new Set(a.stop_words);
    this.numberRe = new RegExp(this.params.number_re);
    this.surface = new Map();
    var self = this;
    Object.keys(data.surface).forEach(function (term) {
      data.surface[term].split(" ").forEach(function (form) {
        self.surface.set(form.charAt(0) === "=" ? form.slice(1) : term + form, term);
      });
    });
    this.fieldNames = Object.keys(this.params.field_boosts);
    this.byTerms = new Map();
    this.longest = 1;
    data.glossary.by_terms.forEach(function (pair) {
      self.byTerms.set(pair[0].join(" "), pair[1]);
      self.longest = Math.max(self.longest, pair[0].length);
    });
    this.groups = data.glossary.groups;
    this.negations = new Set(a.negations);
    this.byInitial = new Map();  // the indexed alphabetic terms, by first letter (Lexicon.near_terms)
    var terms = new Set();
    this.fieldNames.forEach(function (name) {
      Object.keys(data.fields[name].postings).forEach(function (t) { if (/^\p{L}+$/u.test(t)) { terms.add(t); } });
    });
    Array.from(terms).sort().forEach(function (t) {
      var k = t.charAt(0);
      if (!self.byInitial.has(k)) { self.byInitial.set(k, []); }
      self.byInitial.get(k).push(t);
    });
    this.oneWordGlossary = data.glossary.by_terms.filter(function (pair) { return pair[0].length === 1; })
      .map(function (pair) { return pair[0][0]; });
  }

  // -- analysis: the same steps as ruling/analysis.py ----------------------------------------

  Engine.prototype.fold = function (text) {
    return String(text).toLowerCase().replace(/œ/g, "oe").replace(/æ/g, "ae")
      .normalize("NFKD").replace(/\p{M}/gu, "");
  };

  /** [word, start, end] of each word; "n'" comes out as the negation "ne" (analysis.words). */
  Engine.prototype.words = function (text) {
    var out = [], m, max = this.data.analysis.max_word;
    this.wordRe.lastIndex = 0;
    while ((m = this.wordRe.exec(text)) !== null) {
      var wordStart = m.index + (m[1] ? m[0].length - m[2].length : 0);
      if (m[1] && m[1].toLowerCase() === "n") { out.push(["ne", m.index, wordStart]); }
      if (m[2].length <= max) { out.push([m[2], wordStart, m.index + m[0].length]); }
    }
    return out;
  };

  /** The term of a folded word: from the exported map, else stemmed as ruling.analysis.stem does
   *  (whoosh's Snowball stem, then the endings folding hides from it; negations kept whole). */
  Engine.prototype.term = function (folded) {
    var t = this.surface.get(folded);
    if (t !== undefined) { return t; }
    if (!/^\p{L}+$/u.test(folded) || this.negations.has(folded)) { return folded; }
    var s = snowball(folded);
    while (s.length > 3 && s.charAt(s.length - 1) === "e") { s = s.slice(0, -1); }
    var doubles = ["enn", "onn", "ett", "ell", "eill"];
    for (var i = 0; i < doubles.length; i++) {
      if (s.slice(-doubles[i].length) === doubles[i]) { s = s.slice(0, -1); break; }
    }
    if (s.length > 5 && s.slice(-3) === "ier") { s = s.slice(0, -2); }
    else if (s.length >= 6 && s.slice(-2) === "it") { s = s.slice(0, -2); }
    return s;
  };

  Engine.prototype.knows = function (term) {
    var f = this.data.fields;
    for (var i = 0; i < this.fieldNames.length; i++) {
      if (Object.prototype.hasOwnProperty.call(f[this.fieldNames[i]].postings, term)) { return true; }
    }
    return false;
  };

  Engine.prototype.rarity = function (terms) {
    var n = Math.max(1, this.data.doc_count), best = 0, f = this.data.fields;
    for (var i = 0; i < terms.length; i++) {
      var df = 0;
      for (var j = 0; j < this.fieldNames.length; j++) {
        var p = f[this.fieldNames[j]].postings[terms[i]];
        if (p && Object.prototype.hasOwnProperty.call(f[this.fieldNames[j]].postings, terms[i])) {
          df = Math.max(df, p[1].length);
        }
      }
      if (!df) { return 0; }
      best = Math.max(best, Math.log(n / df) + 1);
    }
    return best;
  };

  Engine.prototype.rarityCap = function (typed, synonym) {
    var a = this.rarity(typed), b = this.rarity(synonym);
    return (!a || !b || b <= a) ? 1 : a / b;
  };

  function fuzzyDistance(word) {
    return word.length >= 8 ? 2 : word.length >= 5 ? 1 : 0;
  }

  /** Edits (insert, delete, substitute, swap neighbours) from a to b, capped at limit + 1. */
  function editDistance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) { return limit + 1; }
    var before = null, previous = [];
    for (var j = 0; j <= b.length; j++) { previous.push(j); }
    for (var i = 1; i <= a.length; i++) {
      var current = [i], ca = a.charAt(i - 1), low = i;
      for (j = 1; j <= b.length; j++) {
        var cb = b.charAt(j - 1);
        var d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca !== cb ? 1 : 0));
        if (before !== null && j > 1 && ca === b.charAt(j - 2) && a.charAt(i - 2) === cb) {
          d = Math.min(d, before[j - 2] + 1);
        }
        current.push(d);
        low = Math.min(low, d);
      }
      if (low > limit) { return limit + 1; }
      before = previous;
      previous = current;
    }
    return Math.min(previous[b.length], limit + 1);
  }

  /** Indexed terms within `maxdist` edits of `term`, same first letter, not `term` (Lexicon.near_terms). */
  Engine.prototype.nearTerms = function (term, maxdist) {
    if (!maxdist || !/^\p{L}+$/u.test(term)) { return []; }
    return (this.byInitial.get(term.charAt(0)) || []).filter(function (t) {
      return t !== term && editDistance(term, t, maxdist) <= maxdist;
    });
  };

  /** Glossary groups with a one-word phrasing a typo or two away from the typed word ("maldone"). */
  Engine.prototype.fuzzyGlossary = function (typed) {
    var maxdist = fuzzyDistance(typed), best = [], bestDist = maxdist + 1, self = this;
    if (!maxdist) { return []; }
    var target = this.term(typed);
    this.oneWordGlossary.forEach(function (term) {
      if (term.charAt(0) !== target.charAt(0) || Math.abs(term.length - target.length) > maxdist) { return; }
      var d = editDistance(target, term, maxdist), groups = self.byTerms.get(term);
      if (d < bestDist) { best = groups.slice(); bestDist = d; }
      else if (d === bestDist) { groups.forEach(function (g) { if (best.indexOf(g) < 0) { best.push(g); } }); }
    });
    return bestDist <= maxdist ? best : [];
  };

  // -- the query plan (ruling.search.QueryPlan.build) ---------------------------------------------

  Engine.prototype.plan = function (query) {
    var p = this.params, self = this;
    var numbers = [], named = [];
    var chunks = [], re = /\S+/g, m;
    while ((m = re.exec(query)) !== null && chunks.length < p.max_concepts) { chunks.push([m[0], m.index]); }
    chunks.forEach(function (c) {
      var raw = stripChars(c[0].toLowerCase(), p.number_punctuation);
      if (raw && raw.length <= 40 && self.numberRe.test(raw)) {
        if (numbers.indexOf(raw) < 0) { numbers.push(raw); }
        if (Object.prototype.hasOwnProperty.call(self.data.fields.number.postings, raw)) {
          named.push([c[1], c[1] + c[0].length]);
        }
      }
    });
    var spans = this.words(query).slice(0, p.max_query_words).filter(function (w) {
      return !named.some(function (n) { return n[0] <= w[1] && w[2] <= n[1]; });
    });
    var typed = spans.map(function (w) { return self.fold(w[0]); }).filter(function (w) { return !self.stops.has(w); });
    var stems = typed.map(function (w) { return self.term(w); });
    var concepts = [], seen = new Map();

    function add(variants) {
      var key = variants.map(function (v) { return v[0].join(" "); }).sort().filter(function (k, i, all) {
        return i === 0 || all[i - 1] !== k;
      }).join("\u0001");
      if (seen.has(key)) {
        var concept = seen.get(key);
        variants.forEach(function (v) {
          var k = v[0].join(" "), found = null;
          concept.forEach(function (c) { if (c[0].join(" ") === k) { found = c; } });
          if (found) { found[1] = Math.max(found[1], v[1]); } else { concept.push([v[0], v[1]]); }
        });
      } else if (concepts.length < p.max_concepts) {
        var fresh = [];
        variants.forEach(function (v) {  // a sequence met twice: its best weight is what scores
          var k = v[0].join(" "), found = null;
          fresh.forEach(function (c) { if (c[0].join(" ") === k) { found = c; } });
          if (found) { found[1] = Math.max(found[1], v[1]); } else { fresh.push([v[0], v[1]]); }
        });
        seen.set(key, fresh);
        concepts.push(fresh);
      }
    }

    function wordConcept(i, scale) {
      var variants = [[[stems[i]], scale]];
      if (self.knows(stems[i])) { return variants; }
      self.nearTerms(stems[i], fuzzyDistance(typed[i])).forEach(function (t) {
        variants.push([[t], p.fuzzy_weight * scale]);
      });
      return variants;
    }

    var i = 0;
    while (i < stems.length && concepts.length < p.max_concepts) {
      var found = this.glossarySpan(stems, i), span = found[0], groups = found[1];
      if (!groups.length && !this.knows(stems[i])) {
        groups = this.fuzzyGlossary(typed[i]);
        span = groups.length ? 1 : 0;
      }
      if (!groups.length) {
        add(wordConcept(i, 1));
        i += 1;
        continue;
      }
      var typedTerms = stems.slice(i, i + span);
      var variants = [[typedTerms, 1]];
      var weight = this.rarity(typedTerms) ? p.synonym_weight : p.synonym_weight_unknown;
      groups.forEach(function (g) {
        self.groups[g].forEach(function (v) {
          if (v.join(" ") !== typedTerms.join(" ")) { variants.push([v, weight * self.rarityCap(typedTerms, v)]); }
        });
      });
      if (span === 1 && !this.knows(stems[i])) { variants = variants.concat(wordConcept(i, 1).slice(1)); }
      add(variants);
      if (span > 1) {
        for (var j = i; j < i + span; j++) { add(wordConcept(j, p.phrase_word_weight)); }
      }
      i += span;
    }
    var pairs = [], pairKeys = new Set();
    for (var k = 0; k + 1 < stems.length && pairs.length < p.max_concepts; k++) {
      var key = stems[k] + " " + stems[k + 1];
      if (!pairKeys.has(key)) { pairKeys.add(key); pairs.push([stems[k], stems[k + 1]]); }
    }
    return {concepts: concepts, pairs: pairs, numbers: numbers};
  };

  Engine.prototype.glossarySpan = function (stems, i) {
    for (var span = Math.min(this.longest, stems.length - i); span > 0; span--) {
      var groups = this.byTerms.get(stems.slice(i, i + span).join(" "));
      if (groups) { return [span, groups]; }
    }
    return [0, []];
  };

  function stripChars(text, chars) {
    var s = 0, e = text.length;
    while (s < e && chars.indexOf(text.charAt(s)) >= 0) { s++; }
    while (e > s && chars.indexOf(text.charAt(e - 1)) >= 0) { e--; }
    return text.slice(s, e);
  }

  // -- scoring (BM25F as whoosh computes it; the query tree of ruling.search._whoosh_query) -------

  Engine.prototype.posting = function (field, term, doc) {
    var p = this.data.fields[field].postings[term];
    if (!p || !Object.prototype.hasOwnProperty.call(this.data.fields[field].postings, term)) { return null; }
    var list = p[1], lo = 0, hi = list.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (list[mid][0] < doc) { lo = mid + 1; } else { hi = mid; }
    }
    return lo < list.length && list[lo][0] === doc ? list[lo] : null;
  };

  /** A term's unboosted score in one field of one entry (null: not there). */
  Engine.prototype.termScore = function (field, term, doc) {
    var entry = this.posting(field, term, doc);
    if (!entry) { return null; }
    var f = this.data.fields[field];
    if (!f.scorable) { return entry[1]; }
    var idf = f.postings[term][0], tf = entry[1], K1 = this.params.K1, B = f.B;
    return idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * f.lengths[doc] / f.avgfl)));
  };

  /** Whether the words follow each other (gaps up to `slop`), as whoosh's SpanNear2 decides. */
  function phraseHere(positionLists, slop) {
    var aspans = positionLists[0].map(function (p) { return [p, p]; });
    for (var i = 1; i < positionLists.length && aspans.length; i++) {
      var bspans = positionLists[i], spans = new Map();
      aspans.forEach(function (a) {
        bspans.forEach(function (b) {
          if (b < a[0]) { return; }  // ordered: B never before A's start
          if (b > a[1] + slop) { return; }
          var dist = (a[0] <= b && b <= a[1]) ? 0 : (a[1] < b ? b - a[1] : a[0] - b);
          if (dist >= 1 && dist <= slop) {
            var s = [Math.min(a[0], b), Math.max(a[1], b)];
            spans.set(s[0] + ":" + s[1], s);
          }
        });
      });
      aspans = Array.from(spans.values());
    }
    return aspans.length > 0;
  }

  Engine.prototype.phraseScore = function (field, terms, slop, doc) {
    var scores = [], positions = [];
    for (var i = 0; i < terms.length; i++) {
      var entry = this.posting(field, terms[i], doc);
      if (!entry) { return null; }
      scores.push(this.termScore(field, terms[i], doc));
      positions.push(entry[2]);
    }
    return phraseHere(positions, slop) ? binarySum(scores) : null;
  };

  function binarySum(values) {  // whoosh.util.make_binary_tree(add, values): the same float rounding
    if (values.length === 1) { return values[0]; }
    var half = values.length >> 1;
    return binarySum(values.slice(0, half)) + binarySum(values.slice(half));
  }

  /** The query as a tree: one part per concept (BestOf alternatives, each a BestOf of fields),
   *  the pair phrases and the numbers; `unit` leaves are scored by `unitScore`. */
  Engine.prototype.tree = function (plan) {
    var p = this.params, self = this, parts = [];
    plan.concepts.forEach(function (concept) {
      var alternatives = concept.map(function (v) {
        var terms = v[0], weight = v[1];
        return {tiebreak: p.field_tiebreak, boost: 1, children: self.fieldNames.map(function (name) {
          return {field: name, terms: terms, slop: 1, boost: p.field_boosts[name] * weight};
        })};
      });
      parts.push(alternatives.length > 1 ? {tiebreak: 0, boost: 1, children: alternatives} : alternatives[0]);
    });
    plan.pairs.forEach(function (pair) {
      ["title", "body"].forEach(function (name) {
        parts.push({field: name, terms: pair, slop: p.pair_slop, boost: p.field_boosts[name] * p.pair_weight});
      });
    });
    plan.numbers.forEach(function (n) { parts.push({field: "number", terms: [n], slop: 1, boost: p.number_boost}); });
    return parts;
  };

  Engine.prototype.unitScore = function (unit, doc) {
    var raw = unit.terms.length === 1 ? this.termScore(unit.field, unit.terms[0], doc)
      : this.phraseScore(unit.field, unit.terms, unit.slop, doc);
    return raw === null ? null : raw * unit.boost;
  };

  Engine.prototype.nodeScore = function (node, doc) {
    if (!node.children) { return this.unitScore(node, doc); }
    var best = null;
    for (var i = 0; i < node.children.length; i++) {
      var x = this.nodeScore(node.children[i], doc);
      if (x !== null) { best = best === null ? x : Math.max(best, x) + node.tiebreak * Math.min(best, x); }
    }
    return best !== null && node.boost !== 1 ? best * node.boost : best;
  };

  /** The entries any leaf of the tree can match (those of its first word in its field). */
  Engine.prototype.candidates = function (parts) {
    var docs = new Set(), self = this;
    (function walk(node) {
      if (node.children) { node.children.forEach(walk); return; }
      var p = self.data.fields[node.field].postings[node.terms[0]];
      if (p && Object.prototype.hasOwnProperty.call(self.data.fields[node.field].postings, node.terms[0])) {
        p[1].forEach(function (e) { docs.add(e[0]); });
      }
    })({children: parts});
    return Array.from(docs);
  };

  /** Ranked hits for `query`: {kind, ref, book, bookTitle, title, url, snippet, score}.
   *  options: book, kind ("clause" | "procedure"), limit (10), allProcedures (no one-per-situation). */
  Engine.prototype.search = function (query, options) {
    options = options || {};
    var limit = options.limit || 10, p = this.params, docs = this.data.docs, self = this;
    var plan = this.plan(String(query));
    if (!plan.concepts.length && !plan.numbers.length) { return []; }
    var parts = this.tree(plan);
    var ranked = [];
    this.candidates(parts).forEach(function (n) {
      var d = docs[n];
      if ((options.book && d.book !== options.book) || (options.kind && d.kind !== options.kind)) { return; }
      var total = 0, matched = false;
      for (var i = 0; i < parts.length; i++) {
        var x = self.nodeScore(parts[i], n);
        if (x !== null) { total += x; matched = true; }
      }
      if (!matched) { return; }  // only a phrase's first word is there, not the phrase
      var proc = d.kind === "procedure";
      ranked.push([total * (proc ? p.procedure_weight : 1), proc, n]);
    });
    ranked.sort(function (a, b) { return (b[0] - a[0]) || ((a[1] ? 1 : 0) - (b[1] ? 1 : 0)) || (a[2] - b[2]); });
    var hits = [], seen = new Set(), terms = highlightTerms(plan);
    for (var i = 0; i < ranked.length && hits.length < limit; i++) {
      var d = docs[ranked[i][2]];
      if (ranked[i][1] && !options.allProcedures) {
        if (seen.has(d.group)) { continue; }
        seen.add(d.group);
      }
      hits.push({kind: d.kind, ref: d.ref, book: d.book, bookTitle: d.bookTitle, title: d.title, url: d.url,
                 snippet: this.snippet(d.body, terms), score: Math.round(ranked[i][0] * 1000) / 1000});
    }
    return hits;
  };

  function highlightTerms(plan) {
    var out = [];
    plan.concepts.forEach(function (c) { c.forEach(function (v) { out.push(v[0]); }); });
    return out;
  }

  // -- snippets (ruling.search.snippet): a window around the matched words, marked -------------

  /** [{text, mark}] pieces of a window of `text` around the matched term sequences. */
  Engine.prototype.snippet = function (text, termSeqs) {
    var width = this.params.snippet_chars, self = this;
    var spans = this.words(text).map(function (w) {
      var f = self.fold(w[0]);
      return self.stops.has(f) ? null : [self.term(f), w[1], w[2]];
    }).filter(Boolean);
    var marked = spans.map(function () { return false; });
    termSeqs.forEach(function (seq) {
      for (var i = 0; i + seq.length <= spans.length; i++) {
        var ok = true;
        for (var j = 0; j < seq.length && ok; j++) { ok = spans[i + j][0] === seq[j]; }
        if (ok) { for (j = 0; j < seq.length; j++) { marked[i + j] = true; } }
      }
    });
    var marks = spans.filter(function (s, i) { return marked[i]; }).map(function (s) { return [s[1], s[2]]; });
    var start = 0, end = text.length;
    if (text.length > width) {
      start = marks.length ? bestWindow(marks, width) : 0;
      if (start > 0) { while (start < text.length && !/\s/.test(text.charAt(start - 1))) { start++; } }
      end = Math.min(text.length, start + width);
      while (end < text.length && !/\s/.test(text.charAt(end))) { end++; }
    }
    var runs = [];
    marks.forEach(function (m) {
      if (m[0] < start || m[1] > end) { return; }
      if (runs.length && !text.slice(runs[runs.length - 1][1], m[0]).replace(/[ \-'’]/g, "")) {
        runs[runs.length - 1][1] = m[1];
      } else { runs.push([m[0], m[1]]); }
    });
    var pieces = [], pos = start;
    function plain(t) { return t.replace(/\n/g, " · ").replace(/\s+/g, " "); }
    if (start > 0) { pieces.push({text: "… ", mark: false}); }
    runs.forEach(function (r) {
      pieces.push({text: plain(text.slice(pos, r[0])), mark: false}, {text: plain(text.slice(r[0], r[1])), mark: true});
      pos = r[1];
    });
    pieces.push({text: plain(text.slice(pos, end)) + (end < text.length ? " …" : ""), mark: false});
    return pieces.filter(function (piece) { return piece.text; });
  };

  function bestWindow(marks, width) {
    var bestStart = marks[0][0], bestCount = 0;
    marks.forEach(function (m) {
      var count = marks.filter(function (o) { return o[0] >= m[0] && o[1] <= m[0] + width - 40; }).length;
      if (count > bestCount) { bestStart = m[0]; bestCount = count; }
    });
    return Math.max(0, bestStart - 40);
  }

  var api = {Engine: Engine, editDistance: editDistance};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; }
  else { root.RulingSearchEngine = api; }
})(this);
