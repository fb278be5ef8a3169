/* The calculator kernels and decision templates of ruling, for the browser.
 *
 * The same arithmetic as ruling/calculators.py, line for line, and the same template rules as
 * ruling/templates.py: inputs keyed by question id, the book's parameters keyed by parameter id,
 * figures keyed by French names with a case key `cas`. No sentence lives here: the decisions,
 * questions and refusal messages come from the exported data (rulebook/*.yaml).
 * tests/test_kernels_parity.py runs this file in Node against the Python kernels on random
 * inputs (hypothesis), so the two can never drift apart unnoticed.
 */
(function (root) {
  "use strict";

  var SCALE = 1000000;  // fractional parameters (0.5) are applied in millionths, exactly

  function Refusal(code, figures) {
    this.code = code;
    this.figures = figures || {};
  }

  function positive(value, entry, refusal) {  // refusal: what it counts (chips by default)
    if (value <= 0) { throw new Refusal(refusal || "non-positif", { entree: entry, recu: value }); }
  }

  function scaled(fraction) { return Math.round(fraction * SCALE); }

  function floorDiv(n, d) {  // exact for integers below 2^53
    var q = Math.floor(n / d);
    while (q * d > n) { q--; }
    while ((q + 1) * d <= n) { q++; }
    return q;
  }

  function ceilDiv(n, d) { return -floorDiv(-n, d); }

  function ceilPart(amount, fraction) { return ceilDiv(amount * scaled(fraction), SCALE); }

  function number(numerator, denominator) { return numerator / denominator; }

  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }

  function range(n) { var out = []; for (var i = 0; i < n; i++) { out.push(i); } return out; }

  // -- betting rounds ------------------------------------------------------------------------
  function playRound(bigBlind, bets, preflop) {
    positive(bigBlind, "grosse-blind");
    var level = preflop ? bigBlind : 0, lastRaise = bigBlind, history = [];
    bets.forEach(function (total) {
      if (total <= level) { throw new Refusal("mises-non-croissantes", { montant: total, niveau: level }); }
      var full = total - level >= lastRaise;
      if (full) { lastRaise = total - level; }
      level = total;
      history.push([total, full]);
    });
    return { level: level, lastRaise: lastRaise, history: history };
  }

  function preflop(inputs) { return inputs.tour === "avant-flop"; }

  function totals(history) { return history.map(function (h) { return h[0]; }); }

  var KERNELS = {};

  KERNELS["relance-minimum"] = function (inputs) {
    var s = playRound(inputs["grosse-blind"], inputs.mises, preflop(inputs));
    return { "a-suivre": s.level, "relance-minimum": s.level + s.lastRaise, "ecart-minimum": s.lastRaise,
             cas: inputs.tour };
  };

  KERNELS.reouverture = function (inputs, params) {
    var bigBlind = inputs["grosse-blind"], player = inputs["mise-du-joueur"], pre = preflop(inputs);
    var s = playRound(bigBlind, inputs.mises, pre);
    var history = s.history;
    // what the player may have put in: the big blind before the flop, 0 (a check) after it, or a total of the round
    var levels = (pre ? [bigBlind] : [0]).concat(totals(history));
    var pos = levels.indexOf(player);
    if (pos < 0) { throw new Refusal("mise-hors-du-tour", { "mise-du-joueur": player, montants: levels }); }
    var later = history.slice(pos);
    var before = playRound(bigBlind, totals(history.slice(0, history.length - later.length)), pre);
    var gap = s.level - player, cas;
    if (!later.length) {
      cas = "aucune-relance";
    } else if (later.some(function (h) { return h[1]; })) {
      cas = "relance-complete";
    } else if (player === 0) {  // he checked, then only all-ins below a full bet: the first bet he faces
      cas = "apres-parole";
    } else if (gap >= before.lastRaise) {
      cas = params["reouverture-par-cumul"] ? "cumul-suffisant" : "cumul-non-retenu";
    } else {
      cas = "tapis-insuffisants";
    }
    return { rouvert: cas === "relance-complete" || cas === "cumul-suffisant" || cas === "apres-parole", "a-suivre": s.level,
             "relance-minimum": s.level + s.lastRaise, "relance-complete": before.lastRaise, ajout: gap, cas: cas };
  };

  function shortState(inputs) {
    var s = playRound(inputs["grosse-blind"], inputs.mises, preflop(inputs));
    return [s.level, s.lastRaise, s.level + s.lastRaise];
  }

  KERNELS["mise-insuffisante"] = function (inputs) {
    var level = shortState(inputs)[0], put = inputs["mise-posee"];
    if (put <= 0) { throw new Refusal("rien-pose", { "mise-posee": put }); }  // a check or a fold, not a bet
    var required = level ? level : inputs["grosse-blind"];
    if (put >= required) { throw new Refusal("mise-deja-suffisante", { "mise-posee": put, "total-du": required }); }
    return { "a-suivre": level, "total-du": required, complement: required - put, cas: level ? "suivi" : "ouverture" };
  };

  function shortRaise(inputs, silent) {
    var st = shortState(inputs), level = st[0], target = st[2], put = inputs["mise-posee"];
    if (!level) { throw new Refusal("pas-de-mise-a-relancer", { "mise-posee": put }); }  // an opening, not a raise
    if (put >= target) { throw new Refusal("relance-deja-suffisante", { "mise-posee": put, "relance-minimum": target }); }
    if (silent && put === level) { throw new Refusal("suivi-exact", { "mise-posee": put, "a-suivre": level }); }  // a call
    if (silent && put < level) { throw new Refusal("pas-une-relance", { "mise-posee": put, "a-suivre": level }); }
    return st;
  }

  // The round's first bet below a full raise (a short all-in), as a list of 0 or 1 record (calculators.py).
  function firstShortAllIn(inputs) {
    var history = playRound(inputs["grosse-blind"], inputs.mises, preflop(inputs)).history;
    var short = history.filter(function (h) { return !h[1]; });
    return short.length ? [{ montant: short[0][0] }] : [];
  }

  KERNELS["relance-annoncee-insuffisante"] = function (inputs) {
    var st = shortRaise(inputs, false);
    return { "a-suivre": st[0], "relance-minimum": st[2], "total-du": st[2], complement: st[2] - inputs["mise-posee"],
             rendu: 0, "premier-tapis-court": firstShortAllIn(inputs) };
  };

  KERNELS["relance-insuffisante-sans-annonce"] = function (inputs, params) {
    var st = shortRaise(inputs, true), level = st[0], target = st[2];
    var put = inputs["mise-posee"], share = params["seuil-completion"];
    var threshold = level + ceilPart(st[1], share);
    var out = { "a-suivre": level, "relance-minimum": target, "seuil-total": threshold,
                "seuil-pourcent": number(scaled(share), SCALE / 100), "premier-tapis-court": firstShortAllIn(inputs) };
    if (put >= threshold) {
      out["total-du"] = target; out.complement = target - put; out.rendu = 0; out.cas = "completee";
    } else {
      out["total-du"] = level; out.complement = 0; out.rendu = put - level; out.cas = "suivi";
    }
    return out;
  };

  KERNELS["jeton-superieur"] = function (inputs) {
    var chip = inputs["valeur-du-jeton"], toCall = inputs["a-suivre"];
    positive(chip, "valeur-du-jeton");
    if (toCall <= 0) { throw new Refusal("rien-a-suivre", { "valeur-du-jeton": chip, "a-suivre": toCall }); }
    if (chip <= toCall) { throw new Refusal("jeton-pas-superieur", { "valeur-du-jeton": chip, "a-suivre": toCall }); }
    return { suivi: toCall, monnaie: chip - toCall, "relance-au-jeton": chip };
  };

  KERNELS["ouverture-au-jeton"] = function (inputs) {
    var chip = inputs["valeur-du-jeton"], bigBlind = inputs["grosse-blind"];
    positive(chip, "valeur-du-jeton");
    positive(bigBlind, "grosse-blind");
    if (chip < bigBlind) {  // under 9-5's minimum opening: a short bet (or an all-in, 9-7)
      return { "ouverture-au-jeton": chip, complement: bigBlind - chip, cas: "sous-le-gros-blind" };
    }
    return { "ouverture-au-jeton": chip, complement: 0, cas: "hauteur-du-jeton" };
  };

  // -- pots ------------------------------------------------------------------------------------
  KERNELS["partage-des-pots"] = function (inputs) {
    var contributions = inputs.engagements, ranks = inputs.classement, unit = inputs["plus-petit-jeton"];
    positive(unit, "plus-petit-jeton");
    if (!contributions.length) { throw new Refusal("aucun-engagement"); }
    if (ranks.length !== contributions.length) {
      throw new Refusal("un-rang-par-joueur", { joueurs: contributions.length, rangs: ranks.length });
    }
    if (!ranks.some(function (r) { return r > 0; })) { throw new Refusal("personne-en-jeu"); }
    contributions.forEach(function (c) {
      if (c % unit) { throw new Refusal("pas-un-multiple", { montant: c, "plus-petit-jeton": unit }); }
    });
    var n = contributions.length, pots = [], returned = range(n).map(function () { return 0; }), prev = 0;
    var levels = contributions.filter(function (c) { return c > 0; })
      .filter(function (c, i, all) { return all.indexOf(c) === i; }).sort(function (a, b) { return a - b; });
    levels.forEach(function (level) {
      var layer = sum(contributions.map(function (c) { return Math.min(c, level) - Math.min(c, prev); }));
      var contributors = range(n).filter(function (i) { return contributions[i] >= level; });
      var eligible = contributors.filter(function (i) { return ranks[i] > 0; });
      if (contributors.length === 1) {  // an uncalled bet goes back; nobody folds a bet that nobody called
        if (ranks[contributors[0]] === 0) { throw new Refusal("mise-non-suivie-couchee", { joueur: contributors[0] + 1 }); }
        returned[contributors[0]] += layer;
      } else if (!eligible.length) {
        throw new Refusal("tous-couches");
      } else if (pots.length && pots[pots.length - 1].eligible.join() === eligible.join()) {
        pots[pots.length - 1].amount += layer;
      } else {
        pots.push({ amount: layer, eligible: eligible });
      }
      prev = level;
    });
    var wins = range(n).map(function () { return 0; }), shown = [];
    pots.forEach(function (pot, num) {
      var best = Math.min.apply(null, pot.eligible.map(function (i) { return ranks[i]; }));
      var winners = pot.eligible.filter(function (i) { return ranks[i] === best; });
      var chips = floorDiv(pot.amount, unit), units = floorDiv(chips, winners.length), odd = chips - units * winners.length;
      var shares = winners.map(function (w, k) { return units * unit + (k < odd ? unit : 0); });
      winners.forEach(function (w, k) { wins[w] += shares[k]; });
      var kind = num === 0 ? "principal" : "exterieur";
      shown.push({ numero: num, montant: pot.amount, joueurs: pot.eligible.map(function (i) { return i + 1; }),
                   gagnants: winners.map(function (w, k) { return { joueur: w + 1, part: shares[k] }; }),
                   "jetons-indivisibles": odd, cas: kind + (odd ? "-indivisible" : "") });
    });
    return { pots: shown.reverse(), gains: wins.map(function (w, i) { return w + returned[i]; }),
             "mises-rendues": returned,
             remboursements: range(n).filter(function (i) { return returned[i]; })
               .map(function (i) { return { joueur: i + 1, montant: returned[i] }; }) };
  };

  // -- chip race -------------------------------------------------------------------------------
  // The chip removed, the larger chip replacing it, each player's count: what every race starts from.
  function chipValues(inputs) {
    var old = inputs["jeton-retire"], neu = inputs["jeton-arrondi"];
    positive(old, "jeton-retire");
    positive(neu, "jeton-arrondi");
    if (neu <= old) { throw new Refusal("remplacement-trop-petit", { "jeton-arrondi": neu, "jeton-retire": old }); }
    return [old, neu, inputs["jetons-par-joueur"]];
  }

  function raceInputs(inputs) {
    var v = chipValues(inputs), old = v[0], neu = v[1], counts = v[2], others = inputs["autres-jetons"];
    if (others.length !== counts.length) {
      throw new Refusal("une-valeur-par-joueur", { joueurs: counts.length, valeurs: others.length });
    }
    return [old, neu, counts, others];
  }

  KERNELS["chip-race-direct"] = function (inputs, params) {
    var r = raceInputs(inputs), old = r[0], neu = r[1], counts = r[2], others = r[3];
    var imposed = params["jeton-arrondi-impose"];
    if (imposed !== undefined && old === params["jeton-retire-arrondi-impose"] && neu !== imposed) {
      throw new Refusal("arrondi-impose", { impose: imposed, "jeton-arrondi": neu, "jeton-retire": old });
    }
    var received = [], rows = [];
    counts.forEach(function (n, i) {
      var value = n * old, got, cas;
      if (n <= 1) { got = 0; cas = "jeton-unique"; } else { got = ceilDiv(value, neu); cas = "arrondi"; }
      if (got === 0 && others[i] === 0 && n > 0) { got = 1; cas = "sans-autre-jeton"; }
      received.push(got);
      if (n) { rows.push({ joueur: i + 1, jetons: n, valeur: value, recus: got, cas: cas }); }
    });
    return { "jetons-de-remplacement": received, remplacements: rows,
             "ecart-de-valeur": sum(received.map(function (g) { return g * neu; })) -
               sum(counts.map(function (n) { return n * old; })) };
  };

  function classicInputs(inputs) {
    var v = chipValues(inputs), old = v[0], neu = v[1], counts = v[2], bare = inputs["joueurs-sans-autre-jeton"];
    bare.forEach(function (p) {
      if (p < 1 || p > counts.length) { throw new Refusal("joueur-hors-liste", { joueur: p, joueurs: counts.length }); }
    });
    return [old, neu, counts, bare];
  }

  KERNELS["chip-race-classique"] = function (inputs, params) {
    var r = classicInputs(inputs), old = r[0], neu = r[1], counts = r[2], bareAnswer = r[3];
    var perSet = 0, sets, leftover;
    if (inputs.course === "jeux-complets") {  // full sets exchanged first, the extra chips race
      if (neu % old) { throw new Refusal("remplacement-pas-un-multiple", { "jeton-arrondi": neu, "jeton-retire": old }); }
      perSet = neu / old;
      sets = counts.map(function (n) { return Math.floor(n / perSet); });
      leftover = counts.map(function (n) { return n % perSet; });
    } else {  // one card per removed chip, every chip races
      sets = counts.map(function () { return 0; });
      leftover = counts.slice();
    }
    if (!counts.some(function (n) { return n; })) {
      throw new Refusal("aucun-jeton-retire", { "jetons-par-joueur": counts.join(", ") });
    }
    var total = sum(leftover) * old;
    var racers = range(counts.length).filter(function (i) { return leftover[i] > 0; });
    var rounded = ceilDiv(total, neu), cap = racers.length * params["jetons-gagnes-maximum"];
    var bare = racers.filter(function (i) { return bareAnswer.indexOf(i + 1) >= 0 && sets[i] === 0; });
    var inPlay = Math.min(rounded, cap);
    return { "jetons-retires": sum(leftover), "valeur-retiree": total, "jetons-arrondis": rounded, plafond: cap,
             "jetons-en-jeu": inPlay, cartes: leftover, echanges: sets, "joueurs-en-course": racers.length,
             "valeur-non-remplacee": Math.max(0, total - inPlay * neu),
             "echanges-joueurs": range(counts.length).filter(function (i) { return sets[i] > 0; })
               .map(function (i) { return { joueur: i + 1, jetons: sets[i] * perSet, recus: sets[i] }; }),
             garantis: bare.map(function (i) { return i + 1; }),
             "sans-autre-jeton": bare.map(function (i) { return { joueur: i + 1 }; }),
             donne: racers.map(function (i) { return { joueur: i + 1, cartes: leftover[i] }; }),
             cas: !racers.length ? "sans-course" : rounded > cap ? "plafonne" : "non-plafonne" };
  };

  // Cards are codes "As", "Th" (rank 23456789TJQKA, suit s h d c); 12-3 orders the suits pique,
  // cœur, carreau, trèfle. Shown as « A♠ », « R♥ », « 10♦ » (ruling/decide/kinds.py).
  var RANK_ORDER = "23456789TJQKA", SUIT_ORDER = "shdc";
  var RANK_LABELS = { A: "A", K: "R", Q: "D", J: "V", T: "10" };
  var SUIT_SYMBOLS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  function cardStrength(card) { return RANK_ORDER.indexOf(card[0]) * 4 + (3 - SUIT_ORDER.indexOf(card[1])); }
  function cardLabel(card) { return (has(RANK_LABELS, card[0]) ? RANK_LABELS[card[0]] : card[0]) + SUIT_SYMBOLS[card[1]]; }

  KERNELS["chip-race-cartes"] = function (inputs, params) {
    var race = KERNELS["chip-race-classique"](inputs, params);
    var cards = inputs["cartes-tirees"], dealt = race.cartes;
    if (cards.length !== sum(dealt)) { throw new Refusal("une-carte-par-jeton", { cartes: cards.length, jetons: sum(dealt) }); }
    var doubled = cards.filter(function (c, k) { return cards.slice(0, k).indexOf(c) >= 0; });
    if (doubled.length) { throw new Refusal("carte-en-double", { carte: cardLabel(doubled[0]) }); }
    var owners = [];
    dealt.forEach(function (n, i) { for (var k = 0; k < n; k++) { owners.push(i); } });
    // a stable sort by strength, strongest first (Python's sorted is stable too)
    var order = range(cards.length).sort(function (a, b) { return cardStrength(cards[b]) - cardStrength(cards[a]) || a - b; });
    var won = dealt.map(function () { return 0; });
    var left = race["jetons-en-jeu"], cap = params["jetons-gagnes-maximum"], winners = [];
    order.forEach(function (k) {
      var player = owners[k];
      if (left && won[player] < cap) {
        won[player] += 1;
        left -= 1;
        winners.push({ joueur: player + 1, carte: cardLabel(cards[k]) });
      }
    });
    var rescued = race.garantis.filter(function (p) { return won[p - 1] === 0; });
    var out = Object.assign({}, race);
    out.gagnants = winners;
    out["jetons-gagnes"] = won;
    out.recus = range(dealt.length).map(function (i) {
      return race.echanges[i] + won[i] + (rescued.indexOf(i + 1) >= 0 ? 1 : 0);
    });
    out.repeches = rescued.map(function (p) { return { joueur: p }; });
    out["cartes-par-joueur"] = range(dealt.length).filter(function (i) { return dealt[i] > 0; }).map(function (i) {
      return { joueur: i + 1, cartes: range(cards.length).filter(function (k) { return owners[k] === i; })
        .map(function (k) { return cardLabel(cards[k]); }).join(", ") };
    });
    return out;
  };

  // -- blinds and button -------------------------------------------------------------------------
  function nextSeat(seats, after) {
    var later = seats.filter(function (s) { return s > after; });
    return later.length ? Math.min.apply(null, later) : Math.min.apply(null, seats);
  }

  function previousSeat(seats, before) {
    var earlier = seats.filter(function (s) { return s < before; });
    return earlier.length ? Math.max.apply(null, earlier) : Math.max.apply(null, seats);
  }

  // the seats strictly after `first` and before `last`, clockwise (round the table past the highest seat)
  function between(seats, first, last) {
    return seats.filter(function (s) { return first < last ? (first < s && s < last) : (s > first || s < last); });
  }

  // refuse old seats that no single hand gives (see _one_hand in ruling/decide/calculators.py)
  function oneHand(seats, button, small, big) {
    if (big === button) { throw new Refusal("bouton-et-grosse-blind", { siege: big }); }
    if (small === big) { throw new Refusal("deux-blinds-un-siege", { siege: big }); }
    if (small === button) {
      var others = seats.filter(function (s) { return s !== button && s !== big; });
      if (others.length) { throw new Refusal("tete-a-tete-precedent", { siege: others[0], "ancien-bouton": button }); }
      return;
    }
    var skipped = between(seats, button, small || big);
    if (skipped.length > (small ? 0 : 1)) {  // a hand without small blind (8-12): its dealer dealt twice
      throw new Refusal("siege-saute-avant-les-blinds", { siege: skipped[0], "ancien-bouton": button, "premiere-blind": small || big });
    }
    skipped = small ? between(seats, small, big) : [];
    if (skipped.length) {
      throw new Refusal("siege-saute-entre-les-blinds", { siege: skipped[0], "ancienne-petite-blind": small, "ancienne-grosse-blind": big });
    }
  }

  KERNELS["blinds-suivantes"] = function (inputs) {
    var seats = inputs["sieges-occupes"].filter(function (s, i, all) { return all.indexOf(s) === i; })
      .sort(function (a, b) { return a - b; });
    var oldButton = inputs["ancien-bouton"], oldSmall = inputs["ancienne-petite-blind"];
    var oldBig = inputs["ancienne-grosse-blind"];
    if (seats.length < 2) { throw new Refusal("deux-joueurs-presents"); }
    if (seats[0] < 1) { throw new Refusal("siege-zero"); }
    oneHand(seats, oldButton, oldSmall, oldBig);
    var big = nextSeat(seats, oldBig), dealer, small, cas;
    var present = function (seat) { return seats.indexOf(seat) >= 0; };
    if (seats.length === 2) {
      dealer = seats[0] !== big ? seats[0] : seats[1];
      small = dealer; cas = dealer === oldButton ? "tete-a-tete-redonne" : "tete-a-tete";
    } else if (!oldSmall) {
      small = present(oldBig) ? oldBig : 0;
      dealer = previousSeat(seats, small || big);
      cas = small ? "apres-coup-sans-petite-blind" : "apres-coup-sans-petite-blind-ni-grosse-blind";
    } else if (present(oldBig)) {
      small = oldBig;
      if (present(oldSmall)) { dealer = oldSmall; cas = "petite-blind-avancee"; }
      else if (present(oldButton)) { dealer = oldButton; cas = "ancien-donneur-redonne"; }
      else { dealer = previousSeat(seats, small); cas = "donneurs-absents"; }
    } else if (present(oldButton)) {
      small = 0; dealer = oldButton; cas = "sans-petite-blind";
    } else {
      small = 0; dealer = previousSeat(seats, big); cas = "sans-petite-blind-donneur-absent";
    }
    return { "siege-donneur": dealer, "siege-petite-blind": small, "siege-grosse-blind": big,
             "tete-a-tete": seats.length === 2, cas: cas };
  };

  // -- sanctions -----------------------------------------------------------------------------------
  function given(value) { return value !== undefined && value !== null; }

  KERNELS["mains-a-manquer"] = function (inputs, params) {
    var rounds = inputs.tours, players = inputs["joueurs-a-la-table"];
    var low = params["tours-exclusion-minimum"], high = params["tours-exclusion-maximum"];
    if ((given(low) && rounds < low) || (given(high) && rounds > high)) {
      var figures = { minimum: given(low) ? low : null, maximum: given(high) ? high : null, tours: rounds };
      if (!given(low) || !given(high)) { throw new Refusal(given(low) ? "tours-au-moins" : "tours-au-plus", figures); }
      throw new Refusal("tours-hors-limites", figures);
    }
    positive(rounds, "tours", "duree-non-positive");
    if (players < 2) { throw new Refusal("table-trop-petite", { "joueurs-a-la-table": players }); }
    return { mains: rounds * players };
  };

  KERNELS["duree-suspension"] = function (inputs, params) {
    var minutes = inputs.minutes, step = params["multiple-suspension-minutes"];
    positive(minutes, "minutes", "duree-non-positive");
    if (minutes % step) {
      var below = minutes - minutes % step;
      throw new Refusal("pas-un-multiple-de-minutes", { multiple: step, minutes: minutes,
                                                        avant: Math.max(step, below), apres: below + step });
    }
    return { minutes: minutes, multiple: step };
  };

  // -- limit games (cash) ------------------------------------------------------------------------------
  KERNELS["tapis-a-limite"] = function (inputs, params) {
    var full = inputs["mise-pleine"], allIn = inputs["mise-tapis"];
    positive(full, "mise-pleine");
    positive(allIn, "mise-tapis");
    if (allIn >= full) { throw new Refusal("tapis-atteint-la-mise-pleine", { "mise-tapis": allIn, "mise-pleine": full }); }
    var sc = scaled(params["demi-mise"]), reopens = allIn * SCALE >= full * sc;
    return { rouvre: reopens, moitie: number(full * sc, SCALE), "completer-a": full,
             "reste-a-completer": full - allIn, cas: reopens ? "mise-pleine" : "sous-le-seuil" };
  };

  // -- templates (ruling/templates.py) --------------------------------------------------------------
  var PLACEHOLDER = /\{\{\s*([a-z][a-z0-9-]*)\s*\}\}/g;

  function figureText(value) {
    if (typeof value === "boolean") { return value ? "oui" : "non"; }
    if (Array.isArray(value)) { return value.length ? value.map(figureText).join(", ") : "aucun"; }
    if (typeof value === "number" && !Number.isInteger(value)) { return String(value).replace(".", ","); }
    return String(value);
  }

  function pick(template, cas) {
    return template !== null && typeof template === "object" ? template[cas] : template;
  }

  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

  function render(template, figures, each, depth) {
    each = each || {};
    depth = depth || 0;
    var lines = [];
    template.split("\n").forEach(function (line) {
      var alone = depth === 0 && /^\{\{\s*[a-z][a-z0-9-]*\s*\}\}$/.test(line.trim());
      var text = line.replace(PLACEHOLDER, function (all, name) {
        if (!has(figures, name)) { return all; }
        var value = figures[name];
        if (Array.isArray(value) && has(each, name)) {
          return value.map(function (item) {
            return render(pick(each[name], item.cas), Object.assign({}, figures, item), each, depth + 1);
          }).join(alone ? "\n" : ", ");
        }
        return figureText(value);
      });
      if (text.trim() || !line.trim()) { lines.push(text); }
    });
    return lines.join("\n");
  }

  function refusalText(data, refusal) {
    var values = Object.assign({}, refusal.figures);
    if (has(values, "entree")) {
      values.nom = has(data.inputNames, values.entree) ? data.inputNames[values.entree] : values.entree;
    }
    return render(data.refusals[refusal.code], values);
  }

  var api = { kernels: KERNELS, Refusal: Refusal, render: render, pick: pick, figureText: figureText,
              refusalText: refusalText };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.RulingKernels = api; }
}(typeof window !== "undefined" ? window : this));
