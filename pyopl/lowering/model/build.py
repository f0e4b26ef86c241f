"""Instance -> :class:`~pyopl.ir.IR`: columns, the sparse row matrix, the objective."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...diagnostics.diagnostic import Span
from ...ir import IR, CSRParts, DvarBlock, RowArray, RowFamily, RowRange
from ...sparse_order import sort_uniform_blocks
from ...syntax import ast as opl_ast
from ..arrays.vectorised_dexprs import bulk_dexpr
from ..forms.symbols import DexprArray, DexprScalar
from ..forms.errors import NONLINEAR_SLUGS, EvalError
from .instance import Instance
from ..forms.linear import QuadExpr
from ..arrays.vectorised_rows import ArrayLinExpr, vector_objective

if TYPE_CHECKING:
    import scipy.sparse as sp


def _objective_arrays(obj, n: int) -> tuple[np.ndarray, float, sp.csr_array | None]:
    c = np.zeros(n)
    if obj is None:
        return c, 0.0, None
    lin = obj.lin if isinstance(obj, QuadExpr) else obj
    if isinstance(lin, ArrayLinExpr) and lin.cols is not None:
        with np.errstate(all="ignore"):  # an overflow is reported by check_numbers, in OPL terms
            # each column's coefficients added in order from 0.0, as the dict of the same terms would hold
            # (`0.0 + v`: -0.0 becomes 0.0); columns given once each are one addition, not `np.add.at`
            if lin.rising and len(lin.cols) == n:  # every column once, in order: the objective is the array
                c = lin.coefs + 0.0
            elif lin.rising is not None:
                c[lin.cols] = lin.coefs + 0.0
            else:
                np.add.at(c, lin.cols, lin.coefs)
    elif lin.terms:  # the columns of a dict are distinct, so this is `c[j] += v` for each term
        c[np.fromiter(lin.terms, dtype=np.int64, count=len(lin.terms))] += np.fromiter(
            lin.terms.values(), dtype=np.float64, count=len(lin.terms))
    q = None
    if isinstance(obj, QuadExpr) and obj.quad:
        rows, cols, vals = [], [], []
        for (i, j), v in obj.quad.items():
            if i == j:  # x_i^2 * v  ->  0.5 * (2v) x_i^2
                rows.append(i); cols.append(i); vals.append(2.0 * v)
            else:  # v x_i x_j  ->  0.5 * (v x_i x_j + v x_j x_i)
                rows += [i, j]; cols += [j, i]; vals += [v, v]
        import scipy.sparse as sp

        q = sp.csr_array((vals, (rows, cols)), shape=(n, n))
    return c, float(lin.const), q


def build_ir(inst: Instance) -> IR:
    """Assemble the IR once all items have been evaluated (diagnostics only from dexprs and piecewise
    functions first evaluated or settled here: check ``inst.reporter`` afterwards)."""
    dexprs = _dexprs(inst)  # first: linearised dexprs may add columns and rows
    if getattr(inst, "_pw_pending", None):  # (pw_exact's list: a model without piecewise never loads it)
        from ..linearise.pw_exact import settle_piecewise

        try:  # then every piecewise's fill order, from all its uses (may add binaries and rows)
            settle_piecewise(inst, lambda obj: _objective_arrays(obj, len(inst.cols.lower)))
        except EvalError as e:
            e.report(inst.reporter)
    cols, rows = inst.cols, inst.rows
    n, m = len(cols.lower), len(rows)
    index = np.int32 if max(m, n, rows.nnz()) < 2**31 else np.int64  # half the memory of int64 where it fits
    vals, row_cols, indptr, row_lower, row_upper = rows.arrays(index)
    sort_uniform_blocks(rows.blocks, vals, row_cols, indptr)
    cast = row_cols.astype(index, copy=False)  # once, before the sort below (which then moves half the bytes)
    vals, row_cols, indptr = _canonical_rows(vals, cast, indptr, cols_owned=cast is not row_cols)
    A = CSRParts(vals, row_cols.astype(index, copy=False), indptr.astype(index, copy=False), (m, n))
    sense = inst.sense if inst.objective is not None else "feasibility"
    c, c0, q = _objective_arrays(inst.objective, n)
    dvars = {name: DvarBlock(name, first, keys, dims, kind) for name, (first, keys, dims, kind) in inst.dvar_blocks.items()}
    families = _families(rows)
    ir = IR(sense=sense,
            col_lower=cols.lower.array(float), col_upper=cols.upper.array(float),
            col_integer=cols.integer.array(bool), col_name=cols.name.sequence(), col_key=cols.key,
            obj=c, obj_constant=c0, A=A,
            row_lower=row_lower, row_upper=row_upper,
            row_label=rows.label.snapshot(), row_key=rows.key, dvars=dvars, families=families, q=q,
            objective_name=inst.objective_name)
    ir.dexprs = dexprs
    ir.row_stmt = rows.stmt.snapshot()
    ir.stmt_spans = list(rows.spans)
    ir.dvar_spans = {name: getattr(inst.symbols[name].decl, "name_span", None)
                     for name in inst.dvar_blocks if name in inst.symbols}
    ir.qcons = list(inst.qcons)
    ir.col_notes = getattr(inst, "col_notes", {}).copy()  # (unwritten notes stay so: linearise/notes.py)
    ir.indicators = list(inst.indicators)
    ir.engine = getattr(inst, "engine", "mp")
    ir.engine_span = next((i.span for i in inst.model.items if isinstance(i, opl_ast.Using)
                           and i.engine.upper() == "CP"), None) if ir.engine == "cp" else None
    ir.cp_constraints = list(getattr(inst, "cp_constraints", ()))
    ir.intervals = list(getattr(inst, "intervals", ()))
    ir.interval_blocks = dict(getattr(inst, "interval_blocks", {}))
    ir.objective_span = next((i.expr.span for i in inst.model.items if isinstance(i, opl_ast.Objective)), None)
    if len(inst.objectives) > 1:
        ir.lex_objectives = [_objective_arrays(o, n)[:2] for o in inst.objectives]
        ir.lex_tolerances = inst.lex_tolerances
    return ir


def _unsorted_rows(cols: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """The rows (increasing indices) whose columns are not strictly increasing: those a sort and
    ``sum_duplicates`` would change."""
    if len(cols) < 2:
        return np.zeros(0, dtype=np.int64)
    falling = cols[1:] <= cols[:-1]
    starts = indptr[1:-1]
    starts = starts[(starts > 0) & (starts < len(cols))]
    falling[starts - 1] = False  # the step from one row's last entry to the next row's first
    at = np.flatnonzero(falling)
    if not len(at):
        return at
    rows = np.searchsorted(indptr, at + 1, side="right") - 1  # the row of each entry below its left neighbour
    keep = np.ones(len(rows), dtype=bool)
    keep[1:] = rows[1:] != rows[:-1]
    return rows[keep]


def _canonical(cols: np.ndarray, indptr: np.ndarray) -> bool:
    """Every row's columns strictly increasing (SciPy's ``has_canonical_format``, for which
    ``sum_duplicates`` changes nothing), checked in NumPy."""
    return not len(_unsorted_rows(cols, indptr))


def _canonical_rows(vals: np.ndarray, cols: np.ndarray, indptr: np.ndarray, cols_owned: bool = False):
    """``(vals, cols, indptr)`` in canonical form: :func:`_sum_duplicates`, applied only to the rows
    that need it (in a netflow model the balance rows, not the one-entry bound rows), the other
    rows' entries left where they are.  Gives the arrays ``_sum_duplicates`` of the whole matrix
    gives, since it treats each row on its own.  The arrays given are never written to, except
    ``cols`` when ``cols_owned`` (a copy the caller made)."""
    bad = _unsorted_rows(cols, indptr)
    if not len(bad):
        return vals, cols, indptr
    m = len(indptr) - 1
    counts = np.diff(indptr)
    sub_counts = counts[bad]
    if 2 * int(sub_counts.sum()) > len(cols):  # most entries: taking them out and back costs more than it saves
        return _sum_duplicates(vals, cols, indptr, m)
    sub_indptr = np.zeros(len(bad) + 1, dtype=np.int64)
    np.cumsum(sub_counts, out=sub_indptr[1:])
    take = _positions(indptr[bad], sub_indptr)  # the bad rows' entries, in order
    sub_vals, sub_cols, sub_out = _sum_duplicates(vals[take], cols[take], sub_indptr, len(bad))
    if len(sub_cols) == len(take):  # no column repeated: the sorted rows go back where they were
        vals, cols = vals.copy(), cols if cols_owned else cols.copy()
        vals[take], cols[take] = sub_vals, sub_cols
        return vals, cols, indptr
    counts[bad] = np.diff(sub_out)
    out = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    put = _positions(out[bad], sub_out)
    kept = np.ones(len(cols), dtype=bool)
    kept[take] = False
    stay = np.ones(int(out[-1]), dtype=bool)
    stay[put] = False
    new_vals, new_cols = np.empty(int(out[-1]), dtype=vals.dtype), np.empty(int(out[-1]), dtype=cols.dtype)
    new_vals[stay], new_cols[stay] = vals[kept], cols[kept]
    new_vals[put], new_cols[put] = sub_vals, sub_cols
    return new_vals, new_cols, out


def _positions(starts: np.ndarray, sub_indptr: np.ndarray) -> np.ndarray:
    """The entry positions of rows that begin at ``starts`` and have the lengths of ``sub_indptr``
    (a compressed-row pointer over those rows alone), in order."""
    lengths = np.diff(sub_indptr)
    return np.repeat(starts - sub_indptr[:-1], lengths) + np.arange(int(sub_indptr[-1]), dtype=np.int64)


_SHORT_RUN = 256  # repeated-column runs up to this long are added position by position across all runs


def _sum_duplicates(vals: np.ndarray, cols: np.ndarray, indptr: np.ndarray, m: int):
    """``csr_array.sum_duplicates`` in NumPy, so that a compile need not import SciPy: each row's
    entries sorted by column, a repeated column's values added in the order they were written,
    explicit zeros kept.  (SciPy's gives the same bits for rows of under 16 entries, which it
    sorts stably; for longer rows its order of repeated columns is unspecified.)  Returns
    ``(vals, cols, indptr)``, the given ``indptr`` itself when no column repeats."""
    rows = np.repeat(np.arange(m, dtype=np.int64), np.diff(indptr))
    key = rows * (int(cols.max()) + 1 if len(cols) else 1) + cols  # (row, column) as one number
    # stable: repeated columns keep the order they were written in.  (NumPy's stable sort of int64 is
    # a timsort, fast here: the entries come grouped by row, often in a few ascending runs per row.)
    order = np.argsort(key, kind="stable")
    cols, vals = cols[order], vals[order]  # (`rows` is sorted already and stays as it is)
    first = np.ones(len(cols), dtype=bool)
    first[1:] = cols[1:] != cols[:-1]
    row_heads = indptr[:-1]
    first[row_heads[row_heads < len(cols)]] = True  # a row's first entry (its column may equal the last row's last)
    if first.all():  # no column twice in a row: the rows keep their lengths
        return vals, cols, indptr
    starts = np.flatnonzero(first)
    # repeated columns: add them up left to right, as SciPy's loop does
    lengths = np.diff(np.append(starts, len(cols)))
    total = vals[starts]  # a column written once is its own sum
    multi = np.flatnonzero(lengths > 1)
    by_length = multi[np.argsort(-lengths[multi], kind="stable")]  # longest first: step k adds to a prefix
    heads, desc = starts[by_length], lengths[by_length]
    sums = vals[heads]
    long_runs = int(np.searchsorted(-desc, -_SHORT_RUN, side="left"))  # runs longer than _SHORT_RUN
    for r in range(long_runs):  # one sequential running sum each (np.cumsum adds left to right)
        h, n_r = int(heads[r]), int(desc[r])
        sums[r] = np.cumsum(vals[h:h + n_r])[-1]
    for k in range(1, min(int(desc[0]), _SHORT_RUN)):  # the short runs, a step per position
        active = int(np.searchsorted(-desc, -k, side="left"))  # runs longer than k
        sums[long_runs:active] += vals[heads[long_runs:active] + k]
    total[by_length] = sums
    vals, cols, rows = total, cols[starts], rows[starts]
    out = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=m), out=out[1:])
    return vals, cols, out


def _families(rows) -> dict[str, RowFamily]:
    """Rows by user label, in row order; a block added in one piece (one label) is taken whole.

    A family made of one block keeps the block's own keys (possibly a
    :class:`~pyopl.semantics.values.ProductKeys`) and a :class:`~pyopl.ir.RowRange` of its rows,
    so a million-row family makes no key tuples and no list of row numbers."""
    families: dict[str, RowFamily] = {}
    owned: set[str] = set()  # families whose rows and keys are lists of their own
    blocks = {first: count for first, count in rows.blocks}
    labels, keys = rows.label, rows.key
    key_at, label_at = keys.cursor(), labels.cursor()
    i, m = 0, len(labels)
    while i < m:
        if i in rows.interleaved:  # a braced body's rows: each statement's family taken whole
            count, parts = rows.interleaved[i]
            for label, where, part_keys in parts:
                if not label or label.startswith("#") or not len(where):
                    continue
                fam = families.get(label)
                if fam is None:  # this statement's rows and keys, taken as they are
                    families[label] = RowFamily(label, RowArray(where + i), part_keys, bool(part_keys[0]))
                    continue
                if label not in owned:
                    fam.rows, fam.keys = list(fam.rows), list(fam.keys)
                    owned.add(label)
                fam.rows.extend((where + i).tolist())
                fam.keys.extend(part_keys)
                fam.indexed = fam.indexed or bool(part_keys[0])
            i += count
            continue
        label = label_at(i)
        count = blocks.get(i, 1)
        if label and not label.startswith("#"):
            fam = families.get(label)
            if fam is None:
                fam = families[label] = RowFamily(label)
            if count == 1:
                if label not in owned:
                    fam.rows, fam.keys = list(fam.rows), list(fam.keys)
                    owned.add(label)
                k = key_at(i)
                fam.rows.append(i)
                fam.keys.append(k)
                fam.indexed = fam.indexed or bool(k)
                i += 1
                continue
            block = keys.block(i, count)
            if not fam.rows:  # the family so far: this block, taken as it is
                fam.rows, fam.keys = RowRange(i, i + count), block
            else:
                if label not in owned:  # never extend a block's own list
                    fam.rows, fam.keys = list(fam.rows), list(fam.keys)
                    owned.add(label)
                fam.rows.extend(range(i, i + count))
                fam.keys.extend(block)
            fam.indexed = fam.indexed or bool(block[0])  # one block: every key has the loop's length
        i += count
    return families


def _dexprs(inst: Instance) -> dict:
    """Every dexpr's linear form per index key, so values can be reported after solving."""
    out = {}
    for sym in inst.symbols.values():
        if sym.kind != "dexpr":
            continue
        unused = isinstance(sym.value, DexprScalar) and sym.value.value is None  # (the model never read it)
        try:
            if isinstance(sym.value, DexprScalar):
                # not evaluated yet (an objective that names it takes its definition in place): the
                # array objective's form where it applies (its terms made when read), else as written
                unused = sym.value.value is None
                v = _array_form(inst, sym) if unused and inst.ev.joins else None
                try:
                    out[sym.name] = {(): v if v is not None else inst.dexpr_scalar(sym.value, sym.decl.span)}
                except EvalError as e:
                    if unused and e.slug in NONLINEAR_SLUGS and not _used_by_model(inst, sym.name):
                        continue  # IBM extracts only what the model uses: a script reads its value at the solution
                    raise
            elif isinstance(sym.value, DexprArray):
                out[sym.name] = _dexpr_cells(inst, sym.value)
        except EvalError as e:
            if unused and inst.engine == "cp" and e.slug in _CP_UNUSED:
                continue  # CP Optimizer builds a dexpr where it is used (a KPI's float ratio): no value to report
            e.report(inst.reporter)
    return out


#: what a scalar dexpr of a ``using CP;`` model that the model never uses may meet without an error (its
#: value is then not reported): arithmetic CP-SAT cannot represent (a float ratio for ``cp.addKPI``)
_CP_UNUSED = frozenset({"nonlinear-division", "unsupported-cp-construct", "cpsat-non-integral", "nonlinear-function"})


def _used_by_model(inst: Instance, name: str) -> bool:
    """Whether the objective, a constraint or another dexpr names ``name`` (scripts aside)."""
    from .lazy_data import names_in

    return any(name in names_in(item) for item in inst.model.items
               if isinstance(item, (opl_ast.Objective, opl_ast.ConstraintsBlock, opl_ast.DexprDecl))
               and getattr(item, "name", None) != name)


def _array_form(inst: Instance, sym) -> ArrayLinExpr | None:
    """A scalar dexpr not evaluated yet as an :class:`ArrayLinExpr` (its terms made when read): the objective's
    own arrays when the objective is the dexpr's name alone (``minimize total;``: the objective took the
    definition in place), else the definition evaluated as an array objective is; None where neither applies."""
    obj = inst.objective
    for item in inst.model.items:
        if isinstance(item, opl_ast.Objective) and isinstance(item.expr, opl_ast.Name) and item.expr.id == sym.name \
                and isinstance(obj, ArrayLinExpr) and obj.cols is not None and not inst.objectives[1:]:
            return ArrayLinExpr(obj.cols, obj.coefs, obj.const, obj.rising)
    return vector_objective(inst, sym.decl.expr)


#: A dexpr array with more cells than this reports only the cells the model used (IBM creates a cell where it is
#: used; ``dexpr float v[i in 1..200][j in 1..200][k in 1..200]`` read once must not cost 8 million evaluations)
REPORT_CELLS_MAX = 200_000

#: Errors that stop the whole compilation: a dexpr cell that meets one is not simply left out.
_FATAL = frozenset({"work-limit", "size-limit", "string-limit", "nesting-limit", "internal-error"})


def _dexpr_cells(inst: Instance, arr: DexprArray) -> dict:
    """``{key: form}`` for the cells of a dexpr array that can be evaluated, in key order.

    IBM keeps only the definition of a dexpr array and builds a cell when it is used ("Not all
    the expressions for each value of the indices are created", OPL Language User's Manual,
    "Expressions of decision variables"); so a cell that the model never uses and whose definition
    cannot be evaluated (``cost[<i,j>]`` for a pair that is not an arc) is no error: it is left out
    of the reported values. A cell the model uses was evaluated (and any error reported) where it
    is used. Budget errors still stop the compilation."""
    import itertools

    cells = 1
    for d in arr.dims:
        cells *= len(d)
    if cells > REPORT_CELLS_MAX:  # IBM builds a cell where it is used: report those (scripts compute others)
        return dict(arr.cache)  # (in the order the model used them)
    try:
        vals = bulk_dexpr(inst, arr) if inst.ev.joins else None  # all cells at once, where it can
    except EvalError as e:
        if e.slug in _FATAL or inst.budget.exhausted:
            raise
        vals = None  # a cell that cannot be evaluated: cell by cell below, which leaves it out
    if vals is not None:
        return vals
    vals = {}
    for key in itertools.product(*[list(d) for d in arr.dims]):
        try:
            vals[key] = inst.dexpr_value(arr, key, arr.decl)
        except EvalError as e:
            if e.slug in _FATAL or inst.budget.exhausted:
                raise
    return vals


#: HiGHS refuses matrix coefficients of 1e15 and more (its `large_matrix_value`); Gurobi warns far earlier.
LARGE_VALUE = 1e15

#: CPLEX treats a bound of magnitude 1e20 or more as infinite (CPLEX parameter reference, "infinity":
#: "any bound greater than or equal to 1e+20 is treated as infinity"); IBM's examples write `<= 1e+20`.
CPLEX_INFINITY = 1e20


def infinite_bounds(ir: IR) -> None:
    """Make every upper bound at or above ``CPLEX_INFINITY`` ``+inf`` and every lower bound at or below
    ``-CPLEX_INFINITY`` ``-inf``, in place, for columns and rows, as CPLEX reads them.  A lower bound of
    +1e20 or more (an upper bound of -1e20 or less) stays as it is: it is not "no bound" but one no
    solver can take, which :func:`check_numbers` reports."""
    for name in ("col_lower", "col_upper", "row_lower", "row_upper"):
        a = getattr(ir, name)
        hit = a <= -CPLEX_INFINITY if name.endswith("lower") else a >= CPLEX_INFINITY
        hit &= np.isfinite(a)
        if hit.any():
            if not a.flags.writeable:
                a = a.copy()
                setattr(ir, name, a)
            a[hit] = -np.inf if name.endswith("lower") else np.inf


def _within(a: np.ndarray) -> bool:
    """Every entry of ``a`` finite and below ``LARGE_VALUE`` in magnitude, from its minimum and maximum
    alone (two passes that make no array; a NaN makes both comparisons false)."""
    return not len(a) or bool(-LARGE_VALUE < a.min() and a.max() < LARGE_VALUE)


def _bounds_fine(lo: np.ndarray, hi: np.ndarray) -> bool:
    """No bound that :func:`check_numbers` reports, shown cheaply: each side finite and small, or
    infinite only on its own side (-inf below, +inf above), and no NaN; False means "look closer"."""
    def side(a: np.ndarray, open_end: float) -> bool:
        if _within(a):
            return True
        rest = a[a != open_end]  # (the rare bounds arrays with infinities: a copy without them)
        return _within(rest)
    return side(lo, -np.inf) and side(hi, np.inf)


def _quadratic_problem(ir: IR) -> str | None:
    """What is wrong with the quadratic objective's coefficients (NaN, infinite or huge: ``1e308 * x *
    x * 1e308``), in OPL names; None when they are fine or there are none."""
    q = getattr(ir, "q", None)
    if q is None:
        return None
    q = q.tocoo() if hasattr(q, "tocoo") else q
    data = np.asarray(q.data, dtype=float)
    if _within(data):
        return None
    k = int(np.flatnonzero(~np.isfinite(data) | (np.abs(data) >= LARGE_VALUE))[0])
    i, j = int(q.row[k]), int(q.col[k])
    c = float(data[k]) * (0.5 if i == j else 1.0)  # (the Hessian holds 2c on its diagonal)
    term = "`%s`^2" % ir.column_label(i) if i == j else "`%s` * `%s`" % (ir.column_label(i), ir.column_label(j))
    return "the objective coefficient of %s is %r" % (term, c)


def _auxiliary_site(ir: IR, col: int):
    """``(span, kind)`` of the CP constraint whose ``target`` is column *col* (the column lowering adds
    for ``element``, ``pow``, ``min``/``max`` of decisions...), or None: where the user wrote the expression."""
    for c in ir.cp_constraints:
        target = (getattr(c, "data", None) or {}).get("target")
        if isinstance(target, tuple) and target and col in target[0] and getattr(c, "span", None) is not None:
            return c.span, c.kind
    return None


def check_numbers(ir: IR, reporter) -> None:
    """Report coefficients and bounds no solver can take (NaN, infinite or huge), in OPL names.

    Runs on the finished IR so that every source of such numbers (data, arithmetic overflow,
    `infinity` in an expression) is caught in one place, before a solver rejects the model.
    """
    default = Span("<model>", 1, 1, 1, 2)
    infinite_bounds(ir)
    problems = []  # (message, span)
    data, indices, indptr = ir.csr()
    data = np.asarray(data)
    if not _within(data):
        bad = ~np.isfinite(data) | (np.abs(data) >= LARGE_VALUE)
        rows = np.repeat(np.arange(ir.num_rows), np.diff(indptr))
        k = int(np.flatnonzero(bad)[0])
        i, j = int(rows[k]), int(indices[k])
        problems.append(("the coefficient of `%s` in the constraint `%s` is %r" % (
            ir.column_label(j), ir.row_text(i), float(data[k])), ir.row_span(i)))
    quad = _quadratic_problem(ir)
    if quad is not None:  # (its infinity times 0 is what makes a linear coefficient NaN: one error, this one)
        problems.append((quad, ir.objective_span or default))
    bad = ~np.isfinite(ir.obj) | (np.abs(ir.obj) >= LARGE_VALUE)
    if quad is None and bad.any():
        j = int(np.flatnonzero(bad)[0])
        # at the objective, where the coefficient is computed (the variable's declaration is a label)
        problems.append(("the objective coefficient of `%s` is %r" % (ir.column_label(j), float(ir.obj[j])),
                         ir.objective_span or ir.dvar_spans.get(ir.col_name[j])))
    elif not np.isfinite(ir.obj_constant):  # (a NaN coefficient times 0 makes the constant NaN too: one error)
        problems.append(("the objective's constant term is %r" % ir.obj_constant, ir.objective_span))
    elif ir.engine == "cp" and abs(ir.obj_constant) >= LARGE_VALUE:  # 64-bit CP data: not exact as a double
        problems.append(("the objective's constant term is %r" % ir.obj_constant, ir.objective_span))
    for lo, hi, what, label in ((ir.row_lower, ir.row_upper, "constraint", ir.row_text),
                                (ir.col_lower, ir.col_upper, "variable", ir.column_label)):
        if _bounds_fine(lo, hi):
            continue
        bad = np.isnan(lo) | np.isnan(hi) | (lo == np.inf) | (hi == -np.inf) | \
            (np.isfinite(lo) & (np.abs(lo) >= LARGE_VALUE)) | (np.isfinite(hi) & (np.abs(hi) >= LARGE_VALUE))
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            where = ir.row_span(k) if what == "constraint" else ir.dvar_spans.get(ir.col_name[k])
            site = _auxiliary_site(ir, k) if what == "variable" and where is None else None
            if site is not None:  # a column lowering made for an expression: name the expression, at it
                where, kind = site
                problems.append(("the value of this `%s` ranges over [%r, %r]" % (kind, float(lo[k]), float(hi[k])),
                                 where))
                continue
            problems.append(("the %s `%s` has the bounds [%r, %r]" % (what, label(k), float(lo[k]), float(hi[k])), where))
    for p, where in problems:
        reporter.emit("value-out-of-range", where or default, "%s, which no solver can take" % p,
                      help="check the data for overflow or a misplaced `infinity`; values must be finite and "
                           "below 1e15 in magnitude (scale the units if they are genuinely this large)")
    if not problems:
        check_coefficient_range(ir, reporter)


#: HiGHS's ``small_matrix_value`` and SCIP's ``numerics/epsilon``: a coefficient below drops out.
TINY_COEFFICIENT = 1e-9
#: The largest ratio of coefficient magnitudes in one row that solvers honour reliably (Gurobi's
#: "Guidelines for Numerical Issues": keep the matrix range within about 1e9; CPLEX's documentation of
#: ill-conditioning gives the same order).
MAX_ROW_RANGE = 1e9


def check_coefficient_range(ir: IR, reporter) -> None:
    """Warn (``coefficient-range``), at the constraint, for a coefficient a solver would drop as zero
    (below :data:`TINY_COEFFICIENT` in magnitude) and for a row whose coefficients span more than
    :data:`MAX_ROW_RANGE`: solvers then answer with a wrong optimum rather than an error (issue 43,
    class 15; the solution check catches the answer, this says why, before the solve)."""
    data, indices, indptr = ir.csr()
    data = np.abs(np.asarray(data, dtype=float))
    if not len(data):
        return
    lo, hi = float(data.min()), float(data.max())
    if lo >= TINY_COEFFICIENT and hi <= lo * MAX_ROW_RANGE:
        return  # no row's range exceeds the whole matrix's (0.15 s -> 0.02 s at 6.4M coefficients)
    rows = np.repeat(np.arange(ir.num_rows), np.diff(indptr))
    tiny = np.flatnonzero((data > 0) & (data < TINY_COEFFICIENT))
    default = Span("<model>", 1, 1, 1, 2)
    if len(tiny):
        k = int(tiny[0])
        i, j = int(rows[k]), int(indices[k])
        reporter.emit("coefficient-range", ir.row_span(i) or default,
                      "the coefficient of `%s` in `%s` is %.3g: HiGHS and SCIP treat coefficients below %g as 0, "
                      "so the solver would drop it without a word%s" % (
                          ir.column_label(j), ir.row_text(i), float(np.asarray(ir.csr()[0])[k]), TINY_COEFFICIENT,
                          " (and %d more)" % (len(tiny) - 1) if len(tiny) > 1 else ""),
                      help="scale the units (a coefficient of 1e-10 per unit is 1 per 1e10 units), or divide the row")
    nz = data > 0
    if not nz.any():
        return
    big = np.full(ir.num_rows, 0.0)
    small = np.full(ir.num_rows, np.inf)
    np.maximum.at(big, rows[nz], data[nz])
    np.minimum.at(small, rows[nz], data[nz])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(np.isfinite(small) & (small > 0), big / small, 0.0)
    i = int(np.argmax(ratio))
    if ratio[i] > MAX_ROW_RANGE:
        reporter.emit("coefficient-range", ir.row_span(i) or default,
                      "the coefficients of `%s` range from %.3g to %.3g (a ratio of %.2g): solvers lose the small "
                      "ones to their tolerances and may report a wrong optimum as optimal" % (
                          ir.row_text(i), float(small[i]), float(big[i]), float(ratio[i])),
                      help="scale the units of the variables or the data so that the coefficients of a row stay "
                           "within about 1e6 of each other; give big-M variables tight bounds")
