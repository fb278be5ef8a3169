"""What changed between two editions of a rulebook, clause by clause, and what it affects.

`diff(old, new, kb)` resolves each side (a book revision `club@v1`, a YAML chapter file or
folder, or `git:REV:rulebook/club`), pairs the clauses by printed number and content
similarity together (so a moved clause is `renumbered`, not removed + added), labels each
pair, builds its word-level redline, and lists the procedures and refs the change affects.
Pairing is sparse: candidates share a rare word or word pair, so memory stays linear in the
clause count.
"""
from __future__ import annotations

import io
import os
import re
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from rapidfuzz.distance import Indel

from ruling.decide.engine import decide
from ruling.decide.scenarios import read_scenario_files, scenario_folder
from ruling.diff.redline import fold, whole, word_diff, words_of
from ruling.errors import UserError, shown
from ruling.kb.files import FileProblem, read_text
from ruling.kb.load import build_chapter, load_kb
from ruling.kb.model import CITATION_RE, Chapter, Clause, Revision
from ruling.kb.safe_yaml import YamlProblem, parse_yaml
from ruling.kb.schemas import Schemas
from ruling.kb.snapshot import YamlDoc

STATUSES = ("unchanged", "typography", "modified", "renumbered", "added", "removed")
#: Least similarity to pair two clauses with the same number, and with different numbers.
SAME_NUMBER_MIN = 0.35
MOVED_MIN = 0.5
#: Added to the similarity of a same-number pair when choosing the assignment.
SAME_NUMBER_BONUS = 0.1
#: Candidate blocking: words and word pairs seen in more clauses than this do not propose
#: pairs; each clause proposes pairs through its `RARE_WORDS` rarest ones.
MAX_DOC_FREQ = 32
RARE_WORDS = 8
#: Components of the candidate graph up to this size get an exact assignment, larger ones greedy.
EXACT_MAX = 60

_BOOK_SPEC_RE = re.compile(r"^(?P<book>[a-z0-9_-]+)(?:@(?P<rev>[A-Za-z0-9_.-]+))?$")


# -- the two sides -------------------------------------------------------------------------

@dataclass
class Side:
    """One edition being compared: its book, its chapters, and whether it is partial."""

    name: str
    book: str
    title: str
    chapters: list[Chapter]
    partial: bool = False
    #: where the side was read: ("kb",), ("disk", book_dir) or ("git", repo, rev, book_dir)
    origin: tuple = ("kb",)

    def clauses(self, scope: set[str] | None = None) -> list[Clause]:
        return [c for ch in self.chapters if scope is None or ch.id in scope for c in ch.clauses]


def resolve_side(spec: str, kb) -> Side:
    """A side from `club`, `club@v1`, a YAML file or folder, or `git:REV:path`."""
    spec = spec.strip()
    if spec.startswith("git:"):
        rev, sep, inner = spec[4:].partition(":")
        if not rev or not sep or not inner:
            raise UserError(f"« {spec} » : attendu git:RÉVISION:chemin, par exemple git:HEAD~3:rulebook/club")
        tree = _GitTree(_git_toplevel(kb), rev)
        return _side_from_tree(tree, PurePosixPath(inner.strip("/")), spec, kb)
    m = _BOOK_SPEC_RE.match(spec)
    if m and (m.group("book") in {b.id for b in kb.books} or not Path(spec).exists()):
        book = kb.book(m.group("book"))
        rev = book.revision(m.group("rev"))
        return Side(name=f"{book.id}@{rev.id}", book=book.id, title=rev.title,
                    chapters=list(rev.chapters), partial=rev.partial)
    path = Path(spec)
    if not path.exists():
        raise UserError(f"« {spec} » n'existe pas : ni livre, ni fichier, ni dossier ; "
                        "attendu par exemple club, club@v1, un fichier .yaml ou git:HEAD~1:rulebook/club")
    return _side_from_tree(_DiskTree(), path, spec, kb)


def previous_side(spec: str, kb) -> Side:
    """The revision before the one `spec` names (`club` → the one before the current)."""
    m = _BOOK_SPEC_RE.match(spec.strip())
    if not m:
        raise UserError(f"« {spec} » seul : attendu un livre (club) pour comparer sa révision précédente "
                        "à l'actuelle, ou deux côtés : ruling diff ANCIEN NOUVEAU")
    book = kb.book(m.group("book"))
    prev = book.previous(m.group("rev"))
    if prev is None:
        rev = book.revision(m.group("rev"))
        raise UserError(f"le livre {book.id} n'a pas de révision avant {rev.id} ; "
                        f"révisions connues : {', '.join(r.id for r in book.revisions)}")
    return Side(name=f"{book.id}@{prev.id}", book=book.id, title=prev.title,
                chapters=list(prev.chapters), partial=prev.partial)


class _DiskTree:
    """Files on disk, seen through the same four calls as a git tree."""

    def kind(self, path: Path) -> str | None:
        return "dir" if path.is_dir() else "file" if path.is_file() else None

    def yaml_files(self, folder: Path) -> list[Path]:
        return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())

    def read(self, path: Path) -> str:
        try:
            return read_text(path)
        except FileProblem as e:
            raise UserError(f"fichier illisible « {shown(path)} » : {e.message}") from None

    def same(self, a: Path, b: Path) -> bool:
        return a.resolve() == b.resolve()

    def label(self, path: Path) -> str:
        return str(path)


class _GitTree:
    """The files of one git revision, read with `git ls-tree` and `git show`."""

    def __init__(self, repo: Path, rev: str):
        self.repo, self.rev = repo, rev
        if self._git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False) is None:
            raise UserError(f"la révision git « {rev} » n'existe pas dans {repo}")

    def _git(self, *args: str, check: bool = True) -> str | None:
        try:
            proc = subprocess.run(["git", "-C", str(self.repo), *args], capture_output=True, check=False)
        except OSError:
            raise UserError("git est introuvable : installez git pour comparer des révisions git:") from None
        if proc.returncode != 0:
            if check:
                msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
                raise UserError(f"git {' '.join(args)} a échoué : {msg[0] if msg else proc.returncode}")
            return None
        return proc.stdout.decode("utf-8", "replace")

    def kind(self, path: PurePosixPath) -> str | None:
        if str(path) in ("", "."):
            return "dir"
        out = self._git("ls-tree", "-z", self.rev, "--", str(path), check=False)
        for entry in (out or "").split("\0"):
            meta, _, name = entry.partition("\t")
            if name == str(path):
                return "dir" if meta.split()[1] == "tree" else "file"
        return None

    def yaml_files(self, folder: PurePosixPath) -> list[PurePosixPath]:
        out = self._git("ls-tree", "-z", self.rev, "--", f"{folder}/") or ""
        files = []
        for entry in out.split("\0"):
            meta, _, name = entry.partition("\t")
            if name and meta.split()[1] == "blob" and name.endswith((".yaml", ".yml")):
                files.append(PurePosixPath(name))
        return sorted(files)

    def read(self, path: PurePosixPath) -> str:
        return self._git("show", f"{self.rev}:{path}") or ""

    def same(self, a: PurePosixPath, b: PurePosixPath) -> bool:
        return os.path.normpath(str(a)) == os.path.normpath(str(b))

    def label(self, path: PurePosixPath) -> str:
        return f"git:{self.rev}:{path}"


def _git_toplevel(kb) -> Path:
    """The git repository holding the knowledge base (or the current folder)."""
    base = Path(kb.root) if getattr(kb, "root", "") else Path.cwd()
    try:
        proc = subprocess.run(["git", "-C", str(base), "rev-parse", "--show-toplevel"],
                              capture_output=True, check=False)
    except OSError:
        raise UserError("git est introuvable : installez git pour comparer des révisions git:") from None
    if proc.returncode != 0:
        raise UserError(f"« {base} » n'est pas dans un dépôt git ; impossible de lire une révision git:")
    return Path(proc.stdout.decode().strip())


def _side_from_tree(tree, path, spec: str, kb) -> Side:
    """Chapters from a chapter file, a folder of chapter files, or a book folder (its current edition)."""
    kind = tree.kind(path)
    if kind is None:
        raise UserError(f"« {spec} » : fichier ou dossier introuvable")
    folder = path if kind == "dir" else path.parent
    book_dir, meta = _find_book(tree, folder)
    rev_meta = None
    if meta is not None:
        revisions = meta.get("revisions") or []
        if kind == "dir" and tree.same(folder, book_dir) and revisions:
            rev_meta = revisions[-1]
            folder = book_dir / rev_meta.get("path", ".")
        else:
            rev_meta = next((r for r in revisions if tree.same(book_dir / r.get("path", "."), folder)), None)
    book_id = str(meta.get("id", "")) if meta else ""
    files = [path] if kind == "file" else tree.yaml_files(folder)
    chapters = []
    for f in files:
        chapter = _parse_chapter(tree.read(f), tree.label(f), book_id, meta or {}, kb)
        if chapter is not None:
            chapters.append(chapter)
    if not chapters:
        raise UserError(f"« {spec} » ne contient aucun chapitre de règles (fichier YAML avec « clauses: »)")
    # one chapter file stands for its chapter only: compare the other side on that chapter
    partial = kind == "file" or bool(rev_meta and rev_meta.get("partial"))
    title = (rev_meta or {}).get("title") or spec
    origin: tuple[str, ...] | tuple[str, Path, str, str]
    if isinstance(tree, _GitTree):
        origin = ("git", tree.repo, tree.rev, str(book_dir)) if meta is not None else ("git-file",)
    else:
        origin = ("disk", str(book_dir)) if meta is not None else ("file",)
    return Side(name=spec, book=book_id, title=title, chapters=chapters, partial=partial, origin=origin)


def _find_book(tree, folder):
    """The nearest `book.yaml` at or above `folder` (at most three levels up), parsed."""
    here = folder
    for _ in range(4):
        candidate = here / "book.yaml"
        if tree.kind(candidate) == "file":
            try:
                meta, _ = parse_yaml(tree.read(candidate))
            except YamlProblem as e:
                where = f"{tree.label(candidate)}:{e.line}" if e.line else tree.label(candidate)
                raise UserError(f"YAML invalide dans {where} : {e.message}") from None
            if isinstance(meta, dict):
                return here, meta
        if here.parent == here or str(here) in ("", "."):
            break
        here = here.parent
    return folder, None


def _parse_chapter(text: str, label: str, book_id: str, meta: dict, kb) -> Chapter | None:
    """A chapter file's clauses, validated by the chapter schema; None for other YAML files."""
    try:
        data, node = parse_yaml(text)
    except YamlProblem as e:
        where = f"{label}:{e.line}" if e.line else label
        raise UserError(f"YAML invalide dans {where} : {e.message}") from None
    if not isinstance(data, dict) or "clauses" not in data:
        return None
    doc = YamlDoc(Path(label), label, data, node)
    problems: list = []
    if kb is not None and kb.root:
        Schemas(Path(kb.root)).validate("chapter", doc, problems)
    if problems:
        raise UserError(f"chapitre invalide : {problems[0]}")
    rev = Revision(id="", title="", path="")
    return build_chapter(doc, {"id": book_id, "labels": meta.get("labels")}, rev, True)


# -- pairing -------------------------------------------------------------------------------

def clause_text(clause: Clause) -> str:
    """What is compared and redlined: the title (if any), then the full verbatim text."""
    return f"{clause.title}\n{clause.full_text}" if clause.title else clause.full_text


def align(old: list[Clause], new: list[Clause]) -> list[tuple[int | None, int | None, float]]:
    """Pairs (old index, new index, similarity); an unpaired clause has None on the other side.

    Same number and same folded text pair at once; the rest pair by an assignment maximising
    similarity plus a same-number bonus, over candidate pairs that share a rare word or a
    number, keeping only pairs above the similarity threshold.
    """
    folded_old = [fold(clause_text(c)) for c in old]
    folded_new = [fold(clause_text(c)) for c in new]
    new_by_id: dict[str, int] = {}
    for j, c in enumerate(new):
        new_by_id.setdefault(c.id, j)
    pairs: list[tuple[int | None, int | None, float]] = []
    used_old, used_new = set(), set()
    for i, c in enumerate(old):
        same_id = new_by_id.get(c.id)
        if same_id is not None and same_id not in used_new and folded_old[i] == folded_new[same_id]:
            pairs.append((i, same_id, 1.0))
            used_old.add(i)
            used_new.add(same_id)
    rest_old = [i for i in range(len(old)) if i not in used_old]
    rest_new = [j for j in range(len(new)) if j not in used_new]

    # words as small integers, so rapidfuzz compares sequences of ints
    vocab: dict[str, int] = {}
    words_old = {i: [vocab.setdefault(w, len(vocab)) for w in words_of(folded_old[i])] for i in rest_old}
    words_new = {j: [vocab.setdefault(w, len(vocab)) for w in words_of(folded_new[j])] for j in rest_new}
    edges: dict[tuple[int, int], float] = {}
    span = max(len(old), len(new), 1)
    for i, j in _candidates(old, new, rest_old, rest_new, words_old, words_new):
        sim = Indel.normalized_similarity(words_old[i], words_new[j])
        if not words_old[i] and not words_new[j]:  # two texts without words (empty clauses)
            sim = 1.0 if folded_old[i] == folded_new[j] else 0.0
        same = old[i].id == new[j].id
        if sim >= (SAME_NUMBER_MIN if same else MOVED_MIN):
            order = 1 - abs(i / span - j / span)  # tie-break: keep the reading order
            edges[(i, j)] = sim + (SAME_NUMBER_BONUS if same else 0.0) + 1e-3 * order
    for i, j in _assign(edges):
        sim = Indel.normalized_similarity(words_old[i], words_new[j]) if (words_old[i] or words_new[j]) else 1.0
        pairs.append((i, j, sim))
        used_old.add(i)
        used_new.add(j)
    pairs += [(i, None, 0.0) for i in rest_old if i not in used_old]
    pairs += [(None, j, 0.0) for j in rest_new if j not in used_new]
    return pairs


def _candidates(old, new, rest_old, rest_new, words_old, words_new):
    """Pairs worth scoring: same number, or sharing one of either clause's rarest words or word pairs."""
    keys_old = {i: _keys(seq) for i, seq in words_old.items()}
    keys_new = {j: _keys(seq) for j, seq in words_new.items()}
    df: dict = defaultdict(int)
    for keys in (*keys_old.values(), *keys_new.values()):
        for w in keys:
            df[w] += 1

    def rare(keys):
        useful = [w for w in keys if 2 <= df[w] <= MAX_DOC_FREQ]
        return sorted(useful, key=lambda w: (df[w], w))[:RARE_WORDS]

    def postings(keyed):
        index = defaultdict(list)
        for k, keys in keyed.items():
            for w in keys:
                if 2 <= df[w] <= MAX_DOC_FREQ:
                    index[w].append(k)
        return index

    post_old, post_new = postings(keys_old), postings(keys_new)
    found: set[tuple[int, int]] = set()
    for i in rest_old:
        for w in rare(keys_old[i]):
            found.update((i, j) for j in post_new.get(w, ()))
    for j in rest_new:
        for w in rare(keys_new[j]):
            found.update((i, j) for i in post_old.get(w, ()))
    new_ids = {new[j].id: j for j in rest_new}
    for i in rest_old:
        j = new_ids.get(old[i].id)
        if j is not None:
            found.add((i, j))
    return sorted(found)


def _keys(seq: list[int]) -> set:
    """Blocking keys of a clause: its words and its pairs of consecutive words (rarer)."""
    return set(seq) | {((a + 1) << 32) | b for a, b in zip(seq, seq[1:])}


def _assign(edges: dict[tuple[int, int], float]) -> list[tuple[int, int]]:
    """A matching of maximum total score: exact per small component, greedy in large ones."""
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in edges:
        parent[find(("o", i))] = find(("n", j))
    components: dict = defaultdict(list)
    for (i, j), score in edges.items():
        components[find(("o", i))].append((i, j, score))
    matched = []
    for comp in components.values():
        olds = sorted({i for i, _, _ in comp})
        news = sorted({j for _, j, _ in comp})
        if len(comp) == 1:
            matched.append(comp[0][:2])
        elif max(len(olds), len(news)) <= EXACT_MAX:
            matched += _hungarian(olds, news, comp)
        else:
            matched += _greedy(comp)
    return matched


def _greedy(comp):
    taken_old, taken_new, out = set(), set(), []
    for i, j, _ in sorted(comp, key=lambda e: (-e[2], e[0], e[1])):
        if i not in taken_old and j not in taken_new:
            taken_old.add(i)
            taken_new.add(j)
            out.append((i, j))
    return out


def _hungarian(olds, news, comp):
    """Maximum-weight bipartite matching on a small dense matrix (Kuhn–Munkres, O(n³))."""
    n = max(len(olds), len(news))
    row = {i: r for r, i in enumerate(olds)}
    col = {j: c for c, j in enumerate(news)}
    cost = [[0.0] * n for _ in range(n)]  # missing edge: leaving both unpaired costs nothing
    for i, j, score in comp:
        cost[row[i]][col[j]] = -score
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    p, way = [0] * (n + 1), [0] * (n + 1)
    for r in range(1, n + 1):
        p[0], c0 = r, 0
        minv, done = [inf] * (n + 1), [False] * (n + 1)
        while True:
            done[c0] = True
            r0, delta, c1 = p[c0], inf, 0
            for c in range(1, n + 1):
                if not done[c]:
                    cur = cost[r0 - 1][c - 1] - u[r0] - v[c]
                    if cur < minv[c]:
                        minv[c], way[c] = cur, c0
                    if minv[c] < delta:
                        delta, c1 = minv[c], c
            for c in range(n + 1):
                if done[c]:
                    u[p[c]] += delta
                    v[c] -= delta
                else:
                    minv[c] -= delta
            c0 = c1
            if p[c0] == 0:
                break
        while c0:
            c1 = way[c0]
            p[c0] = p[c1]
            c0 = c1
    out = []
    for c in range(1, n + 1):
        r = p[c]
        if r and r - 1 < len(olds) and c - 1 < len(news) and cost[r - 1][c - 1] < 0:
            out.append((olds[r - 1], news[c - 1]))
    return out


# -- the result ----------------------------------------------------------------------------

@dataclass
class Change:
    """One clause of either edition, with its status and its redline."""

    status: str
    old: Clause | None
    new: Clause | None
    similarity: float
    words: list[dict]

    @property
    def text_changed(self) -> bool:
        """Whether the text differs beyond typography (for a renumbered clause)."""
        if self.old is None or self.new is None:
            return True
        return fold(clause_text(self.old)) != fold(clause_text(self.new))

    @property
    def typography_only(self) -> bool:
        """Same folded text but different characters (apostrophes, spaces, case, accents)."""
        return (self.old is not None and self.new is not None and not self.text_changed
                and clause_text(self.old) != clause_text(self.new))

    def to_json(self) -> dict:
        data = {
            "status": self.status,
            "old": self.old.citation if self.old else None,
            "new": self.new.citation if self.new else None,
            "similarity": round(self.similarity, 3),
            "words": self.words,
        }
        if self.status == "renumbered":
            data["text_changed"] = self.text_changed
        return data


@dataclass
class DiffResult:
    """Every change between two sides, in reading order, with what the changes affect."""

    old: Side
    new: Side
    changes: list[Change]
    scope: list[str] | None = None  # compared chapters when a side is partial
    impact: dict = field(default_factory=lambda: {"procedures": [], "refs": []})
    rulings: list | None = None

    @property
    def book(self) -> str:
        return self.new.book or self.old.book

    @property
    def partial(self) -> bool:
        return self.scope is not None

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for ch in self.changes:
            out[ch.status] += 1
        return out

    def to_json(self) -> dict:
        data = {
            "old": self.old.name,
            "new": self.new.name,
            "book": self.book,
            "partial": self.partial,
            "chapters": self.scope,
            "counts": self.counts(),
            "changes": [c.to_json() for c in self.changes],
            "impact": self.impact,
        }
        if self.rulings is not None:
            data["rulings"] = self.rulings
        return data


def diff(old_side, new_side, kb=None) -> DiffResult:
    """Compare two editions; a side is a `Side` or a spec string; `old_side=None` means the previous revision."""
    if kb is None:
        kb = load_kb()
    if old_side is None:
        if not isinstance(new_side, str):
            raise UserError("sans ancien côté, le nouveau doit être un livre (club) ou une révision (club@v2)")
        old_side = previous_side(new_side, kb)
    old = old_side if isinstance(old_side, Side) else resolve_side(old_side, kb)
    new = new_side if isinstance(new_side, Side) else resolve_side(new_side, kb)
    if old.book and new.book and old.book != new.book:
        raise UserError(f"les deux côtés ne sont pas le même livre : {old.book} ({old.name}) "
                        f"et {new.book} ({new.name}) ; comparez deux éditions d'un même livre")
    old.book = old.book or new.book
    new.book = new.book or old.book
    return diff_sides(old, new, kb)


def diff_sides(old: Side, new: Side, kb=None) -> DiffResult:
    """The changes between two resolved sides (partial sides compare on their common chapters)."""
    scope = None
    if old.partial or new.partial:
        known = [{ch.id for ch in s.chapters} for s in (old, new) if s.partial]
        common = set.intersection(*known)
        order = [ch.id for ch in (new.chapters if new.partial else old.chapters)]
        scope = [c for c in order if c in common]
    scope_set = set(scope) if scope is not None else None
    old_clauses, new_clauses = old.clauses(scope_set), new.clauses(scope_set)
    changes = [_change(old_clauses[i] if i is not None else None, new_clauses[j] if j is not None else None, sim)
               for i, j, sim in align(old_clauses, new_clauses)]
    result = DiffResult(old=old, new=new, changes=_reading_order(changes, old_clauses, new_clauses), scope=scope)
    result.impact = impact(result, kb)
    return result


def _change(old: Clause | None, new: Clause | None, similarity: float) -> Change:
    if old is None or new is None:
        if new is not None:
            return Change("added", None, new, 0.0, whole("insert", clause_text(new)))
        if old is not None:
            return Change("removed", old, None, 0.0, whole("delete", clause_text(old)))
        raise ValueError("a change has a clause on one side at least")
    a, b = clause_text(old), clause_text(new)
    words = word_diff(a, b) if a != b else [{"op": "equal", "text": b}] if b else []
    same_folded = a == b or fold(a) == fold(b)
    if old.id != new.id:
        status = "renumbered"
    elif a == b:
        status = "unchanged"
    elif same_folded:
        status = "typography"
    else:
        status = "modified"
    return Change(status, old, new, 1.0 if same_folded else similarity, words)


def _reading_order(changes: list[Change], old: list[Clause], new: list[Clause]) -> list[Change]:
    """New edition's order; a removed clause comes right after its old predecessor's place."""
    old_pos = {id(c): k for k, c in enumerate(old)}
    new_pos = {id(c): k for k, c in enumerate(new)}
    paired = sorted((ch for ch in changes if ch.new is not None), key=lambda ch: new_pos[id(ch.new)])
    removed = sorted((ch for ch in changes if ch.new is None), key=lambda ch: old_pos[id(ch.old)])
    out, r = [], 0
    for ch in paired:
        if ch.old is not None:
            while r < len(removed) and old_pos[id(removed[r].old)] < old_pos[id(ch.old)]:
                out.append(removed[r])
                r += 1
        out.append(ch)
    return out + removed[r:]


# -- impact --------------------------------------------------------------------------------

def impact(result: DiffResult, kb) -> dict:
    """Procedures citing a changed, renumbered or removed clause; refs pointing at a moved number."""
    book = result.book
    by_old: dict[str, Change] = {}
    by_new: dict[str, Change] = {}
    for ch in result.changes:
        if ch.status in ("modified", "renumbered", "removed"):
            if ch.old is not None:
                by_old[ch.old.id] = ch
            if ch.new is not None:
                by_new[ch.new.id] = ch
    procedures = []
    for proc in getattr(kb, "procedures", None) or []:
        for citation in sorted(set(proc.cited_citations())):
            m = CITATION_RE.match(citation.split("#")[0])
            if not m or m.group("rev") or (m.group("book") or getattr(proc, "book", book)) != book:
                continue
            cid = m.group("id")
            for reason, ch in _why(cid, by_old, by_new):
                procedures.append({"procedure": proc.id, "book": getattr(proc, "book", book),
                                   "citation": citation, "status": ch.status,
                                   "old": ch.old.citation if ch.old else None,
                                   "new": ch.new.citation if ch.new else None, "message": reason})
    refs = []
    moved = {ch.old.id: ch for ch in result.changes
             if ch.status in ("renumbered", "removed") and ch.old is not None}
    for clause in result.new.clauses():
        for ref in clause.refs:
            move = moved.get(ref)
            if move is None or ":" in ref:
                continue
            if move.new is None:  # removed
                msg = f"{clause.id} renvoie à {ref}, supprimée de cette édition ; renvoi à vérifier"
            else:
                msg = f"{clause.id} renvoie à {ref}, devenue {move.new.id} ; renvoi à vérifier"
            refs.append({"clause": clause.citation, "ref": ref, "status": move.status,
                         "now": move.new.id if move.new is not None else None, "message": msg})
    return {"procedures": procedures, "refs": refs}


def _why(cid: str, by_old: dict, by_new: dict):
    """Why a procedure citing clause number `cid` is affected, one reason per change involved."""
    seen = set()
    ch = by_new.get(cid)
    if ch is not None:
        seen.add(id(ch))
        if ch.status == "modified":
            yield f"le texte de {cid} a changé", ch
        else:
            text = "texte modifié" if ch.text_changed else "texte inchangé"
            yield f"{cid} est l'ancienne {ch.old.id}, renumérotée ({text})", ch
    ch = by_old.get(cid)
    if ch is not None and id(ch) not in seen:
        if ch.status == "removed":
            yield f"l'ancienne {cid} a été supprimée", ch
        elif ch.status == "renumbered":
            yield f"l'ancienne {cid} est devenue {ch.new.id}", ch


# -- rulings -------------------------------------------------------------------------------

def replay_rulings(result: DiffResult, kb) -> list[dict]:
    """Replay the old side's scenario files on the new side; list the rulings that change.

    A ruling changes when its outcome or its citations differ from the scenario file, when it
    no longer decides, or when a clause it cites changed between the two sides (its text, its
    number, or it did not exist in the old edition).
    """
    book = result.book
    scenarios = _scenario_files(result.old, book, kb)
    new_kb, current = _decision_kb(result.new, kb)
    by_new_id = {ch.new.id: ch for ch in result.changes
                 if ch.new is not None and ch.status in ("modified", "renumbered", "added")}
    out = []
    for label, data in scenarios:
        if not isinstance(data, dict) or data.get("book") != book:
            continue
        proc_id = data["procedure"]  # valid against the scenarios schema
        for sc in data.get("scenarios") or []:
            entry = {"book": book, "procedure": proc_id, "scenario": sc.get("name", ""), "file": label,
                     "outcome_old": sc.get("outcome"), "outcome_new": None,
                     "cites_old": sorted(sc.get("cites") or []), "cites_new": [], "changed_clauses": []}
            reasons = []
            try:
                decision = decide(new_kb, book, proc_id, sc.get("answers") or {})
            except UserError as e:
                entry["message"] = f"ne se décide plus : {str(e)[:1].lower()}{str(e)[1:]}"
                out.append(entry)
                continue
            if not decision.decided:
                missing = ", ".join(q.id for q in decision.missing)
                entry["message"] = f"ne se décide plus : il manque {missing}"
                out.append(entry)
                continue
            entry["outcome_new"] = decision.outcome
            entry["cites_new"] = sorted(c.citation for c in decision.citations)
            if decision.outcome != entry["outcome_old"]:
                reasons.append(f"issue {entry['outcome_old']} → {decision.outcome}")
            if "cites" in sc and entry["cites_new"] != entry["cites_old"]:
                reasons.append(f"cite {', '.join(entry['cites_new'])} au lieu de {', '.join(entry['cites_old'])}")
            if current:
                for clause in decision.citations:
                    ch = by_new_id.get(clause.id) if clause.book == book else None
                    if ch is None:
                        continue
                    entry["changed_clauses"].append({"citation": clause.citation, "status": ch.status,
                                                     "old": ch.old.citation if ch.old else None})
                    if ch.status == "modified":
                        reasons.append(f"le texte de {clause.id} a changé")
                    elif ch.status == "renumbered" and ch.old is not None:
                        text = ", texte modifié" if ch.text_changed else ""
                        reasons.append(f"{clause.id} était {ch.old.id}{text}")
                    else:
                        reasons.append(f"{clause.id} n'existait pas dans l'ancienne édition")
            if reasons:
                entry["message"] = " ; ".join(reasons)
                out.append(entry)
    return out


def _scenario_files(side: Side, book: str, kb) -> list[tuple[str, object]]:
    """The scenario files of the old side: at its git revision, else those of the loaded base."""
    def parsed(label: str, text: str):
        """The file's data, valid against the scenarios schema of the loaded base (an old revision's
        file is read like any file of the base), or a French error."""
        try:
            data, node = parse_yaml(text)
        except YamlProblem as e:
            raise UserError(f"YAML invalide dans {label}:{e.line} : {e.message}") from None
        problems: list = []
        Schemas(Path(kb.root)).validate("scenarios", YamlDoc(Path(label), label, data, node), problems)
        if problems:
            raise UserError(f"scénario invalide : {problems[0]} ; attendu le format de docs/PROCEDURES.md")
        return data

    if side.origin[0] == "git":
        _, repo, rev, book_dir = side.origin
        tree = _GitTree(repo, rev)
        folder = PurePosixPath(book_dir) / "scenarios"
        if tree.kind(folder) != "dir":
            raise UserError(f"aucun scénario pour {book} dans git:{rev}:{folder}")
        return [(tree.label(f), parsed(tree.label(f), tree.read(f))) for f in tree.yaml_files(folder)]
    files, problems = read_scenario_files(Path(kb.root), [book])
    if problems:
        raise UserError(f"scénario invalide : {problems[0]} ; lancez « ruling test --book {book} »")
    if not files:
        raise UserError(f"aucun scénario pour {book} : le dossier « {scenario_folder(kb.root, book)} » "
                        "est vide ou absent (un fichier YAML par procédure, voir docs/PROCEDURES.md)")
    return [(f.display, {"book": f.book, "procedure": f.procedure, "scenarios": f.scenarios}) for f in files]


def _decision_kb(side: Side, kb):
    """The knowledge base the new side belongs to, and whether the side is its book's current edition."""
    kind = side.origin[0]
    if kind == "kb":
        book = kb.book(side.book)
        return kb, side.name == f"{book.id}@{book.current.id}"
    if kind == "disk":
        root = Path(side.origin[1]).parent
        same = Path(kb.root).resolve() == root.resolve() if kb.root else False
        return (kb if same else load_kb(root)), True
    if kind == "git":
        import tempfile  # a git side only

        _, repo, rev, book_dir = side.origin
        folder = PurePosixPath(book_dir).parent
        with tempfile.TemporaryDirectory(prefix="ruling-diff-") as tmp:
            _extract(repo, rev, folder, Path(tmp))
            return load_kb(Path(tmp) / folder), True
    return kb, False  # a loose chapter file: the loaded base decides, its clause numbers may differ


def _extract(repo: Path, rev: str, folder: PurePosixPath, dest: Path) -> None:
    """Write the files of `folder` at git revision `rev` under `dest` (same relative paths)."""
    import tarfile  # a git side only: the one module that reads archives

    proc = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev, "--", str(folder)],
                          capture_output=True, check=False)
    if proc.returncode != 0:
        raise UserError(f"impossible d'extraire {folder} de la révision git {rev}")
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        tar.extractall(dest, filter="data")
