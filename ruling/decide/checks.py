"""The static checks of a procedure that run at every load: exhaustive, no overlap, every
outcome reachable, every question and book parameter used.

A broken procedure stops every command, as a broken clause does (cite hashes are checked by
`ruling check` only, so editing a clause never locks the other commands).
"""
from __future__ import annotations

from ruling.decide.engine import analyse
from ruling.decide.templates import placeholders
from ruling.errors import Problem

MAX_EXAMPLES = 3  # gaps or overlaps listed per procedure


def _answers_text(proc, answers: dict) -> str:
    """Answers as a rule editor reads them in a problem: `{au-bouton=true, mise=200}`."""
    parts = []
    for qid, value in answers.items():
        shown = ("true" if value else "false") if isinstance(value, bool) else value
        parts.append(f"{qid}={shown}")
    return "{" + ", ".join(parts) + "}" if parts else "{} (aucune réponse)"


def procedure_problems(kb, proc) -> list[Problem]:
    """Static checks of one procedure: exhaustive, no overlap, every question used, calculators' inputs.
    Run at load time: a broken procedure stops every command, as a broken clause does. (Cite
    hashes are checked by `ruling check` only, so editing a clause never locks the other commands.)"""
    out: list[Problem] = []
    result = analyse(proc)
    for answers in result.gaps[:MAX_EXAMPLES]:
        out.append(Problem(proc.file, 1, f"procédure {proc.id} non exhaustive : aucune règle ne s'applique aux "
                                         f"réponses {_answers_text(proc, answers)}"))
    for first, other, example in result.overlaps[:MAX_EXAMPLES]:
        out.append(Problem(proc.file, other.line, f"procédure {proc.id} : les règles « {first.outcome} » et "
                                                  f"« {other.outcome} » s'appliquent toutes deux aux réponses "
                                                  f"{_answers_text(proc, example)} ; chaque règle doit donner sa "
                                                  "condition entière"))
    extra = len(result.gaps) + len(result.overlaps) - min(len(result.gaps), MAX_EXAMPLES) - min(len(result.overlaps), MAX_EXAMPLES)
    if extra > 0:
        out.append(Problem(proc.file, 1, f"procédure {proc.id} : {extra} autre(s) combinaison(s) fautive(s)"))
    for rule in proc.rules:
        if rule.outcome not in result.outcomes and not result.gaps and not result.overlaps:
            out.append(Problem(proc.file, rule.line, f"l'issue « {rule.outcome} » n'est jamais atteinte : une règle "
                                                     "précédente couvre déjà toutes ses réponses"))
    used = {qid for rule in proc.rules for qid in rule.when}
    for rule in proc.rules:
        spec = proc.calculator(rule)
        if spec is None:
            continue
        used.update(inp.id for inp in spec.inputs)
        for inp in spec.inputs:
            own = proc.questions.get(inp.id)
            if own is not None and (own.type != inp.type or list(own.choices) != list(inp.choices)):
                want = inp.type + (" (" + ", ".join(inp.choices) + ")" if inp.choices else "")
                out.append(Problem(proc.file, rule.line, f"la question « {inp.id} » ne correspond pas à l'entrée du "
                                                         f"calculateur {spec.name}, qui attend {want}"))
    for qid in proc.questions:
        if qid not in used:
            out.append(Problem(proc.file, 1, f"la question « {qid} » de la procédure {proc.id} n'est utilisée par "
                                             "aucune règle ni aucun calculateur"))
    return out


def unused_parameter_problems(root, book_id: str, parameters: dict, procedures: list) -> list[Problem]:
    """A parameter that no calculator of the book's procedures reads and no decision names."""
    read: set[str] = set()
    for proc in procedures:
        for rule in proc.rules:
            spec = proc.calculator(rule)
            if spec is not None:
                read.update(spec.parameters)
            texts = list(rule.decision.values()) if isinstance(rule.decision, dict) else [rule.decision]
            for each in rule.each.values():
                texts += list(each.values()) if isinstance(each, dict) else [each]
            for text in texts:
                read.update(placeholders(text))
    display = f"{root.name}/{book_id}/parameters.yaml"
    return [Problem(display, p.line, f"le paramètre « {p.id} » n'est lu par aucun calculateur ni aucune décision "
                                     f"du livre {book_id} ; retirez-le ou utilisez-le")
            for p in parameters.values() if p.id not in read]
