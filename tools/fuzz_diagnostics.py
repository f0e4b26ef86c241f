"""Fuzz campaign for pyopl's front end (not part of the test suite).

Usage: python tools/fuzz_diagnostics.py [N] [WORKERS]   (default 100000 inputs, 8 workers)

Each input is a mutated seed model (deleted/duplicated/swapped tokens, random characters,
truncation), with the seed data or random .dat text. A crash is a Python exception escaping
``pyopl.check`` or an internal-error diagnostic; a hang is a compile over 5 s. Prints the
counts and writes the first crashing inputs to ``fuzz_crashes.txt``.
"""
from __future__ import annotations

import multiprocessing as mp
import random
import sys
import time


def work(args):
    start, count = args
    from pyopl.testing.fuzz import DATA_SEEDS, SEEDS, compile_safely, mutate, random_dat

    crashes, hangs, slowest = [], 0, 0.0
    for i in range(start, start + count):
        rng = random.Random(i)
        which = rng.randrange(len(SEEDS) + 1)
        if which == len(SEEDS):
            model, data = SEEDS[2], random_dat(rng)
        else:
            model = mutate(SEEDS[which], rng)
            data = rng.choice(DATA_SEEDS) if which == 2 else None
        crash, secs, _ = compile_safely(model, data)
        slowest = max(slowest, secs)
        if secs > 5:
            hangs += 1
            crashes.append((i, "hang %.1f s" % secs, model, data))
        if crash is not None and len(crashes) < 20:
            crashes.append((i, repr(crash), model, data))
        elif crash is not None:
            crashes.append((i, repr(crash), "", ""))
    return count, crashes, hangs, slowest


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    chunk = 1000
    t = time.time()
    total, crashes, hangs, slowest = 0, [], 0, 0.0
    with mp.Pool(workers) as pool:
        for c, cr, h, s in pool.imap_unordered(work, [(k, min(chunk, n - k)) for k in range(0, n, chunk)]):
            total += c
            crashes += cr
            hangs += h
            slowest = max(slowest, s)
    hang_list = [c for c in crashes if c[1].startswith("hang")]
    crashes = [c for c in crashes if not c[1].startswith("hang")]
    crashes += hang_list
    print("inputs: %d  crashes: %d  hangs (>5 s): %d  slowest: %.2f s  wall: %.0f s" % (
        total, len(crashes) - len(hang_list), hangs, slowest, time.time() - t))
    if crashes:
        with open("fuzz_crashes.txt", "w") as f:
            for i, err, model, data in crashes[:50]:
                f.write("### input %d: %s\n%s\n--- data\n%s\n\n" % (i, err, model, data))
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
