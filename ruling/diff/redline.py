"""Word-level redline between two clause texts, and its renderings (terminal, Markdown).

Texts are compared on folded tokens (apostrophes, spaces, case and accents normalised) so a
typographic change never shows as an edit; the output always carries the real characters.
A redline is a list of segments `{"op": "equal"|"delete"|"insert", "text": ...}`; an `equal`
segment whose old characters differ typographically also carries `"old"`. Joining the
equal+delete texts (old characters) gives the old text, equal+insert gives the new one.
"""
from __future__ import annotations

import difflib
import re
import unicodedata

#: A token is a word or one punctuation sign, with the whitespace before it; trailing space last.
TOKEN_RE = re.compile(r"\s*(?:\w+|[^\w\s])|\s+$")
WORD_RE = re.compile(r"\w+")
_APOSTROPHES = ("’", "‘", "ʼ", "´", "`", "′")
_SPACES_RE = re.compile(r"\s+")
#: The Unicode blocks of combining marks (accents once a text is decomposed).
_COMBINING_RE = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def fold(text: str) -> str:
    """The text as compared: straight apostrophes, single spaces, lower case, no accents."""
    for mark in _APOSTROPHES:
        if mark in text:
            text = text.replace(mark, "'")
    text = unicodedata.normalize("NFD", text.casefold())
    return _SPACES_RE.sub(" ", _COMBINING_RE.sub("", text)).strip()


def words_of(text: str) -> list[str]:
    """The folded words of a text, punctuation dropped: what similarity is measured on."""
    return WORD_RE.findall(fold(text))


def word_diff(old: str, new: str) -> list[dict]:
    """The redline segments turning `old` into `new`, compared word by word on folded tokens."""
    a, b = TOKEN_RE.findall(old), TOKEN_RE.findall(new)
    matcher = difflib.SequenceMatcher(None, [fold(t) for t in a], [fold(t) for t in b], autojunk=False)
    out: list[dict] = []
    for tag, i1, i2, j1, j2 in _merge_stray_words(matcher.get_opcodes(), a, b):
        old_part, new_part = "".join(a[i1:i2]), "".join(b[j1:j2])
        if tag == "equal":
            _push(out, "equal", new_part, old_part)
        elif tag == "delete":
            _push(out, "delete", old_part)
        elif tag == "insert":
            _push(out, "insert", new_part)
        else:  # replace: the space before both sides stays outside the change
            lead_old = old_part[: len(old_part) - len(old_part.lstrip())]
            lead_new = new_part[: len(new_part) - len(new_part.lstrip())]
            if lead_old and lead_new:
                _push(out, "equal", lead_new, lead_old)
                old_part, new_part = old_part[len(lead_old):], new_part[len(lead_new):]
            _push(out, "delete", old_part)
            _push(out, "insert", new_part)
    for seg in out:
        if seg["op"] == "equal" and seg.get("old") == seg["text"]:
            del seg["old"]
    return out


def _merge_stray_words(opcodes, a: list[str], b: list[str]) -> list[tuple]:
    """Fold a lone common word between two changes into them: "[-le futur-]{+la future+}"
    reads better than a redline hopping over "le"."""
    ops = [list(op) for op in opcodes]

    def size(op):
        return max(len("".join(a[op[1]:op[2]])), len("".join(b[op[3]:op[4]])))

    k = 1
    while k < len(ops) - 1:
        before, eq, after = ops[k - 1], ops[k], ops[k + 1]
        if (eq[0] == "equal" and before[0] != "equal" and after[0] != "equal"
                and sum(1 for t in a[eq[1]:eq[2]] if WORD_RE.search(t)) <= 1
                and size(eq) < size(before) and size(eq) < size(after)):
            ops[k - 1:k + 2] = [["replace", before[1], after[2], before[3], after[4]]]
            k = max(k - 1, 1)
        else:
            k += 1
    return [tuple(op) for op in ops]


def _push(out: list[dict], op: str, text: str, old: str | None = None) -> None:
    """Append a segment, merging it with the previous one when the operation is the same."""
    if not text and not old:
        return
    if out and out[-1]["op"] == op:
        out[-1]["text"] += text
        if op == "equal":
            out[-1]["old"] += old or ""
        return
    seg = {"op": op, "text": text}
    if op == "equal":
        seg["old"] = old or ""
    out.append(seg)


def whole(op: str, text: str) -> list[dict]:
    """The redline of an added (`insert`) or removed (`delete`) clause: its whole text."""
    return [{"op": op, "text": text}] if text else []


def old_text(words: list[dict]) -> str:
    """The old text a redline was made from."""
    return "".join(s.get("old", s["text"]) if s["op"] == "equal" else s["text"]
                   for s in words if s["op"] != "insert")


def new_text(words: list[dict]) -> str:
    """The new text a redline was made from."""
    return "".join(s["text"] for s in words if s["op"] != "delete")


# -- renderings ---------------------------------------------------------------------------

def _pieces(words: list[dict]):
    """(op, text) pairs with a change's leading space moved before it, for display only."""
    prev_ends_space = True
    for seg in words:
        text = seg["text"]
        if seg["op"] != "equal":
            body = text.lstrip()
            lead = text[: len(text) - len(body)]
            if lead and not prev_ends_space:
                yield "equal", lead
                prev_ends_space = True
            text = body
        if text:
            yield seg["op"], text
            prev_ends_space = text[-1].isspace()


def render_terminal(words: list[dict], color: bool) -> str:
    """Red struck-through deletions and green underlined insertions, or [-…-]{+…+} without colour."""
    out = []
    for op, text in _pieces(words):
        if op == "equal":
            out.append(text)
        elif color:
            code = "9;31" if op == "delete" else "4;32"
            out.append("\n".join(f"\x1b[{code}m{line}\x1b[0m" if line else "" for line in text.split("\n")))
        else:
            out.append(f"[-{text}-]" if op == "delete" else f"{{+{text}+}}")
    return "".join(out)


_MD_ESCAPE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "*": "\\*", "_": "\\_",
                            "`": "\\`", "[": "\\[", "]": "\\]", "\\": "\\\\", "|": "\\|"})


def md_escape(text: str) -> str:
    """Text safe inside Markdown and inline HTML; line breaks become <br>."""
    return text.translate(_MD_ESCAPE).replace("\n", "<br>")


def render_markdown(words: list[dict]) -> str:
    """Markdown with <del>/<ins>, for the site and a club newsletter."""
    out = []
    for op, text in _pieces(words):
        if op == "equal":
            out.append(md_escape(text))
        else:
            tag = "del" if op == "delete" else "ins"
            out.append(f"<{tag}>{md_escape(text)}</{tag}>")
    return "".join(out)


# -- whole reports -------------------------------------------------------------------------

STATUS_FR = {
    "unchanged": ("inchangée", "inchangées"),
    "typography": ("typographie", "typographie"),
    "modified": ("modifiée", "modifiées"),
    "renumbered": ("renumérotée", "renumérotées"),
    "added": ("ajoutée", "ajoutées"),
    "removed": ("supprimée", "supprimées"),
}


def _plural(n: int, status: str) -> str:
    one, many = STATUS_FR[status]
    return f"{n} {one if n < 2 else many}"


def _scope_line(result) -> str | None:
    if not result.partial:
        return None
    chapters = result.scope
    if not chapters:
        return "révision partielle : aucun chapitre commun aux deux côtés"
    if len(chapters) == 1:
        return f"révision partielle : comparée sur le chapitre {chapters[0]}"
    return "révision partielle : comparée sur les chapitres " + ", ".join(chapters)


def summary_lines(result) -> list[str]:
    """Who is compared with whom, the partial-revision notice, and the counts per status."""
    counts = result.counts()
    n_old = sum(1 for c in result.changes if c.old is not None)
    n_new = sum(1 for c in result.changes if c.new is not None)
    lines = [f"Livre {result.book} : {result.old.name} ({result.old.title}) → {result.new.name} ({result.new.title})"]
    scope = _scope_line(result)
    if scope:
        lines.append(scope)
    rules = "règle" if n_old < 2 else "règles"
    lines.append(f"{n_old} {rules} avant, {n_new} après : "
                 + ", ".join(_plural(counts[s], s) for s in STATUS_FR))
    return lines


def change_heading(change) -> str:
    """`8-12 → 8-11 · renumérotée, texte modifié · similarité 0,83`."""
    old_id = change.old.id if change.old is not None else None
    new_id = change.new.id if change.new is not None else None
    status = change.status
    if status == "renumbered":
        what = "renumérotée, " + ("texte modifié" if change.text_changed else
                                   "texte inchangé (typographie seulement)" if change.typography_only else
                                   "texte inchangé")
        head = f"{old_id} → {new_id} · {what}"
    elif status == "typography":
        head = f"{new_id} · typographie (apostrophes, espaces, casse ou accents)"
    else:
        head = f"{new_id or old_id} · {STATUS_FR[status][0]}"
    if status in ("modified", "renumbered") and change.text_changed:
        head += f" · similarité {change.similarity:.2f}".replace(".", ",")
    return head


def impact_lines(result) -> list[str]:
    procs, refs = result.impact.get("procedures", []), result.impact.get("refs", [])
    if not procs and not refs:
        return ["Impact : aucune procédure ne cite de règle modifiée, renumérotée ou supprimée ; "
                "aucun renvoi vers une règle renumérotée ou supprimée."]
    lines = ["Impact :"]
    lines += [f"  procédure {p['procedure']} ({p['book']}) cite {p['citation']} : {p['message']}" for p in procs]
    lines += [f"  renvoi : {r['message']}" for r in refs]
    return lines


def rulings_lines(result) -> list[str]:
    if result.rulings is None:
        return []
    if not result.rulings:
        return ["Décisions : aucun scénario ne change d'issue ni de citations."]
    lines = ["Décisions qui changent :"]
    for r in result.rulings:
        lines.append(f"  {r['procedure']} · {r['scenario']} : {r['message']}")
    return lines


def report_text(result, color: bool = False) -> str:
    """The terminal report: summary, each clause with its redline, then the impact."""
    bold = (lambda s: f"\x1b[1m{s}\x1b[0m") if color else (lambda s: s)
    lines = [bold(line) if k == 0 else line for k, line in enumerate(summary_lines(result))]
    for change in result.changes:
        lines.append("")
        lines.append(bold(change_heading(change)))
        if change.status != "unchanged":
            body = render_terminal(change.words, color)
            lines += ["    " + line for line in body.split("\n")]
    lines.append("")
    lines += impact_lines(result)
    extra = rulings_lines(result)
    if extra:
        lines.append("")
        lines += extra
    return "\n".join(lines)


def report_markdown(result) -> str:
    """The Markdown report with <del>/<ins>: for the site and for a club newsletter."""
    counts = result.counts()
    out = [f"# Révision du livre {md_escape(result.book)} : {md_escape(result.old.name)} → {md_escape(result.new.name)}",
           "",
           f"{md_escape(result.old.title)} → {md_escape(result.new.title)}"]
    scope = _scope_line(result)
    if scope:
        out += ["", f"*{scope[0].upper()}{scope[1:]}.*"]
    out += ["", "| statut | règles |", "| --- | ---: |"]
    out += [f"| {STATUS_FR[s][0]} | {counts[s]} |" for s in STATUS_FR]
    for change in result.changes:
        out += ["", f"## {md_escape(change_heading(change))}"]
        if change.status != "unchanged":
            out += ["", render_markdown(change.words)]
    out += ["", "## Impact", ""]
    procs, refs = result.impact.get("procedures", []), result.impact.get("refs", [])
    if not procs and not refs:
        out.append(md_escape(impact_lines(result)[0].removeprefix("Impact : ")))
    out += [f"- procédure **{md_escape(p['procedure'])}** cite `{p['citation']}` : {md_escape(p['message'])}"
            for p in procs]
    out += [f"- renvoi : {md_escape(r['message'])}" for r in refs]
    if result.rulings is not None:
        out += ["", "## Décisions", ""]
        if not result.rulings:
            out.append("Aucun scénario ne change d'issue ni de citations.")
        out += [f"- **{md_escape(r['procedure'])}** · {md_escape(r['scenario'])} : {md_escape(r['message'])}"
                for r in result.rulings]
    return "\n".join(out) + "\n"
