"""Values of IBM ILOG Script and the host-object protocol.

Script values are plain Python objects:

=================  ==========================================================
script             Python
=================  ==========================================================
``undefined``      :data:`UNDEFINED`
``null``           :data:`NULL`
boolean            ``bool``
number             ``float`` (a host may also hand over ``int``; it is a number)
string             ``str``
array              :class:`JSArray`
object             :class:`JSObject`
function           :class:`JSFunction` (script) or :class:`HostFunction` (host)
OPL element        a :class:`HostObject` subclass (sets, arrays, tuples, ...)
=================  ==========================================================

**Host-object protocol.**  The OPL side (``pyopl/script/opl/``) exposes model elements
by subclassing :class:`HostObject` and callables with :class:`HostFunction`.  The
interpreter reaches a host object only through these methods: it never uses Python
attribute access with a name the script wrote.  A host method reports a user mistake by
raising :class:`ScriptError` (``ScriptError.missing_member``, ``ScriptError.read_only``,
``ScriptError.type_error`` or its own code through the constructor).
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable, Iterable

from ...diagnostics.diagnostic import Diagnostic, Span


class _Singleton:
    __slots__ = ("_name",)

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __bool__(self) -> bool:
        return False


UNDEFINED = _Singleton("undefined")  # the script value `undefined`
NULL = _Singleton("null")  # the script value `null`
HOLE = _Singleton("hole")  # an array slot never assigned (`[1,,3]`, `a[5] = 1` on a shorter array): not a value


# Diagnostic codes (registered in pyopl/diagnostics/codes/script.py).
CODES = {
    "script-syntax-error": "OPL1000",
    "script-undefined-name": "OPL1001",
    "script-not-a-function": "OPL1002",
    "script-property-of-nothing": "OPL1003",
    "script-missing-member": "OPL1004",
    "script-type-error": "OPL1005",
    "script-uncaught-exception": "OPL1006",
    "script-step-budget": "OPL1007",
    "script-memory-budget": "OPL1008",
    "script-call-depth": "OPL1009",
    "script-read-only": "OPL1010",
    "script-nesting-too-deep": "OPL1011",
    "script-bad-assignment": "OPL1012",
    "script-misplaced-jump": "OPL1013",
    "script-too-long": "OPL1014",
    "script-regex-unsupported": "OPL1015",
    "internal-error": "OPL0605",
}


class ScriptError(Exception):
    """A user mistake found while parsing or running a script, as one diagnostic.

    ``slug`` names a kind of :data:`CODES` (its ``code`` follows); ``message`` is the plain
    sentence, ``span`` the place in the ``.mod``, ``help`` how to fix it, ``labels`` other
    places (``pyopl.diagnostics.diagnostic.Label``), ``notes`` extra context.
    ``error_name`` names the ECMAScript error object a ``catch`` receives ("RangeError", ...;
    by default ReferenceError for an undefined name, else TypeError).
    ``catchable`` says whether a script ``try``/``catch`` may catch it (as ECMAScript's
    TypeError/ReferenceError); budget errors are not catchable.
    """

    def __init__(self, slug: str, message: str, span: Span, help: str | None = None,
                 labels: tuple = (), notes: tuple = (), catchable: bool = True, code: str | None = None,
                 error_name: str | None = None):
        super().__init__(message)
        self.error_name = error_name  # the ECMAScript error a script `catch` sees (e.g. "RangeError")
        self.slug = slug
        self.code = code or CODES.get(slug, "OPL0605")
        self.message = message
        self.span = span
        self.help = help
        self.labels = tuple(labels)
        self.notes = tuple(notes)
        self.catchable = catchable

    def to_diagnostic(self) -> Diagnostic:
        """The diagnostic (severity ``error``) this error stands for."""
        return Diagnostic(self.code, "error", self.message, self.span, labels=self.labels,
                          notes=self.notes, help=self.help)

    # --- helpers for the host ------------------------------------------------------------

    @staticmethod
    def missing_member(type_name: str, name: str, available: Iterable[str], span: Span) -> "ScriptError":
        """``o.name`` where the host object ``o`` (shown as ``type_name``) has no ``name``.

        ``available`` lists what the object has; the help suggests the nearest one
        ("did you mean ...?") and otherwise lists them (at most 12).
        """
        names = sorted(set(available))
        near = near_miss(name, names)
        if near:
            help = "did you mean `%s`?" % near
        elif names:
            shown = ", ".join("`%s`" % n for n in names[:12]) + (", ..." if len(names) > 12 else "")
            help = "a `%s` has %s" % (type_name, shown)
        else:
            help = "a `%s` has no members a script can use" % type_name
        return ScriptError("script-missing-member", "`%s` has no member `%s`" % (type_name, name), span, help)

    @staticmethod
    def read_only(type_name: str, name: str, span: Span, help: str | None = None) -> "ScriptError":
        """An assignment to ``name`` of a ``type_name`` that a script may not change."""
        return ScriptError("script-read-only", "`%s` of a `%s` cannot be assigned" % (name, type_name), span,
                           help or "assign to data the model declares (a scalar, an array item or a tuple field)")

    @staticmethod
    def type_error(message: str, span: Span, help: str) -> "ScriptError":
        """A value of the wrong kind (``message`` names it, ``help`` says what to write)."""
        return ScriptError("script-type-error", message, span, help)

    @staticmethod
    def range_error(message: str, span: Span, help: str) -> "ScriptError":
        """A number out of the range a built-in takes (ECMAScript's RangeError: ``toFixed(21)``,
        ``toString(1)``, ``new Array(-1)``); a script ``catch`` receives a ``RangeError``."""
        return ScriptError("script-type-error", message, span, help, error_name="RangeError")


def near_miss(name: str, candidates: Iterable[str]) -> str | None:
    """The one candidate closest to ``name`` (edit distance <= 2, or a case-only change), or None."""
    import difflib

    cands = [c for c in candidates if c != name]
    for c in cands:
        if c.lower() == name.lower():
            return c
    best = difflib.get_close_matches(name, cands, n=1, cutoff=0.75)
    return best[0] if best else None


class HostObject:
    """Base class of every OPL object a script can reach (sets, arrays, tuples, dvars, ...).

    Subclasses override what they support; the defaults say "no such member" or "read
    only".  ``span`` arguments are the place in the ``.mod`` of the script text that asked,
    for the diagnostics the host raises.
    """

    type_name: str = "object"  # shown in messages, e.g. "IloOplModel", "{string}", "float[]"

    def get_member(self, name: str, span: Span) -> Any:
        """Value of ``o.name``; a method comes back as a :class:`HostFunction`.

        Raises ``ScriptError.missing_member(...)`` when absent.
        """
        raise ScriptError.missing_member(self.type_name, name, self.member_names(), span)

    def has_member(self, name: str) -> bool:
        """Whether ``o.name`` exists (used for global names and ``with``); defaults to ``member_names``."""
        return name in self.member_names()

    def set_member(self, name: str, value: Any, span: Span) -> None:
        """``o.name = value``; the default raises a read-only diagnostic."""
        raise ScriptError.read_only(self.type_name, name, span)

    def get_index(self, key: Any, span: Span) -> Any:
        """Value of ``o[key]``; ``key`` is a script value (a float, a str, or a host tuple).

        ``o[i][j]`` calls ``get_index`` on ``o`` with ``i``, then on the result with ``j``.
        """
        raise ScriptError.type_error("a `%s` cannot be indexed" % self.type_name, span,
                                     "index an OPL array or a script array")

    def set_index(self, key: Any, value: Any, span: Span) -> None:
        """``o[key] = value``; the default raises a read-only diagnostic."""
        raise ScriptError.read_only(self.type_name, "[%s]" % _short(key), span)

    def iter_keys(self) -> Iterable[Any]:
        """What ``for (var k in o)`` visits: set elements (tuples included), array indices."""
        return iter(())

    def member_names(self) -> list[str]:
        """Names of the members (for near-miss suggestions and ``has_member``)."""
        return []

    def to_display(self) -> str:
        """How ``writeln`` and string ``+`` show the object (OPL writes ``[1 2 3]``, ``{1 2}``)."""
        return "[object %s]" % self.type_name

    def to_number(self) -> float:
        """The number the object stands for in arithmetic (NaN by default)."""
        return math.nan

    def to_primitive(self) -> Any:
        """The primitive used by ``+``, ``<`` and ``==`` (ECMAScript ToPrimitive).

        Defaults to ``to_display()``; a host object that is a number (a decision's value)
        returns that number.
        """
        return self.to_display()


class HostFunction:
    """A callable exposed by the host (or the standard library).

    ``fn(interp, this, args, span) -> value``: ``interp`` is the running
    :class:`pyopl.script.engine.interpreter.Interpreter`, ``this`` the object before the dot (or
    None), ``args`` the list of script values, ``span`` the call's place.  With
    ``constructor=True`` the function can also be used with ``new`` (then ``this`` is None).
    ``unevaluated``: its call does not evaluate the arguments (IBM passes the expressions themselves:
    ``cp.addKPI(dexpr, "name")`` takes the dexpr, which has no value before the solve); ``args`` is then
    a list of ``undefined``, one per argument.
    """

    __slots__ = ("name", "fn", "constructor", "props", "length", "builtin_keys", "unevaluated")

    def __init__(self, name: str, fn: Callable[..., Any], constructor: bool = False, props: dict | None = None,
                 length: int = 0):
        self.name = name
        self.fn = fn
        self.constructor = constructor
        self.props = props  # properties of the function object (`Number.MAX_VALUE`, `Array.prototype`) or None
        self.length = length  # the `length` property: how many arguments it expects (ECMAScript 15)
        self.builtin_keys = frozenset(props or ())  # the built-in properties: DontEnum (ECMAScript 15)
        self.unevaluated = False

    def __repr__(self) -> str:
        return "HostFunction(%s)" % self.name


class JSObject:
    """A script object (``{a: 1}``, ``new Object()``, ``new F()``): ordered properties.

    ``proto`` is the object it inherits from (``F.prototype`` for ``new F()``; None means the
    interpreter's ``Object.prototype``), ``ctor`` the function that built it.  ``hidden`` is the
    set of own property names that ``for-in`` skips (ECMAScript's DontEnum attribute: built-in
    methods, ``constructor``) or None; ``value`` the primitive a wrapper stands for
    (``new Number(1)``, ``new String("a")``, a ``Date``'s time value), else None.
    ``class_name`` is ECMAScript's [[Class]] ("Object", "Error", "Number", "String", "Date", ...).
    """

    __slots__ = ("props", "class_name", "proto", "ctor", "hidden", "value", "readonly")

    def __init__(self, props: dict | None = None, class_name: str = "Object", proto=None, ctor=None,
                 hidden=None, value=None):
        self.props = props if props is not None else {}
        self.class_name = class_name
        self.proto = proto
        self.ctor = ctor
        self.hidden = hidden
        self.value = value
        self.readonly = None  # own property names an assignment leaves as they are (ReadOnly), or None


class Arguments(JSObject):
    """A function's ``arguments`` object (ECMAScript 3, 10.1.8): ``arguments[i]`` for a named
    parameter *is* that parameter (``mapped`` names the variable of each such index in
    ``vars``); ``length`` and ``callee`` are DontEnum."""

    __slots__ = ("vars", "mapped")

    def __init__(self, props: dict, vars: dict, mapped: dict, proto=None):
        super().__init__(props, "Arguments", proto, None, {"length", "callee"})
        self.vars = vars
        self.mapped = mapped


class JSArray:
    """A script array: ``items`` holds the elements (a slot never assigned, or deleted, is
    :data:`HOLE`: ``i in a`` is false there and ``for-in`` skips it; reading gives undefined);
    ``props`` any non-index property a script sets (``a["Rome"] = 3``)."""

    __slots__ = ("items", "props")

    def __init__(self, items: list | None = None):
        self.items = items if items is not None else []
        self.props = None


class JSFunction:
    """A script function: its AST node and the scope it closes over."""

    __slots__ = ("node", "scope", "props")

    def __init__(self, node, scope):
        self.node = node
        self.scope = scope
        self.props = {}  # `F.prototype` and any other property a script sets

    @property
    def name(self) -> str:
        return self.node.name or "anonymous"


def is_new(interp) -> bool:
    """Whether the built-in running now was called with ``new`` (``Interpreter.construct`` sets
    ``interp.new_target``; read once, at the built-in's start)."""
    target = getattr(interp, "new_target", None)
    interp.new_target = None
    return target is not None


def _short(v: Any) -> str:
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v) if not isinstance(v, HostObject) else v.to_display()


_SURROGATE = re.compile("[\ud800-\udfff]")


def well_formed(text: str) -> str:
    """``text`` as Unicode that can be printed and written: a script string is a sequence of UTF-16
    code units (ECMAScript 3, 8.4), so ``"\\uD83D\\uDE00"`` is one emoji and a lone surrogate is
    legal. Pairs are joined into their character; a lone surrogate becomes U+FFFD."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
