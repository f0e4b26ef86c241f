"""Precedence constraints in a ``forall`` made from arrays (pyopl/lowering/cp/precedence_rows.py)
give the IR the row path gives: the same rows, CP records (``linear_if``, ``posted``) and order."""
from __future__ import annotations

import pytest

import pyopl
from pyopl.lowering.cp import precedence_rows
from pyopl.lowering.model import constraints
from tests.ir_compare import assert_same_bits

JOBSHOP = """using CP;
int n = 4; int k = 3;
int pt[0..n-1][0..k-1] = [[3, 1, 4], [1, 5, 9], [2, 6, 5], [3, 5, 8]];
dvar interval a[j in 0..n-1][o in 0..k-1] size pt[j][o];
subject to {
  forall (j in 0..n-1, o in 0..k-2)
    endBeforeStart(a[j][o], a[j][o+1]);
  forall (j in 0..n-1, o in 0..k-2 : j != 2)
    ct: startBeforeStart(a[j][o+1], a[j][o], pt[j][o] - 2);
  forall (j in 0..n-2)
    endBeforeEnd(a[j][0], a[j+1][0], j * 2 + 1);
  forall (j in 0..n-2)
    startAtEnd(a[j+1][2], a[j][2]);
}
"""

TUPLES = """using CP;
tuple Op { string job; int pos; int dur; };
{Op} Ops = {<"a", 1, 3>, <"a", 2, 2>, <"b", 1, 4>, <"b", 2, 1>, <"c", 1, 2>, <"c", 2, 2>};
{string} Jobs = {o.job | o in Ops};
dvar interval t[o in Ops] size o.dur;
dvar interval opt[j in Jobs] optional size 2;
subject to {
  forall (o1 in Ops, o2 in Ops : o1.job == o2.job && o2.pos == o1.pos + 1)
    prec: endBeforeStart(t[o1], t[o2], o1.dur mod 2);
  forall (o in Ops, j in Jobs : o.job == j)
    startBeforeStart(opt[j], t[o]);
  forall (j in Jobs, o in Ops : o.job == j && o.pos == 2)
    endBeforeEnd(t[o], opt[j], 1);
}
"""


RAGGED = """using CP;
int N = 6;
range I = 1..N;
int d[I] = [3, 1, 4, 1, 5, 9];
{int} predecessors[I] = [{}, {1}, {1}, {3, 2}, {}, {4, 2, 1}];
tuple K { int id; };
{K} ks = {<i> | i in I};
dvar interval itv[i in I] size d[i];
dvar interval w[k in ks] optional size d[k.id];
subject to {
  forall (i in I, pre in predecessors[i])
    endBeforeStart(itv[pre], itv[i]);
  forall (i in I, pre in predecessors[i] : pre != 2)
    lbl: startBeforeEnd(itv[pre], itv[i], d[pre] - 1);
  forall (i in I, j in 1..i-1 : d[j] > 3)
    endBeforeEnd(itv[j], itv[i], i - j);
  forall (k in ks, pre in predecessors[k.id])
    endBeforeStart(itv[pre], w[k]);
}
"""


SUCCS = """using CP;
tuple Task { key int id; int pt; {int} succs; };
{Task} Tasks = {<1, 3, {2, 3}>, <2, 2, {4}>, <3, 4, {4, 5}>, <4, 1, {}>, <5, 2, {6, 4}>, <6, 3, {}>};
dvar interval itv[t in Tasks] size t.pt;
minimize max(t in Tasks) endOf(itv[t]);
subject to {
  forall (t1 in Tasks, t2 in t1.succs)
    endBeforeStart(itv[t1], itv[<t2>]);
  forall (t1 in Tasks, t2 in t1.succs : t2 != 4)
    lag: startBeforeStart(itv[t1], itv[<t2>], t1.pt - 1);
}
"""

LITERALS = """using CP;
tuple Op { string job; int o; };
{Op} Ops = {<j, o> | j in {"a", "b", "c"}, o in 0..3};
int pt[p in Ops] = (p.o * 3 + 1) mod 5 + 1;
dvar interval itv[p in Ops] size pt[p];
minimize max(p in Ops) endOf(itv[p]);
subject to {
  forall (<j, o> in Ops : o > 0)
    endBeforeStart(itv[<j, o - 1>], itv[<j, o>]);
  forall (<j, o> in Ops : o < 3 && j != "b")
    seq: startBeforeEnd(itv[<j, o>], itv[<j, o + 1>], o);
  forall (p in Ops : p.o == 0 && p.job != "a")
    endBeforeStart(itv[<"a", 3>], itv[p]);
}
"""


def _records(ir) -> list:
    return [(c.kind, c.label, c.key, c.span, c.data, c.exprs) for c in ir.cp_constraints]


def _both(mod: str, monkeypatch) -> tuple:
    calls = []
    real = precedence_rows.precedence_forall
    monkeypatch.setattr(constraints, "precedence_forall", lambda *a: calls.append(real(*a)) or calls[-1])
    fast = pyopl.compile_model(mod).ir
    monkeypatch.setattr(constraints, "precedence_forall", lambda *a: False)
    slow = pyopl.compile_model(mod).ir
    return fast, slow, calls


@pytest.mark.parametrize("mod", [JOBSHOP, TUPLES, RAGGED, SUCCS, LITERALS],
                         ids=["ranges-filtered-delay", "tuples-optional", "sets-and-ranges-of-the-outer-index",
                              "a-tuple-field-set-and-key-literals", "pattern-binders-and-tuple-literals"])
def test_arrays_give_the_row_paths_ir(mod, monkeypatch):
    fast, slow, calls = _both(mod, monkeypatch)
    assert calls and all(calls)  # every precedence family went through the arrays
    assert_same_bits(fast, slow)
    assert _records(fast) == _records(slow)
    assert len(fast.cp_constraints) > 0
    from ortools.sat.python import cp_model
    from pyopl.backends.cp import cpsat
    assert str(cpsat.build(cp_model, fast)[0].proto) == str(cpsat.build(cp_model, slow)[0].proto)


def test_a_tuple_field_set_gives_each_task_its_successors_in_order(monkeypatch):
    """``forall(t1 in Tasks, t2 in t1.succs)``: each task's own successors in its set's order, the
    label keyed ``(t1, t2)`` (by hand from SUCCS); ``itv[<t2>]`` is the task with that key."""
    fast, _slow, calls = _both(SUCCS, monkeypatch)
    assert calls == [True, True]
    iv = {i.key[0][0]: i for i in fast.intervals}
    lag = [r for r in range(fast.num_rows) if fast.row_label[r] == "lag#aux"]
    assert [(k[0][0], k[1]) for k in (fast.row_key[r] for r in lag)] == [(1, 2), (1, 3), (3, 5), (5, 6)]
    assert [fast.row_upper[r] for r in lag] == [-2.0, -2.0, -3.0, -1.0]  # -(t1.pt - 1)
    A = fast.A.tocsr()
    plain = [tuple(A.indices[A.indptr[r]:A.indptr[r + 1]].tolist()) for r in range(fast.num_rows)
             if fast.row_label[r] == "#aux"]
    by_hand = [(1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (5, 6), (5, 4)]  # end(itv[t1]) <= start(itv[t2])
    assert plain == [tuple(sorted((iv[a].end, iv[b].start))) for a, b in by_hand]


def test_pattern_binders_key_a_label_by_the_pattern_s_names(monkeypatch):
    fast, _slow, calls = _both(LITERALS, monkeypatch)
    assert calls == [True, True, True]
    keys = [fast.row_key[r] for r in range(fast.num_rows) if fast.row_label[r] == "seq#aux"]
    assert keys == [(j, o) for j in ("a", "c") for o in range(3)]


def test_a_key_no_task_has_is_the_row_paths_error():
    mod = SUCCS.replace("<2, 2, {4}>", "<2, 2, {9}>")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(mod)
    assert "OPL0301" in str(e.value) and "<9> is not in the index set {<1, 3, {2, 3}>" in str(e.value)
    assert "t2 = 9" in str(e.value)  # the binding that fails, as the row path meets it


def test_the_built_schedule_is_the_direct_cp_model_s():
    """The tuple-literal job chain solved: the makespan equals the one of the same chains built directly
    with cp_model (each job's operations in order, no machines: the longest chain)."""
    from ortools.sat.python import cp_model

    res = pyopl.solve(LITERALS, solver="cpsat")
    pt = {(j, o): (o * 3 + 1) % 5 + 1 for j in "abc" for o in range(4)}
    m = cp_model.CpModel()
    H = sum(pt.values())
    st = {k: m.new_int_var(0, H, "s") for k in pt}
    en = {k: m.new_int_var(0, H, "e") for k in pt}
    for k, p in pt.items():
        m.new_interval_var(st[k], p, en[k], "i")
    for j in "abc":
        for o in range(1, 4):
            m.add(en[(j, o - 1)] <= st[(j, o)])
    for j in "ac":
        for o in range(3):
            m.add(st[(j, o)] <= en[(j, o + 1)] - o)
    for j in "bc":
        m.add(en[("a", 3)] <= st[(j, 0)])
    mk = m.new_int_var(0, H, "mk")
    m.add_max_equality(mk, list(en.values()))
    m.minimize(mk)
    solver = cp_model.CpSolver()
    assert solver.solve(m) == cp_model.OPTIMAL
    assert res.status == "optimal" and res.objective == solver.objective_value


def test_rows_as_the_rule_says(monkeypatch):
    """``endBeforeStart(a, b, z)``: end(a) + z <= start(b); the ``...At...`` ones are equalities
    (OPL manual, "Precedence constraints between interval variables"), checked on the columns."""
    fast, _slow, _calls = _both(JOBSHOP, monkeypatch)
    iv = {tuple(i.key): i for i in fast.intervals}
    A = fast.A.tocsr()
    rows = {}
    for r in range(A.shape[0]):
        lo, hi = A.indptr[r], A.indptr[r + 1]
        rows.setdefault(tuple(sorted(zip(A.indices[lo:hi].tolist(), A.data[lo:hi].tolist()))), []).append(
            (fast.row_lower[r], fast.row_upper[r], fast.row_label[r], fast.row_key[r]))
    a, b = iv[(1, 0)], iv[(1, 1)]
    assert rows[tuple(sorted([(a.end, 1.0), (b.start, -1.0)]))] == [(float("-inf"), 0.0, "#aux", ())]
    # ct: startBeforeStart(a[1][1], a[1][0], pt[1][0] - 2): start(a[1][1]) - start(a[1][0]) <= 1
    assert rows[tuple(sorted([(b.start, 1.0), (a.start, -1.0)]))] == [(float("-inf"), 1.0, "ct#aux", (1, 0))]
    c, d = iv[(2, 2)], iv[(3, 2)]  # startAtEnd(a[3][2], a[2][2]): start(a[3][2]) == end(a[2][2])
    assert rows[tuple(sorted([(d.start, 1.0), (c.end, -1.0)]))] == [(0.0, 0.0, "#aux", ())]
    assert not any(k[:1] == (2,) for _l, _h, lab, k in sum(rows.values(), []) if lab == "ct#aux")  # j != 2


def test_a_bad_index_is_the_row_paths_error():
    mod = JOBSHOP.replace("endBeforeStart(a[j][o], a[j][o+1])", "endBeforeStart(a[j][o], a[j][o+2])")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(mod)
    assert "OPL0301" in str(e.value) and "3 is not in the index set 0..2 of `a`" in str(e.value)
    assert "j = 0, o = 1" in str(e.value)  # the first binding that fails, as the row path meets it


def test_a_set_of_the_outer_index_gives_each_binding_its_own_cell_in_order(monkeypatch):
    """``forall(i in I, pre in predecessors[i])``: the bindings are each ``i``'s predecessors in the
    cell's order (by hand from the data above), and none for an empty cell."""
    fast, _slow, calls = _both(RAGGED, monkeypatch)
    assert calls == [True, True, True, True]
    iv = {tuple(i.key): i for i in fast.intervals if i.name == "itv"}
    first = [(fast.row_key[r], fast.row_label[r]) for r in range(fast.num_rows) if fast.row_label[r] == "lbl#aux"]
    # pre != 2 leaves (2,1) (3,1) (4,3) (6,4) (6,1): the label's key is (i, pre)
    assert [k for k, _ in first] == [(2, 1), (3, 1), (4, 3), (6, 4), (6, 1)]
    A = fast.A.tocsr()
    plain = [tuple(A.indices[A.indptr[r]:A.indptr[r + 1]].tolist()) for r in range(fast.num_rows)
             if fast.row_label[r] == "#aux" and fast.row_upper[r] == 0.0][:7]
    by_hand = [(2, 1), (3, 1), (4, 3), (4, 2), (6, 4), (6, 2), (6, 1)]  # end(itv[pre]) <= start(itv[i])
    assert plain == [tuple(sorted((iv[(p,)].end, iv[(i,)].start))) for i, p in by_hand]


def test_an_element_of_a_cell_outside_the_index_set_is_the_row_paths_error():
    mod = RAGGED.replace("{3, 2}", "{3, 7}")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(mod)
    assert "OPL0301" in str(e.value) and "7 is not in the index set 1..6 of `itv`" in str(e.value)
    assert "i = 4, pre = 7" in str(e.value)


# ---------------------------------------------------------------- sums of pulses (precedence_rows.elementary_sum)
CUMUL = """using CP;
tuple T { key int id; int pt; int demand; string r; };
{T} Ts = {<1, 3, 2, "a">, <2, 2, 3, "b">, <3, 4, 1, "a">, <4, 1, 4, "b">, <5, 2, 2, "a">, <6, 3, 3, "a">};
{string} R = {"a", "b"};
float half[t in Ts] = t.demand / 2 * 2;
dvar interval itv[t in Ts] size t.pt;
cumulFunction usage = sum(t in Ts) pulse(itv[t], t.demand);
cumulFunction per[r in R] = sum(t in Ts : t.r == r) stepAtStart(itv[t], half[t]) - sum(t in Ts : t.r == r && t.id > 2) stepAtEnd(itv[t], 1);
cumulFunction pat = sum(<i, p, d, r> in Ts : i != 3) pulse(itv[<i>], p + d);
minimize max(t in Ts) endOf(itv[t]);
subject to {
  usage <= 5;
  forall (r in R) per[r] <= 6;
  pat <= 12;
}
"""


def _cumul_both(mod: str, monkeypatch) -> tuple:
    from pyopl.lowering.evaluate import aggregates

    calls = []
    real = aggregates.elementary_sum
    monkeypatch.setattr(aggregates, "elementary_sum", lambda *a: calls.append(real(*a)) or calls[-1])
    fast = pyopl.compile_model(mod).ir
    monkeypatch.setattr(aggregates, "elementary_sum", lambda *a: None)
    slow = pyopl.compile_model(mod).ir
    return fast, slow, calls


def test_a_sum_of_pulses_from_arrays_builds_the_term_by_term_model(monkeypatch):
    from ortools.sat.python import cp_model
    from pyopl.backends.cp import cpsat

    fast, slow, calls = _cumul_both(CUMUL, monkeypatch)
    assert len(calls) == 6 and all(c is not None for c in calls)  # usage, per["a"] and ["b"] twice, pat
    assert [(k, iv.index, h) for k, iv, h in calls[0].terms] == [
        ("pulse", i, d) for i, d in enumerate([2, 3, 1, 4, 2, 3])]  # by hand: each task's demand, in order
    assert [h for _k, _iv, h in calls[-1].terms] == [5, 5, 5, 4, 6]  # pt + demand, task 3 left out
    assert_same_bits(fast, slow)
    assert _records(fast) == _records(slow)
    assert str(cpsat.build(cp_model, fast)[0].proto) == str(cpsat.build(cp_model, slow)[0].proto)


def test_a_height_that_is_not_a_whole_number_is_the_term_by_term_error():
    mod = CUMUL.replace("t.demand / 2 * 2", "t.demand / 4")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(mod)
    assert "`stepAtStart` takes an integer here, but this is 0.5" in str(e.value)


def test_the_capacity_holds_as_a_direct_cumulative_build_says():
    """``usage <= 5`` over the pulses: the optimal makespan equals the one of the same tasks built with
    cp_model's add_cumulative (the other functions left out of both)."""
    from ortools.sat.python import cp_model

    mod = CUMUL.replace("  forall (r in R) per[r] <= 6;\n  pat <= 12;\n", "")
    res = pyopl.solve(mod, solver="cpsat")
    tasks = [(3, 2), (2, 3), (4, 1), (1, 4), (2, 2), (3, 3)]
    m = cp_model.CpModel()
    H = sum(p for p, _d in tasks)
    ivs, ends = [], []
    for p, _d in tasks:
        s = m.new_int_var(0, H, "s")
        e = m.new_int_var(0, H, "e")
        ivs.append(m.new_interval_var(s, p, e, "i"))
        ends.append(e)
    m.add_cumulative(ivs, [d for _p, d in tasks], 5)
    mk = m.new_int_var(0, H, "mk")
    m.add_max_equality(mk, ends)
    m.minimize(mk)
    solver = cp_model.CpSolver()
    assert solver.solve(m) == cp_model.OPTIMAL
    assert res.status == "optimal" and res.objective == solver.objective_value


# ---------------------------------------------------------------- sequences over a comprehension (interval_groups)
SEQUENCES = """using CP;
tuple Op { int j; int o; int mch; string shop; int pt; };
{Op} Ops = {<j, o, (j * 3 + o * 2) mod 4, (j mod 2 == 0 ? "east" : "west"), (j + o) mod 5 + 1> | j in 1..5, o in 0..2};
{string} Shops = {"east", "west", "north"};
dvar interval itv[o in Ops] size o.pt;
dvar sequence seq[m in 0..3] in all(o in Ops : o.mch == m) itv[o];
dvar sequence shop[s in Shops] in all(o in Ops : s == o.shop) itv[o];
minimize max(o in Ops) endOf(itv[o]);
subject to {
  forall (m in 0..3)
    noOverlap(seq[m]);
  forall (s in Shops)
    noOverlap(shop[s]);
}
"""


def test_a_sequence_array_s_intervals_from_arrays_are_the_one_by_one_groups(monkeypatch):
    from ortools.sat.python import cp_model
    from pyopl.backends.cp import cpsat
    from pyopl.lowering.cp import precedence_rows as R
    from pyopl.lowering.model import declarations

    calls = []
    real = R.interval_groups
    monkeypatch.setattr(declarations, "interval_groups", lambda *a: calls.append(real(*a)) or calls[-1])
    fast = pyopl.compile_model(SEQUENCES).ir
    assert len(calls) == 2 and all(c is not None for c in calls)
    ops = [(j, o, (j * 3 + o * 2) % 4, "east" if j % 2 == 0 else "west") for j in range(1, 6) for o in range(3)]
    monkeypatch.setattr(declarations, "interval_groups", lambda *a: None)
    slow = pyopl.compile_model(SEQUENCES).ir
    assert_same_bits(fast, slow)
    assert _records(fast) == _records(slow)
    assert str(cpsat.build(cp_model, fast)[0].proto) == str(cpsat.build(cp_model, slow)[0].proto)
    keys, ivs = calls[0]
    assert keys == [m for _j, _o, m, _s in ops]  # by hand: each operation's machine, in the set's order
    assert [(iv.key[0][0], iv.key[0][1]) for iv in ivs] == [(j, o) for j, o, _m, _s in ops]
    assert calls[1][0] == [s for *_x, s in ops]


# ---------------------------------------------------------------- sums of presences (precedence_rows.presence_sum)
PRESENCE = """using CP;
tuple O { key int id; int pt; int vol; };
{O} Opts = {<i, i mod 3 + 1, i mod 4 + 2> | i in 1..8};
dvar interval opt[o in Opts] optional size o.pt;
dvar interval fixed[i in 1..3] size i;
dvar interval both[i in 1..4] optional size 1;
maximize sum(o in Opts) presenceOf(opt[o]) + sum(i in 1..3) presenceOf(fixed[i]);
subject to {
  sum(o in Opts : o.vol > 2) presenceOf(opt[o]) <= 4;
  sum(i in 1..4) presenceOf(both[(i - 1) mod 2 + 1]) + sum(<i, p, v> in Opts : i <= 2) presenceOf(opt[<i>]) >= 1;
  forall (o in Opts) endBeforeStart(fixed[3], opt[o]);
  sum(i in 1..3) presenceOf(fixed[i]) >= 2;
}
"""


def test_a_sum_of_presences_from_arrays_is_the_term_by_term_sum(monkeypatch):
    from ortools.sat.python import cp_model
    from pyopl.backends.cp import cpsat
    from pyopl.lowering.arrays import vectorised
    from pyopl.lowering.evaluate import aggregates

    arrays = pyopl.compile_model(PRESENCE).ir  # (the array sums take most of them first since round 10)
    calls = []
    real = aggregates.presence_sum
    monkeypatch.setattr(vectorised, "vector_sum", lambda ev, node, env: None)  # presence_sum alone
    monkeypatch.setattr(aggregates, "presence_sum", lambda *a: calls.append(real(*a)) or calls[-1])
    fast = pyopl.compile_model(PRESENCE).ir
    assert len(calls) == 6 and all(c is not None for c in calls)
    # (the constraints' sums first, then the objective's)
    assert calls[3] == 3 and type(calls[3]) is int  # no optional interval: the count, an int, as term by term
    assert len(calls[0].terms) == 6 and len(calls[4].terms) == 8  # vol > 2 keeps options 1, 2, 3, 5, 6, 7
    both = calls[1]  # both[1], both[2], both[1], both[2]: each column twice, in first-seen order
    assert list(both.terms.values()) == [2.0, 2.0] and both.const == 0.0
    monkeypatch.setattr(aggregates, "presence_sum", lambda *a: None)
    slow = pyopl.compile_model(PRESENCE).ir
    assert_same_bits(fast, slow)
    assert_same_bits(arrays, slow)
    assert _records(fast) == _records(slow) == _records(arrays)
    assert str(cpsat.build(cp_model, fast)[0].proto) == str(cpsat.build(cp_model, slow)[0].proto)


def test_the_most_present_options_are_as_brute_force_says():
    """Without the makespan the 8 options may all be present but for ``vol > 2`` (at most 4 of the 6
    with vol 3, 4 or 5): 2 + 4 options, plus the 3 fixed intervals: 9 (by hand)."""
    res = pyopl.solve(PRESENCE, solver="cpsat")
    vols = [i % 4 + 2 for i in range(1, 9)]
    assert res.status == "optimal" and res.objective == sum(v <= 2 for v in vols) + 4 + 3 == 9


# ---------------------------------------------------------------- a forall of alternatives (precedence_rows._alternatives)
ALTERNATIVES = """using CP;
int nT = 5; int nM = 3;
range T = 1..nT; range M = 1..nM;
int ok[t in T][m in M] = (t + m) mod 3 != 0 ? 1 : 0;
tuple Mode { int task; int mch; int pt; };
{Mode} Modes = {<t, m, t + m> | t in T, m in M : ok[t][m] == 1};
dvar interval task[t in T] optional;
dvar interval mode[t in T][m in M] optional size (t * m) mod 4 + 1;
dvar interval md[x in Modes] optional size x.pt;
dvar interval task2[t in T];
dvar interval fixedMode[t in T] size 2;
maximize sum(t in T) presenceOf(task[t]);
subject to {
  forall (t in T)
    alternative(task[t], all(m in M : ok[t][m] == 1) mode[t][m]);
  forall (t in T : t > 1)
    pick: alternative(task2[t], all(x in Modes : x.task == t && x.mch > 1) md[x]);
  forall (t in T)
    alternative(task2[t], all(m in 1..t - 3) fixedMode[m]);
}
"""


def test_a_forall_of_alternatives_from_arrays_is_the_row_paths(monkeypatch):
    from ortools.sat.python import cp_model
    from pyopl.backends.cp import cpsat
    from pyopl.lowering.cp import precedence_rows as R

    calls = []
    real = R._alternatives
    monkeypatch.setattr(R, "_alternatives", lambda *a: calls.append(real(*a)) or calls[-1])
    fast = pyopl.compile_model(ALTERNATIVES).ir
    assert calls == [True, True, True]
    monkeypatch.setattr(R, "_alternatives", lambda *a: False)
    slow = pyopl.compile_model(ALTERNATIVES).ir
    assert_same_bits(fast, slow)
    assert _records(fast) == _records(slow)
    assert str(cpsat.build(cp_model, fast)[0].proto) == str(cpsat.build(cp_model, slow)[0].proto)
    picks = [c.key for c in fast.cp_constraints if c.kind == "posted" and c.label == "pick"]
    assert picks == [(2,), (3,), (4,), (5,)]


def test_alternatives_solve_as_a_direct_cp_model_build():
    """The first two families solved: a task is present with exactly one of its modes (none without
    it), so with a mode for every task (``(t + m) mod 3 != 0`` holds for some m of 3) all 5 are; the
    same presences built directly with cp_model give that optimum."""
    from ortools.sat.python import cp_model

    res = pyopl.solve(ALTERNATIVES.replace("  forall (t in T)\n    alternative(task2[t], all(m in 1..t - 3) fixedMode[m]);\n",
                                           ""), solver="cpsat")
    m = cp_model.CpModel()
    present = []
    for t in range(1, 6):
        p = m.new_bool_var("p")
        modes = [m.new_bool_var("q") for k in range(1, 4) if (t + k) % 3 != 0]
        m.add(sum(modes) == p)
        present.append(p)
    m.maximize(sum(present))
    solver = cp_model.CpSolver()
    assert solver.solve(m) == cp_model.OPTIMAL
    assert res.status == "optimal" and res.objective == solver.objective_value == 5
