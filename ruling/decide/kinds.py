"""What a typed figure is (amount, seat, rank, count, card…): its prompt, how it is read, what is refused.

A calculator input declares a `kind` (`rulebook/calculators.yaml`); the kind gives the French
prompt (never « Montant » for a seat), the validation with one French line, and whether « aucun »
is accepted (input flag `none`). Lists are read by one rule, shown to the TD as « lu : … »:
commas or semicolons separate; without them, a blank separates, except that a no-break or narrow
no-break space always groups thousands, a whole answer grouped by three from one or two digits
(« 2 500 », « 1 000 000 ») is one amount, and any other plain blank before exactly three digits
(« 200 350 ») is refused as ambiguous rather than guessed.
"""
from __future__ import annotations

import re
import unicodedata

#: Largest amount read: 12 digits is far beyond any chip count, and bounds every computation.
MAX_AMOUNT_DIGITS = 12
#: Most values in one answer (a bet per raise, a stack per player).
MAX_AMOUNTS = 1000
#: Highest seat number at a poker table.
MAX_SEAT = 12

LIST_KINDS = ("amounts", "seats", "ranks", "counts", "cards")
SCALAR_KINDS = ("amount", "seat", "rank", "count")
KINDS = SCALAR_KINDS + LIST_KINDS
NONE_WORDS = {"aucun", "aucune", "aucuns", "aucunes", "personne", "rien", "none", "-"}

# Plain blank, no-break space, narrow no-break space.
_BLANKS = " \u00a0\u202f"
_TYPOGRAPHIC = "\u00a0\u202f"  # always a thousands separator
_GROUPED_RE = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+")
_TYPO_GROUPED_RE = re.compile(r"\d{1,3}(?:[\u00a0\u202f]\d{3})+")


class KindError(ValueError):
    """A typed value this kind refuses; `reason` says why, in French (or is empty)."""

    def __init__(self, reason: str = ""):
        super().__init__(reason)
        self.reason = reason


def default_kind(qtype: str) -> str:
    return "amounts" if qtype == "amounts" else "amount"


def type_of(kind: str) -> str:
    """The answer shape of a kind: one value (amount) or a list (amounts)."""
    return "amounts" if kind in LIST_KINDS else "amount"


# -- what the TD reads ------------------------------------------------------------------------------

_PROMPTS = {
    "amount": "Montant en jetons",
    "amounts": "Montants en jetons, séparés par des virgules",
    "seat": "Numéro de siège",
    "seats": "Numéros de sièges, séparés par des virgules",
    "rank": "Rang à l'abattage",
    "ranks": "Rangs, séparés par des virgules (1 = meilleure main, 0 = couché)",
    "count": "Nombre",
    "counts": "Nombres, séparés par des virgules",
    "cards": "Cartes, séparées par des virgules (ex. As♠, Rh, 10 de cœur)",
}

_EXPECTED = {
    "amount": f"un nombre entier de jetons ≥ 0 ({MAX_AMOUNT_DIGITS} chiffres au plus, ex. 2 500)",
    "amounts": f"une liste de nombres entiers de jetons ≥ 0 séparés par des virgules (ex. 200, 2 500 ; {MAX_AMOUNTS} au plus)",
    "seat": f"un numéro de siège de 1 à {MAX_SEAT}",
    "seats": f"une liste de numéros de sièges de 1 à {MAX_SEAT}, différents, séparés par des virgules (ex. 1, 3, 4)",
    "rank": "un rang entier ≥ 0 (1 = meilleure main, 0 = couché)",
    "ranks": "une liste de rangs entiers ≥ 0 séparés par des virgules, un par joueur (ex. 1, 2, 0)",
    "count": f"un nombre entier ≥ 0 ({MAX_AMOUNT_DIGITS} chiffres au plus)",
    "counts": "une liste de nombres entiers ≥ 0 séparés par des virgules (ex. 3, 0, 1)",
    "cards": "une liste de cartes séparées par des virgules : valeur (A, R/K, D/Q, V/J, 10/T, 9…2) puis couleur "
             "(♠ ♥ ♦ ♣, pique, cœur, carreau, trèfle, ou s, h, d, c à l'anglaise), ex. As♠, Rh, 10 de cœur",
}


def prompt_text(kind: str, none: bool) -> str:
    text = _PROMPTS[kind]
    if none:
        text += " (« aucun » ou Entrée : aucun)" if kind in LIST_KINDS else " (« aucun » si aucun)"
    return text


def expected_text(kind: str, none: bool = False) -> str:
    text = _EXPECTED[kind]
    return text + ", ou « aucun »" if none else text


# -- reading ------------------------------------------------------------------------------------------

def whole(text) -> int:
    """A whole number: an int, or digits written plainly or grouped by three (« 2 500 »)."""
    if isinstance(text, bool):
        raise KindError
    if isinstance(text, int):
        value = text
    elif isinstance(text, float) and text.is_integer():
        value = int(text)
    else:
        digits = str(text).strip().replace("_", "")
        digits = digits[1:] if digits.startswith("+") else digits
        if _GROUPED_RE.fullmatch(digits):
            digits = re.sub(f"[{_BLANKS}]", "", digits)
        elif not re.fullmatch(r"\d+", digits):
            raise KindError
        if len(digits.lstrip("0")) > MAX_AMOUNT_DIGITS:
            raise KindError
        value = int(digits)
    if value < 0 or value >= 10 ** MAX_AMOUNT_DIGITS:
        raise KindError
    return value


def list_items(text: str) -> list[str]:
    """The items of a typed list, by the rule of this module's docstring."""
    text = text.strip().strip("[]").strip()
    if not text:
        return []
    if re.search(r"[,;]", text):
        return [t.strip() for t in re.split(r"[,;]", text) if t.strip()]
    # typographic thousands first: « 2 500 3 000 » (NBSP) is two amounts
    protected = _TYPO_GROUPED_RE.sub(lambda m: re.sub(f"[{_TYPOGRAPHIC}]", "", m.group()), text)
    if _GROUPED_RE.fullmatch(protected) and len(protected.split()[0]) <= 2:
        return [protected]  # « 2 500 », « 12 000 », « 1 000 000 »: one amount written in thousands
    items = protected.split()
    for before, after in zip(items, items[1:]):
        if re.fullmatch(r"\d{1,3}", before) and re.fullmatch(r"\d{3}", after):
            raise KindError(f"« {before} {after} » est ambigu (un montant de {before}{after} ou deux montants ?) : "
                            f"séparez les montants par des virgules ({before}, {after}) ou écrivez {before}{after}")
    return items


def is_none_word(raw) -> bool:
    return isinstance(raw, str) and _fold(raw) in NONE_WORDS


def parse_value(kind: str, raw, none: bool = False):
    """`raw` (typed text, or a YAML value) read as `kind`; KindError when it is not one."""
    if none and is_none_word(raw):
        return [] if kind in LIST_KINDS else 0
    if kind in LIST_KINDS:
        items = list(raw) if isinstance(raw, (list, tuple)) else list_items(str(raw))
        if len(items) > MAX_AMOUNTS:
            raise KindError
        if kind == "cards":
            cards = [parse_card(i) for i in items]
            doubled = [c for k, c in enumerate(cards) if c in cards[:k]]
            if doubled:
                raise KindError(f"la carte {card_label(doubled[0])} est tapée deux fois (un jeu n'en a qu'une)")
            return cards
        numbers = [_scalar(kind[:-1], i) for i in items]
        if kind == "seats" and len(set(numbers)) != len(numbers):
            seat = next(v for k, v in enumerate(numbers) if v in numbers[:k])
            raise KindError(f"le siège {seat} est tapé deux fois")
        return numbers
    return _scalar(kind, raw, none)


def _scalar(kind: str, raw, none: bool = False) -> int:
    value = whole(raw)
    if kind == "seat" and not 1 <= value <= MAX_SEAT and not (none and value == 0):  # 0 = aucun, as the figures write it
        raise KindError(f"un siège se numérote de 1 à {MAX_SEAT} (reçu {value})")
    return value


# -- cards ----------------------------------------------------------------------------------------------

RANKS = "23456789TJQKA"  # low to high
SUITS = "shdc"  # pique, cœur, carreau, trèfle: the order of 12-3, strongest first
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_RANK_NAMES = {"a": "A", "as": "A", "ace": "A", "k": "K", "r": "K", "roi": "K", "king": "K", "q": "Q", "d": "Q",
               "dame": "Q", "queen": "Q", "j": "J", "v": "J", "valet": "J", "jack": "J", "t": "T", "10": "T",
               "dix": "T", "ten": "T", "9": "9", "8": "8", "7": "7", "6": "6", "5": "5", "4": "4", "3": "3", "2": "2",
               "neuf": "9", "huit": "8", "sept": "7", "six": "6", "cinq": "5", "quatre": "4", "trois": "3", "deux": "2"}
_SUIT_NAMES = {"♠": "s", "♤": "s", "pique": "s", "piques": "s", "spade": "s", "spades": "s", "s": "s", "p": "s",
               "♥": "h", "♡": "h", "coeur": "h", "coeurs": "h", "heart": "h", "hearts": "h", "h": "h",
               "♦": "d", "♢": "d", "carreau": "d", "carreaux": "d", "diamond": "d", "diamonds": "d", "d": "d",
               "♣": "c", "♧": "c", "trefle": "c", "trefles": "c", "club": "c", "clubs": "c"}
_FRENCH_RANKS = {"r", "roi", "d", "dame", "v", "valet", "as", "dix"}
_ENGLISH_RANKS = {"k", "king", "q", "queen", "j", "jack", "t", "ace", "ten"}
_FRENCH_RANK_LABELS = {"A": "A", "K": "R", "Q": "D", "J": "V", "T": "10"}


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", str(text).strip().lower().replace("œ", "oe"))
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def parse_card(raw) -> str:
    """A card as « As♠ », « A♠ », « AS », « as de pique », « Ah », « 10 de cœur », « Td » → "As", "Th"…
    A lone « c » is cœur after a French rank (R, D, V), clubs after an English one (K, Q, J, T), and
    refused after A or a digit, where it could be either."""
    text = _fold(raw)
    if text.startswith("as de ") or text.startswith("as "):
        rank_word, suit_word = "as", text.split(" ", 1)[1].removeprefix("de ").strip()
    else:
        m = re.fullmatch(r"(10|roi|dame|valet|dix|deux|trois|quatre|cinq|six|sept|huit|neuf|ace|king|queen|jack|ten|"
                         r"as|[2-9]|[akqjtrdv])\s*(?:de\s+|of\s+)?(.+)", text)
        if m is None:
            raise KindError(f"« {raw} » n'est pas une carte")
        rank_word, suit_word = m.group(1), m.group(2).strip()
    if suit_word == "c":
        if rank_word in _FRENCH_RANKS:
            suit = "h"
        elif rank_word in _ENGLISH_RANKS:
            suit = "c"
        else:
            raise KindError(f"« {raw} » est ambigu (c = cœur ou clubs ?) : écrivez {raw[:-1]}♥ ou « de cœur », "
                            f"{raw[:-1]}♣ ou « de trèfle »")
    elif suit_word in _SUIT_NAMES:
        suit = _SUIT_NAMES[suit_word]
    else:
        raise KindError(f"« {raw} » : couleur inconnue « {suit_word} »")
    return _RANK_NAMES[rank_word] + suit


def card_label(code: str) -> str:
    """A card code "As" as the TD reads it: « A♠ » (R, D, V for king, queen, jack)."""
    return _FRENCH_RANK_LABELS.get(code[0], code[0]) + SUIT_SYMBOLS[code[1]]


def card_strength(code: str) -> int:
    """Higher is stronger: by rank, then by suit in the order pique, cœur, carreau, trèfle (12-3)."""
    return RANKS.index(code[0]) * 4 + (3 - SUITS.index(code[1]))
