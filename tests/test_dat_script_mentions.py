"""`mentions_dat_script` (pyopl/data/loader.py) answers exactly `"prepare" in text or "invoke" in text`,
the test that decides whether a `.dat` text is searched for script blocks, found from single-character
scans; and a real block is still run where those words also appear in strings, comments and names."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st
import pytest

from property_budget import SPEED_CHECKS, examples

import pyopl
from pyopl.data.loader import mentions_dat_script

# letters of both words, their bloom-filter twins among the digits, and the characters around them
_TEXT = st.text(alphabet="prepainvokPREAIK026 \n\"/*;", max_size=200)


@given(_TEXT)
@settings(max_examples=examples(400), deadline=None, suppress_health_check=SPEED_CHECKS)
def test_the_same_answer_as_the_substring_test(text):
    assert mentions_dat_script(text) is ("prepare" in text or "invoke" in text)


@pytest.mark.parametrize("text, expected", [
    ("", False),
    ("prepare", True),  # at the very start: no room before the `a`
    ("invoke", True),
    ("a" * 100 + "prepare", True),  # more `a`s than the scan tries: the substring test answers
    ("k" * 100 + "invokf", False),
    ("akakak prepar invok", False),
    ('s = {"prepared", "kk"};', True),  # inside a string, part of a word: found, as before
    ("// invoke later\nn = 3;", True),  # in a comment
    ("/* prepare */ x = 1;", True),
    ("n = 102600;\nm = 62062;", False),
    ("PREPARE INVOKE", False),  # case matters, as before
])
def test_examples(text, expected):
    assert mentions_dat_script(text) is expected


_MOD = """int n = ...;
{string} S = ...;
execute { writeln(n, " ", S.size); }
dvar float+ x;
minimize x;
subject to { x >= n; }
"""


def test_a_block_after_the_words_in_strings_and_comments_still_runs(tmp_path):
    """The `prepare` block and `invoke` come after 100 strings holding `a` and `k` (more places than
    the scan tries), with the words in a comment after them: the function still doubles n
    (4 -> 8), and the strings are data (100 of them)."""
    names = ", ".join('"ak%d"' % i for i in range(100))
    (tmp_path / "m.mod").write_text(_MOD)
    (tmp_path / "m.dat").write_text("S = {%s};\n"
                                    "prepare { function twice(v, name) { n = v * 2; return true; } }\n"
                                    "n = 4 invoke twice;\n// not a prepare block, nor an invoke\n" % names)
    r = pyopl.solve(tmp_path / "m.mod", tmp_path / "m.dat")
    assert r.objective == pytest.approx(8.0)
    assert r.script_output.splitlines() == ["8 100"]
