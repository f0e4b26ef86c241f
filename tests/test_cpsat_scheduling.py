"""Scheduling in `using CP;` models on CP-SAT: interval variables, precedences, alternative, span,
synchronize, noOverlap (with transition times), cumulative functions.  Every expected optimum is
computed here independently: by brute force over small domains, or by the same model written
directly with ortools' own cp_model API."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import pyopl

cp_model = pytest.importorskip("ortools.sat.python.cp_model")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "cp"


def _solve(text: str, data: str | None = None):
    return pyopl.compile_model(text, data_text=data).solve(threads=1) if data else pyopl.compile_model(text).solve(threads=1)


def _jobshop_brute_force(machine: list, dur: list) -> int:
    """The optimal makespan of a job shop: every order of the operations on each machine, each schedule
    made as early as possible (longest paths), cyclic orders skipped."""
    n, k = len(machine), len(machine[0])
    ops_on = {m: [(j, s) for j in range(n) for s in range(k) if machine[j][s] == m] for m in range(k)}
    best = None
    for orders in itertools.product(*[list(itertools.permutations(ops_on[m])) for m in range(k)]):
        preds = {(j, s): [] for j in range(n) for s in range(k)}
        for j in range(n):
            for s in range(1, k):
                preds[(j, s)].append((j, s - 1))
        for order in orders:
            for a, b in zip(order, order[1:]):
                preds[b].append(a)
        start: dict = {}
        progress = True
        while progress and len(start) < n * k:
            progress = False
            for op, ps in preds.items():
                if op not in start and all(p in start for p in ps):
                    start[op] = max((start[p] + dur[p[0]][p[1]] for p in ps), default=0)
                    progress = True
        if len(start) < n * k:
            continue  # the machine orders contradict the job chains
        span = max(start[(j, k - 1)] + dur[j][k - 1] for j in range(n))
        best = span if best is None or span < best else best
    return best


JOBSHOP_3X3 = """using CP;
range J = 0..2; range S = 0..2;
int mach[J][S] = [[0, 1, 2], [0, 2, 1], [1, 2, 0]];
int dur[J][S] = [[3, 2, 2], [2, 1, 4], [4, 3, 1]];
dvar interval op[j in J][s in S] size dur[j][s];
minimize max(j in J) endOf(op[j][2]);
subject to {
  forall(m in S) noOverlap(all(j in J, s in S : mach[j][s] == m) op[j][s]);
  forall(j in J, s in S : s < 2) endBeforeStart(op[j][s], op[j][s + 1]);
}"""


def _check_jobshop(r, machine: list, dur: list) -> None:
    n, k = len(machine), len(machine[0])
    op = r["op"]
    for j in range(n):
        for s in range(k):
            v = op[j, s]
            assert v.present == 1 and v.end - v.start == dur[j][s] == v.size
            if s:
                assert op[j, s - 1].end <= v.start
    for m in range(k):
        runs = sorted((op[j, s].start, op[j, s].end) for j in range(n) for s in range(k) if machine[j][s] == m)
        assert all(a[1] <= b[0] for a, b in zip(runs, runs[1:]))
    assert r.objective == max(op[j, k - 1].end for j in range(n))


def test_a_3x3_job_shop_reaches_the_brute_force_makespan():
    machine, dur = [[0, 1, 2], [0, 2, 1], [1, 2, 0]], [[3, 2, 2], [2, 1, 4], [4, 3, 1]]
    best = _jobshop_brute_force(machine, dur)
    r = _solve(JOBSHOP_3X3)
    assert r.status == "optimal" and r.objective == best
    _check_jobshop(r, machine, dur)


def _jobshop_direct(machine: list, dur: list) -> int:
    """The same job shop written with ortools' cp_model API directly."""
    m = cp_model.CpModel()
    n, k = len(machine), len(machine[0])
    horizon = sum(map(sum, dur))
    start = {(j, s): m.new_int_var(0, horizon, "") for j in range(n) for s in range(k)}
    end = {(j, s): m.new_int_var(0, horizon, "") for j in range(n) for s in range(k)}
    iv = {(j, s): m.new_interval_var(start[j, s], dur[j][s], end[j, s], "") for j in range(n) for s in range(k)}
    for mm in range(k):
        m.add_no_overlap([iv[j, s] for j in range(n) for s in range(k) if machine[j][s] == mm])
    for j in range(n):
        for s in range(k - 1):
            m.add(end[j, s] <= start[j, s + 1])
    mk = m.new_int_var(0, horizon, "")
    m.add_max_equality(mk, [end[j, k - 1] for j in range(n)])
    m.minimize(mk)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(m) == cp_model.OPTIMAL
    return int(solver.objective_value)


def test_the_jobshop_example_matches_the_same_model_built_with_cp_model():
    machine = [[0, 1, 2], [1, 0, 2], [2, 1, 0], [0, 2, 1]]
    dur = [[3, 2, 2], [2, 4, 1], [4, 3, 3], [2, 3, 4]]
    r = pyopl.compile_model(EXAMPLES / "jobshop.mod", EXAMPLES / "jobshop.dat").solve(threads=1)
    assert r.status == "optimal" and r.objective == _jobshop_direct(machine, dur)
    _check_jobshop(r, machine, dur)


RCPSP = """using CP;
range T = 1..5;
int d[T] = [2, 3, 2, 1, 2];
int use[T] = [2, 1, 2, 1, 1];
int cap = 3;
{int} before[T] = [{}, {}, {1}, {2}, {3}];
dvar interval task[t in T] in 0..20 size d[t];
cumulFunction load = sum(t in T) pulse(task[t], use[t]);
minimize max(t in T) endOf(task[t]);
subject to {
  load <= cap;
  forall(t in T, p in before[t]) endBeforeStart(task[p], task[t]);
}"""


def test_an_rcpsp_with_a_cumulative_resource_matches_brute_force():
    d, use, cap, before = [2, 3, 2, 1, 2], [2, 1, 2, 1, 1], 3, [[], [], [0], [1], [2]]
    best = None
    for starts in itertools.product(range(8), repeat=5):
        if any(starts[p] + d[p] > starts[t] for t in range(5) for p in before[t]):
            continue
        if any(sum(use[i] for i in range(5) if starts[i] <= tm < starts[i] + d[i]) > cap for tm in range(10)):
            continue
        mk = max(starts[i] + d[i] for i in range(5))
        best = mk if best is None or mk < best else best
    r = _solve(RCPSP)
    assert r.status == "optimal" and r.objective == best
    tasks = [r["task"][t] for t in range(1, 6)]
    for tm in range(20):
        assert sum(use[i] for i, v in enumerate(tasks) if v.start <= tm < v.end) <= cap


def test_optional_intervals_with_alternative_pick_one_machine_each():
    # three jobs, each on machine A or B with its own duration; minimise the makespan
    text = """using CP;
    range J = 1..3; range M = 1..2;
    int dur[J][M] = [[4, 2], [3, 5], [2, 2]];
    dvar interval job[j in J];
    dvar interval mode[j in J][m in M] optional size dur[j][m];
    minimize max(j in J) endOf(job[j]);
    subject to {
      forall(j in J) alternative(job[j], all(m in M) mode[j][m]);
      forall(m in M) noOverlap(all(j in J) mode[j][m]);
    }"""
    dur = [[4, 2], [3, 5], [2, 2]]
    best = min(max(sum(dur[j][a[j]] for j in range(3) if a[j] == m) for m in range(2))
               for a in itertools.product(range(2), repeat=3))
    r = _solve(text)
    assert r.status == "optimal" and r.objective == best
    for j in range(1, 4):
        chosen = [m for m in (1, 2) if r["mode"][j, m].present]
        assert len(chosen) == 1
        v, job = r["mode"][j, chosen[0]], r["job"][j]
        assert (v.start, v.end) == (job.start, job.end) and v.size == dur[j - 1][chosen[0] - 1]
    absent = [r["mode"][j, m] for j in range(1, 4) for m in (1, 2) if not r["mode"][j, m].present]
    assert len(absent) == 3 and all(str(v) == "<0 0 0 0>" for v in absent)


PREC = """using CP;
dvar interval a in 0..9 size 2;
dvar interval b in 0..9 size 3;
maximize 3 * startOf(a) - 2 * startOf(b) + endOf(b) - 2 * endOf(a);
subject to { %s(a, b%s); }"""

_POINTS = {"endBeforeStart": ("e", "s", "<="), "endBeforeEnd": ("e", "e", "<="), "startBeforeStart": ("s", "s", "<="),
           "startBeforeEnd": ("s", "e", "<="), "startAtStart": ("s", "s", "=="), "startAtEnd": ("s", "e", "=="),
           "endAtStart": ("e", "s", "=="), "endAtEnd": ("e", "e", "==")}


@pytest.mark.parametrize("name", sorted(_POINTS))
@pytest.mark.parametrize("delay", [None, 2, -1])
def test_each_precedence_with_and_without_a_delay_matches_brute_force(name, delay):
    pa, pb, op = _POINTS[name]
    z = delay or 0
    best = None
    for sa in range(0, 8):
        for sb in range(0, 7):
            at = {"as": sa, "ae": sa + 2, "bs": sb, "be": sb + 3}
            lhs, rhs = at["a" + pa] + z, at["b" + pb]
            if (lhs <= rhs) if op == "<=" else (lhs == rhs):
                v = 3 * sa - 2 * sb + sb + 3 - 2 * (sa + 2)
                best = v if best is None or v > best else best
    r = _solve(PREC % (name, "" if delay is None else ", %d" % delay))
    assert r.status == "optimal" and r.objective == best


def test_start_of_an_absent_interval_is_its_absent_value_and_presence_is_a_constraint():
    text = """using CP;
    dvar interval a optional in 0..10 size 3;
    dvar interval b optional in 0..10 size 4;
    maximize startOf(a, 7) + 2 * endOf(b, -5) - 3 * presenceOf(a) + lengthOf(b);
    subject to { presenceOf(a) || presenceOf(b); presenceOf(a) => !presenceOf(b); }"""
    best = None
    for pa, pb in itertools.product((0, 1), repeat=2):
        if not (pa or pb) or (pa and pb):
            continue
        for sa in range(0, 8):
            for sb in range(0, 7):
                v = (sa if pa else 7) + 2 * (sb + 4 if pb else -5) - 3 * pa + (4 if pb else 0)
                best = v if best is None or v > best else best
    r = _solve(text)
    assert r.status == "optimal" and r.objective == best
    assert r["a"].present == 0 and r["b"].present == 1 and r["b"].end == 10


def test_span_covers_its_present_intervals_and_synchronize_aligns_them():
    text = """using CP;
    dvar interval whole;
    dvar interval part[1..3] optional in 0..12 size 2;
    dvar interval twin in 0..12 size 2;
    minimize 10 * lengthOf(whole) - startOf(whole) - startOf(twin);
    subject to {
      span(whole, part);
      synchronize(twin, all(i in 1..2) part[i]);
      presenceOf(part[1]); presenceOf(part[3]);
      endBeforeStart(part[1], part[3], 3);
    }"""
    best = None
    for s1 in range(11):
        for s3 in range(11):
            if s1 + 2 + 3 > s3:
                continue
            for p2 in (0, 1):
                for s2 in range(11) if p2 else [None]:
                    # twin synchronises with part 1 (present) and part 2 (when present)
                    if p2 and s2 != s1:
                        continue
                    starts = [s1, s3] + ([s2] if p2 else [])
                    lo, hi = min(starts), max(starts) + 2
                    v = 10 * (hi - lo) - lo - s1
                    best = v if best is None or v < best else best
    r = _solve(text)
    assert r.status == "optimal" and r.objective == best
    w, parts = r["whole"], [r["part"][i] for i in (1, 2, 3)]
    present = [p for p in parts if p.present]
    assert w.start == min(p.start for p in present) and w.end == max(p.end for p in present)
    assert r["twin"].start == parts[0].start


def test_no_overlap_with_transition_times_matches_brute_force_over_orders():
    text = """using CP;
    range I = 1..4;
    int d[I] = [3, 2, 4, 1];
    int kind[I] = [0, 1, 0, 1];
    tuple triplet { int t1; int t2; int dist; }
    {triplet} setup = {<0, 1, 3>, <1, 0, 2>, <0, 0, 0>, <1, 1, 1>};
    dvar interval job[i in I] in 0..40 size d[i];
    dvar sequence line in job types kind;
    minimize max(i in I) endOf(job[i]) + startOf(job[3]);
    subject to { noOverlap(line, setup); }"""
    d, kind = [3, 2, 4, 1], [0, 1, 0, 1]
    setup = {(0, 1): 3, (1, 0): 2, (0, 0): 0, (1, 1): 1}
    best = None
    for order in itertools.permutations(range(4)):
        for slack in itertools.product(range(3), repeat=4):
            t, start = 0, {}
            for pos, i in enumerate(order):
                if pos:
                    # IBM's default: the distance separates a job from every later job of the sequence
                    t = max(t, max(start[p] + d[p] + setup[kind[p], kind[i]] for p in order[:pos]))
                start[i] = t + slack[pos]
                t = start[i] + d[i]
            v = max(start[i] + d[i] for i in range(4)) + start[2]
            best = v if best is None or v < best else best
    r = _solve(text)
    assert r.status == "optimal" and r.objective == best


def test_stepwise_cumulative_function_as_a_reservoir_matches_brute_force():
    # a tank filled by `fill` (+3 at its end) and emptied by `use1`, `use2` (-2 at their start), never below 0
    # (and 1 unit at time 0, the step of a fixed interval `seed`)
    text = """using CP;
    dvar interval seed in 0..0 size 0;
    dvar interval fill in 0..10 size 2;
    dvar interval use1 in 0..10 size 1;
    dvar interval use2 in 0..10 size 1;
    cumulFunction level = stepAtStart(seed, 1) + stepAtEnd(fill, 3) - stepAtStart(use1, 2) - stepAtStart(use2, 2);
    minimize startOf(use1) + 2 * startOf(use2) + startOf(fill);
    subject to { level >= 0; level <= 4; }"""
    r = _solve(text)
    best = None
    for f, u1, u2 in itertools.product(range(9), range(10), range(10)):
        events = [(0, 1), (f + 2, 3), (u1, -2), (u2, -2)]
        if all(0 <= sum(h for t, h in events if t <= tm) <= 4 for tm in range(12)):
            v = u1 + 2 * u2 + f
            best = v if best is None or v < best else best
    assert r.status == "optimal" and r.objective == best


def test_always_in_over_a_time_window_matches_brute_force():
    text = """using CP;
    range I = 1..3;
    dvar interval t[I] in 0..10 size 2;
    cumulFunction f = sum(i in I) pulse(t[i], 1);
    minimize sum(i in I) i * startOf(t[i]);
    subject to { f <= 2; alwaysIn(f, 0, 4, 0, 1); }"""
    best = None
    for s in itertools.product(range(9), repeat=3):
        ok = all(sum(1 for x in s if x <= tm < x + 2) <= (1 if tm < 4 else 2) for tm in range(12))
        if ok:
            v = s[0] + 2 * s[1] + 3 * s[2]
            best = v if best is None or v < best else best
    r = _solve(text)
    assert r.status == "optimal" and r.objective == best


def test_an_interval_in_a_model_without_using_cp_is_diagnosed():
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("dvar interval t size 3;\nminimize 1;")
    d = e.value.diagnostics[0]
    assert d.code == "OPL0626" and (d.line, d.column) == (1, 15) and "dvar interval" in d.message


def test_unsupported_scheduling_forms_name_themselves():
    text = """using CP;
    dvar interval a size 2; dvar interval b size 3;
    cumulFunction f = pulse(a, 1) + pulse(b, 1); dvar int x in 0..2;
    minimize endOf(b);
    subject to { alwaysIn(f, a, x, 1); }"""
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    d = e.value.diagnostics[0]
    assert d.code == "OPL0627" and (d.line, d.column) == (5, 33) and "decisions as its bounds" in d.message


def test_writeln_of_an_interval_prints_ibm_form():
    text = """using CP;
    dvar interval a in 0..10 size 3;
    dvar interval b optional size 2;
    minimize startOf(a) + presenceOf(b);
    subject to { startOf(a) >= 2; }
    execute { writeln(a); writeln(b); writeln(a.start, " ", a.end, " ", a.size, " ", a.present, " ", b.present); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal"
    assert r.script_output.splitlines()[-3:] == ["<1 2 5 3>", "<0 0 0 0>", "2 5 3 true false"]


@pytest.mark.parametrize("body, at, words", [
    ("dvar interval a[1..2];\ndvar interval b[1..2];\ndvar int m[1..2] in 0..1;\nminimize endOf(a[1]);\n"
     "subject to { isomorphism(a, b, m, -1); }", (6, 32), "`isomorphism`"),
    ("dvar interval a size 2;\nminimize endOf(a);\nsubject to { heightAtEnd(a, pulse(a, 1)) <= 2; }", (4, 14),
     "`heightAtEnd`"),
    ("dvar int x[1..2] in 0..3;\ndvar int c[1..2] in 0..2;\nminimize x[1];\nsubject to { distribute(c, [1, 2], x); }",
     (5, 14), "distribute"),
    ("tuple T { int a; int b; int d; }\n{T} M = {<0, 1, 2>};\nstateFunction s with M;\nminimize 1;", (4, 1),
     "stateFunction"),
])
def test_each_unsupported_cp_form_has_its_code_at_its_place(body, at, words):
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("using CP;\n" + body)
    d = e.value.diagnostics[0]
    assert d.code in ("OPL0627", "OPL0621") and (d.line, d.column) == at and words in d.message


def test_a_scheduling_argument_of_the_wrong_kind_is_opl0629():
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("using CP;\ndvar int x in 0..3;\ndvar interval a size 2;\nminimize endOf(a);\n"
                            "subject to { endBeforeStart(a, x); }")
    d = e.value.diagnostics[0]
    assert d.code == "OPL0629" and (d.line, d.column) == (5, 32) and "interval variable" in d.message


RCPSP_DATA = dict(capacity=[4, 3], duration=[3, 2, 4, 2, 3, 1, 4, 2],
                  demand=[[2, 1], [1, 2], [3, 0], [2, 1], [1, 1], [4, 2], [1, 3], [2, 2]],
                  precedences=[(1, 3), (1, 4), (2, 5), (3, 6), (4, 6), (5, 7), (6, 8), (7, 8)])


def _rcpsp_direct(d: dict) -> int:
    """examples/cp/rcpsp's instance written with ortools' cp_model API directly."""
    m = cp_model.CpModel()
    n, horizon = len(d["duration"]), sum(d["duration"])
    start = [m.new_int_var(0, horizon, "") for _ in range(n)]
    end = [m.new_int_var(0, horizon, "") for _ in range(n)]
    iv = [m.new_interval_var(start[t], d["duration"][t], end[t], "") for t in range(n)]
    for r, cap in enumerate(d["capacity"]):
        m.add_cumulative(iv, [d["demand"][t][r] for t in range(n)], cap)
    for a, b in d["precedences"]:
        m.add(end[a - 1] <= start[b - 1])
    mk = m.new_int_var(0, horizon, "")
    m.add_max_equality(mk, end)
    m.minimize(mk)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(m) == cp_model.OPTIMAL
    return int(solver.objective_value)


def test_the_rcpsp_example_matches_the_same_model_built_with_cp_model():
    d = RCPSP_DATA
    r = pyopl.compile_model(EXAMPLES / "rcpsp.mod", EXAMPLES / "rcpsp.dat").solve(threads=1)
    assert r.status == "optimal" and r.objective == _rcpsp_direct(d)
    task = [r["task"][t] for t in range(1, 9)]
    for a, b in d["precedences"]:
        assert task[a - 1].end <= task[b - 1].start
    for res, cap in enumerate(d["capacity"]):
        for tm in range(r.objective):
            assert sum(d["demand"][t][res] for t in range(8) if task[t].start <= tm < task[t].end) <= cap
    lines = r.script_output.strip().splitlines()
    assert lines[0] == "task 1 %s" % task[0] and len(lines) == 8


def test_a_step_at_a_fixed_time_in_a_reservoir_matches_brute_force():
    text = """using CP;
    dvar interval fill in 0..10 size 2;
    dvar interval use[1..2] in 0..10 size 1;
    cumulFunction level = step(3, 2) + stepAtEnd(fill, 3) - sum(i in 1..2) stepAtStart(use[i], 2);
    minimize startOf(use[1]) + 3 * startOf(use[2]) + 2 * startOf(fill);
    subject to { level >= 0; }"""
    best = None
    for f, u1, u2 in itertools.product(range(9), range(10), range(10)):
        events = [(3, 2), (f + 2, 3), (u1, -2), (u2, -2)]
        if all(sum(h for t, h in events if t <= tm) >= 0 for tm in range(12)):
            v = u1 + 3 * u2 + 2 * f
            best = v if best is None or v < best else best
    assert best is not None
    r = _solve(text)
    assert r.status == "optimal" and r.objective == best


def test_interval_values_in_json_and_csv():
    r = _solve("using CP;\ndvar interval a in 2..10 size 3;\ndvar interval b optional size 2;\n"
               "minimize endOf(a) + presenceOf(b);")
    d = r.to_dict()["variables"]
    assert d["a"] == {"present": 1, "start": 2, "end": 5, "size": 3}
    assert d["b"] == {"present": 0, "start": 0, "end": 0, "size": 0}
    csv = r.to_csv()
    assert "<1 2 5 3>" in csv and "<0 0 0 0>" in csv


def test_a_cp_constraint_inside_a_logical_constraint_is_named():
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("using CP;\ndvar interval a optional size 2;\ndvar interval b size 2;\nminimize endOf(b);\n"
                            "subject to { presenceOf(a) => endBeforeStart(a, b); }")
    d = e.value.diagnostics[0]
    assert d.code == "OPL0627" and (d.line, d.column) == (5, 31) and "`endBeforeStart` inside a logical" in d.message


def test_an_interval_where_a_number_is_expected_is_named_in_words():
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("using CP;\ndvar interval a[1..2] size 2;\nminimize a[1];")
    d = e.value.diagnostics[0]
    assert (d.line, d.column) == (3, 10) and "a dvar interval" in d.message and "IntervalVar" not in d.message


def test_post_solve_data_reads_the_schedule():
    # the schedule is forced: a[1] on [0, 3), a[2] on [3, 5), a[3] absent; the post-processing data and
    # script read it as IBM's "Accessing solutions in postprocessing" describes
    import pyopl

    text = """using CP;
    dvar interval a[1..3] optional size 2..3;
    dvar sequence s in a;
    dvar int last in 0..20;
    cumulFunction f = sum(i in 1..3) pulse(a[i], i) + stepAtEnd(a[1], 10);
    minimize last;
    subject to {
      noOverlap(s); presenceOf(a[1]); presenceOf(a[2]); !presenceOf(a[3]);
      startOf(a[1]) == 0; sizeOf(a[1]) == 3; startOf(a[2]) == 3; sizeOf(a[2]) == 2;
      last == endOf(a[2]);
    }
    range upto = 0..last;
    int level[t in upto] = cumulFunctionValue(f, t);
    execute {
      write(s, " ", s.first(), " ", s.next(s.first()), " ", s.last().end, " ", s.next(s.last()) == null, " ");
      for (var t in upto) write(level[t], ",");
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal" and r.objective == 5
    # levels: pulse 1 on [0, 3), pulse 2 on [3, 5), step 10 from a[1]'s end 3
    levels = [(1 if t < 3 else 0) + (2 if 3 <= t < 5 else 0) + (10 if t >= 3 else 0) for t in range(6)]
    assert r.script_output.strip() == "{a[1] a[2]} <1 0 3 3> <1 3 5 2> 5 true %s," % ",".join(map(str, levels))


def test_a_schedule_without_objective_is_left_shifted():
    # CP Optimizer returns left-shifted schedules; the earliest starts here (sum 0 + 2 + 4 + 0, by hand:
    # a[1] before a[2], the three a's apart, b free) are what CP-SAT's second search reaches
    import pyopl

    r = pyopl.compile_model("""using CP;
    dvar interval a[1..3] size 2;
    dvar interval b size 1;
    subject to { endBeforeStart(a[1], a[2]); noOverlap(a); }""").solve(threads=1)
    a, b = r["a"], r["b"]
    assert r.status == "optimal" and sum(a[i].start for i in (1, 2, 3)) + b.start == 6
    assert a[1].end <= a[2].start and b.start == 0


def test_alternative_with_a_cardinality_against_brute_force():
    # a needs k of the four machines at once (each machine's use is an optional copy of a); machine m
    # costs w[m]; k is data for a[1] and a decision for a[2]
    import itertools

    import pyopl

    text = """using CP;
    int w[1..4] = [3, 1, 4, 2];
    dvar interval a[1..2] size 2;
    dvar interval u[1..2][1..4] optional size 2;
    dvar int k in 1..3;
    minimize sum(j in 1..2, m in 1..4) w[m] * presenceOf(u[j][m]) - 4 * k + 10 * max(j in 1..2) endOf(a[j]);
    subject to {
      alternative(a[1], all(m in 1..4) u[1][m], 2);
      alternative(a[2], all(m in 1..4) u[2][m], k);
      forall(m in 1..4) noOverlap(all(j in 1..2) u[j][m]);
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    w = [3, 1, 4, 2]
    best = None
    for k in (1, 2, 3):
        for s1 in itertools.combinations(range(4), 2):
            for s2 in itertools.combinations(range(4), k):
                end = 2 if not set(s1) & set(s2) else 4  # sharing a machine puts one after the other
                v = sum(w[m] for m in s1) + sum(w[m] for m in s2) - 4 * k + 10 * end
                best = v if best is None else min(best, v)
    assert r.status == "optimal" and r.objective == best


def test_always_in_over_an_interval_against_brute_force():
    # three unit-height jobs of length 2 in 0..6; during the maintenance window m (length 3, optional,
    # rewarded when present) at most one job may run
    import itertools

    import pyopl

    text = """using CP;
    dvar interval j[1..3] in 0..6 size 2;
    dvar interval m optional in 0..6 size 3;
    cumulFunction f = sum(i in 1..3) pulse(j[i], 1);
    maximize 5 * presenceOf(m) - sum(i in 1..3) startOf(j[i]) - startOf(m);
    subject to { alwaysIn(f, m, 0, 1); f <= 2; }"""
    r = pyopl.compile_model(text).solve(threads=1)
    best = None
    for s in itertools.product(range(5), repeat=3):
        level = [sum(1 for x in s if x <= t < x + 2) for t in range(7)]
        if max(level) > 2:
            continue
        cands = [-sum(s)]  # m absent
        cands += [5 - sum(s) - ms for ms in range(4) if all(level[t] <= 1 for t in range(ms, ms + 3))]
        v = max(cands)
        best = v if best is None else max(best, v)
    assert r.status == "optimal" and r.objective == best


def test_pulse_with_a_chosen_height_and_height_at_start():
    # two overlapping-capable jobs; each consumes a height it chooses in 1..3 (more height, more reward)
    # under a capacity of 4; job 2 is optional
    import itertools

    import pyopl

    text = """using CP;
    dvar interval j1 in 0..4 size 2;
    dvar interval j2 optional in 0..4 size 2;
    cumulFunction f = pulse(j1, 1, 3) + pulse(j2, 1, 3);
    maximize 3 * heightAtStart(j1, f) + 2 * heightAtStart(j2, f, 0) - startOf(j1) - startOf(j2) + presenceOf(j2);
    subject to { f <= 4; }"""
    r = pyopl.compile_model(text).solve(threads=1)
    best = None
    for s1, h1 in itertools.product(range(3), range(1, 4)):
        v = 3 * h1 - s1  # j2 absent
        best = v if best is None else max(best, v)
        for s2, h2 in itertools.product(range(3), range(1, 4)):
            overlap = s1 < s2 + 2 and s2 < s1 + 2
            if overlap and h1 + h2 > 4:
                continue
            best = max(best, 3 * h1 + 2 * h2 - s1 - s2 + 1)
    assert r.status == "optimal" and r.objective == best


def test_overlap_length_against_brute_force():
    import itertools

    import pyopl

    text = """using CP;
    dvar interval a in 0..8 size 3;
    dvar interval b optional in 0..8 size 4;
    maximize 4 * overlapLength(a, b, -1) - 3 * overlapLength(a, 2, 4) + startOf(a) - startOf(b) + presenceOf(b);"""
    r = pyopl.compile_model(text).solve(threads=1)

    def ov(s1, e1, s2, e2):
        return max(0, min(e1, e2) - max(s1, s2))

    best = None
    for sa in range(6):
        base = -3 * ov(sa, sa + 3, 2, 4) + sa
        cands = [4 * -1 + base]  # b absent
        cands += [4 * ov(sa, sa + 3, sb, sb + 4) + base - sb + 1 for sb in range(5)]
        v = max(cands)
        best = v if best is None else max(best, v)
    assert r.status == "optimal" and r.objective == best


def test_a_cumulative_function_bounded_by_a_decision():
    # buy capacity c (cost 3 each) for three unit-height jobs of length 2 that must end by 4
    import itertools

    import pyopl

    text = """using CP;
    dvar interval j[1..3] in 0..4 size 2;
    dvar int c in 0..3;
    minimize 3 * c + sum(i in 1..3) startOf(j[i]);
    subject to { sum(i in 1..3) pulse(j[i], 1) <= c; }"""
    r = pyopl.compile_model(text).solve(threads=1)
    best = min(3 * c + sum(s) for c in range(4) for s in itertools.product(range(3), repeat=3)
               if all(sum(1 for x in s if x <= t < x + 2) <= c for t in range(4)))
    assert r.status == "optimal" and r.objective == best
