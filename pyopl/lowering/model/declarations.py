"""Declarations: tuple types, data, ranges, decision variables, dexprs, objectives.

One function per kind of item; each evaluates its declaration against the
instance and the data and records the resulting symbol.
"""
from __future__ import annotations

import itertools
import sys
from typing import Any

from ...data.convert import ArrayOf, SetOf, convert_array, convert_scalar, type_name
from ...data.parser import UnfilledRows, UnfilledTuples
from ...data.frames import PandasValue
from ...semantics.values import FloatRange, OplArray, OplRange, OplSet, OplTuple, ProductKeys, TupleType, is_set, show
from ...syntax import ast as A
from ...diagnostics.diagnostic import Label
from ...syntax.words import KEYWORDS
from ...semantics.values import ArraySlice
from ..arrays import vectorised_rows  # (its `vector_objective` looked up at each call: tests replace it)
from . import aliases
from ..cp import intervals, scheduling, segments, sequences, state_functions, step_functions  # (these register functions)
from ..cp.precedence_rows import interval_groups
from .constraints import lower_block
from ..forms.describe import type_word
from ..linearise.epigraph import AbsContext, objective_ok, settle
from ..forms.errors import EvalError
from .instance import INF, MAX_ARRAY, MAX_COLUMNS, Instance, Symbol, dim_env  # noqa: F401  (dim_env re-exported)
from ..forms.int32 import int_bounds
from ..forms.value_tests import is_number
from ..forms.linear import Leaf, LinExpr, QuadExpr
from ..forms.symbols import DexprArray, DexprScalar, VarArray
from .valuechecks import check_declared_value
from ..arrays.vectorised_subsets import vector_domain_bounds


def process_item(inst: Instance, item: A.Node) -> None:
    handler = _HANDLERS.get(type(item))
    if handler is not None:
        handler(inst, item)


def _check_name(inst: Instance, decl: A.Decl) -> None:
    if decl.name in KEYWORDS:
        raise EvalError("reserved-word-name", decl.name_span, "`%s` is a reserved word of OPL and cannot be used as a name" % decl.name,
                        help="rename it, for example `%s_` or `my%s`" % (decl.name, decl.name[:1].upper() + decl.name[1:]))


# ---------------------------------------------------------------------- tuple types
def tuple_decl(inst: Instance, d: A.TupleDecl) -> None:
    _check_name(inst, d)
    names, types, keys = [], [], []
    for f in d.fields:
        if f.name in names:
            inst.reporter.emit("duplicate-field", f.span, "tuple `%s` declares the field `%s` twice" % (d.name, f.name),
                               help="rename one of the fields")
            continue
        try:
            t = inst.resolve_type(f.type)
            if f.dims:
                if any(dim.var is not None for dim in f.dims):
                    raise EvalError("unsupported-tuple-array-field", f.span,
                                    "a tuple field cannot be a generic array (`%s[i in ...]`)" % f.name,
                                    help="declare the field over its index set, e.g. `int %s[Resources];`, and give "
                                         "its values in the data" % f.name)
                t = ArrayOf(t, tuple(eval_dims(inst, f.dims, {}, "%s.%s" % (d.name, f.name))))
        except EvalError as e:
            e.report(inst.reporter)
            t = "float"
        names.append(f.name)
        types.append(t)
        if f.key:
            keys.append(f.name)
    if not names:
        raise EvalError("syntax-empty-tuple-type", d.name_span, "tuple `%s` has no fields" % d.name,
                        help="declare at least one field, e.g. `tuple %s { string name; }`" % d.name)
    inst.declare(Symbol("tuple", d.name, TupleType(d.name, names, types, keys), d), d.name_span)


# ---------------------------------------------------------------------- index sets
def eval_dims(inst: Instance, dims: list[A.Dim], env: dict, owner: str) -> list[Any]:
    """Evaluate the index sets of a declaration's dimensions."""
    out = []
    for dim in dims:
        v = inst.ev.eval_data(dim.domain, env, "the index set of `%s`" % owner)
        if isinstance(v, FloatRange):
            raise EvalError("type-expected-set", dim.domain.span, "the index set of `%s` must be a set of integers, "
                            "strings or tuples, not a float range" % owner, help="use an integer range `1..n`")
        if not is_set(v):
            raise EvalError("type-expected-set", dim.domain.span, "the index set of `%s` must be a set or a range, but this is %s" % (
                owner, "a " + type_word(v)), help="index by a range such as `1..n` or by a set name")
        out.append(v)
    return out


def _size(d: Any) -> int:
    """The exact number of elements of an index set (a range's may exceed what ``len`` can say)."""
    return d.size if isinstance(d, OplRange) else len(d)


def _size_check(dims: list[Any], owner: str, span, limit: int, what: str) -> int:
    total = 1
    for d in dims:
        total *= _size(d)
    if total > limit:
        shape = " (%s)" % " x ".join(f"{_size(d):,}" for d in dims) if len(dims) > 1 else ""
        raise EvalError("limit-too-large", span, "`%s` would have %s %s%s, more than pyopl allows (%s)" % (
            owner, f"{total:,}", what, shape, f"{limit:,}"),
            help="check the index sets' sizes; a model this large would exhaust memory")
    return total


def _keys(dims: list[Any]):
    return itertools.product(*[list(d) for d in dims]) if dims else [()]


# ---------------------------------------------------------------------- data declarations
def param_decl(inst: Instance, d: A.ParamDecl) -> None:
    _check_name(inst, d)
    if d.type.name == "stateFunction" and not d.type.is_set and "stateFunction" not in inst.symbols:
        dims = eval_dims(inst, d.dims, {}, d.name) if d.dims else None
        f = state_functions.state_function_decl(inst, d, dims, list(_keys(dims)) if dims else None)  # (OPL0626 without `using CP;`)
        inst.declare(Symbol("param", d.name, f, d, None), d.name_span)
        return
    if d.type.name == "stepFunction" and not d.type.is_set and "stepFunction" not in inst.symbols:
        dims = eval_dims(inst, d.dims, {}, d.name)
        envs = [(key, dim_env(inst, d.dims, key, {}) if dims else {}) for key in _keys(dims)]
        f = step_functions.step_function_decl(inst, d, dims, envs)
        inst.declare(Symbol("param", d.name, f, d, None), d.name_span)
        return
    typ = inst.resolve_type(d.type)
    dims = eval_dims(inst, d.dims, {}, d.name)
    generic = any(dim.binds for dim in d.dims)
    if dims:
        _size_check(dims, d.name, d.name_span, MAX_ARRAY, "elements")
    if isinstance(d.init, A.External):
        value = _external(inst, d, typ, dims)
    elif d.init is None and d.name in inst.data:
        inst.reporter.emit("dialect-scalar-from-data", d.name_span,
                           "`%s` has no `= ...`, but the data gives it a value; pyopl uses that value" % d.name,
                           help="write `%s %s%s = ...;` to read it from the data, as OPL requires" % (
                               type_name(typ), d.name, "[...]" * len(dims)))
        value = _external(inst, d, typ, dims)
    elif d.init is None:
        # IBM: a declaration without initializer holds its type's default (0, 0.0, "", the empty
        # set, a tuple of defaults) until a script assigns it; warned about after the scripts ran,
        # only where the model uses it and nothing assigns it (see :func:`default_value`)
        zero = default_value(typ)
        value = OplArray(d.name, dims, {k: default_value(typ) if isinstance(zero, OplSet) else zero
                                        for k in _keys(dims)}) if dims else zero
        inst.zero_filled[d.name] = d
    elif generic:
        value = _generic(inst, d, typ, dims)
    else:
        raw = inst.ev.eval_data(d.init, {}, "the value of `%s`" % d.name)
        if isinstance(raw, (FloatRange, OplRange)) and isinstance(d.init, A.RangeLit) and typ == SetOf("float") and not dims:
            value = _float_range(inst, raw, d)  # `range float R = a..b;` (a continuous interval: a domain, or `x in R`)
        else:
            value = _convert(inst, raw, typ, dims, d.name, d.init.span)
    check_declared_value(d, typ, value, _value_span(inst, d), inst.symbols, _raw_data(inst, d), int_bounds(inst))
    if d.with_clause and isinstance(value, OplSet):
        _check_with(inst, d, value)
    kind = "set" if isinstance(typ, SetOf) and not dims else "param"
    inst.declare(Symbol(kind, d.name, value, d, typ), d.name_span)
    if d.name in getattr(inst.data, "invokes", ()) and inst.script_host is not None:
        inst.script_host.invoke_dat(inst, d.name)  # `name = value invoke f;` in the data (pyopl.script.dat_scripts)


def _value_span(inst: Instance, d: A.ParamDecl) -> Any:
    """Where ``d``'s value is written: the data item, else the initializer, else the name."""
    item = inst.data.get(d.name)
    if item is not None and (d.init is None or isinstance(d.init, A.External)):
        return item.value_span
    return d.init.span if d.init is not None else d.name_span


def _raw_data(inst: Instance, d: A.ParamDecl) -> Any:
    """The value of ``d`` as the data file wrote it (None for an initializer); a bulk-read tuple set
    may be unfilled (see ``valuechecks._filled``)."""
    item = inst.data.get(d.name)
    return item.raw_value if item is not None and (d.init is None or isinstance(d.init, A.External)) else None


def _float_range(inst: Instance, raw: Any, d: A.ParamDecl) -> FloatRange:
    """``range float R = a..b;`` as a :class:`FloatRange` (integer bounds too: ``1..3`` is continuous here)."""
    lo, hi = float(raw.lo), float(raw.hi)
    if lo > hi:
        inst.reporter.emit("empty-range", d.init.span, "the float range %g..%g is empty (%g > %g)" % (lo, hi, lo, hi),
                           help="write `%g..%g` if the bounds are swapped" % (hi, lo))
    return FloatRange(lo, hi)


def default_value(typ: Any) -> Any:
    """IBM's default value of a data element declared without initializer (OPL Language Reference,
    "Data types"): 0 for ``int``, 0.0 for ``float``, ``""`` for ``string``, the empty set for a set,
    a tuple of its fields' defaults for a tuple (arrays in tuple fields filled with defaults)."""
    if isinstance(typ, SetOf):
        return OplSet([], typ.elem)
    if isinstance(typ, TupleType):
        return OplTuple([_field_default(t) for t in typ.types], typ)
    return {"int": 0, "float": 0.0, "string": "", "boolean": False}.get(typ, 0)


def _field_default(t: Any) -> Any:
    if isinstance(t, ArrayOf):
        return OplArray("", list(t.dims), {k: default_value(t.elem) for k in _keys(list(t.dims))})
    return default_value(t)


_zero = default_value


def _is_table(raw: Any) -> bool:
    """``raw`` is a :class:`~pyopl.data.connections.table.TableValue` (a sheet range, query rows).  Only a
    connection makes one, so where its module was never loaded it cannot be one (and is not loaded
    here: a model without connections does not import them)."""
    table = sys.modules.get("pyopl.data.connections.table")
    return table is not None and isinstance(raw, table.TableValue)


def _convert(inst: Instance, raw: Any, typ: Any, dims: list[Any], name: str, span) -> Any:
    if isinstance(raw, PandasValue) or _is_table(raw):  # a DataFrame, a sheet range, query rows: shaped by the declaration
        raw = raw.resolve(typ, dims, name, span)
    if dims:
        return convert_array(raw, typ, dims, name, span)
    if isinstance(raw, (OplArray,)):
        raise EvalError("data-shape-mismatch", span, "`%s` is a scalar, but the value is an array" % name,
                        help="declare `%s` with dimensions, or give a single value" % name)
    return convert_scalar(raw, typ, name, span)


def _generic(inst: Instance, d: A.ParamDecl, typ: Any, dims: list[Any]) -> OplArray:
    from ..arrays.vectorised_subsets import vector_grouped_sets, vector_number_array, vector_set_array  # see there

    if (fast := vector_grouped_sets(inst, d, typ, dims)) is not None:  # `{arc} out[n in N] = {a | a in A : a.o == n}`
        return fast
    if (fast := vector_set_array(inst, d, typ, dims)) is not None:  # `{int} S[k in K] = {i | i in D : ...}`
        return fast
    if (fast := vector_number_array(inst, d, typ, dims)) is not None:  # `float r[n in N][k in K] = ...`
        return fast
    data = {}
    for key in _keys(dims):
        env = dim_env(inst, d.dims, key, {})
        raw = inst.ev.eval_data(d.init, env, "the value of `%s`" % d.name)
        data[key] = convert_scalar(raw, typ, d.name, d.init.span)
    return OplArray(d.name, dims, data)


def _data_shape(typ: Any, dims: list[Any]) -> str:
    """The shape of a `.dat` value for a help text: ``[...]`` for an array, ``{...}`` for a set,
    ``<...>`` for a tuple, ``VALUE`` for a scalar (never ``...``, which in a model means "from the data")."""
    if dims:
        return "[" + ", ".join(["..."] * 2) + "]" if len(dims) == 1 else "[[...], [...]]"
    if isinstance(typ, SetOf):
        return "{...}"
    if isinstance(typ, TupleType):
        return "<...>"
    return "VALUE"


def _external(inst: Instance, d: A.Decl, typ: Any, dims: list[Any]) -> Any:
    item = inst.data.get(d.name)
    if item is None:
        # With no data at all, the likelier mistake is a forgotten .dat file than a forgotten entry.
        notes = [] if inst.data else ["no data was given to this run: pass the .dat file after the model "
                                      "(`pyopl solve model.mod model.dat`), or give `%s` a value in the model" % d.name]
        raise EvalError("data-missing", d.name_span, "`%s` is declared with `...` but the data gives it no value" % d.name,
                        help="give it a value in the data file: `%s = %s;`" % (d.name, _data_shape(typ, dims)), notes=notes)
    inst.used_data.add(d.name)
    raw = item.raw_value  # a large tuple set may stay columnar: see convert.convert_set
    if type(raw) is UnfilledTuples and (dims or not isinstance(typ, SetOf)):
        raw = item.value
    elif type(raw) is UnfilledRows and not dims:  # (an array declaration's conversion may keep the numbers whole)
        raw = item.value
    return _convert(inst, raw, typ, dims, d.name, item.value_span)


def _check_with(inst: Instance, d: A.ParamDecl, value: OplSet) -> None:
    t = getattr(value, "elem_type", None)
    for fname, set_expr in d.with_clause:
        target = inst.ev.eval_set(set_expr, {}, "the `with` set")
        if not isinstance(t, TupleType) or fname not in t.fields:
            raise EvalError("unknown-field", set_expr.span, "`%s` has no field `%s` for its `with` clause" % (d.name, fname),
                            help="name a field of the tuple type")
        for tup in value:
            v = tup.field(fname)
            if v not in target and not (isinstance(v, OplTuple) and isinstance(target, OplSet) and target.by_key(v.key())):
                where = _element_span(inst, d, tup)
                raise EvalError("data-with-violation", where or d.name_span,
                                "%s in `%s` has `%s` = %s, which is not in %s" % (
                                    show(tup), d.name, fname, show(v),
                                    "`%s`" % set_expr.id if isinstance(set_expr, A.Name) else "the `with` set"),
                                help="fix the data, or add %s to the referenced set" % show(v),
                                labels=[Label(set_expr.span, "`with %s in ...` here" % fname)] if where else [])


def _same_tuple(raw: Any, tup: OplTuple) -> bool:
    """A data tuple as parsed (``<"a", 1>`` or named ``<o: "a", d: 1>``) against a converted tuple."""
    if isinstance(raw, dict):
        names = tup.ttype.fields if tup.ttype is not None else []
        return len(raw) == len(tup) and all(raw.get(f) == x for f, x in zip(names, tup))
    if not isinstance(raw, (list, tuple)) or len(raw) != len(tup):
        return False
    return all(_same_tuple(a, b) if isinstance(b, OplTuple) else a == b for a, b in zip(raw, tup))


def _element_span(inst: Instance, d: A.ParamDecl, tup: OplTuple) -> Any:
    """Where the tuple ``tup`` of the set ``d`` is written: its line in the data file, or its
    literal in the model; None when it cannot be told (then the declaration is shown)."""
    if isinstance(d.init, A.External):
        item = inst.data.get(d.name)
        for raw in (item.value if item is not None and isinstance(item.value, list) else []):
            if getattr(raw, "span", None) is not None and _same_tuple(raw, tup):
                return raw.span
        return item.value_span if item is not None else None
    if isinstance(d.init, A.SetLit):
        for e in d.init.items:
            try:
                if inst.ev.eval_data(e, {}, "a tuple") == tup:
                    return e.span
            except EvalError:
                continue
    return None


def _range_help(name: str, value: Any) -> str:
    """A help that compiles: the set's own bounds when its integers are consecutive (`{1, 2}` is
    `1..2`), else a set declaration."""
    try:
        items = sorted(value)
    except TypeError:
        items = None
    if items and all(type(v) is int for v in items):
        if items == list(range(items[0], items[-1] + 1)):
            return "write `range %s = %d..%d;`" % (name, items[0], items[-1])
        return "declare a set: `{int} %s = {%s};`" % (name, ", ".join(map(str, items)))
    return "write `range %s = a..b;` with integer bounds" % name


def range_decl(inst: Instance, d: A.RangeDecl) -> None:
    _check_name(inst, d)
    if isinstance(d.init, A.External):
        value = _external(inst, d, "range", [])
    else:
        value = inst.ev.eval_data(d.init, {}, "the range `%s`" % d.name)
        if not isinstance(value, (OplRange, FloatRange)):
            raise EvalError("type-expected-range", d.init.span, "`range %s` needs a range `a..b`, but this is %s" % (
                d.name, "a " + type_word(value)), help=_range_help(d.name, value))
    inst.declare(Symbol("range", d.name, value, d, SetOf("int")), d.name_span)


# ---------------------------------------------------------------------- decisions
_VTYPES = {"float": (-INF, INF, False), "float+": (0.0, INF, False), "int": (-INF, INF, True),
           "int+": (0.0, INF, True), "boolean": (0.0, 1.0, True)}


def dvar_decl(inst: Instance, d: A.DvarDecl) -> None:
    _check_name(inst, d)
    lo0, hi0, integer = _VTYPES[d.vtype]
    dims = eval_dims(inst, d.dims, {}, d.name)
    if d.alias is not None:  # `dvar int y[R] = all(i in R) x[i];`: the cells are decisions declared before
        inst.declare(Symbol("dvar", d.name, aliases.dvar_alias(inst, d, dims), d), d.name_span)
        return
    _size_check(dims, d.name, d.name_span, MAX_COLUMNS - len(inst.cols.lower), "decision variables")
    constant_domain = None
    if d.domain is not None and not any(dim.binds for dim in d.dims):
        constant_domain = _domain(inst, d, {})
    cols: dict[tuple, int] = {}
    first = len(inst.cols.lower)
    keys = []
    if d.domain is None or constant_domain is not None:  # the same bounds for every element: in one go
        lo, hi = lo0, hi0
        if constant_domain is not None:
            lo, hi = max(lo0, constant_domain[0]), min(hi0, constant_domain[1])
        keys = ProductKeys(dims)
        inst.new_columns(lo, hi, integer, d.name, keys)
        cols = None  # consecutive from `first`: VarArray builds the dict if something needs it
    elif (fast := vector_domain_bounds(inst, d, dims, lo0, hi0)) is not None:  # per-element bounds from arrays
        keys = ProductKeys(dims)
        first = inst.new_columns_bounded(fast[0], fast[1], integer, d.name, keys)
        cols = None
    else:
        for key in _keys(dims):
            dlo, dhi = _domain(inst, d, dim_env(inst, d.dims, key, {}))
            cols[key] = inst.new_column(max(lo0, dlo), min(hi0, dhi), integer, d.name, key)
            keys.append(key)
    inst.dvar_blocks[d.name] = (first, keys, len(dims), "boolean" if d.vtype == "boolean" else ("int" if integer else "float"))
    value = VarArray(d.name, dims, cols, d, first) if dims else LinExpr.var(first)
    inst.declare(Symbol("dvar", d.name, value, d), d.name_span)


def _domain(inst: Instance, d: A.DvarDecl, env: dict) -> tuple[float, float]:
    v = inst.ev.eval_data(d.domain, env, "the domain of `%s`" % d.name)
    if isinstance(v, (OplRange, FloatRange)):
        lo, hi = float(v.lo), float(v.hi)
        if lo != lo or hi != hi:  # NaN: max(lo0, nan) would silently leave the type's bound (issue 33)
            _nan_domain(d, env, lo != lo)
        return lo, hi
    if isinstance(v, OplSet) and all(is_number(x) for x in v):
        vals = sorted(v)
        if vals and all(b - a == 1 for a, b in zip(vals, vals[1:])):
            return float(vals[0]), float(vals[-1])
        raise _set_domain_error(inst, d, vals, show(v))
    raise EvalError("type-expected-range", d.domain.span, "the domain of `%s` must be a range `lo..hi`, but this is %s" % (
        d.name, "a " + type_word(v)), help="write `dvar float %s in 0..100;`" % d.name)


def _set_domain_error(inst: Instance, d: A.DvarDecl, vals: list, shown: str) -> EvalError:
    """``unsupported-set-domain`` for ``dvar int x in {2, 5, 9}``: IBM's OPL declares a decision
    variable's domain as a range (the ``dvar`` syntax's ``DecisionVarRange``; "Decision variables" in
    the language reference), and its technote on discontinuous domains (swg21608891) declares the
    variable over a range and states the allowed values as constraints: ``x in S`` with ``using CP;``,
    ``sum(v in S) (x == v) == 1`` otherwise. The help writes that fix with the model's own names."""
    allowed = d.domain.id if isinstance(d.domain, A.Name) else shown if len(vals) <= 8 else "allowed"
    hull = "%s..%s" % (show(vals[0]), show(vals[-1]))
    var = d.name if not d.dims else "%s[...]" % d.name
    if inst.engine == "cp":
        cons = "%s in %s;" % (var, allowed)
    else:
        cons = "sum(v in %s) (%s == v) == 1;" % (allowed, var)
    where = " inside a `forall` over its indices" if d.dims else ""
    declare = "" if allowed != "allowed" else "declare `{int} allowed = ...;` with the values, "
    return EvalError(
        "unsupported-set-domain", d.domain.span,
        "the domain of `%s` is a set of values (%s): OPL declares a decision variable's domain as a range "
        "(`lo..hi` or a `range`), not a set" % (d.name, shown),
        help="%sdeclare `%s` over the range around the values (`in %s`) and state the allowed values as a "
             "constraint%s: `%s` (IBM's way for a domain with gaps)" % (declare, d.name, hull, where, cons))


def _nan_domain(d: A.DvarDecl, env: dict, low_end: bool) -> None:
    """Raise ``value-out-of-range`` for a domain end that is NaN, at that end where it is written."""
    where = d.domain.span
    if isinstance(d.domain, A.RangeLit):
        where = (d.domain.lo if low_end else d.domain.hi).span
    loop = ", ".join("%s = %s" % (k, show(v)) for k, v in env.items() if not k.startswith("$"))
    raise EvalError("value-out-of-range", where, "the %s bound of `%s`%s is NaN (not a number), which no solver can "
                    "take" % ("lower" if low_end else "upper", d.name, " (for %s)" % loop if loop else ""),
                    help="check the data or the computation of this bound (`infinity - infinity`, `0 * infinity` "
                         "give NaN); use `-infinity..infinity` for no bound")


def dexpr_decl(inst: Instance, d: A.DexprDecl) -> None:
    _check_name(inst, d)
    if d.dims:
        dims = eval_dims(inst, d.dims, {}, d.name)
        value: Any = DexprArray(d.name, dims, d)
    else:
        value = DexprScalar(d.name, d)
    inst.declare(Symbol("dexpr", d.name, value, d), d.name_span)


def _scheduling_decl(inst: Instance, d: Any, kind: str, make: Any, what: str, limit: int) -> None:
    """An interval, sequence or cumulative-function declaration (``using CP;``): ``make(inst, d, dims,
    [(key, env), ...])`` gives its value, declared as a symbol of ``kind``."""
    _check_name(inst, d)
    dims = eval_dims(inst, d.dims, {}, d.name)
    _size_check(dims, d.name, d.name_span, limit, what)
    envs = [(key, dim_env(inst, d.dims, key, {}) if dims else {}) for key in _keys(dims)]
    inst.declare(Symbol(kind, d.name, make(inst, d, dims, envs), d), d.name_span)


def interval_decl(inst: Instance, d: A.IntervalDecl) -> None:
    if d.alias is not None:  # `dvar interval itvs[1..4] = [a, b, c, d];`
        _check_name(inst, d)
        dims = eval_dims(inst, d.dims, {}, d.name)
        inst.declare(Symbol("interval", d.name, aliases.interval_alias(inst, d, dims), d), d.name_span)
        return
    _scheduling_decl(inst, d, "interval", intervals.interval_decl, "interval variables",
                     MAX_COLUMNS - len(inst.cols.lower))
    if d.intensity is not None:  # `intensity F`: the size is the work done (pyopl/lowering/cp/step_functions.py)
        dims = eval_dims(inst, d.dims, {}, d.name)
        ivs = inst.interval_blocks[d.name][1]
        for iv, key in zip(ivs, _keys(dims)):
            env = dim_env(inst, d.dims, key, {}) if dims else {}
            f = inst.ev.evaluate(d.intensity, env)
            if not isinstance(f, step_functions.StepFunction):
                raise EvalError("cp-bad-argument", d.intensity.span, "the `intensity` of an interval is a "
                                "`stepFunction`, not %s" % type_word(f),
                                help="declare `stepFunction F = stepwise{100 -> 5; 0 -> 7; 100};` and write "
                                     "`intensity F`")
            step_functions.intensity_rows(inst, iv, f, d.intensity)


def sequence_decl(inst: Instance, d: A.SequenceDecl) -> None:
    _scheduling_decl(inst, d, "sequence", lambda *a: intervals.sequence_decl(*a, from_arrays=interval_groups),
                     "sequences", MAX_ARRAY)  # (a comprehension's intervals and keys from arrays where it can)


def cumul_decl(inst: Instance, d: A.CumulDecl) -> None:
    _scheduling_decl(inst, d, "cumul", scheduling.cumul_decl, "elements", MAX_ARRAY)


def constraint_decl(inst: Instance, d: A.ConstraintDecl) -> None:
    inst.declare(Symbol("label", d.name, None, d), d.name_span)


# ---------------------------------------------------------------------- objective
def objective(inst: Instance, o: A.Objective) -> None:
    if inst.objective is not None or inst.objectives:
        raise EvalError("duplicate-objective", o.span, "the model has more than one objective",
                        help="keep one `minimize` or `maximize`; for several goals use `staticLex(...)`")
    before = inst.rows.nnz()
    _objective(inst, o)
    meter, nnz = inst.rows.meter, inst.rows.nnz()
    if meter is not None and nnz > before:  # the rows of its linearisations (`abs`, `max`, piecewise) count too
        meter.check(nnz, len(inst.rows), o.expr.span, subject="the objective", made=nnz - before)


def _objective(inst: Instance, o: A.Objective) -> None:
    inst.objective_name = o.name
    if isinstance(o.expr, A.Call) and o.expr.func == "staticLex":
        if not o.expr.args:
            raise EvalError("call-arity", o.expr.span, "`staticLex` needs at least one objective",
                            help="write `staticLex(first, second, ...)`")
        inst.objectives = []
        for a in o.expr.args:
            v = inst.ev.evaluate(a, {})
            if isinstance(v, (DexprArray, VarArray)) or (hasattr(v, "dims") and hasattr(v, "name")):
                # `staticLex(kpis)` over an array: its elements in index order are the levels
                inst.objectives += [_as_objective(inst, x, a) for x in _array_elements(inst, v, a)]
            else:
                inst.objectives.append(_as_objective(inst, v, a))
        inst.objective = inst.objectives[0]
        return
    if isinstance(o.expr, A.Call) and o.expr.func == "staticLexFull":
        from ..linearise.lex_full import static_lex_full

        inst.objectives, inst.lex_tolerances = static_lex_full(inst, o.expr, _array_elements, _as_objective)
        inst.objective = inst.objectives[0]
        if len(inst.objectives) == 1:  # one priority: a blended objective, no lexicographic order
            inst.objectives, inst.lex_tolerances = [], None
        return
    inst.objective = _objective_value(inst, o.expr)


def _array_elements(inst: Instance, arr: Any, node: A.Expr) -> list:
    """Every element of an array value (data, dvar, dexpr, or a slice), in index order."""
    base, prefix = (arr.array, arr.prefix) if isinstance(arr, ArraySlice) else (arr, ())
    out = []
    for key in _keys(base.dims[len(prefix):]):
        out.append(inst.ev._element(base, prefix + tuple(key), node, node, {}))
    return out


def _objective_value(inst: Instance, expr: A.Expr) -> Any:
    fast = vectorised_rows.vector_objective(inst, expr)  # sums over large index sets, kept as arrays; None: term by term
    if fast is not None:
        return fast
    ctx = inst.abs_context = AbsContext()
    try:
        v = _as_objective(inst, inst.ev.evaluate(expr, {}), expr)
    finally:
        inst.abs_context = None
    if ctx.pending:
        lin = v.lin if isinstance(v, QuadExpr) else v
        settle(inst, ctx, objective_ok(inst.sense, lin.terms, v.quad if isinstance(v, QuadExpr) else None))
    return v


def _as_objective(inst: Instance, v: Any, expr: A.Expr) -> Any:
    if isinstance(v, bool):
        v = int(v)
    if is_number(v):
        return LinExpr(None, float(v))
    if isinstance(v, (LinExpr, QuadExpr)):
        return v
    if isinstance(v, Leaf) and inst.engine == "cp":  # `maximize presenceOf(a)`: a constraint as its 0/1 value
        return inst.ev.truth_value(v, expr)
    raise EvalError("objective-not-numeric", expr.span, "the objective must be a numeric expression, but this is %s" % (
        "a " + type_word(v)), help="minimize or maximize a sum of terms over decision variables")


# ---------------------------------------------------------------------- other items
def script_block(inst: Instance, s: A.ScriptBlock) -> None:
    if inst.script_host is None:
        raise RuntimeError("this Instance was made without a script host (Instance(..., script_host=...))")
    inst.script_host.script_block(inst, s)  # pre-processing runs now; post-processing and `main` are kept for later


def using_decl(inst: Instance, u: A.Using) -> None:
    return None  # `using CP;` set ``inst.engine`` when the Instance was made (pyopl.lowering.cp.constraints)


def assert_stmt(inst: Instance, a: A.Assert) -> None:
    def check(env: dict) -> None:
        ok = inst.ev.eval_bool(a.expr, env, "an assertion")
        if not ok:
            loop = ", ".join("%s = %s" % (k, show(v)) for k, v in env.items())
            raise EvalError("assert-failed", a.span, "assertion %sfailed%s" % (
                "`%s` " % a.name if a.name else "", " for %s" % loop if loop else ""),
                help="the data violates this assertion; fix the data or the assertion")

    def walk(k: int, env: dict) -> None:
        if k == len(a.quals):
            check(env)
            return
        for e in inst.ev.iterate(a.quals[k], env, a):
            walk(k + 1, e)

    walk(0, {})


def include_stmt(inst: Instance, i: A.Include) -> None:
    return None  # spliced in by the parser (pyopl.syntax.parser.splice_includes); a failure was reported there


def constraints_block(inst: Instance, b: A.ConstraintsBlock) -> None:
    lower_block(inst, b)


_HANDLERS = {
    A.TupleDecl: tuple_decl, A.ParamDecl: param_decl, A.RangeDecl: range_decl, A.DvarDecl: dvar_decl,
    A.DexprDecl: dexpr_decl, A.ConstraintDecl: constraint_decl, A.Objective: objective, A.ScriptBlock: script_block,
    A.IntervalDecl: interval_decl, A.SequenceDecl: sequence_decl, A.CumulDecl: cumul_decl,
    A.Using: using_decl, A.Assert: assert_stmt, A.Include: include_stmt, A.ConstraintsBlock: constraints_block,
}
