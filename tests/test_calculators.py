"""Calculators: the worked examples of the rulebooks, edge cases, and invariants checked on random tables.

Each kernel runs as the engine runs it (`ruling.decide.catalogue.run`): inputs keyed by question id, the
book's parameters from `rulebook/<book>/parameters.yaml`, refusals rendered from calculators.yaml.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruling.decide.calculators import KERNELS, play_round
from ruling.decide.catalogue import run
from ruling.errors import UserError


@pytest.fixture(scope="module")
def calc(kb):
    def compute(name: str, book: str = "club", **inputs):
        return run(kb.catalogue, name, {k.replace("_", "-"): v for k, v in inputs.items()}, kb.parameters[book])
    return compute


POST, PRE = "apres-flop", "avant-flop"


# -- betting rounds ------------------------------------------------------------------------------------

def test_club_9_7_short_all_in_below_the_big_blind(calc):
    out = calc("relance-minimum", grosse_blind=100, mises=[30], tour=POST)
    assert (out["a-suivre"], out["relance-minimum"]) == (30, 130)


def test_club_9_8_raise_at_least_the_previous_raise(calc):
    assert calc("relance-minimum", grosse_blind=100, mises=[100, 200], tour=POST)["relance-minimum"] == 300


def test_club_9_13_short_all_in_raise_keeps_the_previous_increment(calc):
    out = calc("relance-minimum", grosse_blind=100, mises=[200, 290], tour=POST)
    assert (out["a-suivre"], out["relance-minimum"], out["ecart-minimum"]) == (290, 490, 200)


def test_preflop_big_blind_is_the_opening_bet(calc):
    assert calc("relance-minimum", grosse_blind=100, mises=[], tour=PRE)["relance-minimum"] == 200
    assert calc("relance-minimum", grosse_blind=100, mises=[350], tour=PRE)["relance-minimum"] == 600
    assert calc("relance-minimum", grosse_blind=400, mises=[], tour=POST)["relance-minimum"] == 400


def test_totals_must_increase(calc):
    with pytest.raises(UserError, match="doivent croître : 200 ne dépasse pas 200"):
        calc("relance-minimum", grosse_blind=100, mises=[200, 200], tour=POST)
    with pytest.raises(UserError, match="^le gros blind doit être un nombre de jetons supérieur à 0 \\(reçu 0\\)$"):
        calc("relance-minimum", grosse_blind=0, mises=[], tour=POST)


def test_reopening_club_cumulative_versus_tda_strict(calc):
    def reopened(book, bets, player):
        return calc("reouverture", book, grosse_blind=100, mises=bets, tour=POST, mise_du_joueur=player)
    # 9-13: opening 200, all-ins to 290 then 400: the opener's bet is doubled
    assert reopened("club", [200, 290], 200)["cas"] == "tapis-insuffisants"
    assert reopened("club", [200, 290, 400], 200)["cas"] == "cumul-suffisant"
    assert reopened("tda", [200, 290, 400], 200)["rouvert"] is False
    assert reopened("tda", [200, 290, 480], 200)["rouvert"] is False  # 280 more, but in two short steps
    assert reopened("club", [200, 290, 480], 200)["rouvert"] is True
    assert reopened("tda", [200, 400], 200)["cas"] == "relance-complete"
    assert reopened("club", [200], 200)["cas"] == "aucune-relance"
    with pytest.raises(UserError, match="l'un des montants du tour : 0, 200, 290"):
        reopened("club", [200, 290], 250)
    # after the flop, 0 is a check: a full bet after it reopens (both books); only short all-ins: 9-7 / the TDA reading
    assert reopened("tda", [200, 290], 0)["cas"] == "relance-complete"
    for book in ("club", "tda"):
        out = reopened(book, [50], 0)
        assert (out["cas"], out["rouvert"], out["relance-minimum"]) == ("apres-parole", True, 150)
    with pytest.raises(UserError, match="l'un des montants du tour : 100, 300"):  # before the flop, nobody has 0 in
        calc("reouverture", grosse_blind=100, mises=[300], tour=PRE, mise_du_joueur=0)


def test_fifty_percent_rule(calc):
    facing = dict(grosse_blind=100, mises=[200], tour=POST)  # minimum raise to 400, half reached at 300
    out = calc("relance-insuffisante-sans-annonce", mise_posee=300, **facing)
    assert (out["total-du"], out["cas"], out["seuil-total"], out["seuil-pourcent"]) == (400, "completee", 300, 50)
    out = calc("relance-insuffisante-sans-annonce", mise_posee=299, **facing)
    assert (out["total-du"], out["rendu"], out["cas"]) == (200, 99, "suivi")
    assert calc("relance-annoncee-insuffisante", mise_posee=210, **facing)["total-du"] == 400
    with pytest.raises(UserError, match="pas insuffisante"):
        calc("relance-insuffisante-sans-annonce", mise_posee=400, **facing)
    opening = dict(grosse_blind=100, mises=[], tour=POST, mise_posee=60)  # nobody has bet: 60 opens, it raises nothing
    for name in ("relance-insuffisante-sans-annonce", "relance-annoncee-insuffisante"):
        with pytest.raises(UserError, match="personne n'a encore misé à ce tour : 60 est une mise d'ouverture"):
            calc(name, **opening)
    out = calc("mise-insuffisante", grosse_blind=100, mises=[], tour=POST, mise_posee=40)
    assert (out["complement"], out["cas"]) == (60, "ouverture")


def test_nothing_put_in_is_not_a_short_bet(calc):
    """A player who put nothing in checked or folded: no text makes him bet the big blind (or call)."""
    for bets in ([], [200]):
        with pytest.raises(UserError, match="^la mise posée doit être supérieure à 0 \\(reçu 0\\) : un joueur qui n'a rien posé"):
            calc("mise-insuffisante", "tda", grosse_blind=100, mises=bets, tour=POST, mise_posee=0)


def test_oversized_chip(calc):
    assert calc("jeton-superieur", valeur_du_jeton=500, a_suivre=200) == {
        "suivi": 200, "monnaie": 300, "relance-au-jeton": 500}
    with pytest.raises(UserError, match="pas un jeton supérieur"):
        calc("jeton-superieur", valeur_du_jeton=100, a_suivre=200)
    assert calc("ouverture-au-jeton", valeur_du_jeton=500, grosse_blind=200) == {
        "ouverture-au-jeton": 500, "complement": 0, "cas": "hauteur-du-jeton"}
    # 9-5: an opening is at least the big blind; a lone 100 under a 200 big blind is 100 short
    assert calc("ouverture-au-jeton", valeur_du_jeton=100, grosse_blind=200) == {
        "ouverture-au-jeton": 100, "complement": 100, "cas": "sous-le-gros-blind"}


def test_oversized_chip_facing_a_bet_of_nothing_is_refused(run):
    """A bet to call of 0 contradicts « il y avait une mise à suivre »: the 500 chip must not vanish into a call of 0."""
    result = run("decide", "jeton-superieur", "--book", "club", "-a", "annonce=aucune", "-a", "mise-a-suivre=oui",
                 "-a", "valeur-du-jeton=500", "-a", "a-suivre=0")
    assert result.exit_code == 2
    assert ("un montant à suivre de 0 veut dire que personne n'avait misé, ce qui contredit un suivi ou une relance"
            in result.output)
    assert "simple suivi" not in result.output and "Traceback" not in result.output


totals = st.lists(st.integers(1, 400), max_size=6).map(lambda steps: [sum(steps[: i + 1]) for i in range(len(steps))])


@settings(max_examples=200, deadline=None)
@given(bb=st.integers(1, 200), bets=totals, preflop=st.booleans())
def test_minimum_raise_invariants(bb, bets, preflop):
    if preflop:
        bets = [bb + t for t in bets]  # raises start above the big blind
    state = play_round(bb, bets, preflop)
    assert state["last_raise"] >= bb  # never below the big blind (9-8)
    levels = ([bb] if preflop else [0]) + bets
    full = [b - a for a, (b, is_full) in zip(levels, state["history"]) if is_full]
    assert state["last_raise"] == (full[-1] if full else bb)


@settings(max_examples=200, deadline=None)
@given(bb=st.integers(1, 200), bets=totals, put_share=st.floats(0, 0.999))
def test_short_raise_ends_at_call_or_minimum(calc, bb, bets, put_share):
    state = play_round(bb, bets, False)
    level, target = state["level"], state["level"] + state["last_raise"]
    put = level + 1 + int(put_share * (target - level - 1))
    if put >= target:
        return
    if not bets:  # nobody has bet after the flop: an opening, never read as a raise
        with pytest.raises(UserError, match="est une mise d'ouverture, pas une relance"):
            calc("relance-insuffisante-sans-annonce", grosse_blind=bb, mises=bets, tour=POST, mise_posee=put)
        return
    out = calc("relance-insuffisante-sans-annonce", grosse_blind=bb, mises=bets, tour=POST, mise_posee=put)
    assert out["total-du"] in (level, target)
    assert (out["cas"] == "completee") == (out["total-du"] == target)
    assert out["total-du"] == target or out["rendu"] == put - level


@settings(max_examples=300, deadline=None)
@given(bb=st.integers(1, 100), bets=totals.filter(lambda b: len(b) >= 2), pick=st.integers(0, 10),
       book=st.sampled_from(["club", "tda"]), preflop=st.booleans())
def test_a_case_happens_only_where_its_parameters_allow_it(kb, calc, bb, bets, pick, book, preflop):
    """`case_parameters` in calculators.yaml is what the kernel does: with the club's cumul admitted it
    never says « cumul-non-retenu », with the TDA's strict text never « cumul-suffisant » (so the check
    that no decision speaks of the other case rests on the arithmetic, not on a wish)."""
    if preflop:
        bets = [bb + t for t in bets]
    levels = [bb if preflop else 0] + bets
    player = levels[pick % (len(levels) - 1)]
    tour = PRE if preflop else POST
    out = calc("reouverture", book, grosse_blind=bb, mises=bets, tour=tour, mise_du_joueur=player)
    assert out["cas"] in kb.catalogue.get("reouverture").cases_for(kb.parameters[book], {"tour": tour})


def test_the_declared_cases_of_each_book(kb):
    spec = kb.catalogue.get("reouverture")
    assert "cumul-non-retenu" not in spec.cases_for(kb.parameters["club"])
    assert "cumul-suffisant" not in spec.cases_for(kb.parameters["tda"])
    assert {"cumul-suffisant", "tapis-insuffisants", "apres-parole"} <= set(spec.cases_for(kb.parameters["club"]))
    assert "apres-parole" not in spec.cases_for(kb.parameters["club"], {"tour": PRE})  # nobody checks before the flop


@settings(max_examples=200, deadline=None)
@given(bb=st.integers(1, 100), bets=totals.filter(lambda b: len(b) >= 2), pick=st.integers(0, 10))
def test_club_reopens_whenever_the_strict_rule_does(calc, bb, bets, pick):
    player = bets[pick % (len(bets) - 1)]
    facing = dict(grosse_blind=bb, mises=bets, tour=POST, mise_du_joueur=player)
    strict = calc("reouverture", "tda", **facing)["rouvert"]
    club = calc("reouverture", "club", **facing)["rouvert"]
    assert club or not strict


# -- pots ------------------------------------------------------------------------------------------------

def test_side_pots_outer_first_and_odd_chip_left_of_the_dealer(calc):
    out = calc("partage-des-pots", engagements=[300, 1000, 1000, 1000], classement=[1, 2, 2, 3], plus_petit_jeton=100)
    assert out["gains"] == [1200, 1100, 1000, 0]
    assert (out["pots"][0]["numero"], out["pots"][0]["montant"]) == (1, 2100)  # the outer pot first
    assert out["pots"][0]["cas"] == "exterieur-indivisible" and out["pots"][0]["jetons-indivisibles"] == 1


def test_pot_input_errors(calc):
    with pytest.raises(UserError, match="un rang par joueur : 2 montants engagés mais 1 rangs"):
        calc("partage-des-pots", engagements=[100, 100], classement=[1], plus_petit_jeton=25)
    with pytest.raises(UserError, match="multiples du plus petit jeton \\(25\\) : 110"):
        calc("partage-des-pots", engagements=[110, 100], classement=[1, 2], plus_petit_jeton=25)
    with pytest.raises(UserError, match="encore en jeu"):
        calc("partage-des-pots", engagements=[100, 100], classement=[0, 0], plus_petit_jeton=25)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 4)), min_size=2, max_size=7), st.sampled_from([1, 5, 25]))
def test_pots_conserve_chips_and_give_at_most_one_odd_chip(calc, players, unit):
    contributions = [c * unit for c, _ in players]
    ranks = [r for _, r in players]
    if not any(r > 0 and c > 0 for c, r in zip(contributions, ranks)):
        return
    try:
        out = calc("partage-des-pots", engagements=contributions, classement=ranks, plus_petit_jeton=unit)
    except UserError:
        return  # every player who reached the top of a pot folded: refused, never a wrong split
    assert sum(out["gains"]) == sum(contributions)
    for pot in out["pots"]:
        shares = [w["part"] for w in pot["gagnants"]]
        assert max(shares) - min(shares) <= unit  # at most one odd chip each
        assert shares == sorted(shares, reverse=True)  # the first winners left of the dealer get them
        assert all(ranks[w["joueur"] - 1] > 0 for w in pot["gagnants"])
    for i, r in enumerate(ranks):
        if r == 0:
            assert out["gains"][i] == out["mises-rendues"][i]  # a folded player only gets back an uncalled bet


# -- chip race ---------------------------------------------------------------------------------------------

def test_chip_race_direct_rounding_and_nobody_eliminated(calc):
    out = calc("chip-race-direct", jeton_retire=25, jeton_arrondi=100, jetons_par_joueur=[3, 1, 1, 0],
               autres_jetons=[1000, 1000, 0, 500])
    assert out["jetons-de-remplacement"] == [1, 0, 1, 0]
    assert [r["cas"] for r in out["remplacements"]] == ["arrondi", "jeton-unique", "sans-autre-jeton"]
    with pytest.raises(UserError, match="doit valoir plus"):
        calc("chip-race-direct", jeton_retire=100, jeton_arrondi=25, jetons_par_joueur=[1], autres_jetons=[0])


def test_chip_race_direct_500_chips_round_up_to_1000_only(calc):
    """12-1: « dans le cas des jetons de 500 l'arrondi sera au supérieur de 1000 »: a 5000 chip is refused."""
    with pytest.raises(UserError, match=r"l'arrondi se fait au jeton de 1000 .* tapez jeton-arrondi=1000 \(reçu 5000\)"):
        calc("chip-race-direct", jeton_retire=500, jeton_arrondi=5000, jetons_par_joueur=[3, 1], autres_jetons=[0, 0])
    assert calc("chip-race-direct", jeton_retire=500, jeton_arrondi=1000, jetons_par_joueur=[3, 1],
                autres_jetons=[0, 0])["jetons-de-remplacement"] == [2, 1]
    # other chips are not concerned: 25s may go to a 100 or a 500
    assert calc("chip-race-direct", jeton_retire=25, jeton_arrondi=500, jetons_par_joueur=[3],
                autres_jetons=[0])["jetons-de-remplacement"] == [1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 3)), min_size=1, max_size=9))
def test_chip_race_never_eliminates_and_classic_gives_one_chip_per_player_at_most(calc, players):
    race = dict(jeton_retire=25, jeton_arrondi=100, jetons_par_joueur=[c for c, _ in players],
                autres_jetons=[o * 100 for _, o in players])
    direct = calc("chip-race-direct", **race)
    for n, other, new in zip(race["jetons_par_joueur"], race["autres_jetons"], direct["jetons-de-remplacement"]):
        if n > 0:
            assert other > 0 or new >= 1
    if not any(race["jetons_par_joueur"]):
        with pytest.raises(UserError, match="aucun joueur n'a de jeton retiré"):  # no removed chip: no race
            calc("chip-race-classique", course="jeux-complets", jeton_retire=25, jeton_arrondi=100,
                 jetons_par_joueur=race["jetons_par_joueur"], joueurs_sans_autre_jeton=[])
        return
    bare = [i + 1 for i, (_, o) in enumerate(players) if o == 0]
    classic = calc("chip-race-classique", course="jeux-complets", jeton_retire=25, jeton_arrondi=100,
                   jetons_par_joueur=race["jetons_par_joueur"], joueurs_sans_autre_jeton=bare)
    racers = sum(1 for n in classic["cartes"] if n > 0)  # only the extra chips race (12-5)
    assert classic["jetons-en-jeu"] <= racers  # 12-4: one chip at most from the race
    assert classic["jetons-en-jeu"] * 100 >= classic["valeur-retiree"]  # 12-5: rounded up, never down
    assert [s * 100 + c * 25 for s, c in zip(classic["echanges"], classic["cartes"])] == \
        [n * 25 for n in race["jetons_par_joueur"]]  # full sets exchanged first, nothing lost


# -- blinds --------------------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(1, 10), min_size=2, max_size=10), st.integers(1, 10))
def test_big_blind_always_moves_to_the_next_player(calc, seats, old_big):
    seats = sorted(seats)
    out = calc("blinds-suivantes", sieges_occupes=seats, ancien_bouton=((old_big - 3) % 10) + 1,
               ancienne_petite_blind=((old_big - 2) % 10) + 1, ancienne_grosse_blind=old_big)
    assert out["siege-grosse-blind"] == min([s for s in seats if s > old_big] or seats)
    assert out["siege-donneur"] in seats
    if len(seats) == 2:
        assert out["tete-a-tete"] and out["siege-donneur"] == out["siege-petite-blind"] != out["siege-grosse-blind"]


def test_penalties_and_limits(calc):
    assert calc("mains-a-manquer", tours=2, joueurs_a_la_table=9)["mains"] == 18
    assert calc("mains-a-manquer", tours=6, joueurs_a_la_table=9)["mains"] == 54  # the club sets no limit
    with pytest.raises(UserError, match="^l'exclusion temporaire est de 1 à 4 tours \\(reçu 6\\)$"):
        calc("mains-a-manquer", "tda", tours=6, joueurs_a_la_table=9)
    with pytest.raises(UserError, match="multiple de 5 minutes : 7 ne convient pas \\(par exemple 5 ou 10\\)"):
        calc("duree-suspension", minutes=7)
    assert calc("tapis-a-limite", "cash", mise_pleine=6, mise_tapis=3)["rouvre"] is True
    out = calc("tapis-a-limite", "cash", mise_pleine=5, mise_tapis=2)
    assert (out["rouvre"], out["moitie"], out["cas"]) == (False, 2.5, "sous-le-seuil")


def test_every_kernel_is_declared_with_french_questions(kb):
    assert set(kb.catalogue.calculators) == set(KERNELS)
    for spec in kb.catalogue.calculators.values():
        assert spec.inputs and spec.figures, spec.name
        for q in spec.inputs:
            assert q.text.endswith("?"), (spec.name, q.id)
            assert q.type in ("amount", "amounts", "choice")


def test_a_silent_raise_equal_to_the_bet_is_an_exact_call_not_a_short_bet(run):
    """Facing 200, 200 put in is a call: the refusal says so instead of « mise insuffisante » (issue 11, remark b)."""
    result = run("decide", "relance-insuffisante", "--book", "tda", "-a", "demande=relance-insuffisante",
                 "-a", "a-tapis=non", "-a", "relance-annoncee=non", "-a", "tour=apres-flop", "-a", "grosse-blind=100",
                 "-a", "mises=200", "-a", "mise-posee=200")
    assert result.exit_code == 2
    assert ("200 est exactement le montant à suivre (200) : c'est un suivi (call), ni une relance ni une mise "
            "insuffisante ; il n'y a rien à compléter") in result.output
    short = run("decide", "relance-insuffisante", "--book", "tda", "-a", "demande=relance-insuffisante",
                "-a", "a-tapis=non", "-a", "relance-annoncee=non", "-a", "tour=apres-flop", "-a", "grosse-blind=100",
                "-a", "mises=200", "-a", "mise-posee=150")
    assert short.exit_code == 2
    assert ("150 n'atteint pas le montant à suivre (200) : ce n'est pas une relance mais un suivi (call) insuffisant"
            in short.output)
    assert "Traceback" not in result.output + short.output


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=9).filter(any))
def test_chip_race_one_card_per_chip_races_every_chip_for_one_chip_each_at_most(calc, counts):
    """The race announced « une carte par jeton » (story f11): no full set exchanged, every removed chip
    gets a card, the total is rounded up (12-5) and nobody wins more than one chip (12-4)."""
    race = calc("chip-race-classique", course="une-carte-par-jeton", jeton_retire=25, jeton_arrondi=100,
                jetons_par_joueur=counts, joueurs_sans_autre_jeton=[])
    assert race["cartes"] == counts and race["echanges"] == [0] * len(counts)
    racers = sum(1 for n in counts if n > 0)
    assert race["jetons-en-jeu"] == min(-(-sum(counts) * 25 // 100), racers)


def test_chip_race_story_f11_one_card_per_chip(calc):
    out = calc("chip-race-cartes", course="une-carte-par-jeton", jeton_retire=25, jeton_arrondi=100,
               jetons_par_joueur=[5, 3, 2, 2, 1], joueurs_sans_autre_jeton=[5],
               cartes_tirees=["As", "Kh", "9c", "6d", "3s", "Ks", "8h", "2d", "Kd", "5c", "Jh", "7s", "4h"])
    assert out["jetons-en-jeu"] == 4  # 13 × 25 = 325, rounded up (12-5)
    assert out["gagnants"] == [{"joueur": 1, "carte": "A♠"}, {"joueur": 2, "carte": "R♠"},
                               {"joueur": 3, "carte": "R♦"}, {"joueur": 4, "carte": "V♥"}]  # R♥ skipped (12-4)
    assert out["recus"] == [1, 1, 1, 1, 1]  # the fifth player, left with nothing, gets one (12-6)
    with pytest.raises(UserError, match="le joueur 6 n'est pas dans la liste des jetons retirés"):
        calc("chip-race-classique", course="une-carte-par-jeton", jeton_retire=25, jeton_arrondi=100,
             jetons_par_joueur=[5, 3, 2, 2, 1], joueurs_sans_autre_jeton=[6])


def test_an_uncalled_bet_of_a_folded_player_is_refused(calc):
    """rd9d: 100, 300, 200 with ranks 1, 0, 2 gave « mise non suivie rendue au joueur 2 » to a folded player."""
    with pytest.raises(UserError, match="^le joueur 2 est couché \\(rang 0\\) mais a engagé plus que tous les autres"):
        calc("partage-des-pots", "cash", engagements=[100, 300, 200], classement=[1, 0, 2], plus_petit_jeton=1)
    out = calc("partage-des-pots", "cash", engagements=[100, 300, 200], classement=[1, 2, 0], plus_petit_jeton=1)
    assert out["mises-rendues"] == [0, 100, 0]


def test_a_duration_of_zero_is_refused_in_its_own_unit(calc):
    """Reading 12's remark: « la durée doit être un nombre de jetons » was said of minutes."""
    with pytest.raises(UserError) as refused:
        calc("duree-suspension", minutes=0)
    assert str(refused.value) == "la durée doit être un nombre supérieur à 0 (reçu 0)"
