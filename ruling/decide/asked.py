"""The TD's own question inside his description (« … on peut relancer ? », « c'est autorisé ? »).

A description mixes what happened with what the TD asks. The words of the question are not facts:
in « relance de 50 seulement, c'est autorisé », nothing was authorised; in « celui qui a misé peut-il
relancer », nobody has re-raised. `facts_only` blanks those parts so that « d'après vos mots » reads
only what happened; a question that asks what is disputed (`Question.reads_the_question`: « Que
faut-il trancher ? ») still reads the whole description.
"""
from __future__ import annotations

import re

from ruling.decide.engine import fold

# Subject pronouns an inverted question puts after its verb (« peut-il », « a-t-il »).
_SUBJECT = r"(?:\s+t)?(?:\s+(?:il|elle|on|ils|elles|je|tu))?"
# Object pronouns and particles between a modal and the verb it governs (« peut se recaver »,
# « peut re relancer », « peut les récupérer »).
_PARTICLES = r"(?:\s+(?:se|s|le|la|les|l|lui|leur|en|y|re|ne|pas|encore|toujours|quand|meme))*"
_END = r"[^?,;.!]*"  # the rest of the clause
# A question word and the whole clause it opens: « est-ce que sa main est morte ? ».
_WHOLE_CLAUSE = re.compile(r"\b(?:est ce qu?e?|qu est ce qu?e?|est il (?:permis|possible|normal) d?e?|"
                           r"(?:on|je) fait quoi|que faire|que fait on|quoi faire)\b" + _END)
# A modal and the verb it governs: « on peut relancer », « peut-il sur-relancer », « a-t-il le droit
# de relancer », « doit-il compléter ».
_MODAL = re.compile(r"\b(?:(?:peut|peuvent|peux|pourrait|pourraient|puis(?= je)|puisse)" + _SUBJECT +
                    r"|(?:a|ai|as|ont|avait)" + _SUBJECT + r"\s+(?:le\s+)?droit(?:\s+(?:de|d|a|au|aux))?"
                    r"|(?:doit|doivent|faut)\s+(?:t\s+)?(?:il|elle|on|ils|elles))" + _PARTICLES + r"\s+[a-z]+")
# A judgement asked for: « c'est autorisé », « est-ce valable », or such a word in a clause that
# ends with « ? » (« check raise autorisé chez nous ? »).
_VERDICT_WORDS = r"(?:autorise|permis|valable|legal|interdit|possible|reglementaire|regulier|correct|bon|normal)(?:e|s|es)?"
_VERDICT = re.compile(r"\b(?:c est|est ce|ce serait|c etait|ca reste|c est bien)\s+(?:bien\s+|encore\s+)?" + _VERDICT_WORDS
                      + r"\b|\b" + _VERDICT_WORDS + r"\b(?=" + _END + r"\?)")


def facts_only(description: str) -> str:
    """`description` folded (lower case, no accents), without its question parts."""
    text = re.sub(r"[’'\-]", " ", fold(description))
    for pattern in (_WHOLE_CLAUSE, _MODAL, _VERDICT):
        text = pattern.sub(" ", text)
    return text
