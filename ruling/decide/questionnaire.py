"""The guided questionnaire (`ruling ask`) and what `ask` and `decide` print.

Separated from the click commands so it can be driven in tests: `run_questionnaire` talks
through click.prompt/click.echo only, and every text it shows is built by a pure function.
"""
from __future__ import annotations

import re
from pathlib import Path

import click

from ruling.decide.engine import Decision, decide_procedure, expected, fold, normalise_answers, parse_answer
from ruling.errors import CalculatorError, UserError, shown
from ruling.render.terminal import visible

STOP_WORDS = {"le", "la", "les", "un", "une", "des", "de", "du", "d", "l", "a", "au", "aux", "et", "ou", "en",
              "est", "sur", "par", "pour", "avec", "sans", "qui", "que", "the", "of", "il", "elle", "se", "sa",
              "son", "ses", "ne", "pas", "y"}
MAX_MAPPING_BYTES = 1 << 20  # an answers or profile file holds a few lines


# -- answers from the command line and files ------------------------------------------------------

def parse_pairs(pairs) -> dict:
    """`-a key=value` options into a mapping; a pair without `=`, or two different answers to one
    question (the last would silently win), is a French error."""
    out: dict = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"réponse « {shown(pair)} » mal formée ; attendu question=réponse (ex. -a defaut=premature)")
        key, value = key.strip(), value.strip()
        if key in out and out[key] != value:
            raise UserError(f"deux réponses différentes à la question « {shown(key)} » : -a {shown(key)}={shown(out[key])} "
                            f"et -a {shown(key)}={shown(value)} ; gardez-en une seule")
        out[key] = value
    return out


def read_mapping_file(path: str, what: str) -> dict:
    """A YAML file holding a mapping question -> answer (answers or profile), or a French error.

    Read like every YAML file of ruling (`ruling.kb.safe_yaml`): a regular file of at most
    MAX_MAPPING_BYTES, bounded nesting and aliases, duplicate keys refused."""
    from ruling.kb.files import FileProblem
    from ruling.kb.safe_yaml import YamlProblem, read_yaml_file

    p = Path(path)
    try:
        data, _ = read_yaml_file(p, MAX_MAPPING_BYTES)
    except FileProblem as e:
        if e.message == "fichier introuvable":
            raise UserError(f"le fichier de {what} « {shown(path)} » n'existe pas") from None
        raise UserError(f"le fichier de {what} « {shown(path)} » est illisible : {e.message}") from None
    except YamlProblem as e:
        where = f" (ligne {e.line})" if e.line else ""
        raise UserError(f"le fichier de {what} « {shown(path)} » n'est pas du YAML valide{where} : {e.message}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UserError(f"le fichier de {what} « {shown(path)} » doit contenir un mapping question: réponse")
    return {str(k): v for k, v in data.items()}


# -- finding the situation ------------------------------------------------------------------------

def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", fold(text)) if len(w) > 1 and w not in STOP_WORDS}


def _stem(word: str) -> str:
    return word[:6] if len(word) > 6 else word.rstrip("s")


def match_procedures(kb, query: str, book: str | None = None, limit: int = 8) -> list:
    """Procedures ranked by accent-folded word overlap with their title, keywords and cited clauses' topics."""
    wanted = {_stem(w) for w in _words(query)}
    if not wanted:
        return []
    scored = []
    for i, proc in enumerate(kb.procedures):
        if book and proc.book != book:
            continue
        strong = _words(proc.title + " " + " ".join(proc.keywords) + " " + proc.situation.replace("-", " "))
        weak = set()
        for citation in proc.cited_citations():
            clause = kb.find(citation)
            if clause is not None:
                weak |= _words(" ".join(clause.topics) + " " + (clause.title or ""))
        strong_stems, weak_stems = {_stem(w) for w in strong}, {_stem(w) for w in weak}
        score = 3 * len(wanted & strong_stems) + len(wanted & (weak_stems - strong_stems))
        if score:
            scored.append((-score, i, proc))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [p for _, _, p in scored[:limit]]


def find_situations(kb, query: str, book: str | None = None, limit: int = 8) -> list:
    """The procedures that best match the TD's words: the search engine when there is one, else word overlap."""
    try:
        from ruling.search import search
    except ImportError:
        return match_procedures(kb, query, book, limit)
    result = search(kb, query, book=book, limit=limit * 3)
    by_key = {(p.book, p.id): p for p in kb.procedures}
    ranked: list = []
    for hit in result.hits:
        if hit.kind == "procedure":
            found = [by_key.get((hit.book, hit.ref))]
        else:
            clause = kb.find(hit.ref)
            found = kb.procedures_citing(clause) if clause is not None else []
        for proc in found:
            if proc is not None and proc not in ranked and (book is None or proc.book == book):
                ranked.append(proc)
    for proc in match_procedures(kb, query, book, limit):  # words the index does not know
        if proc not in ranked:
            ranked.append(proc)
    return ranked[:limit]


# -- rendering --------------------------------------------------------------------------------------

def question_prompt(question, number: int | None = None) -> str:
    """The text of a question, with its choices numbered."""
    head = f"{question.text}"
    lines = [head]
    if question.help:
        lines.append(f"  ({question.help})")
    if question.type == "choice":
        for k, (key, label) in enumerate(question.choices.items(), 1):
            lines.append(f"  {k}. {label}  [{key}]")
    return "\n".join(lines)


def prompt_suffix(question) -> str:
    if question.type == "choice":
        return f"Votre choix (1-{len(question.choices)})"
    if question.type == "bool":
        return "o/n"
    if question.type == "amount":
        return "Montant"
    return "Montants séparés par des virgules"


def missing_report(decision: Decision) -> str:
    """What `decide` prints when answers are missing."""
    proc = decision.procedure
    lines = [f"Réponses manquantes pour {proc.id} ({proc.book}) — {proc.title} :"]
    for q in decision.missing:
        if q.type == "choice":
            what = " | ".join(q.choices)
        else:
            what = {"bool": "oui|non", "amount": "nombre", "amounts": "nombres séparés par des virgules"}[q.type]
        lines.append(f"  -a {q.id}=<{what}>   {q.text}")
    return "\n".join(lines)


def procedures_listing(procedures: list) -> str:
    """`ruling procedures`: each procedure with its questions and choices."""
    lines = []
    for proc in procedures:
        lines.append(f"{proc.book}:{proc.id} — {proc.title}  (situation {proc.situation})")
        for q in proc.used_questions():
            where = {"context": " [contexte]", "calculator": " [montant]"}.get(q.origin, "")
            choices = f" : {' | '.join(q.choices)}" if q.type == "choice" else f" ({q.type})"
            lines.append(f"    {q.id}{where}{choices} — {q.text}")
        lines.append(f"    issues : {', '.join(r.outcome for r in proc.rules)}")
    return "\n".join(lines) if lines else "Aucune procédure."


def decision_report(kb, decision: Decision, color: bool = False) -> str:
    """The decision, the computed figures, each cited clause verbatim, and the replay command."""
    from ruling.render.text import bold, clause_body, clause_heading

    proc = decision.procedure
    out = [bold(f"Décision — {proc.title} ({proc.book})", color), decision.decision, ""]
    answered = [(proc.question(qid), v) for qid, v in decision.answers.items()]
    if answered:
        out.append("Réponses :")
        out += [f"  {q.text} {q.label(v)}" for q, v in answered if q is not None]
        out.append("")
    for clause in decision.citations:
        out.append(bold(clause_heading(kb, clause), color))
        if clause.title:
            out.append(clause.title)
        out.append(clause_body(clause))
        out.append("")
    out.append("Pour rejouer : " + decision.replay_command())
    return "\n".join(out)


def comparison_report(kb, comparison) -> str:
    """`ruling compare`: each case, what each book decides, and where the books differ."""
    procs = comparison.procedures
    width = max(len(p.book) for p in procs)
    out = [f"Situation {comparison.situation} — " + " ; ".join(f"{p.book} : {p.title} ({p.id})" for p in procs)]
    for row in comparison.rows:
        out.append("")
        out.append(f"Cas {row.label} :")
        for p in procs:
            d = row.cells[p.book]
            out.append(f"  {p.book:<{width}} → " + _cell_text(p, d))
        pending = sorted({q.id for d in row.cells.values() if d is not None and not d.decided for q in d.missing})
        if len(procs) > 1:
            if row.differs:
                out.append("  ⇒ les livres diffèrent")
            elif pending:
                out.append("  ⇒ à préciser avec -a : " + ", ".join(pending))
            else:
                out.append("  ⇒ même issue dans tous les livres")
    differing = [r.label for r in comparison.rows if r.differs]
    out.append("")
    if len(procs) == 1:
        out.append(f"Seul le livre {procs[0].book} traite cette situation.")
    elif differing:
        out.append("Différences : " + " ; ".join(differing))
    else:
        out.append("Aucune différence entre les livres sur ces cas.")
    return "\n".join(out)


def _cell_text(proc, decision) -> str:
    if decision is None:
        return "ce cas n'est pas prévu par ce livre"
    cites = ", ".join(c.citation for c in decision.citations) if decision.decided else \
        ", ".join(c.citation for c in decision.rule.cites) if decision.rule is not None else ""
    if decision.decided:
        return f"[{decision.outcome}] {decision.decision} ({cites})"
    needs = ", ".join(q.id for q in decision.missing)
    if decision.rule is not None:
        return f"[{decision.rule.outcome}] calcul selon {needs} ({cites})"
    from ruling.decide.engine import reachable_outcomes

    outcomes = ", ".join(reachable_outcomes(proc, decision.answers))
    return f"dépend de {needs} ; issues possibles : {outcomes}"


# -- the interactive flow ------------------------------------------------------------------------------

class Quit(Exception):
    """The TD left the questionnaire (empty answer at the first prompt, Ctrl-C, end of input)."""


def _prompt(text: str, default=None) -> str:
    try:
        # The prompt goes to readline, not through ruling.render.terminal's guarded stdout.
        return click.prompt(visible(text), default=default and visible(default),
                            show_default=bool(default), type=str)
    except (click.Abort, EOFError, KeyboardInterrupt):
        raise Quit from None


def named_procedure(kb, words: str, book: str | None):
    """The one procedure `words` names by id (`relance-insuffisante`, `tda:relance-insuffisante`), or None."""
    name = words.strip().lower()
    if ":" in name and book is None:
        book, name = name.split(":", 1)
    hits = [p for p in kb.procedures if p.id == name and (book is None or p.book == book.lower())]
    return hits[0] if len(hits) == 1 else None


def choose_situation(kb, words: str, book: str | None) -> object:
    """The procedure the words name by id (the hint `ruling search` prints), else ask for words
    until some procedure matches, then let the TD pick one by number."""
    direct = named_procedure(kb, words, book)
    if direct is not None:
        return direct
    first = True
    while True:
        if not words:
            words = _prompt("Décrivez la situation en quelques mots (vide pour quitter)", default="").strip()
            if not words:
                raise Quit
        matches = find_situations(kb, words, book)
        if not matches:
            click.echo(f"Aucune situation ne correspond à « {shown(words)} » ; essayez d'autres mots (ex. flop, relance, tapis).")
            words, first = "", False
            continue
        click.echo("Situations possibles :")
        for k, proc in enumerate(matches, 1):
            click.echo(f"  {k}. {proc.title}  [{proc.book}:{proc.id}]")
        while True:
            raw = _prompt(f"Votre choix (1-{len(matches)}, 0 pour d'autres mots)", default="1" if first else None)
            raw = raw.strip()
            if raw == "0":
                words = ""
                break
            if raw.isdigit() and 1 <= int(raw) <= len(matches):
                return matches[int(raw) - 1]
            click.echo(f"Réponse « {raw} » invalide : tapez un numéro de 1 à {len(matches)}, ou 0.")
        first = False


def ask_question(question, suggested=None):
    """Ask one question until the answer is valid; returns the parsed value. `suggested` (the journal's
    answer, shown above the question) is the default the TD confirms with Enter or overrides."""
    click.echo("")
    click.echo(question_prompt(question))
    default = question.default if suggested is None else suggested.value
    if suggested is not None:
        click.echo(f"  D'après le journal : {suggested.text} (Entrée pour confirmer, ou répondez autrement)")
    default_typed = None
    if default is not None:
        if question.type == "choice":
            default_typed = str(list(question.choices).index(default) + 1)
        elif question.type == "bool":
            default_typed = "o" if default else "n"
        elif question.type == "amounts":
            default_typed = ", ".join(map(str, default))
        else:
            default_typed = str(default)
    while True:
        raw = _prompt(prompt_suffix(question), default=default_typed)
        if raw.strip() == "" and question.type != "amounts":
            click.echo(f"Une réponse est nécessaire : {expected(question)}.")
            continue
        try:
            return parse_answer(question, raw)
        except UserError as e:
            message = str(e)
            click.echo(f"{message[0].upper()}{message[1:]} ; recommencez.")


def run_questionnaire(kb, words: str = "", book: str | None = None, profile: dict | None = None,
                      color: bool = False, recall=None) -> Decision | None:
    """The whole `ruling ask` flow; returns the decision, or None when the TD quits. `recall(kb,
    procedure, question)` may give the event journal's answer, proposed as the default."""
    try:
        proc = choose_situation(kb, words, book)
        click.echo(f"\n{proc.title} ({proc.book}:{proc.id})")
        values = normalise_answers(proc, {}, profile, kb)
        while True:
            try:
                decision = decide_procedure(kb, proc, values)
            except CalculatorError as e:  # the calculator refuses the amounts: ask them again
                click.echo(f"{e} ; reprenons les montants.")
                values = {k: v for k, v in values.items() if proc.question(k).type not in ("amount", "amounts")}
                continue
            if decision.decided:
                break
            question = decision.missing[0]
            suggested = recall(kb, proc, question) if recall is not None else None
            values[question.id] = ask_question(question, suggested)
    except Quit:
        click.echo("\nQuestionnaire abandonné : aucune décision.")
        return None
    click.echo("")
    click.echo(decision_report(kb, decision, color=color))
    return decision
