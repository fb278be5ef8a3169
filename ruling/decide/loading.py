"""Loading the decision side of a base from its snapshot: the calculators' declarations
(`calculators.yaml`), each book's parameters and context questions, and its procedures, each
checked as it is read (`ruling.decide.checks`). Problems are collected, never raised.

`ruling.kb.load.parse_kb` calls `load_procedures` once the clauses are read, so that cites
resolve against them; a cached base skips all of this.
"""
from __future__ import annotations

import re
from pathlib import Path

from ruling.decide.calculators import KERNELS
from ruling.decide.catalogue import CalculatorSpec, Catalogue, Figure, Parameter
from ruling.decide.checks import procedure_problems, unused_parameter_problems
from ruling.decide.kinds import KINDS, type_of
from ruling.decide.procedures import Cite, Procedure, Question, Rule
from ruling.decide.templates import placeholders
from ruling.errors import Problem, UserError
from ruling.kb.snapshot import already_defined, read_optional, read_yaml


def build_question(qid: str, data: dict, origin: str) -> Question:
    choices = {str(k): v for k, v in (data.get("choices") or {}).items()}
    kind = data.get("kind") or ""
    if kind:
        qtype = data.get("type") or type_of(kind)
    else:
        qtype = data.get("type") or ("choice" if choices else "bool")
    return Question(id=qid, text=data["text"], type=qtype, choices=choices, default=data.get("default"),
                    help=data.get("help"), origin=origin, journal=data.get("journal"), kind=kind,
                    none=bool(data.get("none")), if_unknown=data.get("if_unknown"),
                    asks_for_figures=bool(data.get("asks_for_figures")), words=dict(data.get("words") or {}),
                    reads_the_question=bool(data.get("reads_the_question")),
                    tried_if_unknown=str(data.get("tried_if_unknown") or ""),
                    not_proposed_with=str(data.get("not_proposed_with") or ""))


def question_problems(q: Question, doc, keys: tuple) -> list[Problem]:
    """A question whose declaration contradicts its type."""
    out = []
    line = doc.line(*keys)
    if q.type == "choice" and not q.choices:
        out.append(Problem(doc.display, line, f"la question « {q.id} » est de type choice sans choices"))
    if q.type != "choice" and q.choices:
        out.append(Problem(doc.display, line, f"la question « {q.id} » a des choices mais le type {q.type}"))
    if q.kind:
        if q.kind not in KINDS:
            out.append(Problem(doc.display, line, f"la question « {q.id} » a le genre « {q.kind} » inconnu ; "
                                                  f"genres : {', '.join(KINDS)}"))
        elif type_of(q.kind) != q.type:
            out.append(Problem(doc.display, line, f"la question « {q.id} » a le genre {q.kind} (type {type_of(q.kind)}) "
                                                  f"mais le type {q.type}"))
    allowed = {"bool": {"oui", "non"}, "choice": set(q.choices)}.get(q.type, {"nom", "total-sur", "pas-nom"})
    for key in sorted(set(q.words) - allowed):
        out.append(Problem(doc.display, line, f"la question « {q.id} » ({q.type}) a des words « {key} » ; attendu "
                                              f"{', '.join(sorted(allowed)) or 'aucun'}"))
    if q.asks_for_figures and q.type != "bool":
        out.append(Problem(doc.display, line, f"la question « {q.id} » (asks_for_figures) doit être de type bool"))
    if q.if_unknown is not None and (not q.finite or q.if_unknown not in q.domain):
        out.append(Problem(doc.display, line, f"if_unknown « {q.if_unknown} » de la question « {q.id} » n'est pas "
                                              "une réponse possible de cette question (choice ou bool)"))
    if q.not_proposed_with and q.type != "amounts":
        out.append(Problem(doc.display, line, f"la question « {q.id} » ({q.type}) ne peut avoir not_proposed_with ; "
                                              "attendu une liste de montants (amounts)"))
    needs = {"grid": "amount", "zero-or-more": "amounts"}
    if q.tried_if_unknown and needs.get(q.tried_if_unknown) != q.type:
        out.append(Problem(doc.display, line, f"la question « {q.id} » ({q.type}) ne peut avoir tried_if_unknown "
                                              f"« {q.tried_if_unknown} » ; attendu grid pour amount, zero-or-more pour amounts"))
    if q.default is not None:
        ok = {"bool": lambda v: isinstance(v, bool), "choice": lambda v: v in q.choices,
              "amount": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
              "amounts": lambda v: isinstance(v, list) and all(isinstance(x, int) and x >= 0 for x in v)}[q.type]
        if not ok(q.default):
            out.append(Problem(doc.display, line, f"défaut « {q.default} » invalide pour la question « {q.id} » ({q.type})"))
    return out


def load_context(snap, book_id: str, schemas, problems: list[Problem]) -> dict[str, Question]:
    """The context questions of one book (`<book>/context.yaml`), or none."""
    doc = read_optional(snap, f"{book_id}/context.yaml", "context", schemas, problems)
    if doc is None:
        return {}
    out = {}
    for qid, data in (doc.data.get("questions") or {}).items():
        q = build_question(str(qid), data, "context")
        problems.extend(question_problems(q, doc, ("questions", qid)))
        out[q.id] = q
    return out


def load_procedures(kb, snap, schemas, problems, unloaded=frozenset()) -> tuple[list, object, dict]:
    """Parse, from the base's snapshot, the calculators' declarations, every book's parameters and
    procedures; problems are appended, never raised. Returns (procedures, catalogue, parameters by
    book). A cite into a book in `unloaded` (one of its files did not load) is not reported."""
    root = Path(snap.root)
    catalogue = load_catalogue(snap, schemas, problems)
    procedures: list[Procedure] = []
    all_parameters: dict = {}
    complete = not unloaded  # every book and procedure file loaded: only then is an unused calculator a problem
    for book in kb.books:
        context = load_context(snap, book.id, schemas, problems)
        parameters = load_parameters(kb, snap, book.id, schemas, problems, unloaded)
        all_parameters[book.id] = parameters
        seen: dict[str, str] = {}
        mine = []
        folder = f"{book.id}/procedures"
        if snap.kind(folder) == "file":
            problems.append(Problem(snap.display(folder), 0, "« procedures » est un fichier ; attendu un dossier "
                                                             "de procédures (<livre>/procedures/<id>.yaml)"))
            complete = False
            continue
        for rel in snap.children(folder):
            doc = read_yaml(snap, rel, problems)
            if doc is None or not schemas.validate("procedure", doc, problems):
                complete = False
                continue
            proc = _build_procedure(kb, book.id, doc, context, catalogue, parameters, problems, unloaded)
            if proc is None:
                complete = False
                continue
            if already_defined(seen, proc.id, doc, "id", f"la procédure « {proc.id} » est déjà définie dans {{first}}",
                               problems):
                continue
            problems.extend(procedure_problems(kb, proc))
            mine.append(proc)
        problems.extend(unused_parameter_problems(root, book.id, parameters, mine))
        procedures.extend(mine)
    used = {r.compute for p in procedures for r in p.rules}
    for name in catalogue.calculators if complete else ():
        if name not in used:  # dead arithmetic: computed in two languages for nothing
            problems.append(Problem(f"{root.name}/calculators.yaml", catalogue.lines.get(name, 1),
                                    f"le calculateur « {name} » n'est utilisé par aucune procédure ; retirez-le "
                                    "(et son noyau) ou citez-le dans une règle (compute)"))
    return procedures, catalogue, all_parameters


def _template_problems(doc, where: tuple, outcome: str, template, names: set, cases: tuple, what: str,
                       never: dict | None = None) -> list[Problem]:
    """A template (or case map) naming a figure nobody produces, or keyed by unknown or missing cases;
    `never`: the calculator's cases this book's parameters rule out (case -> why), which no phrase may speak of."""
    out = []
    line = doc.line(*where)
    never = never or {}
    if isinstance(template, dict):
        if not cases:
            return [Problem(doc.display, line, f"la décision « {outcome} » est choisie par cas mais {what} ne produit "
                                               "pas de cas ; écrivez une seule phrase")]
        for key in template:
            if key in never:
                out.append(Problem(doc.display, doc.line(*where, key), f"le cas « {key} » de la décision « {outcome} » "
                                                                       f"n'arrive jamais : {never[key]} ; retirez cette phrase"))
            elif key not in cases:
                out.append(Problem(doc.display, line, f"cas « {key} » inconnu dans la décision « {outcome} » ; "
                                                      f"cas de {what} : {', '.join(cases)}"))
        for key in cases:
            if key not in template:
                out.append(Problem(doc.display, line, f"la décision « {outcome} » ne dit rien du cas « {key} » de {what}"))
        texts = list(template.values())
    else:
        texts = [template]
    for text in texts:
        for name in placeholders(text):
            if name not in names:
                out.append(Problem(doc.display, line, f"la décision « {outcome} » utilise {{{{ {name} }}}} que ni "
                                                      f"{what} ni les paramètres du livre ne produisent ; chiffres : "
                                                      f"{', '.join(sorted(names)) or '(aucun)'}"))
    return out


SILENT_TEXT = "Le règlement ne le précise pas ; "  # how a decision resting on a reading says so


def _each_texts(each: dict) -> list[str]:
    """Every template of a rule's `each` (a figure's template, or its case map)."""
    return [t for v in each.values() for t in (v.values() if isinstance(v, dict) else [v])]


def _interpretation_problems(doc, i: int, rdata: dict, cases, never: dict | None = None) -> list[Problem]:
    """An outcome that carries a reading says it in its decision, for each case it concerns (and
    for none the book's parameters rule out); a reading that depends on a figure may be said by
    the `each` template of that figure, which the decision tells only when the figure has a record
    (the 9-13 example after a short all-in)."""
    reading, decision = rdata.get("interpretation"), rdata["decision"]
    if reading is None:
        return []
    said_by_each = any(SILENT_TEXT in str(t) for t in _each_texts(rdata.get("each") or {}))
    line, outcome = doc.line("rules", i, "interpretation"), rdata["outcome"]
    if isinstance(reading, dict):
        never = never or {}
        dead = [c for c in reading if c in never]
        if dead:
            return [Problem(doc.display, doc.line("rules", i, "interpretation", dead[0]),
                            f"interpretation de « {outcome} » : le cas « {dead[0]} » n'arrive jamais : {never[dead[0]]}")]
        unknown = [c for c in reading if c not in cases]
        if unknown or not isinstance(decision, dict):
            line = doc.line("rules", i, "interpretation", unknown[0]) if unknown else line
            return [Problem(doc.display, line, f"interpretation de « {outcome} » : cas inconnu(s) "
                                               f"{', '.join(unknown) or ', '.join(reading)} ; cas : {', '.join(cases) or '(aucun)'}")]
        texts = {c: decision.get(c, "") for c in reading}
    else:
        texts = decision if isinstance(decision, dict) else {"": decision}
    return [Problem(doc.display, doc.line("rules", i, "interpretation", c) if c else line, f"la décision « {outcome} »{' (cas ' + c + ')' if c else ''} repose sur une "
                                       f"interprétation mais ne le dit pas : écrivez « {SILENT_TEXT}… »")
            for c, text in texts.items() if SILENT_TEXT not in text and not said_by_each]


def _never_reason(spec, case: str, parameters: dict, book_id: str, fixed: dict) -> str:
    """Why `case` never happens in this rule: the parameter or input values it needs, and the book's or the rule's."""
    needs = spec.case_parameters.get(case, {})
    if needs and any(pid not in parameters or parameters[pid].value != v for pid, v in needs.items()):
        said = ", ".join(f"{pid} = {_show(v)}" for pid, v in needs.items())
        has = ", ".join(f"{pid} = {_show(parameters[pid].value) if pid in parameters else '(absent)'}" for pid in needs)
        return f"le calculateur {spec.name} ne le produit que si {said}, et le livre {book_id} a {has}"
    needs = spec.case_inputs.get(case, {})
    said = ", ".join(f"{qid} = {_show(v)}" for qid, v in needs.items())
    has = ", ".join(f"{qid} = {_show(fixed[qid])}" for qid in needs if qid in fixed)
    return f"le calculateur {spec.name} ne le produit que si {said}, et cette règle fixe {has}"


def _fixed_inputs(rdata: dict, spec) -> dict:
    """The calculator inputs a rule fixes: its `given`, and a `when` key with a single value."""
    inputs = {q.id for q in spec.inputs}
    fixed = {qid: cond for qid, cond in (rdata.get("when") or {}).items()
             if qid in inputs and not (isinstance(cond, list) and len(cond) != 1)}
    fixed = {qid: (cond[0] if isinstance(cond, list) else cond) for qid, cond in fixed.items()}
    return {**fixed, **{qid: v for qid, v in (rdata.get("given") or {}).items() if qid in inputs}}


def _case_parameter_problems(doc, spec) -> list[Problem]:
    """`case_parameters` names cases of the calculator and parameters it reads."""
    out = []
    inputs = {q.id for q in spec.inputs}
    for key, declared, known, what in (("case_parameters", spec.case_parameters, set(spec.parameters), "le paramètre"),
                                       ("case_inputs", spec.case_inputs, inputs, "l'entrée")):
        for case, needs in declared.items():
            line = doc.line("calculators", spec.name, key, case)
            if case not in spec.cases:
                out.append(Problem(doc.display, line, f"{key} du calculateur « {spec.name} » : cas « {case} » "
                                                      f"inconnu ; cas : {', '.join(spec.cases) or '(aucun)'}"))
            for name in needs:
                if name not in known:
                    out.append(Problem(doc.display, line, f"{key} du calculateur « {spec.name} » : {what} « {name} » "
                                                          "n'est pas lu(e) par ce calculateur"))
    return out


def _compute_problems(doc, i: int, rdata: dict, spec, parameters: dict, book_id: str) -> list[Problem]:
    """The calculator's parameters exist in the book; the decision and `each` templates use only its figures."""
    outcome = rdata["outcome"]
    out = []
    what = f"le calculateur {spec.name}" if spec is not None else "cette règle (sans calcul)"
    for pid, need in (spec.parameters.items() if spec is not None else ()):
        if need == "required" and pid not in parameters:
            out.append(Problem(doc.display, doc.line("rules", i, "compute"),
                               f"le calculateur {spec.name} lit le paramètre « {pid} », inconnu du livre {book_id} ; "
                               f"ajoutez-le à {book_id}/parameters.yaml avec la règle qui le fixe"))
    names = set(parameters)
    if spec is not None:
        names |= {q.id for q in spec.inputs} | set(spec.figures)
    fixed = _fixed_inputs(rdata, spec) if spec is not None else {}
    cases = spec.cases_for(parameters, fixed) if spec is not None else ()
    never = {c: _never_reason(spec, c, parameters, book_id, fixed) for c in spec.cases if c not in cases} if spec is not None else {}
    out += _template_problems(doc, ("rules", i, "decision"), outcome, rdata["decision"], names, cases, what, never)
    out += _interpretation_problems(doc, i, rdata, cases, never)
    for fname, template in (rdata.get("each") or {}).items():
        figure = spec.figures.get(fname) if spec is not None else None
        if figure is None or not figure.fields:
            out.append(Problem(doc.display, doc.line("rules", i, "each"),
                               f"each « {fname} » : {what} ne produit pas de liste « {fname} »"))
            continue
        fields = set(figure.fields) | {f for g in spec.figures.values() for f in g.fields} | names
        out += _template_problems(doc, ("rules", i, "each"), outcome, template, fields, figure.cases,
                                  f"la liste {fname}")
    return out


def _build_procedure(kb, book_id: str, doc, context: dict, catalogue, parameters: dict,
                     problems: list[Problem], unloaded=frozenset()) -> Procedure | None:
    data = doc.data
    before = len(problems)
    if data["id"] != doc.path.stem:
        problems.append(Problem(doc.display, doc.line("id"),
                                f"l'id « {data['id']} » diffère du nom du fichier « {doc.path.stem} »"))
    questions = {}
    for qid, qdata in (data.get("questions") or {}).items():
        q = build_question(str(qid), qdata, "procedure")
        problems.extend(question_problems(q, doc, ("questions", qid)))
        questions[q.id] = q
    proc = Procedure(id=data["id"], book=book_id, situation=data["situation"], title=data["title"],
                     keywords=list(data.get("keywords") or []), questions=questions, context=context,
                     rules=[], file=doc.display, note=data.get("note"),
                     faults={str(k): v for k, v in (data.get("faults") or {}).items()},
                     catalogue=catalogue, parameters=parameters)
    outcomes: dict[str, int] = {}
    for i, rdata in enumerate(data["rules"]):
        line = doc.line("rules", i)
        when: dict[str, tuple] = {}
        for qid, cond in (rdata.get("when") or {}).items():
            asked = questions.get(qid) or context.get(qid)
            where = doc.line("rules", i, "when")
            if asked is None:
                known = ", ".join(list(questions) + list(context)) or "(aucune)"
                problems.append(Problem(doc.display, where, f"la règle « {rdata['outcome']} » utilise la question "
                                                            f"« {qid} » qui n'est déclarée ni dans la procédure ni dans "
                                                            f"{book_id}/context.yaml ; questions connues : {known}"))
                continue
            values = tuple(cond) if isinstance(cond, list) else (cond,)
            if not asked.finite:
                problems.append(Problem(doc.display, where, f"la question « {qid} » est de type {asked.type} : seules les "
                                                            "questions choice et bool peuvent servir dans when"))
                continue
            for v in values:
                if v not in asked.domain:
                    expected = ", ".join(map(_show, asked.domain))
                    problems.append(Problem(doc.display, where, f"réponse « {_show(v)} » impossible pour la question "
                                                                f"« {qid} » ; attendu l'une de : {expected}"))
            when[qid] = values
        cites = []
        for written in rdata["cites"]:
            base, _, digest = written.partition("#")
            citation = base if ":" in base else f"{book_id}:{base}"
            clause = kb.find(citation)
            if clause is None and re.split("[@:]", citation)[0] in unloaded:
                continue  # its chapter did not load: that file's problem is the one to fix
            if clause is None:
                problems.append(Problem(doc.display, doc.line("rules", i, "cites"),
                                        f"la règle « {rdata['outcome']} » cite « {base} » qui n'existe pas"))
                continue
            cites.append(Cite(written=base, citation=clause.citation, hash=digest or None,
                              line=doc.line("rules", i, "cites")))
        compute = rdata.get("compute")
        spec = catalogue.get(compute)
        if compute and spec is None:
            problems.append(Problem(doc.display, doc.line("rules", i, "compute"),
                                    f"calculateur « {compute} » inconnu ; calculateurs : "
                                    f"{', '.join(catalogue.calculators)}"))
        else:
            problems.extend(_compute_problems(doc, i, rdata, spec, parameters, book_id))
        if rdata["outcome"] in outcomes:
            problems.append(Problem(doc.display, line, f"issue « {rdata['outcome']} » en double (déjà ligne "
                                                       f"{outcomes[rdata['outcome']]})"))
        outcomes[rdata["outcome"]] = line
        fault = rdata.get("fault")
        if fault is not None and fault not in proc.faults:
            declared = ", ".join(proc.faults) or "(aucune)"
            problems.append(Problem(doc.display, doc.line("rules", i, "fault"),
                                    f"la règle « {rdata['outcome']} » relève la faute « {fault} » que la procédure ne "
                                    f"déclare pas dans faults ; fautes déclarées : {declared}"))
        proc.rules.append(Rule(when=when, outcome=rdata["outcome"], decision=rdata["decision"], cites=cites,
                               compute=compute, line=line, fault=fault, each=dict(rdata.get("each") or {}),
                               given=_given(doc, i, rdata, spec, problems),
                               interpretation=rdata.get("interpretation")))
    problems.extend(_journal_problems(proc, doc))
    return proc if len(problems) == before else None


def _given(doc, i: int, rdata: dict, spec, problems: list[Problem]) -> dict:
    """The rule's `given:` inputs, read as their questions read them; an input its calculator does not
    ask, or a value it cannot take, is a problem."""
    out: dict = {}
    inputs = {q.id: q for q in spec.inputs} if spec is not None else {}
    for qid, raw in (rdata.get("given") or {}).items():
        line = doc.line("rules", i, "given")
        if qid not in inputs:
            problems.append(Problem(doc.display, line, f"given « {qid} » : la règle « {rdata['outcome']} » ne calcule "
                                                       f"pas avec cette entrée ; entrées : {', '.join(inputs) or '(aucune)'}"))
            continue
        from ruling.decide.engine import parse_answer

        try:
            out[qid] = parse_answer(inputs[qid], raw)
        except UserError as e:
            problems.append(Problem(doc.display, line, f"given de la règle « {rdata['outcome']} » : {e}"))
    return out


def _journal_problems(proc: Procedure, doc) -> list[Problem]:
    """A question the journal would answer with an answer it cannot take, or from an unknown fault or outcome."""
    out = []
    for qid, q in proc.questions.items():
        spec = q.journal
        if spec is None:
            continue
        line = doc.line("questions", qid, "journal")

        def bad(message, line=line, qid=qid):
            out.append(Problem(doc.display, line, f"journal de la question « {qid} » : {message}"))

        recall = spec["recall"]  # required by the schema
        wanted = {"same-fault": "bool", "any-sanction": "bool", "last-sanction": "choice"}[recall]
        if q.type != wanted:
            bad(f"« recall: {recall} » demande une question {wanted}, pas {q.type}")
            continue
        if recall == "same-fault" and spec.get("fault") not in proc.faults:
            bad(f"la faute « {spec.get('fault')} » n'est pas déclarée dans faults ; fautes : {', '.join(proc.faults) or '(aucune)'}")
        if recall == "last-sanction":
            outcomes = [r.outcome for r in proc.rules]
            for outcome, answer in {**(spec.get("steps") or {}), None: spec.get("none")}.items():
                if outcome is not None and outcome not in outcomes:
                    bad(f"l'issue « {outcome} » n'existe pas ; issues : {', '.join(outcomes)}")
                if answer not in q.choices:
                    bad(f"la réponse « {answer} » n'est pas un choix de la question ; choix : {', '.join(q.choices)}")
    return out


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# -- calculators and parameters ------------------------------------------------------------------

def load_catalogue(snap, schemas, problems: list[Problem]) -> Catalogue:
    """`rulebook/calculators.yaml` from the base's snapshot, checked against the kernels the code has."""
    catalogue = Catalogue()
    doc = read_optional(snap, "calculators.yaml", "calculators", schemas, problems)
    if doc is None:
        return catalogue
    data = doc.data
    inputs = {}
    for qid, qdata in data["inputs"].items():
        fields = {k: v for k, v in qdata.items() if k != "name"}
        if "kind" not in fields:
            fields.setdefault("type", "amount")
        q = build_question(str(qid), fields, "calculator")
        problems.extend(question_problems(q, doc, ("inputs", qid)))
        inputs[q.id] = q
        if "name" in qdata:
            catalogue.input_names[q.id] = qdata["name"]
    catalogue.refusals = dict(data["refusals"])
    for name, cdata in data["calculators"].items():
        line = doc.line("calculators", name)
        catalogue.lines[name] = line
        if name not in KERNELS:
            problems.append(Problem(doc.display, line, f"le calculateur « {name} » n'a pas de noyau dans "
                                                       f"ruling/calculators.py ; noyaux : {', '.join(sorted(KERNELS))}"))
            continue
        missing = [i for i in cdata["inputs"] if i not in inputs]
        if missing:
            problems.append(Problem(doc.display, line, f"le calculateur « {name} » demande l'entrée « {missing[0]} » "
                                                       "qui n'est pas déclarée sous inputs"))
            continue
        figures = {}
        for fname, fdata in cdata["figures"].items():
            if isinstance(fdata, str):
                figures[fname] = Figure(fname, fdata)
            else:
                figures[fname] = Figure(fname, fdata["text"], tuple(fdata.get("fields") or {}),
                                        tuple(fdata.get("cases") or ()))
        catalogue.calculators[name] = CalculatorSpec(
            name=name, description=cdata["description"], inputs=[inputs[i] for i in cdata["inputs"]],
            parameters=dict(cdata.get("parameters") or {}), figures=figures, cases=tuple(cdata.get("cases") or ()),
            case_parameters={str(c): dict(p) for c, p in (cdata.get("case_parameters") or {}).items()},
            case_inputs={str(c): dict(i) for c, i in (cdata.get("case_inputs") or {}).items()})
        problems.extend(_case_parameter_problems(doc, catalogue.calculators[name]))
    for name in sorted(set(KERNELS) - set(catalogue.calculators)):
        problems.append(Problem(doc.display, 1, f"le noyau « {name} » de ruling/calculators.py n'est pas déclaré "
                                                "dans calculators.yaml"))
    return catalogue


def load_parameters(kb, snap, book_id: str, schemas, problems: list[Problem], unloaded=frozenset()) -> dict:
    """`rulebook/<book>/parameters.yaml` from the snapshot: id -> Parameter, each `ref` resolved to a
    clause of the book (not reported when a file of that book did not load: that file is the cause)."""
    doc = read_optional(snap, f"{book_id}/parameters.yaml", "parameters", schemas, problems)
    if doc is None:
        return {}
    out = {}
    for pid, pdata in doc.data["parameters"].items():
        ref = str(pdata["ref"])
        citation = ref if ":" in ref else f"{book_id}:{ref}"
        line = doc.line("parameters", pid)
        if kb.find(citation) is None and citation.split(":")[0] not in unloaded:
            problems.append(Problem(doc.display, line, f"le paramètre « {pid} » renvoie à « {ref} », règle qui "
                                                       f"n'existe pas dans le livre {book_id}"))
            continue
        out[str(pid)] = Parameter(str(pid), pdata["value"], citation, pdata.get("description", ""), line)
    return out
