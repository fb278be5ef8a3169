/* What a phone needs from the site's pages (issue 16): tables that stack instead of running off
   the screen, and flowcharts that can be enlarged. Each table cell gets the title of its column
   (data-label), which extra.css shows before the cell when the table is stacked on a narrow
   screen; each flowchart gets an « Agrandir » button that lets it take its own width, scrolled
   inside its box (the page itself never scrolls sideways). */
(function () {
  "use strict";

  function labelCells(table) {
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    if (!heads.length) { return; }
    table.setAttribute("data-stack", "");
    Array.prototype.forEach.call(table.querySelectorAll("tbody tr"), function (row) {
      Array.prototype.forEach.call(row.children, function (cell, i) {
        cell.setAttribute("data-label", heads[i] || "");
        if (cell.textContent.trim() === "\u2014") { cell.setAttribute("data-empty", ""); }  // « — »: not asked
      });
    });
  }

  function zoomable(chart) {
    if (chart.parentElement && chart.parentElement.classList.contains("ruling-flowchart")) { return; }
    var box = document.createElement("div");
    box.className = "ruling-flowchart";
    chart.parentNode.insertBefore(box, chart);
    box.appendChild(chart);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "md-button ruling-zoom";
    button.setAttribute("aria-pressed", "false");
    button.textContent = "Agrandir le logigramme";
    button.addEventListener("click", function () {
      var zoomed = box.classList.toggle("ruling-flowchart--zoomed");
      button.setAttribute("aria-pressed", zoomed ? "true" : "false");
      button.textContent = zoomed ? "Réduire le logigramme" : "Agrandir le logigramme";
    });
    box.parentNode.insertBefore(button, box);
  }

  function prepare() {
    Array.prototype.forEach.call(document.querySelectorAll(".md-typeset table"), labelCells);
    Array.prototype.forEach.call(document.querySelectorAll(".md-typeset .mermaid"), zoomable);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", prepare);
  } else {
    prepare();
  }
})();
