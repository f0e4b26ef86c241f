"""Mutation campaign over the real models of ../shared/opl-corpus (not part of the test suite).

Usage: python tools/fuzz_corpus.py [--count N] [--seed S] [--workers W] [--timeout T] [--max-work W] [--corpus DIR]
       (defaults: 2000 inputs, seed 0, 2 workers, 20 s per input, 2,000,000 work, ../shared/opl-corpus)

Each input is one corpus model (``model.mod`` with its ``model.dat``) with random token mutations
(:func:`pyopl.testing.fuzz.mutate`: deleted, duplicated, swapped or replaced tokens, random
characters, truncation) applied to the model, the data, or both; input ``i`` depends only on
``--seed`` and ``i``. Each is compiled with ``pyopl.check`` (no solve) in a worker process, under
a work budget of ``--max-work`` (2,000,000 by default: every input must then end in seconds).
A crash is a Python exception escaping ``pyopl.check`` or an internal-error diagnostic (OPL0605);
a hang is an input still compiling after ``--timeout`` seconds (the worker is killed and
replaced). Prints the counts, the slowest input and the diagnostic codes seen; writes the
failing inputs to ``fuzz_corpus_failures.txt``. Exit status 1 when anything failed.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.join(os.path.dirname(HERE), "..", "shared", "opl-corpus")


def load_corpus(folder: str) -> list[tuple[str, str, str | None]]:
    """(id, model text, data text or None) of every model in ``folder``, sorted by id."""
    out = []
    for name in sorted(os.listdir(folder)):
        mod = os.path.join(folder, name, "model.mod")
        if not os.path.isfile(mod):
            continue
        dat = os.path.join(folder, name, "model.dat")
        with open(mod, encoding="utf-8", errors="replace") as f:
            model = f.read()
        data = None
        if os.path.isfile(dat):
            with open(dat, encoding="utf-8", errors="replace") as f:
                data = f.read()
        out.append((name, model, data))
    return out


def make_input(corpus: list, seed: int, i: int) -> tuple[str, str, str | None]:
    """Input ``i`` of the campaign with ``seed``: (model id, mutated model, mutated or original data)."""
    from pyopl.testing.fuzz import mutate

    rng = random.Random("%d:%d" % (seed, i))
    name, model, data = corpus[rng.randrange(len(corpus))]
    what = rng.random()
    if what < 0.6 or data is None:
        model = mutate(model, rng)
    if data is not None and (what >= 0.6 or what < 0.15):
        data = mutate(data, rng)
    return name, model, data


def _worker(corpus, seed, max_work, todo, done):
    """Compile inputs taken from ``todo`` (index, or None to stop); report (index, kind, detail, secs, codes)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))  # a memory bomb fails here, not the machine
    except (ImportError, ValueError, OSError):
        pass
    import pyopl
    from pyopl.testing.fuzz import compile_safely

    limits = pyopl.Limits(max_work=max_work)
    while True:
        i = todo.get()
        if i is None:
            return
        done.put((os.getpid(), i, "start", "", 0.0, ()))
        _name, model, data = make_input(corpus, seed, i)
        crash, secs, diags = compile_safely(model, data, limits)
        kind = "ok" if crash is None else "crash"
        done.put((os.getpid(), i, kind, "" if crash is None else repr(crash)[:300], secs,
                  tuple(sorted({d.code for d in diags}))))


def run(count: int, seed: int, workers: int, timeout: float, corpus_dir: str, max_work: int = 2_000_000) -> int:
    corpus = load_corpus(corpus_dir)
    if not corpus:
        print("no models under %s" % corpus_dir, file=sys.stderr)
        return 2
    ctx = mp.get_context("fork")
    todo, done = ctx.Queue(), ctx.Queue()
    for i in range(count):
        todo.put(i)
    procs = {}

    def spawn():
        p = ctx.Process(target=_worker, args=(corpus, seed, max_work, todo, done), daemon=True)
        p.start()
        procs[p.pid] = p
        return p

    for _ in range(workers):
        spawn()
    t0 = time.time()
    running: dict[int, tuple[float, int]] = {}  # input -> (start time, worker pid)
    finished, crashes, hangs, codes = 0, [], [], Counter()
    slowest = (0.0, -1)
    while finished < count:
        try:
            pid, i, kind, detail, secs, cs = done.get(timeout=1.0)
        except Exception:  # queue.Empty: look for hung inputs and dead workers
            i = None
        if i is not None:
            if kind == "start":
                running[i] = (time.time(), pid)
                continue
            running.pop(i, None)
            finished += 1
            slowest = max(slowest, (secs, i))
            codes.update(cs)
            if kind == "crash":
                crashes.append((i, detail))
        now = time.time()
        for j, (started, pid) in list(running.items()):
            p = procs.get(pid)
            if now - started > timeout or p is None or not p.is_alive():
                if p is not None and p.is_alive():
                    hangs.append(j)
                    p.kill()
                else:
                    crashes.append((j, "the worker died (exit code %s)" % (p.exitcode if p else "?")))
                if p is not None:
                    p.join()
                procs.pop(pid, None)
                del running[j]
                finished += 1
                spawn()
        for pid, p in list(procs.items()):  # a worker that died between inputs: replace it
            if not p.is_alive() and pid not in {w for _s, w in running.values()}:
                p.join()
                del procs[pid]
                spawn()
    for _ in procs:
        todo.put(None)
    for p in procs.values():
        p.join(timeout=5)
    wall = time.time() - t0
    print("inputs: %d  tracebacks/internal errors: %d  hangs (>%g s): %d  slowest: %.2f s (input %d)  wall: %.0f s" % (
        count, len(crashes), timeout, len(hangs), slowest[0], slowest[1], wall))
    print("codes seen: %s" % ", ".join("%s x%d" % kv for kv in sorted(codes.items())))
    if crashes or hangs:
        with open("fuzz_corpus_failures.txt", "w", encoding="utf-8") as f:
            for i, detail in crashes[:50]:
                name, model, data = make_input(corpus, seed, i)
                f.write("### input %d (%s): %s\n%s\n--- data\n%s\n\n" % (i, name, detail, model, data))
            for i in hangs[:20]:
                name, model, data = make_input(corpus, seed, i)
                f.write("### input %d (%s): hang\n%s\n--- data\n%s\n\n" % (i, name, model, data))
        print("failing inputs written to fuzz_corpus_failures.txt")
    return 1 if crashes or hangs else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=2000, help="number of inputs (default 2000)")
    ap.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds before an input counts as a hang (default 20)")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS, help="folder of <id>/model.mod (+ model.dat)")
    ap.add_argument("--max-work", type=int, default=2_000_000,
                    help="the work budget of each compile (pyopl.Limits.max_work; default 2,000,000, so that "
                         "every input must end in seconds: the two largest corpus models need more)")
    a = ap.parse_args(argv)
    return run(a.count, a.seed, a.workers, a.timeout, os.path.normpath(a.corpus), a.max_work)


if __name__ == "__main__":
    sys.exit(main())
