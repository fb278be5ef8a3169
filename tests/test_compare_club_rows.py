"""The ninth outside reading (rd9b): `ruling compare` rows where the club text decides must not say
« ce cas n'est pas prévu par ce livre » for club; each row names the club outcome and cites the club clause."""
from __future__ import annotations

import json

import pytest

ROWS = [
    ("les-cartes-parlent", "cas", "une-seule-carte", "montrer-les-deux-cartes-a-tous", ["club:10-1", "club:10-3"],
     "doit donc montrer ses deux cartes, à tous les joueurs présents"),
    ("les-cartes-parlent", "cas", "cartes-pas-toutes-montrees", "montrer-les-deux-cartes-a-tous", ["club:10-1", "club:10-3"],
     "doit donc montrer ses deux cartes, à tous les joueurs présents"),
    ("les-cartes-parlent", "cas", "main-jetee", "main-jetee-pas-reprise", ["club:10-2", "club:10-1", "club:5-3"],
     "ne peut donc pas la reprendre ni prétendre au gain"),
    ("les-cartes-parlent", "cas", "erreur-d-attribution", "erreur-rectifiee", ["club:10-11", "club:11-1"],
     "L'erreur est rectifiée et le pot va à qui il revient"),
    ("main-morte", "cause", "joueur-absent", "morte-joueur-absent", ["club:3-2", "club:2-18"],
     "Sa main est morte, même au gros blind"),
    ("main-morte", "cause", "lancer-vers-defausse", "morte-sur-geste-d-abandon", ["club:5-1", "club:5-2", "club:5-4"],
     "Le règlement ne le précise pas ; on tient le lancer de sa main vers les cartes mortes pour un geste d'abandon : sa main est morte."),
    ("jetons-sur-la-table", "cas", "jetons-hors-de-la-table", "jetons-restent-pendant-le-jeu", ["club:13-4", "club:15-1"],
     "le joueur ne peut pas retirer ses jetons de la table"),
    ("jetons-sur-la-table", "cas", "grosses-coupures-cachees", "jetons-visibles", ["club:13-2"],
     "aucun jeton caché, les grosses valeurs en général en avant"),
]


@pytest.mark.parametrize("situation, question, value, outcome, cites, words", ROWS,
                         ids=[f"{r[0]}-{r[2]}" for r in ROWS])
def test_the_club_row_gives_the_club_ruling(run, situation, question, value, outcome, cites, words):
    data = json.loads(run("compare", situation, "--json").output)
    row = next(r for r in data["rows"] if r["answers"] == {question: value})
    club = row["books"]["club"]
    assert club["case"] is True and club["decided"] is True
    assert club["outcome"] == outcome
    assert [c["citation"] for c in club["citations"]] == cites
    assert words in club["decision"]


def test_the_text_table_says_the_club_ruling(run):
    out = run("compare", "main-morte").output
    row = out.split("Cas cause=joueur-absent")[1].split("\n\n")[0]
    assert "club → [morte-joueur-absent] 3-2 : « Un joueur doit être assis à sa place" in row
    assert "club → ce cas n'est pas prévu par ce livre" not in row
