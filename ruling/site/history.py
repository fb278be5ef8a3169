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
