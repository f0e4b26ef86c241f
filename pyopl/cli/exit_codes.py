"""Exit codes of the ``pyopl`` command, one per outcome, for scripts.

0 means a solution was found: ``optimal``, or ``feasible``/``time_limit`` with an
incumbent (the status line says which). The others say why there is no
solution. 130 (128 + SIGINT) and 141 (128 + SIGPIPE) follow the shell's
convention for a process ended by a signal.
"""
from __future__ import annotations

OK = 0  #: success; for ``solve``: a solution was found (optimal, or feasible at a limit)
COMPILE_ERRORS = 1  #: the model or data has errors (``check`` and ``solve``, ``export``), or a script failed
SCRIPT_ERROR = 1  #: a post-processing or ``main`` script failed (status ``script_error``): kept equal to 1
USAGE = 2  #: bad command line: unknown option, missing file, malformed ``--option``
INTERNAL = 3  #: a bug in pyopl (reported as such, never as the user's mistake)
INFEASIBLE = 4  #: the model has no feasible solution
UNBOUNDED = 5  #: the objective is unbounded
INFEASIBLE_OR_UNBOUNDED = 6  #: the solver proved one of the two without saying which
NO_SOLUTION_AT_LIMIT = 7  #: a time (or other) limit was reached before any solution was found
SOLVER_ERROR = 8  #: the solver failed or refused the model (licence limit, bad solver option, not installed)
SOLUTION_CHECK_FAILED = 9  #: the returned solution fails the model's own evaluation (status check_failed, OPL0709)
INTERRUPTED = 130  #: Ctrl-C (SIGINT): the best solution so far is still reported
BROKEN_PIPE = 141  #: the reader of standard output went away (``pyopl solve ... | head``)

#: (code, meaning) for ``pyopl --help`` and docs/cli.md.
TABLE = (
    (OK, "a solution was found (optimal, or feasible at a limit: see the status)"),
    (COMPILE_ERRORS, "the model or data has errors, or a script failed the run (status script_error)"),
    (USAGE, "usage error (bad option, missing file)"),
    (INTERNAL, "internal error in pyopl (please report it)"),
    (INFEASIBLE, "infeasible"),
    (UNBOUNDED, "unbounded"),
    (INFEASIBLE_OR_UNBOUNDED, "infeasible or unbounded (the solver could not tell which)"),
    (NO_SOLUTION_AT_LIMIT, "limit reached without a solution"),
    (SOLVER_ERROR, "the solver failed or refused the model"),
    (SOLUTION_CHECK_FAILED, "the solver's solution does not satisfy the model (status check_failed)"),
    (INTERRUPTED, "interrupted by Ctrl-C (the best solution so far is reported)"),
)


def for_result(status: str, has_solution: bool) -> int:
    """The exit code of ``pyopl solve`` for a result's ``status`` (see :data:`pyopl.results.result.STATUSES`)."""
    if status == "interrupted":
        return INTERRUPTED
    if status == "script_error":
        return SCRIPT_ERROR
    if status == "check_failed":
        return SOLUTION_CHECK_FAILED
    if status == "optimal" or (status in ("feasible", "time_limit") and has_solution):
        return OK
    return {"infeasible": INFEASIBLE, "unbounded": UNBOUNDED, "infeasible_or_unbounded": INFEASIBLE_OR_UNBOUNDED,
            "feasible": NO_SOLUTION_AT_LIMIT, "time_limit": NO_SOLUTION_AT_LIMIT}.get(status, SOLVER_ERROR)


def epilog() -> str:
    """The exit-code table as text for ``--help``."""
    return "exit codes:\n" + "\n".join("  %3d  %s" % row for row in TABLE)
