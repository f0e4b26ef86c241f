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



@contextlib.contextmanager
def sigint_stops_native_solve(stop_search: Callable[[], None]) -> Iterator[StopRequest]:
    """For a solver that runs in native threads and never calls back into the main thread while it
    works (OR-Tools CP-SAT): a Python signal handler runs only after the solve returns, so the signal
    is also taken from Python's wakeup file descriptor (``signal.set_wakeup_fd``, written by the C
    handler at once, whichever thread receives the signal) by a watcher thread. The first Ctrl-C
    marks the yielded :class:`StopRequest` and calls ``stop_search`` (the solver keeps its best
    solution); a second one calls it again and raises :class:`KeyboardInterrupt` in the main thread
    once the solve returns. Outside the main thread nothing is installed (``active`` stays False);
    the previous handler and wakeup descriptor (asyncio's, in a notebook) are restored on leaving."""
    import socket

    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    try:
        previous = signal.getsignal(signal.SIGINT)
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        old_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except (ValueError, OSError):
        yield stop
        return
    done = threading.Event()

    def watch() -> None:
        import _thread

        while True:
            try:
                data = reader.recv(64)
            except OSError:
                return
            if not data or done.is_set():
                return
            for sig in data:
                if sig != signal.SIGINT:
                    continue
                if stop.requested:  # a second Ctrl-C: the user insists
                    _thread.interrupt_main()
                else:
                    stop.request()
                try:
                    stop_search()
                except Exception:  # a solver already finished: nothing to stop
                    pass

    def handler(signum, frame):  # noqa: ARG001  (the watcher acts on it; this only keeps Python's default away)
        return None

    watcher = threading.Thread(target=watch, name="pyopl-sigint", daemon=True)
    try:
        signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):
        signal.set_wakeup_fd(old_fd)
        reader.close()
        writer.close()
        yield stop
        return
    watcher.start()
    stop.active = True
    try:
        yield stop
    finally:
        done.set()
        signal.set_wakeup_fd(old_fd)
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
        writer.close()  # the watcher's recv returns b"": it ends
        watcher.join(5)
        reader.close()
