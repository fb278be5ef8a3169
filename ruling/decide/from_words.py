"""Answers the TD already gave in his description (« d'après vos mots »), proposed, never imposed.

A choice is proposed when the words of its key (« avant-flop », « relance-sans-annonce »), or a
glossary equivalent of them, appear in order in the description; a yes/no question when one of its
`words:` phrases does (« ordre inconnu » → non); amounts written in the
description (« ouverture 200 tapis 290 ») are proposed for the first amounts question.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

AMOUNT_RE = re.compile(r"(?<![\d,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,])|\d+")
WINDOW = 2  # words allowed between the words of a key phrase
# A word right after one of these is negated: « sans parler » does not say « parler »; and the word
# a negation governs follows it closely (« sans carte brûlée » is « sans brûlée », but « sans
# brûlée, on connaît l'ordre » is not « sans ordre »).
NEGATED_WINDOW = 1
NEGATIONS = frozenset({"sans", "pas", "ne", "non", "jamais", "aucun", "aucune", "ni"})


@dataclass
class FromWords:
    """A proposed answer: shown as « d'après vos mots : text », confirmed with Enter."""

    question: str
    value: object
    text: str
    origin: str = "vos mots"


def _terms(text: str) -> list[str]:
    # upward (decide → search): one analysis for the words, the search package's; lazy, whoosh-free
    from ruling.search.analysis import analyze

    return analyze(text.replace("-", " "))


def _occurs(phrase: list[str], described: list[str]) -> bool:
    """The terms of `phrase` appear in `described` in order, at most WINDOW terms apart; a term a
    negation governs must follow it within NEGATED_WINDOW, and a negated term is not the phrase's."""
    if not phrase:
        return False
    for start, term in enumerate(described):
        if term != phrase[0]:
            continue
        if start and described[start - 1] in NEGATIONS and phrase[0] not in NEGATIONS:
            continue  # « sans parler » is not « parler »
        at, ok = start, True
        for previous, wanted in zip(phrase, phrase[1:]):
            window = described[at + 1: at + 2 + (NEGATED_WINDOW if previous in NEGATIONS else WINDOW)]
            if wanted not in window:
                ok = False
                break
            at = at + 1 + window.index(wanted)
        if ok:
            return True
    return False


def _equivalents(phrase: str, glossary: list) -> list[list[str]]:
    """`phrase` and the glossary's other ways of saying it, as term lists."""
    own = _terms(phrase)
    out = [own]
    for entry in glossary or ():
        forms = [entry.get("term", "")] + list(entry.get("en") or []) + list(entry.get("synonyms") or [])
        analysed = [_terms(f) for f in forms if f]
        if own in analysed:
            out += [a for a in analysed if a and a not in out]
    return out


def propose(question, description: str, glossary: list, amounts_taken: bool = False) -> FromWords | None:
    """The answer to `question` the description gives, or None (none, or several choices match)."""
    if not description.strip():
        return None
    if question.type == "choice":
        options: list = [(key, label, [key]) for key, label in question.choices.items()]
        return _longest_match(question.id, options, _terms(description), glossary)
    if question.type == "bool" and question.words:
        options = [(value, word, question.words.get(word) or []) for value, word in ((True, "oui"), (False, "non"))]
        return _longest_match(question.id, options, _terms(description), glossary)
    if question.type == "amount":
        return _named_figure(question, _terms(description))
    if question.type == "amounts" and not amounts_taken:
        amounts = [int(re.sub(r"\D", "", m)) for m in AMOUNT_RE.findall(description)]
        # proposed only when they rise (successive totals do): « 800 sur 500 » names a bet and what it
        # faced, and a list the words do not put in order is typed by the TD, never guessed
        if amounts and all(a < b for a, b in zip(amounts, amounts[1:])):
            return FromWords(question.id, amounts, ", ".join(map(str, amounts)))
    return None


def _longest_match(qid: str, options, described: list[str], glossary: list) -> FromWords | None:
    """The option (value, text, phrases) whose phrase, or a glossary equivalent of it, found in the
    description is the longest; none when no phrase is found or two options tie."""
    found = []
    for value, text, phrases in options:
        best = max((len(p) for phrase in phrases for p in _equivalents(phrase, glossary) if _occurs(p, described)),
                   default=0)
        if best:
            found.append((best, value, text))
    found.sort(key=lambda f: f[0], reverse=True)
    if found and (len(found) == 1 or found[0][0] > found[1][0]):
        _, value, text = found[0]
        return FromWords(qid, value, text)
    return None


def _named_figure(question, described: list[str]) -> FromWords | None:
    """A figure the words give by its name, next to it: « 2 tours » for `tours`, « grosse blind 200 »
    for `grosse-blind`; none when the name is absent or two different figures go with it."""
    name = _terms(question.id.replace("-", " "))
    found = set()
    for start in range(len(described) - len(name) + 1):
        if described[start:start + len(name)] != name:
            continue
        for at in (start - 1, start + len(name)):
            if 0 <= at < len(described) and described[at].isdigit():
                found.add(int(described[at]))
    if len(found) == 1:
        value = found.pop()
        return FromWords(question.id, value, str(value))
    return None
