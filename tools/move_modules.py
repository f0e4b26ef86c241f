"""Move modules of pyopl/ or syntagm/ to new places and rewrite every reference to them.

Reads a table of moves (``old.dotted.name new.dotted.name`` per line, ``#`` comments) and:

1. ``git mv`` each file (creating the new folders' ``__init__.py`` when missing is left to the caller,
   who writes what each folder holds);
2. rewrites every import in the ``.py`` files of the repository that names a moved module, or that
   sits in a moved file and is relative (its dots change with the file's depth): the statement's
   module text is replaced, and ``from P import m`` where ``m`` is a moved module is rewritten to
   import ``m`` from its new package (imports are read with :mod:`ast`, function-local ones included);
3. rewrites dotted names (``pyopl.script.values``) and paths (``pyopl/script/values.py``,
   ``script/values.py``) in every text file git tracks (docs, comments, strings, tests).

Usage::

    python tools/move_modules.py MOVES.txt          # apply
    python tools/move_modules.py MOVES.txt --dry    # print what would change
    python tools/move_modules.py MOVES.txt --skip pyopl/lowering   # leave files under a folder alone

Nothing is imported or run; the repository is the current directory's git work tree.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from import_cycles import resolve  # noqa: E402  (one reading of a relative import, shared with the cycle finder)

ROOT = Path.cwd()
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".lark", ".sh", ".json", ".yml", ".yaml", ".ini", ".rst"}


def read_moves(path: Path) -> dict[str, str]:
    """The table of moves: old dotted module name -> new dotted module name."""
    moves = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            old, new = line.split()
            moves[old] = new
    return moves


def file_of(module: str) -> Path:
    """``a.b.c`` -> ``a/b/c.py`` (a package's ``__init__`` is never moved by this tool)."""
    return Path(*module.split(".")).with_suffix(".py")


def module_of(path: Path) -> tuple[str, bool]:
    """(dotted name, is a package ``__init__``) of a file relative to the root."""
    parts = list(path.with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def relative(current_package: str, target: str) -> str:
    """``target`` written relative to ``current_package`` (``pyopl.script.engine``, ``pyopl.script.language``
    -> ``..language``); the package itself is ``.``."""
    cur, tgt = current_package.split("."), target.split(".")
    common = 0
    while common < min(len(cur), len(tgt)) and cur[common] == tgt[common]:
        common += 1
    return "." * (len(cur) - common + 1) + ".".join(tgt[common:])


def _all_modules() -> set[str]:
    out = set()
    for pkg in ("pyopl", "syntagm"):
        for p in (ROOT / pkg).rglob("*.py"):
            out.add(module_of(p.relative_to(ROOT))[0])
    return out


def rewrite_imports(text: str, old_name: str, new_name: str, is_package: bool, moves: dict[str, str],
                    modules: set[str]) -> str:
    """The source ``text`` of the module ``old_name`` (now ``new_name``) with its imports rewritten."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    new_package = new_name if is_package else new_name.rpartition(".")[0]
    edits = []  # (line index, col, end line index, end col, replacement)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = resolve(old_name, is_package, node.level, node.module)
            moved_target = moves.get(target, target)
            # names that are moved modules of the package ``target``
            sub = {a.name: moves[target + "." + a.name] for a in node.names if target + "." + a.name in moves}
            if sub:
                groups: dict[str, list[str]] = {}
                for a in node.names:
                    full = target + "." + a.name
                    if full in moves:
                        parent, _, leaf = moves[full].rpartition(".")
                        alias = a.asname or (a.name if leaf != a.name else None)
                    else:
                        parent, leaf, alias = moved_target, a.name, a.asname
                    groups.setdefault(parent, []).append(leaf + (" as " + alias if alias and alias != leaf else ""))
                indent = re.match(r"\s*", lines[node.lineno - 1]).group(0)
                stmts = []
                for parent, names in groups.items():
                    where = relative(new_package, parent) if node.level else parent
                    stmts.append("from %s import %s" % (where, ", ".join(names)))
                edits.append((node.lineno - 1, node.col_offset, node.end_lineno - 1, node.end_col_offset,
                              ("\n" + indent).join(stmts)))
                continue
            if node.level == 0:
                if moved_target == target:
                    continue
                where = moved_target
            else:
                if moved_target == target and new_name == old_name:
                    continue
                where = relative(new_package, moved_target)
            line = lines[node.lineno - 1]
            m = re.compile(r"from\s+(\.*[\w.]*)\s+import").match(line, node.col_offset)
            if not m:
                raise SystemExit("cannot read the import at %s:%d" % (old_name, node.lineno))
            if m.group(1) != where:
                edits.append((node.lineno - 1, m.start(1), node.lineno - 1, m.end(1), where))
                shift = len(where) - len(m.group(1))
                if "(" in line[m.end():] and node.end_lineno > node.lineno:  # keep continuation lines aligned
                    for k in range(node.lineno, node.end_lineno):
                        pad = len(lines[k]) - len(lines[k].lstrip(" "))
                        edits.append((k, 0, k, pad, " " * max(0, pad + shift)))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in moves:
                    line = lines[node.lineno - 1]
                    i = line.index(a.name, node.col_offset)
                    edits.append((node.lineno - 1, i, node.lineno - 1, i + len(a.name), moves[a.name]))
    for l0, c0, l1, c1, rep in sorted(edits, reverse=True):
        lines[l0:l1 + 1] = [lines[l0][:c0] + rep + lines[l1][c1:]]
    return "".join(lines)


def text_patterns(moves: dict[str, str]) -> list[tuple[re.Pattern, str]]:
    """Dotted names and paths of the moved modules, longest first."""
    out = []
    for old, new in sorted(moves.items(), key=lambda kv: -len(kv[0])):
        out.append((re.compile(r"(?<![\w.])%s(?![\w])" % re.escape(old)), new))
        op, np_ = old.replace(".", "/") + ".py", new.replace(".", "/") + ".py"
        out.append((re.compile(r"(?<![\w/.])%s(?![\w])" % re.escape(op)), np_))
        # the path without the top package (``script/values.py``), as docs write it
        short_old, short_new = op.split("/", 1)[1], np_.split("/", 1)[1]
        if "/" in short_old:
            out.append((re.compile(r"(?<![\w/.])%s(?![\w])" % re.escape(short_old)), short_new))
    return out


def main(argv: list[str]) -> int:
    moves = read_moves(Path(argv[0]))
    dry = "--dry" in argv
    skip = [argv[i + 1].rstrip("/") + "/" for i, a in enumerate(argv) if a == "--skip"]
    modules = _all_modules()
    for old in moves:
        if old not in modules:
            raise SystemExit("not a module: %s" % old)
    tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.splitlines()
    new_of_file = {file_of(o).as_posix(): file_of(n).as_posix() for o, n in moves.items()}
    patterns = text_patterns(moves)
    changed = {}
    for rel in tracked:
        path = ROOT / rel
        if path.suffix not in TEXT_SUFFIXES or not path.is_file() or rel.startswith("shared/") \
                or any(rel.startswith(s) for s in skip):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = text
        if path.suffix == ".py":
            old_name, is_pkg = module_of(Path(rel))
            new_file = new_of_file.get(rel, rel)
            new_name = module_of(Path(new_file))[0]
            try:
                new = rewrite_imports(new, old_name, new_name, is_pkg, moves, modules)
            except SyntaxError:
                pass
        for pat, rep in patterns:
            new = pat.sub(rep, new)
        if new != text:
            changed[rel] = new
    if dry:
        for rel in sorted(changed):
            print("rewrite", rel)
        for o, n in new_of_file.items():
            print("git mv", o, n)
        return 0
    for rel, text in changed.items():
        (ROOT / rel).write_text(text, encoding="utf-8")
    for o, n in new_of_file.items():
        (ROOT / n).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "mv", o, n], check=True)
    print("%d files rewritten, %d modules moved" % (len(changed), len(new_of_file)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
