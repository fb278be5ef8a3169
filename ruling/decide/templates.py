"""Decision templates: `{{ nom }}` placeholders over named figures, a list of records told item by item.

The same rules are implemented by site/assets/kernels.js (`render`) for the browser: a boolean
reads oui/non, a number as digits (decimal comma), a list of numbers joined by « , », an empty
list « aucun », and a list of records through the rule's `each` template for that figure
(keyed by the record's `cas` when it is a case map): one record per line when the placeholder
stands alone on its line, else joined by « , »; a line left empty by an empty list is dropped.
"""
from __future__ import annotations

import re

PLACEHOLDER_RE = re.compile(r"\{\{\s*([a-z][a-z0-9-]*)\s*\}\}")


def placeholders(template: str) -> list[str]:
    return PLACEHOLDER_RE.findall(template)


def figure_text(value) -> str:
    """A figure as it reads in a French sentence."""
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, list):
        return ", ".join(figure_text(v) for v in value) if value else "aucun"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value).replace(".", ",")
    return str(value)


def pick(template, case):
    """A template or, for a case map, the template of `case`."""
    return template[case] if isinstance(template, dict) else template


def render(template: str, figures: dict, each: dict | None = None, depth: int = 0) -> str:
    """`template` with each `{{ name }}` replaced by its figure (left as is when unknown)."""
    each = each or {}
    lines = []
    for line in template.split("\n"):
        alone = depth == 0 and PLACEHOLDER_RE.fullmatch(line.strip()) is not None

        def one(match, separator="\n" if alone else ", "):
            name = match.group(1)
            if name not in figures:
                return match.group(0)
            value = figures[name]
            if isinstance(value, list) and name in each:
                return separator.join(render(pick(each[name], item.get("cas")), {**figures, **item}, each, depth + 1)
                                      for item in value)
            return figure_text(value)

        text = PLACEHOLDER_RE.sub(one, line)
        if text.strip() or not line.strip():  # a line that only held an empty list disappears
            lines.append(text)
    return "\n".join(lines)
