"""ruling: a ruling assistant and knowledge base for French poker rulebooks.

    >>> import ruling
    >>> kb = ruling.load_kb()
    >>> kb.clause("club:9-13").text[:30]
    'En cas de relance à tapis infé'
"""
from __future__ import annotations

from ruling.errors import KnowledgeBaseError, UserError

__version__ = "0.1.0"

__all__ = ["load_kb", "UserError", "KnowledgeBaseError", "__version__"]


def __getattr__(name):
    """`ruling.load_kb`, imported on first use: every `import ruling.x` runs this file, and must not
    pay for the loader."""
    if name == "load_kb":
        from ruling.kb.load import load_kb

        return load_kb
    raise AttributeError(name)
