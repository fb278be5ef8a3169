"""Mutation suite: break the real knowledge base one way at a time.

Each mutation must be caught by `ruling check` (exit 1) with the right file and line, and
every other command must refuse the broken base with the same message (exit 2).
"""
from __future__ import annotations

import re

import pytest

PROC = "club/procedures/flop-irregulier.yaml"
CH9 = "club/09-actions-et-les-relances.yaml"
CH2 = "club/02-donne.yaml"
RAISE = "club/procedures/relance-insuffisante.yaml"
PARAMS = "club/parameters.yaml"


def replace(old, new, count=1):
    def mutate(text):
        assert old in text, old
        return text.replace(old, new, count)
    return mutate


def regex(pattern, new):
    def mutate(text):
        out, n = re.subn(pattern, new, text, count=1, flags=re.M)
        assert n == 1, pattern
        return out
    return mutate


# name: (file, mutation, text expected in the problem line, text of the line it must point at)
MUTATIONS = {
    "yaml-syntax-error": (CH9, replace("- id: 9-2\n", "- id: 9-2\n  text: [non fermé\n"), "YAML invalide", None),
    "duplicate-clause-id": (CH9, replace("- id: 9-2\n", "- id: 9-1\n"), "en double", "- id: 9-1"),
    "missing-text": (CH9, regex(r"^  text: Le « check-raise ».*\n", ""), "text", "- id: 9-1"),
    "dangling-ref": (CH2, replace("  - 2-17\n", "  - 2-71\n"), "2-71", "- id: 2-4"),
    "wrong-type-in-schema": (CH9, regex(r"^  topics: \[.*\]$", "  topics: relance"), "topics", "topics: relance"),
    "book-id-used-twice": ("tda/book.yaml", replace("id: tda\n", "id: club\n"), "déjà défini", "id: club"),
    "revision-of-missing-folder": ("club/book.yaml", replace("path: revisions/v1", "path: revisions/v0"),
                                   "revisions/v0", "path: revisions/v0"),
    "cite-to-missing-clause": (PROC, regex(r'cites: \["2-10#\w+"', 'cites: ["2-99"'), "2-99", "2-99"),
    "undeclared-question-in-when": (PROC, replace("when: {defaut: premature}", "when: {defaut: premature, vitesse: true}"),
                                    "vitesse", "vitesse"),
    "undeclared-choice": (PROC, replace("when: {defaut: premature}", "when: {defaut: prematuree}"),
                          "prematuree", "prematuree"),
    "overlapping-rules": (PROC, replace("when: {defaut: sans-brulee, ordre-connu: false}",
                                        "when: {defaut: sans-brulee}"), "sans-brulee", None),
    "combination-without-rule": (PROC, replace("when: {defaut: quatre-cartes, ordre-connu: false}",
                                               "when: {defaut: quatre-cartes, ordre-connu: true}"), "quatre-cartes", None),
    "unknown-calculator": (PROC, replace("    outcome: flop-repris\n", "    outcome: flop-repris\n    compute: calcul_magique\n"),
                           "calcul_magique", "calcul_magique"),
    # issue 14: silently accepted before (the last key won, a chapter vanished, a path escaped)
    "clause-text-written-twice": (CH9, replace("  text: Le « check-raise » (l'embuscade) est autorisé.\n",
                                               "  text: Le « check-raise » (l'embuscade) est autorisé.\n  text: Interdit.\n"),
                                  "clé « text » en double", "text: Interdit."),
    "rule-decision-written-twice": (PROC, replace("    outcome: flop-repris\n", "    outcome: flop-repris\n    decision: Autre.\n"),
                                    "clé « decision » en double", "decision: Le flop seul"),
    "clause-id-with-trailing-newline": (CH9, replace("- id: 9-2\n", '- id: "9-2\\n"\n'), "ne respecte pas le format",
                                        '- id: "9-2\\n"'),
    "two-files-same-chapter-number": (CH9, replace("chapter: '9'\n", "chapter: '2'\n"), "le chapitre « 2 » est déjà défini",
                                      "chapter: '2'"),
    "book-source-outside-the-base": ("club/book.yaml", replace("source: source.txt", "source: ../../../../etc/shadow"),
                                     "refusé", "source: ../../../../etc/shadow"),
    "revision-path-outside-the-book": ("club/book.yaml", replace("path: revisions/v1", "path: ../../elsewhere"),
                                       "refusé", "path: ../../elsewhere"),
    "alias-bomb": (CH9, replace("chapter: '9'\n", "chapter: '9'\nx: &a [y, y, y, y, y, y, y, y]\nx2: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
                                                   "x3: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nx4: [*c, *c, *c, *c, *c, *c, *c, *c]\n"),
                   "alias trop nombreux", "x4: [*c"),
    "unknown-parameter": (PARAMS, replace("  seuil-completion:\n", "  seuil-de-completion:\n"),
                          "lit le paramètre « seuil-completion », inconnu du livre club",
                          "compute: relance-insuffisante-sans-annonce"),
    "unused-parameter": (PARAMS, replace("parameters:\n", "parameters:\n  seuil-oublie: {value: 2, ref: \"9-9\", "
                                                       "description: Un seuil que rien ne lit.}\n"),
                         "le paramètre « seuil-oublie » n'est lu par aucun calculateur", "seuil-oublie"),
    "parameter-from-missing-clause": (PARAMS, replace('ref: "9-9"', 'ref: "9-99"'), "« 9-99 », règle qui n'existe pas",
                                      'ref: "9-99"'),
    "figure-not-produced": (RAISE, replace("({{ complement }})", "({{ complement-oublie }})"),
                            "utilise {{ complement-oublie }} que ni le calculateur mise-insuffisante", "complement-oublie"),
    "unknown-case-key": (RAISE, replace("      completee: ", "      complete: "),
                         "cas « complete » inconnu dans la décision « regle-des-50 »", "complete:"),
    "case-left-without-sentence": (RAISE, regex(r"^      suivi: \"Relance insuffisante sans annonce.*\n", ""),
                                   "ne dit rien du cas « suivi »", "completee:"),
    "calculator-no-procedure-uses": ("cash/procedures/mise-tapis-limite.yaml",
                                     regex(r"^    compute: tapis-a-limite\n    decision:\n(      .*\n)+(    interpretation:\n(      .*\n)+)?",
                                           "    decision: La règle de la demi-mise s'applique.\n"),
                                     "le calculateur « tapis-a-limite » n'est utilisé par aucune procédure",
                                     "demi-mise"),
    # issue 11: a reading of silent text is said in the decision, for the cases it concerns
    "interpretation-not-said": ("club/procedures/elimination-simultanee.yaml",
                                replace("Le règlement ne le précise pas ; le directeur", "Le directeur"),
                                "repose sur une interprétation mais ne le dit pas", "interpretation:"),
    "interpretation-of-unknown-case": ("club/procedures/blinds-places-vides.yaml",
                                       replace("      donneurs-absents: \"8-13", "      donneur-absent: \"8-13"),
                                       "cas inconnu(s) donneur-absent", "donneur-absent:"),
    "interpretation-case-not-said": ("club/procedures/blinds-places-vides.yaml",
                                     replace("Le règlement ne le précise pas ; on fait donner le joueur assis juste avant la petite",
                                             "On fait donner le joueur assis juste avant la petite"),
                                     "(cas donneurs-absents) repose sur une interprétation", "donneurs-absents: \"8-13"),
    # issue 11: a phrase for a case the book's parameters rule out (club 9-13 admits the cumul)
    "case-the-book-never-reaches": ("club/procedures/relance-minimum.yaml",
                                    replace("      tapis-insuffisants: \"Les tapis qui ont suivi",
                                            "      cumul-non-retenu: \"Ce livre ne retient pas le cumul.\"\n"
                                            "      tapis-insuffisants: \"Les tapis qui ont suivi"),
                                    "le cas « cumul-non-retenu » de la décision « reouverture-avant-flop » n'arrive jamais : "
                                    "le calculateur reouverture ne le produit que si reouverture-par-cumul = false, et le livre "
                                    "club a reouverture-par-cumul = true", "cumul-non-retenu:"),
    "reading-of-a-case-the-book-never-reaches": ("tda/procedures/relance-insuffisante.yaml",
                                                 replace("      tapis-insuffisants: *minimum-legal\n",
                                                         "      tapis-insuffisants: *minimum-legal\n      cumul-suffisant: *minimum-legal\n"),
                                                 "le cas « cumul-suffisant » n'arrive jamais", "minimum-legal"),
    "case-the-street-of-the-rule-rules-out": ("club/procedures/relance-minimum.yaml",
                                              replace("      tapis-insuffisants: \"Les tapis qui ont suivi",
                                                      "      apres-parole: \"Il avait parlé.\"\n"
                                                      "      tapis-insuffisants: \"Les tapis qui ont suivi"),
                                              "le cas « apres-parole » de la décision « reouverture-avant-flop » n'arrive "
                                              "jamais : le calculateur reouverture ne le produit que si tour = apres-flop, et "
                                              "cette règle fixe tour = avant-flop", "apres-parole:"),
    "case-parameter-of-an-unknown-case": ("calculators.yaml", replace("      cumul-non-retenu: {reouverture-par-cumul: false}",
                                                                      "      cumul-refuse: {reouverture-par-cumul: false}"),
                                          "case_parameters du calculateur « reouverture » : cas « cumul-refuse » inconnu",
                                          "cumul-refuse:"),
    "outcome-never-reached": ("club/procedures/recave.yaml",
                              replace("  - when: {formule: freezout}\n",
                                      "  - when: {formule: freezout}\n    outcome: doublon\n    decision: Autre.\n"
                                      "    cites: [\"7-1\"]\n  - when: {formule: freezout}\n"),
                              "s'appliquent toutes deux", None),
    "undeclared-kernel-input": ("calculators.yaml", replace("inputs: [minutes]", "inputs: [minutes, secondes]"),
                                "demande l'entrée « secondes »", "inputs: [minutes, secondes]"),
}

#: Editing a clause's text does not lock the whole base (`ruling show` must still read it);
#: `ruling check` flags the procedures citing it and `decide` refuses those decisions.
STALE = (CH2, replace("Flop prématuré : le flop seul est repris", "Flop prématuré : le flop est repris"))


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutation_is_caught_by_check(name, kb_copy, run):
    rel, mutate, expected, line_text = MUTATIONS[name]
    path = kb_copy / rel
    path.write_text(mutate(path.read_text(encoding="utf-8")), encoding="utf-8")
    result = run("check", kb_path=kb_copy)
    assert result.exit_code == 1, result.output
    problems = [line for line in result.output.splitlines() if re.match(r"^rulebook/\S+:\d+: ", line) and expected in line]
    assert problems, result.output
    if line_text is not None:
        file, line = problems[0].split(":")[:2]
        source_lines = (kb_copy.parent / file).read_text(encoding="utf-8").splitlines()
        window = source_lines[int(line) - 1:int(line) + 2]
        assert any(line_text in w for w in window), (problems[0], window)
    refused = run("show", "club:9-13", kb_path=kb_copy)
    assert refused.exit_code == 2
    assert refused.output.startswith("Erreur : base de règles invalide : rulebook/")
    assert "Traceback" not in refused.output
    assert result.output.splitlines()[0] in refused.output  # the same message as check's first problem


def test_changed_cited_text_is_flagged_and_its_decisions_refused(kb_copy, run):
    rel, mutate = STALE
    path = kb_copy / rel
    path.write_text(mutate(path.read_text(encoding="utf-8")), encoding="utf-8")
    check = run("check", kb_path=kb_copy)
    assert check.exit_code == 1
    stale = [line for line in check.output.splitlines() if "le texte de club:2-10 a changé" in line]
    assert stale and stale[0].startswith(f"rulebook/{PROC}:")
    refused = run("decide", "flop-irregulier", "--book", "club", "-a", "defaut=premature", kb_path=kb_copy)
    assert refused.exit_code == 2
    assert refused.output.strip() == f"Erreur : décision refusée : {stale[0]}"
    assert run("show", "club:2-10", kb_path=kb_copy).exit_code == 0
    other = run("decide", "flop-irregulier", "--book", "club", "-a", "defaut=sans-brulee", "-a", "ordre-connu=oui",
                kb_path=kb_copy)
    assert other.exit_code == 0 and "club:2-5" in other.output
