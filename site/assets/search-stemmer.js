/* The French Snowball stemmer exactly as whoosh-reloaded 2.7 implements it
 * (whoosh/lang/snowball/french.py, itself NLTK's), for the words of a query that the exported
 * vocabulary does not hold: the site's search then corrects a typo from the same stem as
 * `ruling search`. Its quirks are kept on purpose (a suffix "in" a region is a substring test,
 * regions are not recomputed after every step, a negative index reads from the end), so that
 * both give the same stem; tests/test_search_site_parity.py compares them word for word.
 */
(function (root) {
  "use strict";

  var VOWELS = "aeiouy\u00e2\u00e0\u00eb\u00e9\u00ea\u00e8\u00ef\u00ee\u00f4\u00fb\u00f9";
  var STEP1 = ["issements", "issement", "atrices", "atrice", "ateurs", "ations", "logies", "usions", "utions",
    "ements", "amment", "emment", "ances", "iqUes", "ismes", "ables", "istes", "ateur", "ation", "logie",
    "usion", "ution", "ences", "ement", "euses", "ments", "ance", "iqUe", "isme", "able", "iste", "ence",
    "it\u00e9s", "ives", "eaux", "euse", "ment", "eux", "it\u00e9", "ive", "ifs", "aux", "if"];
  var STEP2A = ["issaIent", "issantes", "iraIent", "issante", "issants", "issions", "irions", "issais",
    "issait", "issant", "issent", "issiez", "issons", "irais", "irait", "irent", "iriez", "irons", "iront",
    "isses", "issez", "\u00eemes", "\u00eetes", "irai", "iras", "irez", "isse", "ies", "ira", "\u00eet", "ie",
    "ir", "is", "it", "i"];
  var STEP2B = ["eraIent", "assions", "erions", "assent", "assiez", "\u00e8rent", "erais", "erait", "eriez",
    "erons", "eront", "aIent", "antes", "asses", "ions", "erai", "eras", "erez", "\u00e2mes", "\u00e2tes",
    "ante", "ants", "asse", "\u00e9es", "era", "iez", "ais", "ait", "ant", "\u00e9e", "\u00e9s", "er", "ez",
    "\u00e2t", "ai", "as", "\u00e9", "a"];
  var STEP2B_DELETE = ["eraIent", "erions", "\u00e8rent", "erais", "erait", "eriez", "erons", "eront", "erai",
    "eras", "erez", "\u00e9es", "era", "iez", "\u00e9e", "\u00e9s", "er", "ez", "\u00e9"];
  var STEP2B_DELETE_E = ["assions", "assent", "assiez", "aIent", "antes", "asses", "\u00e2mes", "\u00e2tes",
    "ante", "ants", "asse", "ais", "ait", "ant", "\u00e2t", "ai", "as", "a"];
  var STEP4 = ["i\u00e8re", "I\u00e8re", "ion", "ier", "Ier", "e", "\u00eb"];

  function isVowel(ch) { return ch !== "" && ch !== undefined && VOWELS.indexOf(ch) >= 0; }
  function ends(word, suffix) { return word.length >= suffix.length && word.slice(word.length - suffix.length) === suffix; }
  function has(region, suffix) { return region.indexOf(suffix) >= 0; }  // Python's `suffix in region`
  function at(text, i) { return i < 0 ? text.charAt(text.length + i) : text.charAt(i); }  // Python's text[i]
  function cut(word, n) { return word.slice(0, Math.max(0, word.length - n)); }

  function regions(word) {
    var r1 = "", r2 = "", i;
    for (i = 1; i < word.length; i++) {
      if (!isVowel(word.charAt(i)) && isVowel(word.charAt(i - 1))) { r1 = word.slice(i + 1); break; }
    }
    for (i = 1; i < r1.length; i++) {
      if (!isVowel(r1.charAt(i)) && isVowel(r1.charAt(i - 1))) { r2 = r1.slice(i + 1); break; }
    }
    return [r1, r2];
  }

  function rvFrench(word) {
    if (word.length < 2) { return ""; }
    if (/^(par|col|tap)/.test(word) || (isVowel(word.charAt(0)) && isVowel(word.charAt(1)))) { return word.slice(3); }
    for (var i = 1; i < word.length; i++) {
      if (isVowel(word.charAt(i))) { return word.slice(i + 1); }
    }
    return "";
  }

  function stem(input) {
    var w = input.toLowerCase().split(""), i;
    for (i = 1; i < w.length; i++) {
      if (w[i - 1] === "q" && w[i] === "u") { w[i] = "U"; }
    }
    for (i = 1; i < w.length - 1; i++) {
      if (isVowel(w[i - 1]) && isVowel(w[i + 1])) {
        if (w[i] === "u") { w[i] = "U"; } else if (w[i] === "i") { w[i] = "I"; }
      }
      if ((isVowel(w[i - 1]) || isVowel(w[i + 1])) && w[i] === "y") { w[i] = "Y"; }
    }
    var word = w.join("");
    var rr = regions(word), r1 = rr[0], r2 = rr[1], rv = rvFrench(word);
    var step1 = false, rvEnding = false, step2a = false, step2b = false, suffix, k;

    for (k = 0; k < STEP1.length; k++) {
      suffix = STEP1[k];
      if (!ends(word, suffix)) { continue; }
      if (suffix === "eaux") {
        word = cut(word, 1); step1 = true;
      } else if (suffix === "euse" || suffix === "euses") {
        if (has(r2, suffix)) { word = cut(word, suffix.length); step1 = true; }
        else if (has(r1, suffix)) { word = cut(word, suffix.length) + "eux"; step1 = true; }
      } else if ((suffix === "ement" || suffix === "ements") && has(rv, suffix)) {
        word = cut(word, suffix.length); step1 = true;
        if (word.slice(-2) === "iv" && has(r2, "iv")) {
          word = cut(word, 2);
          if (word.slice(-2) === "at" && has(r2, "at")) { word = cut(word, 2); }
        } else if (word.slice(-3) === "eus") {
          if (has(r2, "eus")) { word = cut(word, 3); } else if (has(r1, "eus")) { word = cut(word, 1) + "x"; }
        } else if (word.slice(-3) === "abl" || word.slice(-3) === "iqU") {
          if (has(r2, "abl") || has(r2, "iqU")) { word = cut(word, 3); }
        } else if (word.slice(-3) === "i\u00e8r" || word.slice(-3) === "I\u00e8r") {
          if (has(rv, "i\u00e8r") || has(rv, "I\u00e8r")) { word = cut(word, 3) + "i"; }
        }
      } else if (suffix === "amment" && has(rv, suffix)) {
        word = cut(word, 6) + "ant"; rv = cut(rv, 6) + "ant"; rvEnding = true;
      } else if (suffix === "emment" && has(rv, suffix)) {
        word = cut(word, 6) + "ent"; rvEnding = true;
      } else if ((suffix === "ment" || suffix === "ments") && has(rv, suffix) && rv.indexOf(suffix) !== 0 &&
                 isVowel(at(rv, rv.lastIndexOf(suffix) - 1))) {
        word = cut(word, suffix.length); rv = cut(rv, suffix.length); rvEnding = true;
      } else if (suffix === "aux" && has(r1, suffix)) {
        word = cut(word, 2) + "l"; step1 = true;
      } else if ((suffix === "issement" || suffix === "issements") && has(r1, suffix) &&
                 !isVowel(at(word, -suffix.length - 1))) {
        word = cut(word, suffix.length); step1 = true;
      } else if (["ance", "iqUe", "isme", "able", "iste", "eux", "ances", "iqUes", "ismes", "ables", "istes"]
                 .indexOf(suffix) >= 0 && has(r2, suffix)) {
        word = cut(word, suffix.length); step1 = true;
      } else if (["atrice", "ateur", "ation", "atrices", "ateurs", "ations"].indexOf(suffix) >= 0 && has(r2, suffix)) {
        word = cut(word, suffix.length); step1 = true;
        if (word.slice(-2) === "ic") { word = has(r2, "ic") ? cut(word, 2) : cut(word, 2) + "iqU"; }
      } else if ((suffix === "logie" || suffix === "logies") && has(r2, suffix)) {
        word = cut(word, suffix.length) + "log"; step1 = true;
      } else if (["usion", "ution", "usions", "utions"].indexOf(suffix) >= 0 && has(r2, suffix)) {
        word = cut(word, suffix.length) + "u"; step1 = true;
      } else if ((suffix === "ence" || suffix === "ences") && has(r2, suffix)) {
        word = cut(word, suffix.length) + "ent"; step1 = true;
      } else if ((suffix === "it\u00e9" || suffix === "it\u00e9s") && has(r2, suffix)) {
        word = cut(word, suffix.length); step1 = true;
        if (word.slice(-4) === "abil") { word = has(r2, "abil") ? cut(word, 4) : cut(word, 2) + "l"; }
        else if (word.slice(-2) === "ic") { word = has(r2, "ic") ? cut(word, 2) : cut(word, 2) + "iqU"; }
        else if (word.slice(-2) === "iv") { if (has(r2, "iv")) { word = cut(word, 2); } }
      } else if (["if", "ive", "ifs", "ives"].indexOf(suffix) >= 0 && has(r2, suffix)) {
        word = cut(word, suffix.length); step1 = true;
        if (word.slice(-2) === "at" && has(r2, "at")) {
          word = cut(word, 2);
          if (word.slice(-2) === "ic") { word = has(r2, "ic") ? cut(word, 2) : cut(word, 2) + "iqU"; }
        }
      }
      break;
    }

    if (!step1 || rvEnding) {
      for (k = 0; k < STEP2A.length; k++) {
        suffix = STEP2A[k];
        if (!ends(word, suffix)) { continue; }
        if (has(rv, suffix) && rv.length > suffix.length && !isVowel(at(rv, rv.lastIndexOf(suffix) - 1))) {
          word = cut(word, suffix.length); step2a = true;
        }
        break;
      }
      if (!step2a) {
        for (k = 0; k < STEP2B.length; k++) {
          suffix = STEP2B[k];
          if (!ends(rv, suffix)) { continue; }
          if (suffix === "ions" && has(r2, "ions")) {
            word = cut(word, 4); step2b = true;
          } else if (STEP2B_DELETE.indexOf(suffix) >= 0) {
            word = cut(word, suffix.length); step2b = true;
          } else if (STEP2B_DELETE_E.indexOf(suffix) >= 0) {
            word = cut(word, suffix.length); rv = cut(rv, suffix.length); step2b = true;
            if (ends(rv, "e")) { word = cut(word, 1); }
          }
          break;
        }
      }
    }

    if (step1 || step2a || step2b) {
      if (at(word, -1) === "Y") { word = cut(word, 1) + "i"; }
      else if (at(word, -1) === "\u00e7") { word = cut(word, 1) + "c"; }
    } else {
      if (word.length >= 2 && at(word, -1) === "s" && "aiou\u00e8s".indexOf(at(word, -2)) < 0) { word = cut(word, 1); }
      for (k = 0; k < STEP4.length; k++) {
        suffix = STEP4[k];
        if (!ends(word, suffix)) { continue; }
        if (has(rv, suffix)) {
          if (suffix === "ion" && has(r2, suffix) && at(rv, -4) !== "" && "st".indexOf(at(rv, -4)) >= 0) {
            word = cut(word, 3);
          } else if (suffix === "ier" || suffix === "i\u00e8re" || suffix === "Ier" || suffix === "I\u00e8re") {
            word = cut(word, suffix.length) + "i";
          } else if (suffix === "e") {
            word = cut(word, 1);
          } else if (suffix === "\u00eb" && word.slice(-3, -1) === "gu") {
            word = cut(word, 1);
          }
          break;
        }
      }
    }

    if (/(enn|onn|ett|ell|eill)$/.test(word)) { word = cut(word, 1); }
    for (i = 1; i < word.length; i++) {
      var ch = at(word, -i);
      if (isVowel(ch)) {
        if (i !== 1 && (ch === "\u00e9" || ch === "\u00e8")) { word = word.slice(0, word.length - i) + "e" + word.slice(word.length - i + 1); }
        break;
      }
    }
    return word.replace(/I/g, "i").replace(/U/g, "u").replace(/Y/g, "y");
  }

  var api = {stem: stem};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; }
  else { root.RulingFrenchStemmer = api; }
})(this);
