"""Compiling and solving LLM text in a worker process, under a wall-clock and a memory limit.

A reply may be hostile or just unlucky (``sum(i in R, j in R) 1`` over ``R = 1..100000``):
compiling it must never hang or exhaust a ``solve`` or a ``bench`` run. :func:`run` sends
one request (JSON over a pipe; nothing is pickled but the pipe itself) to a fresh process
forked from a *forkserver* that has imported and warmed pyopl once (so a worker starts in
milliseconds, and a bench's threads are never forked), waits at most ``timeout_s`` seconds
and kills the worker when it overruns. The worker:

- limits its private writable memory to ``memory_mb`` (``RLIMIT_DATA``: heap and anonymous
  mappings; not ``RLIMIT_AS``, which would also count the address space malloc and the solver's
  threads reserve without using it), so a runaway expansion ends in
  ``MemoryError`` inside the worker, not in the swap of the machine;
- works in a fresh empty temporary folder (its current folder), so nothing the text names
  resolves to the user's files even if a path slipped through;
- gives pyopl the texts as text: :func:`as_text` makes sure a text always holds a newline,
  which pyopl's path detection (a one-line string ending in ``.mod``/``.dat``) never takes
  for a file name.

The answer is a JSON object: ``{"ok": true, "result": ...}``, or ``{"ok": false, "reason":
"time_limit" | "memory_limit" | "crash", "message": ...}``.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
from typing import Any

#: Seconds a compile (or a compile and solve, plus the solver's own limit) may take by default.
DEFAULT_TIMEOUT_S = 60.0
#: Address-space limit of a worker in MiB by default.
DEFAULT_MEMORY_MB = 4096

_CTX_LOCK = threading.Lock()
_CTX: Any = None


def as_text(text: str) -> str:
    """``text`` with a newline at the end when it has none, so pyopl reads it as source text,
    never as the name of a file (pyopl opens a one-line ``*.mod``/``*.dat`` string as a path)."""
    return text if "\n" in text else text + "\n"


_NO_MAIN = threading.local()


def _install_no_main() -> None:
    """Workers must not re-run the parent's ``__main__`` (multiprocessing does, to find pickled
    functions; a script read from stdin cannot be, and a console script would be imported per
    worker). The target here is :func:`_worker_main`, a module function, so the parent's main
    module is not needed: while *this* module starts a worker (a thread-local flag), the
    preparation data leaves it out. Every other use of multiprocessing is unchanged."""
    from multiprocessing import spawn

    if getattr(spawn.get_preparation_data, "_syntagm", False):
        return
    original = spawn.get_preparation_data

    def get_preparation_data(name):
        d = original(name)
        if getattr(_NO_MAIN, "active", False):
            d.pop("init_main_from_path", None)
            d.pop("init_main_from_name", None)
        return d

    get_preparation_data._syntagm = True
    spawn.get_preparation_data = get_preparation_data


def _context():
    global _CTX
    with _CTX_LOCK:
        if _CTX is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["syntagm.assess.worker_preload"])
            else:  # pragma: no cover - platforms without fork
                ctx = multiprocessing.get_context("spawn")
            _install_no_main()
            _CTX = ctx
        return _CTX


def run(request: dict[str, Any], timeout_s: float = DEFAULT_TIMEOUT_S,
        memory_mb: int | None = DEFAULT_MEMORY_MB) -> dict[str, Any]:
    """Run ``request`` (``{"op": "check" | "solve", ...}``, see :func:`handle`) in a worker process.

    Returns the worker's JSON answer; ``{"ok": false, "reason": "time_limit"}`` when it ran
    past ``timeout_s`` seconds (it is killed), ``"crash"`` when it died without answering.
    """
    ctx = _context()
    parent, child = ctx.Pipe(duplex=True)
    proc = ctx.Process(target=_worker_main, args=(child, memory_mb), daemon=True)
    _NO_MAIN.active = True
    try:
        proc.start()  # the first start also starts the forkserver: not counted in the limit
    finally:
        _NO_MAIN.active = False
    start = time.monotonic()
    child.close()
    try:
        parent.send_bytes(json.dumps(request, ensure_ascii=True).encode("ascii"))
        if parent.poll(max(0.0, timeout_s - (time.monotonic() - start))):
            try:
                answer = json.loads(parent.recv_bytes().decode("utf-8"))
            except (EOFError, OSError, ValueError):
                answer = None
            if isinstance(answer, dict):
                return answer
            proc.join(1.0)
            return {"ok": False, "reason": "crash",
                    "message": f"the compiler's worker process ended without an answer (exit code {proc.exitcode})"}
        return {"ok": False, "reason": "time_limit",
                "message": f"compiling took longer than {timeout_s:g} s and was stopped"}
    except (BrokenPipeError, EOFError, OSError) as e:
        return {"ok": False, "reason": "crash", "message": f"the compiler's worker process failed ({e})"}
    finally:
        parent.close()
        if proc.is_alive():
            proc.kill()
        proc.join(5.0)


def _worker_main(conn, memory_mb: int | None) -> None:  # pragma: no cover - runs in the worker
    import signal
    import tempfile

    # Ctrl-C reaches the whole process group: the parent handles it (and kills this worker); here it
    # printed a KeyboardInterrupt traceback per worker ("Process ForkServerProcess-14: ...") on the terminal
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    if memory_mb:
        try:
            import resource

            limit = int(memory_mb) * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        except (ImportError, ValueError, OSError):
            pass
    try:
        request = json.loads(conn.recv_bytes().decode("ascii"))
        # (after a MemoryError, removing the folder may itself fail for want of memory: the answer goes first)
        with tempfile.TemporaryDirectory(prefix="syntagm-compile-", ignore_cleanup_errors=True) as sandbox:
            os.chdir(sandbox)
            try:
                answer = {"ok": True, "result": handle(request)}
            except MemoryError:
                answer = {"ok": False, "reason": "memory_limit",
                          "message": f"compiling needed more than {memory_mb} MiB of memory and was stopped"}
            except RecursionError:
                answer = {"ok": False, "reason": "crash", "message": "the model nests too deeply to compile"}
            except Exception as e:  # a compiler bug: reported, not raised
                answer = {"ok": False, "reason": "crash", "message": f"{type(e).__name__}: {e}"}
            os.chdir("/")
        conn.send_bytes(json.dumps(answer, ensure_ascii=True, default=str).encode("ascii"))
    except MemoryError:
        try:
            conn.send_bytes(b'{"ok": false, "reason": "memory_limit", "message": "the compiler ran out of memory"}')
        except Exception:
            pass
    except (EOFError, OSError):  # the parent left (Ctrl-C, a timeout) before sending or reading: nobody to tell
        pass
    finally:
        conn.close()


# -- what the worker does ---------------------------------------------------------------------

def _span(s: Any) -> list[Any]:
    return [str(s.file), int(s.line), int(s.column), int(s.end_line), int(s.end_column)]


def diagnostic_to_json(d: Any) -> dict[str, Any]:
    """A pyopl ``Diagnostic`` as a JSON object (all of its fields, spans as 5-lists)."""
    out: dict[str, Any] = {"code": d.code, "severity": d.severity, "message": d.message, "span": _span(d.span),
                           "labels": [[_span(l.span), l.message] for l in d.labels], "notes": list(d.notes),
                           "help": d.help, "fix": None}
    if d.fix is not None:
        out["fix"] = {"message": d.fix.message, "applicability": d.fix.applicability,
                      "edits": [[_span(e.span), e.replacement] for e in d.fix.edits]}
    return out


def diagnostic_from_json(o: dict[str, Any]) -> Any:
    """The pyopl ``Diagnostic`` of :func:`diagnostic_to_json`'s object."""
    from pyopl.diagnostics.diagnostic import Diagnostic, Edit, Fix, Label, Span

    fix = None
    if o.get("fix"):
        f = o["fix"]
        fix = Fix(f["message"], tuple(Edit(Span(*s), r) for s, r in f["edits"]), f["applicability"])
    return Diagnostic(o["code"], o["severity"], o["message"], Span(*o["span"]),
                      tuple(Label(Span(*s), m) for s, m in o.get("labels") or []), tuple(o.get("notes") or []),
                      o.get("help"), fix)


def _data(data: str) -> str | None:
    return as_text(data) if data and data.strip() else None


def handle(request: dict[str, Any]) -> dict[str, Any]:
    """Serve one request in this process (the worker calls it; tests may too).

    ``{"op": "check", "model", "data"}`` → ``{"diagnostics": [...], "crash": str | None}``
    (``pyopl.check``, then ``compile_model`` for errors found only when binding data);
    ``{"op": "solve", "model", "data", "time_limit_s", "solver"}`` → ``{"status", "objective",
    "solution", "message", "compile_error"}``;
    ``{"op": "compare", "model", "data", "ref_model", "ref_data", "tol", "time_limit_s"}`` → the
    verdict of :func:`syntagm.equiv.compare.check_texts`.
    """
    import pyopl

    model, data = as_text(str(request.get("model") or "")), _data(str(request.get("data") or ""))
    if request.get("op") == "check":
        # checked for the solver this sandbox solves with (`solve` below: HiGHS unless told), so that
        # check and solve agree on a quadratic constraint
        diags = list(pyopl.check(model, data, source="text", solver=str(request.get("solver") or "highs")))
        crash = None
        if not any(d.severity == "error" for d in diags):
            try:
                pyopl.compile_model(model, data=data, source="text")
            except pyopl.CompileError as e:
                seen = {(d.code, d.span, d.message) for d in diags}
                diags += [d for d in e.diagnostics if (d.code, d.span, d.message) not in seen]
            except (MemoryError, RecursionError):
                raise
            except Exception as e:
                crash = f"pyopl.compile_model failed: {type(e).__name__}: {e}"
        if any("(MemoryError" in d.message for d in diags):  # pyopl reports it as its own failure
            raise MemoryError
        return {"diagnostics": [diagnostic_to_json(d) for d in diags], "crash": crash}
    if request.get("op") == "solve":
        try:
            compiled = pyopl.compile_model(model, data=data, source="text")
        except pyopl.CompileError as e:
            if any("(MemoryError" in d.message for d in e.errors):
                raise MemoryError from None
            return {"status": "compile_error", "message": "; ".join(str(d) for d in e.errors[:5])}
        result = compiled.solve(solver=str(request.get("solver") or "highs"),
                                time_limit=float(request.get("time_limit_s") or 30.0))
        try:
            sol = result.to_dict()
        except Exception:  # pragma: no cover - defensive
            sol = {"status": result.status, "objective": result.objective}
        diags = [str(d) for d in getattr(result, "diagnostics", []) or []]
        failed = [d for d in getattr(result, "diagnostics", []) or [] if getattr(d, "severity", "") == "error"]
        if failed and (result.status == "script_error" or result.status in ("optimal", "feasible")):
            # a post-processing script error: `pyopl solve` (and IBM's oplrun) stop with exit status 1,
            # so the model is not a solved one; the error goes back to the LLM as the solver's message
            return {"status": "script_error", "objective": None, "solution": {},
                    "message": "the model solved, but its post-processing script failed: " + str(failed[0]),
                    "diagnostics": diags}
        return {"status": result.status, "objective": result.objective,
                "solution": json.loads(json.dumps(sol, default=str)),
                "message": str(getattr(result, "message", "") or ""), "diagnostics": diags}
    if request.get("op") == "compare":
        from ..equiv.compare import check_texts

        return check_texts(model, data or "", as_text(str(request.get("ref_model") or "")),
                           _data(str(request.get("ref_data") or "")) or "", float(request.get("tol") or 1e-6),
                           float(request.get("time_limit_s") or 30.0))
    raise ValueError(f"unknown request {request.get('op')!r}")
