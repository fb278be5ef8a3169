"""Walk TD trial stories through `ruling ask` as the trial did, and count what it cost.

`python scripts/trial_walk.py TRIAL.yaml [--answers scripts/trial_answers.yaml] [-v] [ID…]`

TRIAL.yaml holds `trials:` entries (id, book, first_words, expect); the answers file gives, per
story, what a TD answers from the story's facts to each question id (« ? » when the facts do not
say: « je ne sais pas »). Each story runs the real CLI, `ruling ask --book BOOK FIRST_WORDS`, typing
one line at a time: the expected situation in the list, then for each question Enter when « d'après
vos mots » already says the fact, or the fact. It reports, per story: first proposal right,
questions typed, pre-answers confirmed, false pre-answers (the words proposed something else),
questions the facts do not answer, and whether one run gave a decision.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANSWERS = Path(__file__).resolve().parent / "trial_answers.yaml"
PROMPT_RE = re.compile(r"^(Votre choix \(1-\d+(?:, 0 pour d'autres mots)?\)|o/n|[A-Z][^:\n]*?)(?: \[[^\]]*\])?: ?$")


def _questions(kb, proc) -> dict[str, object]:
    """Every question the procedure may ask, by its text."""
    return {q.text: q for q in proc.used_questions()}


def _typed(question, fact: str) -> str:
    """What the TD types for `fact` (a choice by its number, a bool as o/n)."""
    if question.type == "choice":
        return str(list(question.choices).index(fact) + 1)
    return fact


def walk(kb, story: dict, facts: dict, verbose: bool = False) -> dict:
    """One story: the rows of what was asked, and the counts."""
    from click.testing import CliRunner

    from ruling.cli import cli
    from ruling.decide.questionnaire import rank_situations

    ranked = [f"{p.book}:{p.id}" for p in rank_situations(kb, story["first_words"], story["book"])]
    proc = next(p for p in kb.procedures if f"{p.book}:{p.id}" == story["expect"])
    by_text = _questions(kb, proc)
    typed = [str(ranked.index(story["expect"]) + 1)] if story["expect"] in ranked else []
    row = {"id": story["id"], "first": bool(ranked) and ranked[0] == story["expect"], "typed": 0, "confirmed": 0,
           "false": [], "unanswered": [], "one_run": False, "log": []}
    args = ["ask", "--book", story["book"], *story["first_words"].split()]
    for _ in range(40):  # a questionnaire asks far fewer questions
        result = CliRunner().invoke(cli, args, input="".join(t + "\n" for t in typed))
        out = result.output
        if result.exit_code == 0:
            row["one_run"] = "Décision — " in out or "voici la décision dans chaque cas" in out \
                or "Quelle que soit la réponse" in out
            row["log"].append(out.rsplit("Décision — ", 1)[-1].split("\n")[1] if "Décision — " in out else "(côte à côte)")
            return row
        if "Fin de l'entrée avant la décision" not in out:
            row["log"].append(f"arrêt (code {result.exit_code}) : {out[-300:]}")
            return row
        asked = out.rsplit("\n\n", 1)[-1]
        text = asked.split("\n", 1)[0]
        question = by_text.get(text)
        if question is None:
            row["log"].append(f"question inconnue : {text}")
            return row
        said = re.search(r"  D'après vos mots : (.*) \(Entrée pour confirmer", asked)
        fact = facts.get(question.id)
        if fact is None or fact == "?":
            row["unanswered"].append(question.id)
            typed.append("je ne sais pas")
            row["log"].append(f"{question.id} : les faits ne le disent pas → je ne sais pas")
            continue
        want = _typed(question, str(fact))
        label = question.label(_value(question, str(fact)))
        if said is not None and (said.group(1) == label or said.group(1).startswith(label + " (")):  # « 8 (ce que 28 ajoute à 20) »
            row["confirmed"] += 1
            typed.append("")
            row["log"].append(f"{question.id} : d'après vos mots, confirmé")
            continue
        if said is not None:
            row["false"].append(question.id)
        row["typed"] += 1
        typed.append(want)
        row["log"].append(f"{question.id} : tapé {fact}" + (f" (proposé à tort : {said.group(1)})" if said else ""))
    return row


def _value(question, fact: str):
    from ruling.decide.engine import parse_answer

    return parse_answer(question, fact)


def main(argv=None) -> int:
    import yaml

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trial")
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--answers", default=str(ANSWERS))
    parser.add_argument("-v", "--verbose", action="store_true")
    opts = parser.parse_intermixed_args(argv)
    sys.path.insert(0, str(ROOT))
    from ruling.kb.load import load_kb

    kb = load_kb(ROOT / "rulebook")
    stories = yaml.safe_load(Path(opts.trial).read_text(encoding="utf-8"))["trials"]
    answers = yaml.safe_load(Path(opts.answers).read_text(encoding="utf-8"))
    rows = [walk(kb, s, answers.get(s["id"]) or {}, opts.verbose) for s in stories if not opts.ids or s["id"] in opts.ids]
    print("id   1re  tapées confirmées fausses sans-réponse     1-passage")
    for r in rows:
        print(f"{r['id']:<5}{'oui' if r['first'] else 'non':<5}{r['typed']:<7}{r['confirmed']:<11}"
              f"{','.join(r['false']) or '-':<8}{','.join(r['unanswered']) or '-':<17}{'oui' if r['one_run'] else 'non'}")
        if opts.verbose:
            print("\n".join("      " + line for line in r["log"]))
    good = [r for r in rows if r["one_run"] and r["typed"] <= 2 and not r["false"]]
    typed = sorted(r["typed"] for r in rows)
    print(f"\n{len(good)}/{len(rows)} en un passage, ≤ 2 questions tapées, aucune pré-réponse fausse ; "
          f"médiane des questions tapées : {typed[len(typed) // 2] if typed else 0} ; "
          f"pré-réponses fausses : {sum(len(r['false']) for r in rows)} ; "
          f"première proposition juste : {sum(r['first'] for r in rows)}/{len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
