"""Calculators: the numbers a ruling needs (minimum raise, side pots, chip race, blinds…).

Each calculator is a plain function registered by name with the inputs the engine must
ask (French question text, type amount/amounts) and the results a decision can insert
(`{{ min_raise_to }}`). Functions are pure; impossible inputs raise `CalculatorError` (a `UserError`) in French.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .errors import CalculatorError


@dataclass(frozen=True)
class Input:
    """One input of a calculator, asked like a procedure question."""

    id: str  # question id, [a-z0-9-]
    param: str  # the function's keyword argument
    text: str
    type: str = "amount"  # amount | amounts
    default: object = None
    help: str | None = None

    def question(self):
        from .procedures import Question

        return Question(id=self.id, text=self.text, type=self.type, default=self.default, help=self.help,
                        origin="calculator")


@dataclass(frozen=True)
class Calculator:
    name: str
    func: Callable
    inputs: tuple[Input, ...]
    outputs: dict = field(default_factory=dict)  # result name -> French description
    doc: str = ""

    def __call__(self, values: dict) -> dict:
        """Run on answers keyed by input id; returns the figures keyed by output name."""
        kwargs = {inp.param: values[inp.id] for inp in self.inputs}
        result = self.func(**kwargs)
        unknown = set(result) - set(self.outputs)
        if unknown:  # a programming error, caught by the tests
            raise AssertionError(f"{self.name} returned undeclared results {sorted(unknown)}")
        return result


_REGISTRY: dict[str, Calculator] = {}


def calculator(name: str, inputs: list[Input], outputs: dict):
    """Register a function as calculator `name`."""
    def wrap(func):
        _REGISTRY[name] = Calculator(name, func, tuple(inputs), dict(outputs), (func.__doc__ or "").strip())
        return func
    return wrap


def get_calculator(name: str) -> Calculator | None:
    return _REGISTRY.get(name)


def calculator_names() -> list[str]:
    return sorted(_REGISTRY)


def all_calculators() -> list[Calculator]:
    return [_REGISTRY[n] for n in calculator_names()]


def calculators_json() -> dict:
    """Every calculator with its inputs and results (`ruling procedures --calculators --json`)."""
    return {"calculators": [
        {"name": c.name, "doc": c.doc,
         "inputs": [{"id": i.id, "text": i.text, "type": i.type, "default": i.default} for i in c.inputs],
         "outputs": dict(c.outputs)} for c in all_calculators()]}


def calculators_listing() -> str:
    """The calculators for rule editors: name, what it does, inputs, results."""
    lines = []
    for c in all_calculators():
        lines.append(c.name)
        for i in c.inputs:
            lines.append(f"  entrée {i.id} ({i.type}) : {i.text}")
        lines.append("  résultats : " + ", ".join(f"{k} ({v})" for k, v in c.outputs.items()))
        lines.append("")
    return "\n".join(lines).rstrip()


# -- shared inputs ------------------------------------------------------------------------------

BIG_BLIND = Input("grosse-blind", "big_blind", "Montant du gros blind en cours ?", default=100)
BETS = Input("mises", "bets", "Montants successifs (au total) des mises, relances et tapis de ce tour, dans l'ordre ?",
             type="amounts",
             help="Un montant par mise qui a augmenté le prix à payer, au total (« à combien »), sans les "
                  "simples suivis ; ex. 200, 290 pour une ouverture à 200 puis un tapis à 290. Vide si personne "
                  "n'a encore misé.")


def _positive(value: int, what: str) -> None:
    if value <= 0:
        raise CalculatorError(f"{what} doit être un nombre de jetons supérieur à 0 (reçu {value})")


# -- betting rounds --------------------------------------------------------------------------------

@dataclass
class RoundState:
    """Where a betting round stands: the price to call and the size of the last full raise."""

    level: int  # total to call
    last_raise: int  # the increment a raise must at least add (never below the big blind)
    history: list = field(default_factory=list)  # (total, full: bool, increment) per bet

    @property
    def min_raise_to(self) -> int:
        return self.level + self.last_raise


def play_round(big_blind: int, bets: list[int], preflop: bool) -> RoundState:
    """Replay the totals of a round: a bet adding at least the last full raise is a full raise
    (it sets the new minimum increment); a smaller one (a short all-in) only raises the price."""
    _positive(big_blind, "le gros blind")
    state = RoundState(level=big_blind if preflop else 0, last_raise=big_blind)
    for total in bets:
        if total <= state.level:
            raise CalculatorError(f"les montants des mises doivent croître : {total} ne dépasse pas {state.level} "
                            "(n'indiquez pas les simples suivis)")
        increment = total - state.level
        full = increment >= state.last_raise
        if full:
            state.last_raise = increment
        state.level = total
        state.history.append((total, full, increment))
    return state


def _min_raise(big_blind: int, bets: list[int], preflop: bool) -> dict:
    state = play_round(big_blind, bets, preflop)
    out = {"min_raise_to": state.min_raise_to, "to_call": state.level, "min_increment": state.last_raise}
    if not bets and not preflop:
        out["explanation"] = f"Personne n'a misé : l'ouverture minimum est le gros blind, {big_blind}."
    else:
        out["explanation"] = (f"Pour suivre : {state.level}. La dernière relance complète est de {state.last_raise} : "
                              f"une relance doit porter le total à {state.min_raise_to} au moins.")
    return out


MIN_RAISE_OUTPUTS = {"min_raise_to": "relance minimum, au total", "to_call": "montant à suivre",
                     "min_increment": "écart minimum d'une relance", "explanation": "le calcul en une phrase"}


@calculator("min_raise_to", [BIG_BLIND, BETS], MIN_RAISE_OUTPUTS)
def min_raise_to(big_blind: int, bets: list[int]) -> dict:
    """Minimum bet or raise after the flop (9-5, 9-7, 9-8, 9-13): a short all-in raises the price
    to call but not the minimum increment."""
    return _min_raise(big_blind, bets, preflop=False)


@calculator("min_raise_to_preflop", [BIG_BLIND, BETS], MIN_RAISE_OUTPUTS)
def min_raise_to_preflop(big_blind: int, bets: list[int]) -> dict:
    """Minimum raise before the flop (9-6, 9-8): the big blind counts as a bet, even when the big
    blind is short; `bets` are the raises after the blinds."""
    return _min_raise(big_blind, bets, preflop=True)


def _reopening(big_blind: int, bets: list[int], player_total: int, preflop: bool, cumulative: bool) -> dict:
    state = play_round(big_blind, bets, preflop)
    levels = [t for t, _, _ in state.history]
    if preflop:
        levels = [big_blind] + levels
    if player_total not in levels:
        shown = ", ".join(map(str, levels)) or "(aucun)"
        raise CalculatorError(f"la mise du joueur ({player_total}) doit être l'un des montants du tour : {shown}")
    # the bets after the player's action, and the minimum increment in force when he acted
    pos = levels.index(player_total)
    later = state.history[pos:] if preflop else state.history[pos + 1:]
    before = play_round(big_blind, [t for t, _, _ in state.history[: len(state.history) - len(later)]], preflop)
    full_after = any(full for _, full, _ in later)
    gap = state.level - player_total
    reopened = full_after or (cumulative and gap >= before.last_raise)
    if not later:
        verdict = "Personne n'a relancé depuis son action : le tour n'est pas rouvert pour lui."
        reopened = False
    elif full_after:
        verdict = f"Une relance complète a suivi son action : il peut sur-relancer, au minimum à {state.min_raise_to}."
    elif reopened:
        verdict = (f"Les petits tapis cumulés ont porté sa mise de {player_total} à {state.level} (au moins le double "
                   f"de sa mise, soit une relance complète de {before.last_raise}) : il peut à nouveau sur-relancer, "
                   f"au minimum à {state.min_raise_to}.")
    elif cumulative:
        verdict = (f"Les tapis qui ont suivi n'ajoutent que {gap} à sa mise de {player_total}, moins qu'une relance "
                   f"complète ({before.last_raise}) : il ne peut que suivre {state.level} ou passer.")
    else:
        verdict = (f"Aucun des tapis qui ont suivi n'est une relance complète (au moins {before.last_raise} de plus) : "
                   f"il ne peut que suivre {state.level} ou passer.")
    return {"reopened": reopened, "to_call": state.level, "min_raise_to": state.min_raise_to, "verdict": verdict}


PLAYER_TOTAL = Input("mise-du-joueur", "player_total",
                     "Montant total misé par le joueur qui a déjà agi (sa mise, relance ou suivi) ?")
REOPEN_OUTPUTS = {"reopened": "le joueur peut-il sur-relancer", "to_call": "montant à suivre",
                  "min_raise_to": "relance minimum, au total", "verdict": "la réponse en une phrase"}


@calculator("reopening", [BIG_BLIND, BETS, PLAYER_TOTAL], REOPEN_OUTPUTS)
def reopening(big_blind: int, bets: list[int], player_total: int) -> dict:
    """Club 9-13 after the flop: a player who already acted may re-raise after a full raise, or once
    several short all-ins together have added a full raise to his bet ("doublée")."""
    return _reopening(big_blind, bets, player_total, preflop=False, cumulative=True)


@calculator("reopening_preflop", [BIG_BLIND, BETS, PLAYER_TOTAL], REOPEN_OUTPUTS)
def reopening_preflop(big_blind: int, bets: list[int], player_total: int) -> dict:
    """`reopening` before the flop: the big blind is the opening bet (a player who called it, or the
    big blind himself, already acted at that amount)."""
    return _reopening(big_blind, bets, player_total, preflop=True, cumulative=True)


@calculator("reopening_strict", [BIG_BLIND, BETS, PLAYER_TOTAL], REOPEN_OUTPUTS)
def reopening_strict(big_blind: int, bets: list[int], player_total: int) -> dict:
    """TDA-derived rule: an all-in below the legal minimum raise never reopens the betting for a
    player who already acted; only a full raise does (the text provides no cumulative exception)."""
    return _reopening(big_blind, bets, player_total, preflop=False, cumulative=False)


@calculator("reopening_strict_preflop", [BIG_BLIND, BETS, PLAYER_TOTAL], REOPEN_OUTPUTS)
def reopening_strict_preflop(big_blind: int, bets: list[int], player_total: int) -> dict:
    """`reopening_strict` before the flop, where the big blind is the opening bet."""
    return _reopening(big_blind, bets, player_total, preflop=True, cumulative=False)


PUT = Input("mise-posee", "put", "Montant total posé par le joueur fautif (au total, pas le complément) ?")
SHORT_OUTPUTS = {"required_total": "montant total que le joueur doit finalement avoir misé",
                 "complement": "jetons à ajouter", "returned": "jetons rendus au joueur",
                 "to_call": "montant à suivre", "min_raise_to": "relance minimum, au total",
                 "half_threshold": "total atteignant 50 % de la relance minimum",
                 "action": "ce que devient l'action, en une phrase"}


def _short(big_blind: int, bets: list[int], put: int, preflop: bool, kind: str) -> dict:
    """A bet below what was due. kind: "bet" (bet or call: completed to the price, or to the big
    blind for an opening), "announced" (a raise announced as such: completed to the minimum raise),
    "silent" (an unannounced raise: the 50 % rule)."""
    state = play_round(big_blind, bets, preflop)
    level, target = state.level, state.min_raise_to
    half = level + (state.last_raise + 1) // 2
    out = {"to_call": level, "min_raise_to": target, "half_threshold": half}
    if kind == "bet":
        required = level if level else big_blind
        if put >= required:
            raise CalculatorError(f"une mise de {put} atteint déjà le montant dû ({required}) : elle n'est pas insuffisante")
        action = (f"Mise insuffisante : le joueur doit compléter pour suivre {level}." if level else
                  f"Ouverture insuffisante : elle est complétée au gros blind, soit {big_blind} au total.")
        out.update(required_total=required, complement=required - put, returned=0, action=action)
        return out
    if put >= target:
        raise CalculatorError(f"une relance à {put} atteint déjà la relance minimum ({target}) : elle n'est pas insuffisante")
    if kind == "silent" and put <= level:
        raise CalculatorError(f"{put} ne dépasse pas le montant à suivre ({level}) : ce n'est pas une relance "
                        "(c'est une mise insuffisante)")
    if kind == "announced" or put >= half:
        why = ("relance annoncée" if kind == "announced"
               else f"le joueur a atteint 50 % de la relance minimum, soit {half} au total")
        action = f"Relance insuffisante ({why}) : il doit la compléter à {target} au total, sans plus."
        out.update(required_total=target, complement=target - put, returned=0, action=action)
    else:
        action = (f"Relance insuffisante sans annonce et sous 50 % de la relance minimum ({half} au total) : "
                  f"ce n'est qu'un suivi de {level}, le surplus de {put - level} lui est rendu.")
        out.update(required_total=level, complement=0, returned=put - level, action=action)
    return out


@calculator("short_bet", [BIG_BLIND, BETS, PUT], SHORT_OUTPUTS)
def short_bet(big_blind: int, bets: list[int], put: int) -> dict:
    """Club 9-9 (first case), 9-5: an insufficient bet or call after the flop is completed to the
    price to call, an opening to the big blind."""
    return _short(big_blind, bets, put, preflop=False, kind="bet")


@calculator("short_bet_preflop", [BIG_BLIND, BETS, PUT], SHORT_OUTPUTS)
def short_bet_preflop(big_blind: int, bets: list[int], put: int) -> dict:
    """`short_bet` before the flop, where the big blind counts as the opening bet."""
    return _short(big_blind, bets, put, preflop=True, kind="bet")


@calculator("short_raise_announced", [BIG_BLIND, BETS, PUT], SHORT_OUTPUTS)
def short_raise_announced(big_blind: int, bets: list[int], put: int) -> dict:
    """Club 9-9 (third case): a raise announced as such but too small is completed to the minimum
    raise. After the flop."""
    return _short(big_blind, bets, put, preflop=False, kind="announced")


@calculator("short_raise_announced_preflop", [BIG_BLIND, BETS, PUT], SHORT_OUTPUTS)
def short_raise_announced_preflop(big_blind: int, bets: list[int], put: int) -> dict:
    """`short_raise_announced` before the flop."""
    return _short(big_blind, bets, put, preflop=True, kind="announced")


@calculator("short_raise_silent", [BIG_BLIND, BETS, PUT], SHORT_OUTPUTS)
def short_raise_silent(big_blind: int, bets: list[int], put: int) -> dict:
    """The 50 % rule (club 9-9, TDA): an unannounced short raise is completed to the minimum when
    it adds at least half the minimum raise increment, otherwise it is only a call. After the flop."""
    return _short(big_blind, bets, put, preflop=False, kind="silent")


@calculator("short_raise_silent_preflop", [BIG_BLIND, BETS, PUT], SHORT_OUTPUTS)
def short_raise_silent_preflop(big_blind: int, bets: list[int], put: int) -> dict:
    """`short_raise_silent` before the flop, where the big blind counts as the opening bet."""
    return _short(big_blind, bets, put, preflop=True, kind="silent")


CHIP = Input("valeur-du-jeton", "chip", "Valeur du jeton unique posé ?")
TO_CALL = Input("a-suivre", "to_call", "Montant à suivre au moment où le jeton est posé (0 si personne n'a misé) ?",
                default=0)


@calculator("oversized_chip", [CHIP, TO_CALL],
            {"call": "montant du suivi", "change": "monnaie rendue au joueur", "raise_to": "relance au montant du jeton",
             "opening": "ouverture au montant du jeton"})
def oversized_chip(chip: int, to_call: int) -> dict:
    """Club 9-18 / TDA: a single larger chip without announcement is a call; with "relance" but no
    amount, the raise is to the chip's value; opening after the flop, the bet is the chip's value."""
    _positive(chip, "la valeur du jeton")
    if chip <= to_call:
        raise CalculatorError(f"un jeton de {chip} ne dépasse pas le montant à suivre ({to_call}) : ce n'est pas un jeton supérieur")
    return {"call": to_call, "change": chip - to_call if to_call else 0, "raise_to": chip, "opening": chip}


# -- pots ---------------------------------------------------------------------------------------

CONTRIBUTIONS = Input(
    "engagements", "contributions",
    "Jetons engagés dans le coup par chaque joueur, dans l'ordre des sièges en partant du premier à gauche du donneur ?",
    type="amounts", help="Un montant par joueur ayant mis des jetons, couchés compris ; ex. 500, 1000, 1000.")
RANKS = Input(
    "classement", "ranks",
    "Rang de chaque joueur à l'abattage, dans le même ordre (1 = meilleure main, même rang = égalité, 0 = couché) ?",
    type="amounts", help="ex. 1, 2, 1 : le premier et le troisième joueur partagent.")
UNIT = Input("plus-petit-jeton", "unit", "Valeur du plus petit jeton en jeu à la table ?", default=25)


def split_pots(contributions: list[int], ranks: list[int], unit: int) -> dict:
    """Build the main and side pots from what each player put in, then split each pot among its
    best hands; odd chips (in units of the smallest chip) go one each to the first winners left
    of the dealer, so no player receives more than one per pot."""
    _positive(unit, "le plus petit jeton")
    if not contributions:
        raise CalculatorError("indiquez les jetons engagés par au moins deux joueurs")
    if len(ranks) != len(contributions):
        raise CalculatorError(f"il faut un rang par joueur : {len(contributions)} montants engagés mais {len(ranks)} rangs")
    if not any(r > 0 for r in ranks):
        raise CalculatorError("au moins un joueur doit être encore en jeu (rang 1 ou plus)")
    bad = [c for c in contributions if c % unit]
    if bad:
        raise CalculatorError(f"les montants engagés doivent être des multiples du plus petit jeton ({unit}) : {bad[0]} ne l'est pas")
    n = len(contributions)
    levels = sorted({c for c in contributions if c > 0})
    pots: list[dict] = []
    returned = [0] * n
    prev = 0
    for level in levels:
        layer = sum(min(c, level) - min(c, prev) for c in contributions)
        contributors = [i for i, c in enumerate(contributions) if c >= level]
        eligible = [i for i in contributors if ranks[i] > 0]
        if len(contributors) == 1:  # an uncalled bet: not a pot, it goes back
            returned[contributors[0]] += layer
        elif not eligible:
            raise CalculatorError("tous les joueurs qui ont engagé le haut du pot sont couchés : vérifiez les rangs")
        elif pots and pots[-1]["eligible"] == eligible:
            pots[-1]["amount"] += layer
        else:
            pots.append({"amount": layer, "eligible": eligible})
        prev = level
    wins = [0] * n
    for p in pots:
        best = min(ranks[i] for i in p["eligible"])
        winners = [i for i in p["eligible"] if ranks[i] == best]  # seat order from the dealer's left
        units, odd = divmod(p["amount"] // unit, len(winners))
        p["winners"] = winners
        p["shares"] = [units * unit + (unit if k < odd else 0) for k in range(len(winners))]
        p["odd_chips"] = odd
        for i, share in zip(winners, p["shares"]):
            wins[i] += share
    lines = []
    for idx in range(len(pots) - 1, -1, -1):  # the outer pots first (10-9)
        p = pots[idx]
        name = "pot principal" if idx == 0 else f"pot extérieur {idx}"
        who = ", ".join(f"joueur {i + 1} : {s}" for i, s in zip(p["winners"], p["shares"]))
        odd = f" ({p['odd_chips']} jeton(s) indivisible(s) de {unit} au(x) premier(s) à gauche du donneur)" if p["odd_chips"] else ""
        lines.append(f"{name} de {p['amount']} (joueurs {', '.join(str(i + 1) for i in p['eligible'])}) → {who}{odd}")
    for i, r in enumerate(returned):
        if r:
            lines.append(f"mise non suivie rendue au joueur {i + 1} : {r}")
    return {
        "pots": [{"amount": p["amount"], "eligible": [i + 1 for i in p["eligible"]],
                  "winners": [i + 1 for i in p["winners"]], "shares": p["shares"], "odd_chips": p["odd_chips"]}
                 for p in pots],
        "gains": [w + r for w, r in zip(wins, returned)],
        "returned": returned,
        "distribution": "\n".join(lines),
    }


@calculator("split_pots", [CONTRIBUTIONS, RANKS, UNIT],
            {"pots": "les pots, du principal aux extérieurs", "gains": "ce que reçoit chaque joueur",
             "returned": "mise non suivie rendue", "distribution": "le partage, pot par pot"})
def split_pots_calc(contributions: list[int], ranks: list[int], unit: int) -> dict:
    """Side pots and odd chips (club 10-8, 10-9; TDA; cash égalités 3-5)."""
    return split_pots(contributions, ranks, unit)


# -- chip race --------------------------------------------------------------------------------------

OLD_CHIP = Input("jeton-retire", "old_chip", "Valeur des jetons retirés du jeu ?", default=25)
NEW_CHIP = Input("jeton-arrondi", "new_chip",
                 "Valeur du jeton de remplacement (nouvelle plus petite valeur ; 1000 quand on retire les 500) ?",
                 default=100)
OLD_COUNTS = Input("jetons-par-joueur", "counts",
                   "Nombre de jetons retirés que possède chaque joueur, siège par siège en partant de la gauche du donneur ?",
                   type="amounts")
OTHER_CHIPS = Input("autres-jetons", "others",
                    "Valeur des autres jetons (non retirés) de chaque joueur, dans le même ordre ?", type="amounts")


def _race_inputs(old_chip, new_chip, counts, others):
    _positive(old_chip, "la valeur des jetons retirés")
    _positive(new_chip, "la valeur du jeton de remplacement")
    if new_chip <= old_chip:
        raise CalculatorError(f"le jeton de remplacement ({new_chip}) doit valoir plus que les jetons retirés ({old_chip})")
    if len(others) != len(counts):
        raise CalculatorError(f"il faut une valeur d'autres jetons par joueur : {len(counts)} joueurs mais {len(others)} valeurs")


@calculator("chip_race_direct", [OLD_CHIP, NEW_CHIP, OLD_COUNTS, OTHER_CHIPS],
            {"new_chips": "jetons de remplacement reçus par chaque joueur", "detail": "le remplacement, joueur par joueur",
             "change": "écart du total des jetons de la table (en valeur)"})
def chip_race_direct(old_chip: int, new_chip: int, counts: list[int], others: list[int]) -> dict:
    """Club 12-1 and 12-6: each player's removed chips are replaced directly, rounded up to the next
    replacement chip, except a single remaining chip, which is not rounded up; a player left with
    no chip at all receives one chip of the new minimum value."""
    _race_inputs(old_chip, new_chip, counts, others)
    new, lines = [], []
    for i, (n, other) in enumerate(zip(counts, others)):
        value = n * old_chip
        got = 0 if n <= 1 else -(-value // new_chip)
        why = ""
        if n == 1:
            why = " (jeton unique : pas d'arrondi)"
        if got == 0 and other == 0 and n > 0:
            got, why = 1, " (sans autre jeton : il reçoit un jeton, nul n'est éliminé par le chip race)"
        new.append(got)
        if n:
            lines.append(f"joueur {i + 1} : {n} × {old_chip} = {value} → {got} × {new_chip}{why}")
    change = sum(g * new_chip for g in new) - sum(n * old_chip for n in counts)
    return {"new_chips": new, "detail": "\n".join(lines) or "aucun jeton à remplacer", "change": change}


@calculator("chip_race_classic", [OLD_CHIP, NEW_CHIP, OLD_COUNTS, OTHER_CHIPS],
            {"chips_to_win": "jetons de remplacement mis en jeu", "cards": "cartes données à chaque joueur",
             "guaranteed": "joueurs qui reçoivent un jeton faute d'autres jetons", "detail": "le déroulement"})
def chip_race_classic(old_chip: int, new_chip: int, counts: list[int], others: list[int]) -> dict:
    """Club 12-2 to 12-6: the table's removed chips are totalled and rounded up to replacement chips;
    one card per removed chip, the highest cards (♠ ♥ ♦ ♣ on ties) win one chip each, at most one
    per player; nobody is eliminated by the race."""
    _race_inputs(old_chip, new_chip, counts, others)
    total = sum(counts) * old_chip
    racers = [i for i, n in enumerate(counts) if n > 0]
    to_win = min(-(-total // new_chip), len(racers))
    guaranteed = [i + 1 for i in racers if others[i] == 0]
    lines = [f"{sum(counts)} jetons de {old_chip} = {total}, arrondi au-dessus : {-(-total // new_chip)} jeton(s) de {new_chip}"
             + (f", plafonné à {len(racers)} (un jeton au plus par joueur)" if -(-total // new_chip) > len(racers) else "")]
    lines.append("cartes à donner : " + ", ".join(f"joueur {i + 1} : {counts[i]}" for i in racers))
    if guaranteed:
        who = (f"le joueur {guaranteed[0]} reçoit" if len(guaranteed) == 1
               else "les joueurs " + ", ".join(map(str, guaranteed)) + " reçoivent")
        lines.append(f"sans autre jeton, {who} tout de même un jeton de {new_chip} s'il ne gagne rien au chip race")
    return {"chips_to_win": to_win, "cards": list(counts), "guaranteed": guaranteed, "detail": "\n".join(lines)}


# -- blinds and button ----------------------------------------------------------------------------

SEATS = Input("sieges-occupes", "seats",
              "Numéros des sièges des joueurs présents pour le prochain coup (sens des aiguilles d'une montre) ?",
              type="amounts", help="ex. 1, 3, 4, 6")
OLD_BUTTON = Input("ancien-bouton", "old_button", "Siège du donneur (bouton) au coup précédent ?")
OLD_SB = Input("ancienne-petite-blind", "old_small", "Siège de la petite blind au coup précédent (0 s'il n'y en avait pas) ?")
OLD_BB = Input("ancienne-grosse-blind", "old_big", "Siège de la grosse blind au coup précédent ?")


def _next_seat(seats: list[int], after: int) -> int:
    later = [s for s in seats if s > after]
    return min(later) if later else min(seats)


@calculator("next_blinds", [SEATS, OLD_BUTTON, OLD_SB, OLD_BB],
            {"dealer": "siège du donneur", "small_blind": "siège de la petite blind (0 : aucune)",
             "big_blind": "siège de la grosse blind", "heads_up": "tête-à-tête", "explanation": "le calcul en une phrase"})
def next_blinds(seats: list[int], old_button: int, old_small: int, old_big: int) -> dict:
    """Club 8-6, 8-12, 8-13, 8-16, 8-17: the big blind always moves to the next player; the small
    blind is the previous big blind's seat (none if that player is gone, and the dealer deals
    again); the dealer is the previous small blind (the old dealer again if absent). Heads-up,
    the dealer posts the small blind, even if he dealt the previous hand too."""
    seats = sorted(set(seats))
    if len(seats) < 2:
        raise CalculatorError("il faut au moins deux joueurs présents pour le prochain coup")
    if min(seats) < 1:
        raise CalculatorError("les sièges se numérotent à partir de 1")
    big = _next_seat(seats, old_big)
    if len(seats) == 2:
        dealer = next(s for s in seats if s != big)
        return {"dealer": dealer, "small_blind": dealer, "big_blind": big, "heads_up": True,
                "explanation": (f"Tête-à-tête : la grosse blind avance au siège {big} ; l'autre joueur (siège {dealer}) "
                                f"est donneur et mise la petite blind, même s'il vient de donner.")}
    if old_big in seats:
        small = old_big
        dealer = old_small if old_small in seats else old_button
        why = (f"la petite blind revient à l'ancienne grosse blind (siège {small})"
               + ("" if old_small in seats else f" ; le nouveau donneur (siège {old_small}) étant absent, "
                                                 f"l'ancien donneur (siège {old_button}) redonne une fois"))
    else:
        small = 0
        dealer = old_button
        why = (f"l'ancienne grosse blind (siège {old_big}) n'est plus là : pas de petite blind, "
               f"et le donneur (siège {old_button}) donne une seconde fois")
    if dealer not in seats:
        dealer = _next_seat(seats, dealer)  # the dealing player is gone: the next one deals
    return {"dealer": dealer, "small_blind": small, "big_blind": big, "heads_up": False,
            "explanation": f"La grosse blind avance au siège {big} ; {why}."}


# -- sanctions --------------------------------------------------------------------------------------

ROUNDS = Input("tours", "rounds", "Nombre de tours d'exclusion ?", default=1)
PLAYERS = Input("joueurs-a-la-table", "players", "Nombre de joueurs à la table, le joueur exclu compris ?")


@calculator("missed_hands", [ROUNDS, PLAYERS],
            {"hands": "nombre de mains à manquer", "explanation": "le calcul en une phrase"})
def missed_hands(rounds: int, players: int) -> dict:
    """A round of exclusion misses as many hands as there are players at the table, the excluded
    player included (TDA sanctions; club 15-1 « tour de table »)."""
    _positive(rounds, "le nombre de tours")
    if players < 2:
        raise CalculatorError(f"une table compte au moins deux joueurs (reçu {players})")
    hands = rounds * players
    return {"hands": hands, "explanation": f"{rounds} tour(s) × {players} joueurs à la table = {hands} mains"}


@calculator("missed_hands_tda", [ROUNDS, PLAYERS],
            {"hands": "nombre de mains à manquer", "explanation": "le calcul en une phrase"})
def missed_hands_tda(rounds: int, players: int) -> dict:
    """TDA sanctions: an exclusion of 1, 2, 3 or 4 rounds, each as many hands as players at the table."""
    if not 1 <= rounds <= 4:
        raise CalculatorError(f"l'exclusion temporaire est de 1, 2, 3 ou 4 tours (reçu {rounds})")
    return missed_hands(rounds, players)


MINUTES = Input("minutes", "minutes", "Durée de la suspension en minutes ?", default=10)


@calculator("suspension_minutes", [MINUTES],
            {"minutes": "durée retenue en minutes", "explanation": "le contrôle en une phrase"})
def suspension_minutes(minutes: int) -> dict:
    """Club 15-1: a timed suspension is a multiple of 5 or 10 minutes."""
    _positive(minutes, "la durée")
    if minutes % 5:
        raise CalculatorError(f"une suspension se compte par multiple de 5 ou 10 minutes : {minutes} ne convient pas "
                        f"(par exemple {max(5, minutes - minutes % 5)} ou {minutes - minutes % 5 + 5})")
    return {"minutes": minutes, "explanation": f"{minutes} minutes, multiple de 5 : durée valable"}


# -- limit games (cash) -------------------------------------------------------------------------------

RAISES_MADE = Input("relances-faites", "raises_made", "Nombre de relances déjà faites dans ce tour (sans compter la mise) ?",
                    default=0)
BETTING_ROUNDS = Input("rondes-de-gageures", "betting_rounds",
                       "Nombre de rondes de gageures du jeu (4 au hold'em, 2 au draw et au lowball) ?", default=4)


@calculator("limit_raise_cap", [RAISES_MADE, BETTING_ROUNDS],
            {"cap": "nombre de relances permises", "raises_left": "relances encore permises",
             "explanation": "le calcul en une phrase"})
def limit_raise_cap(raises_made: int, betting_rounds: int) -> dict:
    """Cash 3: at limit, with three players or more, one bet and three raises (games of three
    betting rounds or more) or four raises (two betting rounds)."""
    _positive(betting_rounds, "le nombre de rondes de gageures")
    cap = 3 if betting_rounds >= 3 else 4
    left = max(0, cap - raises_made)
    return {"cap": cap, "raises_left": left,
            "explanation": f"une mise et {cap} relances ; {raises_made} déjà faite(s) : encore {left}"}


FULL_BET = Input("mise-pleine", "full_bet", "Montant d'une mise pleine à ce tour (la limite) ?")
ALL_IN = Input("mise-tapis", "all_in", "Montant de la mise à tapis (ce qu'elle ajoute à la mise à suivre) ?")


@calculator("limit_all_in", [FULL_BET, ALL_IN],
            {"reopens": "la mise vaut-elle une mise pleine", "half": "la moitié d'une mise pleine",
             "complete_to": "montant d'une mise pleine à compléter", "verdict": "la réponse en une phrase"})
def limit_all_in(full_bet: int, all_in: int) -> dict:
    """Cash 5: at limit, an all-in of half a full bet or more counts as a full bet (the round is
    reopened); below half, it reopens nothing and the next player may fold, call or complete."""
    _positive(full_bet, "la mise pleine")
    _positive(all_in, "la mise à tapis")
    if all_in >= full_bet:
        raise CalculatorError(f"une mise à tapis de {all_in} atteint la mise pleine ({full_bet}) : c'est une mise normale")
    reopens = 2 * all_in >= full_bet
    half = full_bet / 2
    half_text = str(int(half)) if half == int(half) else str(half).replace(".", ",")
    if reopens:
        verdict = (f"{all_in} atteint la moitié d'une mise pleine ({half_text}) : c'est une mise pleine, les joueurs "
                   f"peuvent se retirer, appeler ou relancer normalement.")
    else:
        verdict = (f"{all_in} est moins de la moitié d'une mise pleine ({half_text}) : la ronde n'est pas rouverte pour "
                   f"ceux qui ont déjà agi ; le joueur suivant peut se retirer, appeler {all_in} ou compléter à {full_bet}.")
    return {"reopens": reopens, "half": half_text, "complete_to": full_bet, "verdict": verdict}
