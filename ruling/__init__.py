"""ruling: a ruling assistant and knowledge base for French poker rulebooks.

    >>> import ruling
    >>> kb = ruling.load_kb()
    >>> kb.clause("club:9-13").text[:30]
    'En cas de relance à tapis infé'
"""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["load_kb", "UserError", "KnowledgeBaseError", "__version__"]


def __getattr__(name):  # lazy: importing ruling costs nothing until used
    if name == "load_kb":
        from ruling.kb.load import load_kb

        return load_kb
    if name in ("UserError", "KnowledgeBaseError"):
        from ruling import errors

        return getattr(errors, name)
    raise AttributeError(name)
