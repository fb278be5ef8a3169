"""The flowchart's shape, read from the engine's decision tree (`ruling.decide.engine.decision_tree`).

There is one question walk, the engine's: this module only lays its tree out as numbered
question nodes, outcome leaves and labelled edges for Mermaid. The browser follows the same
exported tree.
"""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_NODES = 400  # a bigger tree is drawn as nothing rather than as an unreadable picture


@dataclass
class Tree:
    """The questionnaire's decision tree: question nodes, outcome leaves, labelled edges."""

    questions: list[tuple[str, str]] = field(default_factory=list)  # (node id, question id)
    outcomes: list[str] = field(default_factory=list)  # outcome ids reached, first-seen order
    edges: list[tuple[str, str, object]] = field(default_factory=list)  # (from, to, answer)
    dead_ends: int = 0
    complete: bool = True


def flowchart_tree(exported: dict) -> Tree:
    """Number the nodes of an exported decision tree, as drawn (bounded by MAX_NODES)."""
    tree = Tree(complete=exported["complete"] and exported["nodes"] <= MAX_NODES)

    def visit(node: dict) -> str:
        if "outcome" in node:
            if node["outcome"] not in tree.outcomes:
                tree.outcomes.append(node["outcome"])
            return "o:" + node["outcome"]
        if "question" not in node:
            tree.dead_ends += 1
            return "x:" + str(tree.dead_ends)
        name = f"q{len(tree.questions)}"
        tree.questions.append((name, node["question"]))
        for answer, child in node["answers"]:
            tree.edges.append((name, visit(child), answer))
        return name

    visit(exported["root"])
    # Children were visited first; list each question's edges together, in question order.
    order = {node: i for i, (node, _) in enumerate(tree.questions)}
    tree.edges.sort(key=lambda edge: order[edge[0]])  # stable: answers keep their display order
    return tree
