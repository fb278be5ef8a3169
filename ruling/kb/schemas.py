"""The JSON Schemas of `rulebook/schema/`: checked before use, never fetched, errors in French.

A schema file is data a rule editor can break: one that is not a valid schema (`{"type": 5}`,
a bad regex) or that points at a remote `$ref` becomes a problem of the base, never a
traceback or a network request. Patterns keep JSON Schema's (ECMA-262) meaning: `$` is the
end of the text, so `"9-99\n"` does not pass `^...$` as it would with Python's `re`.
jsonschema is imported only when a file is validated (it is slow to import).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ruling.errors import Problem, shown
from ruling.kb.files import FileProblem, decode_utf8, read_regular

if TYPE_CHECKING:
    from ruling.kb.load import Snapshot

_DOLLAR_RE = re.compile(r"(?<!\\)\$")
_compiled: dict[str, re.Pattern] = {}


def ecma_pattern(pattern: str) -> re.Pattern:
    """`pattern` compiled with `$` meaning the very end of the text (as in JSON Schema)."""
    rx = _compiled.get(pattern)
    if rx is None:
        rx = _compiled[pattern] = re.compile(_DOLLAR_RE.sub(r"\\Z", pattern))
    return rx


@lru_cache(maxsize=1)
def _validator_class():
    import jsonschema
    from jsonschema import ValidationError, validators

    def pattern(validator, patrn, instance, schema):
        if validator.is_type(instance, "string") and not ecma_pattern(patrn).search(instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    return validators.extend(jsonschema.Draft202012Validator, {"pattern": pattern})


def inlined_refs(schema):
    """`schema` with each `{"$ref": "#/$defs/name"}` replaced by what it points to, except inside
    itself (a recursive definition keeps its `$ref`): the same verdicts, found without jsonschema's
    reference resolution, a fifth of validating the procedures (the first search after install)."""
    defs = schema.get("$defs") if isinstance(schema, dict) else None
    if not isinstance(defs, dict):
        return schema

    def walk(node, expanding: tuple[str, ...]):
        if isinstance(node, list):
            return [walk(item, expanding) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if len(node) == 1 and isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref[len("#/$defs/"):]
            if name in defs and "/" not in name and "~" not in name and name not in expanding:
                return walk(defs[name], (*expanding, name))
            return node
        return {key: value if key == "$defs" else walk(value, expanding) for key, value in node.items()}

    return walk(schema, ())


def remote_refs(schema) -> list[str]:
    """Every `$ref`/`$dynamicRef` of `schema` that does not point inside the same file."""
    found, stack = [], [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("$ref", "$dynamicRef") and not (isinstance(value, str) and value.startswith("#")):
                    found.append(str(value))
                else:
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return found


@dataclass
class Schemas:
    """The schemas of a base, loaded on demand: from its snapshot when given, else from disk."""

    root: Path
    snap: Snapshot | None = None
    _validators: dict = field(default_factory=dict)

    def _text(self, name: str) -> str:
        rel = f"schema/{name}.schema.json"
        if self.snap is not None:
            data = self.snap.files.get(rel)
            if data is None:
                raise FileProblem("fichier absent")
            if isinstance(data, FileProblem):
                raise data
            return decode_utf8(data)
        return decode_utf8(read_regular(self.root / rel))

    def validator(self, name: str, problems: list[Problem]):
        """The validator of schema `name`, or None (and a problem) if the schema is unusable."""
        if name in self._validators:
            return self._validators[name]
        display = f"{self.root.name}/schema/{name}.schema.json"
        validator = None
        try:
            schema = json.loads(self._text(name))
            refs = remote_refs(schema)
            if refs:
                raise ValueError(f"référence distante « {shown(refs[0])} » refusée (jamais téléchargée) ; "
                                 "seules les références internes (#/…) sont permises")
            cls = _validator_class()
            cls.check_schema(schema)
            from referencing import Registry

            # an empty registry: nothing is ever retrieved
            validator = cls(inlined_refs(schema), registry=Registry())
        except FileProblem as e:
            problems.append(Problem(display, e.line, f"schéma illisible : {e.message}"))
        except json.JSONDecodeError as e:
            problems.append(Problem(display, e.lineno, f"schéma illisible : {json_error_fr(e)} ; "
                                                       "attendu un fichier JSON"))
        except ValueError as e:  # remote ref
            problems.append(Problem(display, 0, f"schéma illisible : {shown(e)}"))
        except Exception as e:  # jsonschema.SchemaError and the like
            problems.append(Problem(display, 0, f"schéma invalide ({schema_error_fr(e)}) ; "
                                                "attendu un JSON Schema 2020-12 valide"))
        self._validators[name] = validator
        return validator

    def validate(self, name: str, doc, problems: list[Problem]) -> bool:
        validator = self.validator(name, problems)
        if validator is None:
            return False
        try:
            errors = sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
        except Exception as e:  # a schema that check_schema let through but cannot be applied
            problems.append(Problem(f"{self.root.name}/schema/{name}.schema.json", 0,
                                    f"schéma inutilisable ({shown(e)}) ; corrigez le schéma"))
            self._validators[name] = None
            return False
        for err in errors:
            where = list(err.absolute_path)
            field_name = ".".join(str(k) for k in where) or "(document)"
            problems.append(Problem(doc.display, doc.line(*where), f"{field_name} : {french(err)}"))
        return not errors


_JSON_MESSAGES = {
    "Expecting value": "valeur attendue",
    "Expecting property name enclosed in double quotes": "nom de champ entre guillemets doubles attendu",
    "Expecting ',' delimiter": "virgule attendue",
    "Expecting ':' delimiter": "deux-points attendu",
    "Unterminated string starting at": "texte entre guillemets non terminé",
    "Invalid control character at": "caractère de contrôle non permis",
    "Invalid \\escape": "séquence d'échappement (\\…) non valide",
    "Invalid \\uXXXX escape": "échappement \\uXXXX non valide",
    "Extra data": "texte en trop après la fin du document",
}


def json_error_fr(e: json.JSONDecodeError) -> str:
    """A JSON syntax error in French, with its line and column: « valeur attendue ligne 1, colonne 1 »."""
    what = _JSON_MESSAGES.get(e.msg, "syntaxe JSON non valide")
    return f"{what} ligne {e.lineno}, colonne {e.colno}"


def schema_error_fr(e: Exception) -> str:
    """Why a schema is not a valid JSON Schema, in French, with where in the schema."""
    keyword = getattr(e, "validator", None)  # a jsonschema error names the keyword it failed
    if keyword is None:
        return "le schéma ne peut pas être appliqué"
    path = list(getattr(e, "absolute_path", ()))
    where = "/".join(str(k) for k in path) or "(racine)"
    if path and path[-1] == "type" and keyword in ("anyOf", "enum", "type"):
        return (f"{where} : « {_value(getattr(e, 'instance', None))} » n'est pas un type ; attendu l'un de "
                f"{', '.join(_TYPES)}, ou une liste de ces noms")
    return f"{where} : {french(e)}"


_NO_SPACE = "pas d'espace ni de saut de ligne"
_ID_WORDS = "une lettre ou un chiffre, puis lettres, chiffres, « - », « _ » ou « . »"
#: The patterns of `rulebook/schema/`, said in words (a rule editor does not read regexes).
PATTERN_WORDS = {
    "^[A-Za-z0-9][A-Za-z0-9_.-]*$": f"un id commence par {_ID_WORDS} ; {_NO_SPACE}",
    "^([a-z0-9_-]+:)?[A-Za-z0-9][A-Za-z0-9_.-]*$":
        f"une citation est un id de règle ({_ID_WORDS}), précédé si besoin du livre et de « : » "
        f"(club:9-13) ; {_NO_SPACE}",
    "^([a-z0-9_-]+:)?[A-Za-z0-9][A-Za-z0-9_.-]*(#[0-9a-f]{6})?$":
        f"une citation est un id de règle ({_ID_WORDS}), précédé si besoin du livre et de « : », suivi si "
        f"besoin de « # » et de 6 chiffres hexadécimaux (club:9-13#1a2b3c) ; {_NO_SPACE}",
    "^[A-Za-z0-9_.-]+$": f"seulement des lettres sans accent, chiffres, « - », « _ » ou « . » ; {_NO_SPACE}",
    "^[a-z0-9-]+$": f"seulement des minuscules sans accent, chiffres ou « - » ; {_NO_SPACE}",
    "^[a-z0-9_-]+$": f"seulement des minuscules sans accent, chiffres, « - » ou « _ » ; {_NO_SPACE}",
    "^[a-z0-9][a-z0-9-]*$": f"un id commence par une minuscule sans accent ou un chiffre, puis minuscules, "
                            f"chiffres ou « - » ; {_NO_SPACE}",
    "^[a-z][a-z0-9-]*$": f"un id commence par une minuscule sans accent, puis minuscules, chiffres ou « - » ; "
                         f"{_NO_SPACE}",
    "^[a-z0-9-]+:[a-z0-9-]+$": f"une procédure s'écrit livre:id (club:annonce-verbale), en minuscules sans accent, "
                               f"chiffres ou « - » ; {_NO_SPACE}",
    "^[a-z0-9-]+:[A-Za-z0-9-]+$": f"une règle s'écrit livre:numéro (club:9-13), lettres sans accent, chiffres ou "
                                  f"« - » ; {_NO_SPACE}",
}


_TYPES = {"string": "texte", "integer": "entier", "number": "nombre", "boolean": "booléen (true/false)",
          "array": "liste", "object": "mapping", "null": "null"}


def _type_names(t) -> str:
    names = t if isinstance(t, list) else [t]
    return " ou ".join(_TYPES.get(n, str(n)) for n in names)


def _forms(subschemas: list) -> str:
    """The shapes a list of subschemas accepts, in French: « texte, liste, booléen »."""
    out = []
    for sub in subschemas:
        if isinstance(sub, dict) and "type" in sub:
            out.append(_type_names(sub["type"]))
        elif isinstance(sub, dict) and "enum" in sub:
            out.append("l'une de " + ", ".join(map(str, sub["enum"])))
        elif isinstance(sub, dict) and "const" in sub:
            out.append(repr(sub["const"]))
        else:
            out.append("une autre forme")
    return ", ".join(dict.fromkeys(out))


def _value(instance) -> str:
    return shown(repr(instance) if not isinstance(instance, str) else instance)[:60]


def french(err) -> str:
    """A short French rendering of a jsonschema error."""
    v, expected, instance = err.validator, err.validator_value, err.instance
    if v == "required":
        missing = [m for m in expected if isinstance(instance, dict) and m not in instance]
        return "champ obligatoire manquant : " + ", ".join(missing)
    if v == "type":
        return f"type attendu {expected}, trouvé {type(instance).__name__} ({instance!r:.40})"
    if v == "enum":
        return f"valeur « {_value(instance)} » inconnue ; attendu l'une de : {', '.join(map(str, expected))}"
    if v == "additionalProperties":
        extra = sorted(set(instance) - set(err.schema.get("properties", {})))
        return ("champ inconnu : " + ", ".join(map(str, extra)) + " ; champs permis : "
                + ", ".join(err.schema.get("properties", {})))
    if v == "pattern":
        words = PATTERN_WORDS.get(expected)
        if words:
            return f"« {_value(instance)} » ne respecte pas le format : {words}"
        return f"« {_value(instance)} » ne respecte pas le format {expected}"
    if v == "minLength":
        return "texte vide" if expected <= 1 else f"texte trop court (au moins {expected} caractères)"
    if v == "maxLength":
        return f"texte trop long (au plus {expected} caractères)"
    if v == "minItems":
        return "liste vide" if expected <= 1 else f"liste trop courte (au moins {expected} éléments)"
    if v == "maxItems":
        return f"liste trop longue (au plus {expected} éléments)"
    if v == "minProperties":
        return f"au moins {expected} entrée(s) attendue(s), trouvé {len(instance)}"
    if v == "maxProperties":
        return f"au plus {expected} entrée(s) permise(s), trouvé {len(instance)}"
    if v in ("anyOf", "oneOf"):
        return f"valeur « {_value(instance)} » d'une forme non permise ; attendu : {_forms(expected)}"
    if v == "const":
        return f"valeur « {_value(instance)} » ; attendu {expected!r}"
    if v in ("minimum", "exclusiveMinimum"):
        return f"valeur {_value(instance)} trop petite (minimum {expected})"
    if v in ("maximum", "exclusiveMaximum"):
        return f"valeur {_value(instance)} trop grande (maximum {expected})"
    if v == "uniqueItems":
        return "éléments en double dans la liste"
    if v == "propertyNames":
        return f"nom de champ non permis : {_value(instance)}"
    if v == "format":
        kind = {"regex": "une expression régulière valide"}.get(expected, f"au format {expected}")
        return f"« {_value(instance)} » n'est pas {kind}"
    if v == "not":
        return f"valeur « {_value(instance)} » non permise"
    return f"valeur non conforme au schéma ({v})"
