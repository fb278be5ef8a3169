"""The whoosh import shim against the pinned whoosh-reloaded: what it saves, and that it lends nothing.

`ruling.search.whoosh_fast` lends whoosh a lazy `urllib.request`, `tempfile`, Porter stemmer and the standard library's
`cached_property` while whoosh imports, so a search does not import the network stack nor
asyncio. These run in fresh interpreters, as `ruling search` starts.
"""
from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

from packaging.version import Version


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_installed_whoosh_is_in_the_pinned_range():
    assert Version("2.7.5") <= Version(version("whoosh-reloaded")) < Version("2.8")


def test_whoosh_through_the_shim_imports_neither_the_network_stack_nor_asyncio():
    shimmed = _modules_after("import ruling.search.whoosh_fast, whoosh.searching, whoosh.fields, whoosh.query")
    plain = _modules_after("import whoosh.searching, whoosh.fields, whoosh.query")
    saved = {"urllib.request", "http.client", "ssl", "asyncio", "whoosh.lang.morph_en", "whoosh.lang.porter",
             "tempfile", "shutil", "bz2", "lzma"}
    assert saved <= plain  # what the shim saves
    assert not (saved | {"cached_property"}) & shimmed


def test_a_search_imports_neither_and_real_modules_come_back_after():
    code = ("from ruling.kb.load import load_kb\nfrom ruling.search import search\n"
            "assert search(load_kb(), 'relanse insufisante').hits\n"
            "import urllib.request\nassert hasattr(urllib.request, 'Request')  # the real module, not the stand-in\n"
            "import whoosh.reading, functools\n"
            "assert whoosh.reading.cached_property is functools.cached_property\n"
            "import whoosh.query.terms as terms\n"
            "assert terms.variations('card') == __import__('whoosh.lang.morph_en').lang.morph_en.variations('card')\n"
            "import whoosh.analysis.morph as morph, whoosh.lang.porter as porter, whoosh.filedb.filestore as fs\n"
            "assert [morph.stem(w) for w in ('running', 'cats')] == [porter.stem(w) for w in ('running', 'cats')]\n"
            "import tempfile\nassert fs.tempfile.gettempdir() == tempfile.gettempdir() and hasattr(tempfile, 'mkdtemp')")
    subprocess.run([sys.executable, "-c", code], check=True)
    assert "asyncio" not in _modules_after("from ruling.kb.load import load_kb\nfrom ruling.search import search\n"
                                           "search(load_kb(), 'carte brulee')")


def test_a_search_with_its_index_cached_loads_neither_the_parser_nor_the_model():
    """`ruling search` with the index cached hashes the base and searches (kb/root.py,
    kb/names.py): the parser, the parsed-base cache and the procedures' model stay unimported."""
    warm = "from ruling.search import search_path\nassert search_path(None, 'carte brulee').hits"
    subprocess.run([sys.executable, "-c", warm], check=True)  # builds and caches the index
    loaded = _modules_after(warm)
    assert "whoosh.searching" in loaded and "ruling.kb.root" in loaded
    assert not {"ruling.kb.load", "ruling.kb.plain", "ruling.kb.model", "ruling.decide.procedures", "tempfile"} & loaded
