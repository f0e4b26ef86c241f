"""Ctrl-C (SIGINT) stops a running solve and keeps the best solution found so far.

While a backend solves, :func:`sigint_stops_solve` replaces Python's SIGINT
handler with one that only sets a flag; the backend's callbacks (HiGHS's
interrupt callbacks, Gurobi's callback) see the flag and ask the solver to stop
(``user_interrupt`` / ``Model.terminate()``). The solve then returns normally,
with its incumbent, and the result's status is ``interrupted``. A second Ctrl-C
raises :class:`KeyboardInterrupt` as usual, for a solver that does not stop.

Only the main thread can install signal handlers; elsewhere (a worker thread, a
web server) the solve runs without this and SIGINT keeps its normal meaning.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any, Callable, Iterator


class StopRequest:
    """Whether Ctrl-C asked the running solve to stop (``requested``), and who to tell (``on_request``).

    ``active`` is False when no handler could be installed (not the main thread): then a
    backend need not register interrupt callbacks at all."""

    def __init__(self) -> None:
        self.requested = False
        self.active = False
        self.on_request: list[Callable[[], None]] = []

    def request(self) -> None:
        """Mark the solve as interrupted and call the hooks (e.g. a Gurobi ``terminate``)."""
        self.requested = True
        for hook in list(self.on_request):
            try:
                hook()
            except Exception:  # a hook that fails must not turn Ctrl-C into a traceback
                pass


#: The stop requests of the solves running now, innermost last (:func:`request_stop`). Only a solve
#: in the main thread has an active one (its interrupt hooks installed), so there is at most one
#: active chain; a solver may call progress from a thread of its own (CP-SAT), hence not per thread.
_RUNNING: list = []


def request_stop() -> bool:
    """Ask the innermost running solve that can be stopped to stop, as Ctrl-C does (for a progress
    function that failed: :class:`GuardedProgress`); False when none can be
    (none runs, or only outside the main thread, where no interrupt hooks are installed)."""
    for stop in reversed(list(_RUNNING)):
        if stop.active:
            stop.request()
            return True
    return False


@contextlib.contextmanager
def sigint_stops_solve() -> Iterator[StopRequest]:
    """Inside the block, SIGINT sets ``requested`` on the yielded :class:`StopRequest` (once);
    the previous handler is restored on leaving. Outside the main thread nothing is installed."""
    stop = StopRequest()
    _RUNNING.append(stop)
    try:
        with _installed(stop):
            yield stop
    finally:
        _RUNNING.remove(stop)


@contextlib.contextmanager
def _installed(stop: StopRequest) -> Iterator[None]:
    """The SIGINT handler of :func:`sigint_stops_solve` for ``stop``, in the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGINT)
    except (ValueError, OSError):
        yield
        return

    def handler(signum, frame):  # noqa: ARG001
        if stop.requested:  # a second Ctrl-C: the user insists
            raise KeyboardInterrupt
        stop.request()

    try:
        signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):
        yield
        return
    stop.active = True
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)


@contextlib.contextmanager
def wake_on_sigint(stop: StopRequest) -> Iterator[None]:
    """Call ``stop``'s hooks as soon as Ctrl-C arrives, for a solver that holds the main thread in
    native code without calling back into Python (OR-Tools CP-SAT): Python runs its SIGINT handler
    only when that call returns, so a watcher thread, woken through :func:`signal.set_wakeup_fd`,
    calls the hooks at once (``CpSolver.stop_search`` is made to be called from another thread).
    ``stop.requested`` is still set by :func:`sigint_stops_solve`'s handler, which runs as soon as
    the native call returns.  Nothing is installed when ``stop`` is not active (not the main thread)."""
    if not stop.active:
        yield
        return
    import socket

    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except (ValueError, OSError):  # (another wake-up fd owner, or not the main thread)
        reader.close()
        writer.close()
        yield
        return

    def watch() -> None:
        while True:
            try:
                data = reader.recv(16)
            except OSError:
                return
            if not data:  # the writer was closed: the solve is over
                return
            if signal.SIGINT in data:
                for hook in list(stop.on_request):
                    try:
                        hook()
                    except Exception:  # a hook that fails must not kill the watcher
                        pass

    watcher = threading.Thread(target=watch, name="pyopl-sigint-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        try:
            signal.set_wakeup_fd(previous)
        finally:
            writer.close()
            watcher.join(timeout=1.0)
            reader.close()


class GuardedProgress:
    """The caller's progress function (``Model.solve(progress=f)``) as the backends call it: an
    exception ``f`` raises is kept in ``error``, the solve is asked to stop (as Ctrl-C does) and
    ``f`` is not called again; :meth:`pyopl.api.Model.solve` raises it once the solver has returned.
    Raised inside a solver's callback it was lost: HiGHS answered status ``error`` ("kSolveError"),
    SCIP printed tracebacks and failed with "SCIP: unspecified error!"."""

    def __init__(self, fn: Callable[[dict], Any]):
        self.fn = fn
        self.error: BaseException | None = None

    def __call__(self, info: dict) -> None:
        if self.error is not None:
            return
        try:
            self.fn(info)
        except Exception as e:  # the caller's own bug: theirs to see, after the solver has returned
            self.error = e
            request_stop()
