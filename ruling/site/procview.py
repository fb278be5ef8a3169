"""Procedures as plain data for the site: what the pages, the flowchart and the browser read.

Built from `Procedure.to_json()` (the shape of `ruling procedures --json`), so the site and the
in-browser questionnaire see exactly what the command line sees.
"""
from __future__ import annotations

import re

#: Calculators that site/assets/questionnaire.js runs in the browser (ported from ruling/calculators.py).
PORTED_CALCULATORS = ("min_raise_to", "min_raise_to_preflop", "reopening", "reopening_preflop", "reopening_strict",
                      "reopening_strict_preflop", "short_bet", "short_bet_preflop", "short_raise_announced",
                      "short_raise_announced_preflop", "short_raise_silent", "short_raise_silent_preflop",
                      "oversized_chip", "limit_all_in", "missed_hands", "missed_hands_tda", "suspension_minutes")
PLACEHOLDER_RE = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


def procedure_data(proc) -> dict:
    """`{id, book, situation, title, keywords, note, questions, rules}` with ordered choices."""
    data = proc.to_json()
    questions = []
    for q in data.get("questions", []):
        choices = [(c["value"], c["label"]) for c in (q.get("choices") or [])]
        questions.append({
            "id": q["id"], "text": q["text"], "type": q.get("type") or ("choice" if choices else "bool"),
            "choices": choices, "help": q.get("help"), "default": q.get("default"),
            "origin": q.get("origin") or "procedure",
        })
    rules = []
    for r in data.get("outcomes", []):
        when = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in (r.get("when") or {}).items()}
        rule = {"when": when, "outcome": r["outcome"], "decision": r["decision"],
                "compute": r.get("compute"), "cites": list(r.get("cites") or [])}
        rule["readable"] = readable_decision(rule["decision"], calculator_outputs(rule["compute"]))
        rules.append(rule)
    return {
        "id": data["id"], "book": data["book"], "situation": data["situation"], "title": data["title"],
        "keywords": list(data.get("keywords") or []), "note": getattr(proc, "note", None),
        "questions": questions, "rules": rules,
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


def calculator_outputs(name: str | None) -> dict[str, str]:
    """The French description of each result of calculator `name` (none without the module)."""
    if not name:
        return {}
    try:
        from ..calculators import get_calculator
    except ImportError:
        return {}
    calc = get_calculator(name)
    return dict(calc.outputs) if calc is not None else {}


def calculator_inputs(name: str | None) -> list[dict] | None:
    """`[{id, param}]`: how the browser maps a calculator's questions to its arguments."""
    if not name:
        return None
    try:
        from ..calculators import get_calculator
    except ImportError:
        return None
    calc = get_calculator(name)
    return [{"id": i.id, "param": i.param} for i in calc.inputs] if calc is not None else None


def readable_decision(decision: str, outputs: dict[str, str]) -> str:
    """The decision with each `{{ result }}` named in French: « … [montant à suivre] … »."""
    return PLACEHOLDER_RE.sub(lambda m: f"[{outputs.get(m.group(1), m.group(1))}]", decision)


def needs_calculator(data: dict) -> bool:
    return any(r["compute"] for r in data["rules"])


def computed_in_browser(data: dict) -> bool:
    """Whether every figure of the procedure is computed by the in-browser questionnaire."""
    return all(r["compute"] in PORTED_CALCULATORS for r in data["rules"] if r["compute"])
