"""Data given as pandas objects: a DataFrame, Series or Index in ``compile_model(..., data={...})``
(:class:`PandasValue`), turned into the plain Python forms of the data dict once the declaration's
type is known, so that it is checked with the same diagnostics as ``.dat`` data.  pandas is the
``dataframe`` extra; nothing here imports it (a value is recognised by its type's module).
"""
from __future__ import annotations

import math
from typing import Any


def is_pandas(v: Any) -> bool:
    """Whether ``v`` is a pandas DataFrame, Series or Index (without importing pandas)."""
    mod = type(v).__module__ or ""
    return (mod == "pandas" or mod.startswith("pandas.")) and type(v).__name__ in ("DataFrame", "Series", "Index", "MultiIndex",
                                                                "RangeIndex")


class PythonNaN:
    """A NaN given in a Python data dict (``float("nan")``, ``np.nan``): pandas' and NumPy's
    "no value". OPL data has no missing value, so it fits no declaration (a ``data-type-mismatch``
    naming the element, :mod:`pyopl.data.convert`, not a NaN coefficient found later at the
    objective); a pandas array's NaN leaves its key out instead."""

    span = None

    def __repr__(self) -> str:
        return "nan"


PYTHON_NAN = PythonNaN()


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
        Raises :class:`~pyopl.lowering.forms.errors.EvalError` for a shape that does not fit."""
        from .types import SetOf
        from ..lowering.forms.errors import EvalError

        obj = self.obj
        kind = type(obj).__name__
        if dims:
            return self._array(len(dims), name, span)
        if isinstance(typ, SetOf):
            return self._set(typ)
        raise EvalError("data-type-mismatch", span, "`%s` is a single value, but the data is %s" % (name, self.what),
                        help="give a number, a string or a tuple; a pandas %s fits a set or an array" % kind)

    def _set(self, typ: Any) -> Any:
        from ..semantics.values import TupleType

        obj = self.obj
        kind = type(obj).__name__
        if kind in ("Index", "MultiIndex", "RangeIndex"):
            return [_element(x) for x in obj.tolist()]
        if kind == "Series":
            return [_element(x) for x in obj.tolist()]
        frame = obj.reset_index() if any(n is not None for n in obj.index.names) else obj
        if isinstance(typ.elem, TupleType):
            fields = list(typ.elem.fields)
            cols = [str(c) for c in frame.columns]
            if sorted(cols) == sorted(fields) and len(set(cols)) == len(cols):  # by name, in the tuple's order
                frame = frame[[frame.columns[cols.index(f)] for f in fields]]
                return [tuple(_element(x) for x in row) for row in frame.itertuples(index=False, name=None)]
            # named fields one row at a time: an unknown or missing column gets the tuple diagnostics
            return [{str(c): _element(x) for c, x in zip(frame.columns, row)}
                    for row in frame.itertuples(index=False, name=None)]
        if frame.shape[1] == 1:
            return [_element(x) for x in frame.iloc[:, 0].tolist()]
        return [tuple(_element(x) for x in row) for row in frame.itertuples(index=False, name=None)]

    def _array(self, ndims: int, name: str, span: Any) -> Any:
        from ..lowering.forms.errors import EvalError

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


def _element(x: Any) -> Any:
    """A set element or tuple field of a pandas value (:func:`_py`); a NaN, which a set has no key
    to leave out for, is :data:`PYTHON_NAN`, refused at its field or element."""
    v = _py(x)
    if isinstance(v, float) and v != v:
        return PYTHON_NAN
    return v


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
