"""The revision history for the site: `ruling.diff.revisions` between consecutive revisions, as HTML redlines.

`ruling.diff.revisions` does the alignment and the word-level diff; this module only turns its segments
into escaped HTML (`<del>`, `<ins>`) for the history page. Without `ruling.diff.revisions` the page just
lists the revisions.
"""
from __future__ import annotations

from ruling.site.escape import md_text


def diff_available() -> bool:
    try:
        from ruling.diff import revisions as diff  # noqa: F401
    except ImportError:
        return False
    return True


def revision_diff(kb, book, old, new):
    """`ruling.diff.revisions` result from revision `old` to `new` of `book`, or None without the module."""
    if not diff_available():
        return None
    from ruling.diff.revisions import diff

    return diff(f"{book.id}@{old.id}", f"{book.id}@{new.id}", kb)


def redline_html(words: list[dict]) -> str:
    """A redline paragraph: deletions struck, insertions underlined, every character escaped.

    A changed segment's leading blank is moved out of its tag so that a struck word does not
    swallow the space before it.
    """
    out = ['<p class="ruling-redline">']
    for seg in words:
        text = seg["text"]
        if seg["op"] == "equal":
            out.append(md_text(text))
            continue
        body = text.lstrip()
        out.append(md_text(text[: len(text) - len(body)]))
        if body:
            tag = "del" if seg["op"] == "delete" else "ins"
            out.append(f"<{tag}>{md_text(body)}</{tag}>")
    out.append("</p>")
    return "".join(out)


def redline_inline(words: list[dict]) -> str:
    """The same redline as `redline_html` without its paragraph, for a Markdown paragraph (a box on the rule's page)."""
    html = redline_html(words)
    return html[len('<p class="ruling-redline">'):-len("</p>")]


def typography_marked(words: list[dict]) -> list[dict]:
    """The redline with typography made visible: an « equal » segment whose characters differ
    (’ for ', a non-breaking space, a capital) is split into characters kept, struck and inserted."""
    import difflib

    out: list[dict] = []
    for seg in words:
        old = seg.get("old", seg["text"])
        if seg["op"] != "equal" or old == seg["text"]:
            out.append(seg)
            continue
        new = seg["text"]
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if tag == "equal":
                out.append({"op": "equal", "text": new[j1:j2]})
                continue
            if i2 > i1:
                out.append({"op": "delete", "text": old[i1:i2]})
            if j2 > j1:
                out.append({"op": "insert", "text": new[j1:j2]})
    return out


def typography_summary(words: list[dict]) -> str:
    """What a typography-only change changed, in French: « ' » devient « ’ » (2 fois)."""
    from collections import Counter

    pairs: Counter = Counter()
    marked = typography_marked(words)
    for k, seg in enumerate(marked):
        if seg["op"] == "delete":
            after = marked[k + 1] if k + 1 < len(marked) and marked[k + 1]["op"] == "insert" else None
            pairs[(seg["text"], after["text"] if after else "")] += 1
        elif seg["op"] == "insert" and (k == 0 or marked[k - 1]["op"] != "delete"):
            pairs[("", seg["text"])] += 1
    parts = []
    for (old, new), n in pairs.items():
        shown = f"« {_visible(old)} » devient « {_visible(new)} »" if old and new else (
            f"« {_visible(new)} » ajouté" if new else f"« {_visible(old)} » retiré")
        parts.append(shown + (f" ({n} fois)" if n > 1 else ""))
    return ", ".join(parts)


def _visible(chars: str) -> str:
    """Blanks named, since « » around a space shows nothing."""
    names = {" ": "espace", "\u00a0": "espace insécable", "\u202f": "espace fine insécable", "\n": "retour à la ligne"}
    return " ".join(names[c] for c in chars) if chars and all(c in names for c in chars) else chars
