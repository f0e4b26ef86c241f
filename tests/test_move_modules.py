"""tools/move_modules.py, which moved pyopl/script, pyopl/backends and syntagm's modules into
sub-folders (issue 49) and will move pyopl/lowering's: its import rewriting on small sources whose
right answer is written here by hand."""
from __future__ import annotations

from tools_support import load_tool

tool = load_tool("move_modules")
MOVES = {"pkg.sub.a": "pkg.sub.low.a", "pkg.sub.b": "pkg.sub.high.b"}


def test_relative_names_count_the_levels_from_the_new_package():
    assert tool.relative("pkg.sub.high", "pkg.sub.low.a") == "..low.a"
    assert tool.relative("pkg.sub.high", "pkg.diag.d") == "...diag.d"
    assert tool.relative("pkg.sub", "pkg.sub") == "."


def test_a_moved_file_keeps_pointing_at_what_it_imported():
    text = ("from . import a as A\n"
            "from .a import f, g\n"
            "from ..diag.d import Span\n"
            "def h():\n"
            "    from .a import f\n"
            "    return f\n")
    got = tool.rewrite_imports(text, "pkg.sub.b", "pkg.sub.high.b", False, MOVES, set())
    assert got == ("from ..low import a as A\n"
                   "from ..low.a import f, g\n"
                   "from ...diag.d import Span\n"
                   "def h():\n"
                   "    from ..low.a import f\n"
                   "    return f\n")


def test_a_file_that_stays_follows_the_moves_and_splits_an_import_of_two_modules():
    text = "import pkg.sub.a\nfrom pkg.sub import a, b as B, c\nfrom .sub.a import f  # kept comment\n"
    got = tool.rewrite_imports(text, "pkg.api", "pkg.api", False, MOVES, set())
    assert got == ("import pkg.sub.low.a\n"
                   "from pkg.sub.low import a\nfrom pkg.sub.high import b as B\nfrom pkg.sub import c\n"
                   "from .sub.low.a import f  # kept comment\n")


def test_dotted_names_and_paths_in_text_follow_but_longer_names_do_not():
    text = "see pkg.sub.a.f, pkg/sub/a.py and sub/a.py; not pkg.sub.ab nor xpkg.sub.a"
    for pat, rep in tool.text_patterns(MOVES):
        text = pat.sub(rep, text)
    assert text == "see pkg.sub.low.a.f, pkg/sub/low/a.py and sub/low/a.py; not pkg.sub.ab nor xpkg.sub.a"


def test_continuation_lines_stay_under_the_parenthesis():
    text = "from .a import (f,\n               g)\n"
    got = tool.rewrite_imports(text, "pkg.sub.b", "pkg.sub.high.b", False, MOVES, set())
    assert got == "from ..low.a import (f,\n                    g)\n"
