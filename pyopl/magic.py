"""The IPython cell magic ``%%opl``: compile and solve the cell's OPL model in a notebook.

    %load_ext pyopl
    %%opl --data plan.dat --solver highs --time-limit 30 -o result
    {string} Plants = ...;
    ...

Options: ``--data`` (repeatable) a ``.dat`` file, or the name of a notebook variable holding a dict
of data (pandas frames included) or ``.dat`` text; ``--solver`` (``auto`` by default);
``--time-limit`` seconds; ``-o NAME`` keeps the :class:`~pyopl.results.result.Result` in the
notebook's variable ``NAME``. The cell shows the diagnostics rendered with their source lines (as
``pyopl check`` prints them), then the result as tables, then, for a CP schedule, its Gantt chart
(when matplotlib is installed). The model text is only ever text; files (``--data``, ``include``,
data sources) are read relative to the notebook's current folder. IPython is the ``notebook``
extra; this module is imported only by ``%load_ext pyopl``.
"""
from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring


class RenderedDiagnostics:
    """Diagnostics shown as ``pyopl check`` prints them (source line, caret, help), in a notebook."""

    def __init__(self, diagnostics: list, sources: dict):
        from .diagnostics.render import render_all

        self.diagnostics = list(diagnostics)
        self.text = render_all(self.diagnostics, sources)

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return "<pre class=\"pyopl-diagnostics\">%s</pre>" % html.escape(self.text)


def _data(values: list[str] | None, user_ns: dict) -> list[Any]:
    """Each ``--data`` value: a notebook variable's value (a dict, or .dat text) when one has that
    name, else a file path."""
    out: list[Any] = []
    for v in values or []:
        held = user_ns.get(v) if v.isidentifier() else None
        if isinstance(held, (dict, str)):
            out.append(held)
        else:
            out.append(Path(v))
    return out


@magic_arguments()
@argument("--data", "-d", action="append", metavar="DATA",
          help="a .dat file, or a notebook variable holding a data dict or .dat text (repeatable)")
@argument("--solver", "-s", default="auto", help="auto (default), highs, scip, cplex, gurobi or cpsat")
@argument("--time-limit", "-t", type=float, default=None, metavar="S", help="time limit in seconds")
@argument("-o", "--output", metavar="NAME", help="keep the result in the notebook variable NAME")
def opl(line: str, cell: str) -> None:
    """Compile and solve the cell's OPL model (see the module's docstring)."""
    from IPython import get_ipython
    from IPython.display import display

    from .api import compile_model
    from .diagnostics.diagnostic import CompileError

    ip = get_ipython()
    args = parse_argstring(opl, line)
    user_ns = ip.user_ns if ip is not None else {}
    try:
        model = compile_model(cell, _data(args.data, user_ns), source="text", include_dir=os.getcwd())
    except CompileError as e:
        display(RenderedDiagnostics(e.diagnostics, e.sources))
        if e.script_output:
            print(e.script_output, end="")
        return None
    try:
        result = model.solve(solver=args.solver, time_limit=args.time_limit)
    except ValueError as e:  # an unknown solver name
        print("error: %s" % e)
        return None
    shown = list(model.solve_warnings) + list(result.diagnostics)
    if shown:
        display(RenderedDiagnostics(shown, model.sources))
    if args.output:
        user_ns[args.output] = result
    display(result)
    if result.script_output:
        print(result.script_output, end="")
    if result.schedule is not None and result.has_solution:
        from .results.gantt import GanttUnavailable

        try:
            import io

            from IPython.display import Image

            buf = io.BytesIO()
            result.gantt().savefig(buf, format="png", dpi=100)  # shown whatever the notebook's plotting set-up
            display(Image(data=buf.getvalue(), format="png"))
        except GanttUnavailable as e:
            print("(no Gantt chart: %s)" % e.message)
    return None


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext pyopl``: register the ``%%opl`` cell magic."""
    ipython.register_magic_function(opl, magic_kind="cell", magic_name="opl")
