/* The site's search box: `ruling search` as you type, on every page, from file:// too.
 *
 * The index is window.RULING_SEARCH (assets/javascripts/ruling-search-data.js, written by the
 * site hook from the command line's whoosh index); the ranking is search-engine.js. The box sits
 * in the header (keys « / » and « s » focus it); results are listed while typing, one per clause
 * with its citation and book, or a procedure and its book. Every text is set with textContent.
 * window.RulingSearch lets other scripts rank with the same engine (the questionnaire's picker).
 */
(function () {
  "use strict";

  var engine = null;

  function getEngine() {
    if (!engine && window.RULING_SEARCH && window.RulingSearchEngine) {
      engine = new window.RulingSearchEngine.Engine(window.RULING_SEARCH);
    }
    return engine;
  }

  function siteUrl(path) {
    var base = ".";
    var config = document.getElementById("__config");
    if (config) {
      try { base = JSON.parse(config.textContent).base || "."; } catch (e) { base = "."; }
    }
    return base.replace(/\/+$/, "") + "/" + path;
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  /** Ranked hits for `query` (see search-engine.js for their fields); [] before the index loads. */
  function search(query, options) {
    var e = getEngine();
    return e ? e.search(query, options) : [];
  }

  /** The procedures ranked for `query` as "book/id" keys, every book's (no one per situation). */
  function procedureKeys(query) {
    return search(query, {kind: "procedure", limit: 1000, allProcedures: true}).map(function (h) {
      return h.book + "/" + h.ref;
    });
  }

  window.RulingSearch = {search: search, procedureKeys: procedureKeys};

  function renderHit(hit) {
    var li = el("li", "rs-hit");
    var a = el("a", "rs-link");
    a.href = siteUrl(hit.url);
    a.setAttribute("data-ref", hit.ref);
    a.setAttribute("data-kind", hit.kind);
    var head = el("span", "rs-head");
    head.appendChild(el("strong", "rs-ref", hit.kind === "clause" ? hit.ref : "Procédure"));
    head.appendChild(document.createTextNode(" — " + (hit.title || "")));
    a.appendChild(head);
    a.appendChild(el("span", "rs-book", hit.bookTitle));
    var snippet = el("span", "rs-snippet");
    hit.snippet.forEach(function (piece) {
      snippet.appendChild(piece.mark ? el("mark", "", piece.text) : document.createTextNode(piece.text));
    });
    a.appendChild(snippet);
    li.appendChild(a);
    return li;
  }

  function mount() {
    var header = document.querySelector(".md-header__inner");
    if (!header || header.querySelector(".rs-search")) { return; }
    var box = el("div", "rs-search");
    box.setAttribute("role", "search");
    var input = el("input", "rs-input");
    input.type = "search";
    input.placeholder = "Rechercher une règle";
    input.setAttribute("aria-label", "Rechercher dans les règles");
    input.autocomplete = "off";
    var panel = el("div", "rs-panel");
    panel.hidden = true;
    var status = el("p", "rs-status");
    status.setAttribute("aria-live", "polite");
    var list = el("ol", "rs-results");
    panel.appendChild(status);
    panel.appendChild(list);
    box.appendChild(input);
    box.appendChild(panel);
    header.appendChild(box);

    function fill() {
      var query = input.value;
      list.textContent = "";
      if (!query.trim()) { panel.hidden = true; return; }
      var hits = search(query, {limit: 10});
      panel.hidden = false;
      status.textContent = hits.length ? hits.length + (hits.length > 1 ? " résultats" : " résultat")
        : "Aucun résultat pour « " + query.trim() + " ».";
      hits.forEach(function (hit) { list.appendChild(renderHit(hit)); });
    }
    input.addEventListener("input", fill);
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { input.value = ""; fill(); input.blur(); }
      if (event.key === "Enter") {
        var first = list.querySelector("a.rs-link");
        if (first) { window.location.href = first.href; }
      }
    });
    document.addEventListener("keydown", function (event) {
      var t = event.target;
      var typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
      if (!typing && (event.key === "/" || event.key === "s")) { event.preventDefault(); input.focus(); }
    });
    document.addEventListener("click", function (event) {
      if (!box.contains(event.target)) { panel.hidden = true; }
    });
    input.addEventListener("focus", function () {
      getEngine();  // built from the export once per page (≈ 25 ms): when the box is focused, not at load
      if (input.value.trim()) { fill(); }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mount);
  } else {
    mount();
  }
}());
