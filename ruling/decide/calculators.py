"""Calculator kernels: the numbers a ruling needs (minimum raise, side pots, chip race, blinds…).

A kernel takes the answers keyed by input id and the book's parameters keyed by parameter id,
and returns figures keyed by French names, with a case key (`cas`) when the wording depends
on the computation. It writes no sentence: what each input asks, what each figure means and
every refusal message are data (`rulebook/calculators.yaml`), the decision sentences are in the
procedures. site/assets/kernels.js is the same arithmetic for the browser, proved equal by
tests/test_kernels_parity.py. Impossible inputs raise `Refusal(code, figures)`, which the
engine turns into one French line from the refusal's template.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from ruling.decide.kinds import card_label, card_strength

SCALE = 1_000_000  # fractional parameters (0.5) are applied in millionths, exactly, in both languages


class Refusal(Exception):
    """The inputs are impossible: `code` names the French template, `figures` fill it."""

    def __init__(self, code: str, **figures):
        super().__init__(code)
        self.code = code
        self.figures = figures


Kernel = Callable[[dict, dict], dict]
KERNELS: dict[str, Kernel] = {}


def kernel(name: str):
    """Register a function as the kernel of calculator `name`."""
    def wrap(func: Kernel) -> Kernel:
        KERNELS[name] = func
        return func
    return wrap


def _positive(value: int, entry: str, refusal: str = "non-positif") -> None:
    """A count or amount above 0; `refusal` names what it counts (chips by default, a duration for "duree-non-positive")."""
    if value <= 0:
        raise Refusal(refusal, entree=entry, recu=value)


def _scaled(fraction) -> int:
    return math.floor(fraction * SCALE + 0.5)  # half up, as JavaScript's Math.round


def _ceil_part(amount: int, fraction) -> int:
    """⌈amount × fraction⌉ without floating-point error."""
    return -(-amount * _scaled(fraction) // SCALE)


def _number(numerator: int, denominator: int):
    """numerator / denominator as an int when exact, else the same float in Python and JavaScript."""
    return numerator // denominator if numerator % denominator == 0 else numerator / denominator


# -- betting rounds --------------------------------------------------------------------------------

def play_round(big_blind: int, bets: list[int], preflop: bool) -> dict:
    """Replay the totals of a round: a bet adding at least the last full raise is a full raise (it
    sets the new minimum increment); a smaller one (a short all-in) only raises the price."""
    _positive(big_blind, "grosse-blind")
    level, last_raise, history = (big_blind if preflop else 0), big_blind, []
    for total in bets:
        if total <= level:
            raise Refusal("mises-non-croissantes", montant=total, niveau=level)
        full = total - level >= last_raise
        if full:
            last_raise = total - level
        level = total
        history.append((total, full))
    return {"level": level, "last_raise": last_raise, "history": history}


def _preflop(inputs: dict) -> bool:
    return inputs["tour"] == "avant-flop"


@kernel("relance-minimum")
def min_raise(inputs: dict, params: dict) -> dict:
    state = play_round(inputs["grosse-blind"], inputs["mises"], _preflop(inputs))
    return {"a-suivre": state["level"], "relance-minimum": state["level"] + state["last_raise"],
            "ecart-minimum": state["last_raise"], "cas": inputs["tour"]}


@kernel("reouverture")
def reopening(inputs: dict, params: dict) -> dict:
    big_blind, player, preflop = inputs["grosse-blind"], inputs["mise-du-joueur"], _preflop(inputs)
    state = play_round(big_blind, inputs["mises"], preflop)
    history = state["history"]
    # what the player may have put in: the big blind before the flop, 0 (a check) after it, or a total of the round
    levels = ([big_blind] if preflop else [0]) + [t for t, _ in history]
    if player not in levels:
        raise Refusal("mise-hors-du-tour", **{"mise-du-joueur": player, "montants": levels})
    later = history[levels.index(player):]
    before = play_round(big_blind, [t for t, _ in history[:len(history) - len(later)]], preflop)
    gap = state["level"] - player
    if not later:
        case = "aucune-relance"
    elif any(full for _, full in later):
        case = "relance-complete"
    elif player == 0:  # he checked, then only all-ins below a full bet: the first bet he faces
        case = "apres-parole"
    elif gap >= before["last_raise"]:  # several short all-ins add up to a full raise: the book says if it counts
        case = "cumul-suffisant" if params["reouverture-par-cumul"] else "cumul-non-retenu"
    else:
        case = "tapis-insuffisants"
    return {"rouvert": case in ("relance-complete", "cumul-suffisant", "apres-parole"), "a-suivre": state["level"],
            "relance-minimum": state["level"] + state["last_raise"], "relance-complete": before["last_raise"],
            "ajout": gap, "cas": case}


def _short_state(inputs: dict) -> tuple[int, int, int]:
    state = play_round(inputs["grosse-blind"], inputs["mises"], _preflop(inputs))
    return state["level"], state["last_raise"], state["level"] + state["last_raise"]


def _first_short_all_in(inputs: dict) -> list[dict]:
    """The round's first bet below a full raise (a short all-in), as a list of 0 or 1 record: a
    decision template tells what depends on it only when there is one (templates.render)."""
    history = play_round(inputs["grosse-blind"], inputs["mises"], _preflop(inputs))["history"]
    return [{"montant": total} for total, full in history if not full][:1]


@kernel("mise-insuffisante")
def short_bet(inputs: dict, params: dict) -> dict:
    level, _, _ = _short_state(inputs)
    put = inputs["mise-posee"]
    if put <= 0:  # nothing put in is a check or a fold, not a bet to complete
        raise Refusal("rien-pose", **{"mise-posee": put})
    required = level if level else inputs["grosse-blind"]
    if put >= required:
        raise Refusal("mise-deja-suffisante", **{"mise-posee": put, "total-du": required})
    return {"a-suivre": level, "total-du": required, "complement": required - put,
            "cas": "suivi" if level else "ouverture"}


def _short_raise(inputs: dict, silent: bool) -> tuple[int, int, int]:
    level, last_raise, target = _short_state(inputs)
    put = inputs["mise-posee"]
    if not level:  # after the flop and nobody has bet: an opening, not a raise
        raise Refusal("pas-de-mise-a-relancer", **{"mise-posee": put})
    if put >= target:
        raise Refusal("relance-deja-suffisante", **{"mise-posee": put, "relance-minimum": target})
    if silent and put == level:  # exactly the bet to call: a call, nothing short to rule on
        raise Refusal("suivi-exact", **{"mise-posee": put, "a-suivre": level})
    if silent and put < level:
        raise Refusal("pas-une-relance", **{"mise-posee": put, "a-suivre": level})
    return level, last_raise, target


@kernel("relance-annoncee-insuffisante")
def short_raise_announced(inputs: dict, params: dict) -> dict:
    level, _, target = _short_raise(inputs, silent=False)
    return {"a-suivre": level, "relance-minimum": target, "total-du": target,
            "complement": target - inputs["mise-posee"], "rendu": 0, "premier-tapis-court": _first_short_all_in(inputs)}


@kernel("relance-insuffisante-sans-annonce")
def short_raise_silent(inputs: dict, params: dict) -> dict:
    level, last_raise, target = _short_raise(inputs, silent=True)
    put, share = inputs["mise-posee"], params["seuil-completion"]
    threshold = level + _ceil_part(last_raise, share)
    out = {"a-suivre": level, "relance-minimum": target, "seuil-total": threshold,
           "seuil-pourcent": _number(_scaled(share), SCALE // 100), "premier-tapis-court": _first_short_all_in(inputs)}
    if put >= threshold:
        out.update({"total-du": target, "complement": target - put, "rendu": 0, "cas": "completee"})
    else:
        out.update({"total-du": level, "complement": 0, "rendu": put - level, "cas": "suivi"})
    return out


@kernel("jeton-superieur")
def oversized_chip(inputs: dict, params: dict) -> dict:
    chip, to_call = inputs["valeur-du-jeton"], inputs["a-suivre"]
    _positive(chip, "valeur-du-jeton")
    if to_call <= 0:  # « a bet to call » of nothing: the answers contradict each other (9-18 « suivre » needs a bet)
        raise Refusal("rien-a-suivre", **{"valeur-du-jeton": chip, "a-suivre": to_call})
    if chip <= to_call:
        raise Refusal("jeton-pas-superieur", **{"valeur-du-jeton": chip, "a-suivre": to_call})
    return {"suivi": to_call, "monnaie": chip - to_call, "relance-au-jeton": chip}


@kernel("ouverture-au-jeton")
def oversized_chip_opening(inputs: dict, params: dict) -> dict:
    """Nobody has bet: after the flop the chip opens at its own value (9-18), at least the big blind (9-5)."""
    chip, big_blind = inputs["valeur-du-jeton"], inputs["grosse-blind"]
    _positive(chip, "valeur-du-jeton")
    _positive(big_blind, "grosse-blind")
    if chip < big_blind:  # under 9-5's minimum opening: a short bet (or an all-in, 9-7)
        return {"ouverture-au-jeton": chip, "complement": big_blind - chip, "cas": "sous-le-gros-blind"}
    return {"ouverture-au-jeton": chip, "complement": 0, "cas": "hauteur-du-jeton"}


# -- pots ---------------------------------------------------------------------------------------

@kernel("partage-des-pots")
def split_pots(inputs: dict, params: dict) -> dict:
    """Build the main and side pots from what each player put in, then split each among its best
    hands; odd chips (in units of the smallest chip) go one each to the first winners in seat order."""
    contributions, ranks, unit = inputs["engagements"], inputs["classement"], inputs["plus-petit-jeton"]
    _positive(unit, "plus-petit-jeton")
    if not contributions:
        raise Refusal("aucun-engagement")
    if len(ranks) != len(contributions):
        raise Refusal("un-rang-par-joueur", joueurs=len(contributions), rangs=len(ranks))
    if not any(r > 0 for r in ranks):
        raise Refusal("personne-en-jeu")
    for c in contributions:
        if c % unit:
            raise Refusal("pas-un-multiple", montant=c, **{"plus-petit-jeton": unit})
    n = len(contributions)
    pots: list[dict] = []
    returned = [0] * n
    prev = 0
    for level in sorted({c for c in contributions if c > 0}):
        layer = sum(min(c, level) - min(c, prev) for c in contributions)
        contributors = [i for i, c in enumerate(contributions) if c >= level]
        eligible = [i for i in contributors if ranks[i] > 0]
        if len(contributors) == 1:  # an uncalled bet: not a pot, it goes back
            if ranks[contributors[0]] == 0:  # nobody folds a bet that nobody called
                raise Refusal("mise-non-suivie-couchee", joueur=contributors[0] + 1)
            returned[contributors[0]] += layer
        elif not eligible:
            raise Refusal("tous-couches")
        elif pots and pots[-1]["eligible"] == eligible:
            pots[-1]["amount"] += layer
        else:
            pots.append({"amount": layer, "eligible": eligible})
        prev = level
    wins = [0] * n
    shown = []
    for number, pot in enumerate(pots):
        best = min(ranks[i] for i in pot["eligible"])
        winners = [i for i in pot["eligible"] if ranks[i] == best]
        units, odd = divmod(pot["amount"] // unit, len(winners))
        shares = [units * unit + (unit if k < odd else 0) for k in range(len(winners))]
        for i, share in zip(winners, shares):
            wins[i] += share
        kind = "principal" if number == 0 else "exterieur"
        shown.append({"numero": number, "montant": pot["amount"], "joueurs": [i + 1 for i in pot["eligible"]],
                      "gagnants": [{"joueur": i + 1, "part": s} for i, s in zip(winners, shares)],
                      "jetons-indivisibles": odd, "cas": kind + ("-indivisible" if odd else "")})
    return {"pots": shown[::-1],  # the outer pots are split first (10-9)
            "gains": [w + r for w, r in zip(wins, returned)], "mises-rendues": returned,
            "remboursements": [{"joueur": i + 1, "montant": r} for i, r in enumerate(returned) if r]}


# -- chip race --------------------------------------------------------------------------------------

def _chip_values(inputs: dict) -> tuple[int, int, list[int]]:
    """The chip removed, the chip it is replaced by (larger) and each player's count of removed
    chips: what every chip race starts from."""
    old, new = inputs["jeton-retire"], inputs["jeton-arrondi"]
    _positive(old, "jeton-retire")
    _positive(new, "jeton-arrondi")
    if new <= old:
        raise Refusal("remplacement-trop-petit", **{"jeton-arrondi": new, "jeton-retire": old})
    return old, new, inputs["jetons-par-joueur"]


def _race_inputs(inputs: dict) -> tuple[int, int, list[int], list[int]]:
    old, new, counts = _chip_values(inputs)
    others = inputs["autres-jetons"]
    if len(others) != len(counts):
        raise Refusal("une-valeur-par-joueur", joueurs=len(counts), valeurs=len(others))
    return old, new, counts, others


@kernel("chip-race-direct")
def chip_race_direct(inputs: dict, params: dict) -> dict:
    old, new, counts, others = _race_inputs(inputs)
    imposed = params.get("jeton-arrondi-impose")
    if imposed is not None and old == params.get("jeton-retire-arrondi-impose") and new != imposed:
        raise Refusal("arrondi-impose", impose=imposed, **{"jeton-arrondi": new, "jeton-retire": old})
    received, rows = [], []
    for i, (n, other) in enumerate(zip(counts, others)):
        value = n * old
        got, case = (0, "jeton-unique") if n <= 1 else (-(-value // new), "arrondi")
        if got == 0 and other == 0 and n > 0:
            got, case = 1, "sans-autre-jeton"
        received.append(got)
        if n:
            rows.append({"joueur": i + 1, "jetons": n, "valeur": value, "recus": got, "cas": case})
    return {"jetons-de-remplacement": received, "remplacements": rows,
            "ecart-de-valeur": sum(g * new for g in received) - sum(n * old for n in counts)}


def _classic_inputs(inputs: dict) -> tuple[int, int, list[int], set[int]]:
    old, new, counts = _chip_values(inputs)
    bare = inputs["joueurs-sans-autre-jeton"]
    for player in bare:
        if not 1 <= player <= len(counts):
            raise Refusal("joueur-hors-liste", joueur=player, joueurs=len(counts))
    return old, new, counts, set(bare)


@kernel("chip-race-classique")
def chip_race_classic(inputs: dict, params: dict) -> dict:
    """The classic race (12-2 to 12-6): either every removed chip races, one card each (course
    une-carte-par-jeton), or each player's full sets are exchanged first and only the extra chips race
    (jeux-complets); the race is for their total rounded up (12-5), at most jetons-gagnes-maximum per player (12-4)."""
    old, new, counts, bare_players = _classic_inputs(inputs)
    if inputs["course"] == "jeux-complets":
        if new % old:
            raise Refusal("remplacement-pas-un-multiple", **{"jeton-arrondi": new, "jeton-retire": old})
        per_set = new // old
        sets, leftover = [n // per_set for n in counts], [n % per_set for n in counts]
    else:
        per_set, sets, leftover = 0, [0] * len(counts), list(counts)
    if not any(counts):
        raise Refusal("aucun-jeton-retire", **{"jetons-par-joueur": ", ".join(map(str, counts))})
    total = sum(leftover) * old
    racers = [i for i, n in enumerate(leftover) if n > 0]
    rounded = -(-total // new)
    cap = len(racers) * params["jetons-gagnes-maximum"]
    bare = [i for i in racers if i + 1 in bare_players and sets[i] == 0]
    in_play = min(rounded, cap)
    return {"jetons-retires": sum(leftover), "valeur-retiree": total, "jetons-arrondis": rounded, "plafond": cap,
            "jetons-en-jeu": in_play, "cartes": leftover, "echanges": sets, "joueurs-en-course": len(racers),
            "valeur-non-remplacee": max(0, total - in_play * new),
            "echanges-joueurs": [{"joueur": i + 1, "jetons": sets[i] * per_set, "recus": sets[i]}
                                 for i in range(len(counts)) if sets[i]],
            "garantis": [i + 1 for i in bare],
            "sans-autre-jeton": [{"joueur": i + 1} for i in bare],
            "donne": [{"joueur": i + 1, "cartes": leftover[i]} for i in racers],
            "cas": "sans-course" if not racers else "plafonne" if rounded > cap else "non-plafonne"}


@kernel("chip-race-cartes")
def chip_race_cards(inputs: dict, params: dict) -> dict:
    """The classic race once the cards are dealt (12-2 to 12-6): the cards, typed in dealing order
    (each racer's block, from the dealer's left), are ranked by value then suit (pique, cœur,
    carreau, trèfle); the best win the chips in play, jetons-gagnes-maximum at most per player; a
    player left without chips gets one (12-6)."""
    race = chip_race_classic(inputs, params)
    cards, dealt = inputs["cartes-tirees"], race["cartes"]
    if len(cards) != sum(dealt):
        raise Refusal("une-carte-par-jeton", cartes=len(cards), jetons=sum(dealt))
    doubled = [c for k, c in enumerate(cards) if c in cards[:k]]
    if doubled:
        raise Refusal("carte-en-double", carte=card_label(doubled[0]))
    owners = [i for i, n in enumerate(dealt) for _ in range(n)]
    order = sorted(range(len(cards)), key=lambda k: -card_strength(cards[k]))
    won = [0] * len(dealt)
    left, cap = race["jetons-en-jeu"], params["jetons-gagnes-maximum"]
    winners = []
    for k in order:
        player = owners[k]
        if left and won[player] < cap:
            won[player] += 1
            left -= 1
            winners.append({"joueur": player + 1, "carte": card_label(cards[k])})
    rescued = [p for p in race["garantis"] if won[p - 1] == 0]
    received = [race["echanges"][i] + won[i] + (1 if i + 1 in rescued else 0) for i in range(len(dealt))]
    return {**race, "gagnants": winners, "jetons-gagnes": won, "recus": received,
            "repeches": [{"joueur": p} for p in rescued],
            "cartes-par-joueur": [{"joueur": i + 1, "cartes": ", ".join(card_label(cards[k]) for k in range(len(cards))
                                                                      if owners[k] == i)}
                                  for i in range(len(dealt)) if dealt[i]]}


# -- blinds and button ----------------------------------------------------------------------------

def _next_seat(seats: list[int], after: int) -> int:
    later = [s for s in seats if s > after]
    return min(later) if later else min(seats)


def _previous_seat(seats: list[int], before: int) -> int:
    earlier = [s for s in seats if s < before]
    return max(earlier) if earlier else max(seats)


def _between(seats: list[int], first: int, last: int) -> list[int]:
    """The seats strictly after `first` and before `last`, clockwise (round the table past the highest seat)."""
    if first < last:
        return [s for s in seats if first < s < last]
    return [s for s in seats if s > first or s < last]


def _one_hand(seats: list[int], button: int, small: int, big: int) -> None:
    """Refuse old seats that no single hand gives: the button, the small blind and the big blind
    follow each other, and nobody still seated sat between them (he would have posted instead), but
    for one seat before the big blind of a hand without small blind: its dealer had dealt the hand before too (8-12)."""
    if big == button:
        raise Refusal("bouton-et-grosse-blind", siege=big)
    if small == big:
        raise Refusal("deux-blinds-un-siege", siege=big)
    if small == button:  # only heads-up does the dealer post the small blind (8-16): nobody else played
        others = [s for s in seats if s not in (button, big)]
        if others:
            raise Refusal("tete-a-tete-precedent", siege=others[0], **{"ancien-bouton": button})
        return
    skipped = _between(seats, button, small or big)
    if len(skipped) > (0 if small else 1):  # a hand without small blind (8-12) passed over the seat of the gone one's predecessor
        raise Refusal("siege-saute-avant-les-blinds", siege=skipped[0], **{
            "ancien-bouton": button, "premiere-blind": small or big})
    skipped = _between(seats, small, big) if small else []
    if skipped:
        raise Refusal("siege-saute-entre-les-blinds", siege=skipped[0], **{
            "ancienne-petite-blind": small, "ancienne-grosse-blind": big})


@kernel("blinds-suivantes")
def next_blinds(inputs: dict, params: dict) -> dict:
    """Dead button (8-6): the big blind moves to the next player; the small blind is the old big
    blind (none if gone, 8-12); the old small blind deals, else the old dealer again (8-13); when
    that one is gone too, or when the last hand had no small blind (its dealer has dealt twice),
    the player seated just before the first blind deals (the text is silent)."""
    seats = sorted(set(inputs["sieges-occupes"]))
    old_button, old_small, old_big = (inputs["ancien-bouton"], inputs["ancienne-petite-blind"],
                                      inputs["ancienne-grosse-blind"])
    if len(seats) < 2:
        raise Refusal("deux-joueurs-presents")
    if min(seats) < 1:
        raise Refusal("siege-zero")
    _one_hand(seats, old_button, old_small, old_big)
    big = _next_seat(seats, old_big)
    if len(seats) == 2:
        dealer = next(s for s in seats if s != big)
        small, case = dealer, "tete-a-tete-redonne" if dealer == old_button else "tete-a-tete"
    elif not old_small:
        small = old_big if old_big in seats else 0
        dealer = _previous_seat(seats, small or big)
        case = "apres-coup-sans-petite-blind" if small else "apres-coup-sans-petite-blind-ni-grosse-blind"
    elif old_big in seats:
        small = old_big
        if old_small in seats:
            dealer, case = old_small, "petite-blind-avancee"
        elif old_button in seats:
            dealer, case = old_button, "ancien-donneur-redonne"
        else:
            dealer, case = _previous_seat(seats, small), "donneurs-absents"
    elif old_button in seats:
        small, dealer, case = 0, old_button, "sans-petite-blind"
    else:
        small, dealer, case = 0, _previous_seat(seats, big), "sans-petite-blind-donneur-absent"
    return {"siege-donneur": dealer, "siege-petite-blind": small, "siege-grosse-blind": big,
            "tete-a-tete": len(seats) == 2, "cas": case}


# -- sanctions --------------------------------------------------------------------------------------

@kernel("mains-a-manquer")
def missed_hands(inputs: dict, params: dict) -> dict:
    rounds, players = inputs["tours"], inputs["joueurs-a-la-table"]
    low, high = params.get("tours-exclusion-minimum"), params.get("tours-exclusion-maximum")
    if (low is not None and rounds < low) or (high is not None and rounds > high):
        if low is None or high is None:
            raise Refusal("tours-au-plus" if low is None else "tours-au-moins", minimum=low, maximum=high, tours=rounds)
        raise Refusal("tours-hors-limites", minimum=low, maximum=high, tours=rounds)
    _positive(rounds, "tours", "duree-non-positive")
    if players < 2:
        raise Refusal("table-trop-petite", **{"joueurs-a-la-table": players})
    return {"mains": rounds * players}


@kernel("duree-suspension")
def suspension_minutes(inputs: dict, params: dict) -> dict:
    minutes, step = inputs["minutes"], params["multiple-suspension-minutes"]
    _positive(minutes, "minutes", "duree-non-positive")
    if minutes % step:
        below = minutes - minutes % step
        raise Refusal("pas-un-multiple-de-minutes", multiple=step, minutes=minutes,
                      avant=max(step, below), apres=below + step)
    return {"minutes": minutes, "multiple": step}


# -- limit games (cash) -------------------------------------------------------------------------------

@kernel("tapis-a-limite")
def limit_all_in(inputs: dict, params: dict) -> dict:
    full, all_in = inputs["mise-pleine"], inputs["mise-tapis"]
    _positive(full, "mise-pleine")
    _positive(all_in, "mise-tapis")
    if all_in >= full:
        raise Refusal("tapis-atteint-la-mise-pleine", **{"mise-tapis": all_in, "mise-pleine": full})
    scaled = _scaled(params["demi-mise"])
    reopens = all_in * SCALE >= full * scaled
    return {"rouvre": reopens, "moitie": _number(full * scaled, SCALE), "completer-a": full,
            "reste-a-completer": full - all_in, "cas": "mise-pleine" if reopens else "sous-le-seuil"}
