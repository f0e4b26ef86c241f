"""CP Optimizer's text format (``.cpo``, CP Optimizer reference "CPO file format") for the models it
can say exactly here: integer decisions, linear constraints, ``allDifferent`` and a linear objective
(``cp.exportModel("m.cpo")`` in a script, pyopl/script/cp_search.py).

Each decision is a statement ``name = intVar(lo..hi);`` (``intmin``/``intmax`` for a side without a
bound), each row ``expression >= lo;``, ``expression <= hi;``, ``expression == v;`` or
``range(expression, lo, hi);``, the objective ``minimize(expression);``. OPL names such as
``x[1]["a"]`` are not CPO identifiers: they become ``x_1_a`` (made unique with ``_2``, ``_3``...)
and a comment line gives the OPL name of each. Anything else (interval variables, sequences, other
global constraints, logical constraints over unbounded expressions) raises :class:`CpoUnsupported`
naming it: a file that leaves a constraint out would be another model.
"""
from __future__ import annotations

import math
import re

import numpy as np

from ...ir import IR

_IDENT = re.compile(r"[^A-Za-z0-9_]+")


class CpoUnsupported(Exception):
    """The model has a part the ``.cpo`` writer does not write; ``what`` names it."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() and abs(v) < 2 ** 53 else repr(float(v))


def _names(ir: IR) -> list[str]:
    """A CPO identifier per column, unique, from its OPL name."""
    out, seen = [], set()
    for j in range(ir.num_cols):
        base = _IDENT.sub("_", ir.column_label(j)).strip("_") or "x"
        if base[0].isdigit():
            base = "x_" + base
        name, k = base, 1
        while name in seen:
            k += 1
            name = "%s_%d" % (base, k)
        seen.add(name)
        out.append(name)
    return out


def _affine(terms: list, names: list[str], const: float = 0.0) -> str:
    parts = []
    for j, c in terms:
        if c == 0:
            continue
        coef = "" if c == 1 else "-" if c == -1 else _number(c) + "*"
        parts.append(("%s%s" % (coef, names[j])))
    if const:
        parts.append(_number(const))
    text = " + ".join(parts) if parts else "0"
    return text.replace("+ -", "- ")


def write_cpo(ir: IR) -> str:
    """The text of ``ir`` in the ``.cpo`` format; raises :class:`CpoUnsupported`."""
    if ir.intervals:
        raise CpoUnsupported("interval variables")
    if getattr(ir, "indicators", None):
        raise CpoUnsupported("a logical constraint over an unbounded expression")
    other = sorted({c.kind for c in ir.cp_constraints if c.kind != "allDifferent"})
    if other:
        raise CpoUnsupported("the global constraint%s %s" % ("s" if len(other) > 1 else "", ", ".join(other)))
    if ir.lex_objectives or getattr(ir, "q", None) is not None:
        raise CpoUnsupported("a staticLex or quadratic objective")
    names = _names(ir)
    out = ["// written by pyopl: the generated model in CP Optimizer's .cpo format", ""]
    out.append("// ------ Integer variables: ------")
    for j in range(ir.num_cols):
        if not ir.col_integer[j]:
            raise CpoUnsupported("the continuous variable `%s`" % ir.column_label(j))
        lo, hi = ir.col_lower[j], ir.col_upper[j]
        dom = "%s..%s" % ("intmin" if math.isinf(lo) else _number(lo), "intmax" if math.isinf(hi) else _number(hi))
        label = ir.column_label(j)
        out.append("%s = intVar(%s);%s" % (names[j], dom, "" if label == names[j] else "  // %s" % label))
    if ir.sense != "feasibility":
        nz = np.flatnonzero(ir.obj)
        expr = _affine([(int(j), float(ir.obj[j])) for j in nz], names, float(ir.obj_constant or 0.0))
        out += ["", "// ------ Objective: ------", "%s(%s);" % ("maximize" if ir.sense == "maximize" else "minimize", expr)]
    out += ["", "// ------ Constraints: ------"]
    data, indices, indptr = ir.csr()
    for i in range(ir.num_rows):
        a, b = int(indptr[i]), int(indptr[i + 1])
        expr = _affine([(int(indices[k]), float(data[k])) for k in range(a, b)], names)
        lo, hi = ir.row_lower[i], ir.row_upper[i]
        if lo == hi:
            line = "%s == %s;" % (expr, _number(lo))
        elif math.isinf(lo) and math.isinf(hi):
            continue
        elif math.isinf(lo):
            line = "%s <= %s;" % (expr, _number(hi))
        elif math.isinf(hi):
            line = "%s >= %s;" % (expr, _number(lo))
        else:
            line = "range(%s, %s, %s);" % (expr, _number(lo), _number(hi))
        out.append(line + ("  // %s" % ir.row_text(i) if ir.row_label[i] else ""))
    for c in ir.cp_constraints:  # allDifferent
        out.append("allDiff([%s]);" % ", ".join(_affine(list(terms.items()), names, const) for terms, const in c.exprs))
    return "\n".join(out) + "\n"
