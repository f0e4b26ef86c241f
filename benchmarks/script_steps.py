"""How fast the ILOG Script interpreter spends its step budget, and what a run at the default
budget costs (the figure behind ``DEFAULT_STEPS`` in pyopl/script/opl/options.py; docs/scripting.md).

Usage: python benchmarks/script_steps.py [STEPS]   (default 5,000,000 steps per workload)

Three workloads, each run until it has spent STEPS steps, on the model's own budgets:
- ``plain``: script numbers and arrays only (the fastest steps);
- ``opl arrays``: reading and writing an OPL data array from a loop (a model's pre-processing);
- ``tuple adds``: ``add`` of three-field tuples to an OPL tuple set (the slowest common steps; the
  set's growth counts against the memory budget, so memory stays bounded whatever the step budget).
For each it prints steps per CPU second, the seconds the default budget would take at that rate,
and the memory-budget units held. Run it on a quiet machine: the rates are per core.
"""
from __future__ import annotations

import resource
import sys
import time

from pyopl.script.opl.options import DEFAULT_STEPS

WORKLOADS = {
    "plain": """
execute { var a = new Array(); var s = 0;
  for (var i = 0; i < 1e9; i++) { a[i % 1000] = i * 2 + 1; if (a[i % 1000] > 5) s = s + a[i % 1000]; else s--; } }
dvar float x in 0..1; maximize x; subject to { x <= 1; }
""",
    "opl arrays": """
int n = 1000; float v[1..n];
execute { for (var k = 0; k < 1e9; k++) { var i = 1 + k % n; v[i] = v[i] + k * 0.5; } }
dvar float x in 0..1; maximize x; subject to { x <= 1; }
""",
    "tuple adds": """
tuple T { int a; int b; string c; } {T} S = {};
execute { for (var i = 0; i < 1e9; i++) S.add(i, 2 * i, "item" + i); }
dvar float x in 0..1; maximize x; subject to { x <= 1; }
""",
}


def measure(text: str, steps: int) -> tuple[float, int]:
    """CPU seconds and memory units a script workload spends before its ``steps`` budget stops it."""
    import pyopl
    from pyopl.script.opl import options

    meters: list = []
    init = options.RunMeter.__init__

    def record(self) -> None:
        init(self)
        meters.append(self)

    options.RunMeter.__init__ = record
    try:
        t = time.process_time()
        try:
            pyopl.compile_model(text, script_steps=steps, output_dir="/tmp/pyopl-script-steps")
        except pyopl.CompileError as e:  # the step budget ends the loop (OPL1007)
            if "OPL1007" not in str(e):
                raise
        return time.process_time() - t, meters[-1].memory
    finally:
        options.RunMeter.__init__ = init


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000_000
    import pyopl

    base, _ = measure(WORKLOADS["plain"], 1000)  # compiling the model, without the loop
    print("default step budget: %s steps; %s steps per workload" % (format(DEFAULT_STEPS, ","), format(steps, ",")))
    for name, text in WORKLOADS.items():
        cpu, memory = measure(text, steps)
        rate = steps / max(cpu - base, 1e-9)
        print("%-11s %10.0f steps/s  default budget in %5.1f s  memory units %s" % (
            name, rate, DEFAULT_STEPS / rate, format(memory, ",")))
    print("peak RSS %.0f MB; pyopl %s" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                                        getattr(pyopl, "__version__", "")))


if __name__ == "__main__":
    main()
