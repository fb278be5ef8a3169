"""Reading the knowledge base from `rulebook/`: find it, validate it, cache it.

`load_kb()` is what every command calls. It hashes the YAML files, returns the parsed
knowledge base from the user cache when that hash was seen before, and otherwise parses,
validates (JSON Schema + cross-checks) and caches it. A broken base raises
`KnowledgeBaseError` listing each problem with file and line. A cache hit imports neither
yaml nor jsonschema, and rereads no file whose size and mtime are unchanged.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import KnowledgeBaseError, Problem, UserError, shown
from .model import Book, Chapter, Clause, KnowledgeBase, Revision

CACHE_FORMAT = "5"  # bump when the parsed objects change shape

#: A cross-reference written in a clause: "(cf 2-17)", "cf 2-18", "(cf 2-15 & 2-16)", "(5-2)".
REF_IN_TEXT_RE = re.compile(r"\(cf\s*(\d+-\d+)(?:\s*&\s*(\d+-\d+))?\)|cf\s+(\d+-\d+)|\((\d+-\d+)\)")


def refs_in_text(text: str) -> list[str]:
    """The clause numbers a text refers to, in order of appearance."""
    found: list[str] = []
    for m in REF_IN_TEXT_RE.finditer(text):
        for g in m.groups():
            if g and g not in found:
                found.append(g)
    return found


# -- where the knowledge base is ----------------------------------------------------

def default_root() -> Path:
    """`RULING_KB`, else the `rulebook/` of a checkout, else the one shipped in the package."""
    env = os.environ.get("RULING_KB")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    checkout = here.parent / "rulebook"
    if (checkout / "club" / "book.yaml").is_file():
        return checkout
    return here / "rulebook"


def resolve_root(path: str | os.PathLike | None = None) -> Path:
    root = Path(path) if path else default_root()
    try:
        is_dir = root.is_dir()
    except ValueError:  # a NUL byte in the path
        is_dir = False
    if not is_dir:
        raise UserError(f"base de règles introuvable : « {shown(root)} » n'est pas un dossier ; "
                        "indiquez le dossier rulebook/ avec --kb ou RULING_KB")
    return root


def kb_files(root: Path) -> list[Path]:
    """Every file whose content defines the knowledge base, in a stable order."""
    files = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        files += [Path(folder, n) for n in names if n.endswith((".yaml", ".yml", ".json"))]
    return sorted(files)


def content_digest(root: Path, files: list[Path]) -> str:
    """A hash of the paths and bytes of `files`: the key of every cache built from them."""
    h = hashlib.blake2b(digest_size=16)
    h.update(CACHE_FORMAT.encode())
    for p in files:
        h.update(str(p.relative_to(root)).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def knowledge_digest(root: Path) -> str:
    """`content_digest` of the base at `root`, remembered against the files' sizes and mtimes
    so that an unchanged base is not reread at every start."""
    files = kb_files(root)
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{CACHE_FORMAT}\0{root.resolve()}".encode())
    for p in files:
        st = p.stat()
        h.update(f"\0{p}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    memo = cache_dir() / f"stat-{h.hexdigest()}"
    try:
        digest = memo.read_text(encoding="ascii")
        if re.fullmatch(r"[0-9a-f]{32}", digest):
            return digest
    except (OSError, UnicodeDecodeError):
        pass
    digest = content_digest(root, files)
    _write_atomically(memo, digest.encode("ascii"))
    return digest


# -- the parsed cache ------------------------------------------------------------------

def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ruling"


def _read_cache(path: Path) -> KnowledgeBase | None:
    try:
        with open(path, "rb") as f:
            kb = pickle.load(f)
    except Exception:  # missing, truncated, garbage, or from another version: rebuild
        return None
    return kb if isinstance(kb, KnowledgeBase) else None


def _write_cache(path: Path, kb: KnowledgeBase) -> None:
    _write_atomically(path, pickle.dumps(kb, protocol=pickle.HIGHEST_PROTOCOL))


def _write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file then rename, so no reader ever sees half a cache file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:  # read-only or full cache directory: the knowledge base still works
        try:
            tmp.unlink()
        except OSError:
            pass


def load_kb(path: str | os.PathLike | None = None, use_cache: bool = True) -> KnowledgeBase:
    """Load the knowledge base at `path` (default: the bundled one), or raise."""
    root = resolve_root(path)
    digest = knowledge_digest(root)
    cache_file = cache_dir() / f"kb-{digest}.pickle"
    if use_cache:
        kb = _read_cache(cache_file)
        if kb is not None:
            kb.root = str(root)
            return kb
    kb, problems = parse_kb(root)
    if problems:
        raise KnowledgeBaseError(problems)
    kb.digest = digest
    if use_cache:
        _write_cache(cache_file, kb)
    return kb


# -- parsing -----------------------------------------------------------------------------

@dataclass
class YamlDoc:
    """A parsed YAML file that remembers where each value came from."""

    path: Path
    display: str
    data: object
    node: object  # the yaml node tree

    def line(self, *keys) -> int:
        """The 1-based line of the value at `keys` (dict keys and list indexes)."""
        import yaml

        node = self.node
        for key in keys:
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == key:
                        node = v
                        break
                else:
                    break
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
                node = node.value[key]
            else:
                break
        return node.start_mark.line + 1 if node is not None else 0


def read_yaml(path: Path, base: Path, problems: list[Problem]) -> YamlDoc | None:
    import yaml

    display = str(path.relative_to(base.parent))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        problems.append(Problem(display, 0, f"fichier illisible ({e.__class__.__name__}) ; attendu du YAML en UTF-8"))
        return None
    try:
        data, node = parse_yaml_text(text)
    except yaml.YAMLError as e:
        line, what = yaml_error_location(e)
        problems.append(Problem(display, line, f"YAML invalide : {what}"))
        return None
    return YamlDoc(path, display, data, node)


def parse_yaml_text(text: str) -> tuple[object, object]:
    """One YAML document and its node tree (kept for line numbers); raises yaml.YAMLError."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)  # libyaml when available
    try:
        node = loader.get_single_node()
        return (loader.construct_document(node) if node is not None else None), node
    finally:
        loader.dispose()


def yaml_error_location(err) -> tuple[int, str]:
    """The 1-based line (0 if unknown) and the short description of a YAML syntax error."""
    mark = getattr(err, "problem_mark", None)
    return (mark.line + 1 if mark else 0), (getattr(err, "problem", None) or str(err).splitlines()[0])


@dataclass
class Schemas:
    """The JSON Schemas of `rulebook/schema/`, loaded on demand (jsonschema is slow to import)."""

    root: Path
    _validators: dict = field(default_factory=dict)

    def validate(self, name: str, doc: YamlDoc, problems: list[Problem]) -> bool:
        path = self.root / "schema" / f"{name}.schema.json"
        if name not in self._validators:
            import jsonschema

            try:
                schema = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                problems.append(Problem(str(path.relative_to(self.root.parent)), 0,
                                        f"schéma illisible : {e}"))
                self._validators[name] = None
                return False
            self._validators[name] = jsonschema.Draft202012Validator(schema)
        validator = self._validators[name]
        if validator is None:
            return False
        errors = sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
        for err in errors:
            where = list(err.absolute_path)
            field_name = ".".join(str(k) for k in where) or "(document)"
            problems.append(Problem(doc.display, doc.line(*where), f"{field_name} : {_french(err)}"))
        return not errors


def _french(err) -> str:
    """A short French rendering of a jsonschema error."""
    v = err.validator
    if v == "required":
        missing = [m for m in err.validator_value if isinstance(err.instance, dict) and m not in err.instance]
        return "champ obligatoire manquant : " + ", ".join(missing)
    if v == "type":
        return f"type attendu {err.validator_value}, trouvé {type(err.instance).__name__} ({err.instance!r:.40})"
    if v == "enum":
        return f"valeur « {err.instance} » inconnue ; attendu l'une de : {', '.join(map(str, err.validator_value))}"
    if v == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return "champ inconnu : " + ", ".join(extra) + " ; champs permis : " + ", ".join(err.schema.get("properties", {}))
    if v == "pattern":
        return f"« {err.instance} » ne respecte pas le format {err.validator_value}"
    if v == "minLength":
        return "texte vide"
    if v == "minItems":
        return "liste vide"
    return err.message


def parse_kb(root: Path) -> tuple[KnowledgeBase, list[Problem]]:
    """Parse and validate everything under `root`; never raises on bad content."""
    problems: list[Problem] = []
    schemas = Schemas(root)
    books: list[Book] = []
    seen_books: dict[str, str] = {}
    for book_file in sorted(root.glob("*/book.yaml")):
        doc = read_yaml(book_file, root, problems)
        if doc is None or not schemas.validate("book", doc, problems):
            continue
        book = _build_book(doc, root, schemas, problems)
        if book.id in seen_books:
            problems.append(Problem(doc.display, doc.line("id"),
                                    f"le livre « {book.id} » est déjà défini dans {seen_books[book.id]} ; "
                                    "chaque livre doit avoir un id unique"))
            continue
        seen_books[book.id] = doc.display
        books.append(book)
    if not books and not problems:
        problems.append(Problem(str(root), 0, "aucun livre : attendu des dossiers <livre>/book.yaml"))
    glossary: list = []
    gpath = root / "glossary.yaml"
    if gpath.is_file():
        doc = read_yaml(gpath, root, problems)
        if doc is not None and schemas.validate("glossary", doc, problems):
            glossary = doc.data["terms"]
    clauses_only = KnowledgeBase(books, glossary=glossary, root=str(root))
    _check_refs(clauses_only, problems)
    from .procedures import load_procedures

    procedures, catalogue, parameters = load_procedures(clauses_only, root, schemas, problems)  # cites resolve against the clauses
    kb = KnowledgeBase(books, procedures, glossary, str(root), catalogue=catalogue, parameters=parameters)
    return kb, problems


def _build_book(doc: YamlDoc, root: Path, schemas: Schemas, problems: list[Problem]) -> Book:
    data = doc.data
    book_dir = doc.path.parent
    if data["id"] != book_dir.name:
        problems.append(Problem(doc.display, doc.line("id"),
                                f"l'id « {data['id']} » diffère du nom du dossier « {book_dir.name} »"))
    revisions = []
    for i, r in enumerate(data["revisions"]):
        rev = Revision(id=r["id"], title=r["title"], path=r["path"], source=r.get("source"),
                       partial=r.get("partial", False), note=r.get("note"))
        rev_dir = book_dir / r["path"]
        if not rev_dir.is_dir():
            problems.append(Problem(doc.display, doc.line("revisions", i, "path"),
                                    f"la révision « {rev.id} » désigne le dossier « {r['path']} » qui n'existe pas"))
            continue
        if rev.source and not (book_dir / rev.source).is_file():
            problems.append(Problem(doc.display, doc.line("revisions", i, "source"),
                                    f"le document source « {rev.source} » n'existe pas"))
        current = i == len(data["revisions"]) - 1
        for chapter_file in sorted(rev_dir.glob("*.yaml")):
            if chapter_file.name in ("book.yaml", "context.yaml", "parameters.yaml"):  # not chapters
                continue
            cdoc = read_yaml(chapter_file, root, problems)
            if cdoc is None or not schemas.validate("chapter", cdoc, problems):
                continue
            rev.chapters.append(build_chapter(cdoc, data, rev, current))
        _check_unique_ids(rev, problems)
        revisions.append(rev)
    return Book(id=data["id"], title=data["title"], kind=data["kind"], description=data.get("description", ""),
                source=data["source"], revisions=revisions, labels=data.get("labels", "explicit"),
                note=data.get("note"), dir=str(book_dir))


def build_chapter(doc: YamlDoc, book: dict, rev: Revision, current: bool) -> Chapter:
    """The clauses of one validated chapter file, as objects of `rev`."""
    data = doc.data
    clauses = []
    for i, c in enumerate(data["clauses"]):
        label = c.get("label")
        if label is None and book.get("labels") == "id":
            label = c["id"]
        clauses.append(Clause(
            book=book["id"], revision=rev.id, chapter=str(data["chapter"]), id=str(c["id"]), text=c["text"],
            label=label, title=c.get("title"), items=list(c.get("items", [])), after=c.get("after"),
            refs=[str(r) for r in c.get("refs", [])], kind=c.get("kind", "normative"),
            topics=list(c.get("topics", [])), note=c.get("note"), procedure=c.get("procedure"),
            file=doc.display, line=doc.line("clauses", i), current=current,
        ))
    return Chapter(id=str(data["chapter"]), title=data.get("title"), clauses=clauses,
                   note=data.get("note"), file=doc.display)


def _check_unique_ids(rev: Revision, problems: list[Problem]) -> None:
    seen: dict[str, Clause] = {}
    for c in rev.clauses():
        if c.id in seen:
            first = seen[c.id]
            problems.append(Problem(c.file, c.line, f"id « {c.id} » en double (déjà utilisé en {first.file}:{first.line})"))
        else:
            seen[c.id] = c
        if not c.full_text.strip() and not c.note:
            problems.append(Problem(c.file, c.line, f"la règle « {c.id} » est vide sans note qui l'explique"))


def _check_refs(kb: KnowledgeBase, problems: list[Problem]) -> None:
    for book in kb.books:
        for rev in book.revisions:
            ids = {c.id for c in rev.clauses()}
            for c in rev.clauses():
                for ref in c.refs:
                    target = c.ref_citation(ref)
                    if ref not in ids and kb.find(target) is None:
                        problems.append(Problem(c.file, c.line, f"ref « {ref} » de la règle {c.id} n'existe pas"))
                for ref in refs_in_text(c.full_text):
                    if ref not in c.refs:
                        problems.append(Problem(c.file, c.line,
                                                f"la règle {c.id} renvoie à « {ref} » dans son texte, absent de refs"))
