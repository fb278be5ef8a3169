"""Procedures as plain data for the site: what the pages, the flowchart and the browser read.

Built from `Procedure.to_json()` (the shape of `ruling procedures --json`), so the site and the
in-browser questionnaire see exactly what the command line sees.
"""
from __future__ import annotations

from ruling.decide.engine import decision_tree
from ruling.decide.templates import PLACEHOLDER_RE


def procedure_data(proc) -> dict:
    """`{id, book, situation, title, keywords, note, questions, rules}` with ordered choices."""
    data = proc.to_json()
    questions = []
    for q in data.get("questions", []):
        choices = [(c["value"], c["label"]) for c in (q.get("choices") or [])]
        questions.append({
            "id": q["id"], "text": q["text"], "type": q.get("type") or ("choice" if choices else "bool"),
            "choices": choices, "help": q.get("help"), "default": q.get("default"),
            "origin": q.get("origin") or "procedure", "kind": q.get("kind"), "none": bool(q.get("none")),
            # what « je ne sais pas » answers, when it means one answer (None: every answer is tried)
            "if_unknown": getattr(proc.question(q["id"]), "if_unknown", None),
        })
    rules = []
    for r in data.get("outcomes", []):
        when = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in (r.get("when") or {}).items()}
        rule = {"when": when, "outcome": r["outcome"], "decision": r["decision"], "each": dict(r.get("each") or {}),
                "compute": r.get("compute"), "cites": list(r.get("cites") or []),
                "interpretation": r.get("interpretation"), "given": dict(r.get("given") or {})}
        rule["readable"] = readable_decision(rule["decision"], figure_names(proc, rule["compute"]))
        rules.append(rule)
    return {
        "id": data["id"], "book": data["book"], "situation": data["situation"], "title": data["title"],
        "keywords": list(data.get("keywords") or []), "note": getattr(proc, "note", None),
        "questions": questions, "rules": rules, "tree": decision_tree(proc),
    }


def answer_label(question: dict, value) -> str:
    """How an answer reads in French (`oui`, `non`, or the choice's label)."""
    if isinstance(value, list):
        return " ou ".join(answer_label(question, v) for v in value)
    if question["type"] == "bool":
        return "oui" if value else "non"
    for key, label in question["choices"]:
        if key == value:
            return label
    return str(value)


def figure_names(proc, name: str | None) -> dict[str, str]:
    """The French description of each figure and input a decision of calculator `name` can name."""
    spec = proc.catalogue.get(name) if proc.catalogue is not None else None
    if spec is None:
        return {}
    names = {q.id: q.text.rstrip(" ?") for q in spec.inputs}
    names.update({f.name: f.text for f in spec.figures.values()})
    return names


def readable_decision(decision, names: dict[str, str]) -> str:
    """The decision with each `{{ figure }}` named in French: « … [montant à suivre] … »; a decision
    chosen by case reads « (cas avant-flop) … ; (cas apres-flop) … »."""
    if isinstance(decision, dict):
        return " ; ".join(f"(cas {case}) {readable_decision(text, names)}" for case, text in decision.items())
    return PLACEHOLDER_RE.sub(lambda m: f"[{names.get(m.group(1), m.group(1))}]", decision)


def needs_calculator(data: dict) -> bool:
    return any(r["compute"] for r in data["rules"])
