"""IBM ILOG Script for OPL ``execute`` and ``main`` blocks: parser, interpreter, standard library.

The language core lives here (pure ECMAScript 3 semantics); the OPL host objects
(``thisOplModel``, ``cplex``, model elements) live in ``pyopl/script/host*.py`` and talk to
the interpreter only through the protocol of :mod:`pyopl.script.values`.

Use::

    program = parse_script(body_text, "model.mod", line, column)   # Program or [Diagnostic]
    interp = Interpreter(host, output=print_fn, max_steps=..., max_memory=...)
    interp.run(program)                                             # raises ScriptError

Modules: ``ast`` (nodes with spans), ``parser`` (text -> AST, ``grammar/script.lark``),
``interpreter`` (evaluation, scopes, budgets), ``values`` (value types, ``ScriptError``,
the host protocol), ``convert`` (ECMAScript conversions and equality), ``properties`` (prototype
chains, ``in``, ``delete``, ``for-in``, ToPrimitive), ``protos`` (the global objects and built-in
prototypes), ``stdlib``/``stdlib_numbers``/``stdlib_text``/``stdlib_date`` (the library),
``regexp``/``regexp_translate`` (regular expressions), ``dynamic_code`` (``eval``, ``Function``),
``budgets``.  See ``docs/scripting.md``.
"""
from importlib import import_module
from typing import Any

from ..lazy_names import lazy_getattr

# The names below load on first use (PEP 562): a model without scripts imports pyopl.script.options
# (ScriptOptions) and must not pay for the interpreter and its parser.
_LAZY = {**dict.fromkeys(("DEFAULT_MAX_DEPTH", "DEFAULT_MAX_MEMORY", "DEFAULT_MAX_STEPS", "Interpreter"), ".interpreter"),
         "parse_script": ".parser",
         **dict.fromkeys(("NULL", "UNDEFINED", "HostFunction", "HostObject", "JSArray", "JSFunction", "JSObject",
                          "ScriptError"), ".values")}


def __getattr__(name: str) -> Any:
    return lazy_getattr(globals(), __name__, _LAZY, name)


class _LazyHost:
    """:mod:`pyopl.script.processing` as a script host (``Instance(..., script_host=HOST)``), imported
    when a model first runs a script block: a model without scripts never loads the host objects."""

    def __getattr__(self, name: str) -> Any:
        return getattr(import_module(".processing", __name__), name)


#: The script host to give an :class:`~pyopl.lowering.instance.Instance` (see :class:`_LazyHost`).
HOST = _LazyHost()

__all__ = ["HOST", "Interpreter", "parse_script", "ScriptError", "HostObject", "HostFunction", "JSArray", "JSObject",
           "JSFunction", "UNDEFINED", "NULL", "DEFAULT_MAX_STEPS", "DEFAULT_MAX_MEMORY", "DEFAULT_MAX_DEPTH"]
