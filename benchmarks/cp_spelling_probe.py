"""Which CP spellings still go term by term (issue 46, CP, round 9): each model, 2,000-20,000 intervals or
precedences with its data as ``.dat`` text made here, compiled with ``pyopl.compile_model`` and built for
CP-SAT (``cpsat.build``, nothing solved).  ``--one NAME`` prints the CPU of the compile + build in this
process and how many constraints the row path made one by one (``lowering.model.constraints._cons``
counted); with no argument every model runs as a whole process per tree, the trees alternated, best of
``REPEATS``, user + system CPU of the child (``os.wait4``), the load average printed::

    python benchmarks/cp_spelling_probe.py [--before=/work/main] [REPEATS] [NAME ...]
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

BEFORE = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--before=")), None)
_ROOT = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--root=")), None)
if _ROOT:
    sys.path.insert(0, _ROOT)

N = 5000
MODELS: dict = {}
# precedences over a tuple's set field: 5,000 tasks, 2 successors each (10,000 precedences)
MODELS["succs"] = ("""using CP;
tuple Task { key int id; int pt; {int} succs; };
{Task} Tasks = ...;
dvar interval itv[t in Tasks] size t.pt;
minimize max(t in Tasks) endOf(itv[t]);
subject to {
  forall (t1 in Tasks, t2 in t1.succs)
    endBeforeStart(itv[t1], itv[<t2>]);
}
""", lambda: "Tasks = {%s};\n" % ", ".join(
    "<%d, %d, {%s}>" % (i, i % 9 + 1, ", ".join(str(j) for j in (i + 1, i + 7) if j <= N)) for i in range(1, N + 1)))
# tuple-literal indices: 1,000 jobs x 10 operations (9,000 precedences)
MODELS["tuple_lit"] = ("""using CP;
int nJ = ...; int nO = ...;
tuple Op { int j; int o; };
{Op} Ops = {<j, o> | j in 1..nJ, o in 0..nO-1};
int pt[o in Ops] = (o.j * 7 + o.o * 3) mod 9 + 1;
dvar interval itv[o in Ops] size pt[o];
minimize max(o in Ops) endOf(itv[o]);
subject to {
  forall (<j, o> in Ops : o > 0)
    endBeforeStart(itv[<j, o - 1>], itv[<j, o>]);
}
""", lambda: "nJ = 1000; nO = 10;\n")
# noOverlap over tuple-indexed sequences: 10,000 operations on 50 machines
MODELS["seq_tuple"] = ("""using CP;
int nJ = ...; int nO = ...; int nM = ...;
range M = 0..nM-1;
tuple Op { int j; int o; int mch; int pt; };
{Op} Ops = {<j, o, (j * 13 + o * 7) mod nM, (j + o) mod 9 + 1> | j in 1..nJ, o in 0..nO-1};
dvar interval itv[o in Ops] size o.pt;
dvar sequence seq[m in M] in all(o in Ops : o.mch == m) itv[o];
minimize max(o in Ops) endOf(itv[o]);
subject to {
  forall (m in M)
    noOverlap(seq[m]);
}
""", lambda: "nJ = 1000; nO = 10; nM = 50;\n")
# a cumul function as a sum of pulses: 10,000 tasks
MODELS["cumul"] = ("""using CP;
int n = ...;
tuple T { key int id; int pt; int demand; };
{T} Ts = {<i, i mod 9 + 1, i mod 4 + 1> | i in 1..n};
dvar interval itv[t in Ts] size t.pt;
cumulFunction usage = sum(t in Ts) pulse(itv[t], t.demand);
minimize max(t in Ts) endOf(itv[t]);
subject to {
  usage <= 20;
}
""", lambda: "n = 10000;\n")
# alternative over machine modes: 2,000 tasks x 5 machines (about 6,000 modes)
MODELS["alternative"] = ("""using CP;
int nT = ...; int nM = ...;
range T = 1..nT; range M = 1..nM;
int ok[t in T][m in M] = ((t + m) mod 5 != 0 && (t * m) mod 3 != 1) ? 1 : 0;
dvar interval task[t in T];
dvar interval mode[t in T][m in M] optional size (t + m) mod 7 + 1;
minimize max(t in T) endOf(task[t]);
subject to {
  forall (t in T)
    alternative(task[t], all(m in M : ok[t][m] == 1) mode[t][m]);
}
""", lambda: "nT = 2000; nM = 5;\n")
# presenceOf in linear constraints: 10,000 optional intervals
MODELS["presence"] = ("""using CP;
int n = ...; range R = 1..n;
dvar interval a[i in R] optional size i mod 5 + 1;
dvar interval b[i in R] optional size i mod 3 + 1;
maximize sum(i in R) presenceOf(a[i]);
subject to {
  forall (i in R)
    presenceOf(a[i]) + presenceOf(b[i]) == 1;
  forall (i in 1..n-1)
    presenceOf(a[i]) <= presenceOf(b[i + 1]);
}
""", lambda: "n = 5000;\n")


def one(name: str) -> None:
    """Compile and build ``name`` in this process; print the CPU and the row path's constraint count."""
    import pyopl
    from ortools.sat.python import cp_model
    from pyopl.backends.cp import cpsat
    from pyopl.lowering.model import constraints as C

    mod, dat = MODELS[name]
    made = [0]
    real = C._cons

    def counted(*a):
        made[0] += 1
        return real(*a)

    C._cons = counted
    text = dat()
    t = time.process_time()
    ir = pyopl.compile_model(mod, data=text, source="text").ir
    m = cpsat.build(cp_model, ir)[0]
    dt = time.process_time() - t
    print("%s %.3f %d %d %d" % (name, dt, made[0], len(m.proto.variables), len(m.proto.constraints)))


def child(name: str, root: str | None, env: dict) -> tuple[float, str]:
    extra = ["--root=%s" % root] if root else []
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--one", name] + extra, stdout=subprocess.PIPE,
                         text=True, env=env, cwd=root or None)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit("the %s child failed (%s)" % (name, root or "this tree"))
    return ru.ru_utime + ru.ru_stime, out


def main() -> None:
    argv = [a for a in sys.argv[1:] if not a.startswith("--before=") and not a.startswith("--root=")]
    if argv[:1] == ["--one"]:
        one(argv[1])
        return
    reps = int(argv[0]) if argv and argv[0].isdigit() else 3
    names = [a for a in argv if not a.isdigit()] or list(MODELS)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = [("after", here)] + ([("before", BEFORE)] if BEFORE else [])
    with tempfile.TemporaryDirectory() as pyc:
        for name in names:
            load = os.getloadavg()[0]
            best: dict = {}
            outs: dict = {}
            for tag, root in trees:  # the .pyc files made, not timed
                env = dict(os.environ, PYTHONPYCACHEPREFIX=os.path.join(pyc, tag), PYTHONPATH=root)
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                child(name, root, env)
            for _ in range(reps):
                for tag, root in trees:
                    env = dict(os.environ, PYTHONPYCACHEPREFIX=os.path.join(pyc, tag), PYTHONPATH=root)
                    env.pop("PYTHONDONTWRITEBYTECODE", None)
                    t, outs[tag] = child(name, root, env)
                    best[tag] = min(best.get(tag, float("inf")), t)
            line = "%-12s load %.2f-%.2f" % (name, load, os.getloadavg()[0])
            for tag, _root in trees:
                _n, inproc, rows, v, c = outs[tag].split()
                line += "  %s: %.2f s process (%s s in-process, %s one by one, %s vars %s cons)" % (
                    tag, best[tag], inproc, rows, v, c)
            print(line, flush=True)


if __name__ == "__main__":
    main()
