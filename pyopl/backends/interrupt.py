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
from typing import Callable, Iterator


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


@contextlib.contextmanager
def sigint_stops_solve() -> Iterator[StopRequest]:
    """Inside the block, SIGINT sets ``requested`` on the yielded :class:`StopRequest` (once);
    the previous handler is restored on leaving. Outside the main thread nothing is installed."""
    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    try:
        previous = signal.getsignal(signal.SIGINT)
    except (ValueError, OSError):
        yield stop
        return

    def handler(signum, frame):  # noqa: ARG001
        if stop.requested:  # a second Ctrl-C: the user insists
            raise KeyboardInterrupt
        stop.request()

    try:
        signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):
        yield stop
        return
    stop.active = True
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
