"""The whoosh import shim against the pinned whoosh-reloaded: what it saves, and that it lends nothing.

`ruling.search.whoosh_fast` lends whoosh a lazy `urllib.request`, `tempfile`, Porter stemmer and the standard library's
`cached_property` while whoosh imports, so a search does not import the network stack nor
asyncio; and lazy `shutil`, `html`, `hashlib`, `queue`, `random`, `calendar` and a French-only
`whoosh.lang.snowball`, so that a search imports none of them. These run in fresh interpreters,
as `ruling search` starts.
"""
from __future__ import annotations

import os
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


#: What the shim keeps out of whoosh's import (each is imported by plain whoosh, see below).
SAVED = {"urllib.request", "http.client", "ssl", "asyncio", "whoosh.lang.morph_en", "whoosh.lang.porter",
         "whoosh.lang.dmetaphone",
         "tempfile", "shutil", "bz2", "lzma", "html", "html.entities", "hashlib", "_hashlib", "queue", "random",
         "calendar", "whoosh.lang.snowball", "whoosh.lang.snowball.english", "whoosh.lang.snowball.russian"}
WHOOSH_OF_A_SEARCH = ("whoosh.searching, whoosh.fields, whoosh.query, whoosh.codec.whoosh3, "
                      "whoosh.lang.snowball.french")


def test_whoosh_through_the_shim_imports_neither_the_network_stack_nor_asyncio():
    shimmed = _modules_after("import ruling.search.whoosh_fast\nimport sys\n"
                             "sys.modules.pop('whoosh.lang.snowball.french', None)\n"  # kept by the shim alone
                             "import whoosh.searching, whoosh.fields, whoosh.query, whoosh.codec.whoosh3")
    plain = _modules_after("import " + WHOOSH_OF_A_SEARCH)
    assert SAVED <= plain  # what the shim saves
    assert not (SAVED | {"cached_property"}) & shimmed


def test_a_cached_search_imports_none_of_what_the_shim_saves_nor_dataclasses(tmp_path):
    """The whole `ruling search` process with its index cached: none of the shim's savings, nor
    `dataclasses` (ruling's search path has plain classes), nor the parsed base's machinery."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    code = ("import sys\nsys.argv = ['ruling', 'search', 'carte', 'brulee']\nimport runpy\n"
            "try:\n    runpy.run_module('ruling', run_name='__main__')\nexcept SystemExit as e:\n    assert not e.code\n"
            "print('MODULES', ' '.join(sorted(sys.modules)))")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)  # builds the index
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout
    assert "club:2-5" in out
    loaded = set(out.split("MODULES", 1)[1].split())
    assert "whoosh.searching" in loaded and "whoosh.lang.snowball.french" not in loaded
    assert not (SAVED | {"cached_property", "dataclasses", "ruling.kb.load", "yaml"}) & loaded


def test_the_real_modules_come_back_after_the_shim():
    code = ("import ruling.search.analysis as analysis\n"
            "import shutil, html, hashlib, queue, random, calendar\n"
            "assert hasattr(shutil, 'rmtree') and hasattr(html, 'unescape') and hasattr(hashlib, 'sha256')\n"
            "import whoosh.compat, whoosh.util, whoosh.util.times, whoosh.filedb.compound as compound\n"
            "import whoosh.filedb.filetables as tables, whoosh.highlight as highlight, io\n"
            "import whoosh.analysis.morph as morph, whoosh.lang.dmetaphone as dmetaphone\n"
            "assert morph.double_metaphone('Smith') == dmetaphone.double_metaphone('Smith') == ('SM0', 'XMT')\n"
            "assert whoosh.compat.queue.Queue is queue.Queue and whoosh.util.times.calendar.monthrange(2024, 2) == (3, 29)\n"
            "assert len(whoosh.util.random_name(8)) == 8 and highlight.htmlescape('<a>') == '&lt;a&gt;'\n"
            "assert tables.md5(b'x').hexdigest() == hashlib.md5(b'x').hexdigest()\n"
            "out = io.BytesIO()\ncompound.copyfileobj(io.BytesIO(b'xyz'), out)\nassert out.getvalue() == b'xyz'\n"
            "import whoosh.lang.snowball.french, whoosh.lang.snowball as snowball\n"
            "assert sorted(snowball.classes)[:3] == ['da', 'de', 'en'] and whoosh.lang.snowball.french.FrenchStemmer\n"
            "from whoosh.lang import stemmer_for_language\n"
            "words = ['brulee', 'relances', 'joueurs', 'penalites', 'abattage']\n"
            "assert [analysis._snowball(w) for w in words] == [stemmer_for_language('fr')(w) for w in words]\n")
    subprocess.run([sys.executable, "-c", code], check=True)


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
