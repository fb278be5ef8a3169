"""Import whoosh without the network and asyncio stacks, and the other modules, it never uses here.

`whoosh.compat` imports `urllib.request` (and with it `http.client`, `ssl`, `email`) only to
re-export `urlretrieve`, and `whoosh.reading` takes `cached_property` from a package that
imports `asyncio`. Together that is 30-50 ms of every `ruling search`. `whoosh.query` also
imports `whoosh.lang.morph_en` (English word variations, about 8 ms of CPU compiling its
patterns) for a query type ruling never builds, `whoosh.analysis` the Porter stemmer
(`whoosh.lang.porter`, English, compiled patterns: ruling stems French) and the double
metaphone (`whoosh.lang.dmetaphone`, English sound-alike codes, 1-1.5 ms), and
`whoosh.filedb.filestore` imports `tempfile` (with `shutil`, `bz2`, `lzma`, `random`, 3-4 ms)
for one `gettempdir()` of a storage ruling never opens. The on-disk codec imports `shutil`
(`bz2`, `lzma`) for one `copyfileobj` of index merging, `whoosh.compat` imports `html` (its
entity table) and `queue`, `whoosh.util` `random`, `whoosh.util.times` `calendar`, each for
functions a search never calls; the hash tables import `hashlib`, which starts OpenSSL
(`_hashlib`), for `md5` alone; and the French stemmer comes from `whoosh.lang.snowball`, whose
package imports all fourteen languages' stemmers. Together about 10-14 ms of every search
(bench/README.md, 2026-12-01 « A cached ruling search within 2.5× »).

During whoosh's own import we lend it a stand-in for each (a lazy `urlretrieve`, the standard
library's `functools.cached_property`, a lazy `variations`, a lazy Porter `stem` and
`double_metaphone`, a lazy `gettempdir`, a lazy `copyfileobj` and `html.escape`, the same
`md5` from the standard library's `_md5`, modules `queue`, `random`, `calendar` that become
the real one at their first use, and a `whoosh.lang.snowball` package through which only its
French stemmer is imported, kept here as `FrenchStemmer`), then take them back: any later
import gets the real module. Import this module before any `whoosh` module.
"""
from __future__ import annotations

import functools
import importlib
import sys
import types


def _urlretrieve(*args, **kwargs):  # never called by ruling; correct if it ever is
    from urllib.request import urlretrieve

    return urlretrieve(*args, **kwargs)


def _variations(word):  # whoosh's Variations query only, never built by ruling; correct if it is
    from whoosh.lang.morph_en import variations

    return variations(word)


def _porter_stem(word):  # whoosh's English analyzers only, never built by ruling; correct if they are
    from whoosh.lang.porter import stem

    return stem(word)


def _double_metaphone(word):  # whoosh's DoubleMetaphoneFilter only, never built by ruling; correct if it is
    from whoosh.lang.dmetaphone import double_metaphone

    return double_metaphone(word)


def _gettempdir():  # whoosh's TempStorage only, never opened by ruling; correct if it is
    import tempfile

    return tempfile.gettempdir()


def _copyfileobj(*args, **kwargs):  # whoosh's compound files when merging segments; ruling writes one segment
    from shutil import copyfileobj

    return copyfileobj(*args, **kwargs)


def _html_escape(*args, **kwargs):  # whoosh's HtmlFormatter only; ruling's snippets mark with **
    from html import escape

    return escape(*args, **kwargs)


try:  # whoosh's hash tables call `md5` to place keys: the same digests without OpenSSL's start-up
    from _md5 import md5 as _md5
except ImportError:  # a Python built without it
    def _md5(*args, **kwargs):
        from hashlib import md5

        return md5(*args, **kwargs)


class _LazyModule(types.ModuleType):
    """A module that becomes the real one at its first attribute use (after whoosh's import).

    For `import queue` kept as a module attribute and used only inside functions; a
    `from queue import X` run while it is lent fails loudly (ImportError) rather than binding
    a stand-in."""

    def __getattr__(self, name):
        if sys.modules.get(self.__name__) is self:
            raise AttributeError(f"{self.__name__}.{name}: module lent during whoosh's import")
        return getattr(importlib.import_module(self.__name__), name)


def _stand_in(name: str, **attributes) -> types.ModuleType:
    module = types.ModuleType(name)
    for attribute, value in attributes.items():
        setattr(module, attribute, value)
    return module


def _snowball_package() -> types.ModuleType:
    """`whoosh.lang.snowball` as an empty package over its real folder: importing
    `whoosh.lang.snowball.french` through it runs only french.py and bases.py."""
    import whoosh.lang

    package = types.ModuleType("whoosh.lang.snowball")
    package.__path__ = [p + "/snowball" for p in whoosh.lang.__path__]
    package.__package__ = "whoosh.lang.snowball"
    return package


#: whoosh's French Snowball stemmer class (`stemmer_for_language("fr")` is its `stem`), taken
#: during the import below; the French module is then taken back too, so that a later
#: `import whoosh.lang.snowball` runs the real package whole.
FrenchStemmer: type = None  # type: ignore[assignment]


def _import_whoosh_core() -> None:
    global FrenchStemmer
    if "whoosh.compat" in sys.modules:
        from whoosh.lang.snowball.french import FrenchStemmer
        return
    stand_ins = {
        "urllib.request": lambda: _stand_in("urllib.request", urlretrieve=_urlretrieve),
        "cached_property": lambda: _stand_in("cached_property", cached_property=functools.cached_property),
        "whoosh.lang.morph_en": lambda: _stand_in("whoosh.lang.morph_en", variations=_variations),
        "whoosh.lang.porter": lambda: _stand_in("whoosh.lang.porter", stem=_porter_stem),
        "whoosh.lang.dmetaphone": lambda: _stand_in("whoosh.lang.dmetaphone", double_metaphone=_double_metaphone),
        "tempfile": lambda: _stand_in("tempfile", gettempdir=_gettempdir),
        "shutil": lambda: _stand_in("shutil", copyfileobj=_copyfileobj),
        "html": lambda: _stand_in("html", escape=_html_escape),
        "hashlib": lambda: _stand_in("hashlib", md5=_md5),
        "queue": lambda: _LazyModule("queue"),
        "random": lambda: _LazyModule("random"),
        "calendar": lambda: _LazyModule("calendar"),
    }
    lent = {name: make() for name, make in stand_ins.items() if name not in sys.modules}
    sys.modules.update(lent)
    try:
        import whoosh.codec.whoosh3  # noqa: F401  (the on-disk codec: shutil, hashlib)
        import whoosh.compat  # noqa: F401
        import whoosh.query  # noqa: F401
        import whoosh.reading  # noqa: F401
        import whoosh.searching  # noqa: F401

        if "whoosh.lang.snowball" not in sys.modules:
            lent["whoosh.lang.snowball"] = sys.modules["whoosh.lang.snowball"] = _snowball_package()
            before = set(sys.modules)
            FrenchStemmer = importlib.import_module("whoosh.lang.snowball.french").FrenchStemmer
            lent.update({name: sys.modules[name] for name in set(sys.modules) - before})
        else:
            from whoosh.lang.snowball.french import FrenchStemmer
    finally:
        for name, module in lent.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]


_import_whoosh_core()
