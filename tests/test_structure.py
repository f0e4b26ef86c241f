"""The package's structure: no import cycles in the lowering and syntax stages, one table of built-ins,
one dispatch table of constructs (issue 15, "Structure").

The cycle finder (tools/import_cycles.py) reads imports with ``ast``, function-local ones included;
its own tests below run it on small packages written here, whose cycles are known by construction.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "tools" / "import_cycles.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("import_cycles", mod)
    spec.loader.exec_module(mod)
    return mod


cycles_tool = _tool()


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_the_finder_sees_a_cycle_hidden_in_a_function(tmp_path):
    pkg = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from .b import f\n",
        "pkg/b.py": "def f():\n    from . import a  # hidden\n    return a\n",
        "pkg/c.py": "from pkg.a import f\n",  # imports into the cycle, is not part of it
        "pkg/sub/__init__.py": "",
        "pkg/sub/d.py": "from ..c import f\nfrom . import e\n",
        "pkg/sub/e.py": "import pkg.sub.d\n",
    })
    graph = cycles_tool.import_graph(pkg, tmp_path)
    assert graph["pkg.b"] == {"pkg.a"}
    assert graph["pkg.sub.d"] == {"pkg.c", "pkg.sub.e"}
    found = cycles_tool.cycles(graph)
    assert found == [["pkg.a", "pkg.b"], ["pkg.sub.d", "pkg.sub.e"]]
    assert cycles_tool.touching(found, ["pkg/sub"], tmp_path) == [["pkg.sub.d", "pkg.sub.e"]]
    assert cycles_tool.touching(found, ["pkg/c.py"], tmp_path) == []


def test_the_finder_passes_a_layered_package(tmp_path):
    pkg = _write(tmp_path, {
        "pkg/__init__.py": "from .top import run\n",
        "pkg/base.py": "X = 1\n",
        "pkg/mid.py": "from .base import X\n",
        "pkg/top.py": "from . import mid\nfrom .base import X\ndef run():\n    from .mid import X\n",
    })
    graph = cycles_tool.import_graph(pkg, tmp_path)
    assert graph["pkg.top"] == {"pkg.mid", "pkg.base"}
    assert cycles_tool.cycles(graph) == []


@pytest.mark.parametrize("folder", ["pyopl/lowering", "pyopl/syntax"])
def test_no_import_cycle_touches(folder):
    found = cycles_tool.touching(cycles_tool.cycles(cycles_tool.import_graph(ROOT / "pyopl")), [folder])
    assert found == [], "import cycles through %s: %s" % (folder, found)


@pytest.mark.parametrize("folder", ["pyopl/lowering", "pyopl/syntax"])
def test_no_module_passes_800_lines(folder):
    long = {p.name: n for p in (ROOT / folder).glob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800}
    assert long == {}


def test_every_registered_builtin_is_known_to_the_name_checker():
    from pyopl.lowering.builtins import BUILTINS, FUNCTIONS

    assert set(FUNCTIONS) <= set(BUILTINS)
    assert {"abs", "card", "ord", "floor", "ftoi", "minl", "rand", "asSet", "staticLex"} <= set(FUNCTIONS)
    # names the checker knows that are values, not calls: an unknown-function diagnostic if called
    assert set(BUILTINS) - set(FUNCTIONS) == {"dist", "maxint", "infinity"}


def test_a_builtin_name_is_registered_once():
    from pyopl.lowering import builtins

    with pytest.raises(ValueError, match="registered twice"):
        builtins.builtin("abs")(lambda ev, node, env: 0)


def test_every_expression_node_has_one_tree_walk_handler():
    """Each concrete expression class of the AST is in the Evaluator's dispatch table (the one place
    a construct is wired in), and the table holds nothing else."""
    from pyopl.lowering.expressions import Evaluator
    from pyopl.syntax import ast as A

    kinds = {c for c in vars(A).values() if isinstance(c, type) and issubclass(c, A.Expr) and c is not A.Expr
             and not any(issubclass(d, c) and d is not c for d in vars(A).values() if isinstance(d, type))}
    table = Evaluator(None)._dispatch
    assert set(table) == kinds
