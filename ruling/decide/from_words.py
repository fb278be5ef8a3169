"""Answers the TD already gave in his description (« d'après vos mots »), proposed, never imposed.

A choice is proposed when the words of its key (« avant-flop », « relance-sans-annonce »), or a
glossary equivalent of them, appear in order in the description, or, for a choice given `words:`,
one of those phrases (they replace the key, which may say too little: « coupe » is also « coup »);
a yes/no question when one of its `words:` phrases does (« ordre inconnu » → non); a figure beside
one of its names (« tapis de 2 », « 2 tours »), read as what the question asks (« tapis de 28 sur
une mise de 20 » adds 8); a seat beside the button's or a blind's name (« le bouton est le 4 »).
The TD's own question (« on peut relancer ? ») is no fact: `asked.facts_only` drops it first. Amounts written in the description (« ouverture
200 tapis 290 ») are proposed for the first list of bets, each only when a betting word names it:
« jeton de 25 », « 50 % », « 3 joueurs » or « la bb à 200 » are not bets.
"""
from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass

from ruling.decide.asked import facts_only

AMOUNT_RE = re.compile(r"(?<![\d,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,])|\d+")
WINDOW = 2  # words allowed between the words of a key phrase
# A word right after one of these is negated: « sans parler » does not say « parler »; and the word
# a negation governs follows it closely (« sans carte brûlée » is « sans brûlée », but « sans
# brûlée, on connaît l'ordre » is not « sans ordre »).
NEGATED_WINDOW = 1
NEGATIONS = frozenset({"sans", "pas", "ne", "non", "jamais", "aucun", "aucune", "ni"})
# Counts written in letters read as figures, on both sides: « en une fois » is not « en deux fois »
# (the search analysis drops « une » as a stop word), « trois cartes » is « 3 cartes ».
NUMBER_WORDS = {"un": "1", "une": "1", "deux": "2", "trois": "3", "quatre": "4", "cinq": "5", "six": "6",
                "sept": "7", "huit": "8", "neuf": "9", "dix": "10"}
# (« quelqu'un » is not « quelqu' 1 »)
_NUMBER_WORD_RE = re.compile(r"(?<!quelqu')(?<!quelqu’)(?<!quelqu )\b(" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)
# The words that name a figure of the description as a bet (folded, as typed: « relance à 600 »,
# « ouverture 200 », « tapis pour 900 »), and those that name it as something else: the figure goes
# with the nearest of them before it, at most BET_REACH words back.
BET_WORDS = frozenset({"ouverture", "ouvre", "ouvert", "ouvrir", "mise", "mises", "mis", "miser", "met",
                       "relance", "relances", "relancer", "raise", "bet", "tapis", "all", "allin", "suit",
                       "suivi", "suivre", "call", "paye", "paie", "payer", "sur"})
NOT_BET_WORDS = frozenset({"jeton", "jetons", "bb", "sb", "blind", "blinds", "blinde", "lieu", "pas",
                           "niveau", "siege", "table"})
NOT_AMOUNT_AFTER = frozenset({"%", "joueur", "joueurs", "tour", "tours", "minute", "minutes", "min", "seconde",
                              "secondes", "carte", "cartes", "main", "mains", "fois", "heure", "heures", "h",
                              "niveau", "niveaux", "cennes", "relances", "places", "sieges", "jetons"})
BET_REACH = 3


@dataclass
class FromWords:
    """A proposed answer: shown as « d'après vos mots : text », confirmed with Enter."""

    question: str
    value: object
    text: str
    origin: str = "vos mots"
    #: the description's terms this answer read (« donneur »): once confirmed, they answer no other
    #: question (« carte tombée du donneur » says who dropped it, not that it was the dealer's card)
    used: tuple[str, ...] = ()


def _terms(text: str) -> list[str]:
    # upward (decide → search): one analysis for the words, the search package's; lazy, whoosh-free
    from ruling.search.analysis import analyze

    return analyze(_NUMBER_WORD_RE.sub(lambda m: NUMBER_WORDS[m.group(1).lower()], text.replace("-", " ")))


def _gaps(phrase: list[str], described: list[str]) -> int | None:
    """The fewest words between the terms of `phrase` where they appear in `described` in order, at
    most WINDOW terms apart (None when they do not); a term a negation governs must follow it within
    NEGATED_WINDOW, and a negated term is not the phrase's."""
    if not phrase:
        return None
    best = None
    for start, term in enumerate(described):
        if term != phrase[0]:
            continue
        if start and described[start - 1] in NEGATIONS and phrase[0] not in NEGATIONS:
            continue  # « sans parler » is not « parler »
        at, gaps, ok = start, 0, True
        for previous, wanted in zip(phrase, phrase[1:]):
            reach = NEGATED_WINDOW if previous in NEGATIONS else WINDOW
            # the next term, not negated by a word the phrase does not have (« relance sans annonce »
            # is not « relance annoncée »)
            step = next((k for k in range(reach + 1) if at + 1 + k < len(described)
                         and described[at + 1 + k] == wanted
                         and (described[at + k] not in NEGATIONS or described[at + k] == previous)), None)
            if step is None:
                ok = False
                break
            gaps += step
            at = at + 1 + step
        if ok and (best is None or gaps < best):
            best = gaps
    return best


def _occurs(phrase: list[str], described: list[str]) -> bool:
    return _gaps(phrase, described) is not None


def _equivalents(phrase: str, glossary: list) -> list[list[str]]:
    """`phrase` and the glossary's other ways of saying it, as term lists."""
    from ruling.search.query import stands_for_others  # upward (decide → search), as _terms

    own = _terms(phrase)
    out = [own]
    for entry in glossary or ():
        forms = [str(f) for f in [entry.get("term", "")] + list(entry.get("en") or []) + list(entry.get("synonyms") or []) if f]
        analysed = [_terms(f) for f in forms]
        if own in analysed:  # the others, as the search expands them (« je parle » stands for nothing)
            out += [a for f, a in zip(forms, analysed) if a and a not in out and stands_for_others(f, a)]
    return out


def propose(question, description: str, glossary: list, amounts_taken: bool = False,
            used: Counter | None = None, later: set | frozenset = frozenset()) -> FromWords | None:
    """The answer to `question` the description gives, or None (none, or several choices match).
    `used`: the terms earlier confirmed answers read (`FromWords.used`), which answer no choice here;
    `later`: the questions still to be asked after this one."""
    if not description.strip():
        return None
    if not question.reads_the_question:  # « on peut relancer ? » is the TD's question, not a fact
        description = facts_only(description)
    words = question.words or {}
    if question.type == "choice":
        options: list = [(key, label, words[key] if key in words else [key]) for key, label in question.choices.items()]
        return _longest_match(question.id, options, _unused(_terms(description), used), glossary)
    if question.type == "bool" and words:
        options = [(value, word, words.get(word) or []) for value, word in ((True, "oui"), (False, "non"))]
        return _longest_match(question.id, options, _unused(_terms(description), used), glossary)
    if question.kind == "seat":
        return _seat_named(question, description)
    if question.type == "amount":
        return _named_figure(question, _terms(_without_words(description, (question.words or {}).get("pas-nom", []))))
    if question.type == "amounts" and question.kind == "amounts" and not amounts_taken:
        if question.not_proposed_with and question.not_proposed_with in later:
            return None  # « relance insuffisante 500 sur 400 »: which figure is the faulty bet, the words do not say
        amounts = bets_written(description)
        # proposed only when they rise (successive totals do): « 800 sur 500 » names a bet and what it
        # faced, and a list the words do not put in order is typed by the TD, never guessed
        if amounts and all(a < b for a, b in zip(amounts, amounts[1:])):
            return FromWords(question.id, amounts, ", ".join(map(str, amounts)))
    return None


def bets_written(description: str) -> list[int]:
    """The figures of `description` that a betting word names (« ouverture 200 tapis 290 »), in order."""
    from ruling.search.analysis import fold  # upward (decide → search), as _terms

    text = fold(description)
    out = []
    for match in AMOUNT_RE.finditer(text):
        before = re.findall(r"[a-z]+|\d+", text[:match.start()])[-BET_REACH:]
        after = re.match(r"\s*(%|[a-z]+)", text[match.end():])
        if after and after.group(1) in NOT_AMOUNT_AFTER:
            continue  # « 50 % », « 3 joueurs », « 2 tours »
        named = next((w for w in reversed(before) if w in BET_WORDS or w in NOT_BET_WORDS or w.isdigit()), None)
        if named in BET_WORDS:
            out.append(int(re.sub(r"\D", "", match.group())))
    return out


def _unused(described: list[str], used: Counter | None) -> list[str]:
    """`described` with the first occurrences of the `used` terms blanked (their places kept, so
    the gaps between the other words stay what they were)."""
    if not used:
        return described
    left = Counter(used)
    out = []
    for term in described:
        if left[term] > 0:
            left[term] -= 1
            out.append("")
        else:
            out.append(term)
    return out


def _longest_match(qid: str, options, described: list[str], glossary: list) -> FromWords | None:
    """The option (value, text, phrases) whose phrase, or a glossary equivalent of it, found in the
    description is the longest, then one of its own phrases before a glossary equivalent (« donne des
    jetons » is the choice that says it, not collusion, which the glossary groups with it), then the
    tightest (« pot en no limit » is no limit, not pot limit); none when no phrase is found or two
    options tie."""
    found = []
    for value, text, phrases in options:
        scores = [((len(p), i == 0, -gaps), tuple(p)) for phrase in phrases for i, p in enumerate(_equivalents(phrase, glossary))
                  for gaps in [_gaps(p, described)] if gaps is not None]
        if scores:
            score, read = max(scores, key=lambda s: s[0])
            found.append((score, value, text, read))
    found.sort(key=lambda f: f[0], reverse=True)
    if found and (len(found) == 1 or found[0][0] > found[1][0]):
        _, value, text, read = found[0]
        return FromWords(qid, value, text, used=read)
    return None


def _without_words(description: str, words: list[str]) -> str:
    """`description` without the words of `words` (`words: {pas-nom: [mise]}`), folded: a name's
    stem may be another word's (« mis », the figure put in, and « mise », the bet faced)."""
    if not words:
        return description
    from ruling.search.analysis import fold  # upward (decide → search), as _terms

    pattern = r"\b(?:" + "|".join(re.escape(fold(w)) for w in words) + r")\b"
    return re.sub(pattern, " ", fold(description))


def _named_figure(question, described: list[str]) -> FromWords | None:
    """A figure the words give by its name, next to it: « 2 tours » for `tours`, « grosse blind 200 »
    for `grosse-blind`, « tapis de 2 » for a figure named « tapis » in its `words: {nom: …}`; none
    when the name is absent or two different figures go with it. A question that asks what a total
    adds over another figure (`words: {total-sur: [sur une mise de]}`) reads « tapis de 28 sur une
    mise de 20 » as 8, what the question asks, and says so."""
    words = question.words or {}
    found = _figures_named([_terms(question.id.replace("-", " "))] + [_terms(n) for n in words.get("nom", [])], described)
    if len(found) != 1:
        return None
    value = found.pop()
    over = _figures_named([_terms(n) for n in words.get("total-sur", [])], described, after_only=True)
    if len(over) == 1 and 0 < (base := over.pop()) < value:
        return FromWords(question.id, value - base, f"{value - base} (ce que {value} ajoute à {base})")
    return FromWords(question.id, value, str(value))


def _figures_named(names: list[list[str]], described: list[str], after_only: bool = False) -> set[int]:
    """The figures written right after one of `names` (« tapis de 2 »), else right before it (« 2
    tours »), unless `after_only`: in « un tapis de 2 », the « un » is not the figure."""
    units = _unit_terms()
    found = set()
    for name in names:
        for start in range(len(described) - len(name) + 1):
            if not name or described[start:start + len(name)] != name:
                continue
            for at in (start + len(name),) if after_only else (start + len(name), start - 1):
                if 0 <= at < len(described) and described[at].isdigit():
                    if at > start and at + 1 < len(described) and described[at + 1] in units and not after_only:
                        continue  # « 2 tours à 9 joueurs »: the 9 counts the players, not the tours
                    found.add(int(described[at]))
                    break
    return found


@functools.cache
def _unit_terms() -> frozenset[str]:
    """NOT_AMOUNT_AFTER as analysed terms: the words that say what a figure before them counts;
    not those whose stem is a betting word's (« relances » is « relance »: « big blind 100 relance
    mini » gives the big blind, trial 9, C5)."""
    bets = {t for w in BET_WORDS for t in _terms(w)}
    return frozenset(t for w in NOT_AMOUNT_AFTER for t in _terms(w) if not t.isdigit() and t not in bets)


# A seat is a number written with its marker (« siège 4 », « joueur 4 », « le 4 », « au 4 ») right after
# the seat's name (« bouton siège 3 », « le bouton est le 4 ») or, failing that, right before it (« le
# siège 1 au bouton »); a part of the description ends at a comma, « et », « puis » or « entre » (« le
# siège 4, entre le bouton et la petite blind » names neither the button's seat nor the blind's).
_MARKED_SEAT = r"(?:(?:au|le|en)\s+|(?:siege|seat|joueur|place|numero|no|n°)\s*|#\s*)+(\d{1,2})\b(?!\s*(?:%|jetons?))"
_SEAT_AFTER = r"\s+(?:(?:est|sont|etait)\s+)?" + _MARKED_SEAT
_SEAT_BEFORE = (r"\b(?:siege|seat|joueur|place|numero|no|n°|le|#)\s*(\d{1,2})\s+(?:(?:est|sont|etait)\s+)?"
                r"(?:(?:au|a\s+la|a\s+l|en|le|la|de)\s+)?")
_PART_END = re.compile(r"[,;.!?:]|\b(?:et|puis|entre|mais)\b")


def _seat_named(question, description: str) -> FromWords | None:
    """The seat the words give beside one of the question's names (« bouton siège 3 », « le siège 1
    au bouton », « petite blind joueur 6 »); none when the parts of the description that name it give
    two different seats."""
    from ruling.search.analysis import fold  # upward (decide → search), as _terms

    names = [re.escape(fold(n)) for n in (question.words or {}).get("nom", [])]
    if not names:
        return None
    name = r"\b(?:" + "|".join(names) + r")\b"
    after, before = re.compile(name + _SEAT_AFTER), re.compile(_SEAT_BEFORE + name)
    found: set[int] = set()
    for part in _PART_END.split(re.sub(r"[()\[\]]", " ", fold(description))):
        found |= {int(n) for n in after.findall(part)} or {int(n) for n in before.findall(part)}
    if len(found) == 1:
        seat = found.pop()
        return FromWords(question.id, seat, f"siège {seat}")
    return None
