"""Import whoosh without the network and asyncio stacks it never uses here.

`whoosh.compat` imports `urllib.request` (and with it `http.client`, `ssl`, `email`) only to
re-export `urlretrieve`, and `whoosh.reading` takes `cached_property` from a package that
imports `asyncio`. Together that is 30-50 ms of every `ruling search`. `whoosh.query` also
imports `whoosh.lang.morph_en` (English word variations, about 8 ms of CPU compiling its
patterns) for a query type ruling never builds, `whoosh.analysis` the Porter stemmer
(`whoosh.lang.porter`, English, compiled patterns: ruling stems French), and
`whoosh.filedb.filestore` imports `tempfile` (with `shutil`, `bz2`, `lzma`, `random`, 3-4 ms)
for one `gettempdir()` of a storage ruling never opens. During whoosh's own import we lend it a
stand-in for each (a lazy `urlretrieve`, the standard library's `functools.cached_property`, a
lazy `variations`, a lazy Porter `stem`, a lazy `gettempdir`), then take them back: any later
import gets the real module. Import this module before any `whoosh` module.
"""
from __future__ import annotations

import functools
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


def _gettempdir():  # whoosh's TempStorage only, never opened by ruling; correct if it is
    import tempfile

    return tempfile.gettempdir()


def _import_whoosh_core() -> None:
    if "whoosh.compat" in sys.modules:
        return
    lent = {}
    if "urllib.request" not in sys.modules:
        lent["urllib.request"] = types.ModuleType("urllib.request")
        lent["urllib.request"].urlretrieve = _urlretrieve  # type: ignore[attr-defined]
    if "cached_property" not in sys.modules:
        lent["cached_property"] = types.ModuleType("cached_property")
        lent["cached_property"].cached_property = functools.cached_property  # type: ignore[attr-defined]
    if "whoosh.lang.morph_en" not in sys.modules:
        lent["whoosh.lang.morph_en"] = types.ModuleType("whoosh.lang.morph_en")
        lent["whoosh.lang.morph_en"].variations = _variations  # type: ignore[attr-defined]
    if "whoosh.lang.porter" not in sys.modules:
        lent["whoosh.lang.porter"] = types.ModuleType("whoosh.lang.porter")
        lent["whoosh.lang.porter"].stem = _porter_stem  # type: ignore[attr-defined]
    if "tempfile" not in sys.modules:
        lent["tempfile"] = types.ModuleType("tempfile")
        lent["tempfile"].gettempdir = _gettempdir  # type: ignore[attr-defined]
    sys.modules.update(lent)
    try:
        import whoosh.compat  # noqa: F401
        import whoosh.query  # noqa: F401
        import whoosh.reading  # noqa: F401
    finally:
        for name, module in lent.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]


_import_whoosh_core()
