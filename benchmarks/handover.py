"""Hand-over time per backend: seconds from the compiled IR to a model the solver holds (no solve),
on the transport and facility families of ``benchmarks/models.py``.

    python benchmarks/handover.py [--repeat R]      # default R = 3, fastest run printed

Per backend and size: ``handover_s`` (the backend's own ``build``/``passModel`` path, what
``solve`` runs before optimising), and the ratio against HiGHS's ``passModel`` measured in the same
run. For SCIP a second line times the alternative that the backend does not use, one
``addCons`` per row over Python expressions, so that the choice (SCIP's MPS reader) is measured,
not assumed; for CPLEX the alternative is one ``SparsePair`` per row in ``linear_constraints.add``.
CPLEX's Community Edition builds models of any size (it refuses only at solve), so every size is
timed. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import models  # noqa: E402
import pyopl  # noqa: E402
from pyopl.backends.common import quiet_stdout  # noqa: E402


def _ir(case):
    d = tempfile.mkdtemp(prefix="pyopl-handover-")
    Path(d, "m.mod").write_text(case.mod)
    Path(d, "m.dat").write_text(case.dat)
    return pyopl.compile_model(Path(d, "m.mod"), data=Path(d, "m.dat")).ir


def highs(ir):
    import highspy

    from pyopl.backends.mp.highs import _pass

    with quiet_stdout(discard=True):
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        _pass(h, ir, ir.obj, ir.obj_constant, ir.sense)


def scip(ir):
    import pyscipopt

    from pyopl.backends.mp.scip import build

    with quiet_stdout(discard=True):
        m, *_ = build(pyscipopt, ir)
        m.freeProb()


def scip_rows(ir):
    import pyscipopt as ps

    m = ps.Model()
    m.hideOutput()
    inf = lambda v: None if not np.isfinite(v) else float(v)  # noqa: E731
    xs = [m.addVar(lb=inf(lo), ub=inf(up), vtype="I" if i else "C", obj=float(c))
          for lo, up, i, c in zip(ir.col_lower, ir.col_upper, ir.col_integer, ir.obj)]
    data, idx, ptr = ir.csr()
    idx, data = np.asarray(idx).tolist(), np.asarray(data).tolist()
    for r in range(ir.num_rows):
        a, b = ptr[r], ptr[r + 1]
        e = ps.Expr({ps.scip.Term(xs[j]): v for j, v in zip(idx[a:b], data[a:b])})
        m.addCons(ps.scip.ExprCons(e, lhs=inf(ir.row_lower[r]), rhs=inf(ir.row_upper[r])))
    m.freeProb()


def cplex(ir):
    import cplex as cp

    from pyopl.backends.mp.cplex import build

    build(cp, ir).end()


def cplex_rows(ir):
    import cplex as cp

    from pyopl.backends.mp import cplex as B

    c = cp.Cplex()
    for f in (c.set_results_stream, c.set_log_stream, c.set_warning_stream):
        f(None)
    c.variables.add(obj=ir.obj.tolist(), lb=B._bounds(ir.col_lower, cp.infinity), ub=B._bounds(ir.col_upper, cp.infinity))
    data, idx, ptr = ir.csr()
    idx, data = np.asarray(idx).tolist(), np.asarray(data).tolist()
    lo, up = ir.row_lower, ir.row_upper
    sense = "".join("E" if l == u else "G" if np.isfinite(l) else "L" for l, u in zip(lo, up))
    rhs = [float(l) if np.isfinite(l) else float(u) for l, u in zip(lo, up)]
    c.linear_constraints.add(lin_expr=[cp.SparsePair(idx[ptr[r]:ptr[r + 1]], data[ptr[r]:ptr[r + 1]])
                                       for r in range(ir.num_rows)], senses=sense, rhs=rhs)
    c.end()


def best(fn, ir, repeat):
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(ir)
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="transport:30x30,transport:300x300,facility:20x50,facility:100x300")
    args = ap.parse_args()
    print("%-22s %10s %8s  %-11s %10s %8s" % ("case", "nonzeros", "cols", "backend", "handover_s", "vs HiGHS"))
    for spec in args.sizes.split(","):
        fam, size = spec.split(":")
        a, b = map(int, size.split("x"))
        ir = _ir(getattr(models, fam)(a, b))
        base = best(highs, ir, args.repeat)
        for name, fn in (("highs", highs), ("scip", scip), ("scip (rows)", scip_rows), ("cplex", cplex),
                         ("cplex (rows)", cplex_rows)):
            t = base if name == "highs" else best(fn, ir, args.repeat)
            print("%-22s %10d %8d  %-11s %10.4f %8.1fx" % (spec, ir.nnz, ir.num_cols, name, t, t / base))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
