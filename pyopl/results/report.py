"""A readable text report of a :class:`~pyopl.results.result.Result` for the command line.

Layout: a header (status, with the last solve's when a script failed the run; for a `main` run
what main did and which model the values come from; objective, bound and gap, counts, time), then the
explanation of an infeasible or unbounded model, then the nonzero values of
variables and ``dexpr``s, then (when present) the constraints with their dual
values and slacks in OPL notation (``ctDemand["Chicago"]``).
"""
from __future__ import annotations

from ..ir import IR, format_key_part
from .numbers import format_number
from .intervals import IntervalValue
from .result import Result, Values


def _fmt(v) -> str:
    """Numbers in full (they read back as the same float; see :mod:`pyopl.results.numbers`)."""
    return format_number(v)


def _name(name: str, key: tuple) -> str:
    return name + "".join("[%s]" % format_key_part(k) for k in key)


def _gap_left_open(result: Result) -> bool:
    """True when an optimal MIP's best bound is not its objective: the solver stopped at its gap
    tolerance (HiGHS, CPLEX and Gurobi default to a relative 1e-4), which CPLEX calls "optimal with
    tolerance" (status 102), so the objective is not proved to be the optimum."""
    if result.best_bound is None or result.objective is None:
        return False
    try:
        bound, obj = float(result.best_bound), float(result.objective)
    except (TypeError, ValueError):
        return False
    return abs(bound - obj) > 1e-6 * max(1.0, abs(obj))


def _entries(table: dict) -> list[tuple[str, float | None]]:
    out = []
    for name, v in table.items():
        if isinstance(v, Values):
            out += [(_name(name, k), x) for k, x in v.items()]
        else:
            out.append((name, v))
    return out


def text_report(result: Result, ir: IR | None = None, max_rows: int = 200, compile_time_s: float | None = None,
                show: list[str] | None = None, constraints: bool = True) -> str:
    """The report as text (no trailing newline); at most ``max_rows`` lines per section.

    With ``ir``, a line gives the model's size; ``compile_time_s`` (seconds) is added to it.
    ``show``: only these decisions/dexprs (in that order) in the values section (``--show``);
    ``constraints=False`` leaves out the constraint table (``--no-constraints``)."""
    out = ["status: %s" % result.status + (" (last solve: %s)" % result.last_solve_status
                                           if result.last_solve_status is not None else "")]
    stopped = result.extra.get("stopped_by")  # `time_limit` and `feasible` are words for several limits
    if stopped and result.status not in ("optimal", "infeasible", "unbounded"):
        out[0] += " (stopped by the %s)" % str(stopped).replace("_", " ")
    if result.script_exit is not None or result.solves:  # a `main` run: what main did, and whose values these are
        out.append("main: %s, %d solve%s%s" % (
            "failed" if result.run_failed else "exit status %s" % result.script_exit + (
                " (returned %s)" % _fmt(result.main_return) if isinstance(result.main_return, (int, float))
                and not isinstance(result.main_return, bool) and result.main_return != result.script_exit else ""), len(result.solves),
            "" if len(result.solves) == 1 else "s",
            " (%s)" % ", ".join("%s: %s%s" % (s["model"], s["status"], "" if s.get("objective") is None else
                                              " " + _fmt(s["objective"])) for s in result.solves[:20])
            if result.solves else ""))
        if result.solved_model is not None:
            out.append("values below: the last solve's, of %s" % result.solved_model)
    if result.objective is not None:
        out.append("objective: %s" % _fmt(result.objective))
    if result.extra.get("objectives") and len(result.extra["objectives"]) > 1:
        out.append("objectives (in priority order): %s" % ", ".join(_fmt(v) for v in result.extra["objectives"]))
    pool = result.extra.get("pool_objectives")
    if pool:  # `cplex.populate()` in `main` (docs/scripting.md): the last pool's objectives, in its order
        out.append("solution pool: %d solution%s, objectives %s%s" % (
            len(pool), "" if len(pool) == 1 else "s", ", ".join(_fmt(v) for v in pool[:20]), ", ..." if len(pool) > 20 else ""))
    if result.extra.get("published"):  # the workbook copies SheetWrite wrote (docs/data-sources.md)
        out.append("written: %s" % ", ".join(result.extra["published"]))
    solved = result.last_solve_status or result.status  # (a script error after an optimal solve: no gap to show)
    open_gap = _gap_left_open(result)
    if result.best_bound is not None and (solved != "optimal" or open_gap):
        out.append("best bound: %s" % _fmt(result.best_bound))
    if result.mip_gap is not None and solved != "optimal":
        out.append("gap: %.4g%%" % (100.0 * result.mip_gap))
    elif open_gap and solved == "optimal" and result.status == "optimal":
        out.append("gap: %.4g%% left open: optimal within the MIP gap tolerance (`--mip-gap`, `--mip-gap-abs`; "
                   "the solver's default when not given), so a better solution may exist up to the bound"
                   % (100.0 * (result.mip_gap or 0.0)))
    if result.conflict is not None:
        out.append(result.conflict.text())
    elif result.message:
        out.append(result.message)
    if result.status == "unbounded" and result.ray:
        out.append("unbounded ray:")
        out += ["  %-24s %s" % (k, _fmt(v)) for k, v in list(result.ray.items())[:max_rows]]
    counts = []
    if result.iterations is not None:
        counts.append("%d iterations" % result.iterations)
    if result.nodes is not None:
        counts.append("%d nodes" % result.nodes)
    if ir is not None:
        out.append("model: %d columns (%d integer), %d rows, %d nonzeros%s" % (
            ir.num_cols, int(ir.col_integer.sum()), ir.num_rows, ir.nnz,
            ", compiled in %.3f s" % compile_time_s if compile_time_s is not None else ""))
    out.append("solve time: %.3f s (%s%s)" % (result.solve_time_s, result.solver, ", " + ", ".join(counts) if counts else ""))
    choice = (result.extra or {}).get("solver_choice")
    if choice and not choice.startswith("auto: highs,"):  # say why a solver other than the default was used
        out.append("solver: %s" % choice[len("auto: "):])
    if (result.extra or {}).get("eplin") is not None:
        out.append("eplin: %g (strict comparisons and `!=` on continuous expressions in logical constraints)"
                   % result.extra["eplin"])
    tables = {**result.dexprs, **result.variables}
    chosen = _entries(result.variables) + _entries(result.dexprs) if show is None else \
        _entries({n: tables[n] for n in show if n in tables})
    lines = ["  %s = %s" % (n, x if isinstance(x, IntervalValue) else _fmt(x)) for n, x in chosen
             if x is not None and (isinstance(x, IntervalValue) or abs(x) > 1e-9)]
    if lines:
        out.append("values (nonzero):")
        out += _cap(lines, max_rows)
    post = (result.extra or {}).get("postprocessing")
    if post:  # data computed from the solution (OPL post-processing declarations)
        out.append("post-processing:")
        out += _cap(["  %s = %s" % (n, _fmt(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v)
                     for n, v in post.items()], max_rows)
    if constraints and (result.duals or result.slacks):
        duals = dict(_entries(result.duals))
        cells = [(n, _fmt(duals.get(n)), _fmt(s)) for n, s in _entries(result.slacks) or [(k, None) for k in duals]]
        note = " (integers fixed)" if result.extra.get("duals_of") else ""
        if result.status == "check_failed":  # the solver's own rows: the check found the model's values differ
            note += " (as the solver reports them; the solution check rejects its point: OPL0709 above)"
        out += _cap(_table("constraints%s:" % note, cells[:max_rows + 1]), max_rows + 1, len(cells) + 1)
    return "\n".join(out)


def _table(title: str, cells: list[tuple[str, str, str]]) -> list[str]:
    """The constraint table, its columns as wide as their longest entry (label, dual, slack), by
    ``texttable`` (no rules, labels left, numbers right, cells taken as text, no wrapping); the first
    line is the header.  (texttable rather than tabulate: the same layout at a fraction of the import
    time, which every ``pyopl solve`` pays; see docs/performance.md, "Start-up".  texttable is
    loaded with its own fallback for a character's width, :mod:`unicodedata`'s East Asian width,
    rather than its optional ``wcwidth``, whose import was 9 ms of a small solve; where the program
    has imported ``wcwidth`` already, texttable uses it.)"""
    from ..lazy_names import import_without

    Texttable = import_without("texttable", "wcwidth").Texttable

    table = Texttable(max_width=0)  # 0: no width limit, long labels are never wrapped
    table.set_deco(0)
    table.set_cols_dtype(["t", "t", "t"])
    table.set_cols_align(["l", "r", "r"])
    table.set_header_align(["l", "r", "r"])
    table.add_rows([("", "dual", "slack"), *cells])
    text = table.draw()
    lines = ["  " + line.rstrip() for line in text.split("\n")]  # indented under the title, as the values are
    head = lines[0]
    lead = len(head) - len(head.lstrip())
    lines[0] = title + head[len(title):] if len(title) < lead else title + " " + head.lstrip()
    return lines


def _cap(lines: list[str], n: int, total: int | None = None) -> list[str]:
    """The first ``n`` of ``lines`` and a line saying how many of ``total`` (default: all of them) are left out."""
    total = len(lines) if total is None else total
    if total <= n:
        return lines[:n]
    return lines[:n] + ["  ... and %d more" % (total - n)]
