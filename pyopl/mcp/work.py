"""The work behind the MCP tools, on text only, and the bounded worker process that runs it.

Models and data arrive as text and are never opened as paths: one-line text gets a newline so
pyopl cannot take it for a file name, and the worker runs in an empty temporary folder so that a
data file's ``include`` finds nothing to read.  Each call runs in a fresh process with a
wall-clock limit (the solve's own time limit plus a margin) and a memory limit; past them the
process is killed and the tool answers a status saying so.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import tempfile
from typing import Any, Optional

MAX_TEXT_CHARS = 2_000_000  # model or data text
MAX_TIME_LIMIT_S = 300.0
DEFAULT_TIME_LIMIT_S = 30.0
COMPILE_MARGIN_S = 30.0  # compiling before the solver's clock starts
MEMORY_MB = 4096


def as_text(text: Optional[str]) -> Optional[str]:
    """``text`` as pyopl must read it: text, never a path (a newline rules a path out)."""
    if text is None or text == "":
        return None
    return text if "\n" in text else text + "\n"


def check(model: str, data: Optional[str]) -> dict[str, Any]:
    """Diagnostics of model and data text: ``{"ok", "errors", "warnings", "diagnostics": [...]}``."""
    import pyopl

    diags = pyopl.check(as_text(model) or "\n", as_text(data))
    out = diags.to_json()
    return {"ok": not diags.errors, "errors": len(diags.errors), "warnings": sum(d.severity == "warning" for d in diags),
            "diagnostics": out}


def _values(v: Any, budget: list[int]) -> Any:
    """A solution value as JSON: a number, or ``[{"index": [...], "value": x}, ...]`` within ``budget``.

    Index parts are numbers and strings as they are, tuples written ``<a,b>`` as ``pyopl solve
    --format json`` writes them; a value that is not finite is null (as there)."""
    from pyopl.results.result import Values, _json_key, _json_num

    if not isinstance(v, Values):
        return _json_num(v)
    out = []
    for key, x in dict.items(v):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        parts = key if isinstance(key, tuple) else (key,)
        out.append({"index": [k if isinstance(k, (int, float, str)) and not isinstance(k, bool) else _json_key(k)
                              for k in parts], "value": _json_num(x)})
    return out


def argument_number(value: Any, name: str, lo: float, hi: float, integer: bool = False) -> tuple[Any, str | None]:
    """``(number, None)``: the tool argument ``value`` as a number clamped to ``lo..hi`` (an int when
    ``integer``; ``inf`` is ``hi``); ``(None, why)`` when it is not a number (``"NaN"``, ``"abc"``,
    a boolean, a list): the tool answers an error instead of a traceback."""
    import math

    why = "`%s` must be a number from %s to %s, not %s" % (name, lo, hi, json.dumps(value)[:40])
    if isinstance(value, bool):
        return None, why
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        return None, why
    if math.isnan(x):
        return None, why
    x = min(max(x, lo), hi)
    return (int(x) if integer else x), None


def solve(model: str, data: Optional[str], time_limit: float, max_values: int) -> dict[str, Any]:
    """Compile and solve: status, objective, values (at most ``max_values`` entries in all).

    The outcome is the one ``pyopl solve --format json`` reports for the same run: the same
    ``status`` (a failed post-processing block or ``main`` is never hidden behind the last solve's
    status), and the same diagnostics (the compile's warnings, then the solve's and the scripts'
    errors), ``script_output`` and ``script_exit`` (``tests/test_front_ends_agree.py``)."""
    import pyopl
    from pyopl.diagnostics.diagnostic import CompileError

    try:
        m = pyopl.compile_model(as_text(model) or "\n", as_text(data))
    except CompileError as e:
        return {"status": "compile_error", "objective": None,
                "diagnostics": [d.to_dict(e.sources) for d in e.diagnostics]}
    r = m.solve(time_limit=time_limit)
    budget = [max_values]
    out: dict[str, Any] = {"status": r.status, "objective": _values(r.objective, budget), "solve_time_s": r.solve_time_s,
                           "size": m.size, "variables": {k: _values(v, budget) for k, v in r.variables.items()},
                           "dexprs": {k: _values(v, budget) for k, v in r.dexprs.items()}}
    out["values_truncated"] = budget[0] <= 0
    if r.best_bound is not None:
        out["best_bound"] = r.best_bound
    if r.last_solve_status is not None:  # the solver's word, when the run or the solution check overruled it
        out["last_solve_status"] = r.last_solve_status
    if "solution_check" in r.extra:
        out["solution_check"] = r.extra["solution_check"]
    if r.message:
        out["message"] = r.message
    if r.conflict is not None:
        out["conflict"] = r.conflict.to_dict()
    if r.script_output is not None:
        out["script_output"] = r.script_output
    if r.script_exit is not None:
        out["script_exit"] = r.script_exit
    diags = [d.to_dict(m.sources) for d in list(m.solve_warnings) + list(r.diagnostics)]
    if diags:
        out["diagnostics"] = diags
    out["errors"] = sum(d["severity"] == "error" for d in diags)
    return out


def export(model: str, data: Optional[str], fmt: str) -> dict[str, Any]:
    """The compiled model as LP or MPS text (``fmt``: ``lp`` or ``mps``); a ``using CP;`` model is
    refused (status ``error``, diagnostic OPL1201), as by ``pyopl export``."""
    import pyopl
    from pyopl.diagnostics.diagnostic import CompileError
    from pyopl.backends.export import CpModelNotExportable, write_model

    try:
        m = pyopl.compile_model(as_text(model) or "\n", as_text(data))
    except CompileError as e:
        return {"status": "compile_error", "diagnostics": [d.to_dict(e.sources) for d in e.diagnostics]}
    path = os.path.join(os.getcwd(), "model." + fmt)
    try:
        notes = write_model(m.ir, path, fmt)
    except CpModelNotExportable as refusal:  # `pyopl export` refuses it alike (exit 8)
        return {"status": "error", "message": refusal.message,
                "diagnostics": [refusal.diagnostic().to_dict(m.sources)]}
    with open(path, encoding="utf-8") as fh:
        return {"status": "ok", "format": fmt, "text": fh.read(), "notes": notes}


_JOBS = {"check": check, "solve": solve, "export": export}


def _child(conn: Any, job: str, args: tuple, memory_mb: int) -> None:
    try:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass  # no rlimits here (Windows): the wall-clock limit still holds
    with tempfile.TemporaryDirectory(prefix="pyopl-mcp-") as tmp:
        os.chdir(tmp)  # relative includes in data text resolve here, where nothing is
        try:
            conn.send(_JOBS[job](*args))
        except MemoryError:
            conn.send({"status": "memory_limit", "message": "the work needed more than %d MB" % memory_mb})
        except Exception as e:  # a bug in pyopl: say so, never dress it as the user's mistake
            conn.send({"status": "error", "message": "internal error in pyopl (%s: %s); please report it"
                       % (type(e).__name__, e)})
        finally:
            conn.close()


def run_bounded(job: str, args: tuple, wall_s: float, memory_mb: int = MEMORY_MB) -> dict[str, Any]:
    """Run ``job`` (check, solve or export) in a fresh process; kill it after ``wall_s`` seconds."""
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, job, args, memory_mb), daemon=True)
    proc.start()
    child.close()
    try:
        if parent.poll(wall_s):
            try:
                return parent.recv()
            except EOFError:
                pass
        else:
            return {"status": "time_limit", "message": "stopped after %.0f s (the limit of this call)" % wall_s}
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
    return {"status": "error", "message": "the worker process ended without an answer (exit code %s; "
            "out of memory?)" % proc.exitcode}


def too_large(**texts: Optional[str]) -> Optional[dict[str, Any]]:
    """An answer refusing text over :data:`MAX_TEXT_CHARS`, or None when all fit."""
    for name, text in texts.items():
        if text is not None and len(text) > MAX_TEXT_CHARS:
            return {"status": "too_large", "message": "`%s` has %d characters; the limit is %d"
                    % (name, len(text), MAX_TEXT_CHARS)}
    return None
