"""What an outside audit of 96 decisions against the sources found (2026-12-06), each as a TD reads it:
a decision says what its clause says and no more, and reads aloud as a ruling."""
from __future__ import annotations

import json

import pytest


def decision(run, proc, book, *answers):
    args = ["decide", proc, "--book", book, "--json"]
    for a in answers:
        args += ["-a", a]
    result = run(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_tda_collusion_gives_the_free_choice_and_repetition_not_gravity(run):
    # tda:sanctions: « disposent librement de 3 types de sanctions » ; « Des fautes répétées entraînent une
    # augmentation des sanctions. » ; « selon la gravité » is club 15-1's, not the TDA book's
    data = decision(run, "donner-des-jetons", "tda", "cas=collusion")
    assert "gravité" not in data["decision"]
    assert "choisissent librement" in data["decision"]
    assert "« Des fautes répétées entraînent une augmentation des sanctions. »" in data["decision"]


def test_cash_check_out_of_turn_keeps_the_clause_s_any_action_and_may(run):
    # mises-et-relances-10: « peut devenir liante si aucune action ne survient entre la déclaration et le joueur »
    waiting = decision(run, "action-hors-tour", "cash", "cas=attente-hors-position", "tour-arrive=non")
    assert "Si aucune action ne survient entre son annonce et son tour, son attente (check) peut devenir liante." \
        in waiting["decision"]
    assert "personne ne mise" not in waiting["decision"] and "donc le lier" not in waiting["decision"]
    acted = decision(run, "action-hors-tour", "cash", "cas=attente-hors-position", "tour-arrive=oui",
                     "action-entre-temps=oui")
    assert "ne devient liante que" not in acted["decision"]
    assert "Le règlement ne le précise pas ; on en déduit que son attente (check) ne le lie plus." in acted["decision"]
    assert acted["interpretation"]


def test_cash_short_all_in_at_limit_states_what_completing_adds(run):
    data = decision(run, "mise-tapis-limite", "cash", "structure=limite", "mise-pleine=20", "mise-tapis=8")
    assert ("Le règlement ne le précise pas ; on lit que compléter, c'est ajouter 12 aux 8 du tapis pour faire une "
            "mise pleine de 20 par-dessus la mise à suivre d'avant le tapis.") in data["decision"]
    assert data["interpretation"]


def test_a_quotation_only_decision_says_the_ruling_first(run):
    data = decision(run, "les-cartes-parlent", "cash", "cas=hors-du-coup-montrent")
    assert data["decision"].startswith("Tout joueur à la table peut voir les cartes qu'il a montrées")


@pytest.mark.parametrize(("proc", "answer"), [("comportement", "faute=langue"), ("telephone", None)])
def test_no_decision_ends_on_a_fragment(run, proc, answer, kb):
    procedure = next(p for p in kb.procedures if p.book == "club" and p.id == proc)
    texts = [r.decision for r in procedure.rules if isinstance(r.decision, str)]
    assert texts and not any("répète, échelle des sanctions" in t for t in texts)
    if answer:
        data = decision(run, proc, "club", answer)
        assert data["decision"].endswith("Si la faute se répète, le joueur peut être sanctionné selon l'échelle des sanctions (15-1).")


def test_no_decision_names_an_internal_procedure_id(run):
    data = decision(run, "relance-minimum", "cash", "demande=minimum", "structure=limite")
    assert "(mise-tapis-limite)" not in data["decision"]
    assert data["decision"].endswith("Un tapis de moins d'une mise pleine suit la règle de la demi-mise (mises-et-relances-5).")


def test_a_number_printed_twice_in_the_source_is_shown_as_printed(run):
    result = run("decide", "donner-des-jetons", "--book", "club", "-a", "cas=don")
    assert result.exit_code == 0, result.output
    assert "club:14-8-bis (imprimée « 14-8 » dans le livre)  [Règlement des tournois du club" in result.output
    shown = run("show", "cash:mises-et-relances-5")
    assert shown.output.startswith("cash:mises-et-relances-5  [")  # the cash book's section numbers need no gloss


def test_tda_scale_of_sanctions_does_not_open_on_a_contradiction(run):
    data = decision(run, "echelle-des-sanctions", "tda", "faute=faute-de-jeu", "recidive=non")
    assert "Mais pour une main exposée alors que le coup est en cours, « Exposer sa main » dit" in data["decision"]


def test_tda_announcement_before_his_turn_flags_what_the_text_does_not_say(run):
    # tda:annonces-de-mise says when such an announcement binds, not what becomes of it once the bets rose
    # (the replay of the audit, 2026-12-06)
    data = decision(run, "action-hors-tour", "tda", "tour-arrive=oui", "situation-changee=oui")
    assert "Le règlement ne le précise pas ; on en déduit qu'ici l'annonce ne l'engage plus" in data["decision"]
    assert data["interpretation"]
    waiting = decision(run, "action-hors-tour", "tda", "tour-arrive=non")
    assert "Le règlement ne le précise pas ; si un joueur intermédiaire mise ou relance" in waiting["decision"]


def test_a_short_quotation_keeps_the_source_s_apostrophe(run):
    data = decision(run, "jetons-sur-la-table", "infos", "cas=jetons-emportes")
    assert "« de l’extérieur »" in data["decision"] + (data.get("interpretation") or "")
    assert "« de l'extérieur" not in data["decision"]
