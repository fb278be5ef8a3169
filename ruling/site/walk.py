"""Walking a procedure's rules the way the questionnaire does, to draw its flowchart.

The same walk runs in the browser (site/assets/questionnaire.js): a rule whose whole condition
is answered and met is the decision; otherwise the next question is the first unanswered key of
the first rule still possible, in the order of the rules then of their `when` keys.
"""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_NODES = 400  # a bigger tree is drawn as nothing rather than as an unreadable picture


def matches(condition, answer) -> bool:
    """A condition is one accepted answer or a list of them ("l'une de")."""
    if isinstance(condition, list):
        return any(_same(c, answer) for c in condition)
    return _same(condition, answer)


def _same(expected, answer) -> bool:
    # `True == 1` in Python: booleans only match booleans.
    return type(expected) is type(answer) and expected == answer


def possible(rule: dict, answers: dict) -> bool:
    return all(q not in answers or matches(c, answers[q]) for q, c in rule["when"].items())


def decided(rule: dict, answers: dict) -> bool:
    return all(q in answers and matches(c, answers[q]) for q, c in rule["when"].items())


def step(proc: dict, answers: dict) -> tuple[str, object]:
    """("decision", rule), ("question", question id) or ("none", None) when no rule fits."""
    for rule in proc["rules"]:
        if decided(rule, answers):
            return "decision", rule
    for rule in proc["rules"]:
        if possible(rule, answers):
            for q in rule["when"]:
                if q not in answers:
                    return "question", q
    return "none", None


def answer_values(question: dict) -> list:
    """The answers a question offers, in display order (only choice and bool branch)."""
    if question["type"] == "bool":
        return [True, False]
    if question["type"] == "choice":
        return [key for key, _ in question["choices"]]
    return []


@dataclass
class Tree:
    """The questionnaire's decision tree: question nodes, outcome leaves, labelled edges."""

    questions: list[tuple[str, str]] = field(default_factory=list)  # (node id, question id)
    outcomes: list[str] = field(default_factory=list)  # outcome ids reached, first-seen order
    edges: list[tuple[str, str, object]] = field(default_factory=list)  # (from, to, answer)
    dead_ends: int = 0
    complete: bool = True


def decision_tree(proc: dict) -> Tree:
    """Every path of the walk from no answer to a decision (bounded by MAX_NODES)."""
    tree = Tree()
    questions = {q["id"]: q for q in proc["questions"]}

    def visit(answers: dict) -> str:
        if len(tree.questions) + len(tree.outcomes) > MAX_NODES:
            tree.complete = False
            return ""
        kind, value = step(proc, answers)
        if kind == "decision":
            if value["outcome"] not in tree.outcomes:
                tree.outcomes.append(value["outcome"])
            return "o:" + value["outcome"]
        if kind == "none" or value not in questions or not answer_values(questions[value]):
            tree.dead_ends += 1
            return "x:" + str(tree.dead_ends)
        node = f"q{len(tree.questions)}"
        tree.questions.append((node, value))
        for ans in answer_values(questions[value]):
            child = visit({**answers, value: ans})
            if child:
                tree.edges.append((node, child, ans))
        return node

    visit({})
    # Children were visited first; list each question's edges together, in question order.
    order = {node: i for i, (node, _) in enumerate(tree.questions)}
    tree.edges.sort(key=lambda edge: order[edge[0]])  # stable: answers keep their display order
    return tree
