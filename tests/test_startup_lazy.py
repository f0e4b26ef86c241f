"""Start-up: `import pyopl` loads no heavy library, a compile and a HiGHS solve load no SciPy, and
the NumPy paths that stand in for SciPy there give SciPy's arrays exactly."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import pyopl
from pyopl.ir import IR, CSRParts
from pyopl.lowering.model.build import _canonical

ROOT = Path(__file__).resolve().parent.parent


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, cwd=str(ROOT), timeout=120)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_import_pyopl_loads_no_heavy_library_and_keeps_the_public_names():
    mods = _modules_after("import pyopl")
    assert not {"numpy", "scipy", "lark", "highspy", "pandas", "rich", "pyopl.api"} & mods
    for name in pyopl.__all__:  # every public name is still there (imported on first use)
        assert getattr(pyopl, name) is not None
    assert pyopl.compile_model is pyopl.api.compile_model and pyopl.Result is pyopl.results.result.Result
    with pytest.raises(AttributeError):
        pyopl.no_such_name  # noqa: B018


def test_compile_and_highs_solve_load_neither_scipy_nor_the_script_interpreter():
    mods = _modules_after("import pyopl\nr = pyopl.compile_model('examples/transport.mod', data='examples/transport.dat')"
                          ".solve()\nassert r.status == 'optimal' and abs(r.objective - 2590) < 1e-6")
    assert not any(m == "scipy" or m.startswith("scipy.") for m in mods)
    assert not {"pyopl.script.engine.interpreter", "pyopl.script.opl.host", "pyopl.script.flow.processing", "pyopl.backends.explain.iis"} & mods
    assert "lark" in mods and "highspy" in mods  # (the check above did run a parse and a solve)


def _random_csr(rng, m, n, density):
    dense = (rng.random((m, n)) < density) * rng.normal(size=(m, n))
    dense[rng.random((m, n)) < density / 4] = 0.0  # explicit zeros are kept below (as the IR may hold them)
    rows, cols = np.nonzero(dense != 0)
    keep = rng.random(len(rows)) < 0.9
    rows, cols = rows[keep], cols[keep]
    A = sp.csr_array((dense[rows, cols], (rows, cols)), shape=(m, n))
    A.sort_indices()
    return A


@pytest.mark.parametrize("seed", range(8))
def test_numpy_csc_equals_scipy_tocsc_sorted(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(1, 40)), int(rng.integers(1, 40))
    A = _random_csr(rng, m, n, float(rng.uniform(0.02, 0.5)))
    parts = CSRParts(A.data.copy(), A.indices.astype(np.int32), A.indptr.astype(np.int32), (m, n))
    ir = IR(sense="minimize", col_lower=np.zeros(n), col_upper=np.ones(n), col_integer=np.zeros(n, bool),
            col_name=["x"] * n, col_key=[(j,) for j in range(n)], obj=np.zeros(n), obj_constant=0.0, A=parts,
            row_lower=np.zeros(m), row_upper=np.ones(m), row_label=[""] * m, row_key=[()] * m)
    import pyopl.sparse_order as so

    monkeypatch.delitem(sys.modules, "scipy.sparse")  # the NumPy path runs while SciPy is not loaded
    monkeypatch.setattr(so, "_TOCSC", [None])  # nor its compiled transpose found (tests/test_handover.py has that one)
    indptr, indices, data = ir.csc()
    assert ir.__dict__["A"] is parts and ir.nnz == A.nnz  # nothing made SciPy's matrix
    monkeypatch.undo()
    ref = A.tocsc()
    ref.sort_indices()
    assert np.array_equal(indptr, ref.indptr) and np.array_equal(indices, ref.indices)
    assert np.array_equal(data, ref.data) and np.array_equal(np.signbit(data), np.signbit(ref.data))
    # reading ir.A gives SciPy's matrix of the same arrays, once
    assert ir.A is ir.A and (ir.A != A).nnz == 0 and ir.A.shape == (m, n)


@pytest.mark.parametrize("seed", range(20))
def test_canonical_check_agrees_with_scipy(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 12))
    counts = rng.integers(0, 5, size=m)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    cols = rng.integers(0, 6, size=int(indptr[-1]))
    if seed % 3 == 0:  # a third sorted and distinct per row
        cols = np.concatenate([np.sort(rng.choice(10, size=c, replace=False)) for c in counts] + [np.zeros(0, int)])
    a = sp.csr_array((np.ones(len(cols)), cols, indptr), shape=(m, 10))
    assert _canonical(cols, indptr) == a.has_canonical_format


def test_a_clean_compile_loads_no_diagnostic_entries_and_a_mistake_still_gets_its_code():
    mods = _modules_after("import pyopl\nr = pyopl.compile_model('examples/transport.mod', data='examples/transport.dat')"
                          ".solve()\nassert r.status == 'optimal'")
    assert not any(m.startswith("pyopl.diagnostics.codes") for m in mods)
    # in a fresh process, the first diagnostic loads the entries (code and severity from the registry)
    out = subprocess.run([sys.executable, "-c", "import pyopl, sys\nd = pyopl.check_text('dvar float x; minimize y;')\n"
                          "print(d[0].code, d[0].severity, 'pyopl.diagnostics.codes' in sys.modules)"],
                         capture_output=True, text=True, cwd=str(ROOT), timeout=120)
    assert out.stdout.split() == ["OPL0101", "error", "True"], out.stderr


def test_the_registry_tables_load_their_entries_on_the_first_missing_key(monkeypatch):
    from pyopl.diagnostics import registry

    assert registry.BY_SLUG["undeclared-name"].code == "OPL0101" and registry.KINDS["OPL0101"].slug == "undeclared-name"
    with pytest.raises(KeyError):
        registry.BY_SLUG["no-such-kind"]
    fills = []
    monkeypatch.setattr(registry, "_fill", lambda: fills.append(1))
    with pytest.raises(KeyError):
        registry.KINDS["OPL9999"]
    assert fills == [1]  # a missing key asks for the entries (then is still missing)


def test_ast_nodes_repr_as_dataclass_would():
    import dataclasses

    from pyopl.syntax import ast as A

    sp = pyopl.Span("m.mod", 1, 2, 1, 5)
    nodes = [A.Binary(sp, "+", A.Name(sp, "x"), A.Const(sp, 1.5)), A.Compare(sp, [A.Name(sp, "a"), A.Const(sp, 2)], ["<="]),
             A.Model(sp, [A.Using(sp, "CP")], "m.mod", "using CP;"), A.Pattern(sp, items=[A.Pattern(sp, name="i")])]
    for node in nodes:
        cls = type(node)
        twin = dataclasses.make_dataclass(cls.__qualname__, [(f.name, f.type, f) for f in dataclasses.fields(cls)],
                                          eq=False)  # dataclass's own __repr__, compiled for these fields
        assert repr(node) == repr(twin(**{f.name: getattr(node, f.name) for f in dataclasses.fields(cls)}))
    assert repr(nodes[0]).startswith("Binary(span=Span(file='m.mod', line=1, column=2, ")


def _run(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


@pytest.mark.skipif(importlib.util.find_spec("regex") is None, reason="the third-party `regex` module is not installed")
def test_lark_s_optional_regex_module_loads_on_first_use_and_works_as_before():
    # the `pyopl` command's solve never loads it ...
    assert _run("import sys, pyopl.cli\nr = pyopl.compile_model('examples/transport.mod', data='examples/transport.dat')"
                ".solve()\nm = sys.modules['regex']\nprint(type(m).__name__, '_pyopl_real_module' in vars(m), "
                "r.objective)") == ["DeferredModule", "False", "2590.0"]
    # ... while a program that imports pyopl keeps its modules as they are
    assert _run("import sys, pyopl\nprint('regex' in sys.modules, type(sys.modules.get('lark')).__name__)") == \
        ["False", "NoneType"]
    # ... Lark still has it (Unicode categories need it) and anyone may use it, whichever way it is imported
    code = ("import sys, pyopl\nfrom pyopl.syntax.parser import lark_parser\nfrom lark import Lark\n"
            "p = Lark('start: WORD\\nWORD: /\\\\p{Lu}+/', parser='lalr', regex=True)\n"
            "print(p.parse('\\u00c0B').children[0], type(sys.modules['regex']).__name__)\n")
    assert _run(code) == ["\u00c0B", "module"]
    for use in ("import regex\nprint(regex.match(r'\\p{Ll}+', 'abC').group(0))",
                "from regex import compile\nprint(compile(r'\\p{Ll}+').match('abC').group(0))",
                "import regex._main\nimport regex\nprint(regex.match(r'\\p{Ll}+', 'abC').group(0))"):
        assert _run("import pyopl.cli\n" + use) == ["ab"], use


@pytest.mark.skipif(importlib.util.find_spec("regex") is None, reason="the third-party `regex` module is not installed")
def test_a_program_s_compile_loads_lark_without_regex_and_leaves_its_modules_as_they_were():
    # pyopl imports Lark with `regex` deferred, then takes the deferred module out of sys.modules
    code = ("import sys, pyopl\nr = pyopl.compile_model('examples/transport.mod', data='examples/transport.dat')"
            ".solve()\nimport lark.utils, lark.lark\nd = lark.utils.regex\n"
            "print('regex' in sys.modules, type(d).__name__, lark.lark.regex is d, lark.utils._has_regex, r.objective)\n"
            "import regex\nprint(type(regex).__name__, regex.match(r'\\p{Ll}+', 'abC').group(0), d.compile is regex.compile)\n")
    assert _run(code) == ["False", "DeferredModule", "True", "True", "2590.0", "module", "ab", "True"]
    # Lark's own `regex=True` loads the real module through the deferred one
    code = ("import sys\nfrom pyopl.syntax.parser import lark_parser\nfrom lark import Lark\n"
            "p = Lark('start: WORD\\nWORD: /\\\\p{Lu}+/', parser='lalr', regex=True)\n"
            "print(p.parse('\\u00c0B').children[0], type(sys.modules['regex']).__name__)\n")
    assert _run(code) == ["\u00c0B", "module"]
    # a program that imported regex first keeps its own module, which Lark uses
    assert _run("import regex, sys, pyopl\npyopl.check('dvar float x; minimize x; subject to { x >= 1; }')\n"
                "import lark.utils\nprint(lark.utils.regex is regex, sys.modules['regex'] is regex)") == ["True", "True"]


def test_importing_deferring_leaves_an_imported_module_alone_and_removes_an_unused_stand_in():
    from pyopl.lazy_names import DeferredModule, import_deferring

    for name in ("colorsys", "json.tool"):
        sys.modules.pop(name, None)
    import_deferring("json.tool", "colorsys")  # json.tool never uses colorsys: its stand-in goes again
    assert "json.tool" in sys.modules and "colorsys" not in sys.modules
    import_deferring("json.tool", "colorsys")  # imported already: nothing happens
    assert "colorsys" not in sys.modules
    sys.modules.pop("json.tool", None)
    import colorsys

    import_deferring("json.tool", "colorsys")  # imported by the program: left as it is
    assert sys.modules["colorsys"] is colorsys and type(colorsys) is not DeferredModule


def test_a_deferred_module_takes_over_the_real_one_s_names():
    from pyopl.lazy_names import DeferredModule, defer_import

    name = "colorsys"  # a small standard module no test imports
    sys.modules.pop(name, None)
    defer_import(name)
    m = sys.modules[name]
    assert type(m) is DeferredModule and "rgb_to_hsv" not in vars(m)
    import colorsys

    assert colorsys is m and colorsys.rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)
    assert sys.modules[name] is not m and type(sys.modules[name]).__name__ == "module"  # the real one, in its place
    assert vars(m)["rgb_to_hsv"] is sys.modules[name].rgb_to_hsv  # read directly from now on
    defer_import(name)
    assert type(sys.modules[name]).__name__ == "module"  # imported already: left alone
    defer_import("no_such_module_anywhere")
    assert "no_such_module_anywhere" not in sys.modules


def test_the_program_finalises_garbage_then_freezes_the_rest_for_a_quick_exit(tmp_path):
    # `run` (the console script, `python -m pyopl`): main's exit code, an object that is garbage in a
    # reference cycle when main returns is finalised (its __del__ writes a file), and the collector's
    # live objects are frozen (not walked again at interpreter exit)
    flag = tmp_path / "finalised"
    code = ("import gc, sys\n"
            "class Cycle:\n"
            "    def __del__(self):\n"
            "        open(%r, 'w').write('yes')\n"
            "c = Cycle(); c.me = c; del c\n"
            "sys.argv = ['pyopl', 'explain', 'OPL0001']\n"
            "from pyopl.cli import run\n"
            "code = run()\n"
            "print(code, gc.get_freeze_count() > 0, gc.get_threshold()[0])\n" % str(flag))
    out = subprocess.run([sys.executable, "-c", "import gc; gc.disable()\n" + code], capture_output=True, text=True,
                         cwd=str(ROOT), timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "0 True 100000"  # (the program's own collector threshold)
    assert flag.read_text() == "yes"


def test_main_leaves_the_collector_as_it_is():
    import gc

    from pyopl.cli import main

    before = gc.get_freeze_count()
    assert main(["explain", "OPL0001"]) == 0
    assert gc.get_freeze_count() == before


def test_the_report_table_loads_texttable_without_wcwidth_and_leaves_the_module_importable():
    # texttable's own fallback (unicodedata's East Asian width) lays out the table: a CJK label counts
    # two columns a character, so the dual and slack columns stay aligned; the program can still
    # import wcwidth afterwards (the blocking entry is gone)
    code = ("import sys, json\nfrom pyopl.results.report import _table\n"
            "lines = _table('constraints:', [('ct', '1', '0'), ('\u4f9b\u5e94', '2.5', '10')])\n"
            "loaded = ['wcwidth' in sys.modules, 'texttable' in sys.modules]\n"
            "import wcwidth\nprint(json.dumps([loaded, lines, wcwidth.wcwidth('a')]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), timeout=120)
    assert out.returncode == 0, out.stderr
    loaded, lines, width = json.loads(out.stdout)
    assert loaded == [False, True] and width == 1
    # by hand: indent 2; the label column 4 wide (two CJK characters of width 2; `ct` padded with 2),
    # 3 spaces between columns, `dual` 4 wide and `slack` 5 wide, numbers right-aligned
    assert lines[-2:] == ["  ct  " + "   " + "   1" + "   " + "    0",
                          "  \u4f9b\u5e94" + "   " + " 2.5" + "   " + "   10"]


def test_import_without_uses_an_optional_module_already_loaded(monkeypatch):
    import types

    from pyopl.lazy_names import import_without

    fake = types.ModuleType("pyopl_fake_optional")
    monkeypatch.setitem(sys.modules, "pyopl_fake_optional", fake)
    monkeypatch.delitem(sys.modules, "json", raising=False)
    mod = import_without("json", "pyopl_fake_optional")
    assert mod is sys.modules["json"] and sys.modules["pyopl_fake_optional"] is fake
