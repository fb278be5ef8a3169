"""The files of a base as read at one moment, and the YAML read from them with its lines.

`take_snapshot` walks a base once (regular files only, bounded, hidden and editor files skipped,
symlinked folders followed once) and hashes what it read: every parse and every cache works
from those bytes. `read_yaml` and `read_optional` give a file of the snapshot as a `YamlDoc`
that knows the line of each value. The loader of the base (`ruling.kb.load`) and the loaders
of the procedures, calculators and scenarios (`ruling.decide.loading`, `ruling.decide.scenarios`)
read through here, so none of them imports the other.
"""
from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruling.errors import Problem
from ruling.kb.files import FileProblem, decode_utf8, read_regular

try:  # hashlib's own blake2b, without hashlib loading OpenSSL (`_hashlib`, 4-5 ms of every search)
    from _blake2 import blake2b
except ImportError:  # a Python built without it: hashlib finds one
    from hashlib import blake2b

if TYPE_CHECKING:
    import yaml

CACHE_FORMAT = "8"  # bump when the parsed objects or the snapshot change shape
KB_SUFFIXES = (".yaml", ".yml", ".json")
MAX_BASE_FILES = 20_000  # a federation of 20 books x 500 clauses holds ~600 files
MAX_BASE_BYTES = 256 * 2**20
MAX_FOLDER_DEPTH = 6  # <base>/<book>/revisions/<rev>/ is 3 deep


# -- the files of the base, read once -------------------------------------------------------

def ignored_name(name: str) -> bool:
    """Hidden files and folders, editor lock and backup files (`.#09-x.yaml`, `#x#`, `x~`)."""
    return name.startswith((".", "#")) or name.endswith(("~", ".swp", ".tmp", ".bak"))


class Snapshot:
    """Every file of a base as read at one moment: parsing reads only these bytes, and
    `digest` hashes exactly them (with the names of every folder and other file).

    A plain class, as `YamlDoc` below: `ruling search` hashes the base through here, and
    `dataclasses` would import `inspect` into it (11-14 ms)."""

    __slots__ = ("root", "files", "dirs", "others", "problems", "digest")

    def __init__(self, root: Path, files: dict[str, bytes | FileProblem], dirs: set[str], others: set[str],
                 problems: list[Problem], digest: str = ""):
        self.root = root
        self.files = files  # posix path relative to root -> bytes, or why unreadable
        self.dirs = dirs
        self.others = others  # files that are not YAML/JSON (source.txt…): only their names count
        self.problems = problems
        self.digest = digest

    def display(self, rel: str) -> str:
        """How a problem names the file: `rulebook/club/09-x.yaml`."""
        return f"{self.root.name}/{rel}" if rel else self.root.name

    def children(self, folder: str, suffix: str = ".yaml") -> list[str]:
        """The files directly in `folder` ("" for the root) whose name ends with `suffix`, sorted."""
        return sorted(rel for rel in self.files
                      if posixpath.dirname(rel) == folder and rel.endswith(suffix))

    def kind(self, rel: str) -> str | None:
        if rel in self.files or rel in self.others:
            return "file"
        if rel in self.dirs:
            return "dir"
        return None


def take_snapshot(root: Path) -> Snapshot:
    """Read the base under `root` (walk, read, hash); problems are collected, never raised."""
    files: dict[str, bytes | FileProblem] = {}
    dirs: set[str] = {""}
    others: set[str] = set()
    problems: list[Problem] = []
    snap = Snapshot(root, files, dirs, others, problems)
    total = 0
    seen_real = {os.path.realpath(root)}
    pending = [("", str(root), 0)]
    while pending:
        rel, folder, depth = pending.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            problems.append(Problem(snap.display(rel), 0, f"dossier illisible ({_reason(e)}) ; "
                                                          "rendez-le lisible (chmod u+rx)"))
            continue
        for entry in entries:
            name = entry.name
            if ignored_name(name):
                continue
            child = f"{rel}/{name}" if rel else name
            try:
                is_dir = entry.is_dir()  # follows symlinks; False for a dangling one or a loop
            except OSError:
                is_dir = False
            if is_dir and name.endswith(KB_SUFFIXES):
                files[child] = FileProblem("c'est un dossier ; attendu un fichier")
            elif is_dir:
                real = os.path.realpath(entry.path)
                if real in seen_real:
                    problems.append(Problem(snap.display(child), 0, "dossier déjà lu par un autre chemin "
                                                                    "(boucle de liens symboliques ?) ; ignoré"))
                    continue
                seen_real.add(real)
                if depth + 1 <= MAX_FOLDER_DEPTH:
                    dirs.add(child)
                    pending.append((child, entry.path, depth + 1))
            elif name.endswith(KB_SUFFIXES):
                if len(files) >= MAX_BASE_FILES or total > MAX_BASE_BYTES:
                    problems.append(Problem(snap.display(rel), 0, f"base trop grande (plus de {MAX_BASE_FILES} "
                                                                  f"fichiers ou de {MAX_BASE_BYTES >> 20} Mo) ; "
                                                                  "est-ce bien le dossier rulebook/ ?"))
                    pending.clear()
                    break
                data: bytes | FileProblem
                try:
                    data = read_regular(entry.path)
                    total += len(data)
                except FileProblem as e:
                    data = e
                files[child] = data
            else:
                others.add(child)
    snap.digest = _digest(snap)
    return snap


def _reason(err: OSError) -> str:
    return os.strerror(err.errno) if err.errno else err.__class__.__name__


def _digest(snap: Snapshot) -> str:
    """A hash of the names and bytes of a snapshot: the key of every cache built from it."""
    h = blake2b(digest_size=16)
    h.update(f"{CACHE_FORMAT}\0{snap.root.name}\0".encode("utf-8", "surrogateescape"))
    for rel in sorted(snap.files):
        data = snap.files[rel]
        h.update(b"f\0" + rel.encode("utf-8", "surrogateescape") + b"\0")
        h.update(data if isinstance(data, bytes) else b"\1" + data.message.encode())
        h.update(b"\0")
    for rel in sorted(snap.dirs):
        h.update(b"d\0" + rel.encode("utf-8", "surrogateescape") + b"\0")
    for rel in sorted(snap.others):
        h.update(b"o\0" + rel.encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()


# -- YAML with its lines ---------------------------------------------------------------------

class YamlDoc:
    """A parsed YAML file that remembers where each value came from."""

    __slots__ = ("path", "display", "data", "node")

    def __init__(self, path: Path, display: str, data: Any, node: yaml.Node | None):
        self.path = path
        self.display = display
        self.data = data  # as parsed, and valid against its schema once `Schemas.validate` said so
        self.node = node  # the node tree the lines come from

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


def read_optional(snap: Snapshot, rel: str, schema: str, schemas, problems: list[Problem]) -> YamlDoc | None:
    """The YAML file `rel` if the base has one, parsed and valid against `schema`; else None
    (a problem is recorded when it exists but cannot be read or is invalid)."""
    if snap.kind(rel) is None:
        return None
    doc = read_yaml(snap, rel, problems)
    if doc is None or not schemas.validate(schema, doc, problems):
        return None
    return doc


def read_yaml(snap: Snapshot, rel: str, problems: list[Problem]) -> YamlDoc | None:
    """The YAML file `rel` of the snapshot, parsed; None (and a problem) if it cannot be."""
    from ruling.kb.safe_yaml import YamlProblem, parse_yaml

    display = snap.display(rel)
    data = snap.files.get(rel)
    try:
        if data is None:
            raise FileProblem("fichier absent")
        if isinstance(data, FileProblem):
            raise data
        text = decode_utf8(data)
    except FileProblem as e:
        problems.append(Problem(display, e.line, f"fichier illisible : {e.message}"))
        return None
    try:
        value, node = parse_yaml(text)
    except YamlProblem as e:
        problems.append(Problem(display, e.line, f"YAML invalide : {e.message}"))
        return None
    return YamlDoc(snap.root / rel, display, value, node)


def already_defined(seen: dict[str, str], key: str, doc: YamlDoc, where: str, message: str,
                    problems: list[Problem]) -> bool:
    """Whether `key` (a book, chapter or procedure id) was defined by an earlier file: then a
    problem « `message` dans <that file> » is recorded at `where` of `doc`; else `doc` is remembered."""
    if key in seen:
        problems.append(Problem(doc.display, doc.line(where), message.replace("{first}", seen[key])))
        return True
    seen[key] = doc.display
    return False
