/* The in-browser questionnaire: walks a decision procedure to its decision and cited clauses.
 *
 * The procedures come from window.RULING_QUESTIONNAIRE, written at build time by the site hook
 * (assets/javascripts/ruling-questionnaire-data.js), so this works from file:// too: no fetch,
 * no framework, no CDN. The walk is the command line's: a rule whose whole condition is
 * answered and met is the decision; otherwise the next question is the first unanswered key of
 * the first rule still possible (rules in order, then their `when` keys). Text is always set
 * with textContent, never parsed as HTML.
 */
(function () {
  "use strict";

  var DATA = window.RULING_QUESTIONNAIRE || { procedures: [], clauses: {} };

  // -- the walk (same as ruling/site/walk.py) --------------------------------------------------
  function same(expected, answer) {
    return typeof expected === typeof answer && expected === answer;
  }

  function matches(condition, answer) {
    if (Array.isArray(condition)) {
      return condition.some(function (c) { return same(c, answer); });
    }
    return same(condition, answer);
  }

  function has(answers, q) {
    return Object.prototype.hasOwnProperty.call(answers, q);
  }

  function decided(rule, answers) {
    return Object.keys(rule.when).every(function (q) {
      return has(answers, q) && matches(rule.when[q], answers[q]);
    });
  }

  function possible(rule, answers) {
    return Object.keys(rule.when).every(function (q) {
      return !has(answers, q) || matches(rule.when[q], answers[q]);
    });
  }

  function step(proc, answers) {
    var i, rule, keys, k;
    for (i = 0; i < proc.rules.length; i++) {
      if (decided(proc.rules[i], answers)) { return { decision: proc.rules[i] }; }
    }
    for (i = 0; i < proc.rules.length; i++) {
      rule = proc.rules[i];
      if (!possible(rule, answers)) { continue; }
      keys = Object.keys(rule.when);
      for (k = 0; k < keys.length; k++) {
        if (!has(answers, keys[k])) { return { question: keys[k] }; }
      }
    }
    return {};
  }

  // -- calculators ported from ruling/calculators.py ---------------------------------------------
  // The betting ones (minimum raise, short bets and raises, re-opening after short all-ins, the
  // oversized chip, the limit all-in) and the sanction durations. tests/test_site_browser.py
  // checks every figure and message against the Python functions. The others (side pots, chip
  // race, next blinds) are not ported: the decision then names its figures and the cited clause
  // shows the worked examples.
  function CalculatorError(message) { this.message = message; }

  function positive(value, what) {
    if (value <= 0) {
      throw new CalculatorError(what + " doit être un nombre de jetons supérieur à 0 (reçu " + value + ")");
    }
  }

  function playRound(bigBlind, bets, preflop) {
    positive(bigBlind, "le gros blind");
    var level = preflop ? bigBlind : 0;
    var lastRaise = bigBlind;
    var history = [];  // {total, full, increment} per bet
    bets.forEach(function (total) {
      if (total <= level) {
        throw new CalculatorError("les montants des mises doivent croître : " + total + " ne dépasse pas " +
          level + " (n'indiquez pas les simples suivis)");
      }
      var increment = total - level;
      var full = increment >= lastRaise;
      if (full) { lastRaise = increment; }
      level = total;
      history.push({ total: total, full: full, increment: increment });
    });
    return { level: level, lastRaise: lastRaise, minRaiseTo: level + lastRaise, history: history };
  }

  function minRaise(args, preflop) {
    var state = playRound(args.big_blind, args.bets, preflop);
    var out = { min_raise_to: state.minRaiseTo, to_call: state.level, min_increment: state.lastRaise };
    if (!args.bets.length && !preflop) {
      out.explanation = "Personne n'a misé : l'ouverture minimum est le gros blind, " + args.big_blind + ".";
    } else {
      out.explanation = "Pour suivre : " + state.level + ". La dernière relance complète est de " +
        state.lastRaise + " : une relance doit porter le total à " + state.minRaiseTo + " au moins.";
    }
    return out;
  }

  function totals(history) {
    return history.map(function (h) { return h.total; });
  }

  function reopening(args, preflop, cumulative) {
    var bigBlind = args.big_blind, player = args.player_total;
    var state = playRound(bigBlind, args.bets, preflop);
    var levels = totals(state.history);
    if (preflop) { levels = [bigBlind].concat(levels); }
    var pos = levels.indexOf(player);
    if (pos < 0) {
      throw new CalculatorError("la mise du joueur (" + player + ") doit être l'un des montants du tour : " +
        (levels.length ? levels.join(", ") : "(aucun)"));
    }
    // the bets after the player's action, and the minimum increment in force when he acted
    var later = preflop ? state.history.slice(pos) : state.history.slice(pos + 1);
    var before = playRound(bigBlind, totals(state.history.slice(0, state.history.length - later.length)), preflop);
    var fullAfter = later.some(function (h) { return h.full; });
    var gap = state.level - player;
    var reopened = fullAfter || (cumulative && gap >= before.lastRaise);
    var verdict;
    if (!later.length) {
      verdict = "Personne n'a relancé depuis son action : le tour n'est pas rouvert pour lui.";
      reopened = false;
    } else if (fullAfter) {
      verdict = "Une relance complète a suivi son action : il peut sur-relancer, au minimum à " + state.minRaiseTo + ".";
    } else if (reopened) {
      verdict = "Les petits tapis cumulés ont porté sa mise de " + player + " à " + state.level + " (au moins le double " +
        "de sa mise, soit une relance complète de " + before.lastRaise + ") : il peut à nouveau sur-relancer, " +
        "au minimum à " + state.minRaiseTo + ".";
    } else if (cumulative) {
      verdict = "Les tapis qui ont suivi n'ajoutent que " + gap + " à sa mise de " + player + ", moins qu'une relance " +
        "complète (" + before.lastRaise + ") : il ne peut que suivre " + state.level + " ou passer.";
    } else {
      verdict = "Aucun des tapis qui ont suivi n'est une relance complète (au moins " + before.lastRaise + " de plus) : " +
        "il ne peut que suivre " + state.level + " ou passer.";
    }
    return { reopened: reopened, to_call: state.level, min_raise_to: state.minRaiseTo, verdict: verdict };
  }

  // A bet below what was due: "bet" (completed to the price, or to the big blind for an opening),
  // "announced" (a raise announced as such: completed to the minimum raise), "silent" (50 % rule).
  function shortBet(args, preflop, kind) {
    var bigBlind = args.big_blind, put = args.put;
    var state = playRound(bigBlind, args.bets, preflop);
    var level = state.level, target = state.minRaiseTo;
    var half = level + Math.floor((state.lastRaise + 1) / 2);
    var out = { to_call: level, min_raise_to: target, half_threshold: half };
    if (kind === "bet") {
      var required = level ? level : bigBlind;
      if (put >= required) {
        throw new CalculatorError("une mise de " + put + " atteint déjà le montant dû (" + required + ") : elle n'est pas insuffisante");
      }
      out.required_total = required;
      out.complement = required - put;
      out.returned = 0;
      out.action = level ? "Mise insuffisante : le joueur doit compléter pour suivre " + level + "." :
        "Ouverture insuffisante : elle est complétée au gros blind, soit " + bigBlind + " au total.";
      return out;
    }
    if (put >= target) {
      throw new CalculatorError("une relance à " + put + " atteint déjà la relance minimum (" + target + ") : elle n'est pas insuffisante");
    }
    if (kind === "silent" && put <= level) {
      throw new CalculatorError(put + " ne dépasse pas le montant à suivre (" + level + ") : ce n'est pas une relance " +
        "(c'est une mise insuffisante)");
    }
    if (kind === "announced" || put >= half) {
      var why = kind === "announced" ? "relance annoncée" :
        "le joueur a atteint 50 % de la relance minimum, soit " + half + " au total";
      out.required_total = target;
      out.complement = target - put;
      out.returned = 0;
      out.action = "Relance insuffisante (" + why + ") : il doit la compléter à " + target + " au total, sans plus.";
    } else {
      out.required_total = level;
      out.complement = 0;
      out.returned = put - level;
      out.action = "Relance insuffisante sans annonce et sous 50 % de la relance minimum (" + half + " au total) : " +
        "ce n'est qu'un suivi de " + level + ", le surplus de " + (put - level) + " lui est rendu.";
    }
    return out;
  }

  function oversizedChip(args) {
    var chip = args.chip, toCall = args.to_call;
    positive(chip, "la valeur du jeton");
    if (chip <= toCall) {
      throw new CalculatorError("un jeton de " + chip + " ne dépasse pas le montant à suivre (" + toCall +
        ") : ce n'est pas un jeton supérieur");
    }
    return { call: toCall, change: toCall ? chip - toCall : 0, raise_to: chip, opening: chip };
  }

  function limitAllIn(args) {
    var full = args.full_bet, allIn = args.all_in;
    positive(full, "la mise pleine");
    positive(allIn, "la mise à tapis");
    if (allIn >= full) {
      throw new CalculatorError("une mise à tapis de " + allIn + " atteint la mise pleine (" + full + ") : c'est une mise normale");
    }
    var reopens = 2 * allIn >= full;
    var half = full / 2;
    var halfText = Number.isInteger(half) ? String(half) : String(half).replace(".", ",");
    var verdict = reopens ?
      allIn + " atteint la moitié d'une mise pleine (" + halfText + ") : c'est une mise pleine, les joueurs " +
        "peuvent se retirer, appeler ou relancer normalement." :
      allIn + " est moins de la moitié d'une mise pleine (" + halfText + ") : la ronde n'est pas rouverte pour " +
        "ceux qui ont déjà agi ; le joueur suivant peut se retirer, appeler " + allIn + " ou compléter à " + full + ".";
    return { reopens: reopens, half: halfText, complete_to: full, verdict: verdict };
  }

  function missedHands(args) {
    positive(args.rounds, "le nombre de tours");
    if (args.players < 2) {
      throw new CalculatorError("une table compte au moins deux joueurs (reçu " + args.players + ")");
    }
    var hands = args.rounds * args.players;
    return { hands: hands, explanation: args.rounds + " tour(s) × " + args.players + " joueurs à la table = " + hands + " mains" };
  }

  function suspensionMinutes(args) {
    var minutes = args.minutes;
    positive(minutes, "la durée");
    if (minutes % 5) {
      throw new CalculatorError("une suspension se compte par multiple de 5 ou 10 minutes : " + minutes +
        " ne convient pas (par exemple " + Math.max(5, minutes - minutes % 5) + " ou " + (minutes - minutes % 5 + 5) + ")");
    }
    return { minutes: minutes, explanation: minutes + " minutes, multiple de 5 : durée valable" };
  }

  var CALCULATORS = {
    min_raise_to: function (args) { return minRaise(args, false); },
    min_raise_to_preflop: function (args) { return minRaise(args, true); },
    reopening: function (args) { return reopening(args, false, true); },
    reopening_preflop: function (args) { return reopening(args, true, true); },
    reopening_strict: function (args) { return reopening(args, false, false); },
    reopening_strict_preflop: function (args) { return reopening(args, true, false); },
    short_bet: function (args) { return shortBet(args, false, "bet"); },
    short_bet_preflop: function (args) { return shortBet(args, true, "bet"); },
    short_raise_announced: function (args) { return shortBet(args, false, "announced"); },
    short_raise_announced_preflop: function (args) { return shortBet(args, true, "announced"); },
    short_raise_silent: function (args) { return shortBet(args, false, "silent"); },
    short_raise_silent_preflop: function (args) { return shortBet(args, true, "silent"); },
    oversized_chip: oversizedChip,
    limit_all_in: limitAllIn,
    missed_hands: missedHands,
    missed_hands_tda: function (args) {
      if (!(args.rounds >= 1 && args.rounds <= 4)) {
        throw new CalculatorError("l'exclusion temporaire est de 1, 2, 3 ou 4 tours (reçu " + args.rounds + ")");
      }
      return missedHands(args);
    },
    suspension_minutes: suspensionMinutes
  };

  function figureText(value) {
    if (typeof value === "boolean") { return value ? "oui" : "non"; }
    if (Array.isArray(value)) { return value.length ? value.map(figureText).join(", ") : "aucun"; }
    return String(value);
  }

  function render(template, figures) {
    return template.replace(/\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(figures, name) ? figureText(figures[name]) : all;
    });
  }

  // An amount as `ruling decide` reads it: digits, thousands separated by blanks; a list by
  // commas (or by blanks when there is no comma).
  function whole(text) {
    var cleaned = String(text).replace(/[\s_\u00a0\u202f]/g, "");
    if (!/^\+?\d+$/.test(cleaned)) { return null; }
    return parseInt(cleaned, 10);
  }

  function parseAmount(question, raw) {
    if (question.type === "amount") { return whole(raw); }
    var text = String(raw).trim().replace(/^\[|\]$/g, "");
    if (!text) { return []; }
    var parts = text.split(/[,;]/.test(text) ? /[,;]/ : /\s+/).filter(function (t) { return t.trim(); });
    var values = parts.map(whole);
    return values.some(function (v) { return v === null; }) ? null : values;
  }

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
    var opts = options(question);
    for (var i = 0; i < opts.length; i++) {
      if (same(opts[i].value, value)) { return opts[i].label; }
    }
    return String(value);
  }

  // -- one questionnaire widget ------------------------------------------------------------------
  function Questionnaire(root) {
    this.root = root;
    this.fixed = root.getAttribute("data-procedure") || "";
    this.proc = null;
    this.order = [];  // question ids in the order they were answered
    this.answers = {};
  }

  Questionnaire.prototype.start = function (proc) {
    this.proc = proc;
    this.order = [];
    this.answers = {};
    this.render();
  };

  Questionnaire.prototype.answer = function (qid, value) {
    this.order.push(qid);
    this.answers[qid] = value;
    this.render();
  };

  Questionnaire.prototype.backTo = function (index) {
    var self = this;
    this.order.slice(index).forEach(function (q) { delete self.answers[q]; });
    this.order = this.order.slice(0, index);
    this.render();
  };

  Questionnaire.prototype.render = function () {
    var box = this.root;
    box.textContent = "";
    if (!this.proc) {
      var first = findProcedure(this.fixed || (location.hash.match(/procedure=([^&]+)/) || [])[1] || "");
      if (first) { this.proc = first; } else { box.appendChild(this.picker()); return; }
    }
    box.appendChild(this.header());
    box.appendChild(this.history());
    var next = step(this.proc, this.answers);
    if (next.decision) {
      box.appendChild(this.decision(next.decision));
    } else if (next.question) {
      box.appendChild(this.question(questionOf(this.proc, next.question)));
    } else {
      box.appendChild(el("p", "rq-none", "Aucune règle de cette procédure ne couvre ces réponses : consultez la table de décision."));
    }
  };

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
      // Ranked by the site's search (assets/search.js), the ranking of `ruling search`.
      var ranked = window.RulingSearch && input.value.trim() ? window.RulingSearch.procedureKeys(input.value) : null;
      var procs = ranked ? ranked.map(findProcedure).filter(Boolean) : DATA.procedures;
      list.textContent = "";
      var shown = 0;
      procs.forEach(function (proc) {
        shown++;
        var item = button(proc.title, "rq-procedure", function () { self.start(proc); });
        item.appendChild(el("span", "rq-book", proc.bookTitle));
        list.appendChild(item);
      });
      if (!shown) { list.appendChild(el("p", "rq-none", "Aucune situation ne correspond ; essayez un autre mot.")); }
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
      head.appendChild(button("Autre situation", "rq-other", function () { self.proc = null; location.hash = ""; self.render(); }));
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
    box.appendChild(el("p", "rq-question-text", q.text));
    if (q.help) { box.appendChild(el("p", "rq-help", q.help)); }
    var buttons = el("div", "rq-choices");
    options(q).forEach(function (opt) {
      var primary = q["default"] !== null && q["default"] !== undefined && same(q["default"], opt.value);
      buttons.appendChild(button(opt.label, "rq-choice" + (primary ? " md-button--primary" : ""),
        function () { self.answer(q.id, opt.value); }));
    });
    box.appendChild(buttons);
    return box;
  };

  Questionnaire.prototype.amounts = function (rule, calculate) {
    var self = this;
    var form = el("form", "rq-amounts");
    form.appendChild(el("p", "rq-question-text", "Les montants du coup :"));
    var fields = rule.inputs.map(function (input) {
      var q = questionOf(self.proc, input.id);
      var label = el("label", "rq-label", q.text);
      var field = el("input", "rq-amount md-input");
      field.type = "text";
      field.setAttribute("inputmode", q.type === "amount" ? "numeric" : "text");
      field.name = input.id;
      if (q["default"] !== null && q["default"] !== undefined) { field.value = figureText(q["default"]); }
      label.appendChild(field);
      if (q.help) { label.appendChild(el("span", "rq-help", q.help)); }
      form.appendChild(label);
      return { input: input, question: q, field: field };
    });
    var error = el("p", "rq-error");
    form.appendChild(error);
    var submit = el("button", "md-button md-button--primary rq-calculate", "Calculer");
    submit.type = "submit";
    form.appendChild(submit);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var args = {};
      for (var i = 0; i < fields.length; i++) {
        var value = parseAmount(fields[i].question, fields[i].field.value);
        if (value === null) {
          error.textContent = "« " + fields[i].field.value + " » : " + (fields[i].question.type === "amount" ?
            "un nombre entier de jetons ≥ 0" : "une liste de nombres entiers ≥ 0 séparés par des virgules (ex. 100, 200)");
          fields[i].field.focus();
          return;
        }
        args[fields[i].input.param] = value;
      }
      try {
        calculate(CALCULATORS[rule.compute](args));
        error.textContent = "";
      } catch (e) {
        if (!(e instanceof CalculatorError)) { throw e; }
        calculate(null);  // no figures from impossible amounts
        error.textContent = e.message.charAt(0).toUpperCase() + e.message.slice(1) + ".";
      }
    });
    return form;
  };

  Questionnaire.prototype.decision = function (rule) {
    var self = this;
    var box = el("div", "rq-decision admonition success");
    box.appendChild(el("p", "admonition-title", "Décision"));
    var text = el("p", "rq-decision-text", rule.compute ? rule.readable : rule.decision);
    box.appendChild(text);
    if (rule.compute && CALCULATORS[rule.compute] && rule.inputs) {
      var form = this.amounts(rule, function (figures) {
        text.textContent = figures ? render(rule.decision, figures) : rule.readable;
        explanation.textContent = figures && figures.explanation ? figures.explanation : "";
      });
      var explanation = el("p", "rq-explanation");
      box.insertBefore(form, text);
      box.insertBefore(explanation, text.nextSibling);
    } else if (rule.compute) {
      box.appendChild(el("p", "rq-compute",
        "Les valeurs entre crochets se calculent avec la règle citée ci-dessous (ses exemples chiffrés " +
        "montrent le calcul) ; en ligne de commande, « " + this.proc.command + " » les donne exactement."));
    }
    var cites = el("div", "rq-cites");
    cites.appendChild(el("p", "rq-cites-title", rule.cites.length > 1 ? "Règles citées, à lire à la table :" : "Règle citée, à lire à la table :"));
    rule.cites.forEach(function (citation) {
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
    box.appendChild(cites);
    var again = el("div", "rq-again");
    again.appendChild(button("Recommencer", "rq-restart", function () { self.start(self.proc); }));
    box.appendChild(again);
    return box;
  };

  function mount() {
    var roots = document.querySelectorAll(".ruling-questionnaire");
    for (var i = 0; i < roots.length; i++) {
      if (roots[i].getAttribute("data-mounted")) { continue; }
      roots[i].setAttribute("data-mounted", "1");
      new Questionnaire(roots[i]).render();
    }
  }

  window.RulingQuestionnaire = { step: step, matches: matches, calculators: CALCULATORS, render: render,
                                 parseAmount: parseAmount, CalculatorError: CalculatorError };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mount);
  } else {
    mount();
  }
}());
