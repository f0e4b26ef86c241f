"""Every module path the README and ``docs/*.md`` name exists (issue 49: after the package folders
were cut into sub-folders, a page still named ``pyopl.result.mark_script_failed`` and
``pyopl/lowering/vectorised_domains.py``).  ``tests/test_structure.py`` checks the layer table of
docs/architecture.md; this checks every page, without importing anything:

- a dotted name ``pyopl.a.b.name`` (or ``syntagm....``): its longest prefix that is a module or
  package of the tree exists, and the next part, if any, is a name in that module's source (a
  function, class, constant or re-export) or a sub-module;
- a path ``pyopl/...``, ``syntagm/...``, ``tools/...``, ``benchmarks/...``, ``examples/...``,
  ``editors/...``, ``grammar/...``, ``knowledge_base/...`` or ``tests/...``: the file or folder
  exists (``path/module.name`` is read as the module ``path/module.py`` and its name ``name``).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: the installed resource packages live at the top of the repository (setup.py)
RESOURCE_DIRS = {("pyopl", "grammar"): ROOT / "grammar", ("syntagm", "knowledge_base"): ROOT / "knowledge_base"}

#: names that look like module paths but are not: each with why
NOT_MODULES = {
    "pyopl.toml": "the project settings file pyopl reads (docs/cli.md)",
    "pyopl.command": "an editor setting (docs/editors.md)",
}
NOT_FILES = {
    "examples/cp/X.mod": "a placeholder for any example (docs/cp.md)",
    "examples/cp/X.dat": "a placeholder for any example (docs/cp.md)",
    "tests/test-gbnf-validator.cpp": "a file of llama.cpp, not of this repository (docs/syntagm.md)",
    "pyopl/lowering/vectorised_domains.py": "history in docs/performance.md: since folded, as the page says",
    "pyopl/lowering/vectorised_patterns.py": "history in docs/performance.md: since folded, as the page says",
}
#: folders a run writes (benchmark results, the benchmark environments): named, never committed
GENERATED = ("benchmarks/.venvs", "benchmarks/results")

DOTTED = re.compile(r"(?<![\w./-])((?:pyopl|syntagm)(?:\.[A-Za-z_]\w*)+)")
PATH = re.compile(r"(?<![\w./-])((?:pyopl|syntagm|tools|benchmarks|examples|editors|grammar|knowledge_base|tests)"
                  r"/[\w./*-]*)")
FILE_SUFFIXES = (".py", ".md", ".json", ".lark", ".mod", ".dat", ".csv", ".xlsx", ".lp", ".mps", ".txt")


def _folder(parts: tuple[str, ...]) -> Path:
    """The folder of the package named by ``parts`` (resource packages mapped to their top folder)."""
    for prefix, where in RESOURCE_DIRS.items():
        if parts[:2] == prefix:
            return where.joinpath(*parts[2:])
    return ROOT.joinpath(*parts)


def _defined_names(source: Path) -> set[str]:
    """The names a module defines at its top level (also under ``if``/``try``): functions, classes,
    assigned and imported names, and the string keys/items of top-level dicts and lists (lazy
    exports such as ``pyopl._LAZY`` and ``__all__``)."""
    names: set[str] = set()
    body = list(ast.parse(source.read_text(encoding="utf-8")).body)
    while body:
        node = body.pop()
        if isinstance(node, (ast.If, ast.Try)):
            body.extend(node.body + node.orelse + getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                body.extend(handler.body)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
            value = node.value
            items = (value.keys if isinstance(value, ast.Dict) else value.elts
                     if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else [])
            names.update(i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str))
    return names


def _dotted_problem(name: str) -> str | None:
    """Why the dotted ``name`` does not exist in the tree, or None when it does."""
    parts = tuple(name.split("."))
    for i in range(len(parts), 0, -1):
        folder = _folder(parts[:i])
        source = None
        if (folder / "__init__.py").is_file():
            source = folder / "__init__.py"
        elif folder.with_suffix(".py").is_file():
            source = folder.with_suffix(".py")
        if source is None:
            continue
        if i == len(parts):
            return None
        attr = parts[i]
        if (folder / attr).is_dir() or (folder / (attr + ".py")).is_file():
            return None
        if attr in _defined_names(source):
            return None
        return "%s has no `%s`" % (".".join(parts[:i]), attr)
    return "no such module"


def _path_problem(path: str) -> str | None:
    """Why ``path`` does not exist in the tree, or None when it does."""
    if path.startswith(GENERATED) or path in NOT_FILES:
        return None
    parts = tuple(p for p in path.split("/") if p)
    target = _folder(parts)
    if target.exists() or any(target.parent.glob(target.name)):
        return None
    stem, dot, attr = parts[-1].partition(".")
    if dot and not path.endswith(FILE_SUFFIXES) and (target.parent / (stem + ".py")).is_file():
        return _dotted_problem(".".join(parts[:-1] + (stem, attr))) if parts[0] in ("pyopl", "syntagm") else None
    return "missing"


def _references():
    """(page, line number, kind, text) for every module name and path the pages mention."""
    for page in PAGES:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for m in DOTTED.finditer(line):
                name = m.group(1)
                if name not in NOT_MODULES and not name.endswith(FILE_SUFFIXES):
                    yield page.name, number, "module", name
            for m in PATH.finditer(line):
                yield page.name, number, "path", m.group(1).rstrip(".,:;")


def test_every_module_and_path_named_in_the_docs_exists():
    problems = []
    for page, number, kind, text in _references():
        why = _dotted_problem(text) if kind == "module" else _path_problem(text)
        if why:
            problems.append("%s:%d: %s `%s`: %s" % (page, number, kind, text, why))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("text, kind", [("pyopl.result.mark_script_failed", "module"),
                                        ("pyopl.lowering.no_such_module", "module"),
                                        ("pyopl/lowering/vectorised.py", "path"),
                                        ("pyopl/script/files/input_paths.no_such_name", "path")])
def test_a_moved_module_is_reported(text, kind):
    """The checker itself: names that do not exist (a module before the move, a missing name) are
    reported, so the test above can fail."""
    assert (_dotted_problem(text) if kind == "module" else _path_problem(text)) is not None


@pytest.mark.parametrize("text, kind", [("pyopl.results.result.mark_script_failed", "module"),
                                        ("pyopl.grammar", "module"),
                                        ("pyopl/lowering/arrays/vectorised.py", "path"),
                                        ("pyopl/script/files/input_paths.script_input", "path")])
def test_an_existing_module_is_accepted(text, kind):
    assert (_dotted_problem(text) if kind == "module" else _path_problem(text)) is None
