"""The worker pool: run (problem, strategy) tasks on threads, record each as it finishes.

Workers are daemon threads that take tasks from a queue and hand finished
records back to the calling thread, which alone appends them to the
:class:`~syntagm.bench.results.ResultsLog` (so lines never interleave). On
Ctrl-C the calling thread stops handing out tasks, appends every record that
has already finished and returns with ``interrupted``; problems still running
are abandoned (they are not recorded, so the next run does them again).
"""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import SyntagmError
from ..redact import scrub
from .datasets import BenchProblem
from .results import ResultsLog


@dataclass(frozen=True)
class BenchTask:
    """One problem for one strategy and one model; ``sample`` is the 0-based repetition."""

    problem: BenchProblem
    strategy: str
    model: str = ""
    sample: int = 0


@dataclass
class RunSummary:
    """What a run did: ``finished`` (records appended), ``failed`` (``[(task, message)]`` of tasks
    that raised, not recorded), ``interrupted`` (Ctrl-C), ``abandoned`` (tasks not finished)."""

    finished: int = 0
    failed: list[tuple[BenchTask, str]] = field(default_factory=list)
    interrupted: bool = False
    abandoned: int = 0
    skipped: list[BenchTask] = field(default_factory=list)  # not started: ``may_start`` said no


_SKIPPED = "skipped: the cost cap was reached"  # marks a task ``may_start`` refused

SolveOne = Callable[[BenchTask], dict[str, Any]]
OnRecord = Callable[[BenchTask, dict[str, Any] | None, str | None, int, int], None]


def run_tasks(tasks: list[BenchTask], solve_one: SolveOne, log: ResultsLog, workers: int = 4,
              on_done: OnRecord | None = None, poll_s: float = 0.1,
              may_start: Callable[[], bool] | None = None) -> RunSummary:
    """Run ``tasks`` with ``workers`` threads; append each record to ``log`` as it finishes.

    ``solve_one(task) -> record`` runs one task (it may raise: the task is then reported in
    ``failed`` and not recorded); ``on_done(task, record, error, done, total)`` is called on
    this thread after each task (a ``KeyboardInterrupt`` raised there counts as Ctrl-C).
    ``may_start()`` is asked before each task starts (e.g. a cost cap): once it says no, no task
    starts any more, those in flight finish, and the rest are listed in ``skipped``.
    Returns a :class:`RunSummary`; never raises ``KeyboardInterrupt``.
    """
    summary = RunSummary()
    total = len(tasks)
    if not tasks:
        return summary
    todo: queue.Queue[BenchTask] = queue.Queue()
    for t in tasks:
        todo.put(t)
    finished_q: queue.Queue[tuple[BenchTask, dict[str, Any] | None, str | None]] = queue.Queue()
    stop = threading.Event()
    gate = threading.Lock()

    def work() -> None:
        while not stop.is_set():
            with gate:
                try:
                    task = todo.get_nowait()
                except queue.Empty:
                    return
                if may_start is not None and not may_start():
                    finished_q.put((task, None, _SKIPPED))
                    continue
            try:
                finished_q.put((task, solve_one(task), None))
            except SyntagmError as e:  # e.g. a replay without this problem's transcript
                finished_q.put((task, None, scrub(e)))
            except Exception as e:  # one problem's failure must not end the bench
                finished_q.put((task, None, f"internal error: {type(e).__name__}: {scrub(e)}"))

    threads = [threading.Thread(target=work, name=f"bench-worker-{i}", daemon=True)
               for i in range(max(1, min(workers, total)))]
    for th in threads:
        th.start()
    done = 0

    def take(item) -> None:
        nonlocal done
        task, rec, err = item
        done += 1
        if err is _SKIPPED:
            summary.skipped.append(task)
            return
        if rec is not None:
            log.append(rec)
            summary.finished += 1
        else:
            summary.failed.append((task, err or "unknown error"))
        if on_done is not None:
            on_done(task, rec, err, done, total)

    try:
        while done < total:
            try:
                item = finished_q.get(timeout=poll_s)
            except queue.Empty:
                if not any(th.is_alive() for th in threads) and finished_q.empty():
                    break  # pragma: no cover - every task reports, this is a safety net
                continue
            take(item)
    except KeyboardInterrupt:
        summary.interrupted = True
        stop.set()
        while True:  # keep what already finished
            try:
                item = finished_q.get_nowait()
            except queue.Empty:
                break
            task, rec, _err = item
            if rec is not None:
                log.append(rec)
                summary.finished += 1
            done += 1
    summary.abandoned = total - done
    return summary
