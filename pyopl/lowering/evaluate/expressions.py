"""Evaluate OPL expressions over data and decision variables: the tree walk, and the map (this docstring)
of which path evaluates a node and where that is decided.

Data expressions give Python values (numbers, strings, :mod:`values`);
expressions over decisions give :class:`LinExpr`/:class:`QuadExpr`;
comparisons over decisions give constraint records (:class:`Leaf`,
:class:`Logic`).  Every user mistake raises :class:`EvalError` with the
span of the offending node.

Three paths evaluate an expression, all giving the same values to the bit.  This docstring is the
map of which path evaluates what, and where that is decided:

* the **tree walk** covers everything and words every diagnostic.  :meth:`Evaluator.evaluate` looks
  the node's class up in ``Evaluator._dispatch`` (built in ``__init__`` below: one handler per AST
  node class, the one place a construct is wired in) and runs the handler, which lives in the mixin
  of its kind of construct: :mod:`.operators`, :mod:`.comparisons`, :mod:`.indexing`,
  :mod:`.literals`, :mod:`.aggregates`, :mod:`.iteration` (qualifiers), or this module (names,
  ``?:``, calls, casts, ``piecewise``).  Built-in functions are the table :data:`builtins.FUNCTIONS
  <pyopl.lowering.functions.builtins.FUNCTIONS>`.
* **closures** (:mod:`.compiled`, :mod:`.compiled_calls`) are reached only through the
  :class:`~pyopl.lowering.evaluate.compiled.Compiled` mixin: ``try_closure`` (a node is compiled the second
  time it is evaluated; the tree walk tries it for an operand whose class is in :data:`COMPOUND
  <pyopl.lowering.evaluate.compiled.COMPOUND>`), ``evaluate_fast``/``eval_data_fast``/``eval_bool_fast``
  (loop bodies, filters, constraint rows) and ``closure_runner`` (the body of a ``sum``, a filter,
  a set comprehension).  A node kind is compiled when ``compiled._MAKERS`` has a maker for it.
* **arrays** (:mod:`pyopl.lowering.arrays.vectorised` and its siblings) are reached only through four entries, each
  tried first and answering None/False for "take the paths above": ``vectorised.vector_sum``
  (``Aggregates.e_aggregate``, a ``sum``), ``vectorised_rows.vector_forall``
  (``constraints.lower_block``, a ``forall`` family of rows), ``vectorised_rows.vector_objective``
  and ``vectorised_subsets.vector_domain_bounds`` (:mod:`pyopl.lowering.model.declarations`: an objective, the bounds of
  a dvar array).

Whatever a closure or an array path does not cover, and every error, goes to the tree walk, which
reports it.  Adding a construct: one handler method (in the mixin of its kind) and one entry in
``_dispatch``; a closure maker or an array path is optional and must give the tree walk's values
(docs/architecture.md, "Adding a construct").
"""
from __future__ import annotations

from typing import Any, Callable

from ...semantics.values import ArraySlice, OplArray, OplRange, is_set, show
from ...syntax import ast as A
from ..functions import builtins  # (its `call_builtin` looked up at each call: tests replace it)
from ..cp import constraints as cp, global_rows as cp_globals  # noqa: F401  (register the CP built-ins, `allDifferent`, `pack`)
from .aggregates import Aggregates
from .comparisons import Comparisons
from .compiled import Compiled
from ..forms.describe import decision_names, type_word  # noqa: F401  (type_word re-exported)
from ..forms.errors import EvalError
from .indexing import Indexing
from ..forms.int32 import int_bounds, int_result
from .iteration import Iteration
from ..forms.value_tests import is_decision, is_number  # noqa: F401  (re-exported)
from ..forms.linear import Leaf, LinExpr, Logic
from .literals import Literals
from .operators import Operators
from ..forms.symbols import DexprArray, DexprScalar, VarArray  # noqa: F401  (re-exported)

from ...limits import MAX_ITERATIONS  # noqa: E402  (re-exported: one iteration domain larger is refused before looping)


def _a(word: str) -> str:
    """``word`` with its indefinite article (``an array``, ``a set``)."""
    return ("an " if word[:1] in "aeiou" else "a ") + word


class Evaluator(Operators, Comparisons, Indexing, Literals, Iteration, Aggregates, Compiled):
    """Expression evaluation against the instance's symbol table.

    ``lookup(name)`` returns a global value; ``env`` holds iterator variables.
    ``var_info(col)`` gives ``(lower, upper, is_integer)`` of a column.
    """

    def __init__(self, instance: Any):
        self.inst = instance
        self._index_chains: dict[int, tuple] = {}  # id(Index node) -> (node, *index_chain(node))
        self._closures: dict[A.Expr, list] = {}  # node -> [closure or None, times it fell back] (see compiled.py)
        self._runners: dict[A.Expr, Callable] = {}  # node -> its `closure_runner` (see compiled.py)
        self._binder_scopes: dict[A.Qualifiers, list[bool]] = {}  # (see iteration.py)
        self._join_plans: dict[A.Binder, list | None] = {}  # (see joins.py)
        self._spines: dict[A.Binary, list | None] = {}  # node -> its long left spine, or None (see `long_spine`)
        self._dispatch: dict[type, Callable[[Any, dict], Any]] = {
            A.Const: self.e_const, A.Name: self.e_name, A.Unary: self.e_unary, A.Binary: self.e_binary,
            A.Compare: self.e_compare, A.Conditional: self.e_conditional, A.RangeLit: self.e_range,
            A.Index: self.e_index, A.Field: self.e_field, A.Call: self.e_call, A.Cast: self.e_cast,
            A.ArrayLit: self.e_array_lit, A.ArrayComp: self.e_array_comp, A.SetLit: self.e_set_lit,
            A.SetComp: self.e_set_comp, A.TupleLit: self.e_tuple_lit, A.KeyedArrayLit: self.e_keyed,
            A.Aggregate: self.e_aggregate, A.Piecewise: self.e_piecewise, A.Stepwise: self.e_stepwise, A.External: self.e_external,
        }

    # ------------------------------------------------------------------ entry points
    def evaluate(self, node: A.Expr, env: dict) -> Any:
        """The value of ``node`` by the tree walk (``env``: the loop variables in scope, name -> value)."""
        return self._dispatch[type(node)](node, env)

    def eval_data(self, node: A.Expr, env: dict, what: str) -> Any:
        """Evaluate an expression that must not involve decisions (``what`` says where it is)."""
        v = self.evaluate(node, env)
        if is_decision(v) or isinstance(v, (Leaf, Logic)):
            names = [n for n in decision_names(node) if self.inst.is_dvar_name(n, env)]
            raise EvalError("decision-in-data", node.span,
                            "%s cannot depend on the decision variable%s %s" % (
                                what, "s" if len(names) > 1 else "", ", ".join("`%s`" % n for n in names) or "used here"),
                            help="declare it as a `dexpr` instead, or move the condition into a constraint "
                                 "(for example with `=>`)")
        return v

    def eval_bool(self, node: A.Expr, env: dict, what: str) -> bool:
        """A data condition (``what`` names it in the diagnostic when it is not one)."""
        v = self.eval_data(node, env, what)
        if not isinstance(v, bool):
            raise EvalError("type-not-boolean", node.span, "%s must be a condition, but this is %s" % (
                what, _a(type_word(v)) if not isinstance(v, (int, float)) else "the number %s" % show(v)),
                help="write a comparison such as `i != j` or `x[i] > 0`")
        return v

    def eval_number(self, node: A.Expr, env: dict, what: str) -> float:
        """A data number (a boolean as 0/1); ``what`` names it in the diagnostic when it is not one."""
        v = self.eval_data(node, env, what)
        if isinstance(v, bool):
            return int(v)
        if not is_number(v):
            raise EvalError("type-expected-number", node.span, "%s must be a number, but this is %s" % (
                what, "the string %s" % show(v) if isinstance(v, str) else _a(type_word(v))),
                help="use a numeric expression here")
        return v

    def eval_set(self, node: A.Expr, env: dict, what: str = "the iteration domain", whole: bool = True) -> Any:
        """A set or range of data to iterate over (a range above :data:`MAX_ITERATIONS` elements is refused,
        unless ``whole`` is False: the caller takes one element of it, :func:`pyopl.lowering.arrays.joins.range_slice`)."""
        v = self.eval_data(node, env, what)
        if not is_set(v):
            if isinstance(v, (OplArray, ArraySlice, VarArray)):
                raise EvalError("type-expected-set", node.span,
                                "%s must be a set or a range, but `%s` is an array" % (what, v.name),
                                help="iterate over the array's index set instead")
            raise EvalError("type-expected-set", node.span, "%s must be a set or a range, but this is %s" % (
                what, _a(type_word(v))), help="use a range such as `1..n` or a set name")
        if whole and isinstance(v, OplRange) and v.size > MAX_ITERATIONS:
            raise EvalError("limit-too-large", node.span, "the range %s has %s elements, more than pyopl will iterate (%s)" % (
                show(v), f"{v.size:,}", f"{MAX_ITERATIONS:,}"), help="check the bounds of the range; a model this large "
                "would exhaust memory")
        return v

    # ------------------------------------------------------------------ names, conditionals, calls
    def e_const(self, node: A.Const, env: dict) -> Any:
        return node.value

    def e_external(self, node: A.External, env: dict) -> Any:
        raise EvalError("data-external-in-expression", node.span, "`...` can only be the whole initializer of a declaration",
                        help="write `type name = ...;` and give the value in a data file")

    def e_name(self, node: A.Name, env: dict) -> Any:
        if node.id in env:
            return env[node.id]
        return self.inst.lookup(node.id, node.span)

    def e_conditional(self, node: A.Conditional, env: dict) -> Any:
        c = self.evaluate(node.cond, env)
        if isinstance(c, (Leaf, Logic, LinExpr)):
            raise EvalError("decision-in-condition", node.cond.span,
                            "the condition of `?:` depends on decision variables",
                            help="use a logical constraint with `=>` instead of a conditional expression")
        if not isinstance(c, bool):
            if is_number(c):
                c = c != 0
            else:
                raise EvalError("type-not-boolean", node.cond.span, "the condition of `?:` must be a boolean, not %s" % (
                    "a " + type_word(c)), help="write a comparison")
        return self.evaluate(node.then if c else node.other, env)

    def e_call(self, node: A.Call, env: dict) -> Any:
        return builtins.call_builtin(self, node, env)  # (the table of built-ins: builtins.FUNCTIONS)

    def e_cast(self, node: A.Cast, env: dict) -> Any:
        v = self.eval_number(node.arg, env, "the argument of `%s(...)`" % node.type)
        if node.type != "int":
            return float(v)
        try:
            return int_result(int(v), node, int_bounds(self.inst))
        except (ValueError, OverflowError):  # int(nan), int(inf)
            raise EvalError("math-domain", node.span, "`int(%s)` is not defined" % show(v),
                            help="check the argument: an infinite or undefined number has no int value")

    def e_piecewise(self, node: A.Piecewise, env: dict) -> Any:
        from ..linearise.piecewise import evaluate_piecewise  # (loaded by the first piecewise)

        return evaluate_piecewise(self, node, env)

    def e_stepwise(self, node: A.Stepwise, env: dict) -> Any:
        from ..cp.step_functions import evaluate_stepwise
        return evaluate_stepwise(self, node, env)
