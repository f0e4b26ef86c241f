"""The model instance: declarations evaluated against data, decision columns allocated.

:class:`Instance` keeps the symbol table, the columns and the rows, and evaluates ``dexpr``
values on demand; :func:`pyopl.lowering.model.driver.run` walks the model's items in source order
(OPL's rule: a name is usable after its declaration) into it, turning every user mistake into a
diagnostic before moving on to the next item.
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...diagnostics.diagnostic import Label, Span
from ...diagnostics.reporter import Reporter, did_you_mean
from ...data.convert import SetOf
from ...data.parser import DataItem
from ...ir import opl_label
from ...limits import Limits
from ...semantics.checker import report_duplicate
from ...semantics.values import ProductKeys, show
from ...syntax import ast as A
from ..linearise.bounds import ImpliedBounds, expr_bounds, finite_bounds
from ..linearise.notes import ColumnNotes
from ..forms.budget import Budget
from ..forms.size_limit import CHECK_EVERY, SizeMeter
from ..forms.describe import type_word
from ..forms.errors import EvalError, FollowOnError
from ..evaluate.expressions import Evaluator
from ..forms.value_tests import is_number
from ..forms.linear import LinExpr, QuadExpr
from ..forms.symbols import DexprArray, DexprScalar
from .row_parts import Coded, Run

INF = math.inf
MAX_COLUMNS = 20_000_000  # more decision columns than this is refused before allocating
MAX_ARRAY = 50_000_000


@dataclass
class Symbol:
    """A declared name of the model: its kind, value (data, columns, a label's rows...) and declaration."""

    kind: str  # param | set | range | dvar | dexpr | tuple | label
    name: str
    value: Any
    decl: A.Node
    type: Any = None


class KeyList:
    """The index key of every column (or row), in order, as a read-only sequence.

    Keys added one at a time are kept in lists; a whole block added at once keeps its
    :class:`ProductKeys`, so a million-entry block costs no key tuples until one is asked for.
    """

    __slots__ = ("_starts", "_parts", "_len", "_tail")

    def __init__(self):
        self._starts: list[int] = []
        self._parts: list = []
        self._len = 0
        self._tail: list | None = None  # the last part when it is a list (appends go there)

    def append(self, key: tuple) -> None:
        tail = self._tail
        if tail is None:
            tail = self._tail = []
            self._starts.append(self._len)
            self._parts.append(tail)
        tail.append(key)
        self._len += 1

    def extend(self, keys: Any) -> None:
        if isinstance(keys, ProductKeys):
            if len(keys):
                self._starts.append(self._len)
                self._parts.append(keys)
                self._len += len(keys)
                self._tail = None
            return
        keys = list(keys)
        if self._tail is None:
            if not keys:
                return
            self._tail = []
            self._starts.append(self._len)
            self._parts.append(self._tail)
        self._tail.extend(keys)
        self._len += len(keys)

    def __len__(self) -> int:
        return self._len

    def __iter__(self):
        for part in self._parts:
            yield from part

    def __getitem__(self, j: Any) -> Any:
        if isinstance(j, slice):
            return [self[k] for k in range(*j.indices(self._len))]
        if j < 0:
            j += self._len
        if not 0 <= j < self._len:
            raise IndexError("key position out of range")
        p = bisect.bisect_right(self._starts, j) - 1
        return self._parts[p][j - self._starts[p]]

    def cursor(self):
        """``key_at(j)`` for positions ``j`` asked in increasing order: O(1) each (no search)."""
        starts, parts = self._starts, self._parts
        state = [0, 0, len(parts[0]) if parts else 0]  # part index, its start, its end

        def key_at(j: int) -> Any:
            while j >= state[2]:
                state[0] += 1
                state[1] = starts[state[0]]
                state[2] = state[1] + len(parts[state[0]])
            return parts[state[0]][j - state[1]]

        return key_at

    def parts(self) -> list[tuple[int, Any]]:
        """``(start, keys)`` of each stored part, in order: a :class:`ProductKeys` block or a list of tuples."""
        return list(zip(self._starts, self._parts))

    def block(self, first: int, count: int) -> Any:
        """Keys ``first .. first+count-1``: the part itself where one part is exactly that range (no copy)."""
        p = bisect.bisect_right(self._starts, first) - 1
        if 0 <= p < len(self._parts) and self._starts[p] == first and len(self._parts[p]) == count:
            return self._parts[p]
        return self[first:first + count]

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (list, tuple, KeyList, ProductKeys)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return "KeyList(%d keys)" % self._len


class RowValues(KeyList):
    """One value per row (its label, or its statement's number), in order, as a read-only sequence:
    values added one at a time go into lists, a block's one value is kept as a run and an interleaved
    block's as codes into a table (:class:`Run`, :class:`Coded`), so a million-row family makes no
    million-entry list; ``len``, iteration, ``values[k]``, slices (lists) and ``==`` with a list
    behave as the list would. :meth:`array` gives the values as one NumPy array."""

    __slots__ = ()

    def add_part(self, part: Any) -> None:
        """Append the values of ``part`` (a :class:`Run` or :class:`Coded`), kept as it is."""
        if len(part):
            self._starts.append(self._len)
            self._parts.append(part)
            self._len += len(part)
            self._tail = None

    def snapshot(self) -> "RowValues":
        """A copy that rows added later do not change (the parts shared, a list part copied)."""
        out = RowValues()
        out._starts = list(self._starts)
        out._parts = [list(p) if p.__class__ is list else p for p in self._parts]
        out._len = self._len
        return out

    def array(self, dtype: Any) -> np.ndarray:
        """The values as one NumPy array of ``dtype`` (as ``np.asarray(list(self), dtype)`` gives)."""
        if not self._parts:
            return np.zeros(0, dtype=dtype)
        return np.concatenate([p.array(dtype) if isinstance(p, (Run, Coded)) else np.asarray(p, dtype=dtype)
                               for p in self._parts])

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.array(dtype)  # (np.asarray(ir.row_stmt): one array, not a lookup per row)

    def __repr__(self) -> str:
        return "RowValues(%d values)" % self._len


class RunList:
    """A per-column list (bound, integrality, name) kept as runs of one value where a whole
    ``dvar`` block shares it, so a million-column block costs no million-entry lists.

    Appends, ``len`` and iteration work on the runs; the first lookup by position makes the
    flat list once (later lookups and appends use it); :meth:`array` and :meth:`tolist`
    give the whole column, from the runs when no flat list was made.
    """

    __slots__ = ("_parts", "_flat", "_len")

    def __init__(self):
        self._parts: list = []  # lists of single values, and (value, count) runs
        self._flat: list | None = None
        self._len = 0

    def append(self, value: Any) -> None:
        self._len += 1
        if self._flat is not None:
            self._flat.append(value)
        elif self._parts and self._parts[-1].__class__ is list:
            self._parts[-1].append(value)
        else:
            self._parts.append([value])

    def extend_run(self, value: Any, count: int) -> None:
        """``count`` copies of ``value``."""
        if count <= 0:
            return
        self._len += count
        if self._flat is not None:
            self._flat.extend([value] * count)
        else:
            self._parts.append((value, count))

    def extend(self, values: list | np.ndarray) -> None:
        """The values of ``values`` in order (a list this RunList may keep, or a float64 array read back
        as Python floats, which it keeps as an array until a list is asked for)."""
        if not len(values):
            return
        self._len += len(values)
        if self._flat is not None:
            self._flat.extend(values.tolist() if isinstance(values, np.ndarray) else values)
        else:
            self._parts.append(_Floats(values) if isinstance(values, np.ndarray) else values)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, j: Any) -> Any:
        return self.flat()[j]

    def flat(self) -> list:
        """The values as a list, made once (lookups in a loop index this list: no call per lookup);
        the list is this RunList's own, to read, not to change."""
        if self._flat is None:
            self._flat, self._parts = self.tolist(), []
        return self._flat

    def __iter__(self):
        return iter(self.tolist() if self._flat is None else self._flat)

    def tolist(self) -> list:
        """The values as a new list."""
        if self._flat is not None:
            return list(self._flat)
        parts = self._parts
        if len(parts) == 1 and parts[0].__class__ is not list and parts[0].__class__ is not _Floats:
            return [parts[0][0]] * parts[0][1]  # one run (one dvar block's names): no second copy to extend
        out: list = []
        for part in parts:
            if part.__class__ is list:
                out.extend(part)
            elif part.__class__ is _Floats:
                out.extend(part.values.tolist())
            else:
                out.extend([part[0]] * part[1])
        return out

    def sequence(self) -> "RowValues | list":
        """The values as a read-only sequence that later appends do not change: a :class:`RowValues`
        whose runs stay runs (a 3.2M-column block's name is one :class:`Run`, not a 3.2M-entry list)."""
        if self._flat is not None or any(p.__class__ is _Floats for p in self._parts):
            return self.tolist()
        out = RowValues()
        for p in self._parts:
            out.add_part(Run(p[0], p[1])) if p.__class__ is tuple else out.extend(p)
        return out

    def array(self, dtype: Any) -> np.ndarray:
        """The values as a NumPy array of ``dtype`` (as ``np.asarray(list, dtype)`` would give)."""
        if self._flat is not None:
            return np.asarray(self._flat, dtype=dtype)
        if not self._parts:
            return np.zeros(0, dtype=dtype)
        parts = [np.asarray(p, dtype=dtype) if p.__class__ is list else
                 p.values.astype(dtype, copy=len(self._parts) == 1) if p.__class__ is _Floats else  # (ours alone)
                 np.full(p[1], p[0], dtype=dtype) for p in self._parts]
        return parts[0] if len(parts) == 1 else np.concatenate(parts)  # (one run: its array, not a second copy)


class _Floats:
    """A part of a :class:`RunList`: float64 values kept as their array (``tolist`` gives the Python floats)."""

    __slots__ = ("values",)

    def __init__(self, values: np.ndarray):
        self.values = values


@dataclass
class Columns:
    """The decision columns made so far: bounds, integrality, OPL names and index keys, as runs."""

    lower: RunList = field(default_factory=RunList)
    upper: RunList = field(default_factory=RunList)
    integer: RunList = field(default_factory=RunList)
    name: RunList = field(default_factory=RunList)
    key: KeyList = field(default_factory=KeyList)


class Rows:
    """The constraint rows built so far, in order.

    Rows added one at a time (:meth:`add`) go into Python lists (``cols``/``vals`` with
    ``starts`` offsets, ``lower``/``upper``); a whole family built with arrays
    (:meth:`add_block`) is kept as NumPy arrays, so a million-row family never becomes
    Python objects.  :meth:`arrays` gives all rows in compressed-row form.  ``label``,
    ``key`` and ``stmt`` (index into ``spans`` of the statement that made the row, -1
    for none) are per-row sequences over all rows (:class:`RowValues`, :class:`KeyList`: a
    block's are kept whole).
    """

    def __init__(self):
        self.cols: list = []
        self.vals: list = []
        self.starts: list = [0]
        self.lower: list = []
        self.upper: list = []
        self._label = RowValues()  # a block's label one run, an interleaved block's codes (no per-row list)
        self.key = KeyList()  # ProductKeys kept whole for a block over a full product of index sets
        self._stmt = RowValues()
        self._pending: tuple[list, list] = ([], [])  # labels and statements of rows added one at a time, not yet parts
        self.spans: list = []
        self._span_at: dict[int, int] = {}  # id(span) -> its index in spans (the spans are kept alive there)
        self.current = -1
        self._parts: list[tuple] = []  # sealed rows: (vals, cols, entries per row, lower, upper) arrays
        self._sealed = 0  # rows in _parts
        self.blocks: list[tuple[int, int]] = []  # (first row, row count) of each add_block: one label each
        #: first row -> (row count, [(label, its rows' indices, their keys)]) of each add_interleaved
        self.interleaved: dict[int, tuple[int, list]] = {}
        self._sealed_nnz = 0  # nonzeros in _parts
        self._lent = False  # whether the one part's vals/cols are a caller's arrays (add_block(owned=False))
        self.meter: Any = None  # the model size limit (size_limit.SizeMeter), checked as rows are made

    def __len__(self) -> int:
        return self._sealed + len(self.lower)

    @property
    def label(self) -> RowValues:
        """Each row's label ("" for none), in order."""
        self._flush()
        return self._label

    @property
    def stmt(self) -> RowValues:
        """Each row's statement: its index into ``spans`` (-1 for none), in order."""
        self._flush()
        return self._stmt

    def _flush(self) -> None:
        """The labels and statements of the rows added one at a time since the last block, as one part
        each (:meth:`add` appends to plain lists: a method call per row cost 0.3 µs)."""
        labels, stmts = self._pending
        if labels:
            self._label.add_part(labels)
            self._stmt.add_part(stmts)
            self._pending = ([], [])

    def set_statement(self, span: Any) -> None:
        """Rows added from now on come from the statement at ``span`` (for diagnostics after lowering)."""
        if self.spans and self.spans[self.current] is span:
            return
        at = self._span_at.get(id(span))  # one entry per statement: a braced `forall` body alternates
        if at is None or self.spans[at] is not span:  # between its statements at every iteration
            at = self._span_at[id(span)] = len(self.spans)
            self.spans.append(span)
        self.current = at

    def add(self, terms: dict, lo: float, hi: float, label: str, key: tuple) -> int:
        """One row ``lo <= sum(terms[j] * x_j) <= hi`` (zero coefficients left out); returns its index."""
        if 0.0 in terms.values():  # (compared with ==, as `c != 0.0` below)
            for j, c in terms.items():
                if c != 0.0:
                    self.cols.append(j)
                    self.vals.append(c)
        else:
            self.cols.extend(terms)
            self.vals.extend(terms.values())
        self.starts.append(len(self.cols))
        self.lower.append(lo)
        self.upper.append(hi)
        self._pending[0].append(label)
        self.key.append(key)
        self._pending[1].append(self.current)
        if self.meter is not None and not len(self.lower) % CHECK_EVERY:
            self.meter.check(self.nnz(), len(self), self.spans[self.current] if self.current >= 0 else None)
        return len(self) - 1

    def nnz(self) -> int:
        """Nonzeros of every row so far."""
        return self._sealed_nnz + len(self.cols)

    def add_block(self, indptr: np.ndarray, cols: np.ndarray, vals: np.ndarray, lower: np.ndarray,
                  upper: np.ndarray, label: str, keys: list, owned: bool = True) -> None:
        """Rows ``i = 0..m-1`` with entries ``cols/vals[indptr[i]:indptr[i+1]]`` (no zeros), all with one label.
        ``owned=False``: ``cols``/``vals`` may be read-only or shared (views of the data's arrays); they are
        only read, and copied by :meth:`arrays` where they would be the matrix's own (the only part), which
        is sorted in place (with other parts they are copied into one array anyway)."""
        self._seal()
        self._lent = not owned and not self._parts
        m = len(lower)
        if self.meter is not None:  # before the family is kept
            self.meter.check(self._sealed_nnz + len(cols), len(self) + m,
                             self.spans[self.current] if self.current >= 0 else None)
        if m:
            self.blocks.append((len(self), m))
        self._parts.append((np.asarray(vals, dtype=np.float64), np.asarray(cols, dtype=np.int64),
                            np.diff(indptr), np.asarray(lower, dtype=np.float64), np.asarray(upper, dtype=np.float64)))
        self._sealed += m
        self._sealed_nnz += len(cols)
        self._flush()
        self._label.add_part(Run(label, m))
        self.key.extend(keys)
        self._stmt.add_part(Run(self.current, m))

    def add_interleaved(self, indptr: np.ndarray, cols: np.ndarray, vals: np.ndarray, lower: np.ndarray,
                        upper: np.ndarray, family: np.ndarray, labels: list, keys: Any, stmts: list,
                        families: list | None = None) -> None:
        """Rows ``i = 0..m-1`` as :meth:`add_block` adds them, each with its own label, key and statement
        (the rows of a braced ``forall`` body, its statements' rows interleaved iteration by iteration):
        row ``i`` comes from statement number ``family[i]``, whose label is ``labels[family[i]]`` and
        statement ``stmts[family[i]]`` (kept as these codes, no per-row list).
        ``families``: [(label, rows' indices from 0, their keys)] of distinct labels, each taken whole
        by the IR's row families (None: they are read row by row)."""
        self._seal()
        m = len(lower)
        if families is not None and m:
            self.interleaved[len(self)] = (m, families)
        if self.meter is not None:
            self.meter.check(self._sealed_nnz + len(cols), len(self) + m,
                             self.spans[self.current] if self.current >= 0 else None)
        self._parts.append((np.asarray(vals, dtype=np.float64), np.asarray(cols, dtype=np.int64),
                            np.diff(indptr), np.asarray(lower, dtype=np.float64), np.asarray(upper, dtype=np.float64)))
        self._sealed += m
        self._sealed_nnz += len(cols)
        self._flush()
        self._label.add_part(Coded(family, list(labels)))
        self.key.extend(keys)
        self._stmt.add_part(Coded(family, list(stmts)))

    def tail(self, first: int) -> tuple[list, list, list, list, list]:
        """(vals, cols, entries per row, lower, upper) of the rows from ``first`` on, as lists, read from
        the parts where they lie (no part joined or sealed: the implied bounds read the new rows at
        every big-M, and joining every row each time made a model of many big-Ms quadratic)."""
        out: tuple[list, list, list, list, list] = ([], [], [], [], [])
        at = 0
        for vals, cols, counts, lower, upper in self._parts:
            m = len(lower)
            if at + m > first:
                k = max(first - at, 0)
                start = int(counts[:k].sum())
                out[0].extend(vals[start:].tolist())
                out[1].extend(cols[start:].tolist())
                out[2].extend(counts[k:].tolist())
                out[3].extend(lower[k:].tolist())
                out[4].extend(upper[k:].tolist())
            at += m
        k = max(first - at, 0)
        if k < len(self.lower):
            s0 = self.starts[k]
            out[0].extend(self.vals[s0:])
            out[1].extend(self.cols[s0:])
            out[2].extend(b - a for a, b in zip(self.starts[k:-1], self.starts[k + 1:]))
            out[3].extend(self.lower[k:])
            out[4].extend(self.upper[k:])
        return out

    def _seal(self) -> None:
        if self.lower:
            self._parts.append((np.asarray(self.vals, dtype=np.float64), np.asarray(self.cols, dtype=np.int64),
                                np.diff(np.asarray(self.starts, dtype=np.int64)),
                                np.asarray(self.lower, dtype=np.float64), np.asarray(self.upper, dtype=np.float64)))
            self._sealed += len(self.lower)
            self._sealed_nnz += len(self.cols)
            self.cols, self.vals, self.starts, self.lower, self.upper = [], [], [0], [], []

    def arrays(self, index: type = np.int64) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(vals, cols, indptr, lower, upper) of every row so far: the compressed-row arrays.  Where the
        rows are in several parts, ``cols`` is made in the integer type ``index`` (np.int32 where the
        IR's indices fit: one copy of the columns, not a second to convert them)."""
        self._seal()
        if len(self._parts) == 1 and self._lent:
            vals, cols, counts, lower, upper = self._parts[0]
            self._parts = [(np.array(vals), np.array(cols, dtype=index), counts, lower, upper)]
        self._lent = False
        if len(self._parts) != 1:
            parts = self._parts or [(np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), np.zeros(0))]
            self._parts = [tuple(np.concatenate([p[k] for p in parts], dtype=index if k == 1 else None)
                                 for k in range(5))]
        vals, cols, counts, lower, upper = self._parts[0]
        indptr = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        return vals, cols, indptr, lower, upper


class Instance:
    """Evaluates a parsed model against data into columns, rows and an objective."""

    def __init__(self, model: A.Model, data: dict[str, DataItem], reporter: Reporter, limits: Any = None,
                 script_host: Any = None):
        """``script_host``: what runs ``execute`` blocks, an object with ``script_block(inst, block)`` and
        ``finish_pre(inst)`` (the module :mod:`pyopl.script.processing`); passed in so that lowering
        never imports the script interpreter, which imports lowering.  None: no script can run."""
        self.limits = limits or Limits()
        self.budget = Budget(self.limits)  # the work budget (see budget.py)
        self.eplin_used: float | None = None  # the eplin margin a logical constraint used (a note on the result)
        #: helper column -> the condition it stands for (explanations only), each note written when first read
        self.col_notes: ColumnNotes = ColumnNotes()
        self.model = model
        self.data = data
        self.reporter = reporter
        self.symbols: dict[str, Symbol] = {}
        self.cols = Columns()
        self.rows = Rows()
        self.rows.meter = SizeMeter(self.limits.max_nonzeros, self.budget)
        self.ev = Evaluator(self)
        self.sense = _sense_of(model)
        self.objective: Any = None
        self.qcons: list = []  # quadratic constraints (QuadRow), outside the linear rows
        self.indicators: list = []  # indicator constraints (pyopl.ir.Indicator) where big-M is impossible
        # `using CP;` selects "cp" (pyopl.lowering.cp.constraints); CP constraints kept for CP-SAT (CpConstraint)
        self.engine = "cp" if any(isinstance(i, A.Using) and i.engine.upper() == "CP" for i in model.items) else "mp"
        self.cp_constraints: list = []
        self.intervals: list = []  # interval variables (pyopl.lowering.cp.constraints.intervals.IntervalVar), in order
        self.interval_blocks: dict = {}  # interval name -> (dims, [IntervalVar ...]) for the results
        self.abs_context: Any = None  # epigraph `abs` variables of the statement being evaluated (lowering/linearise/epigraph.py)
        self.objectives: list[Any] = []  # staticLex: several objectives in priority order
        self.lex_tolerances: list | None = None  # staticLexFull: (abstol, reltol) per level of `objectives`
        self.objective_name: str | None = None
        self.dvar_blocks: dict[str, tuple[int, list[tuple], int, str]] = {}
        self.cp_literals: dict = {}  # a CP model's condition literals, shared by shape (lowering/linearise/logical.py)
        self.used_data: set[str] = set()
        self.has_scripts = any(isinstance(i, A.ScriptBlock) for i in model.items)
        self.post_asserts: list[A.Assert] = []  # assertions after the model on decisions: checked on the solution
        self.zero_filled: dict[str, A.Node] = {}  # data declared without initializer (IBM defaults): see defaults.py
        self.script_ctx: Any = None  # pyopl.script.host.ScriptContext, made by the first script block
        self.script_options: Any = None  # pyopl.script.host.ScriptOptions (budgets, output folder, on/off)
        self.script_host = script_host
        self.implied = ImpliedBounds()
        #: (column, side) -> its entry of ``assumptions``: each bound is assumed (and warned about) once
        self._assumed: dict = {}
        #: the entry of ``assumptions`` behind each big-M that used one, in order (an entry once per use;
        #: its ``"uses"`` counts them), so that a logical constraint knows every assumption its M rests on
        self.assumptions_used: list = []
        #: rows of a logical constraint whose M rests on an assumed bound: no source of implied bounds
        self.assumed_rows: set = set()
        #: ids of the statements' spans whose rows rest on an assumed bound (left out of model_implied_bounds)
        self.assumed_statements: set = set()
        #: every bound a big-M assumed: {"column", "side", "bound", "what", "span"} (ir.assumptions, results)
        self.assumptions: list = []
        #: logical constraints whose big-M rests on an assumed bound: their indicator form (ir.IndicatorAlternative)
        self.indicator_alternatives: list = []
        #: column -> (lower, upper) implied by the whole model's rows, for a second lowering (bounds.py)
        self.seed_bounds: dict = {}
        self.after_model = False  # past the objective or a constraints block: dvar-dependent data is post-processing
        self._aux_label = ""
        self._aux_key: tuple = ()

    def eplin(self) -> float:
        """CPLEX's linearisation tolerance for this compile: a pre-processing script's
        ``cplex.eplin = ...``, else :attr:`Limits.eplin` (``--eplin``, default 1e-3)."""
        ctx = self.script_ctx
        setting = getattr(ctx, "settings", {}).get("eplin") if ctx is not None else None
        return float(setting[0]) if setting else float(self.limits.eplin)

    # ------------------------------------------------------------------ symbol table
    def lookup(self, name: str, span: Span) -> Any:
        sym = self.symbols.get(name)
        if sym is None:
            hint = did_you_mean(name, list(self.symbols))
            raise EvalError("undeclared-name", span, "`%s` is not declared" % name,
                            help=hint or "declare `%s` before this line" % name)
        if sym.kind == "failed":
            raise FollowOnError(span)
        if sym.kind == "postproc":
            raise EvalError("decision-in-data", span, "`%s` is computed from the solution (post-processing)" % name,
                            help="it has no value while the model is being built")
        if sym.kind == "dexpr" and isinstance(sym.value, DexprScalar):
            return self.dexpr_scalar(sym.value, span)
        if sym.kind == "tuple":
            raise EvalError("type-used-as-value", span, "`%s` is a tuple type, not a value" % name,
                            help="declare a set of it, e.g. `{%s} items = ...;`, and use that" % name)
        if sym.kind == "label":
            raise EvalError("label-used-as-value", span, "`%s` is a constraint label, not a value" % name,
                            help="refer to data or decision names in expressions")
        return sym.value

    def symbol_names(self) -> list[str]:
        return list(self.symbols)

    def is_dvar_name(self, name: str, env: dict) -> bool:
        if name in env:
            return False
        sym = self.symbols.get(name)
        return sym is not None and sym.kind in ("dvar", "dexpr")

    def declare(self, sym: Symbol, name_span: Span) -> bool:
        old = self.symbols.get(sym.name)
        if old is not None:
            report_duplicate(self.reporter, sym.name, name_span, old.decl.span.line,
                             getattr(old.decl, "name_span", old.decl.span))
            return False
        self.symbols[sym.name] = sym
        return True

    # ------------------------------------------------------------------ columns and rows
    def new_column(self, lo: float, hi: float, integer: bool, name: str, key: tuple = ()) -> int:
        c = self.cols
        c.lower.append(lo)
        c.upper.append(hi)
        c.integer.append(integer)
        c.name.append(name if not name.startswith("$") else name)
        c.key.append(key)
        return len(c.lower) - 1

    def new_columns(self, lo: float, hi: float, integer: bool, name: str, keys: ProductKeys | list[tuple]) -> int:
        """One column per key of ``keys``, all with the same bounds, as :meth:`new_column` would
        add them one by one; returns the first column's number (the others follow in order)."""
        c, n = self.cols, len(keys)
        first = len(c.lower)
        c.lower.extend_run(lo, n)
        c.upper.extend_run(hi, n)
        c.integer.extend_run(integer, n)
        c.name.extend_run(name, n)
        c.key.extend(keys)
        return first

    def add_columns(self, lo: list, hi: list, integer: bool, names: list[str], keys: list[tuple]) -> None:
        """Columns with their own bounds, names and keys (lists of one length), appended in order as
        :meth:`new_column` would add them one by one."""
        c = self.cols
        c.lower.extend(lo)
        c.upper.extend(hi)
        c.integer.extend_run(integer, len(lo))
        c.name.extend(names)
        c.key.extend(keys)

    def new_columns_bounded(self, lo: list[float] | np.ndarray, hi: list[float] | np.ndarray, integer: bool,
                            name: str, keys: ProductKeys | list[tuple]) -> int:
        """One column per key of ``keys`` with its own bounds ``lo[k]``, ``hi[k]`` (lists of Python floats,
        or float64 arrays, as long as ``keys``), as :meth:`new_column` would add them one by one; returns
        the first column's number."""
        c, n = self.cols, len(keys)
        first = len(c.lower)
        c.lower.extend(lo)
        c.upper.extend(hi)
        c.integer.extend_run(integer, n)
        c.name.extend_run(name, n)
        c.key.extend(keys)
        return first

    def add_aux_row(self, e: LinExpr, lo: float, hi: float, span: Span) -> None:
        """A row that a linearisation needs (labelled after the constraint being built)."""
        if self.abs_context is not None:
            self.abs_context.saw(e.terms)
        self.rows.add(e.terms, lo - e.const, hi - e.const, self._aux_label + "#aux" if self._aux_label else "#aux",
                      self._aux_key)

    def bounds(self, e: LinExpr) -> tuple[float, float]:
        """Lower and upper bound of a linear form from its columns' bounds, declared or implied
        by the rows built so far (interval arithmetic; see :mod:`pyopl.lowering.linearise.bounds`)."""
        return expr_bounds(self, e)

    def finite_bounds(self, e: LinExpr, span: Span, what: str, need_lo: bool = True,
                      need_hi: bool = True) -> tuple[float, float]:
        """Bounds for a big-M row: see :func:`pyopl.lowering.linearise.bounds.finite_bounds`."""
        return finite_bounds(self, e, span, what, need_lo, need_hi)

    def note_assumed_bounds(self, assumed: list, span: Span, what: str) -> None:
        """Warn once per column that a big-M used an assumed bound for it, and record every use
        (``assumptions_used``), the first and the later ones alike."""
        new = [(j, side, v) for j, side, v in assumed if (j, side) not in self._assumed]
        for j, side, v in new:
            entry = {"column": j, "side": side, "bound": float(v), "what": what, "span": span, "uses": 0}
            self._assumed[(j, side)] = entry
            self.assumptions.append(entry)
        for j, side, _v in assumed:  # an M resting on a bound assumed earlier rests on it too
            entry = self._assumed[(j, side)]
            entry["uses"] += 1
            self.assumptions_used.append(entry)
        if not new:
            return
        names = ", ".join("`%s` %s %s" % (opl_label(self.cols.name[j], self.cols.key[j]), "<=" if side == "upper" else ">=",
                                           show(v)) for j, side, v in new[:3])
        more = " and %d more" % (len(new) - 3) if len(new) > 3 else ""
        self.reporter.emit("bigm-assumed-bound", span,
                           "%s is linearised with big-M, assuming %s%s (no bound is declared or implied)" % (
                               what, names, more),
                           help="give the variable a finite domain, e.g. `dvar float+ x in 0..1000;`, so that M is "
                                "exact and tight")

    def unbounded_names(self, e: LinExpr) -> list[str]:
        out = []
        for j, c in e.terms.items():
            if c != 0 and (math.isinf(self.cols.lower[j]) or math.isinf(self.cols.upper[j])):
                out.append(opl_label(self.cols.name[j], self.cols.key[j]))
        return out[:5]

    def is_integral(self, e: LinExpr) -> bool:
        if not float(e.const).is_integer():
            return False
        I = self.cols.integer.flat()
        return all(I[j] and float(c).is_integer() for j, c in e.terms.items())

    # ------------------------------------------------------------------ dexprs
    def dexpr_scalar(self, d: DexprScalar, span: Span) -> Any:
        if d.value is None:
            d.value = "$computing"
            try:
                d.value = self._dexpr_eval(d.decl, {})
            except EvalError:
                d.value = None
                raise
        if isinstance(d.value, str) and d.value == "$computing":
            raise EvalError("dexpr-cycle", span, "the dexpr `%s` refers to itself" % d.name,
                            help="a dexpr cannot be defined in terms of itself")
        v = d.value
        return v.copy() if isinstance(v, (LinExpr, QuadExpr)) else v

    def dexpr_value(self, arr: DexprArray, key: tuple, node: A.Node) -> Any:
        v = arr.cache.get(key)
        if v is None:
            env = dim_env(self, arr.decl.dims, key, {})
            try:
                v = self._dexpr_eval(arr.decl, env)
            except EvalError as e:  # reported at the definition: say which use asked for this cell
                span = getattr(node, "span", None)
                if span is not None and not isinstance(e, FollowOnError) and span != e.span and all(
                        lab.span != span for lab in e.labels):
                    e.labels.append(Label(span, "`%s%s` is used here" % (arr.name, "".join("[%s]" % show(k) for k in key))))
                raise
            arr.cache[key] = v
        return v.copy() if isinstance(v, (LinExpr, QuadExpr)) else v

    def _dexpr_eval(self, decl: A.DexprDecl, env: dict) -> Any:
        saved, self.abs_context = self.abs_context, None  # a dexpr may be used anywhere: its `abs` is exact
        try:
            v = self.ev.evaluate(decl.expr, env)
        finally:
            self.abs_context = saved
        if isinstance(v, bool):
            v = int(v)
        if not (is_number(v) or isinstance(v, (LinExpr, QuadExpr))):
            raise EvalError("dexpr-not-numeric", decl.expr.span, "the dexpr `%s` must be numeric, but this is %s" % (
                decl.name, "a " + type_word(v)), help="a dexpr names a numeric expression over decision variables")
        return v

    # ------------------------------------------------------------------ types
    def resolve_type(self, t: A.TypeRef) -> Any:
        base = {"int+": "int", "float+": "float"}.get(t.name, t.name)
        if base.endswith("[]"):
            raise EvalError("unsupported-tuple-array-field", t.span, "array fields in tuples are not supported",
                            help="declare a separate array indexed by the tuple set")
        if base not in ("int", "float", "string", "boolean"):
            sym = self.symbols.get(base)
            if sym is None and base in ("stateFunction", "stepFunction", "transitionDistance"):
                raise EvalError("unsupported-cp-variable", t.span, "`%s` is a CP Optimizer type that pyopl does not "
                                "compile to CP-SAT" % base, help="model the state with integer variables and "
                                "constraints; docs/cp.md lists the scheduling constructs that run")
            if sym is None or sym.kind != "tuple":
                cands = [s.name for s in self.symbols.values() if s.kind == "tuple"] + ["int", "float", "string", "boolean"]
                raise EvalError("unknown-type", t.span, "`%s` is not a type" % base,
                                help=did_you_mean(base, cands) or "declare it with `tuple %s { ... }` first" % base)
            base = sym.value
        return SetOf(base, t.order) if t.is_set else base

def dim_env(inst: Instance, dims: list[A.Dim], key: tuple, env: dict) -> dict:
    """The loop environment of one element ``key`` of a generic declaration: each dimension's
    name (``i in S``) or tuple pattern (``<i, j> in S``) bound to its component of the key."""
    out = dict(env)
    for dim, k in zip(dims, key):
        if dim.var is not None:
            out[dim.var] = k
        elif dim.pattern is not None:
            out = inst.ev.match_pattern(dim.pattern, k, out)
    return out


def _sense_of(model: A.Model) -> str:
    for item in model.items:
        if isinstance(item, A.Objective):
            return item.sense
    return "feasibility"
