"""pandas and results/data: index level names, result tables, and data given as DataFrames.

Three jobs, all optional (pandas is the ``dataframe`` extra; nothing here imports it
unless a DataFrame is asked for or given):

- :func:`index_level_names`: for each ``dvar``, ``dexpr`` and constraint label, the name of
  each index, after the OPL index set (``ship[Plants][Markets]`` -> ``["Plants", "Markets"]``;
  ``forall(p in Plants) ctSupply: ...`` -> ``["Plants"]``). An index over a range written in
  place (``x[1..n]``, ``forall(i in 1..n)``) is named after its iterator (``i``) when it has
  one, else left unnamed. A repeated name gets ``_2``, ``_3`` (pandas needs distinct levels).
- :func:`result_frame` and :func:`csv_rows`: ``Result.to_dataframe`` and ``Result.to_csv``.
- :class:`PandasValue`: a DataFrame, Series or Index given in ``compile_model(..., data={...})``,
  turned into the plain Python forms of the data dict once the declaration's type is known,
  so that it is checked with the same diagnostics as ``.dat`` data.
"""
from __future__ import annotations

import math
from typing import Any

from .ir import Key, format_key_part


# -- index level names --------------------------------------------------------------------------

def _domain_name(domain: Any, var: str | None) -> str | None:
    from .syntax import ast as A

    if isinstance(domain, A.Name):
        return domain.id
    return var


def _unique(names: list[str | None]) -> list[str | None]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if n is None:
            out.append(None)
            continue
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else "%s_%d" % (n, seen[n]))
    return out


def index_level_names(model_ast: Any) -> dict[str, list[str | None]]:
    """``{name: [level name or None, ...]}`` for the dvars, dexprs and constraint labels of a parsed model."""
    from .syntax import ast as A

    out: dict[str, list[str | None]] = {}
    for item in getattr(model_ast, "items", []):
        if isinstance(item, (A.DvarDecl, A.DexprDecl)):
            out[item.name] = _unique([_domain_name(d.domain, d.var) for d in item.dims])
        elif isinstance(item, A.ConstraintsBlock):
            for st in item.stmts:
                _constraint_names(st, [], {}, out)
    return out


def _constraint_names(st: Any, levels: list[str | None], bound: dict[str, str | None],
                      out: dict[str, list[str | None]]) -> None:
    from .syntax import ast as A

    if isinstance(st, A.Forall):
        levels, bound = list(levels), dict(bound)
        for b in st.quals.binders:
            for p in b.patterns:
                name = _domain_name(b.domain, p.name)
                levels.append(name)
                for n in p.names():
                    bound[n] = name
        _constraint_names(st.body, levels, bound, out)
    elif isinstance(st, A.Block):
        for s in st.stmts:
            _constraint_names(s, levels, bound, out)
    elif isinstance(st, A.IfStmt):
        _constraint_names(st.then, levels, bound, out)
        if st.other is not None:
            _constraint_names(st.other, levels, bound, out)
    elif isinstance(st, A.ConsStmt) and st.label is not None:
        label = st.label
        if isinstance(label, A.Name):
            out.setdefault(label.id, _unique(levels))
        elif isinstance(label, A.Index) and isinstance(label.base, A.Name):
            names = [bound.get(ix.id) if isinstance(ix, A.Name) else None for ix in label.indices]
            out.setdefault(label.base.id, _unique(names))


# -- results as tables ----------------------------------------------------------------------------

_KIND_COLUMN = {"variable": "value", "dexpr": "value", "dual": "dual", "slack": "slack", "reduced_cost": "reduced_cost"}


def _pandas():
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("Result.to_dataframe needs pandas (`pip install pandas`, or the `dataframe` extra: "
                          "`pip install \"pyopl[dataframe]\"`); Result.to_csv and Result.to_dict do not") from None
    return pd


def result_frame(result: Any, name: str | None = None, kind: str | None = None) -> Any:
    """See :meth:`pyopl.result.Result.to_dataframe`."""
    pd = _pandas()
    every = result.rows()
    if name is None:
        rows = [r for r in every if kind is None or r[0] == kind]
        return pd.DataFrame(rows, columns=["kind", "name", "index", "value"])
    kinds = [kind] if kind is not None else [k for k in _KIND_COLUMN if any(r[0] == k and r[1] == name for r in every)]
    if not kinds:
        raise KeyError(name)
    columns: dict[str, dict[Key, Any]] = {}
    order: list[Key] = []
    for k in kinds:
        col = "value" if kind is not None else _KIND_COLUMN[k]
        values = columns.setdefault(col, {})
        for r in every:
            if r[0] == k and r[1] == name:
                if r[2] not in values and all(r[2] not in c for c in columns.values() if c is not values):
                    order.append(r[2])
                values[r[2]] = r[3]
    if not order:
        raise KeyError(name)
    data = {col: [vals.get(key) for key in order] for col, vals in columns.items()}
    levels = list(getattr(result, "index_names", {}).get(name) or [])
    dims = len(order[0])
    if dims == 0:
        return pd.DataFrame(data)
    if len(levels) != dims:
        levels = [None] * dims
    if any(_fields(part) for part in order[0]):
        # a tuple index: one level per field, named after the fields (`<o, d, c>` -> o, d, c)
        names = _unique([f for part, level in zip(order[0], levels) for f in (_fields(part) or [level])])
        flat = [tuple(v for part in key for v in _flatten(part)) for key in order]
        index = pd.MultiIndex.from_tuples(flat, names=names) if len(names) > 1 else \
            pd.Index([k[0] for k in flat], name=names[0], tupleize_cols=False)
        return pd.DataFrame(data, index=index)
    if dims == 1:
        index = pd.Index([k[0] for k in order], name=levels[0], tupleize_cols=False)
    else:
        index = pd.MultiIndex.from_tuples(order, names=levels)
    return pd.DataFrame(data, index=index)


def _fields(part: Any, prefix: str = "") -> list[str] | None:
    """The field names of a typed tuple index component, nested tuples as ``e.o`` (None: not one)."""
    ttype = getattr(part, "ttype", None)
    if not isinstance(part, tuple) or ttype is None or len(ttype.fields) != len(part):
        return None
    out: list[str] = []
    for f, v in zip(ttype.fields, part):
        out += _fields(v, prefix + f + ".") or [prefix + f]
    return out


def _flatten(part: Any) -> list[Any]:
    """A typed tuple component as its field values (nested tuples flattened), else ``[part]``."""
    if _fields(part) is None:
        return [part]
    return [x for v in part for x in _flatten(v)]


def _plain(v: Any) -> Any:
    """An index component for a CSV cell: text as is, numbers as numbers, a tuple as ``<a,b>``."""
    if isinstance(v, tuple):
        return format_key_part(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def csv_rows(result: Any) -> tuple[list[str], list[list[Any]]]:
    """(header, rows) of ``Result.to_csv``: ``kind, name, index`` (OPL notation), one column
    ``index_1 .. index_K`` per index component, a tuple component taking one column per field
    (K the most of any name), ``value``."""
    rows = result.rows()
    flat = [[x for k in r[2] for x in _flatten(k)] for r in rows]
    width = max((len(f) for f in flat), default=0)
    header = ["kind", "name", "index"] + ["index_%d" % (i + 1) for i in range(width)] + ["value"]
    out = []
    for (kind, name, key, v), comps in zip(rows, flat):
        parts = [_plain(k) for k in comps] + [""] * (width - len(comps))
        out.append([kind, name, "".join("[%s]" % format_key_part(k) for k in key)] + parts +
                   ["" if v is None else repr(float(v)) if not isinstance(v, int) else str(v)])
    return header, out


# -- data from pandas ------------------------------------------------------------------------------

def is_pandas(v: Any) -> bool:
    """Whether ``v`` is a pandas DataFrame, Series or Index (without importing pandas)."""
    mod = type(v).__module__ or ""
    return (mod == "pandas" or mod.startswith("pandas.")) and type(v).__name__ in ("DataFrame", "Series", "Index", "MultiIndex",
                                                                "RangeIndex")


class PandasValue:
    """A DataFrame/Series/Index from a Python data dict, kept until the declaration says what it is for."""

    def __init__(self, obj: Any):
        self.obj = obj

    @property
    def what(self) -> str:
        return "a pandas %s" % type(self.obj).__name__

    def resolve(self, typ: Any, dims: list[Any], name: str, span: Any) -> Any:
        """The plain Python value for declaration ``name`` of element type ``typ`` over ``dims``.

        A set takes an Index, a Series (its values) or, for a set of tuples, a DataFrame whose
        columns (and named index levels) are the tuple's fields. An array takes a Series whose
        index levels are its index sets, or a DataFrame with the first index sets on the rows
        and the last one on the columns (``cost[Plants][Markets]``: plants down, markets across).
        Missing values (NaN) are left out, so the data check names the missing keys.
        Raises :class:`~pyopl.lowering.errors.EvalError` for a shape that does not fit."""
        from .data.convert import SetOf
        from .lowering.errors import EvalError

        obj = self.obj
        kind = type(obj).__name__
        if dims:
            return self._array(len(dims), name, span)
        if isinstance(typ, SetOf):
            return self._set(typ)
        raise EvalError("data-type-mismatch", span, "`%s` is a single value, but the data is %s" % (name, self.what),
                        help="give a number, a string or a tuple; a pandas %s fits a set or an array" % kind)

    def _set(self, typ: Any) -> Any:
        from .semantics.values import TupleType

        obj = self.obj
        kind = type(obj).__name__
        if kind in ("Index", "MultiIndex", "RangeIndex"):
            return [_py(x) for x in obj.tolist()]
        if kind == "Series":
            return [_py(x) for x in obj.tolist()]
        frame = obj.reset_index() if any(n is not None for n in obj.index.names) else obj
        if isinstance(typ.elem, TupleType):
            fields = list(typ.elem.fields)
            cols = [str(c) for c in frame.columns]
            if sorted(cols) == sorted(fields) and len(set(cols)) == len(cols):  # by name, in the tuple's order
                frame = frame[[frame.columns[cols.index(f)] for f in fields]]
                return [tuple(_py(x) for x in row) for row in frame.itertuples(index=False, name=None)]
            # named fields one row at a time: an unknown or missing column gets the tuple diagnostics
            return [{str(c): _py(x) for c, x in zip(frame.columns, row)}
                    for row in frame.itertuples(index=False, name=None)]
        if frame.shape[1] == 1:
            return [_py(x) for x in frame.iloc[:, 0].tolist()]
        return [tuple(_py(x) for x in row) for row in frame.itertuples(index=False, name=None)]

    def _array(self, ndims: int, name: str, span: Any) -> Any:
        from .lowering.errors import EvalError

        obj = self.obj
        kind = type(obj).__name__
        if kind in ("DataFrame", "Series"):
            # a label given twice would silently keep its last row, where a .dat file gets OPL0428
            for axis, labels in (("index", obj.index), ("columns", getattr(obj, "columns", None))):
                if labels is not None and labels.has_duplicates:
                    dup = _key((labels[labels.duplicated()][0],))[0]
                    raise EvalError("data-duplicate-key", span, "the key %s is given twice in the %s of the %s for `%s`"
                                    % (_show(dup), axis, kind, name),
                                    help="give each key once (e.g. `frame.groupby(level=0).sum()` if the rows add up)")
        if kind == "DataFrame":
            nlev = obj.index.nlevels
            if ndims == nlev + 1:
                out: dict = {}
                cols = [_py(c) for c in obj.columns.tolist()]
                for key, row in zip(obj.index.tolist(), obj.itertuples(index=False, name=None)):
                    node = _descend(out, key if nlev > 1 else (key,))
                    node[_key(key if nlev > 1 else (key,))[-1]] = {c: _py(x) for c, x in zip(cols, row) if not _missing(x)}
                return out
            if ndims == nlev and obj.shape[1] == 1:
                return PandasValue(obj.iloc[:, 0])._array(ndims, name, span)
            raise EvalError("data-shape-mismatch", span, "`%s` has %d dimension%s, but the DataFrame has %d index "
                            "level%s and %d column%s" % (name, ndims, "s" * (ndims != 1), nlev, "s" * (nlev != 1),
                                                         obj.shape[1], "s" * (obj.shape[1] != 1)),
                            help="put the first %d index set%s on the rows (index) and the last on the columns, "
                                 "or give a Series indexed by all %d" % (ndims - 1, "s" * (ndims != 2), ndims))
        if kind == "Series":
            nlev = obj.index.nlevels
            keys = obj.index.tolist()
            if nlev == ndims or ndims == 1:  # ndims == 1 and several levels: a tuple index (x[Arcs])
                out = {}
                for key, x in zip(keys, obj.tolist()):
                    if _missing(x):
                        continue
                    parts = key if (nlev > 1 and ndims > 1) else (key,)
                    parts = _key(parts)
                    _descend(out, parts)[parts[-1]] = _py(x)
                return out
            raise EvalError("data-shape-mismatch", span, "`%s` has %d dimensions, but the Series has %d index level%s"
                            % (name, ndims, nlev, "s" * (nlev != 1)),
                            help="index the Series by the %d index sets of `%s` (a MultiIndex)" % (ndims, name))
        return [_py(x) for x in obj.tolist()]


def _show(v: Any) -> str:
    """A key as OPL writes it: strings quoted, tuples of a MultiIndex as ``<..>``."""
    if isinstance(v, tuple):
        return "<%s>" % ", ".join(_show(x) for x in v)
    return '"%s"' % v if isinstance(v, str) else str(v)


def _missing(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x) or x is None


def _py(x: Any) -> Any:
    """A NumPy scalar as the Python value (``tolist`` already does it for whole columns)."""
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):
        try:
            return x.item()
        except (ValueError, AttributeError):
            return x
    return x


def _key(parts: Any) -> tuple:
    return tuple(tuple(_py(y) for y in p) if isinstance(p, tuple) else _py(p) for p in parts)


def _descend(root: dict, parts: tuple) -> dict:
    node = root
    for p in _key(parts)[:-1]:
        node = node.setdefault(p, {})
    return node
