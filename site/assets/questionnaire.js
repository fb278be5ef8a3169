/* The in-browser questionnaire: walks a decision procedure to its decision and cited clauses.
 *
 * The procedures come from window.RULING_QUESTIONNAIRE, written at build time by the site hook
 * (assets/javascripts/ruling-questionnaire-data.js), so this works from file:// too: no fetch,
 * no framework, no CDN. Each procedure comes with the engine's decision tree: the browser
 * follows it (question, answer, next node) to a decision leaf; a computed leaf first asks its
 * amounts, then runs the kernel of assets/kernels.js and fills the rule's template. Every
 * sentence comes from the data. Text is always set with textContent, never parsed as HTML.
 * « Je ne sais pas » follows every edge of the question, as `ruling decide -a q=?` does
 * (ruling/decide/unknown.py): the decision of each case side by side, or the next question.
 */
(function () {
  "use strict";

  var DATA = window.RULING_QUESTIONNAIRE || { procedures: [], clauses: {}, parameters: {}, refusals: {}, inputNames: {} };

  var K = window.RulingKernels;

  // -- following the engine's decision tree (ruling/engine.py: decision_tree) ------------------
  // The questions, their order and the decisions are the engine's, exported at build time: the
  // browser only follows the edge of each given answer.
  function same(expected, answer) {
    return typeof expected === typeof answer && expected === answer;
  }

  function has(answers, q) {
    return Object.prototype.hasOwnProperty.call(answers, q);
  }

  function follow(tree, answers) {
    var node = tree.root;
    while (node.question && has(answers, node.question)) {
      var next = null;
      for (var i = 0; i < node.answers.length; i++) {
        if (same(node.answers[i][0], answers[node.question])) { next = node.answers[i][1]; break; }
      }
      if (!next) { return { gap: true }; }
      node = next;
    }
    return node;
  }

  // « Je ne sais pas »: an answer equal to no edge's value, so `follow` never takes it.
  var UNKNOWN = { unknown: true };
  var DONT_KNOW = "Je ne sais pas";
  var AMOUNTS_TITLE = "Montants à saisir";

  // The questions answered « je ne sais pas », in the order answered (the CLI's order of `-a q=?`).
  function unknownIds(order, answers) {
    return order.filter(function (q) { return answers[q] === UNKNOWN; });
  }

  // Every case the answers leave open: one per combination of the unknown answers (the first
  // unknown varying slowest, as itertools.product in ruling/decide/unknown.py: branches), each
  // with the node the tree reaches on the known answers plus the assumed ones.
  function branchesOf(proc, order, answers) {
    var combos = [{}];
    unknownIds(order, answers).forEach(function (qid) {
      var wider = [];
      combos.forEach(function (assumed) {
        options(questionOf(proc, qid)).forEach(function (opt) {
          var next = Object.assign({}, assumed);
          next[qid] = opt.value;
          wider.push(next);
        });
      });
      combos = wider;
    });
    return combos.map(function (assumed) {
      return { assumed: assumed, node: follow(proc.tree, Object.assign({}, answers, assumed)) };
    });
  }

  // Where the walk stands: the unknown questions, the cases, and the first question a case still
  // needs (its answer then applies to every case; `Branches.next_question` of the CLI).
  function walkOf(proc, order, answers) {
    var cases = branchesOf(proc, order, answers);
    var asked = null;
    for (var i = 0; i < cases.length && asked === null; i++) {
      if (cases[i].node.question) { asked = cases[i].node.question; }
    }
    return { unknown: unknownIds(order, answers), cases: cases, question: asked };
  }

  function ruleOf(proc, outcome) {
    for (var i = 0; i < proc.rules.length; i++) {
      if (proc.rules[i].outcome === outcome) { return proc.rules[i]; }
    }
    return null;
  }

  // The decision of a computed leaf: the kernel's figures through the rule's template.
  function computeDecision(proc, rule, inputs, given) {
    var params = DATA.parameters[proc.book] || {};
    // what the path already says: the rule's `given` (no bet to call) and the answers it took (the street)
    inputs = Object.assign({}, rule.given || {}, given || {}, inputs);
    var figures = K.kernels[rule.compute](inputs, params);
    var scope = Object.assign({}, params, inputs, figures);
    return { figures: figures, text: K.render(K.pick(rule.decision, figures.cas), scope, rule.each) };
  }

  // A figure as `ruling decide` reads it (ruling/decide/kinds.py): digits, thousands grouped by
  // blanks (« 2 500 »); a list by commas, else by blanks, where a no-break space always groups
  // thousands, a whole answer grouped by three from one or two digits is one amount, and any other
  // plain blank before exactly three digits (« 200 350 ») is refused as ambiguous.
  function whole(text) {
    var cleaned = String(text).trim().replace(/_/g, "");
    if (/^\+?\d{1,3}([ \u00a0\u202f]\d{3})+$/.test(cleaned)) { cleaned = cleaned.replace(/[ \u00a0\u202f]/g, ""); }
    if (!/^\+?\d+$/.test(cleaned)) { return null; }
    return parseInt(cleaned, 10);
  }

  var NONE_WORDS = ["aucun", "aucune", "aucuns", "aucunes", "personne", "rien", "none", "-"];
  var LIST_KINDS = ["amounts", "seats", "ranks", "counts", "cards"];

  function foldTyped(text) {  // a typed answer: trimmed, lower case, no accents
    return String(text).trim().toLowerCase().replace(/œ/g, "oe").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  }

  var RANKS = { a: "A", as: "A", ace: "A", k: "K", r: "K", roi: "K", king: "K", q: "Q", d: "Q", dame: "Q", queen: "Q",
                j: "J", v: "J", valet: "J", jack: "J", t: "T", "10": "T", dix: "T", ten: "T", deux: "2", trois: "3",
                quatre: "4", cinq: "5", six: "6", sept: "7", huit: "8", neuf: "9" };
  var SUITS = { "\u2660": "s", "\u2664": "s", pique: "s", piques: "s", spade: "s", spades: "s", s: "s", p: "s",
                "\u2665": "h", "\u2661": "h", coeur: "h", coeurs: "h", heart: "h", hearts: "h", h: "h",
                "\u2666": "d", "\u2662": "d", carreau: "d", carreaux: "d", diamond: "d", diamonds: "d", d: "d",
                "\u2663": "c", "\u2667": "c", trefle: "c", trefles: "c", club: "c", clubs: "c" };
  var FRENCH_RANKS = ["r", "roi", "d", "dame", "v", "valet", "as", "dix"];
  var ENGLISH_RANKS = ["k", "king", "q", "queen", "j", "jack", "t", "ace", "ten"];
  var CARD_RE = /^(10|roi|dame|valet|dix|deux|trois|quatre|cinq|six|sept|huit|neuf|ace|king|queen|jack|ten|as|[2-9]|[akqjtrdv])\s*(?:de\s+|of\s+)?(.+)$/;

  // A card typed « As♠ », « AS », « as de pique », « Ah », « 10 de cœur » as its code "As", "Th", or null.
  function parseCard(raw) {
    var text = foldTyped(raw), rank, suit;
    var m = /^as (?:de )?(.+)$/.exec(text) || null;
    if (m) { rank = "as"; suit = m[1].trim(); } else {
      m = CARD_RE.exec(text);
      if (!m) { return null; }
      rank = m[1]; suit = m[2].trim();
    }
    var code;
    if (suit === "c") {
      if (FRENCH_RANKS.indexOf(rank) >= 0) { code = "h"; } else if (ENGLISH_RANKS.indexOf(rank) >= 0) { code = "c"; } else { return null; }
    } else if (Object.prototype.hasOwnProperty.call(SUITS, suit)) { code = SUITS[suit]; } else { return null; }
    return (Object.prototype.hasOwnProperty.call(RANKS, rank) ? RANKS[rank] : rank) + code;
  }

  function kindOf(question) { return question.kind || (question.type === "amounts" ? "amounts" : "amount"); }

  function parseAmount(question, raw) {
    var kind = kindOf(question);
    var isList = LIST_KINDS.indexOf(kind) >= 0;
    if (question.none && NONE_WORDS.indexOf(foldTyped(raw)) >= 0) { return isList ? [] : 0; }
    if (!isList) {
      var value = whole(raw);
      return kind === "seat" && value !== null && (value < 1 || value > 12) && !(question.none && value === 0) ? null : value;
    }
    var text = String(raw).trim().replace(/^\[|\]$/g, "").trim();
    if (!text) { return question.none ? [] : null; }
    var parts;
    if (/[,;]/.test(text)) {
      parts = text.split(/[,;]/).filter(function (t) { return t.trim(); });
    } else {
      var protectedText = text.replace(/\d{1,3}(?:[\u00a0\u202f]\d{3})+/g, function (m) { return m.replace(/[\u00a0\u202f]/g, ""); });
      // « 2 500 », « 1 000 000 »: one amount written in thousands
      parts = /^\d{1,2}( \d{3})+$/.test(protectedText) ? [protectedText.replace(/ /g, "")] :
        protectedText.split(/\s+/).filter(function (t) { return t; });
      for (var i = 1; i < parts.length; i++) {
        if (/^\d{1,3}$/.test(parts[i - 1]) && /^\d{3}$/.test(parts[i])) { return null; }  // « 200 350 »: ambiguous
      }
    }
    var values = parts.map(kind === "cards" ? parseCard : whole);
    if (values.some(function (v) { return v === null; })) { return null; }
    if (kind === "seats" && values.some(function (v) { return v < 1 || v > 12; })) { return null; }
    if ((kind === "seats" || kind === "cards") && values.some(function (v, k) { return values.indexOf(v) !== k; })) { return null; }
    return values;
  }

  // What each kind expects, in the words of the command line's refusals.
  var EXPECTED = {
    amount: "un nombre entier de jetons ≥ 0",
    amounts: "une liste de nombres entiers ≥ 0 séparés par des virgules (ex. 100, 200)",
    seat: "un numéro de siège de 1 à 12",
    seats: "une liste de numéros de sièges de 1 à 12, différents, séparés par des virgules",
    rank: "un rang entier ≥ 0",
    ranks: "une liste de rangs séparés par des virgules (1 = meilleure main, 0 = couché)",
    count: "un nombre entier ≥ 0",
    counts: "une liste de nombres entiers ≥ 0 séparés par des virgules",
    cards: "une liste de cartes différentes séparées par des virgules (ex. As♠, Rh, 10 de cœur)"
  };

  // -- small DOM helpers ------------------------------------------------------------------------
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }

  function button(label, className, onClick) {
    var b = el("button", "md-button " + (className || ""), label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function siteUrl(path) {
    // material's page config knows the way back to the site root from this page ("." or "../..").
    var base = ".";
    var config = document.getElementById("__config");
    if (config) {
      try { base = JSON.parse(config.textContent).base || "."; } catch (e) { base = "."; }
    }
    return base.replace(/\/+$/, "") + "/" + path;
  }

  function findProcedure(key) {
    for (var i = 0; i < DATA.procedures.length; i++) {
      if (DATA.procedures[i].key === key) { return DATA.procedures[i]; }
    }
    return null;
  }

  function questionOf(proc, id) {
    for (var i = 0; i < proc.questions.length; i++) {
      if (proc.questions[i].id === id) { return proc.questions[i]; }
    }
    return { id: id, text: id, type: "bool", choices: [] };
  }

  function options(question) {
    if (question.type === "bool") {
      return [{ value: true, label: "Oui" }, { value: false, label: "Non" }];
    }
    return question.choices || [];
  }

  function answerLabel(question, value) {
    if (value === UNKNOWN) { return DONT_KNOW; }
    var opts = options(question);
    for (var i = 0; i < opts.length; i++) {
      if (same(opts[i].value, value)) { return opts[i].label; }
    }
    return String(value);
  }

  // An assumed answer as the command line labels it (Question.label): « oui », « non », the choice's label.
  function caseLabel(question, value) {
    if (question.type === "bool") { return value ? "oui" : "non"; }
    return answerLabel(question, value);
  }

  // -- one questionnaire widget ------------------------------------------------------------------
  // -- the state in the URL --------------------------------------------------------------------
  // `#procedure=club%2Fflop-irregulier&q.defaut=premature&m.mises=200%2C290`: the situation, the
  // answers in the order given (q.), the amounts typed (m.). Back, a bookmark and a shared link
  // restore it; a fragment that is not ours (a heading's anchor) is left alone.
  function readState(hash) {
    var text = String(hash || "").replace(/^#/, "");
    var state = { procedure: "", answers: [], amounts: {}, ours: false };
    if (!/(^|&)(procedure|q\.[^=&]+|m\.[^=&]+)=/.test(text)) { return state; }
    state.ours = true;
    text.split("&").forEach(function (pair) {
      var at = pair.indexOf("=");
      if (at < 0) { return; }
      var key, value;
      try {
        key = decodeURIComponent(pair.slice(0, at));
        value = decodeURIComponent(pair.slice(at + 1).replace(/\+/g, " "));
      } catch (e) { return; }
      if (key === "procedure") { state.procedure = value; }
      else if (key.slice(0, 2) === "q.") { state.answers.push([key.slice(2), value]); }
      else if (key.slice(0, 2) === "m.") { state.amounts[key.slice(2)] = value; }
    });
    return state;
  }

  function answerText(value) {
    return value === UNKNOWN ? "?" : value === true ? "oui" : value === false ? "non" : String(value);
  }

  // « ? » in the URL is « je ne sais pas »: the question's `ifUnknown` answer when it has one.
  function answerValue(question, text) {
    if (text === "?") { return has(question, "ifUnknown") ? question.ifUnknown : (options(question).length ? UNKNOWN : null); }
    if (question.type === "bool") { return text === "oui" ? true : text === "non" ? false : null; }
    var opts = options(question);
    for (var i = 0; i < opts.length; i++) {
      if (String(opts[i].value) === text) { return opts[i].value; }
    }
    return null;
  }

  function Questionnaire(root) {
    this.root = root;
    this.fixed = root.getAttribute("data-procedure") || "";
    this.proc = null;
    this.order = [];  // question ids in the order they were answered
    this.answers = {};
    this.amountsTyped = {};
  }

  Questionnaire.prototype.stateHash = function () {
    var self = this;
    var parts = [];
    if (!this.proc) { return ""; }
    if (!this.fixed) { parts.push("procedure=" + encodeURIComponent(this.proc.key)); }
    this.order.forEach(function (q) {
      parts.push("q." + encodeURIComponent(q) + "=" + encodeURIComponent(answerText(self.answers[q])));
    });
    Object.keys(this.amountsTyped).forEach(function (q) {
      parts.push("m." + encodeURIComponent(q) + "=" + encodeURIComponent(self.amountsTyped[q]));
    });
    return parts.length ? "#" + parts.join("&") : "";
  };

  // Each step is a history entry: Back undoes the last answer, and returns here from a cited rule.
  Questionnaire.prototype.save = function (replace) {
    var hash = this.stateHash();
    if (hash === (location.hash || "") || (!hash && !readState(location.hash).ours)) { return; }
    var url = location.href.replace(/#.*$/, "") + hash;
    try {
      if (replace) { history.replaceState(null, "", url); } else { history.pushState(null, "", url); }
    } catch (e) { /* file:// in some browsers: the state stays in the page */ }
  };

  // The widget's state from the URL: the answers the tree accepts, in order, the rest dropped.
  Questionnaire.prototype.restore = function () {
    var state = readState(location.hash);
    this.proc = this.fixed ? findProcedure(this.fixed) : (state.procedure ? findProcedure(state.procedure) : null);
    this.order = [];
    this.answers = {};
    this.amountsTyped = {};
    if (!this.proc) { return; }
    for (var i = 0; i < state.answers.length; i++) {
      var asked = walkOf(this.proc, this.order, this.answers).question;
      if (!asked || asked !== state.answers[i][0]) { break; }
      var value = answerValue(questionOf(this.proc, asked), state.answers[i][1]);
      if (value === null) { break; }
      this.order.push(asked);
      this.answers[asked] = value;
    }
    this.amountsTyped = state.amounts;
  };

  Questionnaire.prototype.start = function (proc) {
    this.proc = proc;
    this.order = [];
    this.answers = {};
    this.amountsTyped = {};
    this.save(false);
    this.render(true);
  };

  Questionnaire.prototype.answer = function (qid, value) {
    this.order.push(qid);
    this.answers[qid] = value;
    this.amountsTyped = {};
    this.save(false);
    this.render(true);
  };

  Questionnaire.prototype.backTo = function (index) {
    var self = this;
    this.order.slice(index).forEach(function (q) { delete self.answers[q]; });
    this.order = this.order.slice(0, index);
    this.amountsTyped = {};
    this.save(false);
    this.render(true);
  };

  // Bring the step to answer under the thumb: scrolled below the sticky header, and focused.
  Questionnaire.prototype.focusStep = function () {
    // the question to answer, else the decision (a situation decided without a question: a tap
    // far down the list must not leave the decision drawn above the screen)
    var target = this.root.querySelector(".rq-step") || this.root.querySelector(".rq-decision, .rq-none");
    if (!target) { return; }
    if (!target.hasAttribute("tabindex")) { target.tabIndex = -1; }
    var header = document.querySelector(".md-header");
    // 64 px more: material's « Retour en haut de la page » button floats there while scrolling up.
    var offset = (header ? header.getBoundingClientRect().height : 0) + 64;
    var top = target.getBoundingClientRect().top + window.pageYOffset - offset;
    window.scrollTo(0, Math.max(0, top));
    target.focus({ preventScroll: true });
  };

  Questionnaire.prototype.render = function (focus) {
    var box = this.root;
    box.textContent = "";
    if (!this.proc) { box.appendChild(this.picker()); return; }
    box.appendChild(this.header());
    box.appendChild(this.history());
    var walk = walkOf(this.proc, this.order, this.answers);
    var next = walk.cases[0].node;
    var rule = next.outcome ? ruleOf(this.proc, next.outcome) : null;
    var ruled = walk.cases.every(function (c) { return c.node.outcome && ruleOf(this.proc, c.node.outcome); }, this);
    if (walk.question) {
      box.appendChild(this.question(questionOf(this.proc, walk.question)));
    } else if (walk.unknown.length && ruled) {
      box.appendChild(this.unknownDecision(walk));
    } else if (rule && !walk.unknown.length) {
      box.appendChild(this.decision(rule, next.inputs || [], next.given || {}));
    } else {
      box.appendChild(el("p", "rq-none", "Aucune règle de cette procédure ne couvre ces réponses : consultez la table de décision."));
    }
    if (focus) { this.focusStep(); }
  };

  // The books in the order the list shows them: the house book first, then the base's order.
  function bookOrder() {
    var order = [];
    DATA.procedures.forEach(function (p) { if (order.indexOf(p.book) < 0) { order.push(p.book); } });
    var house = order.indexOf(DATA.houseBook);
    if (house > 0) { order.splice(house, 1); order.unshift(DATA.houseBook); }
    return order;
  }

  // The procedures matching the words, best first: the site search's shared ranking when the
  // page has it (window.rulingSearch.rankSituations), else every word found in the situation's text.
  function fold(text) {  // accents and case away, for the fallback filter only
    return String(text).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function rankedProcedures(query) {
    var words = fold(query).split(/\s+/).filter(Boolean);
    if (!words.length) { return DATA.procedures.slice(); }
    var search = window.rulingSearch;  // a ranking hook (house book first), when a page provides one
    if (!(search && typeof search.rankSituations === "function") &&
        window.RulingSearch && typeof window.RulingSearch.procedureKeys === "function") {
      // the site's search box engine: the ranking of `ruling search` (assets/search.js)
      return window.RulingSearch.procedureKeys(query).map(findProcedure).filter(Boolean);
    }
    if (search && typeof search.rankSituations === "function") {
      var ranked = search.rankSituations(query.trim(), DATA.houseBook) || [];
      var found = [];
      ranked.forEach(function (hit) {
        var key = typeof hit === "string" ? hit : (hit && (hit.key || (hit.book && hit.id && hit.book + "/" + hit.id)));
        var proc = key ? findProcedure(key) : null;
        if (proc && found.indexOf(proc) < 0) { found.push(proc); }
      });
      return found;
    }
    return DATA.procedures.filter(function (proc) {
      var hay = fold([proc.title, proc.bookTitle, proc.situation].concat(proc.keywords).join(" "));
      return words.every(function (w) { return hay.indexOf(w) >= 0; });
    });
  }

  Questionnaire.prototype.picker = function () {
    var self = this;
    var wrap = el("div", "rq-picker");
    var label = el("label", "rq-label", "Décrivez la situation (un mot suffit : flop, absent, carte exposée…)");
    var input = el("input", "rq-filter md-input");
    input.type = "search";
    input.setAttribute("aria-label", "Filtrer les situations");
    label.appendChild(input);
    wrap.appendChild(label);
    var list = el("div", "rq-list");
    wrap.appendChild(list);
    function fill() {
      var filtering = fold(input.value).trim() !== "";
      var procs = rankedProcedures(input.value);
      list.textContent = "";
      bookOrder().forEach(function (book) {
        var mine = procs.filter(function (p) { return p.book === book; });
        if (!mine.length) { return; }
        var group = el("details", "rq-group");
        group.setAttribute("data-book", book);
        // Unfiltered, only the house book is open (the rest one tap away); filtered, every match shows.
        group.open = filtering || book === bookOrder()[0];
        var summary = el("summary", "rq-group-title", mine[0].bookTitle + " (" + mine.length + ")");
        group.appendChild(summary);
        mine.forEach(function (proc) {
          group.appendChild(button(proc.title, "rq-procedure", function () { self.start(proc); }));
        });
        list.appendChild(group);
      });
      if (!procs.length) { list.appendChild(el("p", "rq-none", "Aucune situation ne correspond ; essayez un autre mot.")); }
    }
    input.addEventListener("input", fill);
    fill();
    return wrap;
  };

  Questionnaire.prototype.header = function () {
    var self = this;
    var head = el("div", "rq-header");
    var title = el("p", "rq-title");
    var link = el("a", "", this.proc.title);
    link.href = siteUrl(this.proc.url);
    title.appendChild(link);
    title.appendChild(el("span", "rq-book", " — " + this.proc.bookTitle));
    head.appendChild(title);
    if (!this.fixed) {
      head.appendChild(button("Autre situation", "rq-other", function () {
        self.proc = null;
        self.order = [];
        self.answers = {};
        self.amountsTyped = {};
        try { history.pushState(null, "", location.href.replace(/#.*$/, "")); } catch (e) { /* file:// */ }
        self.render();
      }));
    }
    return head;
  };

  Questionnaire.prototype.history = function () {
    var self = this;
    var list = el("ol", "rq-history");
    this.order.forEach(function (qid, index) {
      var q = questionOf(self.proc, qid);
      var item = el("li", "rq-answered");
      item.appendChild(el("span", "rq-answered-question", q.text + " "));
      item.appendChild(el("strong", "rq-answered-value", answerLabel(q, self.answers[qid])));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(button("Modifier", "rq-change", function () { self.backTo(index); }));
      list.appendChild(item);
    });
    return list;
  };

  Questionnaire.prototype.question = function (q) {
    var self = this;
    var box = el("div", "rq-question");
    var text = el("p", "rq-question-text rq-step", q.text);
    text.tabIndex = -1;
    box.appendChild(text);
    if (q.help) { box.appendChild(el("p", "rq-help", q.help)); }
    var buttons = el("div", "rq-choices");
    options(q).forEach(function (opt) {
      var primary = q["default"] !== null && q["default"] !== undefined && same(q["default"], opt.value);
      buttons.appendChild(button(opt.label, "rq-choice" + (primary ? " md-button--primary" : ""),
        function () { self.answer(q.id, opt.value); }));
    });
    // « Je ne sais pas », last: the question's `ifUnknown` answer, else every answer is tried.
    if (options(q).length) {
      var dontKnow = has(q, "ifUnknown") ? q.ifUnknown : UNKNOWN;
      buttons.appendChild(button(DONT_KNOW, "rq-choice rq-dont-know", function () { self.answer(q.id, dontKnow); }));
    }
    box.appendChild(buttons);
    return box;
  };

  // The input step of a computed leaf: one field per amount (a list for several), a choice as a list.
  // `compute(values)` gives what `calculate` shows (it may throw a kernel's Refusal).
  Questionnaire.prototype.amounts = function (inputs, compute, calculate) {
    var self = this;
    var form = el("form", "rq-amounts");
    var step = el("p", "rq-question-text rq-step", "Les montants du coup :");
    step.tabIndex = -1;
    form.appendChild(step);
    var fields = inputs.map(function (id) {
      var q = questionOf(self.proc, id);
      var label = el("label", "rq-label", q.text);
      var field;
      if (q.type === "choice") {
        field = el("select", "rq-amount md-input");
        var typed = has(self.amountsTyped, id) ? self.amountsTyped[id] : "";
        var none = el("option", "", "—");
        none.value = "";
        field.appendChild(none);
        options(q).forEach(function (opt) {
          var o = el("option", "", opt.label);
          o.value = opt.value;
          if (typed && typed === String(opt.value)) { o.selected = true; }
          field.appendChild(o);
        });
      } else {
        field = el("input", "rq-amount md-input");
        field.type = "text";
        // The digits keyboard: « numeric » for one amount, « decimal » for a list (its key is the
        // comma that separates the amounts in a French locale; blanks separate them too).
        if (kindOf(q) !== "cards") { field.setAttribute("inputmode", q.type === "amount" ? "numeric" : "decimal"); }
        field.setAttribute("autocomplete", "off");
        if (has(self.amountsTyped, id)) { field.value = self.amountsTyped[id]; }
        else if (q["default"] !== null && q["default"] !== undefined) { field.value = K.figureText(q["default"]); }
      }
      field.name = id;
      label.appendChild(field);
      if (q.help) { label.appendChild(el("span", "rq-help", q.help)); }
      form.appendChild(label);
      return { question: q, field: field };
    });
    var error = el("p", "rq-error");
    form.appendChild(error);
    var submit = el("button", "md-button md-button--primary rq-calculate", "Calculer");
    submit.type = "submit";
    form.appendChild(submit);
    function calculateNow(remember) {
      var values = {};
      for (var i = 0; i < fields.length; i++) {
        var q = fields[i].question, raw = fields[i].field.value;
        var value = q.type === "choice" ? (raw || null) : parseAmount(q, raw);
        if (value === null) {
          // an empty field names its question (« « » » said nothing), a wrong one quotes what was typed
          error.textContent = q.type === "choice" ? "« " + q.text + " » : choisissez une réponse." :
            "« " + (String(raw).trim() ? raw : q.text) + " » : " + (String(raw).trim() ? "" : "à remplir, ") +
            EXPECTED[kindOf(q)] + (q.none ? ", ou « aucun »" : "");
          fields[i].field.focus();
          return;
        }
        values[q.id] = value;
      }
      if (remember) {
        self.amountsTyped = {};
        fields.forEach(function (f) { self.amountsTyped[f.question.id] = f.field.value; });
        self.save(true);
      }
      try {
        calculate(compute(values));
        error.textContent = "";
      } catch (e) {
        if (!(e instanceof K.Refusal)) { throw e; }
        calculate(null);  // no figures from impossible amounts
        var message = K.refusalText(DATA, e);
        error.textContent = message.charAt(0).toUpperCase() + message.slice(1) + ".";
      }
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      calculateNow(true);
    });
    form.rulingRecalculate = calculateNow;
    return form;
  };

  // The cited clauses, each whole in a blockquote, to read at the table.
  function citedClauses(citations) {
    var cites = el("div", "rq-cites");
    cites.appendChild(el("p", "rq-cites-title", citations.length > 1 ? "Règles citées, à lire à la table :" : "Règle citée, à lire à la table :"));
    citations.forEach(function (citation) {
      var clause = DATA.clauses[citation];
      var block = el("blockquote", "rq-clause");
      var ref = el("p", "rq-clause-ref");
      var a = el("a", "", citation + (clause && clause.title ? " — " + clause.title : ""));
      if (clause) { a.href = siteUrl(clause.url); }
      ref.appendChild(a);
      block.appendChild(ref);
      if (clause) {
        if (clause.text) { block.appendChild(el("p", "rq-clause-text", clause.text)); }
        if (clause.items && clause.items.length) {
          var ul = el("ul", "rq-clause-items");
          clause.items.forEach(function (item) { ul.appendChild(el("li", "", item)); });
          block.appendChild(ul);
        }
        if (clause.after) { block.appendChild(el("p", "rq-clause-after", clause.after)); }
      }
      cites.appendChild(block);
    });
    return cites;
  }

  // The citations a decision names after its text, as `ruling decide` does: those of the base.
  function citationList(rule) {
    return rule.cites.filter(function (c) { return has(DATA.clauses, c); });
  }

  // A case's assumed answers (unknown._when): with several unknowns, each after its question.
  function whenOf(proc, unknown, assumed) {
    if (unknown.length === 1) { return caseLabel(questionOf(proc, unknown[0]), assumed[unknown[0]]); }
    return unknown.map(function (qid) {
      var q = questionOf(proc, qid);
      return "« " + q.text + " » : " + caseLabel(q, assumed[qid]);
    }).join(" ; ");
  }

  // The cases grouped by identical decision text, in the order met (branches_report's groups).
  function groupCases(proc, unknown, decided) {
    var groups = [], byText = {};
    decided.forEach(function (c) {
      var when = whenOf(proc, unknown, c.assumed);
      if (!has(byText, c.text)) {
        byText[c.text] = { text: c.text, rule: c.rule, whens: [] };
        groups.push(byText[c.text]);
      }
      byText[c.text].whens.push(when);
    });
    return groups;
  }

  // The decisions side by side, in the command line's sentences (ruling/decide/unknown.py:
  // branches_report); one decision when every case gives the same.
  function caseSummary(proc, unknown, groups, refused) {
    var wrap = el("div", "rq-unknown-summary");
    var names = unknown.map(function (qid) { return "« " + questionOf(proc, qid).text + " »"; }).join(" et ");
    var cited = function (rule) { return "(" + citationList(rule).join(", ") + ")"; };
    if (groups.length === 1 && !refused.length) {
      wrap.appendChild(el("p", "rq-unknown-title", "Quelle que soit la réponse à " + names + ", la décision est la même :"));
      wrap.appendChild(el("p", "rq-unknown-decision", groups[0].text));
      wrap.appendChild(el("p", "rq-unknown-cited", cited(groups[0].rule)));
      return wrap;
    }
    wrap.appendChild(el("p", "rq-unknown-title", "Réponse inconnue à " + names + " : voici la décision dans chaque cas."));
    var list = el("div", "rq-cases");
    groups.forEach(function (group) {
      var item = el("div", "rq-case");
      if (group.whens.length === 1) {
        item.appendChild(el("p", "rq-case-when", "• Si : " + group.whens[0]));
      } else {
        item.appendChild(el("p", "rq-case-when", "• Si l'un de ces cas :"));
        var whens = el("ul", "rq-case-whens");
        group.whens.forEach(function (when) { whens.appendChild(el("li", "", "– " + when)); });
        item.appendChild(whens);
      }
      item.appendChild(el("p", "rq-case-decision", "→ " + group.text + " " + cited(group.rule)));
      list.appendChild(item);
    });
    refused.forEach(function (c) {  // the cases the amounts do not fit, with the kernel's refusal
      var item = el("div", "rq-case rq-case-refused");
      item.appendChild(el("p", "rq-case-when", "• Si : " + whenOf(proc, unknown, c.assumed)));
      item.appendChild(el("p", "rq-case-decision", "→ ce cas ne s'applique pas aux montants tapés : " + c.reason));
      list.appendChild(item);
    });
    wrap.appendChild(list);
    return wrap;
  }

  // Each clause the cases cite, once, in the order met.
  function casesCitations(groups) {
    var seen = [];
    groups.forEach(function (g) { citationList(g.rule).forEach(function (c) { if (seen.indexOf(c) < 0) { seen.push(c); } }); });
    return seen;
  }

  // After « je ne sais pas », every case decided: their decisions side by side. A computed case
  // first asks, in one amounts form, every amount the computed cases need (an answer the walk
  // already has is given), then runs each case's kernel with its own `given`.
  Questionnaire.prototype.unknownDecision = function (walk) {
    var self = this;
    var proc = this.proc;
    var params = DATA.parameters[proc.book] || {};
    var box = el("div", "rq-decision rq-unknown admonition success");
    // « Montants à saisir » until the figures give the decisions (no « Décision » over an empty form)
    var heading = el("p", "admonition-title", "Décision selon la réponse");
    box.appendChild(heading);
    var shown = el("div", "rq-unknown-shown");
    var cases = walk.cases.map(function (c) { return { assumed: c.assumed, node: c.node, rule: ruleOf(proc, c.node.outcome) }; });
    var inputs = [];
    cases.forEach(function (c) {
      if (!c.rule.compute) { return; }
      (c.node.inputs || []).forEach(function (id) {
        if (!has(self.answers, id) && inputs.indexOf(id) < 0) { inputs.push(id); }
      });
    });
    // the decision of every case from the typed amounts (none needed when no case computes); a
    // case whose kernel refuses the amounts does not apply to them: said apart with the refusal
    // (unknown.branches), unless every case is refused (then the first refusal, as when all is known)
    function decideAll(values) {
      var decided = [], refusedCases = [], refused = null;
      cases.forEach(function (c) {
        if (!c.rule.compute) {
          decided.push({ assumed: c.assumed, rule: c.rule, text: K.render(K.pick(c.rule.decision), params, c.rule.each) });
          return;
        }
        var own = {};
        (c.node.inputs || []).forEach(function (id) {
          own[id] = has(c.assumed, id) ? c.assumed[id] : has(self.answers, id) ? self.answers[id] : values[id];
        });
        try {
          decided.push({ assumed: c.assumed, rule: c.rule, text: computeDecision(proc, c.rule, own, c.node.given || {}).text });
        } catch (e) {
          if (!(e instanceof K.Refusal)) { throw e; }
          refused = refused || e;
          refusedCases.push({ assumed: c.assumed, reason: K.refusalText(DATA, e) });
        }
      });
      if (!decided.length && refused) { throw refused; }
      return { decided: decided, refused: refusedCases };
    }
    function show(result) {
      shown.textContent = "";
      heading.textContent = result ? "Décision selon la réponse" : AMOUNTS_TITLE;
      if (!result) { return; }
      var groups = groupCases(proc, walk.unknown, result.decided);
      shown.appendChild(caseSummary(proc, walk.unknown, groups, result.refused));
      shown.appendChild(citedClauses(casesCitations(groups)));
    }
    var form = null;
    if (cases.some(function (c) { return c.rule.compute; })) {
      heading.textContent = AMOUNTS_TITLE;
      form = this.amounts(inputs, decideAll, show);
      box.appendChild(form);
    } else {
      show(decideAll({}));
    }
    box.appendChild(shown);
    var again = el("div", "rq-again");
    again.appendChild(button("Recommencer", "rq-restart", function () { self.start(self.proc); }));
    box.appendChild(again);
    if (form && (Object.keys(this.amountsTyped).length || !inputs.length)) { form.rulingRecalculate(false); }  // restored from the URL
    return box;
  };

  Questionnaire.prototype.decision = function (rule, inputs, given) {
    var self = this;
    var box = el("div", "rq-decision admonition success");
    // « Montants à saisir » until the figures give the decision (no « Décision » over an empty form)
    var heading = el("p", "admonition-title", rule.compute ? AMOUNTS_TITLE : "Décision");
    box.appendChild(heading);
    // A computed decision shows nothing until its figures exist (no template with blanks).
    // A decision without a computation may still name the book's parameters (« {{ jetons-gagnes-maximum }} »).
    var params = (this.proc && DATA.parameters[this.proc.book]) || {};
    var text = el("p", "rq-decision-text", rule.compute ? "" : K.render(K.pick(rule.decision), params, rule.each));
    text.hidden = !!rule.compute;
    box.appendChild(text);
    // Where the text is silent, the reading chosen (issue 11), for the computed case when keyed by case.
    var reading = el("p", "rq-interpretation");
    var showReading = function (cas) {
      var r = rule.interpretation;
      var said = r && typeof r === "object" ? (cas !== undefined ? r[cas] : null) : r;
      reading.textContent = said ? "Lecture d'un texte muet : " + said : "";
      reading.hidden = !said;
    };
    showReading(undefined);
    box.appendChild(reading);
    var form = null;
    if (rule.compute) {
      var compute = function (values) { return computeDecision(self.proc, rule, values, given); };
      form = this.amounts(inputs, compute, function (computed) {
        heading.textContent = computed ? "Décision" : AMOUNTS_TITLE;
        text.textContent = computed ? computed.text : "";
        text.hidden = !computed;
        showReading(computed ? computed.figures.cas : undefined);
      });
      box.insertBefore(form, text);
    }
    box.appendChild(citedClauses(rule.cites));
    var again = el("div", "rq-again");
    again.appendChild(button("Recommencer", "rq-restart", function () { self.start(self.proc); }));
    box.appendChild(again);
    if (form && Object.keys(this.amountsTyped).length) { form.rulingRecalculate(false); }  // restored from the URL
    return box;
  };

  // Back and Forward (and a link to another state of the same page) redraw from the URL.
  function watch(widget) {
    function redraw() {
      if (!readState(location.hash).ours && widget.fixed && location.hash) { return; }  // a heading's anchor
      widget.restore();
      widget.render(false);
    }
    window.addEventListener("popstate", redraw);
    window.addEventListener("hashchange", redraw);
  }

  function mount() {
    var roots = document.querySelectorAll(".ruling-questionnaire");
    for (var i = 0; i < roots.length; i++) {
      if (roots[i].getAttribute("data-mounted")) { continue; }
      roots[i].setAttribute("data-mounted", "1");
      var widget = new Questionnaire(roots[i]);
      widget.restore();
      widget.render(false);
      watch(widget);
    }
  }

  window.RulingQuestionnaire = { follow: follow, computeDecision: computeDecision, parseAmount: parseAmount,
                                 readState: readState, walk: walkOf, UNKNOWN: UNKNOWN };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mount);
  } else {
    mount();
  }
}());
