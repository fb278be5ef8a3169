// Runs the site's search engine (site/assets/search-engine.js) in Node for the parity tests:
// node search_parity.js ENGINE DATA.json QUERIES.json OPTIONS.json -> one list of hits per query.
"use strict";
const fs = require("fs");
const [engineFile, dataFile, queriesFile, optionsFile] = process.argv.slice(2);
const {Engine} = require(engineFile);
const engine = new Engine(JSON.parse(fs.readFileSync(dataFile, "utf8")));
const queries = JSON.parse(fs.readFileSync(queriesFile, "utf8"));
const options = JSON.parse(fs.readFileSync(optionsFile, "utf8"));
const out = queries.map((q) => engine.search(q, options).map((h) => ({
  kind: h.kind, ref: h.ref, book: h.book, score: h.score, url: h.url,
  snippet: h.snippet.map((p) => (p.mark ? "**" + p.text + "**" : p.text)).join(""),
})));
process.stdout.write(JSON.stringify(out));
