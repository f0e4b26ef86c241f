"""One measurement in a fresh process; prints one JSON object on its last line of output.

    python benchmarks/measure.py pyopl   CASE_DIR   # our stages, timed separately
    python benchmarks/measure.py lark    CASE_DIR   # Lark's own parse of the model text, nothing else
    python benchmarks/measure.py direct  CASE_DIR   # NumPy CSC arrays + highspy passModel (and, timed
                                                     # apart, NumPy reading the .dat text: dat_floor.py)
    python benchmarks/measure.py check   CASE_DIR   # our IR == the direct arrays? (not timed)
    python benchmarks/measure.py pyomo   CASE_DIR   # run by the venv's python that has Pyomo
    python benchmarks/measure.py linopy  CASE_DIR
    python benchmarks/measure.py pyoframe CASE_DIR  # run by the venv's python that has pyoframe
    python benchmarks/measure.py rhetor  CASE_DIR   # run by the venv's python that has rhetor

``CASE_DIR`` holds ``model.mod``, ``model.dat`` and ``case.json`` (the
generator's name and arguments, so the NumPy data can be regenerated
exactly).  Peak memory is the process's peak resident set size
(``VmHWM``), which includes the interpreter and imported libraries.
"""
from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _peak_mib() -> float:
    """This process's peak resident set size in MiB.

    Linux's ``VmHWM`` (the high-water mark of this process's own memory map) where there is one:
    ``ru_maxrss`` also counts the parent's resident set at ``fork`` (Linux carries it across
    ``exec``), so a child of a large ``run.py`` would report the parent's size."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: KiB


def _user_s() -> float:
    """This process's user CPU seconds (``getrusage``: microseconds; ``os.times`` counts 10 ms ticks)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def _case(case_dir: Path):
    sys.path.insert(0, str(HERE))
    import models

    spec = json.loads((case_dir / "case.json").read_text())
    return getattr(models, spec["generator"])(*spec["args"])


def _quiet_highs():
    """A Highs object with its banner and log switched off."""
    import highspy

    fd = os.dup(1)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        h = highspy.Highs()
    finally:
        os.dup2(fd, 1)
        os.close(fd)
    h.setOptionValue("output_flag", False)
    return h


def run_pyopl(case_dir: Path) -> dict:
    sys.path.insert(0, str(HERE.parent))
    t0 = time.perf_counter()
    from pyopl.syntax.parser import prepare

    prepare()  # the grammars, their lexers and the AST-building parser: once per process
    # pyopl imports parts of the compiler on first use; import them now, as rhetor's are imported
    # before its clock starts (with PYTHONDONTWRITEBYTECODE=1 each import compiles the source again)
    import importlib

    for mod in ("data.fastpath", "diagnostics.codes", "semantics.static", "syntax.recovery", "lowering.declarations",
                "lowering.constraints", "lowering.bounds", "lowering.vectorised", "lowering.builtins",
                "lowering.logical"):
        importlib.import_module("pyopl." + mod)
    import highspy  # noqa: F401  (imported before the clock, as the direct baseline does)
    grammar_s = time.perf_counter() - t0

    from pyopl.backends.common import SolveOptions
    from pyopl.backends.mp.highs import _new_solver, _pass
    from pyopl.data.loader import load_data
    from pyopl.diagnostics.reporter import Reporter
    from pyopl.lowering.build import build_ir
    from pyopl.lowering.driver import run as lower_items
    from pyopl.lowering.instance import Instance
    from pyopl.script.flow import processing as script_host
    from pyopl.semantics.checker import check_names
    from pyopl.syntax.parser import parse_model

    mod_path, dat_path = case_dir / "model.mod", case_dir / "model.dat"
    out: dict = {"grammar_s": grammar_s}
    reporter = Reporter()
    cpu = time.process_time()  # (CPU seconds too: steadier than wall time on a shared machine)
    user = _user_s()  # (and user CPU alone: the kernel's page-fault time varied 1-3 s between runs)
    t = time.perf_counter()
    text = mod_path.read_text()
    ast = parse_model(text, str(mod_path), reporter)
    out["parse_s"] = time.perf_counter() - t
    t = time.perf_counter()
    check_names(ast, reporter)
    out["check_s"] = time.perf_counter() - t
    t = time.perf_counter()
    items = load_data(dat_path, reporter, {}, str(case_dir))
    out["data_s"] = time.perf_counter() - t
    t = time.perf_counter()
    inst = Instance(ast, items, reporter, script_host=script_host)
    lower_items(inst)
    out["lower_s"] = time.perf_counter() - t
    t = time.perf_counter()
    ir = build_ir(inst)
    out["build_s"] = time.perf_counter() - t
    errors = [d.message for d in reporter.diagnostics if d.is_error]
    if errors:
        raise SystemExit("compile errors: %s" % errors[:3])
    out["compile_s"] = sum(out[k] for k in ("parse_s", "check_s", "data_s", "lower_s", "build_s"))
    t = time.perf_counter()
    h = _new_solver(SolveOptions())
    _pass(h, ir, ir.obj, ir.obj_constant, ir.sense)
    out["handover_s"] = time.perf_counter() - t
    out["total_s"] = out["compile_s"] + out["handover_s"]
    out["total_cpu_s"] = time.process_time() - cpu
    out["total_user_s"] = _user_s() - user
    out.update(cols=ir.num_cols, rows=ir.num_rows, nnz=ir.nnz, peak_mib=_peak_mib())  # ir.A would make SciPy's copy
    return out


def run_lark(case_dir: Path) -> dict:
    """Lark alone: its LALR parse of the model text into its own parse tree, the first in a fresh
    process, after the same imports and grammar preparation as ``run_pyopl`` (no AST, no checks,
    no data).  A floor under any Lark-based compile of the model."""
    sys.path.insert(0, str(HERE.parent))
    from pyopl.syntax.parser import lark_parser, prepare

    prepare()
    import highspy  # noqa: F401  (as run_pyopl)

    parser = lark_parser("opl")
    text = (case_dir / "model.mod").read_text()
    t = time.perf_counter()
    parser.parse(text)
    return {"parse_s": time.perf_counter() - t}


def run_direct(case_dir: Path) -> dict:
    import highspy
    import numpy as np

    case = _case(case_dir)
    sys.path.insert(0, str(HERE))
    import dat_floor

    cpu = time.process_time()
    user = _user_s()
    t = time.perf_counter()
    d = case.direct()
    build = time.perf_counter() - t
    t = time.perf_counter()
    h = _quiet_highs()
    A = d.A
    h.passModel(A.shape[1], A.shape[0], int(A.nnz), int(highspy.MatrixFormat.kColwise), d.sense, 0.0,
                np.ascontiguousarray(d.c, dtype=np.float64), d.col_lower, d.col_upper, d.row_lower, d.row_upper,
                A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data.astype(np.float64), d.integrality)
    handover = time.perf_counter() - t
    total_cpu = time.process_time() - cpu
    total_user = _user_s() - user
    cpu = time.process_time()
    t = time.perf_counter()  # (after the rest: `total_s`, the floor of run.py's tables, as before)
    dat_floor.read(case_dir / "model.dat")  # issue 31's floor also reads the .dat text (`total_read_s`)
    read = time.perf_counter() - t
    read_cpu = time.process_time() - cpu
    return {"read_s": read, "build_s": build, "handover_s": handover, "total_s": build + handover,
            "total_read_s": read + build + handover, "total_cpu_s": total_cpu, "total_read_cpu_s": total_cpu + read_cpu,
            "total_user_s": total_user,
            "nnz": int(A.nnz), "peak_mib": _peak_mib()}


def run_check(case_dir: Path) -> dict:
    """Our IR against the direct arrays: same shape, matrix, objective, bounds and integrality."""
    import numpy as np

    sys.path.insert(0, str(HERE.parent))
    import pyopl

    case = _case(case_dir)
    ir = pyopl.compile_model(case_dir / "model.mod", data=case_dir / "model.dat").ir
    d = case.direct()
    A = ir.A.tocsc()
    A.sort_indices()
    same = (A.shape == d.A.shape and A.nnz == d.A.nnz and np.array_equal(A.indptr, d.A.indptr)
            and np.array_equal(A.indices, d.A.indices) and np.array_equal(A.data, d.A.data)
            and np.array_equal(ir.obj, d.c) and np.array_equal(ir.col_lower, d.col_lower)
            and np.array_equal(ir.col_upper, d.col_upper) and np.array_equal(ir.row_lower, d.row_lower)
            and np.array_equal(ir.row_upper, d.row_upper)
            and np.array_equal(ir.col_integer.astype(np.int32), d.integrality))
    return {"same": bool(same)}


def run_pyomo(case_dir: Path) -> dict:
    import pyomo.environ as pyo

    case = _case(case_dir)
    if case.pyomo is None:
        return {"skipped": "no Pyomo formulation for this family"}
    t = time.perf_counter()
    m = case.pyomo(pyo)
    build = time.perf_counter() - t
    # hand-over: Pyomo's HiGHS interface (appsi) builds the solver's model from the Pyomo model
    t = time.perf_counter()
    from pyomo.contrib.appsi.solvers.highs import Highs

    s = Highs()
    s.set_instance(m)
    handover = time.perf_counter() - t
    return {"build_s": build, "handover_s": handover, "total_s": build + handover, "peak_mib": _peak_mib()}


def run_linopy(case_dir: Path) -> dict:
    import linopy

    case = _case(case_dir)
    if case.linopy is None:
        return {"skipped": "no linopy formulation for this family"}
    t = time.perf_counter()
    m = case.linopy(linopy)
    build = time.perf_counter() - t
    t = time.perf_counter()
    m.to_highspy()
    handover = time.perf_counter() - t
    return {"build_s": build, "handover_s": handover, "total_s": build + handover, "peak_mib": _peak_mib()}


def run_pyoframe(case_dir: Path) -> dict:
    """pyoframe (polars + pyoptinterface): the model built straight into a HiGHS object, as pyoframe does
    (so ``total_s`` is build + hand-over), then written as MPS by HiGHS (``write_s``, apart)."""
    import polars as pl
    import pyoframe as pf

    case = _case(case_dir)
    if case.pyoframe is None:
        return {"skipped": "no pyoframe formulation for this family"}
    t = time.perf_counter()
    m = case.pyoframe(pf, pl)
    total = time.perf_counter() - t
    t = time.perf_counter()
    m.write(str(case_dir / "pyoframe.mps"))
    write = time.perf_counter() - t
    (case_dir / "pyoframe.mps").unlink()
    return {"total_s": total, "write_s": write, "peak_mib": _peak_mib()}


def run_rhetor(case_dir: Path) -> dict:
    """rhetor's compile of model + data into its linear-problem form (no solve)."""
    import logging

    logging.disable(logging.CRITICAL)
    from pyopl.pyopl_core import linear_problem_from_opl  # rhetor's package is also named `pyopl`

    mod, dat = (case_dir / "model.mod").read_text(), (case_dir / "model.dat").read_text()
    t = time.perf_counter()
    lp = linear_problem_from_opl(mod, dat)
    total = time.perf_counter() - t
    return {"total_s": total, "cols": len(lp.var_names), "peak_mib": _peak_mib()}


def main() -> None:
    tool, case_dir = sys.argv[1], Path(sys.argv[2])
    if tool == "rhetor":
        sys.path = [p for p in sys.path if Path(p or ".").resolve() not in (HERE, HERE.parent)]
    fn = {"pyopl": run_pyopl, "lark": run_lark, "direct": run_direct, "check": run_check, "pyomo": run_pyomo,
          "linopy": run_linopy, "pyoframe": run_pyoframe, "rhetor": run_rhetor}[tool]
    print(json.dumps(fn(case_dir)))


if __name__ == "__main__":
    main()
