"""Find import cycles among the modules of a package (pyopl by default).

Reads every ``.py`` file under the package with the standard library's ``ast``
module (nothing is imported or run), collects every import statement -- those
inside functions and methods included, since a function-local import that
closes a loop is still a loop, only a hidden one -- resolves relative imports,
builds the module graph and prints each strongly connected component of more
than one module (Tarjan's algorithm).

Imports under ``if TYPE_CHECKING:`` are not edges: they are never run (they name types for
type checkers and editors only), so they cannot close a loop at run time.

Edges: ``import a.b`` and ``from a.b import c`` both give an edge to module
``a.b``; when ``c`` is itself a module (``a/b/c.py``) the edge goes to ``a.b.c``
instead.  The implicit import of parent packages (``a/__init__.py``) is not an
edge: it only matters when an ``__init__`` imports its own children, which is
visible as an explicit edge of that ``__init__``.

Usage::

    python tools/import_cycles.py                       # report every cycle in pyopl and syntagm
    python tools/import_cycles.py pyopl/lowering pyopl/syntax
        # report every cycle; exit 1 when one touches a module in those folders

Exit status: 0 when no reported cycle touches the folders given (all of the
package when none are given), 1 otherwise.  The one documented exception
(docs/architecture.md: the diagnostics registry and the code modules that
register themselves with it) is printed and marked as allowed, and does not
count.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path, root: Path) -> str:
    """The dotted module name of *path* relative to *root* (``a/b/__init__.py`` -> ``a.b``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def collect_modules(package: Path, root: Path) -> dict[str, Path]:
    """Every module under *package*: dotted name -> file."""
    return {module_name(p, root): p for p in sorted(package.rglob("*.py"))}


def resolve(current: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name of ``from <level dots><module> import ...`` written in *current*."""
    if level == 0:
        return module or ""
    base = current.split(".") if is_package else current.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` test is ``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_time_nodes(tree: ast.AST):
    """Every node of *tree* except those inside the body of an ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of *modules* that the file *path* (module *name*) imports, anywhere in it
    (function-local imports included, ``if TYPE_CHECKING:`` blocks excluded)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in _run_time_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                # ``import a.b.c`` loads a.b.c; count the deepest part that is ours
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(name, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                if sub in modules:
                    found.add(sub)
                elif base in modules:
                    found.add(base)
    found.discard(name)
    return found


def import_graph(package: Path | list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the modules of *package* (one folder or several) it imports (see the module
    docstring for what counts)."""
    modules: dict[str, Path] = {}
    for p in package if isinstance(package, list) else [package]:
        modules.update(collect_modules(p, root))
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted, sorted by first name.

    Tarjan's algorithm, iterative (no recursion limit on deep graphs).
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def touching(components: list[list[str]], folders: list[str], root: Path = ROOT) -> list[list[str]]:
    """The components with at least one module inside one of *folders* (paths relative to *root*)."""
    prefixes = [module_name(root / f / "__init__.py", root) if (root / f).is_dir() else module_name(root / f, root)
                for f in folders]
    return [c for c in components
            if any(m == p or m.startswith(p + ".") for m in c for p in prefixes)]


PACKAGES = ("pyopl", "syntagm")
#: the one cycle allowed (docs/architecture.md): the registry and the code modules that register themselves
REGISTRY = "pyopl.diagnostics.registry"
REGISTRY_CODES = "pyopl.diagnostics.codes"


def is_allowed(component: list[str]) -> bool:
    """Whether *component* is the documented registry cycle: only the registry and the modules of
    ``pyopl.diagnostics.codes`` (which import the registry to register their codes, and which the
    registry imports on the first look-up of a code it does not hold yet)."""
    return all(m == REGISTRY or m == REGISTRY_CODES or m.startswith(REGISTRY_CODES + ".") for m in component)


def main(argv: list[str]) -> int:
    """Print every cycle of the pyopl and syntagm packages; 1 when one other than the allowed registry
    cycle touches the folders in *argv* (any folder when *argv* is empty)."""
    graph = import_graph([ROOT / p for p in PACKAGES])
    components = cycles(graph)
    for component in components:
        allowed = " (allowed: the documented registry cycle)" if is_allowed(component) else ""
        print(f"cycle ({len(component)} modules){allowed}: " + ", ".join(component))
    failing = [c for c in (touching(components, argv) if argv else components) if not is_allowed(c)]
    if not components:
        print("no import cycles")
    elif argv:
        print(f"{len(failing)} of {len(components)} cycle(s) touch {', '.join(argv)} (the allowed one not counted)")
    else:
        print(f"{len(failing)} cycle(s) besides the allowed one")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
