"""Calculators: the worked examples of the rulebooks, edge cases, and invariants checked on random tables."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruling import calculators as calc
from ruling.errors import UserError


# -- betting rounds ------------------------------------------------------------------------------------

def test_club_9_7_short_all_in_below_the_big_blind():
    out = calc.min_raise_to(big_blind=100, bets=[30])
    assert (out["to_call"], out["min_raise_to"]) == (30, 130)


def test_club_9_8_raise_at_least_the_previous_raise():
    assert calc.min_raise_to(big_blind=100, bets=[100, 200])["min_raise_to"] == 300


def test_club_9_13_short_all_in_raise_keeps_the_previous_increment():
    out = calc.min_raise_to(big_blind=100, bets=[200, 290])
    assert (out["to_call"], out["min_raise_to"], out["min_increment"]) == (290, 490, 200)


def test_preflop_big_blind_is_the_opening_bet():
    assert calc.min_raise_to_preflop(big_blind=100, bets=[])["min_raise_to"] == 200
    assert calc.min_raise_to_preflop(big_blind=100, bets=[350])["min_raise_to"] == 600


def test_no_bet_yet_minimum_opening_is_the_big_blind():
    assert calc.min_raise_to(big_blind=400, bets=[])["min_raise_to"] == 400


def test_totals_must_increase():
    with pytest.raises(UserError, match="doivent croître"):
        calc.min_raise_to(big_blind=100, bets=[200, 200])
    with pytest.raises(UserError, match="supérieur à 0"):
        calc.min_raise_to(big_blind=0, bets=[])


def test_reopening_club_cumulative_versus_tda_strict():
    # 9-13: opening 200, all-ins to 290 then 400: the opener's bet is doubled
    assert calc.reopening(100, [200, 290], 200)["reopened"] is False
    assert calc.reopening(100, [200, 290, 400], 200)["reopened"] is True
    assert calc.reopening_strict(100, [200, 290, 400], 200)["reopened"] is False
    assert calc.reopening_strict(100, [200, 290, 480], 200)["reopened"] is False  # 280 more, but in two short steps
    assert calc.reopening(100, [200, 290, 480], 200)["reopened"] is True
    assert calc.reopening_strict(100, [200, 400], 200)["reopened"] is True  # a full raise
    with pytest.raises(UserError, match="l'un des montants"):
        calc.reopening(100, [200, 290], 250)


def test_fifty_percent_rule():
    facing = dict(big_blind=100, bets=[200])  # minimum raise to 400, half reached at 300
    assert calc.short_raise_silent(put=300, **facing)["required_total"] == 400
    out = calc.short_raise_silent(put=299, **facing)
    assert (out["required_total"], out["returned"]) == (200, 99)
    assert calc.short_raise_announced(put=210, **facing)["required_total"] == 400
    with pytest.raises(UserError, match="pas insuffisante"):
        calc.short_raise_silent(put=400, **facing)
    assert calc.short_bet(big_blind=100, bets=[], put=40)["complement"] == 60


def test_oversized_chip():
    assert calc.oversized_chip(chip=500, to_call=200) == {"call": 200, "change": 300, "raise_to": 500, "opening": 500}
    with pytest.raises(UserError, match="pas un jeton supérieur"):
        calc.oversized_chip(chip=100, to_call=200)


totals = st.lists(st.integers(1, 400), max_size=6).map(lambda steps: [sum(steps[: i + 1]) for i in range(len(steps))])


@settings(max_examples=200, deadline=None)
@given(bb=st.integers(1, 200), bets=totals, preflop=st.booleans())
def test_minimum_raise_invariants(bb, bets, preflop):
    if preflop:
        bets = [bb + t for t in bets]  # raises start above the big blind
    state = calc.play_round(bb, bets, preflop)
    assert state.last_raise >= bb  # never below the big blind (9-8)
    assert state.min_raise_to >= state.level + bb
    full = [inc for _, is_full, inc in state.history if is_full]
    assert state.last_raise == (full[-1] if full else bb)


@settings(max_examples=200, deadline=None)
@given(bb=st.integers(1, 200), bets=totals, put_share=st.floats(0, 0.999))
def test_short_raise_ends_at_call_or_minimum(bb, bets, put_share):
    state = calc.play_round(bb, bets, False)
    put = state.level + 1 + int(put_share * (state.min_raise_to - state.level - 1))
    if put >= state.min_raise_to:
        return
    out = calc.short_raise_silent(bb, bets, put)
    assert out["required_total"] in (state.level, state.min_raise_to)
    assert out["required_total"] == out["min_raise_to"] or out["returned"] == put - state.level


@settings(max_examples=200, deadline=None)
@given(bb=st.integers(1, 100), bets=totals.filter(lambda b: len(b) >= 2), pick=st.integers(0, 10))
def test_club_reopens_whenever_the_strict_rule_does(bb, bets, pick):
    player = bets[pick % (len(bets) - 1)]
    strict = calc.reopening_strict(bb, bets, player)["reopened"]
    club = calc.reopening(bb, bets, player)["reopened"]
    assert club or not strict


# -- pots ------------------------------------------------------------------------------------------------

def test_side_pots_outer_first_and_odd_chip_left_of_the_dealer():
    out = calc.split_pots([300, 1000, 1000, 1000], [1, 2, 2, 3], 100)
    assert out["gains"] == [1200, 1100, 1000, 0]
    assert out["distribution"].splitlines()[0].startswith("pot extérieur 1 de 2100")
    assert out["pots"][1]["odd_chips"] == 1


def test_pot_input_errors():
    with pytest.raises(UserError, match="un rang par joueur"):
        calc.split_pots([100, 100], [1], 25)
    with pytest.raises(UserError, match="multiples du plus petit jeton"):
        calc.split_pots([110, 100], [1, 2], 25)
    with pytest.raises(UserError, match="encore en jeu"):
        calc.split_pots([100, 100], [0, 0], 25)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 4)), min_size=2, max_size=7), st.sampled_from([1, 5, 25]))
def test_pots_conserve_chips_and_give_at_most_one_odd_chip(players, unit):
    contributions = [c * unit for c, _ in players]
    ranks = [r for _, r in players]
    if not any(r > 0 and c > 0 for c, r in zip(contributions, ranks)):
        return
    try:
        out = calc.split_pots(contributions, ranks, unit)
    except UserError:
        return  # every player who reached the top of a pot folded: refused, never a wrong split
    assert sum(out["gains"]) == sum(contributions)
    for pot in out["pots"]:
        assert max(pot["shares"]) - min(pot["shares"]) <= unit  # at most one odd chip each
        assert pot["shares"] == sorted(pot["shares"], reverse=True)  # the first winners left of the dealer get them
        assert all(ranks[w - 1] > 0 for w in pot["winners"])
    for i, r in enumerate(ranks):
        if r == 0:
            assert out["gains"][i] == out["returned"][i]  # a folded player only gets back an uncalled bet


# -- chip race ---------------------------------------------------------------------------------------------

def test_chip_race_direct_rounding_and_nobody_eliminated():
    out = calc.chip_race_direct(25, 100, [3, 1, 1, 0], [1000, 1000, 0, 500])
    assert out["new_chips"] == [1, 0, 1, 0]
    with pytest.raises(UserError, match="doit valoir plus"):
        calc.chip_race_direct(100, 25, [1], [0])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 3)), min_size=1, max_size=9))
def test_chip_race_never_eliminates_and_classic_gives_one_chip_per_player_at_most(players):
    counts = [c for c, _ in players]
    others = [o * 100 for _, o in players]
    direct = calc.chip_race_direct(25, 100, counts, others)
    for n, other, new in zip(counts, others, direct["new_chips"]):
        if n > 0:
            assert other > 0 or new >= 1
    classic = calc.chip_race_classic(25, 100, counts, others)
    assert classic["chips_to_win"] <= sum(1 for n in counts if n > 0)
    assert classic["chips_to_win"] * 100 >= min(sum(counts) * 25, 100 * sum(1 for n in counts if n > 0))


# -- blinds --------------------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(1, 10), min_size=2, max_size=10), st.integers(1, 10))
def test_big_blind_always_moves_to_the_next_player(seats, old_big):
    seats = sorted(seats)
    out = calc.next_blinds(seats, old_button=((old_big - 3) % 10) + 1, old_small=((old_big - 2) % 10) + 1,
                           old_big=old_big)
    expected = min([s for s in seats if s > old_big] or seats)
    assert out["big_blind"] == expected
    assert out["dealer"] in seats
    if len(seats) == 2:
        assert out["heads_up"] and out["dealer"] == out["small_blind"] != out["big_blind"]


def test_penalties_and_limits():
    assert calc.missed_hands(2, 9)["hands"] == 18
    with pytest.raises(UserError, match="1, 2, 3 ou 4 tours"):
        calc.missed_hands_tda(5, 9)
    with pytest.raises(UserError, match="multiple de 5"):
        calc.suspension_minutes(7)
    assert calc.limit_raise_cap(1, 2) == {"cap": 4, "raises_left": 3, "explanation": "une mise et 4 relances ; 1 déjà faite(s) : encore 3"}
    assert calc.limit_all_in(6, 3)["reopens"] is True and calc.limit_all_in(6, 2)["reopens"] is False


def test_every_calculator_declares_french_questions_and_its_results():
    for c in calc.all_calculators():
        assert c.inputs and c.outputs, c.name
        for inp in c.inputs:
            assert inp.text.endswith("?"), (c.name, inp.id)
            assert inp.type in ("amount", "amounts")
