"""Run the ES3-era tests of test262 (tc39/test262) through pyopl's script interpreter.

    python benchmarks/test262_es3.py /path/to/test262 [--filter SUBSTRING] [--limit N] [--failures N]

``/path/to/test262`` is a checkout of the suite (its ``harness/`` and ``test/`` folders); no
test262 text is kept in this project.  A test is selected when its frontmatter has an ``es5id``
(the tests written for ES5 and earlier), it names no ``features`` (those are ES2015+), its flags
ask for neither strict mode only, modules nor async, it includes only ``assert.js``, ``sta.js``
and ``compareArray.js``, it is not in a folder of a built-in ES3 does not define
(``JSON``, ``Object.keys``, ``Array.prototype.forEach``, ...), and its text uses none of the
ES5-only names in ``ES5_ONLY`` (``Object.defineProperty``, getters, ``"use strict"``, ...).

Prints, per folder (two levels under ``test/``), the selected tests and how many pass, then
the total.  A test passes when it runs to its end without an uncaught exception, or, for a
``negative`` test, when it fails at the phase and with the error type the frontmatter names
(a parse-phase SyntaxError is any syntax diagnostic of pyopl's parser).
"""
from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path

ES5_ONLY = ("Object.defineProperty", "Object.defineProperties", "Object.create", "Object.getOwnPropertyDescriptor",
            "Object.getOwnPropertyNames", "Object.getPrototypeOf", "Object.keys", "Object.freeze", "Object.seal",
            "Object.preventExtensions", "Object.isExtensible", "Object.isFrozen", "Object.isSealed",
            "JSON", "Array.isArray", ".bind(", "Function.prototype.bind", "use strict", "Date.now", "toISOString",
            "toJSON", ".forEach", ".map(", ".filter(", ".reduce", ".every(", ".some(",
            "Reflect", "Symbol", "Proxy", "=>", "`", "$262", "verifyProperty",
            "verifyNotEnumerable", "verifyNotWritable", "verifyNotConfigurable", "WeakMap", "Promise",
            "globalThis", "Object.is(", "Array.prototype.indexOf", "Array.prototype.lastIndexOf",
            "String.prototype.trim", ".trim(", "Object.assign", "Object.entries", "__proto__", "fnGlobalObject",
            "$DONE", "$ERROR", "print(")
ES5_FOLDERS = ("built-ins/JSON", "built-ins/Object/keys", "built-ins/Object/create", "built-ins/Object/define",
               "built-ins/Object/freeze", "built-ins/Object/seal", "built-ins/Object/getOwn",
               "built-ins/Object/getPrototypeOf", "built-ins/Object/is", "built-ins/Object/preventExtensions",
               "built-ins/Array/isArray", "built-ins/Array/prototype/forEach", "built-ins/Array/prototype/map",
               "built-ins/Array/prototype/filter", "built-ins/Array/prototype/reduce", "built-ins/Array/prototype/every",
               "built-ins/Array/prototype/some", "built-ins/Array/prototype/indexOf",
               "built-ins/Array/prototype/lastIndexOf", "built-ins/Function/prototype/bind",
               "built-ins/String/prototype/trim", "built-ins/Date/now", "built-ins/Date/prototype/toISOString",
               "built-ins/Date/prototype/toJSON", "language/statements/class", "language/expressions/class",
               "built-ins/Object/entries", "built-ins/Object/assign", "language/module-code", "language/import",
               "language/export", "built-ins/Array/from", "built-ins/Array/of")
INCLUDES_OK = {"assert.js", "sta.js", "compareArray.js"}
_FRONT = re.compile(r"/\*---(.*?)---\*/", re.S)
_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)
_ES5_SYNTAX = re.compile(r"[{,]\s*(get|set)\s+[\w$]+\s*\(|\b(let|const|class)\s+[\w$\[{]")


def frontmatter(text: str) -> dict | None:
    import yaml

    m = _FRONT.search(text)
    if not m:
        return None
    try:
        meta = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        return None
    return meta if isinstance(meta, dict) else None


def selected(rel: str, text: str, meta: dict | None) -> bool:
    """Whether a test is an ES3-era one this harness runs (see the module's docstring)."""
    if meta is None or "es5id" not in meta or meta.get("features"):
        return False
    flags = set(meta.get("flags") or ())
    if flags & {"onlyStrict", "module", "async", "raw", "CanBlockIsFalse", "CanBlockIsTrue"}:
        return False
    if not set(meta.get("includes") or ()) <= INCLUDES_OK:
        return False
    if any(rel.startswith(f) for f in ES5_FOLDERS):
        return False
    body = _COMMENTS.sub("", _FRONT.sub("", text))
    return not any(tok in body for tok in ES5_ONLY) and not _ES5_SYNTAX.search(body)


class Runner:
    """Runs tests with the harness files parsed once."""

    def __init__(self, root: Path, max_steps: int):
        from pyopl.script.engine.parser import parse_script

        self.root = root
        self.max_steps = max_steps
        self.harness = {}
        for name in INCLUDES_OK:
            prog = parse_script((root / "harness" / name).read_text(encoding="utf-8"), name)
            if isinstance(prog, list):
                raise SystemExit("pyopl cannot parse harness/%s: %s" % (name, prog[0].message))
            self.harness[name] = prog

    def run(self, text: str, meta: dict) -> tuple[bool, str]:
        """(passed, why) for one test."""
        from pyopl.script.engine.interpreter import Interpreter
        from pyopl.script.engine.parser import parse_script
        from pyopl.script.language.values import JSObject, ScriptError

        negative = meta.get("negative") or {}
        prog = parse_script(text, "test.js")
        if isinstance(prog, list):
            if negative.get("phase") in ("parse", "early"):
                return True, ""
            return False, "parse: " + prog[0].message
        if negative.get("phase") in ("parse", "early"):
            return False, "parsed, but the test expects a %s" % negative.get("type")
        interp = Interpreter(output=lambda t: None, max_steps=self.max_steps, file="test.js")
        try:
            for name in ["sta.js", "assert.js"] + [i for i in meta.get("includes") or () if i not in
                                                   ("sta.js", "assert.js")]:
                interp.run(self.harness[name])
            interp.run(prog)
        except ScriptError as e:
            if negative.get("phase") == "runtime":
                want = negative.get("type")
                thrown = getattr(e, "thrown", None)
                name = None
                if isinstance(thrown, JSObject):
                    name = interp.get_property(thrown, "name", None, True)
                elif e.catchable:
                    name = getattr(e, "error_name", None) or {"script-undefined-name": "ReferenceError"}.get(
                        e.slug, "TypeError")
                return (name == want), "threw %s, the test expects %s" % (name, want)
            return False, "%s %s" % (e.code, e.message)
        if negative:
            return False, "ran to its end, the test expects a %s" % negative.get("type")
        return True, ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path, help="a test262 checkout (with harness/ and test/)")
    ap.add_argument("--filter", default="", help="run only tests whose path contains this")
    ap.add_argument("--limit", type=int, default=0, help="stop after this many selected tests")
    ap.add_argument("--failures", type=int, default=0, help="print this many failures with the reason")
    ap.add_argument("--max-steps", type=int, default=2_000_000)
    a = ap.parse_args(argv)
    runner = Runner(a.root, a.max_steps)
    tests = sorted((a.root / "test").rglob("*.js"))
    per = collections.defaultdict(lambda: [0, 0])
    failures = []
    start = time.time()
    count = 0
    for path in tests:
        rel = path.relative_to(a.root / "test").as_posix()
        if a.filter not in rel or "_FIXTURE" in rel:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        meta = frontmatter(text)
        if not selected(rel, text, meta):
            continue
        count += 1
        if a.limit and count > a.limit:
            break
        ok, why = runner.run(text, meta)
        folder = "/".join(rel.split("/")[:2])
        per[folder][0] += 1
        per[folder][1] += ok
        if not ok:
            failures.append((rel, why))
    total = sum(v[0] for v in per.values())
    passed = sum(v[1] for v in per.values())
    for folder in sorted(per):
        n, p = per[folder]
        print("%-45s %5d / %5d  %5.1f%%" % (folder, p, n, 100.0 * p / n))
    print("%-45s %5d / %5d  %5.1f%%   (%.0f s)" % ("total", passed, total, 100.0 * passed / max(1, total),
                                                 time.time() - start))
    for rel, why in failures[:a.failures]:
        print("FAIL %s: %s" % (rel, why[:200]))
    return 0


if __name__ == "__main__":  # run with PYTHONPATH=<checkout> so that checkout's pyopl is measured
    raise SystemExit(main())
