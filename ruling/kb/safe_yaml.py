"""The one way `ruling` reads YAML: plain data only, bounded, duplicate keys refused, French errors.

Every YAML text (chapters, book.yaml, procedures, answers and profile files, diff sides)
goes through `parse_yaml`. It composes the node tree from libyaml's events itself, so it
can refuse, before anything is built: a key written twice in a mapping (the last one would
win silently), nesting deeper than `MAX_DEPTH`, and aliases expanding to more than
`MAX_ALIAS_NODES` nodes (a "billion laughs" would hang whatever walks the data). Only the
safe constructor is used: no tag can create a Python object.
"""
from __future__ import annotations

from typing import Any, cast

import yaml
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ruling.kb.files import FileProblem, read_text

MAX_DEPTH = 64  # the rulebook nests 6 deep; an answers file 2
MAX_ALIAS_NODES = 5000  # nodes reached through aliases, counted as expanded
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available


class YamlProblem(Exception):
    """A YAML text `ruling` will not read: `message` in French, `line` 1-based (0 if unknown)."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.message = message
        self.line = line


def parse_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """One YAML document as plain data, and its node tree (for line numbers); raises YamlProblem."""
    loader = _Loader(text)
    try:
        node = _compose(loader)
        return (loader.construct_document(node) if node is not None else None), node
    except yaml.YAMLError as e:
        raise YamlProblem(_french_error(e, text), _line(e)) from None
    except RecursionError:
        raise YamlProblem(f"imbrication trop profonde ; au plus {MAX_DEPTH} niveaux") from None
    finally:
        loader.dispose()


def read_yaml_file(path, max_bytes: int | None = None) -> tuple[Any, yaml.Node | None]:
    """`parse_yaml` of a regular UTF-8 file; raises FileProblem or YamlProblem."""
    text = read_text(path) if max_bytes is None else read_text(path, max_bytes)
    return parse_yaml(text)


def _line(err) -> int:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    return mark.line + 1 if mark else 0


def _compose(loader):
    """The document's node tree, built iteratively from the parser's events (no recursion)."""
    loader.get_event()  # stream start
    if loader.check_event(StreamEndEvent):
        loader.get_event()
        return None
    loader.get_event()  # document start
    anchors: dict[str, object] = {}
    sizes: dict[int, int] = {}  # id(node) -> nodes it stands for, expanded
    aliased = 0
    stack: list[list] = []  # [collection node, its size, pending key node, keys seen: value -> line]
    root = None
    while True:
        event = loader.get_event()
        start, end = _marks(event)
        if isinstance(event, (SequenceEndEvent, MappingEndEvent)):
            node, size, _, _ = stack.pop()
            node.end_mark = event.end_mark
            sizes[id(node)] = size
            if stack:
                stack[-1][1] += size
            else:
                root = node
            continue
        elif isinstance(event, AliasEvent):
            node = anchors.get(event.anchor or "")
            if node is None:
                raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor}", start)
            if id(node) not in sizes:
                raise _Limit("alias récursif (une structure qui se contient elle-même)", event.start_mark)
            aliased += sizes[id(node)]
            if aliased > MAX_ALIAS_NODES:
                raise _Limit(f"alias trop nombreux : ils dépliraient plus de {MAX_ALIAS_NODES} nœuds "
                             "(bombe d'alias ?) ; écrivez les valeurs sans alias", event.start_mark)
        elif isinstance(event, ScalarEvent):
            tag = event.tag
            if tag is None or tag == "!":
                tag = loader.resolve(ScalarNode, event.value, event.implicit)
            node = ScalarNode(tag, event.value, start, end, style=event.style)
            sizes[id(node)] = 1
            _anchor(anchors, event, node)
        elif isinstance(event, (SequenceStartEvent, MappingStartEvent)):
            kind = SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
            tag = event.tag
            if tag is None or tag == "!":
                tag = loader.resolve(kind, None, event.implicit)
            node = kind(tag, [], start, None, flow_style=event.flow_style)
            _anchor(anchors, event, node)
            _attach(stack, node, event)
            if len(stack) >= MAX_DEPTH:
                raise _Limit(f"imbrication trop profonde ; au plus {MAX_DEPTH} niveaux", event.start_mark)
            stack.append([node, 1, None, {}])
            continue
        elif isinstance(event, DocumentEndEvent):
            break
        else:  # pragma: no cover - the parser emits nothing else inside a document
            raise yaml.composer.ComposerError(None, None, f"unexpected event {event}", event.start_mark)
        if stack:
            _attach(stack, node, event)
            stack[-1][1] += sizes[id(node)]
        else:
            root = node
    if not loader.check_event(StreamEndEvent):
        event = loader.get_event()
        raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                          "but found another document", event.start_mark)
    return root


def _marks(event: yaml.Event) -> tuple[yaml.error.Mark | None, yaml.error.Mark | None]:
    """Where an event starts and ends. libyaml's marks are `yaml._yaml.Mark`, which the stubs do
    not count as `yaml.error.Mark`; they have the same fields (line, column, index)."""
    return cast("yaml.error.Mark | None", event.start_mark), cast("yaml.error.Mark | None", event.end_mark)


def _anchor(anchors: dict, event, node) -> None:
    if event.anchor is not None:
        anchors[event.anchor] = node


def _attach(stack: list, node, event) -> None:
    """Add `node` to the open collection, refusing a mapping key written twice."""
    if not stack:
        return
    top = stack[-1]
    parent = top[0]
    if isinstance(parent, SequenceNode):
        parent.value.append(node)
        return
    if top[2] is None:  # a key
        if isinstance(node, ScalarNode):
            first = top[3].get(node.value)
            if first is not None and node.value != "<<":
                raise _Limit(f"clé « {node.value} » en double dans ce mapping (déjà ligne {first}) ; "
                             "la seconde écraserait la première : gardez-en une seule", node.start_mark)
            top[3][node.value] = node.start_mark.line + 1
        top[2] = node
    else:
        parent.value.append((top[2], node))
        top[2] = None


class _Limit(yaml.YAMLError):
    """A limit of `ruling`'s YAML reader (already in French)."""

    def __init__(self, message: str, mark):
        super().__init__(message)
        self.problem = message
        self.problem_mark = mark


#: libyaml's messages (lower case fragments) in French.
_FRENCH = [
    ("found a tab character", "tabulation dans l'indentation ; YAML s'indente avec des espaces"),
    ("mapping values are not allowed", "« : » inattendu ; une valeur contenant « : » doit être entre guillemets, "
                                      "ou l'indentation est fausse"),
    ("could not find expected ':'", "« : » attendu après la clé"),
    ("did not find expected key", "clé attendue : l'indentation de cette ligne ne correspond à aucun niveau"),
    ("did not find expected node content", "valeur attendue"),
    ("did not find expected '-' indicator", "élément de liste « - » attendu (indentation incohérente)"),
    ("did not find expected ',' or ']'", "liste entre crochets non fermée : « , » ou « ] » attendu"),
    ("did not find expected ',' or '}'", "mapping entre accolades non fermé : « , » ou « } » attendu"),
    ("found unexpected end of stream", "fin de fichier inattendue (guillemet ou crochet non fermé ?)"),
    ("found unknown escape character", "séquence d'échappement inconnue entre guillemets doubles"),
    ("found undefined alias", "alias (*nom) qui ne renvoie à aucune ancre (&nom)"),
    ("found another document", "un seul document attendu (un second « --- » est présent)"),
    ("could not determine a constructor", "étiquette YAML non permise (!!python… ou inconnue) ; "
                                          "seules les données simples sont lues"),
    ("found unhashable key", "clé non permise (une liste ou un mapping ne peut pas être une clé)"),
    ("block sequence entries are not allowed", "élément de liste « - » non permis ici (indentation ?)"),
    ("found undefined tag handle", "préfixe d'étiquette (!x!) non défini"),
    ("control characters are not allowed", "caractère de contrôle non permis"),
    ("special characters are not allowed", "caractère de contrôle non permis"),
    ("found unexpected ':'", "« : » inattendu"),
    ("found character that cannot start any token", "caractère qui ne peut pas commencer une valeur "
                                                    "(« @ », « ` » : mettez la valeur entre guillemets)"),
]


def _french_error(err, text: str) -> str:
    """A French rendering of a YAML error (our own limits are already French)."""
    if isinstance(err, _Limit):
        return err.problem
    problem = str(getattr(err, "problem", None) or str(err).splitlines()[0])
    mark = getattr(err, "problem_mark", None)
    index = getattr(mark, "index", None)
    if index is not None and 0 <= index < len(text) and text[index] == "\t":
        return "tabulation dans l'indentation ; YAML s'indente avec des espaces"
    low = problem.lower()
    for fragment, french in _FRENCH:
        if fragment in low:
            return french
    printable = problem.encode("unicode_escape").decode("ascii")
    return f"syntaxe invalide (libyaml : « {printable} »)"


__all__ = ["FileProblem", "YamlProblem", "parse_yaml", "read_yaml_file", "MAX_DEPTH", "MAX_ALIAS_NODES"]
