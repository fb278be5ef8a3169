"""One arithmetic: the browser's kernels (site/assets/kernels.js) give the Python figures, refusals and
decision sentences on random inputs and random parameters.

Runs without a browser: Node loads kernels.js through tests/js/kernels_harness.js, one JSON
request per line. Every calculator declared in rulebook/calculators.yaml is checked; none is
listed by hand.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruling.decide.calculators import KERNELS, Refusal
from ruling.decide.templates import pick, render

from conftest import ROOT, RULEBOOK

NODE = shutil.which("node") or "/usr/bin/node"
HARNESS = ROOT / "tests" / "js" / "kernels_harness.js"



@pytest.fixture(scope="module")
def node():
    if not Path(NODE).exists():  # skipped for a user who cannot install it; never in CI (root installs it)
        message = "node absent : lancez en root scripts/install-node.sh (paquet Debian nodejs)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    proc = subprocess.Popen([NODE, str(HARNESS)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(request: dict) -> dict:
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        assert "crash" not in reply, reply["crash"]
        return reply

    yield ask
    proc.stdin.close()
    proc.wait(timeout=10)
    proc.stdout.close()  # else the pipe is closed by the garbage collector, a ResourceWarning in a later test


@pytest.fixture(scope="module")
def catalogue():
    from ruling.kb.load import load_kb

    kb = load_kb(RULEBOOK)
    return kb


def test_the_browser_has_every_calculator_of_the_cli(node, catalogue):
    assert node({"list": True})["kernels"] == sorted(catalogue.catalogue.calculators) == sorted(KERNELS)


def _parameter_strategy(pid: str, values: list):
    if all(isinstance(v, bool) for v in values):
        return st.booleans()
    if all(isinstance(v, int) for v in values):
        return st.integers(1, 12)
    return st.one_of(st.sampled_from([0.5, 0.25, 0.75, 1.0, 0.333333, 0.1]),
                     st.integers(1, 1000).map(lambda n: n / 1000))


def _draw_inputs(data, spec) -> dict:
    """Answers to the calculator's questions, often plausible (bets that grow, a player's bet among
    the round's amounts) and sometimes impossible, so both the figures and the refusals are reached."""
    values: dict = {}
    seen: list[int] = []
    small = st.one_of(st.integers(0, 12), st.sampled_from([25, 50, 100, 200, 500, 1000]), st.integers(0, 3000))
    for q in spec.inputs:
        if q.kind == "cards":
            values[q.id] = _draw_cards(data, spec, values)
        elif q.type == "choice":
            values[q.id] = data.draw(st.sampled_from(list(q.choices)))
        elif q.type == "amounts":
            growing = st.lists(st.integers(1, 400), max_size=6).map(
                lambda steps: [sum(steps[: i + 1]) for i in range(len(steps))])
            values[q.id] = data.draw(st.one_of(growing, st.lists(small, max_size=7)))
            seen += values[q.id]
        else:
            choices = [small] + ([st.sampled_from(seen)] if seen else [])
            values[q.id] = data.draw(st.one_of(*choices))
            seen.append(values[q.id])
    if "jetons-par-joueur" in values and "cartes-tirees" not in values and data.draw(st.booleans()):
        # a table that can race (as _draw_cards does for the cards): the figures path is reached every run
        values["jeton-retire"], values["jeton-arrondi"] = data.draw(st.sampled_from([(25, 100), (5, 25), (500, 1000)]))
        values["jetons-par-joueur"] = data.draw(st.lists(st.integers(0, 5), min_size=2, max_size=7).filter(any))
        if "joueurs-sans-autre-jeton" in values:
            values["joueurs-sans-autre-jeton"] = data.draw(st.lists(st.integers(1, len(values["jetons-par-joueur"])),
                                                                    max_size=3, unique=True))
        if "autres-jetons" in values:
            values["autres-jetons"] = data.draw(st.lists(st.integers(0, 3000), min_size=len(values["jetons-par-joueur"]),
                                                         max_size=len(values["jetons-par-joueur"])))
    if "mises" in values and values.get("tour") == "avant-flop" and data.draw(st.booleans()):
        values["mises"] = [values.get("grosse-blind", 0) + m for m in values["mises"]]  # raises above the blind
    return values


DECK = [rank + suit for rank in "23456789TJQKA" for suit in "shdc"]


def _draw_cards(data, spec, values: dict) -> list:
    """Cards for the race: usually one distinct card per chip in the race (the figures path),
    sometimes a wrong count or a card twice (the refusals)."""
    if data.draw(st.booleans()):  # a table that can race: a few chips each, one value of other chips each
        values["jeton-retire"], values["jeton-arrondi"] = data.draw(st.sampled_from([(25, 100), (5, 25), (500, 1000)]))
        values["jetons-par-joueur"] = data.draw(st.lists(st.integers(0, 5), min_size=2, max_size=7))
        values["joueurs-sans-autre-jeton"] = data.draw(st.lists(st.integers(1, len(values["jetons-par-joueur"])),
                                                                max_size=3, unique=True))
    try:
        needed = sum(KERNELS["chip-race-classique"](values, {"jetons-gagnes-maximum": 1})["cartes"])
    except Refusal:
        needed = data.draw(st.integers(0, 6))
    deck = data.draw(st.permutations(DECK))
    if needed <= len(DECK) and data.draw(st.integers(0, 3)):
        return deck[:needed]
    cards = deck[: data.draw(st.integers(0, 8))]
    return cards + cards[:1] if cards and data.draw(st.booleans()) else cards


def _draw_parameters(data, spec, kb) -> dict:
    params = {}
    for pid, need in spec.parameters.items():
        known = [ps[pid].value for ps in kb.parameters.values() if pid in ps]
        if need == "optional" and data.draw(st.booleans()):
            continue
        params[pid] = data.draw(_parameter_strategy(pid, known or [1]))
    low, high = params.get("tours-exclusion-minimum"), params.get("tours-exclusion-maximum")
    if low is not None and high is not None and low > high:
        params["tours-exclusion-minimum"], params["tours-exclusion-maximum"] = high, low
    return params


def _python(name: str, inputs: dict, params: dict) -> dict:
    try:
        return {"figures": KERNELS[name](inputs, params)}
    except Refusal as refusal:
        return {"refusal": refusal.code, "figures": refusal.figures}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_kernel_parity_with_python(node, catalogue, name):
    """Same figures or same refusal (and the same French line for it); and every decision using the
    calculator reads word for word the same."""
    kb = catalogue
    spec = kb.catalogue.calculators[name]
    rules = [(p, r) for p in kb.procedures for r in p.rules if r.compute == name]
    reached = {"figures": 0, "refusal": 0}

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True)  # the same 150 examples every run: both paths reached, never by luck
    @given(st.data())
    def check(data):
        inputs = _draw_inputs(data, spec)
        params = _draw_parameters(data, spec, kb)
        expected = _python(name, inputs, params)
        got = node({"kernel": name, "inputs": inputs, "params": params})
        assert got == json.loads(json.dumps(expected)), (inputs, params)
        if "refusal" in expected:
            reached["refusal"] += 1
            text = kb.catalogue.refusal_text(expected["refusal"], expected["figures"])
            assert "{{" not in text, text
            shown = node({"refusalText": {"code": expected["refusal"], "figures": expected["figures"]},
                          "data": {"refusals": kb.catalogue.refusals, "inputNames": kb.catalogue.input_names}})
            assert shown["text"] == text  # the browser's refusal reads as the command line's
            return
        reached["figures"] += 1
        for proc, rule in rules:
            fixed = {**{q: v[0] for q, v in rule.when.items() if len(v) == 1}, **rule.given}
            if any(q in inputs and inputs[q] != v for q, v in fixed.items()):
                continue  # inputs this rule's path never gives (the street of a rule chosen by it)
            case = expected["figures"].get("cas")
            if isinstance(rule.decision, dict) and case not in rule.decision:
                # only a case the book's parameters or the rule's inputs rule out (the drawn parameters may differ)
                assert case not in spec.cases_for(proc.parameters, fixed), (proc.citation, rule.outcome, case)
                continue
            namespace = {**params, **inputs, **expected["figures"]}
            template = pick(rule.decision, case)
            js = node({"render": template, "figures": namespace, "each": rule.each})["text"]
            assert js == render(template, namespace, rule.each), (proc.citation, rule.outcome)
            assert "{{" not in js, (proc.citation, rule.outcome, js)

    check()
    assert reached["figures"] and reached["refusal"], reached  # both paths were exercised


def test_a_wrong_kernel_is_caught(node):
    """The comparison can fail: a figure off by one in Python is seen."""
    inputs = {"tour": "apres-flop", "grosse-blind": 100, "mises": [200, 290]}
    python = _python("relance-minimum", inputs, {})
    python["figures"]["relance-minimum"] += 1
    assert node({"kernel": "relance-minimum", "inputs": inputs, "params": {}}) != python
