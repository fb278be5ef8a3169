"""Seating invariants of the dead button (club 8-6, 8-12, 8-13, 8-16, 8-17) on random tables.

Whatever players leave between two hands, the next hand has one dealer seated at the table, a
small blind other than the big blind, a big blind that moves forward exactly one present seat
(dead button), and nobody posts the big blind twice in a row.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruling.decide.calculators import KERNELS, Refusal


@st.composite
def hand_then_departures(draw):
    """A previous hand at a full table (button, small blind, big blind in order; heads-up: the
    button posts the small blind; sometimes played without a small blind, 8-12, the seat between
    button and big blind left empty), then the players still seated for the next hand (at least two)."""
    before = sorted(draw(st.sets(st.integers(1, 10), min_size=2, max_size=10)))
    b = draw(st.integers(0, len(before) - 1))
    if len(before) == 2:
        button = small = before[b]
        big = before[1 - b]
    else:
        button, small, big = (before[(b + k) % len(before)] for k in range(3))
        if len(before) > 4 and draw(st.integers(0, 3)) == 0:  # 8-12 the hand before: the new small blind had
            button, big = before[b], before[(b + 3) % len(before)]  # gone, the old dealer dealt again and the old
            before.remove(before[(b + 2) % len(before)])  # small blind, passed over, sits between him and the big blind
            small = 0
        elif len(before) > 3 and draw(st.booleans()):  # 8-12: the small blind had gone, its seat is empty
            before.remove(small)
            small = 0
    stay = draw(st.lists(st.booleans(), min_size=len(before), max_size=len(before)))
    seats = [s for s, kept in zip(before, stay) if kept]
    if len(seats) < 2:
        seats = before[:2]
    return {"sieges-occupes": seats, "ancien-bouton": button, "ancienne-petite-blind": small,
            "ancienne-grosse-blind": big}


def _next_present(seats, after):
    later = [s for s in sorted(seats) if s > after]
    return later[0] if later else min(seats)


def _previous_present(seats, before):
    earlier = [s for s in sorted(seats) if s < before]
    return earlier[-1] if earlier else max(seats)


@settings(max_examples=600, deadline=None)
@given(hand_then_departures())
def test_dead_button_invariants(table):
    out = KERNELS["blinds-suivantes"](table, {})
    seats = table["sieges-occupes"]
    dealer, small, big = out["siege-donneur"], out["siege-petite-blind"], out["siege-grosse-blind"]
    assert dealer in seats and big in seats  # one dealer, at the table
    assert small != big and (small == 0 or small in seats)
    assert big == _next_present(seats, table["ancienne-grosse-blind"])  # 8-6: one seat forward
    assert big != table["ancienne-grosse-blind"]  # nobody posts the big blind twice in a row
    if len(seats) == 2:  # 8-16: heads-up, the dealer posts the small blind
        assert small == dealer != big
    else:
        assert dealer not in (small, big)
        if small:  # the dealer speaks last after the flop: he sits just before the small blind
            assert small == table["ancienne-grosse-blind"]
        if not table["ancienne-petite-blind"]:  # after a hand without small blind, the seat before the first blind deals
            assert dealer == _previous_present(seats, small or big)
            assert out["cas"].startswith("apres-coup-sans-petite-blind")
            return
    if out["cas"] in ("tete-a-tete-redonne", "ancien-donneur-redonne", "sans-petite-blind"):
        assert dealer == table["ancien-bouton"]  # 8-13, 8-12, 8-17: the old dealer deals again
    else:
        assert dealer != table["ancien-bouton"]  # no sentence says he deals again when he does not


def test_the_invariants_catch_a_dealer_on_the_small_blind():
    """The table of issue 11 that the old kernel got wrong: dealer and small blind on seat 3."""
    table = {"sieges-occupes": [3, 4, 5, 6], "ancien-bouton": 1, "ancienne-petite-blind": 2,
             "ancienne-grosse-blind": 3}
    out = KERNELS["blinds-suivantes"](table, {})
    assert (out["siege-donneur"], out["siege-petite-blind"], out["siege-grosse-blind"]) == (6, 3, 4)


def test_after_a_hand_without_small_blind_the_skipped_seat_is_accepted():
    """8-12: the small blind's seat emptied, the old dealer dealt again, so the player between him
    and the big blind (the small blind of the hand before) sat out of the blinds in one hand."""
    table = {"sieges-occupes": [1, 3, 4, 9], "ancien-bouton": 9, "ancienne-petite-blind": 0,
             "ancienne-grosse-blind": 3}
    out = KERNELS["blinds-suivantes"](table, {})
    assert (out["siege-donneur"], out["siege-petite-blind"], out["siege-grosse-blind"]) == (1, 3, 4)


@pytest.mark.parametrize("table, code, seat", [
    ({"sieges-occupes": [1, 2, 3], "ancien-bouton": 1, "ancienne-petite-blind": 2, "ancienne-grosse-blind": 5},
     "siege-saute-entre-les-blinds", 3),  # the sixth reading's table: seat 3 would have posted the big blind
    ({"sieges-occupes": [2, 4, 6], "ancien-bouton": 6, "ancienne-petite-blind": 4, "ancienne-grosse-blind": 5},
     "siege-saute-avant-les-blinds", 2),
    ({"sieges-occupes": [1, 2, 3, 4], "ancien-bouton": 1, "ancienne-petite-blind": 0, "ancienne-grosse-blind": 4},
     "siege-saute-avant-les-blinds", 2),  # without small blind, one seat may be passed over, not two
    ({"sieges-occupes": [1, 2, 3], "ancien-bouton": 2, "ancienne-petite-blind": 2, "ancienne-grosse-blind": 3},
     "tete-a-tete-precedent", 1),
    ({"sieges-occupes": [1, 2, 3], "ancien-bouton": 3, "ancienne-petite-blind": 1, "ancienne-grosse-blind": 3},
     "bouton-et-grosse-blind", 3),
    ({"sieges-occupes": [1, 2, 3], "ancien-bouton": 1, "ancienne-petite-blind": 2, "ancienne-grosse-blind": 2},
     "deux-blinds-un-siege", 2),
])
def test_seats_no_single_hand_gives_are_refused(table, code, seat):
    with pytest.raises(Refusal) as refused:
        KERNELS["blinds-suivantes"](table, {})
    assert (refused.value.code, refused.value.figures["siege"]) == (code, seat)


def _decide_seats(run, seats: str, button: int, small: int, big: int):
    """`ruling decide blinds-places-vides` for the club, with the seats and the previous hand's positions."""
    return run("decide", "blinds-places-vides", "--book", "club", "-a", "win-the-button=non", "-a", "sieges=oui",
               "-a", f"sieges-occupes={seats}", "-a", f"ancien-bouton={button}", "-a", f"ancienne-petite-blind={small}",
               "-a", f"ancienne-grosse-blind={big}")


def test_the_reading_table_gets_one_french_line_and_status_2(run):
    result = _decide_seats(run, "1,2,3", button=1, small=2, big=5)
    assert result.exit_code == 2
    assert ("le siège 3, encore occupé, est entre l'ancienne petite blind (siège 2) et l'ancienne grosse blind "
            "(siège 5) : un seul coup ne peut l'avoir sauté") in result.output
    assert "donneur siège" not in result.output and "Traceback" not in result.output


def test_a_new_player_typed_among_the_seats_is_pointed_to_his_own_situation(run):
    """Reading 16: a new player seated left of the new big blind (8-8) made the seat list look impossible,
    and the TD got no way forward; the refusal says to leave him out and where his case is."""
    result = _decide_seats(run, "1,2,3,4", button=3, small=1, big=2)
    assert result.exit_code == 2
    assert ("un nouveau joueur assis pour ce coup ne se tape pas ici : ne comptez que les joueurs du coup précédent "
            "(sa place et ses cartes : « Nouveau joueur à une table », 8-8 à 8-11)") in result.output
