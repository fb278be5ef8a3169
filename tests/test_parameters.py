"""Rule content is data: one edit of a book's parameters.yaml changes the CLI, the scenarios and the site.

The club's 50 % rule (9-9) is moved to 75 % on a copy of the base, in that one file only.
"""
from __future__ import annotations

import json
import subprocess

from test_kernels_parity import HARNESS, NODE

SILENT_300 = ["decide", "relance-insuffisante", "--book", "club", "-a", "erreur=relance-sans-annonce",
              "-a", "tour=apres-flop", "-a", "deja-mise=non", "-a", "grosse-blind=100", "-a", "mises=200", "-a", "mise-posee=300",
              "--json"]


def _seventy_five_percent(kb_copy):
    path = kb_copy / "club" / "parameters.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("value: 0.5\n") == 1
    path.write_text(text.replace("value: 0.5\n", "value: 0.75\n"), encoding="utf-8")


def test_the_club_threshold_is_one_edit_for_cli_scenarios_and_site(run, kb_copy):
    before = json.loads(run(*SILENT_300, kb_path=kb_copy).output)
    assert (before["outcome"], before["figures"]["cas"], before["figures"]["total-du"]) == ("regle-des-50", "completee", 400)
    assert "a atteint 50 % de la relance minimum, soit 300 au total" in before["decision"]

    _seventy_five_percent(kb_copy)
    assert run("check", kb_path=kb_copy).exit_code == 0

    # the CLI: 300 facing 200 (minimum 400) no longer reaches the threshold, now 350
    after = json.loads(run(*SILENT_300, kb_path=kb_copy).output)
    assert (after["figures"]["cas"], after["figures"]["total-du"], after["figures"]["seuil-total"]) == ("suivi", 200, 350)
    assert after["decision"].startswith("Relance insuffisante sans annonce et sous 75 % de la relance minimum "
                                        "(350 au total) : ce n'est qu'un suivi de 200, le surplus de 100 lui est rendu.")

    # the scenarios written for 50 % now fail, each with its reason
    tested = run("test", "--book", "club", kb_path=kb_copy)
    assert tested.exit_code == 1
    assert any("relance sans annonce atteignant 50 % (300 face à 200, minimum 400)" in line
               and "total-du = 200, attendu 400" in line for line in tested.output.splitlines()), tested.output

    # the site: the exported data carries the new value, and the browser's kernel decides with it
    from ruling.kb.load import load_kb
    from ruling.site.build import questionnaire_data
    from ruling.site.pages import SitePages

    data = questionnaire_data(SitePages(load_kb(kb_copy)), lambda url: url)
    params = data["parameters"]["club"]
    assert params["seuil-completion"] == 0.75
    request = {"kernel": "relance-insuffisante-sans-annonce", "params": params,
               "inputs": {"tour": "apres-flop", "grosse-blind": 100, "mises": [200], "mise-posee": 300}}
    reply = subprocess.run([NODE, str(HARNESS)], input=json.dumps(request) + "\n", capture_output=True, text=True,
                           check=True)
    figures = json.loads(reply.stdout)["figures"]
    assert (figures["cas"], figures["total-du"], figures["seuil-pourcent"]) == ("suivi", 200, 75)


def test_the_tda_exclusion_is_one_to_four_rounds(run):
    """TDA `duree-penalite` reads the TDA's 1–4 rounds: 6 rounds is one French line, exit 2."""
    ok = run("decide", "duree-penalite", "--book", "tda", "-a", "tours=4", "-a", "joueurs-a-la-table=6")
    assert ok.exit_code == 0 and "L'exclusion dure 24 mains" in ok.output
    refused = run("decide", "duree-penalite", "--book", "tda", "-a", "tours=6", "-a", "joueurs-a-la-table=9")
    assert refused.exit_code == 2
    assert refused.output.strip() == "Erreur : l'exclusion temporaire est de 1 à 4 tours (reçu 6)"
