"""Calculator declarations and book parameters: the data around the kernels of `calculators.py`.

`rulebook/calculators.yaml` says, per calculator, which inputs it asks (French question text),
which book parameters it reads, which figures and case keys it produces, and every refusal
message; `rulebook/<book>/parameters.yaml` gives each book's thresholds with the clause they
come from (as OpenFisca parameters do). Loaded with the base, validated by their schemas.
"""
from __future__ import annotations

from ruling.decide.calculators import KERNELS, Refusal
from ruling.decide.templates import render
from ruling.errors import CalculatorError

# Plain classes, not dataclasses: this module is imported whenever a cached base is read, and
# building dataclasses costs milliseconds on every `ruling` command.

class Parameter:
    """One threshold of a book, with the clause that sets it."""

    __slots__ = ("id", "value", "ref", "description", "line")

    def __init__(self, id: str, value, ref: str, description: str = "", line: int = 0):
        self.id, self.value, self.ref, self.description, self.line = id, value, ref, description, line

    def to_json(self) -> dict:
        return {"id": self.id, "value": self.value, "ref": self.ref, "description": self.description}


class Figure:
    """A result of a calculator: a description, and for a list of records its fields and cases."""

    __slots__ = ("name", "text", "fields", "cases")

    def __init__(self, name: str, text: str, fields: tuple = (), cases: tuple = ()):
        self.name, self.text, self.fields, self.cases = name, text, fields, cases


class CalculatorSpec:
    """What a calculator asks, reads and produces (the kernel itself is code)."""

    __slots__ = ("name", "description", "inputs", "parameters", "figures", "cases", "case_parameters", "case_inputs")

    def __init__(self, name: str, description: str, inputs: list, parameters: dict, figures: dict, cases: tuple = (),
                 case_parameters: dict | None = None, case_inputs: dict | None = None):
        self.name = name
        self.description = description
        self.inputs = inputs  # Question objects (origin "calculator")
        self.parameters = parameters  # parameter id -> "required" | "optional"
        self.figures = figures  # name -> Figure
        self.cases = cases
        self.case_parameters = case_parameters or {}  # case -> {parameter: value} it needs
        self.case_inputs = case_inputs or {}  # case -> {input: value} it needs (the street…)

    def cases_for(self, parameters: dict, fixed: dict | None = None) -> tuple:
        """The cases the kernel can produce with a book's parameters (id -> Parameter) and the inputs a
        rule fixes (`given`, or a single value in its `when`): a case declared for other values never
        happens there, so no decision may speak of it."""
        fixed = fixed or {}
        return tuple(c for c in self.cases
                     if all(pid in parameters and parameters[pid].value == value
                            for pid, value in self.case_parameters.get(c, {}).items())
                     and all(fixed.get(qid, value) == value for qid, value in self.case_inputs.get(c, {}).items()))

    def to_json(self) -> dict:
        return {"name": self.name, "description": self.description,
                "inputs": [q.to_json() for q in self.inputs], "parameters": dict(self.parameters),
                "figures": {f.name: f.text for f in self.figures.values()}, "cases": list(self.cases),
                "case_parameters": {c: dict(p) for c, p in self.case_parameters.items()},
                "case_inputs": {c: dict(i) for c, i in self.case_inputs.items()}}


class Catalogue:
    """Every calculator declaration, the input names used in refusals, and the refusal templates."""

    __slots__ = ("calculators", "input_names", "refusals", "lines")

    def __init__(self):
        self.calculators: dict = {}  # name -> CalculatorSpec
        self.input_names: dict = {}  # input id -> French noun phrase
        self.refusals: dict = {}  # code -> template
        self.lines: dict = {}  # calculator name -> line in calculators.yaml

    def get(self, name: str | None) -> CalculatorSpec | None:
        return self.calculators.get(name) if name else None

    def refusal_text(self, code: str, figures: dict) -> str:
        """The one French line of a kernel's refusal."""
        values = dict(figures)
        if "entree" in values:
            values["nom"] = self.input_names.get(values["entree"], values["entree"])
        return render(self.refusals[code], values)

    def to_json(self) -> dict:
        return {"calculators": [c.to_json() for c in self.calculators.values()],
                "input_names": dict(self.input_names), "refusals": dict(self.refusals)}

    def listing(self) -> str:
        """The calculators for rule editors: name, what it does, inputs, parameters, figures, cases."""
        lines = []
        for c in self.calculators.values():
            lines.append(c.name)
            lines.append(f"  {c.description}")
            for q in c.inputs:
                lines.append(f"  entrée {q.id} ({q.kind or q.type}) : {q.text}")
            for pid, need in c.parameters.items():
                lines.append(f"  paramètre {pid}" + (" (facultatif)" if need == "optional" else ""))
            lines.append("  chiffres : " + ", ".join(f"{f.name} ({f.text})" for f in c.figures.values()))
            if c.cases:
                lines.append("  cas : " + ", ".join(c.cases))
            for case, needs in [*c.case_parameters.items(), *c.case_inputs.items()]:
                lines.append(f"  cas {case} seulement si " + ", ".join(f"{p} = {str(v).lower()}" for p, v in needs.items()))
            lines.append("")
        return "\n".join(lines).rstrip()


def run(catalogue: Catalogue, name: str, values: dict, parameters: dict) -> dict:
    """Run calculator `name` on answers keyed by input id and the book's parameters (id -> Parameter).
    A refusal becomes a `CalculatorError` with its French line (the questionnaire re-asks the amounts)."""
    spec = catalogue.get(name)
    if spec is None:  # a programming error: procedures name only declared calculators (checked at load)
        raise AssertionError(f"undeclared calculator {name}")
    inputs = {q.id: values[q.id] for q in spec.inputs}
    params = {pid: parameters[pid].value for pid in spec.parameters if pid in parameters}
    try:
        figures = KERNELS[name](inputs, params)
    except Refusal as refusal:
        raise CalculatorError(catalogue.refusal_text(refusal.code, refusal.figures)) from None
    unknown = set(figures) - set(spec.figures) - {"cas"}
    if unknown:  # a programming error, caught by the tests
        raise AssertionError(f"{name} returned undeclared figures {sorted(unknown)}")
    return figures
