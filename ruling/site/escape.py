"""Escaping rulebook text for the generated Markdown pages, Mermaid labels and inline scripts.

Clause texts are verbatim sources: no character may turn into Markdown or HTML. Every ASCII
punctuation character and every line break becomes a numeric character reference, which
Markdown leaves alone (inline and in raw HTML blocks) and the browser shows as the character.
"""
from __future__ import annotations

import string

from markupsafe import Markup

# Every ASCII punctuation character: Markdown syntax (*, _, #, |, [, `, 1., > …), HTML (<, &, "),
# attr_list braces and the pymdownx inline marks are all in there.
_ESCAPED = {ord(ch): f"&#{ord(ch)};" for ch in string.punctuation}
_ESCAPED[ord("\n")] = "&#10;"
_ESCAPED[ord("\r")] = "&#13;"
_ESCAPED[ord("\t")] = "&#9;"


def md_text(value) -> Markup:
    """Text that reads literally in Markdown and in HTML; `Markup` values pass through."""
    if isinstance(value, Markup):
        return value
    if value is None:
        return Markup("")
    text = str(value)
    body = text.strip()
    if not body:
        return Markup("".join(f"&#{ord(ch)};" for ch in text))
    # Markdown strips a paragraph, heading or cell: its outer blanks become references too.
    start = text.index(body[0])
    lead = "".join(f"&#{ord(ch)};" for ch in text[:start])
    trail = "".join(f"&#{ord(ch)};" for ch in text[start + len(body):])
    return Markup(lead + body.translate(_ESCAPED) + trail)


def finalize(value):
    """jinja2 `finalize`: every `{{ … }}` of a page template is escaped unless marked safe."""
    return md_text(value)


def mermaid_label(text: str) -> str:
    """A quoted Mermaid node label: quotes and markup characters as Mermaid entity codes."""
    out = []
    for ch in str(text):
        if ch in '"#<>&`|{}[]();':
            out.append(f"#{ord(ch)};")
        elif ch in "\n\r\t":
            out.append(" ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def script_json(data) -> str:
    """JSON safe to place inside a <script> element (no `</script>` or `<!--` can close it)."""
    import json

    text = json.dumps(data, ensure_ascii=False, sort_keys=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
