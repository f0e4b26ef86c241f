"""IBM ILOG Script for OPL ``execute`` and ``main`` blocks: parser, interpreter, standard library,
the OPL host objects and the order IBM runs the blocks in.

Seven folders, each importing only the ones listed before it (docs/architecture.md, "Layers"):

- ``language/``: ECMAScript 3 itself: the AST, values, conversions, operators, property access,
  budgets (no OPL in it);
- ``stdlib/``: the built-in objects (``Math``, ``String``, ``Date``, ``RegExp``, ...);
- ``engine/``: text to a run: the parser and the tree-walking interpreter, ``eval``/``Function``;
- ``opl/``: OPL model elements as script objects and the :class:`ScriptContext` of one instance;
- ``solver/``: the ``cplex`` and ``cp`` objects: parameters, search, warm starts, conflicts, relaxations;
- ``files/``: the files a script reads and writes (confined to the model's and output folders);
- ``flow/``: when blocks run (pre/post-processing, ``main``, ``.dat`` ``prepare``), the OPL globals
  a script sees, and what a block that is not run may change.

The OPL host objects talk to the interpreter only through the protocol of
:mod:`pyopl.script.language.values`.

Use::

    program = parse_script(body_text, "model.mod", line, column)   # Program or [Diagnostic]
    interp = Interpreter(host, output=print_fn, max_steps=..., max_memory=...)
    interp.run(program)                                             # raises ScriptError

See ``docs/scripting.md``.
"""
from importlib import import_module
from typing import Any

from ..lazy_names import lazy_getattr

# The names below load on first use (PEP 562): a model without scripts imports pyopl.script.opl.options
# (ScriptOptions) and must not pay for the interpreter and its parser.
_LAZY = {**dict.fromkeys(("DEFAULT_MAX_DEPTH", "DEFAULT_MAX_MEMORY", "DEFAULT_MAX_STEPS", "Interpreter"), ".engine.interpreter"),
         "parse_script": ".engine.parser",
         **dict.fromkeys(("NULL", "UNDEFINED", "HostFunction", "HostObject", "JSArray", "JSFunction", "JSObject",
                          "ScriptError"), ".language.values")}


def __getattr__(name: str) -> Any:
    return lazy_getattr(globals(), __name__, _LAZY, name)


class _LazyHost:
    """:mod:`pyopl.script.flow.processing` as a script host (``Instance(..., script_host=HOST)``), imported
    when a model first runs a script block: a model without scripts never loads the host objects."""

    def __getattr__(self, name: str) -> Any:
        return getattr(import_module(".flow.processing", __name__), name)


#: The script host to give an :class:`~pyopl.lowering.instance.Instance` (see :class:`_LazyHost`).
HOST = _LazyHost()

__all__ = ["HOST", "Interpreter", "parse_script", "ScriptError", "HostObject", "HostFunction", "JSArray", "JSObject",
           "JSFunction", "UNDEFINED", "NULL", "DEFAULT_MAX_STEPS", "DEFAULT_MAX_MEMORY", "DEFAULT_MAX_DEPTH"]
