"""The guided questionnaire (`ruling ask`) and what `ask` and `decide` print.

Separated from the click commands so it can be driven in tests: `run_questionnaire` talks
through click.prompt/click.echo only, and every text it shows is built by a pure function.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import click

from ruling.decide.engine import (
    Decision,
    decide_procedure,
    expected,
    fold,
    normalise_answers,
    parse_answer,
    reachable_outcomes,
)
from ruling.decide.from_words import FromWords, propose
from ruling.decide.kinds import prompt_text
from ruling.decide.unknown import amount_matters_line, branches, branches_report, can_be_unknown, is_unknown
from ruling.errors import CalculatorError, StaleCitationError, UserError, shown
from ruling.kb.files import FileProblem
from ruling.render.terminal import visible

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
    from ruling.kb.safe_yaml import YamlProblem, read_yaml_file  # yaml: only when an answers file is given

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

def _procedure_hits(kb, words: str, limit: int, house_book: str | None = None) -> list:
    """The procedures `ruling search --kind procedure --house HOUSE` ranks for `words`, in its
    order (the one ranking of the project: same analysis, glossary, typo tolerance, house book)."""
    from ruling.search import search

    by_key = {(p.book, p.id): p for p in kb.procedures}
    by_situation: dict[str, list] = {}
    for proc in kb.procedures:
        by_situation.setdefault(proc.situation, []).append(proc)
    ranked: list = []
    for hit in search(kb, words, kind="procedure", limit=limit, house=house_book or "").hits:
        best = by_key.get((hit.book, hit.ref))
        if best is None:
            continue
        # search shows one hit per situation: the other books' procedures for it follow it
        for proc in [best] + [p for p in by_situation[best.situation] if p is not best]:
            if proc not in ranked:
                ranked.append(proc)
    return ranked


def rank_situations(kb, words: str, house_book: str | None = None, limit: int = 8) -> list:
    """The procedures matching `words`, best first; the house book's matching situations come
    before the other books' (each group keeps the search order)."""
    ranked = _procedure_hits(kb, words, max(limit, 3 * limit), house_book)
    house = [p for p in ranked if p.book == house_book]
    return (house + [p for p in ranked if p.book != house_book])[:limit]


def situation_named(kb, words: str) -> tuple[str, bool]:
    """The situation id `words` name (an id as is), else the situation of the best-ranked
    procedure for those words; the flag says it came from free words."""
    name = words.strip().lower()
    if any(p.situation == name for p in kb.procedures) or not name or re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", name):
        return name, False  # an id, or what looks like one (its typo gets the nearest ids)
    ranked = rank_situations(kb, words, getattr(kb, "house_book", None), limit=1)
    return (ranked[0].situation, True) if ranked else (name, False)


def house_book(kb, book: str | None = None, profile: dict | None = None) -> str | None:
    """The book whose situations come first: --book, else the profile's `book:`, else
    RULING_BOOK, else the base's `house_book` (base.yaml)."""
    for candidate in (book, (profile or {}).get("book"), os.environ.get("RULING_BOOK") or None):
        if candidate is not None:
            return kb.book(str(candidate)).id  # unknown: a French error naming the books
    return getattr(kb, "house_book", None)


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
    """What the prompt asks for: a number of choice, o/n, or what the figure is (never « Montant »
    for a seat, a rank or a card)."""
    if question.type == "choice":
        return f"Votre choix (1-{len(question.choices)})"
    if question.type == "bool":
        return "o/n"
    return prompt_text(question.kind, question.none)


_KIND_PLACEHOLDERS = {"amount": "montant", "amounts": "montants séparés par des virgules", "seat": "siège",
                      "seats": "sièges séparés par des virgules", "rank": "rang", "ranks": "rangs séparés par des virgules",
                      "count": "nombre", "counts": "nombres séparés par des virgules",
                      "cards": "cartes séparées par des virgules"}


def missing_report(decision: Decision) -> str:
    """What `decide` prints when answers are missing."""
    proc = decision.procedure
    lines = [f"Réponses manquantes pour {proc.id} ({proc.book}) — {proc.title} :"]
    for q in decision.missing:
        if q.type == "choice":
            what = " | ".join(q.choices)
        else:
            what = "oui|non" if q.type == "bool" else _KIND_PLACEHOLDERS.get(q.kind, "nombre")
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


LONG_CLAUSE_CHARS = 500  # longer cited texts are cut to their key sentence unless --full


KEY_SENTENCES = 3  # at most this many sentences of a long clause shown with the decision


def key_sentence(text: str, decision: str) -> str:
    """The sentences of a clause the decision rests on, in the clause's order: the one sharing the
    most words with the decision, and those sharing at least half as many (at least two words), so
    that a decision drawn from two sentences shows both. « … » marks each cut, and only a cut: none
    before the clause's first sentence, between two that follow each other, or after its last."""
    sentences = [x.strip() for x in re.split(r"(?<=[.;!?])\s+", text) if x.strip()]
    if not sentences:
        return text
    wanted = set(re.findall(r"\w{4,}", fold(decision)))
    shared = [len(wanted & set(re.findall(r"\w{4,}", fold(x)))) for x in sentences]
    best = max(shared)
    keep = sorted(sorted(range(len(sentences)), key=lambda i: -shared[i])[:KEY_SENTENCES])
    keep = [i for i in keep if i == shared.index(best) or (shared[i] >= 2 and 2 * shared[i] >= best)]
    # a sentence inside a list item comes with the item's first one (« · Exclusion temporaire … »):
    # cut from it, « Le joueur doit s'éloigner » would read as the item before it
    at, offsets = 0, []  # where each sentence starts in the text
    for sentence in sentences:
        at = text.find(sentence, at)
        offsets.append(at)
    keep = sorted(set(keep) | {j for i in keep if (j := _item_start(text, sentences, offsets, i)) is not None})
    out = "… " if keep[0] > 0 else ""
    for previous, i in zip([None, *keep], keep):
        if previous is not None:
            cut = " …" if i != previous + 1 else ""
            out += cut + ("\n  " if sentences[i].startswith("·") else " ")
        out += sentences[i]
    return out + (" …" if keep[-1] < len(sentences) - 1 else "")


def _item_start(text: str, sentences: list[str], offsets: list[int], i: int) -> int | None:
    """The first sentence of the list item (« · … ») sentence `i` is in, or None: an item runs
    until a line that starts at the margin (a new paragraph)."""
    for j in range(i, -1, -1):
        if sentences[j].startswith("·"):
            return j if not re.search(r"\n(?=\S)", text[offsets[j]:offsets[i]]) else None
    return None


def cited_clause(kb, clause, said: str, full: bool, color: bool = False) -> list[str]:
    """A cited clause's lines, verbatim: a long one cut to the sentences `said` rests on unless `full`."""
    # upward (decide → render) until this renderer moves to render/ (issue 13)
    from ruling.render.text import bold, clause_body, clause_heading

    out = [bold(clause_heading(kb, clause), color)]
    if clause.title:
        out.append(clause.title)
    body = clause_body(clause)
    excerpt = "" if full or len(body) <= LONG_CLAUSE_CHARS else key_sentence(body, said)
    if not excerpt or (not excerpt.startswith("… ") and " …" not in excerpt):  # whole, or every sentence kept
        out.append(body)
    else:
        out.append(f"« {excerpt} »")
        out.append(f"  (règle longue, {len(body)} caractères : texte entier avec --full, "
                   f"ou ruling show {clause.citation})")
    return out + [""]


def decision_report(kb, decision: Decision, color: bool = False, full: bool = True) -> str:
    """The decision, the computed figures, each cited clause verbatim, and the replay command.
    Without `full`, a long clause shows its key sentence and how to read it whole."""
    from ruling.render.text import bold  # upward (decide → render), see cited_clause

    proc = decision.procedure
    said = decision.decision or ""  # a decided Decision always has its sentence
    out = [bold(f"Décision — {proc.title} ({proc.book})", color), said, ""]
    answered = [(proc.question(qid), v) for qid, v in decision.answers.items()]
    if answered:
        out.append("Réponses :")
        out += [f"  {q.text} {q.label(v)}" for q, v in answered if q is not None]
        out.append("")
    for clause in decision.citations:
        out += cited_clause(kb, clause, said, full, color)
    exact = decision.figures_command()
    if exact is not None:
        out.append("Pour le calcul exact, avec les chiffres : " + exact)
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
    outcomes = ", ".join(reachable_outcomes(proc, decision.answers))
    return f"dépend de {needs} ; issues possibles : {outcomes}"


# -- the interactive flow ------------------------------------------------------------------------------

class Quit(Exception):
    """The TD left the questionnaire (empty answer at the first prompt)."""


class EndOfInput(Quit):
    """The input ended before a decision (`ruling ask` exits 1)."""


class Interrupted(Quit):
    """Ctrl-C: the questionnaire stops at once (`ruling ask` exits 130)."""


def _prompt(text: str, default=None) -> str:
    """One line typed by the TD (`default` when he just presses Enter). Read through click's
    prompt function so tests can type; Ctrl-C and end of input are told apart."""
    label = visible(text) + (f" [{visible(default)}]" if default else "")
    click.echo(label + ":", nl=False)
    try:
        raw = click.termui.visible_prompt_func(" ")
    except KeyboardInterrupt:
        raise Interrupted from None
    except EOFError:
        raise EndOfInput from None
    return default if raw.strip() == "" and default else raw


def named_procedure(kb, words: str, book: str | None):
    """The one procedure `words` names by id (`relance-insuffisante`, `tda:relance-insuffisante`), or None."""
    name = words.strip().lower()
    if ":" in name and book is None:
        book, name = name.split(":", 1)
    hits = [p for p in kb.procedures if p.id == name and (book is None or p.book == book.lower())]
    return hits[0] if len(hits) == 1 else None


def choose_situation(kb, words: str, book: str | None) -> tuple:
    """The procedure the words name by id (the hint `ruling search` prints), else ask for words
    until some procedure matches, then let the TD pick one by number; with the words it came from."""
    direct = named_procedure(kb, words, book)
    if direct is not None:
        return direct, ""
    first = True
    while True:
        if not words:
            words = _prompt("Décrivez la situation en quelques mots (vide pour quitter)", default="").strip()
            if not words:
                raise Quit
        matches = rank_situations(kb, words, book)
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
                return matches[int(raw) - 1], words
            click.echo(f"Réponse « {raw} » invalide : tapez un numéro de 1 à {len(matches)}, ou 0.")
        first = False


UNKNOWN = object()  # the TD's « je ne sais pas »


def explain_question(procedure, question) -> str:
    """What « ? » prints: the question's help, what each choice means, the clauses it comes from."""
    lines = [f"« {question.text} »"]
    if question.help:
        lines.append(f"  {question.help}")
    if question.type == "choice":
        lines += [f"  {k}. {label} ({key})" for k, (key, label) in enumerate(question.choices.items(), 1)]
    elif question.type == "bool":
        lines.append("  o = oui, n = non")
    else:
        lines.append(f"  Attendu : {expected(question)}.")
    cites = []
    for rule in procedure.rules:
        spec = procedure.calculator(rule)
        if question.id in rule.when or (spec is not None and any(i.id == question.id for i in spec.inputs)):
            cites += [c.citation for c in rule.cites if c.citation not in cites]
    if cites:
        lines.append(f"  Cette question vient de : {', '.join(cites)} (ruling show {cites[0]}).")
    if question.if_unknown is not None:
        lines.append(f"  Tapez « je ne sais pas » si vous ne savez pas : la réponse « {question.label(question.if_unknown)} » "
                     "sera retenue.")
    elif question.type in ("choice", "bool"):
        lines.append("  Tapez « je ne sais pas » si vous ne savez pas : la décision de chaque cas sera donnée.")
    return "\n".join(lines)


def ask_question(question, suggested=None, procedure=None, unknown_allowed: bool = True):
    """Ask one question until the answer is valid; returns the parsed value, or UNKNOWN for « je ne
    sais pas ». `suggested` (the journal's answer, shown above the question) is the default the TD
    confirms with Enter or overrides. « ? » explains the question."""
    click.echo("")
    click.echo(question_prompt(question))
    default = question.default if suggested is None else suggested.value
    if suggested is not None:
        origin = getattr(suggested, "origin", "le journal")
        click.echo(f"  D'après {origin} : {suggested.text} (Entrée pour confirmer, ou répondez autrement)")
    default_typed = None
    if default is not None:
        if question.type == "choice":
            default_typed = str(list(question.choices).index(default) + 1)
        elif question.type == "bool":
            default_typed = "o" if default else "n"
        elif question.kind == "cards":
            default_typed = question.label(default)
        elif question.type == "amounts":
            default_typed = ", ".join(map(str, default))
        else:
            default_typed = str(default)
    while True:
        raw = _prompt(prompt_suffix(question), default=default_typed)
        if raw.strip() == "?":
            click.echo(explain_question(procedure, question) if procedure is not None else question_prompt(question))
            continue
        if is_unknown(raw):
            if question.if_unknown is not None:  # « je ne sais pas » is one of the answers here
                click.echo(f"  Je ne sais pas : compté comme « {question.label(question.if_unknown)} ».")
                return question.if_unknown
            if can_be_unknown(question) and unknown_allowed:
                return UNKNOWN
            what = "Un montant" if question.kind in ("amount", "amounts") else "Ce chiffre"
            click.echo(f"{what} ne se devine pas : comptez-le (ou demandez-le aux joueurs), puis tapez-le.")
            continue
        if raw.strip() == "":
            if question.type == "amounts" and question.none:
                click.echo("  lu : aucun")
                return []
            click.echo(f"Une réponse est nécessaire : {expected(question)} (« ? » pour l'explication).")
            continue
        try:
            value = parse_answer(question, raw)
        except UserError as e:
            message = str(e)
            click.echo(f"{message[0].upper()}{message[1:]} ; recommencez.")
            continue
        if question.type == "amounts":  # what was read, so « 200 350 » cannot silently be one amount
            click.echo(f"  lu : {question.label(value)}")
        return value


def run_questionnaire(kb, words: str = "", book: str | None = None, profile: dict | None = None,
                      color: bool = False, recall=None, full: bool = False) -> Decision | None:
    """The whole `ruling ask` flow; returns the decision, or None when the TD quits. `recall(kb,
    procedure, question)` may give the event journal's answer, proposed as the default."""
    try:
        proc, words = choose_situation(kb, words, book)
        click.echo(f"\n{proc.title} ({proc.book}:{proc.id})")
        values = normalise_answers(proc, {}, profile, kb)
        unknown: list = []  # questions the TD answered « je ne sais pas »
        refuse_unknown: set = set()  # amounts that change the decision: « je ne sais pas » no longer stands
        amounts_taken = False  # the description's amounts go to the first amounts question only
        words_used: Counter = Counter()  # the description's terms a confirmed answer read: they answer no other
        previous: dict = {}  # the figures a calculator refused, proposed again as they were typed
        refused_before: dict | None = None  # the figures of the last refusal
        while True:
            try:
                if unknown:
                    possible = branches(kb, proc, values, unknown)
                    if possible.decided:
                        click.echo("")
                        click.echo(branches_report(proc, possible, kb, values, full))
                        return None  # no single decision: nothing to record
                    question = possible.next_question()
                    later = {q.id for _, case in possible.cases for q in case.missing}
                    if possible.amount_matters:  # « je ne sais pas » cannot stand for this amount: it is asked again
                        click.echo(amount_matters_line(possible))
                        unknown.remove(question)
                        refuse_unknown.add(question.id)
                else:
                    decision = decide_procedure(kb, proc, values)
                    if decision.decided:
                        break
                    question = decision.missing[0]
                    later = {q.id for q in decision.missing}
            except StaleCitationError:  # a refused decision: no amount would change it
                raise
            except CalculatorError as e:  # the calculator refuses the figures: ask them again, each with its last answer
                figures = {k for k, v in values.items() if proc.question(k).type in ("amount", "amounts")}
                refused = {k: values[k] for k in figures}
                if refused == refused_before:  # the same figures refused twice: Enter must not loop on them
                    previous.clear()
                else:
                    previous.update(refused)
                refused_before = refused
                values = {k: v for k, v in values.items() if k not in figures}
                kept = " ; ".join(proc.question(k).label(v) for k, v in values.items() if proc.question(k).origin != "context")
                click.echo(f"{e} ; reprenons les chiffres du calcul.")
                if kept:  # the refusal may come from a wrong case, not from the figures: say which was chosen
                    click.echo(f"  (réponses gardées : {kept} ; si l'une est fausse, Ctrl-C puis relancez la question)")
                continue
            suggested = recall(kb, proc, question) if recall is not None else None
            if suggested is None and question.id in previous:  # asked again after a refusal: Enter keeps it
                suggested = FromWords(question.id, previous[question.id], question.label(previous[question.id]),
                                      origin="votre réponse précédente")
            if suggested is None:  # what the description already says
                suggested = propose(question, words, kb.glossary, amounts_taken, words_used, later)
                amounts_taken = amounts_taken or question.type == "amounts"
            answer = ask_question(question, suggested, proc, unknown_allowed=question.id not in refuse_unknown)
            if answer is UNKNOWN:
                unknown.append(question)
            else:
                values[question.id] = answer
                if suggested is not None and answer == suggested.value:
                    words_used.update(getattr(suggested, "used", ()))
    except Interrupted:
        click.echo("\nQuestionnaire interrompu (Ctrl-C) : aucune décision.")
        raise
    except EndOfInput:
        click.echo("\nFin de l'entrée avant la décision : aucune décision.")
        raise
    except Quit:
        click.echo("\nQuestionnaire abandonné : aucune décision.")
        return None
    click.echo("")
    click.echo(decision_report(kb, decision, color=color, full=full))
    offered = follow_up(kb, decision, words, book) if words else ""
    if offered:
        click.echo(offered)
    return decision


FOLLOW_UPS = 2  # other situations the same words name, offered after a decision


def follow_up(kb, decision: Decision, words: str, book: str | None) -> str:
    """« Autre question sur ce coup ? »: a dispute often holds two (the player who acted and the one
    who waited; a wrong announcement and the pot pushed to the wrong player), so the other cases of
    this situation and the next situations the same words name are offered, each as its command."""
    proc = decision.procedure
    lines = ["", "Autre question sur ce coup ?"]
    case = next(((q, v) for q, v in ((proc.question(k), v) for k, v in decision.answers.items())
                 if q is not None and q.type == "choice" and q.origin == "procedure" and len(q.choices) > 2), None)
    if case is not None:
        lines.append(f"  même situation, autre cas que « {case[0].label(case[1])} » : "
                     f"ruling ask --book {proc.book} {proc.id}")
    others = [p for p in rank_situations(kb, words, book, limit=FOLLOW_UPS + 2) if p.situation != proc.situation]
    lines += [f"  {p.title} : ruling ask --book {p.book} {p.id}" for p in others[:FOLLOW_UPS]]
    return "\n".join(lines) if len(lines) > 2 else ""
