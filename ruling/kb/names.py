"""The nearest names to a mistyped one (« vouliez-vous … ? »), for ids, books and commands.

Apart from `ruling.kb.model` so that a command's usage error and `ruling search` (whose index
is cached) suggest names without importing the base's model.
"""
from __future__ import annotations

__all__ = ["MAX_SUGGESTED_NAME", "closest", "edit_distance"]


#: Names longer than this get no suggestion: no id is that long, and the distance is quadratic.
MAX_SUGGESTED_NAME = 64


def closest(name: str, candidates: list[str], n: int = 3) -> list[str]:
    """The candidates nearest to `name`: fewest edits (a swap of two neighbours is one edit),
    then same letters in another order (9-31 -> 9-13), then similar length. A candidate whose
    length differs by more than the edits allowed is skipped before any distance is computed."""
    if len(name) > MAX_SUGGESTED_NAME:
        return []
    limit = max(1, len(name) // 3)
    scored = []
    for cand in set(candidates):
        if abs(len(cand) - len(name)) > limit:
            continue
        d = edit_distance(name.lower(), cand.lower())
        if d <= limit:
            scored.append((d, sorted(name) != sorted(cand), abs(len(cand) - len(name)), cand))
    return [c for *_, c in sorted(scored)[:n]]


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]
