// Runs site/assets/kernels.js in Node for tests/test_kernels_parity.py: one JSON request per
// line on stdin, one JSON answer per line on stdout.
//   {"kernel": name, "inputs": {...}, "params": {...}}  -> {"figures": {...}} | {"refusal": code, "figures": {...}}
//   {"render": template, "figures": {...}, "each": {...}} -> {"text": "..."}
//   {"refusalText": {code, figures}, "data": {refusals, inputNames}} -> {"text": "..."}
"use strict";
const path = require("path");
const readline = require("readline");
const K = require(path.join(__dirname, "..", "..", "site", "assets", "kernels.js"));

function answer(request) {
  if (request.render !== undefined) {
    return { text: K.render(request.render, request.figures, request.each) };
  }
  if (request.refusalText !== undefined) {
    return { text: K.refusalText(request.data, new K.Refusal(request.refusalText.code, request.refusalText.figures)) };
  }
  if (request.list) {
    return { kernels: Object.keys(K.kernels).sort() };
  }
  try {
    return { figures: K.kernels[request.kernel](request.inputs, request.params) };
  } catch (e) {
    if (!(e instanceof K.Refusal)) { return { crash: String(e && e.stack || e) }; }
    return { refusal: e.code, figures: e.figures };
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
});
