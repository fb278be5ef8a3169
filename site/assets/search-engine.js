/* The site's search engine: `ruling search` in the browser, from the exported index alone.
 *
 * `window.RULING_SEARCH` (ruling/site/search_index.py) holds the command line's analysed terms,
 * postings, idf, field lengths, weights and glossary. This file repeats `ruling.search`'s steps
 * on them: the query's words folded and mapped to their terms (the exported map, else the copy of
 * whoosh's stemmer in search-stemmer.js plus ruling's own trimming), glossary phrasings recognised
 * and expanded, unknown words corrected by edit distance (as whoosh's terms_within and ListCorrector
 * pick them), then each entry scored as `ruling.search.ranking` says: BM25F of every part of the
 * query (each alternative in each field, pairs of typed words, printed numbers) summed, times the
 * entry's factor (procedures scaled down, the house book up), one entry per situation, the best
 * ones times the share of the query's concepts they match (ranking.COVERAGE_POWER); snippets
 * cut as whoosh's context fragmenter cuts them. Nothing here is a constant of the ranking: every
 * weight comes from the export. Runs in the browser and in Node (the parity test).
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
    this.idRe = new RegExp(this.params.id_re);
    this.numberWords = new Set(this.params.number_words);  // query.NUMBER_WORDS
    this.surface = new Map();
    var self = this;
    Object.keys(data.surface).forEach(function (term) {
      data.surface[term].split(" ").forEach(function (form) {
        self.surface.set(form.charAt(0) === "=" ? form.slice(1) : term + form, term);
      });
    });
    this.fieldNames = Object.keys(this.params.field_boosts);
    this.allFields = this.params.all_fields;  // index.ALL_FIELDS: what whoosh's "all" field holds
    this.byTerms = new Map();
    this.longest = 1;
    data.glossary.by_terms.forEach(function (pair) {
      self.byTerms.set(pair[0].join(" "), pair[1]);
      self.longest = Math.max(self.longest, pair[0].length);
    });
    this.groups = data.glossary.groups;
    this.negations = new Set(a.negations);
    this.byInitial = new Map();  // the indexed terms, by first letter (whoosh's terms_within, prefix=1)
    var terms = new Set();
    this.allFields.forEach(function (name) {
      Object.keys(data.fields[name].postings).forEach(function (t) { terms.add(t); });
    });
    Array.from(terms).sort().forEach(function (t) {
      var k = t.charAt(0);
      if (!self.byInitial.has(k)) { self.byInitial.set(k, []); }
      self.byInitial.get(k).push(t);
    });
    this.oneWordGlossary = Array.from(new Set(data.glossary.by_terms.filter(function (pair) {
      return pair[0].length === 1;
    }).map(function (pair) { return pair[0][0]; }))).sort();  // GlossaryMap.single_words
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
    for (var i = 0; i < this.allFields.length; i++) {
      if (Object.prototype.hasOwnProperty.call(f[this.allFields[i]].postings, term)) { return true; }
    }
    return false;
  };

  /** How many entries hold `term` in some field: its document frequency in the "all" field. */
  Engine.prototype.entryFrequency = function (term) {
    var docs = new Set(), f = this.data.fields;
    this.allFields.forEach(function (name) {
      var p = f[name].postings[term];
      if (p && Object.prototype.hasOwnProperty.call(f[name].postings, term)) {
        p[1].forEach(function (e) { docs.add(e[0]); });
      }
    });
    return docs.size;
  };

  /** SearchIndex.rarity: the idf of the rarest term of a sequence; 0 if one is absent. */
  Engine.prototype.rarity = function (terms) {
    var n = Math.max(1, this.data.doc_count), best = 0;
    for (var i = 0; i < terms.length; i++) {
      var df = this.entryFrequency(terms[i]);
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

  /** Indexed terms within `maxdist` edits of `term`, same first letter, not `term` (SearchIndex.near_terms:
   *  whoosh's terms_within, a Levenshtein automaton with the first letter fixed, no swaps). */
  Engine.prototype.nearTerms = function (term, maxdist) {
    if (!maxdist || !/^\p{L}+$/u.test(term)) { return []; }
    return (this.byInitial.get(term.charAt(0)) || []).filter(function (t) {
      return t !== term && levenshtein(term.slice(1), t.slice(1), maxdist) <= maxdist;
    });
  };

  // -- the query plan (ruling.search.query.QueryPlan.build) ---------------------------------------

  /** The indexed term fewest edits from `term`, same first letter (SearchIndex.closest_term). */
  Engine.prototype.closestTerm = function (term, maxdist) {
    for (var dist = 1; dist <= maxdist; dist++) {
      var near = this.nearTerms(term, dist).slice().sort(function (a, b) {
        var da = Math.abs(a.length - term.length), db = Math.abs(b.length - term.length);
        return (da - db) || (a < b ? -1 : a > b ? 1 : 0);
      });
      if (near.length) { return near[0]; }
    }
    return null;
  };

  Engine.prototype.plan = function (query) {
    var p = this.params, self = this;
    var numbers = [], named = [];
    var chunks = [], re = /\S+/g, m;
    while ((m = re.exec(query)) !== null && chunks.length < p.max_concepts) { chunks.push([m[0], m.index]); }
    var before = "";
    chunks.forEach(function (c) {
      var raw = stripChars(c[0].toLowerCase(), p.number_punctuation);
      var known = Object.prototype.hasOwnProperty.call(self.data.fields.number.postings, raw);
      var announced = self.numberWords.has(self.fold(before));
      before = raw;
      // « seat 5 », « 3 joueurs »: not the cash rules numbered 5, nor a word (query.QueryPlan.build)
      if (/^[0-9]+$/.test(raw) && !announced && known) { named.push([c[1], c[1] + c[0].length]); return; }
      // a number ("9-13"), or an id with a dash or colon that names an entry ("flop-irregulier")
      if (raw && raw.length <= 40 && (self.numberRe.test(raw) || (self.idRe.test(raw) && known))) {
        if (numbers.indexOf(raw) < 0) { numbers.push(raw); }
        if (known) { named.push([c[1], c[1] + c[0].length]); }
      }
    });
    var spans = this.words(query).slice(0, p.max_query_words).filter(function (w) {
      return !named.some(function (n) { return n[0] <= w[1] && w[2] <= n[1]; });
    });
    var typed = spans.map(function (w) { return self.fold(w[0]); }).filter(function (w) {
      return !self.stops.has(w) && !(named.length && self.numberWords.has(w));
    });
    var stems = typed.map(function (w) { return self.term(w); });
    var concepts = [], seen = new Map();

    // A concept: [[terms, weight], ...]; met again (same set of alternatives), its weights are the
    // best of both, as a Python dict of the alternatives would keep them.
    function add(variants) {
      var key = variants.map(function (v) { return v[0].join(" "); }).sort().filter(function (k, i, all) {
        return i === 0 || all[i - 1] !== k;
      }).join("\u0001");
      if (seen.has(key)) {
        var concept = seen.get(key), best = new Map();
        concept.forEach(function (c) { best.set(c[0].join(" "), [c[0], c[1]]); });
        variants.forEach(function (v) {
          var k = v[0].join(" "), had = best.get(k);
          best.set(k, [v[0], Math.max(had ? had[1] : 0, v[1])]);
        });
        concept.length = 0;
        best.forEach(function (v) { concept.push(v); });
      } else if (concepts.length < p.max_concepts) {
        var fresh = variants.map(function (v) { return [v[0], v[1]]; });
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

    var corrected = stems.map(function (s, k) {
      return self.knows(s) ? s : (self.closestTerm(s, fuzzyDistance(typed[k])) || s);
    });
    var i = 0;
    while (i < stems.length && concepts.length < p.max_concepts) {
      var found = this.glossarySpan(corrected, i), span = found[0], groups = found[1];
      if (!groups.length && !this.knows(stems[i])) {
        groups = this.glossaryTypo(typed[i], fuzzyDistance(typed[i]));
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
          if (v.join(" ") === typedTerms.join(" ")) { return; }
          if (span > 1 && v.every(function (t) { return typedTerms.indexOf(t) >= 0; })) { return; }
          variants.push([v, weight * self.rarityCap(typedTerms, v)]);
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
    for (var k = 0; k + 1 < stems.length && pairs.length < p.max_pairs; k++) {
      var key = stems[k] + " " + stems[k + 1];
      if (!pairKeys.has(key)) { pairKeys.add(key); pairs.push([stems[k], stems[k + 1]]); }
    }
    if (concepts.length > p.long_query_concepts) {  // pasted text: its rarest words, no pairs
      var rarity = concepts.map(function (c) { return self.rarity(c[0][0]) || 99; });
      var order = concepts.map(function (c, n) { return n; }).sort(function (a, b) {
        return (rarity[b] - rarity[a]) || (a - b);
      });
      var keep = order.slice(0, p.long_query_concepts).sort(function (a, b) { return a - b; });
      concepts = keep.map(function (n) { return concepts[n]; });
      pairs = [];
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

  /** Glossary groups of the one-word phrasing closest to the typed word, as whoosh's
   *  ListCorrector.suggest(stem, limit=1, maxdist, prefix=1) picks it: the fewest edits
   *  (Levenshtein after the first letter), the alphabetically last among equals. */
  Engine.prototype.glossaryTypo = function (typed, maxdist) {
    if (!maxdist) { return []; }
    var target = this.term(typed), best = null, bestDist = maxdist + 1;
    for (var n = 0; n < this.oneWordGlossary.length; n++) {
      var word = this.oneWordGlossary[n];
      if (word.charAt(0) !== target.charAt(0)) { continue; }
      var d = Math.max(1, levenshtein(target.slice(1), word.slice(1), maxdist));
      if (d <= maxdist && (d < bestDist || (d === bestDist && word > best))) { best = word; bestDist = d; }
    }
    return best === null ? [] : this.byTerms.get(best).slice();
  };

  function stripChars(text, chars) {
    var s = 0, e = text.length;
    while (s < e && chars.indexOf(text.charAt(s)) >= 0) { s++; }
    while (e > s && chars.indexOf(text.charAt(e - 1)) >= 0) { e--; }
    return text.slice(s, e);
  }

  /** Plain Levenshtein distance (no swaps), capped at limit + 1: whoosh's Levenshtein automaton. */
  function levenshtein(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) { return limit + 1; }
    var previous = [];
    for (var j = 0; j <= b.length; j++) { previous.push(j); }
    for (var i = 1; i <= a.length; i++) {
      var current = [i], low = i;
      for (j = 1; j <= b.length; j++) {
        var d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a.charAt(i - 1) !== b.charAt(j - 1) ? 1 : 0));
        current.push(d);
        low = Math.min(low, d);
      }
      if (low > limit) { return limit + 1; }
      previous = current;
    }
    return Math.min(previous[b.length], limit + 1);
  }

  // -- scoring (ruling.search.ranking: BM25F summed over the query's parts, times the entry's factor) --

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
    var idf = f.postings[term][0], tf = entry[1], K1 = this.params.bm25.K1, B = this.params.bm25.B;
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

  /** The query's parts, as ruling.search.query.whoosh_query lists them: every alternative of
   *  every concept in every field, the pairs of typed words, the printed numbers. */
  Engine.prototype.units = function (plan) {
    var p = this.params, self = this, units = [];
    plan.concepts.forEach(function (concept) {
      concept.forEach(function (v) {
        self.fieldNames.forEach(function (name) {
          if (v[0].length === 1 || p.phrase_fields.indexOf(name) >= 0) {  // ranking.PHRASE_FIELDS
            units.push({field: name, terms: v[0], slop: 1, boost: p.field_boosts[name] * v[1]});
          }
        });
      });
    });
    plan.pairs.forEach(function (pair) {
      p.pair_fields.forEach(function (name) {
        units.push({field: name, terms: pair, slop: p.pair_slop, boost: p.field_boosts[name] * p.pair_weight});
      });
    });
    plan.numbers.forEach(function (n) { units.push({field: "number", terms: [n], slop: 1, boost: p.number_boost}); });
    return units;
  };

  Engine.prototype.unitScore = function (unit, doc) {
    var raw = unit.terms.length === 1 ? this.termScore(unit.field, unit.terms[0], doc)
      : this.phraseScore(unit.field, unit.terms, unit.slop, doc);
    return raw === null ? null : raw * unit.boost;
  };

  /** The entries any part can match (those holding its first word in its field). */
  Engine.prototype.candidates = function (units) {
    var docs = new Set(), self = this;
    units.forEach(function (unit) {
      var postings = self.data.fields[unit.field].postings, p = postings[unit.terms[0]];
      if (p && Object.prototype.hasOwnProperty.call(postings, unit.terms[0])) {
        p[1].forEach(function (e) { docs.add(e[0]); });
      }
    });
    return Array.from(docs);
  };

  /** How many of the things asked about (concepts, printed numbers) entry `doc` holds: a concept
   *  when all the words of one of its alternatives are in some field (ranking._covered). */
  Engine.prototype.covered = function (plan, doc) {
    var self = this, count = 0;
    function anywhere(term) {
      return self.fieldNames.some(function (name) { return self.posting(name, term, doc) !== null; });
    }
    plan.concepts.forEach(function (concept) {
      if (concept.some(function (v) { return v[0].every(anywhere); })) { count++; }
    });
    plan.numbers.forEach(function (n) { if (self.posting("number", n, doc) !== null) { count++; } });
    return count;
  };

  /** ranking._said: the best F1, over entry `doc`'s phrasings, of the share of the concepts' rarity
   *  it holds and the share of its terms the first held alternative of each held concept covers. */
  Engine.prototype.said = function (plan, weights, doc) {
    var total = 0;
    weights.forEach(function (w) { total += w; });
    var best = 0;
    (this.data.docs[doc].said || []).forEach(function (phrasing) {
      var held = new Set(phrasing), matched = 0, covered = new Set();
      plan.concepts.forEach(function (concept, i) {
        for (var k = 0; k < concept.length; k++) {
          if (concept[k][0].every(function (t) { return held.has(t); })) {
            matched += weights[i];
            concept[k][0].forEach(function (t) { covered.add(t); });
            return;
          }
        }
      });
      if (!matched) { return; }
      var recall = matched / total, precision = covered.size / phrasing.length;
      best = Math.max(best, 2 * recall * precision / (recall + precision));
    });
    return best;
  };

  /** Each concept's rarity for `said`: that of its rarest word, log(entries / entries holding it) + 1,
   *  the highest for a word no entry holds. */
  Engine.prototype.saidWeights = function (plan) {
    var self = this, unknown = Math.log(Math.max(1, this.data.doc_count)) + 1;
    return plan.concepts.map(function (concept) {
      var best = -Infinity;
      concept.forEach(function (v) {
        v[0].forEach(function (t) { best = Math.max(best, self.rarity([t]) || unknown); });
      });
      return best;
    });
  };

  /** An entry's factor (ranking.entry_factors): the procedure weight, the house boost, 0 if filtered. */
  Engine.prototype.factor = function (d, options, house) {
    if ((options.book && d.book !== options.book) || (options.kind && d.kind !== options.kind)) { return 0; }
    var p = this.params;
    var procedure = d.kind === "procedure";
    return (procedure ? p.procedure_weight : 1)
      * (house && d.book === house ? (procedure ? p.procedure_house_boost : p.house_boost) : 1);
  };

  /** Ranked hits for `query`: {kind, ref, book, bookTitle, title, url, snippet, score}.
   *  options: book, kind ("clause" | "procedure"), limit (10), house (the base's house book
   *  unless given; "" for none), allProcedures (no one-per-situation). */
  Engine.prototype.search = function (query, options) {
    options = options || {};
    var limit = options.limit || 10, docs = this.data.docs, self = this;
    var house = options.house === undefined || options.house === null ? this.data.house_book : options.house;
    var plan = this.plan(String(query));
    if (!plan.concepts.length && !plan.numbers.length) { return []; }
    var units = this.units(plan), p = this.params;
    var asked = plan.concepts.length + plan.numbers.length;
    var ranked = [];
    this.candidates(units).forEach(function (n) {
      var d = docs[n], f = self.factor(d, options, house);
      if (!f) { return; }
      var total = 0;
      for (var i = 0; i < units.length; i++) {
        var x = self.unitScore(units[i], n);
        if (x !== null) { total += x * f; }
      }
      if (total > 0) { ranked.push([total, n]); }  // none: only a phrase's first word is there
    });
    ranked.sort(function (a, b) { return (b[0] - a[0]) || (a[1] - b[1]); });
    var covering = p.coverage_power && asked > 1, saying = p.said_weight && plan.concepts.length && !plan.numbers.some(function (n) {
      return Object.prototype.hasOwnProperty.call(self.data.fields.number.postings, n);  // SearchIndex.knows_number
    });
    if (covering || saying) {
      // ranking.ranked: the best coverage_depth entries (one per situation) times the share of
      // the concepts and numbers asked about that they match, to the power coverage_power, and
      // times 1 + said_weight × how well one of their phrasings says the query
      var top = [], groups = new Set(), depth = Math.max(limit, p.coverage_depth);
      var weights = saying ? this.saidWeights(plan) : [];
      for (var r = 0; r < ranked.length && top.length < depth; r++) {
        var g = docs[ranked[r][1]].group;
        if (!options.allProcedures) {
          if (groups.has(g)) { continue; }
          groups.add(g);
        }
        var factor = (covering ? Math.pow(this.covered(plan, ranked[r][1]) / asked, p.coverage_power) : 1)
          * (saying ? 1 + p.said_weight * this.said(plan, weights, ranked[r][1]) : 1);
        top.push([ranked[r][0] * factor, ranked[r][1], top.length]);
      }
      top.sort(function (a, b) { return (b[0] - a[0]) || (a[2] - b[2]); });  // equal scores keep their order
      ranked = top;
    }
    var hits = [], seen = new Set(), terms = highlightTerms(plan);
    for (var i = 0; i < ranked.length && hits.length < limit; i++) {
      var d = docs[ranked[i][1]];
      if (!options.allProcedures) {  // whoosh's collapse on the group column: one entry per situation
        if (seen.has(d.group)) { continue; }
        seen.add(d.group);
      }
      hits.push({kind: d.kind, ref: d.ref, book: d.book, bookTitle: d.bookTitle, title: d.title, url: d.url,
                 snippet: this.snippet(d.body, terms), score: Math.round(ranked[i][0] * 1000) / 1000});
    }
    return hits;
  };

  function highlightTerms(plan) {
    var out = new Set();
    plan.concepts.forEach(function (c) { c.forEach(function (v) { v[0].forEach(function (t) { out.add(t); }); }); });
    return out;
  }

  // -- snippets (ruling.search.snippets: whoosh's highlighter, context fragmenter, `**` runs) -----

  /** The fragment whoosh's ContextFragmenter(maxchars, surround) + BasicFragmentScorer pick. */
  Engine.prototype.fragment = function (text, terms) {
    var p = this.params, maxchars = p.snippet_chars, surround = p.snippet_surround, self = this;
    var tokens = this.words(text).map(function (w) {
      var f = self.fold(w[0]), t = self.stops.has(f) ? f : self.term(f);
      return {text: t, start: w[1], end: w[2], matched: terms.has(t)};
    });
    var frags = [], first = null, firsts = [], countdown = -1, tks = [], endchar = null, currentlen = 0;
    for (var n = 0; n < tokens.length; n++) {
      var t = tokens[n], tlength = t.end - t.start;
      endchar = t.end;
      if (endchar > p.snippet_charlimit) { break; }
      if (countdown < 0 && !t.matched) {
        firsts.push(t.start);
        while (firsts.length && endchar - firsts[0] > surround) { firsts.shift(); }
      } else if (currentlen + tlength > maxchars) {
        countdown = 0;
      } else if (t.matched) {
        countdown = surround;
        if (first === null) {
          if (firsts.length) { first = firsts[0]; } else { first = t.start; countdown += surround; }
        }
        tks.push(t);
      }
      if (countdown >= 0) {
        currentlen += tlength;
        countdown -= tlength;
        if (countdown <= 0) {
          frags.push({start: first, end: endchar, matches: tks});
          tks = []; firsts = []; first = null; currentlen = 0;
        }
      }
    }
    if (tks.length) { frags.push({start: first, end: endchar, matches: tks}); }
    var best = null, bestScore = -1;
    frags.forEach(function (f) {  // max() over (score, fragment): a later fragment wins a tie
      var distinct = new Set(f.matches.map(function (m) { return m.text; })).size;
      var score = f.matches.length * (distinct * 100 || 1);
      if (score >= bestScore) { best = f; bestScore = score; }
    });
    return best !== null && bestScore >= 1 ? best : null;
  };

  /** [{text, mark}] pieces of the snippet `ruling search` shows: `**` runs become marks. */
  Engine.prototype.snippet = function (text, terms) {
    text = text || "";
    var width = this.params.snippet_chars, start = 0, end = text.length, shown;
    var frag = terms.size && text ? this.fragment(text, terms) : null;
    if (frag) {
      start = frag.start;
      end = frag.end;
      var out = "", index = start;
      frag.matches.forEach(function (m) {
        if (m.start < index) { return; }
        out += text.slice(index, m.start) + "**" + text.slice(m.start, m.end) + "**";
        index = m.end;
      });
      shown = (out + text.slice(index, end)).replace(/\*\*([\s'’-]+)\*\*/g, "$1");
    } else {
      if (text.length > width) {
        var head = text.slice(0, width), cut = head.lastIndexOf(" ");
        end = cut >= 0 ? cut : head.length;
      }
      shown = text.slice(start, end);
    }
    shown = (text.slice(0, start).trim() ? "… " : "") + shown + (text.slice(end).trim() ? " …" : "");
    shown = shown.replace(/\n/g, " · ").replace(/\s+/g, " ").trim();
    var pieces = [], re = /\*\*(.+?)\*\*/g, pos = 0, m;
    while ((m = re.exec(shown)) !== null) {
      if (m.index > pos) { pieces.push({text: shown.slice(pos, m.index), mark: false}); }
      pieces.push({text: m[1], mark: true});
      pos = m.index + m[0].length;
    }
    if (pos < shown.length) { pieces.push({text: shown.slice(pos), mark: false}); }
    return pieces;
  };

  var api = {Engine: Engine, levenshtein: levenshtein};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; }
  else { root.RulingSearchEngine = api; }
})(this);
