"""The solver-neutral problem that lowering produces and every backend consumes.

Shapes: ``n`` columns (decision variables after expansion) and ``m`` rows
(linear constraints after expansion).  The constraint matrix is a SciPy
CSR array of shape ``(m, n)``, made from the compiler's arrays the first time
``ir.A`` is read, so that a compile and a HiGHS solve never import SciPy
(a third of a small solve's start-up); bounds use ``±inf`` for "no bound".  Every
column and row remembers the OPL name and index key it came from, so
results map back to the user's terms (``ship["Seattle", "Chicago"]``).
"""
from __future__ import annotations

from collections import abc
from dataclasses import dataclass, field
import sys
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

import numpy as np

if TYPE_CHECKING:
    import scipy.sparse as sp

INF = float("inf")

Key = tuple  # structured index key, e.g. ("Seattle", "Chicago") or (1,) ; () for scalars


@dataclass
class DvarBlock:
    """One OPL ``dvar`` declaration expanded into a contiguous column range.

    ``first`` is the index of its first column; ``keys[k]`` is the index key
    of column ``first + k``; ``dims`` is the number of indices (0 for a scalar).
    ``kind`` is the OPL type word: ``float``, ``int`` or ``boolean``.
    """

    name: str
    first: int
    keys: list[Key]
    dims: int
    kind: str

    @property
    def size(self) -> int:
        return len(self.keys)


class RowRange(abc.Sequence):
    """The rows ``start .. stop - 1`` of a family built in one block: a read-only sequence of row
    indices that makes no list (half a million rows took 15 ms to list), equal to any list, tuple
    or range of the same indices, as :class:`~pyopl.semantics.values.ProductKeys` is for keys."""

    __slots__ = ("_rows",)

    def __init__(self, start: int, stop: int) -> None:
        self._rows = range(start, stop)

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, k: Any) -> Any:
        return list(self._rows[k]) if isinstance(k, slice) else self._rows[k]

    def __iter__(self):
        return iter(self._rows)

    def __contains__(self, i: Any) -> bool:
        return i in self._rows

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, RowRange):
            return self._rows == other._rows
        if isinstance(other, (list, tuple, range)):
            return len(other) == len(self._rows) and all(a == b for a, b in zip(self._rows, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  (equal to lists, which have none)

    def __repr__(self) -> str:
        return "RowRange(%d, %d)" % (self._rows.start, self._rows.stop)


class RowArray(abc.Sequence):
    """Row indices held as an int64 array (the rows of one statement of a braced ``forall`` body,
    interleaved with its other statements' rows): a read-only sequence of Python ints that makes no
    list, equal to any list, tuple, range or :class:`RowRange` of the same indices."""

    __slots__ = ("_rows",)

    def __init__(self, rows: np.ndarray) -> None:
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, k: Any) -> Any:
        return self._rows[k].tolist()

    def __iter__(self):
        return iter(self._rows.tolist())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._rows if dtype is None else self._rows.astype(dtype)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, RowArray):
            return np.array_equal(self._rows, other._rows)
        if isinstance(other, (list, tuple, range, RowRange)):
            return len(other) == len(self._rows) and all(a == b for a, b in zip(self._rows.tolist(), other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  (equal to lists, which have none)

    def __repr__(self) -> str:
        return "RowArray(%d rows)" % len(self._rows)


@dataclass
class RowFamily:
    """Rows that share one constraint label (``ctDemand``), possibly indexed by ``forall``."""

    label: str
    #: row indices in order; a family built in one piece keeps a read-only :class:`RowRange`, one
    #: statement of a braced body a :class:`RowArray`
    rows: Sequence[int] = field(default_factory=list)
    #: one key per row; a family built in one piece over a full product of index sets keeps a
    #: read-only :class:`~pyopl.semantics.values.ProductKeys` (a sequence that makes keys when asked)
    keys: Sequence[Key] = field(default_factory=list)
    indexed: bool = False


class CSRParts(NamedTuple):
    """The arrays of a CSR matrix in canonical form (columns sorted within each row, none twice),
    held until SciPy is needed: ``data[indptr[i]:indptr[i+1]]`` are row ``i``'s coefficients."""

    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    shape: tuple[int, int]

    def to_scipy(self) -> "sp.csr_array":
        import scipy.sparse as sp

        return sp.csr_array((self.data, self.indices, self.indptr), shape=self.shape)


class _LazyMatrix:
    """Data descriptor for :attr:`IR.A`: the instance holds a SciPy matrix or :class:`CSRParts`;
    reading it gives the SciPy matrix, made (once) on the first read."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:  # class access: no default value for the dataclass field
            raise AttributeError(self.name)
        value = obj.__dict__[self.name]
        if isinstance(value, CSRParts):
            value = obj.__dict__[self.name] = value.to_scipy()
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.name] = value


@dataclass
class Indicator:
    """One indicator constraint: ``x[binary] == active  =>  lo <= sum(terms[j] * x[j]) <= hi``.

    Made by the logical lowering (:mod:`pyopl.lowering.linearise.logical`) where no big-M row exists because
    the expression is unbounded; only backends whose capabilities include ``indicators`` take it
    (SCIP, CPLEX, Gurobi).  ``binary`` is a column index; ``active`` is 1 or 0; ``terms`` maps
    column index -> coefficient; ``lo``/``hi`` use ``±inf`` for a missing side (the constant of
    the expression is already moved into them); ``label``/``key`` are the constraint's OPL label
    and index key; ``span`` is the logical constraint's place in the source; ``why`` says, in
    words, why big-M was impossible (``"`x` is unbounded"``).
    """

    binary: int
    active: int
    terms: dict
    lo: float
    hi: float
    label: str = ""
    key: Key = ()
    span: Any = None
    why: str = ""


#: CSR to CSC in NumPy (no SciPy import) up to this many nonzeros; beyond, SciPy's C loop is worth importing
NUMPY_CSC_LIMIT = 2_000_000


@dataclass
class IndicatorAlternative:
    """A logical constraint's big-M ``rows`` whose M rests on assumed bounds (``assumption_ids``: the
    ``id`` of each entry of :attr:`IR.assumptions` they rest on), and the native ``indicator`` that says
    the same without an M: a backend that takes indicators solves :func:`with_indicators` instead."""

    rows: list
    indicator: Indicator
    assumption_ids: list


def with_indicators(ir: "IR") -> "IR":
    """``ir`` with every :attr:`IR.indicator_alternatives` taken: the big-M rows made free (kept, so
    that row numbers, labels and duals stay), the indicators added, and each assumption dropped that
    only they used (``"uses"`` of the entry: every big-M that rested on it)."""
    import dataclasses
    from collections import Counter

    rows = [i for alt in ir.indicator_alternatives for i in alt.rows]
    # an assumption goes only when every big-M that used it became an indicator: one still used by
    # another linearisation (`abs`, `max`, a piecewise, ...) still bounds the solution
    taken = Counter(k for alt in ir.indicator_alternatives for k in alt.assumption_ids)
    gone = {id(a) for a in ir.assumptions if taken[id(a)] >= a.get("uses", 1)}
    lo, hi = ir.row_lower.copy(), ir.row_upper.copy()
    lo[rows], hi[rows] = 0.0, 0.0  # `0 == 0`: a row with no coefficient (SCIP's reader drops a free row)
    data, indices, indptr = ir.csr()
    data = np.array(data, dtype=float)
    for i in rows:
        data[indptr[i]:indptr[i + 1]] = 0.0
    shape = (ir.num_rows, ir.num_cols)
    return dataclasses.replace(ir, A=CSRParts(data, np.asarray(indices), np.asarray(indptr), shape),
                               row_lower=lo, row_upper=hi,
                               indicators=list(ir.indicators) + [alt.indicator for alt in ir.indicator_alternatives],
                               assumptions=[a for a in ir.assumptions if id(a) not in gone], indicator_alternatives=[])


@dataclass
class IR:
    """A linear or mixed-integer (optionally quadratic-objective) problem.

    Objective: ``sense`` of ``obj @ x + obj_constant`` (+ ``0.5 x' Q x`` when ``q`` is set).
    Constraints: ``row_lower <= A @ x <= row_upper``.
    Bounds: ``col_lower <= x <= col_upper``; ``col_integer[j]`` marks integer columns.
    """

    sense: str  # "minimize", "maximize" or "feasibility"
    col_lower: np.ndarray
    col_upper: np.ndarray
    col_integer: np.ndarray
    col_name: Sequence[str]  # the dvar name of each column, a read-only sequence (a block's name kept once, as a run)
    col_key: list[Key]
    obj: np.ndarray
    obj_constant: float
    A: sp.csr_array  # SciPy CSR (m, n); may be given as CSRParts, turned into SciPy's on the first read
    row_lower: np.ndarray
    row_upper: np.ndarray
    row_label: list[str]  # constraint label ("" when unlabelled), one per row
    row_key: Sequence[Key]  # one per row, a read-only sequence (keys of array-built families are made when asked)
    dvars: dict[str, DvarBlock] = field(default_factory=dict)
    families: dict[str, RowFamily] = field(default_factory=dict)
    q: sp.csr_array | None = None  # Hessian of the quadratic objective part (0.5 x'Qx)
    dexprs: dict[str, Any] = field(default_factory=dict)  # name -> {key: (idx, coef, const)}
    objective_name: str | None = None
    lex_objectives: list | None = None  # staticLex: [(c, c0), ...] in priority order
    lex_tolerances: list | None = None  # staticLexFull: [(abstol, reltol), ...] per level; None: the solver's own
    row_stmt: list | None = None  # per row: index into ``stmt_spans`` (-1 when no statement is known)
    stmt_spans: list = field(default_factory=list)  # source spans of the constraint statements
    dvar_spans: dict = field(default_factory=dict)  # dvar name -> span of its name in the declaration
    # dvar/dexpr/constraint label -> the name of each index, after its OPL index set (pyopl.results.dataframes)
    index_names: dict = field(default_factory=dict)
    eplin_used: float | None = None  # the linearisation tolerance (eplin) logical constraints used, if any
    qcons: list = field(default_factory=list)  # quadratic constraints (pyopl.lowering.linearise.quadratic.QuadRow)
    objective_span: Any = None  # source span of the objective's expression
    indicators: list = field(default_factory=list)  # indicator constraints (Indicator), outside the linear rows
    engine: str = "mp"  # "cp" for a `using CP;` model (solved by CP-SAT, pyopl/backends/cp/cpsat.py)
    engine_span: Any = None  # source span of the `using CP;` line (a CP model's LP/MPS export is refused there)
    #: bounds a linearisation assumed (no declaration or row gives them): {"column", "side", "bound",
    #: "what", "span"}; a solution at one proves nothing beyond it (pyopl/backends/explain/solution_check.py)
    assumptions: list = field(default_factory=list)
    #: logical constraints whose big-M rests on an assumed bound, with their exact indicator form
    indicator_alternatives: list = field(default_factory=list)
    cp_constraints: list = field(default_factory=list)  # global CP constraints (pyopl.lowering.cp.constraints.CpConstraint)
    intervals: list = field(default_factory=list)  # interval variables (pyopl.lowering.cp.constraints.intervals.IntervalVar)
    interval_blocks: dict = field(default_factory=dict)  # interval name -> (dims, [IntervalVar, ...])
    #: helper column -> the condition it stands for (a logical constraint's disjunct: ``x[1] >= 5``), so an
    #: explanation names it ``#[x[1] >= 5]`` where the column name alone (``#logic``) would repeat
    col_notes: dict = field(default_factory=dict)

    def csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(data, indices, indptr)`` of the row matrix in CSR form, without importing SciPy."""
        a = self.__dict__["A"]
        return a.data, a.indices, a.indptr

    @property
    def nnz(self) -> int:
        """Stored entries of the row matrix (without importing SciPy)."""
        a = self.__dict__["A"]
        return int(a.indptr[-1]) if isinstance(a, CSRParts) else int(a.nnz)

    def csc(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(indptr, indices, data)`` of the row matrix by columns, row indices increasing in each
        column: SciPy's ``tocsc()`` followed by ``sort_indices()``, done in NumPy (a stable order by
        column keeps each column's entries in row order, :func:`~pyopl.sparse_order.stable_order`)
        while SciPy is not loaded and the matrix is small, so that a small solve need not import it.
        SciPy's compiled routine alone (:func:`~pyopl.sparse_order.csr_to_csc`, without importing
        ``scipy.sparse``) comes first wherever it is installed."""
        a = self.__dict__["A"]
        if isinstance(a, CSRParts):
            from .sparse_order import csr_to_csc

            got = csr_to_csc(a.shape, a.indptr, a.indices, a.data)  # SciPy's compiled transpose, SciPy not imported
            if got is not None:
                return got
        if not isinstance(a, CSRParts) or "scipy.sparse" in sys.modules or self.nnz > NUMPY_CSC_LIMIT:
            A = self.A.tocsc()
            A.sort_indices()
            return A.indptr, A.indices, A.data
        from .sparse_order import stable_order

        m, n = a.shape
        index = np.int32 if max(m, n, self.nnz) < 2**31 else np.int64  # int32 where it fits: HiGHS's own type
        order = stable_order(a.indices, n)
        rows = np.repeat(np.arange(m, dtype=index), np.diff(a.indptr))[order]
        indptr = np.zeros(n + 1, dtype=index)
        np.cumsum(np.bincount(a.indices, minlength=n), out=indptr[1:])
        return indptr, rows, np.asarray(a.data)[order]

    def row_span(self, i: int) -> Any:
        """Source span of the statement that produced row ``i``, or None."""
        if self.row_stmt is None or i >= len(self.row_stmt) or self.row_stmt[i] < 0:
            return None
        return self.stmt_spans[self.row_stmt[i]]

    @property
    def num_cols(self) -> int:
        return len(self.col_lower)

    @property
    def num_rows(self) -> int:
        return len(self.row_lower)

    @property
    def is_mip(self) -> bool:
        return bool(np.any(self.col_integer))

    def column_label(self, j: int) -> str:
        """``name[k1][k2]`` for column ``j`` in OPL notation."""
        return opl_label(self.col_name[j], self.col_key[j])

    def row_text(self, i: int) -> str:
        """``label[k1]`` for row ``i`` in OPL notation (``#i`` when unlabelled)."""
        label = self.row_label[i] or "<unlabelled #%d>" % i
        return opl_label(label, self.row_key[i])


IR.A = _LazyMatrix("A")  # after @dataclass (a field without default): the generated __init__ assigns through it


#: characters a string shows escaped in OPL notation (the OPL string escapes: IBM's OPL language
#: reference, "Data types" > string literals follow C)
_STRING_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"})


def format_key_part(v: Any, sep: str = ",") -> str:
    """One index value in OPL notation: a string quoted, with ``\\``, ``"``, a line break, tab or
    carriage return escaped as in an OPL string literal (``"q\\"uote"``, so the text reads back as
    the same value); a tuple as ``<a,b>`` (its fields joined by ``sep``: the interval labels of CP
    schedules write ``<a, b>`` as OPL's ``writeln`` does); an integral float as an int; other numbers
    as ``str``."""
    if isinstance(v, str):
        return '"%s"' % v.translate(_STRING_ESCAPES)
    if isinstance(v, tuple):
        return "<" + sep.join(format_key_part(x, sep) for x in v) + ">"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def opl_label(name: str, key: Key) -> str:
    """``x`` + ``("a", 1)`` -> ``x["a"][1]``."""
    return name + "".join("[" + format_key_part(k) + "]" for k in key)
