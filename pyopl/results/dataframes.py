"""pandas and results: index level names and result tables (data given as DataFrames is read by
:mod:`pyopl.data.frames`).

Two jobs, both optional (pandas is the ``dataframe`` extra; nothing here imports it
unless a DataFrame is asked for):

- :func:`index_level_names`: for each ``dvar``, ``dexpr`` and constraint label, the name of
  each index, after the OPL index set (``ship[Plants][Markets]`` -> ``["Plants", "Markets"]``;
  ``forall(p in Plants) ctSupply: ...`` -> ``["Plants"]``). An index over a range written in
  place (``x[1..n]``, ``forall(i in 1..n)``) is named after its iterator (``i``) when it has
  one, else left unnamed. A repeated name gets ``_2``, ``_3`` (pandas needs distinct levels).
- :func:`result_frame` and :func:`csv_rows`: ``Result.to_dataframe`` and ``Result.to_csv``.
"""
from __future__ import annotations

from typing import Any

from ..ir import Key, format_key_part


# -- index level names --------------------------------------------------------------------------

def _domain_name(domain: Any, var: str | None) -> str | None:
    from ..syntax import ast as A

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
    from ..syntax import ast as A

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
    from ..syntax import ast as A

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


def _unknown(every: list, name: Any, kind: str | None) -> KeyError:
    """The error of ``to_dataframe(name, kind)`` for a name without such values: the closest name
    (an :class:`~pyopl.results.lookup_errors.UnknownName`, a KeyError), or the kinds it has."""
    from .lookup_errors import UnknownName, unknown_name

    has = list(dict.fromkeys(r[0] for r in every if r[1] == name))
    if has and kind is not None:
        return UnknownName("`%s` has no %s values; it has %s" % (name, kind, ", ".join(has)), name)
    what = "decision, dexpr or constraint label" + ("" if kind is None else " with %s values" % kind)
    return unknown_name(name, {r[1] for r in every if kind is None or r[0] == kind}, what)


def result_frame(result: Any, name: str | None = None, kind: str | None = None) -> Any:
    """See :meth:`pyopl.results.result.Result.to_dataframe`."""
    pd = _pandas()
    every = result.rows()
    if name is None:
        rows = [r for r in every if kind is None or r[0] == kind]
        return pd.DataFrame(rows, columns=["kind", "name", "index", "value"])
    kinds = [kind] if kind is not None else [k for k in _KIND_COLUMN if any(r[0] == k and r[1] == name for r in every)]
    if not kinds or not any(r[1] == name and r[0] in kinds for r in every):
        raise _unknown(every, name, kind)
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
        raise _unknown(every, name, kind)
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


#: first characters that make a spreadsheet read a CSV text cell as a formula (OWASP, "CSV Injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(cell: Any) -> Any:
    """A CSV cell that a spreadsheet opens as the same text, never as a formula: text that starts
    with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading single quote (OWASP's
    CSV injection guidance); numbers (a negative one included) and other text are returned as they
    are, so a number stays a number."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def csv_text(rows: list[list[Any]]) -> str:
    """``rows`` as CSV text, one ``\\n`` per row, quoted where the csv module's minimal quoting
    needs it. A cell holding a carriage return is quoted too: Python 3.11's writer quotes only the
    line terminator's own characters, so such a row is written with ``\\r\\n`` and its end made ``\\n``."""
    import csv
    import io

    buf = io.StringIO()
    plain = csv.writer(buf, lineterminator="\n")
    for row in rows:
        if any(isinstance(c, str) and "\r" in c for c in row):
            one = io.StringIO()
            csv.writer(one, lineterminator="\r\n").writerow(row)
            buf.write(one.getvalue()[:-2] + "\n")
        else:
            plain.writerow(row)
    return buf.getvalue()


def csv_rows(result: Any) -> tuple[list[str], list[list[Any]]]:
    """(header, rows) of ``Result.to_csv``: ``kind, name, index`` (OPL notation), one column
    ``index_1 .. index_K`` per index component, a tuple component taking one column per field
    (K the most of any name), ``value`` (a number, or an interval as ``<present start end size>``).
    Text cells go through :func:`spreadsheet_text` (an index value ``=1+2`` is written ``'=1+2``)."""
    from .intervals import IntervalValue  # (here: every compile reads index_level_names, few write CSV)

    rows = result.rows()
    flat = [[x for k in r[2] for x in _flatten(k)] for r in rows]
    width = max((len(f) for f in flat), default=0)
    header = ["kind", "name", "index"] + ["index_%d" % (i + 1) for i in range(width)] + ["value"]
    out = []
    for (kind, name, key, v), comps in zip(rows, flat):
        parts = [spreadsheet_text(_plain(k)) for k in comps] + [""] * (width - len(comps))
        out.append([kind, name, "".join("[%s]" % format_key_part(k) for k in key)] + parts +
                   ["" if v is None else str(v) if isinstance(v, IntervalValue) else v if isinstance(v, int)
                    else float(v)])
    return header, out
