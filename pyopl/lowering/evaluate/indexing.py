"""Indexing and tuple fields of the tree walk: ``a[i][j]`` on data, ``dvar`` and ``dexpr`` arrays
(slices for partial keys), a tuple looked up in a set by its key, ``t.field``; every wrong index
is a diagnostic naming the array and its index set.

:class:`Indexing` is a mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`; the closures of
:mod:`.compiled` read full plain keys themselves and leave every other case to it.
"""
from __future__ import annotations

from typing import Any

from ...diagnostics.reporter import did_you_mean, near_misses
from ...semantics.values import ArraySlice, OplArray, OplRange, OplSet, OplTuple, elem_kind, same_kind, show
from ...syntax import ast as A
from ..forms.describe import type_word
from ..cp.element import ElementSlice, index_with_decision
from ..forms.errors import EvalError
from ..forms.value_tests import is_decision
from ..forms.linear import Leaf, LinExpr, Logic
from ..forms.shapes import index_chain
from ..forms.symbols import DexprArray, VarArray
from ..forms.tupleindex import check_tuple_index, foreign_tuple

_PLAIN_INDEX = (int, str, OplTuple)  # index values that `index_one` uses as they are when in the set

class Indexing:
    """Mixin of :class:`~pyopl.lowering.evaluate.expressions.Evaluator`: ``a[i]``, ``S[<key>]``, ``t.field``."""

    def e_index(self, node: A.Index, env: dict) -> Any:
        """``a[i][j]`` (or ``a[i, j]``): the root and the indices are evaluated left to right and applied
        one at a time by :meth:`index_one`; a full index into a data or dvar array whose every index
        is an int, string or tuple of its set is looked up directly (the same result, without slices)."""
        chain = self._index_chains.get(id(node))
        if chain is None or chain[0] is not node:
            chain = self._index_chains[id(node)] = (node, *index_chain(node))
        _node, root, steps = chain
        base = self.evaluate(root, env)
        done: list = []
        if type(base) in (OplArray, VarArray) and len(steps) == len(base.dims):
            for (owner, idx_node), domain in zip(steps, base.dims):
                idx = self.evaluate(idx_node, env)
                done.append(idx)
                if type(idx) not in _PLAIN_INDEX or idx not in domain or foreign_tuple(idx, domain):
                    break
            else:
                key = tuple(done)
                if type(base) is VarArray:
                    col = base.cols.get(key)
                    if col is not None:
                        return LinExpr({col: 1.0}, 0.0)
                elif key in base.data:
                    return base.data[key]
        for k, (owner, idx_node) in enumerate(steps):
            idx = done[k] if k < len(done) else self.evaluate(idx_node, env)
            base = self.index_one(owner, base, idx, idx_node, env)
        return base

    def index_one(self, node: A.Index, base: Any, idx: Any, idx_node: A.Node, env: dict) -> Any:
        """``base[idx]`` for one index: an element, a slice (``ArraySlice``) for a partial key, or a
        tuple of a set looked up by its key."""
        if is_decision(idx) and getattr(self.inst, "engine", "mp") == "cp":
            base = self._dexpr_cells(base, node)
        if type(base) is ElementSlice or (is_decision(idx) and getattr(self.inst, "engine", "mp") == "cp" and
                                          isinstance(base, (OplArray, VarArray, ArraySlice))):
            return index_with_decision(self, base, idx, node, idx_node, env)  # CP's element (`a[x]`, x a decision)
        if is_decision(idx) or isinstance(idx, (Leaf, Logic)):
            raise EvalError("decision-as-index", idx_node.span,
                            "a decision variable cannot be used as an array index",
                            help="use binary selection variables: `sum(k in K) a[k] * select[k]` with "
                                 "`sum(k in K) select[k] == 1`")
        if isinstance(idx, bool):
            idx = int(idx)
        if isinstance(base, ArraySlice):
            arr, prefix = base.array, base.prefix
        elif isinstance(base, (OplArray, VarArray, DexprArray)):
            arr, prefix = base, ()
        elif isinstance(base, OplSet):  # lookup of a tuple by its key: Arcs[<"a","b">]
            return self._set_lookup(node, base, idx, idx_node)
        else:
            name = node.base.id if isinstance(node.base, A.Name) else None
            raise EvalError("index-not-array", node.base.span, "%s is not an array and cannot be indexed" % (
                "`%s`" % name if name else "this " + type_word(base)),
                help="remove the `[...]`, or declare `%s` as an array" % (name or "it"))
        dim = len(prefix)
        if dim >= len(arr.dims):
            raise EvalError("index-too-many", idx_node.span, "`%s` has %d dimension%s but is indexed %d times" % (
                arr.name, len(arr.dims), "" if len(arr.dims) == 1 else "s", dim + 1),
                help="remove the extra index")
        domain = arr.dims[dim]
        idx = self._check_index(node, arr, domain, idx, idx_node, env, dim)
        key = prefix + (idx,)
        if len(key) < len(arr.dims):
            return ArraySlice(arr, key)
        return self._element(arr, key, node, idx_node, env)

    def _dexpr_cells(self, base: Any, node: A.Index) -> Any:
        """A dexpr array (or a slice of one) indexed by a decision in a CP model: the array of its cells'
        values (each cell evaluated, IBM's dexpr cells by their definition), which CP's element takes;
        anything else as it is."""
        arr = base.array if isinstance(base, ArraySlice) else base
        if not isinstance(arr, DexprArray):
            return base
        import itertools

        cells = {key: self.inst.dexpr_value(arr, key, node) for key in itertools.product(*[list(d) for d in arr.dims])}
        whole = OplArray(arr.name, list(arr.dims), cells)
        return ArraySlice(whole, base.prefix) if isinstance(base, ArraySlice) else whole

    def _check_index(self, node: A.Index, arr: Any, domain: Any, idx: Any, idx_node: A.Node, env: dict, dim: int) -> Any:
        check_tuple_index(arr.name, domain, idx, idx_node)
        if idx in domain:
            if isinstance(domain, OplRange) and isinstance(idx, float):
                return int(idx)
            return idx
        if isinstance(domain, OplSet) and isinstance(idx, tuple) and not isinstance(idx, OplTuple):
            pass
        if isinstance(domain, OplSet):
            if isinstance(idx, OplTuple) or isinstance(idx, tuple):
                hit = domain.by_key(tuple(idx))
                if hit is not None:
                    return hit
            if isinstance(idx, int) and float(idx) in domain:
                return float(idx)
        got = type_word(idx)
        loop = ", ".join("%s = %s" % (k, show(v)) for k, v in env.items() if not k.startswith("$"))
        notes = ["the loop values here: %s" % loop] if loop else []
        kind = elem_kind(domain)
        if kind and not same_kind(kind, idx):
            raise EvalError("index-wrong-type", idx_node.span,
                            "`%s` is indexed by %s values, but %s is %s" % (
                                arr.name, kind, show(idx), "a " + got if got != "int" else "an int"),
                            notes=notes, help="use an index from %s" % show(domain))
        close = near_misses(idx, [x for x in domain if isinstance(x, str)]) if isinstance(idx, str) and isinstance(
            domain, OplSet) else []
        # (values are quoted as OPL writes them: "a", not the `a` of a name)
        hint = "did you mean %s?" % " or ".join(show(x) for x in close[:5]) if close else None
        raise EvalError("index-out-of-set", idx_node.span,
                        "%s is not in the index set %s of `%s`%s" % (
                            show(idx), show(domain), arr.name, " (dimension %d)" % (dim + 1) if len(arr.dims) > 1 else ""),
                        notes=notes, help=hint or "use a value from the index set, or filter the loop so it stays inside it")

    def _element(self, arr: Any, key: tuple, node: A.Node, idx_node: A.Node, env: dict) -> Any:
        if isinstance(arr, VarArray):
            col = arr.cols.get(key)
            if col is None:
                raise EvalError("index-out-of-set", idx_node.span, "`%s%s` does not exist: the variable is not defined "
                                "for this index" % (arr.name, "".join("[%s]" % show(k) for k in key)),
                                help="check the filter of the variable's index set")
            return LinExpr.var(col)
        if isinstance(arr, DexprArray):
            return self.inst.dexpr_value(arr, key, node)
        try:
            return arr.data[key]
        except KeyError:
            raise EvalError("data-missing-element", idx_node.span, "`%s%s` has no value" % (
                arr.name, "".join("[%s]" % show(k) for k in key)), help="give a value for this element in the data")

    def _set_lookup(self, node: A.Index, s: OplSet, idx: Any, idx_node: A.Node) -> Any:
        if isinstance(idx, tuple):
            hit = s.by_key(tuple(idx))
            if hit is None and idx in s:
                return idx
            if hit is not None:
                return hit
        raise EvalError("index-out-of-set", idx_node.span, "no tuple with key %s in this set" % show(idx),
                        help="check the key fields of the tuple type")

    def e_field(self, node: A.Field, env: dict) -> Any:
        base = self.evaluate(node.base, env)
        if not isinstance(base, OplTuple) or base.ttype is None:
            raise EvalError("field-of-non-tuple", node.span, "`.%s` is applied to %s, not to a tuple" % (
                node.name, "a " + type_word(base)), help="field access works on tuple values only")
        try:
            return base.field(node.name)
        except ValueError:
            hint = did_you_mean(node.name, base.ttype.fields)
            raise EvalError("unknown-field", node.name_span or node.span,
                            "tuple `%s` has no field `%s`" % (base.ttype.name, node.name),
                            help=hint or "its fields are %s" % ", ".join("`%s`" % f for f in base.ttype.fields))
