"""A copy of the repository whose rulebook puts a script in every field that reaches the site.

Each payload names its field (`alert("livre")`), so a leak says which field leaked. Used by
tests/test_site_hostile.py (HTML checks and chromium); building it also proves that `mkdocs
build` in a copy builds the copy's rulebook, not the installed package's.
"""
from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def payload(field: str) -> str:
    """A title that runs code if any part of it reaches HTML raw: a script and an event handler."""
    return f'Règlement </title><script>alert("{field}")</script><img src=x onerror="alert(`{field}`)"> {field}'


def _quoted(field: str) -> str:
    return "'" + payload(field).replace("'", "''") + "'"


# (file, text as written, field): each written text is replaced by a single-quoted payload.
FIELDS = [
    ("club/book.yaml", "title: Règlement des tournois du club", "livre"),
    ("club/book.yaml", "title: Édition antérieure du chapitre 8", "revision"),
    ("club/book.yaml", "description: Règlement des tournois d'un club, en 15 chapitres numérotés (règles 1-1 à 15-2).",
     "description"),
    ("club/02-donne.yaml", "title: 'LA DONNE :'", "chapitre"),
    ("club/08-blinds-et-les-changements-de-place.yaml", "title: 'LES BLINDS ET LES CHANGEMENTS DE PLACE :'",
     "chapitre-compare"),
    ("tda/reglement.yaml", "title: Les jetons indivisibles", "titre-regle"),
    ("club/procedures/flop-irregulier.yaml", "title: Flop exposé de façon irrégulière", "procedure"),
    ("club/procedures/flop-irregulier.yaml", "text: Quelle est l'irrégularité du flop ?", "question"),
    ("club/procedures/flop-irregulier.yaml", "quatre-cartes: Le flop a été exposé avec 4 cartes", "choix"),
    ("club/procedures/flop-irregulier.yaml",
     "decision: La quatrième carte du flop est brûlée ; la turn sera exposée directement.", "decision"),
    ("club/context.yaml", "text: Quel est le type de tournoi ?", "contexte"),
    ("glossary.yaml", "term: fausse donne", "terme"),
    ("glossary.yaml", "definition: Miser tous ses jetons ; le joueur « à tapis » ne peut plus miser davantage dans le coup.",
     "definition"),
]
# The choice key keeps its value; only its label changes.
_KEEP_KEY = {"choix": "quatre-cartes: ", "decision": "decision: ", "question": "text: ", "contexte": "text: ",
             "terme": "term: ", "definition": "definition: ", "description": "description: "}


def make_copy(dest: Path) -> Path:
    """The repository's site sources and a hostile rulebook under `dest`; returns its mkdocs.yml."""
    shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(ROOT / "site", dest / "site")
    shutil.copytree(ROOT / "rulebook", dest / "rulebook")
    shutil.copytree(ROOT / "ruling", dest / "ruling", ignore=shutil.ignore_patterns("__pycache__"))
    for rel, written, field in FIELDS:
        path = dest / "rulebook" / rel
        text = path.read_text(encoding="utf-8")
        assert text.count(written) == 1, (rel, written)
        key = _KEEP_KEY.get(field, written[: written.index(":") + 2])
        text = text.replace(written, key + _quoted(field))
        path.write_text(text, encoding="utf-8")
    return dest / "mkdocs.yml"
