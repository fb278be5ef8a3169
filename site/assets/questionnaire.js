/* The in-browser questionnaire: walks a decision procedure to its decision and cited clauses.
 *
 * The procedures come from window.RULING_QUESTIONNAIRE, written at build time by the site hook
 * (assets/javascripts/ruling-questionnaire-data.js), so this works from file:// too: no fetch,
 * no framework, no CDN. Each procedure comes with the engine's decision tree: the browser
 * follows it (question, answer, next node) to a decision leaf; a computed leaf first asks its
 * amounts, then runs the kernel of assets/kernels.js and fills the rule's template. Every
 * sentence comes from the data. Text is always set with textContent, never parsed as HTML.
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

  function ruleOf(proc, outcome) {
    for (var i = 0; i < proc.rules.length; i++) {
      if (proc.rules[i].outcome === outcome) { return proc.rules[i]; }
    }
    return null;
  }

  // The decision of a computed leaf: the kernel's figures through the rule's template.
  function computeDecision(proc, rule, inputs) {
    var params = DATA.parameters[proc.book] || {};
    var figures = K.kernels[rule.compute](inputs, params);
    var scope = Object.assign({}, params, inputs, figures);
    return { figures: figures, text: K.render(K.pick(rule.decision, figures.cas), scope, rule.each) };
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
    var next = follow(this.proc.tree, this.answers);
    var rule = next.outcome ? ruleOf(this.proc, next.outcome) : null;
    if (rule) {
      box.appendChild(this.decision(rule, next.inputs || []));
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

  // The input step of a computed leaf: one field per amount (a list for several), a choice as a list.
  Questionnaire.prototype.amounts = function (rule, inputs, calculate) {
    var self = this;
    var form = el("form", "rq-amounts");
    form.appendChild(el("p", "rq-question-text", "Les montants du coup :"));
    var fields = inputs.map(function (id) {
      var q = questionOf(self.proc, id);
      var label = el("label", "rq-label", q.text);
      var field;
      if (q.type === "choice") {
        field = el("select", "rq-amount md-input");
        var none = el("option", "", "—");
        none.value = "";
        field.appendChild(none);
        options(q).forEach(function (opt) {
          var o = el("option", "", opt.label);
          o.value = opt.value;
          field.appendChild(o);
        });
      } else {
        field = el("input", "rq-amount md-input");
        field.type = "text";
        field.setAttribute("inputmode", q.type === "amount" ? "numeric" : "text");
        if (q["default"] !== null && q["default"] !== undefined) { field.value = K.figureText(q["default"]); }
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
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var values = {};
      for (var i = 0; i < fields.length; i++) {
        var q = fields[i].question, raw = fields[i].field.value;
        var value = q.type === "choice" ? (raw || null) : parseAmount(q, raw);
        if (value === null) {
          error.textContent = q.type === "choice" ? "« " + q.text + " » : choisissez une réponse." :
            "« " + raw + " » : " + (q.type === "amount" ? "un nombre entier de jetons ≥ 0" :
              "une liste de nombres entiers ≥ 0 séparés par des virgules (ex. 100, 200)");
          fields[i].field.focus();
          return;
        }
        values[q.id] = value;
      }
      try {
        calculate(computeDecision(self.proc, rule, values));
        error.textContent = "";
      } catch (e) {
        if (!(e instanceof K.Refusal)) { throw e; }
        calculate(null);  // no figures from impossible amounts
        var message = K.refusalText(DATA, e);
        error.textContent = message.charAt(0).toUpperCase() + message.slice(1) + ".";
      }
    });
    return form;
  };

  Questionnaire.prototype.decision = function (rule, inputs) {
    var self = this;
    var box = el("div", "rq-decision admonition success");
    box.appendChild(el("p", "admonition-title", "Décision"));
    var text = el("p", "rq-decision-text", rule.compute ? rule.readable : rule.decision);
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
    if (rule.compute) {
      box.insertBefore(this.amounts(rule, inputs, function (computed) {
        text.textContent = computed ? computed.text : rule.readable;
        showReading(computed ? computed.figures.cas : undefined);
      }), text);
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

  window.RulingQuestionnaire = { follow: follow, computeDecision: computeDecision, parseAmount: parseAmount };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mount);
  } else {
    mount();
  }
}());
