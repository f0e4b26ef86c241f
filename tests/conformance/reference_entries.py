"""The entries of IBM's OPL Language Quick Reference and IBM ILOG Script for OPL reference, each
with a small model of our own that exercises it (supported) or the diagnostic that names it (not
supported). ``tests/conformance/test_conf_reference.py`` runs them; ``docs/conformance.md`` lists
them (``python tests/conformance/reference_entries.py`` rewrites it).

Each entry is ``(section, name, kind, text, data, expected)``: ``kind`` "obj" (the model's optimum
must be ``expected``, computed by hand or by Python's math, never by pyopl), "out" (the scripts
print exactly ``expected``) or "code" (not supported: the diagnostic code ``expected`` and, in
``text``'s place when given, why) or "ref" (supported, shown by the test ``text`` names).
"""
from __future__ import annotations

import math

KW = "OPL Language Quick Reference: keywords"
FN = "OPL Language Quick Reference: functions"
OP = "OPL Language Quick Reference: operators"
SC = "IBM ILOG Script for OPL: classes"


def _v(expr: str, decl: str = "") -> str:
    """A model whose optimum is the data value ``expr`` (minimise x subject to x == expr)."""
    return decl + "\nfloat v = %s;\ndvar float x;\nminimize x;\nsubject to { x == v; }\n" % expr


_LP = "dvar float+ x in 0..10;\ndvar float+ y in 0..10;\n"
_X3 = "range I = 1..3;\ndvar float+ x[I] in 0..5;\nmaximize sum(i in I) i * x[i];\nsubject to { ct: sum(i in I) x[i] <= 7; }\n"
# _X3 by hand: x = [0 2 5], objective 2*2 + 3*5 = 19, ct's dual 2 (the second-best ratio)
_MIP = "dvar int x in 0..10;\ndvar int y in 0..10;\nmaximize x + y;\nsubject to { 2 * x + 2 * y <= 7; }\n"
# _MIP by hand: relaxation x + y = 3.5, integers 3
T = "tests/conformance/test_conf_script_services.py::"  # the service classes' tests (IloOplCplexVectors, ...)
_CAP = "dvar float+ x in 0..10;\ndvar float+ y in 0..10;\nmaximize x + 2 * y;\nsubject to { cap: x + y <= 12; }\n"
# _CAP by hand: y = 10, x = 2 gives 22; 5x + 2y: x = 10, y = 2 gives 54; y <= 3: x = 9, 9 + 6 = 15;
# minimising x + 2y with x >= 2: 2; cap.UB = 8: y = 8, 16; x + 2y <= 12 with objective x + 2y: 12

ENTRIES = [
    # ------------------------------------------------------------ keywords
    (KW, "all", "obj", "using CP;\ndvar int x[1..3] in 1..3;\nmaximize x[3];\nsubject to { allDifferent(all(i in 1..3) x[i] + i); }", None, 3.0),  # CP-SAT (docs/cp.md)
    (KW, "and", "obj", _LP + "maximize x + y;\nsubject to { and(i in 1..2) (x <= 3 * i); y <= 1; }", None, 4.0),
    (KW, "assert", "obj", "int n = 3;\nassert n > 0;\n" + _v("n"), None, 3.0),
    (KW, "boolean", "obj", "dvar boolean b[1..3];\nmaximize sum(i in 1..3) b[i];\nsubject to { b[1] + b[2] <= 1; }", None, 2.0),
    (KW, "constraint", "obj", "dvar float+ x;\nconstraint c;\nminimize x;\nsubject to { c = x >= 2; }", None, 2.0),
    (KW, "constraints", "obj", "dvar float+ x;\nminimize x;\nconstraints { x >= 4; }", None, 4.0),
    (KW, "CP", "obj", "using CP;\ndvar int x in 2..9;\nminimize x;\nsubject to { x != 2; }", None, 3.0),  # CP-SAT (docs/cp.md)
    (KW, "CPLEX", "obj", "using CPLEX;\ndvar float+ x;\nminimize x;\nsubject to { x >= 1; }", None, 1.0),
    (KW, "cumulFunction", "obj", "using CP;\ndvar interval a[1..2] in 0..10 size 3;\ncumulFunction f = pulse(a[1], 1) + pulse(a[2], 1);\n"
     "minimize max(i in 1..2) endOf(a[i]);\nsubject to { f <= 1; }", None, 6.0),
    (KW, "dexpr", "obj", _LP + "dexpr float t = x + 2 * y;\nmaximize t;\nsubject to { x + y <= 4; }", None, 8.0),
    (KW, "diff", "obj", _v("card({1, 2, 3} diff {2})"), None, 2.0),
    (KW, "div", "obj", _v("17 div 5"), None, 3.0),
    (KW, "dvar", "obj", "dvar int x in 2..9;\nminimize x;", None, 2.0),
    (KW, "else", "obj", "int k = 0;\ndvar float+ x;\nminimize x;\nsubject to { if (k > 0) { x >= 1; } else { x >= 5; } }", None, 5.0),
    (KW, "execute", "out", "int n = 2;\nexecute { writeln(n * 3); }\ndvar float+ x;\nminimize x;", None, "6"),
    (KW, "false", "obj", "dvar float+ x;\nminimize x;\nsubject to { (x >= 3) || false; }", None, 3.0),
    (KW, "float", "obj", _v("7 / 2.0"), None, 3.5),
    (KW, "float+", "obj", "dvar float+ x;\nminimize x;", None, 0.0),
    (KW, "forall", "obj", "dvar float x[1..3];\nminimize sum(i in 1..3) x[i];\nsubject to { forall(i in 1..3) x[i] >= i; }", None, 6.0),
    (KW, "from", "ref", "tests/test_data_sources.py::test_a_workbook_fills_sets_arrays_by_range_and_name_and_the_results_go_to_a_copy", None, None),
    (KW, "if", "obj", "int k = 1;\ndvar float+ x;\nminimize x;\nsubject to { if (k > 0) x >= 2; }", None, 2.0),
    (KW, "in", "obj", "dvar int x in 3..8;\nmaximize x;", None, 8.0),
    (KW, "include", "ref", "tests/test_language_data.py::test_include_of_a_model_file", None, None),  # (a file's folder; confined)
    (KW, "infinity", "obj", "dvar float x in -infinity..4;\nmaximize x;", None, 4.0),
    (KW, "int", "obj", _v("7 div 2", "int q = 7;"), None, 3.0),
    (KW, "int+", "obj", "dvar int+ x;\nminimize x;\nsubject to { 2 * x >= 3; }", None, 2.0),
    (KW, "intensity", "obj", "using CP;\nstepFunction W = stepwise{ 100 -> 5; 0 -> 7; 100 };\n"
     "dvar interval a size 8 intensity W;\nminimize endOf(a);", None, 10.0),  # works 0-4 and 7-9: ends at 10
    (KW, "intensity (a fraction of a unit)", "code", "pyopl takes intensities of 0 and 100, where the size is the number "
     "of working units; IBM's rounding of a fractional work total is not documented", None, "OPL0627"),
    (KW, "inter", "obj", _v("card({1, 2, 3} inter {2, 3, 4})"), None, 2.0),
    (KW, "interval", "obj", "using CP;\ndvar interval a in 2..10 size 3;\nminimize endOf(a);", None, 5.0),
    (KW, "invoke", "out", "float t[1..2] = ...;\nexecute { writeln(t); }\ndvar float+ x;\nminimize x;",
     "prepare { function half(a, n) { a[1] = a[1] / 2; return true; } }\nt = [8, 3] invoke half;", "[4 3]"),
    (KW, "key", "obj", "tuple T { key int id; float w; }\n{T} S = {<1, 2.5>, <2, 4>};\n" + _v("item(S, <2>).w"), None, 4.0),
    (KW, "main", "out", _LP + "maximize x;\nmain { thisOplModel.generate(); cplex.solve(); writeln(cplex.getObjValue()); }", None, "10"),
    (KW, "max", "obj", _v("max(i in 1..4) (i * (5 - i))"), None, 6.0),
    (KW, "maxint", "obj", _v("maxint - 2147483640"), None, 7.0),
    (KW, "maximize", "obj", _LP + "maximize x + y;", None, 20.0),
    (KW, "min", "obj", _v("min(i in 1..4) (i - 2) * (i - 2)"), None, 0.0),
    (KW, "minimize", "obj", "dvar float x in -3..3;\nminimize x;", None, -3.0),
    (KW, "mod", "obj", _v("17 mod 5"), None, 2.0),
    (KW, "not", "obj", _v("card({i | i in 1..5 : i not in {2, 4}})"), None, 3.0),
    (KW, "optional", "obj", "using CP;\ndvar interval a optional size 3;\nmaximize 5 * presenceOf(a) - startOf(a);", None, 5.0),
    (KW, "or", "obj", "dvar int x in 0..10;\nminimize x;\nsubject to { or(i in 1..2) (x >= 3 * i); }", None, 3.0),
    (KW, "ordered", "obj", "dvar float+ x[1..3][1..3];\nminimize sum(ordered i, j in 1..3) x[i][j];\n"
     "subject to { forall(ordered i, j in 1..3) x[i][j] >= j - i; }", None, 4.0),
    (KW, "piecewise", "obj", "dvar float x in 0..4;\nminimize piecewise{1 -> 2; 3} x;\nsubject to { x >= 3; }", None, 5.0),
    (KW, "prepare", "out", "int n = ...;\nexecute { writeln(n); }\ndvar float+ x;\nminimize x;",
     "prepare { function twice(v, name) { n = v * 2; return true; } }\nn = 4 invoke twice;", "8"),
    (KW, "prod", "obj", _v("prod(i in 1..4) i"), None, 24.0),
    (KW, "pwlFunction", "obj", "pwlFunction f = piecewise{1 -> 2; 3};\ndvar float x in 0..4;\nminimize f(x);\nsubject to { x >= 3; }", None, 5.0),
    (KW, "range", "obj", "range R = 2..5;\n" + _v("card(R)"), None, 4.0),
    (KW, "reversed", "obj", "reversed {int} R = {1, 2, 3};\n" + _v("first(R)"), None, 3.0),
    (KW, "sequence", "obj", "using CP;\ndvar interval a[1..2] size 2;\ndvar sequence s in a;\nminimize max(i in 1..2) endOf(a[i]);\n"
     "subject to { noOverlap(s); }", None, 4.0),
    (KW, "setof", "obj", "setof(int) S = {4, 5};\n" + _v("card(S)"), None, 2.0),
    (KW, "size", "obj", "using CP;\ndvar interval a size 2..5;\nmaximize sizeOf(a) - startOf(a);", None, 5.0),
    (KW, "sorted", "obj", "sorted {int} S = {3, 1, 2};\n" + _v("first(S)"), None, 1.0),
    (KW, "stateFunction", "obj", "using CP;\nstateFunction f;\ndvar interval a[1..2] size 2;\nminimize max(i in 1..2) endOf(a[i]);\n"
     "subject to { alwaysEqual(f, a[1], 1); alwaysEqual(f, a[2], 2); }", None, 4.0),  # two states: one after the other
    (KW, "staticLex", "obj", _LP + "maximize staticLex(x, y);\nsubject to { x + y <= 12; }", None, 10.0),
    (KW, "stepFunction", "out", "using CP;\nstepFunction F = stepwise{ 0->0; 100->20; 60->30; 100 };\nint ii = F(10);\n"
     "dvar interval a size 1;\nminimize endOf(a);\nexecute { writeln(ii); writeln(F(25)); }", None, "100\n60"),  # IBM's F2
    (KW, "stepwise", "obj", "using CP;\nint n = 2;\nint T[i in 1..n] = 4 * i;\nint V[i in 1..n+1] = 10 * i;\n"
     "stepFunction F = stepwise(i in 1..n){ V[i] -> T[i]; V[n+1] };\ndvar interval a in 0..20 size 1;\n"
     "maximize startEval(a, F) - startOf(a);", None, 22.0),  # 30 from 8 on: 30 - 8
    (KW, "string", "out", 'string s = "ab";\nexecute { writeln(s + "c"); }\ndvar float+ x;\nminimize x;', None, "abc"),
    (KW, "subject to", "obj", "dvar float+ x;\nminimize x;\nsubject to { x >= 2.5; }", None, 2.5),
    (KW, "sum", "obj", _v("sum(i in 1..4) i"), None, 10.0),
    (KW, "symdiff", "obj", _v("card({1, 2, 3} symdiff {2, 3, 4})"), None, 2.0),
    (KW, "to", "ref", "tests/test_data_sources.py::test_a_workbook_fills_sets_arrays_by_range_and_name_and_the_results_go_to_a_copy", None, None),
    (KW, "true", "obj", "dvar float+ x;\nminimize x;\nsubject to { true => x >= 2; }", None, 2.0),
    (KW, "tuple", "obj", "tuple P { int a; float b; }\nP p = <2, 1.5>;\n" + _v("p.a + p.b"), None, 3.5),
    (KW, "types", "obj", "using CP;\ntuple T { int a; int b; int d; }\n{T} M = {<0, 1, 4>, <1, 0, 4>};\nint ty[1..2] = [0, 1];\n"
     "dvar interval a[1..2] size 1;\ndvar sequence s in a types ty;\nminimize max(i in 1..2) endOf(a[i]);\n"
     "subject to { noOverlap(s, M); }", None, 6.0),  # 1 + a transition of 4 + 1
    (KW, "union", "obj", _v("card({1, 2} union {2, 3})"), None, 3.0),
    (KW, "using", "obj", "using CPLEX;\ndvar float+ x;\nminimize x;", None, 0.0),
    (KW, "with", "obj", '{string} N = {"a", "b"};\ntuple E { string f; string t; }\n{E} Es with f in N, t in N = {<"a", "b">};\n'
     + _v("card(Es)"), None, 1.0),
    (KW, "DBConnection", "ref", "tests/test_data_sources.py::test_a_sqlite_file_fills_the_model_and_takes_the_flows", None, None),
    (KW, "DBExecute", "ref", "tests/test_data_sources.py::test_dbexecute_outside_the_declared_tables_is_refused_unless_allowed", None, None),
    (KW, "DBRead", "ref", "tests/test_data_sources.py::test_a_sqlite_file_fills_the_model_and_takes_the_flows", None, None),
    (KW, "DBUpdate", "ref", "tests/test_data_sources.py::test_values_are_bound_never_formatted_into_sql", None, None),
    (KW, "SheetConnection", "ref", "tests/test_data_sources.py::test_a_workbook_fills_sets_arrays_by_range_and_name_and_the_results_go_to_a_copy", None, None),
    (KW, "SheetRead", "ref", "tests/test_data_sources.py::test_a_range_written_the_other_way_round_is_read_by_columns_and_rows_become_tuples", None, None),
    (KW, "SheetWrite", "ref", "tests/test_data_sources.py::test_a_workbook_fills_sets_arrays_by_range_and_name_and_the_results_go_to_a_copy", None, None),
    # ------------------------------------------------------------ functions
    (FN, "abs", "obj", _v("abs(-3.5)"), None, 3.5),
    (FN, "abs (of decisions)", "obj", "dvar float x in -5..5;\nminimize abs(x - 2);", None, 0.0),
    (FN, "asSet", "obj", "range R = 1..4;\n" + _v("card(asSet(R))"), None, 4.0),
    (FN, "card", "obj", _v("card({7, 8, 9})"), None, 3.0),
    (FN, "ceil", "obj", _v("ceil(2.1)"), None, float(math.ceil(2.1))),
    (FN, "exp", "obj", _v("exp(1)"), None, math.e),
    (FN, "first", "obj", _v("first({5, 6, 7})"), None, 5.0),
    (FN, "floor", "obj", _v("floor(-2.5)"), None, float(math.floor(-2.5))),
    (FN, "frac", "obj", _v("frac(2.75)"), None, 0.75),
    (FN, "ftoi", "obj", _v("ftoi(3.9)"), None, 3.0),
    (FN, "item", "obj", _v("item({5, 6, 7}, 1)"), None, 6.0),
    (FN, "last", "obj", _v("last({5, 6, 7})"), None, 7.0),
    (FN, "ln", "obj", _v("ln(10)"), None, math.log(10)),
    (FN, "log", "obj", _v("log(100) + log(20)"), None, 2 + math.log10(20)),  # base 10 (IBM: log(100) gives 2)
    (FN, "lg", "obj", _v("lg(128) + lg(20)"), None, 7 + math.log2(20)),  # base 2 (IBM: lg(128) gives 7)
    (FN, "maxl", "obj", _v("maxl(3, 9, 4)"), None, 9.0),
    (FN, "minl", "obj", _v("minl(3, 9, 4)"), None, 3.0),
    (FN, "next", "obj", _v("next({5, 6, 7}, 6)"), None, 7.0),
    (FN, "nextc", "obj", _v("nextc({5, 6, 7}, 7)"), None, 5.0),
    (FN, "ord", "obj", _v("ord({5, 6, 7}, 7)"), None, 2.0),
    (FN, "pow", "obj", _v("pow(2, 10)"), None, 1024.0),
    (FN, "prev", "obj", _v("prev({5, 6, 7}, 6)"), None, 5.0),
    (FN, "prevc", "obj", _v("prevc({5, 6, 7}, 5)"), None, 7.0),
    (FN, "round", "obj", _v("round(2.6)"), None, 3.0),
    (FN, "sgn", "obj", _v("sgn(-4)"), None, -1.0),
    (FN, "sqrt", "obj", _v("sqrt(2.25)"), None, 1.5),
    (FN, "trunc", "obj", _v("trunc(-2.7)"), None, float(math.trunc(-2.7))),
    (FN, "alternative", "obj", "using CP;\ndvar interval a;\ndvar interval b[i in 1..2] optional size 2 * i;\nmaximize sizeOf(a);\n"
     "subject to { alternative(a, b); }", None, 4.0),
    (FN, "allDifferent", "obj", "using CP;\ndvar int x[1..3] in 1..3;\nmaximize x[1] + 2 * x[2];\nsubject to { allDifferent(x); }", None, 8.0),
    (FN, "allMinDistance", "obj", "using CP;\ndvar int x[1..3] in 0..9;\nminimize sum(i in 1..3) x[i];\nsubject to { allMinDistance(x, 2); }", None, 6.0),  # 0, 2, 4
    (FN, "allowedAssignments", "obj", "using CP;\ntuple C { int a; int b; }\n{C} ok = {<1, 1>, <2, 4>, <3, 0>};\n"
     "dvar int x in 0..5;\ndvar int y in 0..5;\nmaximize x + y;\nsubject to { allowedAssignments(ok, x, y); }", None, 6.0),  # <2, 4>
    (FN, "count", "obj", "using CP;\ndvar int x[1..3] in 0..3;\nmaximize sum(i in 1..3) x[i];\nsubject to { count(x, 3) <= 1; }", None, 7.0),
    (FN, "endOf", "obj", "using CP;\ndvar interval a in 1..20 size 4;\nminimize endOf(a);", None, 5.0),
    (FN, "forbiddenAssignments", "obj", "using CP;\ntuple C { int a; int b; }\n{C} no = {<3, 3>, <3, 2>};\n"
     "dvar int x in 0..3;\ndvar int y in 0..3;\nmaximize x + y;\nsubject to { forbiddenAssignments(no, x, y); }", None, 5.0),  # <2, 3>
    (FN, "inverse", "obj", "using CP;\ndvar int f[1..3] in 1..3;\ndvar int g[1..3] in 1..3;\nmaximize 3 * g[1] + f[2];\n"
     "subject to { inverse(f, g); }", None, 12.0),  # f = [2, 3, 1], g = [3, 1, 2]
    (FN, "lex", "obj", "using CP;\ndvar int x[1..2] in 0..3;\nmaximize 4 * x[1] + x[2];\nsubject to { lex(x, [2, 1]); }", None, 9.0),
    (FN, "noOverlap", "obj", "using CP;\ndvar interval a[1..3] size 2;\nminimize max(i in 1..3) endOf(a[i]);\nsubject to { noOverlap(a); }", None, 6.0),
    (FN, "pack", "obj", "using CP;\ndvar int l[1..2] in 0..2;\ndvar int w[1..3] in 1..2;\nminimize l[1];\n"
     "subject to { pack(l, w, [1, 1, 1]); }", None, 1.0),
    (FN, "presenceOf", "obj", "using CP;\ndvar interval a optional size 2;\ndvar interval b optional size 3;\n"
     "maximize presenceOf(a) + 2 * presenceOf(b);\nsubject to { presenceOf(a) + presenceOf(b) <= 1; }", None, 2.0),
    (FN, "span", "obj", "using CP;\ndvar interval a;\ndvar interval b[1..2] in 0..20 size 3;\nminimize lengthOf(a);\n"
     "subject to { span(a, b); noOverlap(b); }", None, 6.0),
    (FN, "startOf", "obj", "using CP;\ndvar interval a in 4..20 size 2;\nminimize startOf(a);", None, 4.0),
    (FN, "synchronize", "obj", "using CP;\ndvar interval a in 0..10 size 2;\ndvar interval b[1..2] in 0..10 size 2;\n"
     "maximize startOf(b[1]) + startOf(b[2]) - startOf(a);\nsubject to { synchronize(a, b); }", None, 8.0),
    (FN, "endBeforeStart", "obj", "using CP;\ndvar interval a size 2;\ndvar interval b size 3;\nminimize endOf(b);\n"
     "subject to { endBeforeStart(a, b, 4); }", None, 9.0),  # 2 + 4 + 3
    (FN, "pulse", "obj", "using CP;\ndvar interval a[1..3] size 2;\nminimize max(i in 1..3) endOf(a[i]);\n"
     "subject to { sum(i in 1..3) pulse(a[i], 2) <= 4; }", None, 4.0),
    (FN, "stepAtStart", "obj", "using CP;\ndvar interval a in 0..10 size 1;\ndvar interval b in 0..10 size 1;\nminimize startOf(a);\n"
     "subject to { stepAtStart(a, -1) + stepAtEnd(b, 1) >= 0; }", None, 1.0),  # b ends (at 1) before a starts
    (FN, "alwaysIn", "obj", "using CP;\ndvar interval a[1..2] in 0..10 size 2;\nminimize sum(i in 1..2) startOf(a[i]);\n"
     "subject to { alwaysIn(pulse(a[1], 1) + pulse(a[2], 1), 0, 5, 0, 1); }", None, 2.0),  # 0 and 2
    (FN, "sizeOf", "obj", "using CP;\ndvar interval a size 1..7;\nmaximize sizeOf(a) - 2 * lengthOf(a) + 10;", None, 9.0),  # size = length, at least 1
    # CP scheduling functions of the Quick Reference: those CP-SAT runs (docs/cp.md), then those it does not yet (OPL0627)
    (FN, "endAtEnd", "obj", "using CP;\ndvar interval a in 5..20 size 2;\ndvar interval b size 3;\nminimize endOf(b);\nsubject to { endAtEnd(a, b, 1); }", None, 8.0),  # a ends at 7 at the earliest: b ends at 7 + 1
    (FN, "endAtStart", "obj", "using CP;\ndvar interval a in 3..20 size 2;\ndvar interval b size 1;\nminimize startOf(b);\nsubject to { endAtStart(a, b, 2); }", None, 7.0),  # a ends at 5 at the earliest: b starts at 5 + 2
    (FN, "endBeforeEnd", "obj", "using CP;\ndvar interval a size 2;\ndvar interval b size 3;\nminimize endOf(b);\nsubject to { endBeforeEnd(a, b, 4); }", None, 6.0),  # a ends at 2 at the earliest: b ends at 2 + 4
    (FN, "startAtEnd", "obj", "using CP;\ndvar interval a in 4..20 size 1;\ndvar interval b size 3;\nminimize endOf(b);\nsubject to { startAtEnd(a, b, 1); }", None, 5.0),  # a starts at 4 at the earliest: b ends at 4 + 1
    (FN, "startAtStart", "obj", "using CP;\ndvar interval a in 4..20 size 1;\ndvar interval b size 1;\nminimize startOf(b);\nsubject to { startAtStart(a, b, 3); }", None, 7.0),  # 4 + 3
    (FN, "startBeforeEnd", "obj", "using CP;\ndvar interval a in 4..20 size 1;\ndvar interval b size 2;\nminimize endOf(b);\nsubject to { startBeforeEnd(a, b, 3); }", None, 7.0),  # end of b at least 4 + 3
    (FN, "startBeforeStart", "obj", "using CP;\ndvar interval a in 4..20 size 1;\ndvar interval b size 2;\nminimize startOf(b);\nsubject to { startBeforeStart(a, b, 3); }", None, 7.0),  # start of b at least 4 + 3
    (FN, "before", "obj", "using CP;\ndvar interval a[1..2] size 2;\ndvar sequence s in a;\nminimize endOf(a[1]);\nsubject to { noOverlap(s); before(s, a[2], a[1]); }", None, 4.0),  # a[2] on [0, 2), a[1] on [2, 4)
    (FN, "first (on a sequence)", "obj", "using CP;\ndvar interval a[1..2] size 2;\ndvar sequence s in a;\nminimize endOf(a[1]);\nsubject to { noOverlap(s); first(s, a[2]); }", None, 4.0),  # a[2] first: a[1] ends at 2 + 2
    (FN, "last (on a sequence)", "obj", "using CP;\ndvar interval a[i in 1..2] size i + 1;\ndvar sequence s in a;\nminimize endOf(a[1]);\nsubject to { noOverlap(s); last(s, a[1]); }", None, 5.0),  # a[2] (size 3) first, a[1] (size 2) ends at 5
    (FN, "prev (on a sequence)", "obj", "using CP;\ndvar interval a[1..3] size 1;\ndvar sequence s in a;\nminimize endOf(a[1]);\nsubject to { noOverlap(s); prev(s, a[2], a[3]); prev(s, a[3], a[1]); }", None, 3.0),  # order a[2], a[3], a[1]
    (FN, "forbidStart", "obj", "using CP;\nstepFunction F = stepwise{ 0 -> 3; 1 };\ndvar interval a size 2;\n"
     "minimize startOf(a);\nsubject to { forbidStart(a, F); }", None, 3.0),  # F is 0 before 3
    (FN, "forbidEnd", "obj", "using CP;\nstepFunction F = stepwise{ 1 -> 4; 0 -> 6; 1 };\ndvar interval a in 0..20 size 5;\n"
     "minimize endOf(a);\nsubject to { forbidEnd(a, F); }", None, 7.0),  # F(end - 1) != 0: end 5, 6 refused
    (FN, "forbidExtent", "obj", "using CP;\nstepFunction F = stepwise{ 1 -> 4; 0 -> 6; 1 };\ndvar interval a in 0..20 size 3;\n"
     "maximize startOf(a);\nsubject to { forbidExtent(a, F); endOf(a) <= 9; }", None, 6.0),  # not over 4, 5: [6, 9) (start 4, 5 refused)
    (FN, "isomorphism", "obj", "using CP;\ndvar interval a[1..2] size 2;\ndvar interval b[1..3] optional size 2;\n"
     "maximize sum(j in 1..3) j * presenceOf(b[j]) - sum(i in 1..2) endOf(a[i]);\nsubject to { isomorphism(a, b); }",
     None, 1.0),  # two of b present (b[2], b[3]: 5), each with an a: ends 2 + 2
    (FN, "isomorphism (with an index array)", "code", "IBM's pages describe the direction of the index array two ways",
     None, "OPL0627"),
    (KW, "stateFunction (an array)", "obj", "using CP;\nstateFunction f[1..2];\ndvar interval a[1..4] size 2;\n"
     "minimize max(i in 1..4) endOf(a[i]);\nsubject to { forall(i in 1..4) alwaysEqual(f[1 + i % 2], a[i], i); }",
     None, 4.0),  # four states: one function needs 8; two functions (a1, a3 and a2, a4) need 4
    (FN, "alwaysConstant", "obj", "using CP;\nstateFunction f;\ndvar interval a size 3;\ndvar interval b size 2;\n"
     "minimize endOf(a) + endOf(b);\nsubject to { alwaysConstant(f, a, true, false); alwaysEqual(f, b, 1); "
     "alwaysIn(f, a, 2, 3); }", None, 7.0),  # a's state is 2..3, b's 1: apart, b on [0, 2), a on [2, 5)
    (FN, "alwaysEqual (a fixed window, aligned)", "obj", "using CP;\nstateFunction f;\ndvar interval a size 2;\n"
     "minimize abs(startOf(a) - 2);\nsubject to { alwaysEqual(f, 1, 5, 1); alwaysEqual(f, a, 1, true, false); }",
     None, 1.0),  # a (state 1) starts a segment: not at 2 or 3, inside the window [1, 5) kept in one segment; at 1
    (FN, "alwaysEqual", "obj", "using CP;\nstateFunction f;\ndvar interval a[1..3] size 2;\nminimize max(i in 1..3) endOf(a[i]);\n"
     "subject to { alwaysEqual(f, a[1], 1); alwaysEqual(f, a[2], 1); alwaysEqual(f, a[3], 2); }", None, 4.0),  # a[1], a[2] together on [0, 2), a[3] on [2, 4)
    (FN, "alwaysNoState", "obj", "using CP;\nstateFunction f;\ndvar interval a in 0..20 size 3;\n"
     "minimize startOf(a);\nsubject to { alwaysNoState(f, 0, 5); alwaysEqual(f, a, 0); }", None, 5.0),  # no state on [0, 5)
    (FN, "lengthOf", "obj", "using CP;\ndvar interval a in 2..20 size 3;\nminimize lengthOf(a) + startOf(a);", None, 5.0),  # length 3, earliest start 2
    (FN, "overlapLength", "obj", "using CP;\ndvar interval a in 0..10 size 3;\ndvar interval b in 0..10 size 1;\nmaximize 10 * overlapLength(a, 2, 4) + overlapLength(a, b) - startOf(b);", None, 20.0),  # a over [2, 4) entirely (2 * 10, a starts at 1 or 2); b gains its overlap 1 back only by starting at 1 or later
    (FN, "startEval", "obj", "using CP;\nstepFunction F = stepwise{ 5 -> 2; 9 -> 6; 1 };\ndvar interval a in 0..10 size 1;\n"
     "maximize startEval(a, F) - startOf(a);", None, 7.0),  # 9 at start 2
    (FN, "endEval (of a pwlFunction, IBM's earliness/tardiness example)", "obj", "using CP;\n"
     "pwlFunction ETCost = piecewise { -1->10; 1 } (10, 0);\ndvar interval a[1..2] size 4;\n"
     "minimize sum(i in 1..2) endEval(a[i], ETCost);\nsubject to { noOverlap(a); }", None, 4.0),  # ends 10 and 14, or 6 and 10
    (FN, "endEval", "obj", "using CP;\nstepFunction F = stepwise{ 5 -> 2; 9 -> 6; 1 };\ndvar interval a optional in 0..10 size 3;\n"
     "maximize endEval(a, F, 7) + presenceOf(a);", None, 10.0),  # end 3..5: 9, present: 10
    (FN, "lengthEval", "obj", "using CP;\nstepFunction F = stepwise{ 5 -> 2; 9 -> 6; 1 };\ndvar interval a in 0..10 size 1..8;\n"
     "maximize lengthEval(a, F) + lengthOf(a);", None, 14.0),  # length 5: 9 + 5
    (FN, "sizeEval", "obj", "using CP;\nstepFunction F = stepwise{ 5 -> 2; 9 -> 6; 1 };\ndvar interval a in 0..10 size 0..8;\n"
     "minimize sizeEval(a, F) + sizeOf(a);", None, 5.0),  # size 0: F(0) = 5; size 1: 6; 2..5: 11 or more; 6..8: 7 or more
    (FN, "startOfNext", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize startOfNext(s, a[1]);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 2.0),  # a[2] starts when a[1] ends
    (FN, "startOfPrev", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize startOfPrev(s, a[2]);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 0.0),  # a[1] starts at 0
    (FN, "endOfNext", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize endOfNext(s, a[1]);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 4.0),  # a[2] on [2, 4)
    (FN, "endOfPrev", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize endOfPrev(s, a[2]);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 2.0),  # a[1] on [0, 2)
    (FN, "lengthOfNext", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize lengthOfNext(s, a[1]);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 2.0),  # a[2]'s length
    (FN, "lengthOfPrev", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize lengthOfPrev(s, a[2]);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 2.0),  # a[1]'s length
    (FN, "sizeOfNext", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize sizeOfNext(s, a[1]) + 10 * sizeOfNext(s, a[2], 1, 0);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 12.0),  # a[2]'s size 2, then lastValue 1
    (FN, "sizeOfPrev", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize sizeOfPrev(s, a[2]) + 10 * sizeOfPrev(s, a[1], 1, 0);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 12.0),  # a[1]'s size 2, then firstValue 1
    (FN, "typeOfNext", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize typeOfNext(s, a[2], 7, 0);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 7.0),  # a[2] is last: lastValue
    (FN, "typeOfPrev", "obj", "using CP;\nint ty[1..2] = [3, 5];\ndvar interval a[1..2] size 2;\ndvar sequence s in a types ty;\nminimize typeOfPrev(s, a[2], 7, 0);\nsubject to { noOverlap(s); first(s, a[1]); }", None, 3.0),  # a[1] comes just before a[2]
    (FN, "heightAtStart", "obj", "using CP;\ndvar interval a size 2;\ncumulFunction f = pulse(a, 1, 3);\nmaximize heightAtStart(a, f);\nsubject to { f <= 2; }", None, 2.0),  # the chosen height, capped by f <= 2
    (FN, "heightAtEnd", "obj", "using CP;\ndvar interval a in 0..10 size 2;\ndvar interval b optional in 0..10 size 1;\n"
     "cumulFunction f = stepAtEnd(a, 1, 4) - stepAtEnd(b, 2);\nmaximize heightAtEnd(a, f) + heightAtEnd(b, f, 7);\n"
     "subject to { f <= 10; }", None, 11.0),  # a's chosen height 4; b absent gives 7 (present: -2)
    (FN, "heightAtEnd (of an interval with a pulse)", "code", "IBM's pages do not say what the end of a pulse "
     "contributes", None, "OPL0627"),
    (FN, "step", "obj", "using CP;\ndvar interval a in 0..10 size 1;\nminimize startOf(a);\nsubject to { step(3, 1) + stepAtStart(a, -1) >= 0; }", None, 3.0),  # a starts once the step at 3 is up
    (FN, "stepAtEnd", "obj", "using CP;\ndvar interval a in 0..10 size 2;\ndvar interval b in 0..10 size 1;\nminimize startOf(b);\nsubject to { stepAtEnd(a, 1) + stepAtStart(b, -1) >= 0; }", None, 2.0),  # b starts once a has ended (at 2)
    # ------------------------------------------------------------ operators
    (OP, "+ (binary)", "obj", _v("2 + 3.5"), None, 5.5),
    (OP, "- (binary)", "obj", _v("2 - 3.5"), None, -1.5),
    (OP, "- (unary)", "obj", _v("-(4)"), None, -4.0),
    (OP, "*", "obj", _v("2.5 * 4"), None, 10.0),
    (OP, "/", "obj", _v("7 / 4"), None, 1.75),
    (OP, "%", "obj", _v("17 % 5"), None, 2.0),
    (OP, "==", "obj", _v("(3 == 3) + (3 == 4)"), None, 1.0),
    (OP, "!=", "obj", "dvar int x in 0..5;\nmaximize x;\nsubject to { x != 5; }", None, 4.0),
    (OP, "<", "obj", "dvar int x in 0..5;\nmaximize x;\nsubject to { x < 5; }", None, 4.0),
    (OP, "<=", "obj", "dvar float x in 0..5;\nmaximize x;\nsubject to { x <= 3.5; }", None, 3.5),
    (OP, ">", "obj", "dvar int x in 0..5;\nminimize x;\nsubject to { x > 2; }", None, 3.0),
    (OP, ">=", "obj", "dvar float x in 0..5;\nminimize x;\nsubject to { x >= 1.5; }", None, 1.5),
    (OP, "&&", "obj", "dvar float x in 0..10;\nmaximize x;\nsubject to { (x <= 7) && (x <= 8); }", None, 7.0),
    (OP, "||", "obj", "dvar int x in 0..10;\nminimize x;\nsubject to { (x >= 4) || (x >= 6); }", None, 4.0),
    (OP, "!", "obj", "dvar int x in 0..10;\nmaximize x;\nsubject to { !(x >= 6); }", None, 5.0),
    (OP, "=>", "obj", "dvar boolean b;\ndvar float x in 0..10;\nmaximize x - b;\nsubject to { b == 0 => x <= 4; }", None, 9.0),
    (OP, "?:", "obj", _v("(2 > 1) ? 5 : 7"), None, 5.0),
    (OP, "in (membership)", "obj", _v("(2 in {1, 2}) + (5 in {1, 2})"), None, 1.0),
    (OP, "not in", "obj", _v("(5 not in {1, 2})"), None, 1.0),
    (OP, ".. (range)", "obj", _v("card(3..7)"), None, 5.0),
    (OP, "... (external data)", "obj", "int n = ...;\n" + _v("n"), "n = 6;", 6.0),
    (OP, "lo <= e <= hi (ranged)", "obj", "dvar float x;\nminimize x;\nsubject to { 2 <= x <= 9; }", None, 2.0),
    (OP, "x[i][j] and x[i,j]", "obj", "dvar float+ x[1..2][1..2];\nminimize x[1][2] + x[2,1];\nsubject to { x[1,2] >= 1; x[2][1] >= 2; }", None, 3.0),
    (OP, "<...> tuple literal", "obj", "tuple P { int a; int b; }\n{P} S = {<1, 2>, <3, 4>};\n" + _v("(<3, 4> in S) + 0"), None, 1.0),
    (OP, "{e | q : filter} set comprehension", "obj", _v("card({i * i | i in 1..6 : i mod 2 == 0})"), None, 3.0),
    (OP, "[e | q] array comprehension", "obj", "float a[i in 1..3] = i * 2;\n" + _v("a[3]"), None, 6.0),
    (OP, "#[k: v]# keyed array", "obj", "int n = ...;\nfloat a[1..2] = ...;\n" + _v("a[2]"), "n = 1;\na = #[2: 5, 1: 3]#;", 5.0),
    # ------------------------------------------------------------ IBM ILOG Script for OPL
    (SC, "IloOplModel.generate", "out", _LP + "maximize x;\nmain { thisOplModel.generate(); writeln(cplex.solve()); }", None, "true"),
    (SC, "IloOplModel.postProcess", "out", _LP + "maximize x;\nexecute { writeln(\"post \", x); }\n"
     "main { thisOplModel.generate(); cplex.solve(); thisOplModel.postProcess(); }", None, "post 10"),
    (SC, "IloOplModel.printSolution", "out", "dvar float x in 0..2;\nmaximize x;\nexecute { thisOplModel.printSolution(); }", None,
     "// solution (optimal) with objective 2\nx = 2;"),
    (SC, "IloOplModel.getObjValue", "out", _X3 + "execute { writeln(thisOplModel.getObjValue()); }", None, "19"),
    (SC, "IloOplModel.hasObjective", "out", _LP + "maximize x;\nmain { thisOplModel.generate(); writeln(thisOplModel.hasObjective()); }", None, "true"),
    (SC, "IloOplModel.resolvePath", "out", "dvar float+ x;\nminimize x;\nexecute { writeln(thisOplModel.resolvePath(\"/a/b.txt\")); }", None, "/a/b.txt"),
    (SC, "IloOplModel.printConflict", "out", "dvar float+ x;\nminimize x;\nsubject to { lo: x >= 3; hi: x <= 1; }\n"
     "main { thisOplModel.generate(); if (!cplex.solve()) writeln(thisOplModel.printConflict()); }", None, "@lo"),
    (SC, "IloOplModel.addDataSource", "out", "int n = ...;\nmain {\n var src = new IloOplModelSource(\"m.mod\");\n"
     " var def = new IloOplModelDefinition(src);\n var m = new IloOplModel(def, cplex);\n var d = new IloOplDataElements();\n"
     " d.n = 5;\n m.addDataSource(d);\n m.generate();\n writeln(m.n);\n}\ndvar float+ x;\nminimize x;", "n = 1;", "5"),
    (SC, "IloOplModel elements (with thisOplModel)", "out", "int n = 4;\ndvar float+ x;\nminimize x;\nexecute { writeln(thisOplModel.n); }", None, "4"),
    (SC, "IloOplModel.convertAllIntVars", "out", _MIP + "main { thisOplModel.generate(); thisOplModel.convertAllIntVars(); "
     "cplex.solve(); writeln(cplex.getObjValue()); }", None, "3.5"),
    (SC, "IloOplModel.unconvertAllIntVars", "out", _MIP + "main { thisOplModel.generate(); thisOplModel.convertAllIntVars(); "
     "thisOplModel.unconvertAllIntVars(); cplex.solve(); writeln(cplex.getObjValue()); }", None, "3"),
    (SC, "IloOplModel.printRelaxation", "ref", "tests/conformance/test_conf_script_flow.py::test_print_relaxation_moves_the_cheapest_bound", None, None),
    (SC, "IloOplModel.applyOpsSettings", "ref", "tests/conformance/test_conf_script_flow.py::test_apply_ops_settings_reads_the_cplex_category", None, None),
    (SC, "IloOplModel.setPoolSolution", "ref", "tests/conformance/test_conf_script_flow.py::test_populate_fills_gurobis_pool", None, None),
    (SC, "IloOplModel elements (for-in iteration)", "ref", "tests/conformance/test_conf_script_flow.py::test_for_in_visits_the_elements_declared_so_far", None, None),
    (SC, "IloCplex.solve", "out", _LP + "maximize x + y;\nmain { thisOplModel.generate(); cplex.solve(); writeln(cplex.getObjValue()); }", None, "20"),
    (SC, "IloCplex.getObjValue", "out", _X3 + "execute { writeln(cplex.getObjValue()); }", None, "19"),
    (SC, "IloCplex.getBestObjValue", "out", _X3 + "execute { writeln(cplex.getBestObjValue()); }", None, "19"),
    (SC, "IloCplex.getCplexStatus", "out", _X3 + "execute { writeln(cplex.getCplexStatus()); }", None, "1"),
    (SC, "IloCplex.getCplexTime", "out", _X3 + "execute { var t = cplex.getCplexTime(); writeln(cplex.getCplexTime() >= t); }", None, "true"),
    (SC, "IloCplex.tilim (parameters)", "out", "execute { cplex.tilim = 30; writeln(cplex.tilim); }\n" + _X3, None, "30"),
    (SC, "IloCplex.eplin", "out", "execute { cplex.eplin = 0.5; }\ndvar float x in 0..10;\nmaximize x;\nsubject to { x != 10; }\n"
     "execute { writeln(x); }", None, "9.5"),
    (SC, "IloCplex.getMIPRelativeGap", "out", "dvar int x in 0..3;\nmaximize x;\nexecute { writeln(cplex.getMIPRelativeGap()); }", None, "0"),
    (SC, "IloCplex.populate", "ref", "tests/conformance/test_conf_script_flow.py::test_populate_fills_gurobis_pool", None, None),
    (SC, "IloCplex.populate (CPLEX)", "ref", "tests/conformance/test_conf_script_flow.py::test_populate_on_cplex_with_aggressive_intensity", None, None),
    (SC, "IloCplex.populate (HiGHS: no pool, warning OPL1068)", "ref", "tests/conformance/test_conf_script_flow.py::test_populate_on_highs_warns_and_keeps_one_solution", None, None),
    (SC, "IloCplex.solnPoolNsolns", "ref", "tests/conformance/test_conf_script_flow.py::test_populate_fills_gurobis_pool", None, None),
    (SC, "IloCplex.getObjValue(k) (pool member)", "ref", "tests/conformance/test_conf_script_flow.py::test_pool_index_outside_the_pool", None, None),
    (SC, "IloCplex.exportModel", "ref", "tests/conformance/test_conf_script_objects.py::test_export_model_to_the_output_folder",
     None, None),
    (SC, "IloCplex.setObjCoef", "out", _CAP + "main { thisOplModel.generate(); cplex.setObjCoef(thisOplModel.x, 5); "
     "cplex.solve(); writeln(cplex.getObjValue()); }", None, "54"),
    (SC, "IloCplex.setUb", "out", _CAP + "main { thisOplModel.generate(); cplex.setUb(thisOplModel.y, 3); "
     "cplex.solve(); writeln(cplex.getObjValue()); }", None, "15"),
    (SC, "IloCplex.setLb", "out", _CAP.replace("maximize", "minimize") + "main { thisOplModel.generate(); "
     "cplex.setLb(thisOplModel.x, 2); cplex.solve(); writeln(cplex.getObjValue()); }", None, "2"),
    (SC, "constraint .UB (assigned in main)", "out", _CAP + "main { thisOplModel.generate(); thisOplModel.cap.UB = 8; "
     "cplex.solve(); writeln(cplex.getObjValue()); }", None, "16"),
    (SC, "constraint .setCoef / .getCoef", "out", _CAP + "main { thisOplModel.generate(); "
     "thisOplModel.cap.setCoef(thisOplModel.y, 2); cplex.solve(); "
     "writeln(thisOplModel.cap.getCoef(thisOplModel.y), \" \", cplex.getObjValue()); }", None, "2 12"),
    (SC, "IloCplex.solveFixed", "ref", "tests/conformance/test_conf_script_flow.py::test_solve_fixed_gives_the_duals_of_the_fixed_lp", None, None),
    (SC, "IloCplex.clearModel", "ref", "tests/conformance/test_conf_script_flow.py::test_clear_model_forgets_the_generated_model", None, None),
    (SC, "IloOplDataElements", "out", "int n = ...;\nmain {\n var src = new IloOplModelSource(\"m.mod\");\n"
     " var def = new IloOplModelDefinition(src);\n var m = new IloOplModel(def, cplex);\n var d = new IloOplDataElements();\n"
     " d.n = 2;\n m.addDataSource(d);\n m.generate();\n cplex.solve();\n writeln(cplex.getObjValue());\n}\n"
     "dvar float+ x;\nminimize x;\nsubject to { x >= n; }", "n = 1;", "2"),
    (SC, "IloOplModelSource / IloOplModelDefinition", "out", "int n = 3;\nmain {\n var src = new IloOplModelSource(\"m.mod\");\n"
     " var def = new IloOplModelDefinition(src);\n var m = new IloOplModel(def, cplex);\n m.generate();\n writeln(m.n);\n}\n"
     "dvar float+ x;\nminimize x;", None, "3"),
    (SC, "IloOplOutputFile.writeln / close", "out", "dvar float+ x;\nminimize x;\nexecute { var f = new IloOplOutputFile(\"conf_out.txt\"); "
     "f.writeln(\"hi\"); f.close(); writeln(f.exists); }", None, "true"),
    (SC, "IloOplOutputFile.exists", "out", "dvar float+ x;\nminimize x;\nexecute { var f = new IloOplOutputFile(\"never.txt\"); "
     "writeln(f.exists); }", None, "false"),
    (SC, "IloOplInputFile (readline, eof, close)", "out", "// first line\nexecute { var f = new IloOplInputFile(\"m.mod\"); "
     "var n = 0; var first = f.readline(); n++; while (!f.eof) { f.readline(); n++; } f.close(); writeln(first, \" \", n); }\n"
     "dvar float+ x;\nminimize x;", None, "// first line 4"),
    (SC, "IloOplDataElements (for-in iteration)", "ref", "tests/conformance/test_conf_script_flow.py::test_for_in_over_data_elements_gives_their_names", None, None),
    (SC, "IloOplInputFile.exists / isOpen", "ref", "tests/conformance/test_conf_script_flow.py::test_input_file_exists_and_is_open_are_properties", None, None),
    (SC, "IloOplOutputFile.isOpen", "ref", "tests/conformance/test_conf_script_flow.py::test_input_file_exists_and_is_open_are_properties", None, None),
    (SC, "IloOplOutputString (write, writeln, getString)", "out", "dvar float+ x;\nminimize x;\nexecute { var s = new IloOplOutputString(); "
     "s.write(\"a\", 1); s.writeln(\" b\"); s.write(2 + 3); writeln(\"[\", s.getString(), \"]\"); }", None, "[a1 b\n5]"),
    (SC, "includeScript / loadFile", "ref", "tests/conformance/test_conf_script_flow.py::test_include_script_runs_a_file_as_global_code", None, None),
    (SC, "IloOplCplexBasis (getBasis, setBasis, Nrows, Ncols, status)", "ref",
     T + "test_basis_of_one_solve_warm_starts_the_next_with_no_simplex_iteration", None, None),
    (SC, "IloOplCplexBasis.getBasis after a MIP (false)", "ref", T + "test_basis_of_a_mip_is_not_saved", None, None),
    (SC, "IloOplCplexBasis.attach", "code", "statuses of chosen variables are not supported: getBasis/setBasis save and "
     "restore the whole basis (HiGHS's)", None, "OPL1057"),
    (SC, "IloOplCplexVectors (attach, setVectors)", "ref", T + "test_attached_start_values_are_the_solvers_first_incumbent",
     None, None),
    (SC, "IloOplCplexVectors (getStart, setStart, Nrows, Ncols, status)", "ref",
     T + "test_vectors_save_a_solution_and_restore_it_on_a_model_of_the_same_shape", None, None),
    (SC, "IloOplCplexVectors.attach (values of another shape)", "ref", T + "test_attach_with_values_of_another_shape_is_an_error",
     None, None),
    (SC, "IloOplConflictIterator (ct, status, printConflict, recalculate)", "ref",
     T + "test_conflict_iterator_visits_the_conflicting_constraints_with_their_status", None, None),
    (SC, "IloOplConflictIterator (feasible model; new IloOplConflictIterator(m))", "ref",
     T + "test_conflict_iterator_of_a_feasible_model_is_empty_and_attach_takes_constraints", None, None),
    (SC, "IloOplConflictIterator.attach / excludeConflict / clearAttachments", "ref",
     "tests/conformance/test_conf_mp_round3.py::test_conflict_iterator_with_preferences_and_excluded_conflicts", None, None),
    (SC, "IloOplRelaxationIterator (ct, LB, UB, relaxedLB, relaxedUB, printRelaxation)", "ref",
     T + "test_relaxation_iterator_gives_each_relaxed_constraint_with_its_bounds", None, None),
    (SC, "IloOplRelaxationIterator.attach", "ref", "tests/conformance/test_conf_mp_round3.py::"
     "test_relaxation_iterator_with_preferences_prices_each_unit_one_over_the_preference", None, None),
    (SC, "IloOplModel.printExternalData / printInternalData", "ref",
     T + "test_print_external_and_internal_data_in_dat_syntax", None, None),
    (SC, "IloOplDataSource.name / IloOplModelSource.name", "out", "int n = ...;\ndvar float+ x;\nminimize x;\n"
     "main { var s = new IloOplModelSource(\"m.mod\"); var d = new IloOplDataSource(\"m.dat\"); writeln(s.name, \" \", d.name); }",
     "n = 1;", "m.mod m.dat"),
    (SC, "IloOplProfiler", "code", "no profiler", None, "OPL1057"),
    (SC, "IloOplSettings (settings)", "out", "execute { settings.displayPrecision = 4; writeln(settings.displayPrecision); }\n"
     "dvar float+ x;\nminimize x;", None, "4"),
    (SC, "dvar item .LB / .UB", "out", "dvar float x in 0..10;\nexecute { x.UB = 3; }\nmaximize x;\nexecute { writeln(x); }", None, "3"),
    (SC, "dvar .solutionValue (item)", "out", _X3 + "execute { writeln(x[3].solutionValue); }", None, "5"),
    (SC, "dvar .solutionValue (array)", "out", _X3 + "execute { writeln(x.solutionValue); }", None, "[0 2 5]"),
    (SC, "dvar .reducedCost", "out", "dvar float+ x;\ndvar float+ y;\nminimize x + 3 * y;\nsubject to { x + y >= 2; }\n"
     "execute { writeln(y.reducedCost); }", None, "2"),
    (SC, "dvar .name / constraint .name", "out", _X3 + "execute { writeln(x[2].name, \" \", ct.name); }", None, "x[2] ct"),
    (SC, "dvar array .size", "out", _X3 + "execute { writeln(x.size); }", None, "3"),
    (SC, "IloCplex.getNiterations / getNnodes", "out", _MIP + "execute { writeln(cplex.getNiterations() >= 0, \" \", "
     "cplex.getNnodes() >= 0); }", None, "true true"),
    (SC, "constraint .dual", "out", _X3 + "execute { writeln(ct.dual); }", None, "2"),
    (SC, "constraint .slack", "out", _X3 + "execute { writeln(ct.slack); }", None, "0"),
    (SC, "constraint .UB / .LB (read)", "out", _X3 + "execute { writeln(ct.UB); }", None, "7"),
    (SC, "dexpr value", "out", "dvar float x in 0..4;\ndexpr float d = 2 * x;\nmaximize d;\nexecute { writeln(d); }", None, "8"),
    (SC, "range .size / for-in", "out", "range R = 2..4;\nexecute { var s = 0; for (var r in R) s += r; writeln(R.size, \" \", s); }\n"
     "dvar float+ x;\nminimize x;", None, "3 9"),
    (SC, "set .add / .size / for-in", "out", "{int} S = {1};\nexecute { S.add(5); var t = 0; for (var e in S) t += e; "
     "writeln(S.size, \" \", t); }\ndvar float+ x;\nminimize x;", None, "2 6"),
    (SC, "set .contains / .find", "out", "tuple T { key int id; string n; }\n{T} S = {<1, \"a\">};\n"
     "execute { writeln(S.find(1).n); }\ndvar float+ x;\nminimize x;", None, "a"),
    (SC, "tuple fields", "out", "tuple T { int a; string b; }\nT t = <2, \"q\">;\nexecute { writeln(t.a, t.b, \" \", t); }\n"
     "dvar float+ x;\nminimize x;", None, "2q <2 \"q\">"),
    (SC, "array items (read, assign)", "out", "float a[1..3] = [1, 2, 3];\nexecute { a[2] = 7; writeln(a); }\ndvar float+ x;\nminimize x;",
     None, "[1 7 3]"),
    (SC, "Opl namespace functions", "out", "{int} S = {1, 2};\nexecute { writeln(Opl.abs(-2), \" \", Opl.card(S)); }\ndvar float+ x;\nminimize x;",
     None, "2 2"),
    (SC, "fail()", "ref", T + "test_fail_stops_its_block_reports_an_error_and_the_next_block_runs", None, None),
    (SC, "writeln of a tuple with an array field", "out", "tuple P { int id; int f[1..2]; }\n{P} S = ...;\n"
     "execute { writeln(S); }\ndvar float+ x;\nminimize x;", "S = {<1, [2, 3]>};", "{<1 [2 3]>}"),
]


# ---------------------------------------------------------------- issue 44: IBM's entries that had no row
DT = "OPL data files (.dat)"
SK = "IBM ILOG Script: keywords and global functions"
R2 = "tests/conformance/test_conf_reference_forms.py::"
_CPX = "using CP;\ndvar int x[1..2] in 0..2;\n"
_CPI = "using CP;\ndvar interval a size 2;\n"
_W = "\ndvar float+ x in 0..1;\nmaximize x;"
ENTRIES += [
    (KW, "initial", "ref", R2 + "test_reserved_words_for_future_use_and_deprecated_cannot_name_data", None, None),
    (KW, "template", "ref", R2 + "test_reserved_words_for_future_use_and_deprecated_cannot_name_data", None, None),
    (KW, "struct", "ref", R2 + "test_reserved_words_for_future_use_and_deprecated_cannot_name_data", None, None),
    (FN, "append", "obj", "using CP;\ndvar int x[1..2] in 0..3;\ndvar int y in 0..3;\nminimize x[1] + 2 * x[2] + 3 * y;\n"
     "subject to { allDifferent(append(x, y)); }", None, 4.0),  # y = 0, x[2] = 1, x[1] = 2
    (FN, "element", "obj", "using CP;\nint a[0..2] = [5, 3, 8];\ndvar int i in 0..2;\nminimize element(a, i);", None,
     3.0),  # a[1], the least
    (FN, "standardDeviation", "code", "CP Optimizer standard deviation expression: no CP-SAT form yet", None, "OPL0627"),
    (FN, "strong", "obj", "using CP;\ndvar int x[1..2] in 0..3;\nmaximize x[1] + 2 * x[2];\n"
     "subject to { strong(x); x[1] + x[2] <= 4; }", None, 7.0),  # a hint: the solutions are the same
    (FN, "sameSequence", "obj", "using CP;\ndvar interval a[1..2] size 1;\ndvar interval b[1..2] size 1;\n"
     "dvar sequence s1 in a;\ndvar sequence s2 in b;\nminimize endOf(b[1]) + 10 * endOf(a[2]);\n"
     "subject to { noOverlap(s1); noOverlap(s2); sameSequence(s1, s2); }", None, 12.0),  # a[2] first: b[2] first too
    (FN, "sameCommonSubsequence", "obj", "using CP;\ndvar interval a[1..2] optional size 1;\ndvar interval b[1..2] size 1;\n"
     "dvar sequence p in a;\ndvar sequence q in b;\nmaximize sum(i in 1..2) presenceOf(a[i]) - 3 * startOf(b[1]);\n"
     "subject to { sameCommonSubsequence(p, q); noOverlap(p); noOverlap(q); startOf(a[1]) == 5; startOf(a[2]) == 0; }",
     None, 1.0),  # both a present: a[2] before a[1], so b[2] before b[1] (b[1] at 1): 2 - 3; one a absent: 1 - 0
    (FN, "cumulFunctionValue", "out", "using CP;\ndvar interval a in 0..10 size 2;\ncumulFunction f = pulse(a, 3);\n"
     "minimize startOf(a);\nsubject to { startOf(a) >= 1; }\nint v[t in 0..3] = cumulFunctionValue(f, t);\n"
     "execute { writeln(v); }", None, "[0 3 3 0]"),  # a on [1, 3)
    (FN, "stateFunctionValue", "out", "using CP;\nstateFunction f;\ndvar interval a in 0..10 size 2;\n"
     "minimize startOf(a);\nsubject to { startOf(a) >= 1; alwaysEqual(f, a, 4); }\n"
     "int v[t in 0..3] = stateFunctionValue(f, t);\nexecute { writeln(v); }", None, "[-1 4 4 -1]"),  # no state: -1
    (FN, "segmentStart", "out", "using CP;\ndvar interval a in 0..10 size 2;\ncumulFunction f = pulse(a, 3);\nminimize startOf(a);\n"
     "int v = segmentStart(f, 1);\nexecute { writeln(v); }", None, "0"),  # a on [0, 2) at 3: (-inf, 0) 0, [0, 2) 3, [2, inf) 0
    (FN, "segmentEnd", "out", "using CP;\ndvar interval a in 0..10 size 2;\ncumulFunction f = pulse(a, 3);\nminimize startOf(a);\n"
     "int v = segmentEnd(f, 1);\nexecute { writeln(v); }", None, "2"),
    (FN, "segmentValue", "out", "using CP;\ndvar interval a in 0..10 size 2;\ncumulFunction f = pulse(a, 3);\nminimize startOf(a);\n"
     "int v = segmentValue(f, 1);\nexecute { writeln(v); }", None, "3"),
    (FN, "numberOfSegments", "out", "using CP;\ndvar interval a in 0..10 size 2;\ncumulFunction f = pulse(a, 3);\nminimize startOf(a);\n"
     "int v = numberOfSegments(f);\nexecute { writeln(v); }", None, "3"),
    (OP, "^ (power)", "obj", _v("2 ^ 3 ^ 2 / 64"), None, 8.0),  # IBM's table puts ^ first: 2 ^ 9 = 512, / 64
    (DT, "name = value; (scalars, strings)", "obj", "int n = ...;\nstring s = ...;\n" + _v("n + 1", ""),
     'n = 4;\ns = "a";', 5.0),
    (DT, "[...] array, positional", "obj", "float a[1..3] = ...;\n" + _v("a[1] + 10 * a[3]"), "a = [1, 2, 3];", 31.0),
    (DT, "#[key: value]# array, by index", "obj", "{string} D = {\"mon\", \"tue\"};\nint a[D] = ...;\n" + _v("a[\"tue\"]"),
     "a = #[tue: 5, mon: 1]#;", 5.0),
    (DT, "{...} set", "obj", "{int} S = ...;\n" + _v("card(S)"), "S = {3, 1, 2};", 3.0),
    (DT, "<...> tuple", "obj", "tuple P { int x; int y; }\nP p = ...;\n" + _v("p.x * 10 + p.y"), "p = <2, 1>;", 21.0),
    (DT, "#<field: value># named tuple", "obj", "tuple P { int x; int y; }\nP p = ...;\n" + _v("p.x * 10 + p.y"),
     "p = #<y: 1, x: 2>#;", 21.0),  # IBM "Initializing tuples": fields by name, in any order
    (DT, "lo..hi range", "obj", "range R = ...;\n" + _v("card(R)"), "R = 2..6;", 5.0),
    (DT, "// and /* */ comments", "obj", "int n = ...;\n" + _v("n"), "// a comment\nn = /* inside */ 7; // end", 7.0),
    (SK, "break", "out", "execute { var k = 0; while (true) { k++; if (k == 3) break; } writeln(k); }" + _W, None, "3"),
    (SK, "continue", "out", "execute { var s = 0; for (var i = 1; i <= 5; i++) { if (i % 2 == 0) continue; s += i; } "
     "writeln(s); }" + _W, None, "9"),
    (SK, "for", "out", "execute { var s = \"\"; for (var i = 0; i < 3; i++) s += i; writeln(s); }" + _W, None, "012"),
    (SK, "for (var k in S)", "out", "{string} S = {\"b\", \"a\"};\nexecute { var s = \"\"; for (var k in S) s += k; "
     "writeln(s); }" + _W, None, "ba"),
    (SK, "function", "out", "execute { function sq(v) { return v * v; } writeln(sq(7)); }" + _W, None, "49"),
    (SK, "return", "out", "execute { function f(v) { if (v > 0) return \"pos\"; return \"neg\"; } writeln(f(-1), f(2)); }"
     + _W, None, "negpos"),
    (SK, "var", "out", "execute { var a = 2, b = a + 3; writeln(a * b); }" + _W, None, "10"),
    (SK, "while", "out", "execute { var n = 1; while (n < 100) n *= 3; writeln(n); }" + _W, None, "243"),
    (SK, "write", "out", "execute { write(\"a\"); write(1, 2); writeln(); }" + _W, None, "a12"),
    (SK, "writeln", "out", "execute { writeln(\"x = \", 1.5, \" \", [1, 2]); }" + _W, None, "x = 1.5 1,2"),
    (SC, "IloCP (cp in a CP model: getObjValue)", "out", "using CP;\ndvar int x in 2..5;\nminimize x;\n"
     "execute { writeln(cp.getObjValue()); }", None, "2"),
    (SC, "IloIntervalVar (start, end, size, present)", "out", "using CP;\ndvar interval a in 1..10 size 3;\n"
     "minimize endOf(a);\nexecute { writeln(a.start, \" \", a.end, \" \", a.size, \" \", a.present); }", None, "1 4 3 true"),
    (SC, "IloIntervalSequenceVar", "out", "using CP;\ndvar interval a[i in 1..2] size i;\ndvar sequence s in a;\n"
     "minimize max(i in 1..2) endOf(a[i]) + startOf(a[2]);\nsubject to { noOverlap(s); }\n"
     "execute { writeln(s, \" \", s.first(), \" \", s.next(s.first()).end); }", None,
     "{a[2] a[1]} <1 0 2 2> 3"),  # a[2] first (it starts at 0), a[1] after it on [2, 3)
    (SC, "IloCumulFunctionExpr", "out", "using CP;\ndvar interval a in 0..10 size 2;\ncumulFunction f = pulse(a, 3);\nminimize startOf(a);\n"
     "execute { writeln(f.getNumberOfSegments()); }", None, "3"),
    (SC, "IloStateFunctionExpr", "out", "using CP;\ndvar interval a size 2;\nstateFunction f;\nminimize endOf(a);\n"
     "subject to { alwaysEqual(f, a, 1); }\n"
     "execute { writeln(f.getNumberOfSegments(), \" \", f.getSegmentValue(1), \" \", f.getSegmentEnd(1)); }", None,
     "3 1 2"),  # no state before 0, state 1 on [0, 2), no state after
    (SC, "IloOplCPSolution", "out", "using CP;\ndvar int x in 0..5;\nminimize x;\nsubject to { x >= 2; }\n"
     "main { thisOplModel.generate(); var s = new IloOplCPSolution(); s.setValue(thisOplModel.x, 4);\n"
     "cp.setStartingPoint(s); cp.solve(); writeln(cp.getObjValue()); }", None, "2"),  # a hint, not a constraint
    (SC, "IloObjective (thisOplModel.getObjective: setCoef, getCoef)", "ref",
     "tests/conformance/test_conf_mp_round2.py::test_cplex_set_lb_ub_on_a_constraint_and_get_objective_set_coef_in_main",
     None, None),
    (SC, "IloCplex.addMIPStart", "ref",
     "tests/conformance/test_conf_mp_round2.py::test_add_mip_start_and_branching_priorities_reach_the_solver", None, None),
    (SC, "dvar .priority / .direction", "ref",
     "tests/conformance/test_conf_mp_round2.py::test_add_mip_start_and_branching_priorities_reach_the_solver", None, None),
    (SC, "IloCplex.writeMIPStarts", "ref",
     "tests/conformance/test_conf_mp_round2.py::test_write_mip_starts_writes_the_solution_in_cplex_mst_form", None, None),
    (SC, "dvar value assigned in post-processing", "ref",
     "tests/conformance/test_conf_mp_round2.py::test_post_processing_assignment_to_a_decision_value_is_what_later_data_reads",
     None, None),
    (SC, "constraint .slack after a MIP", "ref", "tests/conformance/test_conf_mp_round2.py::test_slack_after_a_mip", None, None),
    (SC, "tuple field assignment (non-key int, float, string)", "ref",
     "tests/conformance/test_conf_mp_round2.py::test_script_assigns_non_key_fields_of_tuples_in_sets_arrays_and_scalars",
     None, None),
]

# Snippets that stand for "not supported": the model that yields the code (checked by the test).
CODE_MODELS = {
    "CP": "using CP;\ndvar int x in 0..3;\nminimize x;",
    "all": "dvar int x[1..3] in 0..3;\nminimize x[1];\nsubject to { allDifferent(all(i in 1..3) x[i]); }",
    "cumulFunction": "cumulFunction f = pulse(0, 1, 1);\ndvar float+ x;\nminimize x;",
    "intensity (a fraction of a unit)": "using CP;\nstepFunction H = stepwise{ 100 -> 5; 50 -> 7; 100 };\n"
    "dvar interval a size 8 intensity H;\nminimize endOf(a);",
    "interval": "dvar interval a size 3;\ndvar float+ x;\nminimize x;",
    "optional": "dvar interval a optional;\ndvar float+ x;\nminimize x;",
    "sequence": "dvar interval a;\ndvar sequence s in all(i in 1..1) a;\ndvar float+ x;\nminimize x;",
    "size": "dvar interval a size 3;\ndvar float+ x;\nminimize x;",
    "types": "dvar interval a;\ndvar sequence s in all(i in 1..1) a types all(i in 1..1) 1;\ndvar float+ x;\nminimize x;",
    "alternative": "dvar interval a;\ndvar interval b;\nconstraints { alternative(a, all(i in 1..1) b); }",
    "allDifferent": "dvar int x[1..3] in 0..3;\nminimize x[1];\nsubject to { allDifferent(x); }",
    "allMinDistance": "dvar int x[1..3] in 0..9;\nminimize x[1];\nsubject to { allMinDistance(x, 2); }",
    "count": "dvar int x[1..3] in 0..3;\nminimize x[1];\nsubject to { count(x, 2) == 1; }",
    "endOf": "dvar interval a;\nminimize endOf(a);",
    "inverse": "dvar int f[1..2] in 1..2;\ndvar int g[1..2] in 1..2;\nminimize f[1];\nsubject to { inverse(f, g); }",
    "lex": "dvar int x[1..2] in 0..3;\ndvar int y[1..2] in 0..3;\nminimize x[1];\nsubject to { lex(x, y); }",
    "noOverlap": "dvar interval a;\ndvar interval b;\nconstraints { noOverlap(all(i in 1..1) a); }",
    "pack": "dvar int l[1..2] in 0..5;\ndvar int w[1..3] in 1..2;\nminimize l[1];\nsubject to { pack(l, w, [1, 1, 1]); }",
    "presenceOf": "dvar interval a optional;\nminimize presenceOf(a);",
    "span": "dvar interval a;\ndvar interval b;\nconstraints { span(a, all(i in 1..1) b); }",
    "startOf": "dvar interval a;\nminimize startOf(a);",
    "synchronize": "dvar interval a;\ndvar interval b;\nconstraints { synchronize(a, all(i in 1..1) b); }",
    "IloOplCplexBasis.attach": "dvar float x in 0..3;\nmaximize x;\nmain { thisOplModel.generate(); "
                               "var b = new IloOplCplexBasis(); b.attach(thisOplModel.x, 1); }",
    "IloOplProfiler": "dvar int x in 0..3;\nmaximize x;\nexecute { var p = new IloOplProfiler(); }",
    "endAtEnd": "dvar interval a;\ndvar interval b;\nconstraints { endAtEnd(a, b); }",
    "endAtStart": "dvar interval a;\ndvar interval b;\nconstraints { endAtStart(a, b); }",
    "endBeforeEnd": "dvar interval a;\ndvar interval b;\nconstraints { endBeforeEnd(a, b); }",
    "endBeforeStart": "dvar interval a;\ndvar interval b;\nconstraints { endBeforeStart(a, b); }",
    "startAtEnd": "dvar interval a;\ndvar interval b;\nconstraints { startAtEnd(a, b); }",
    "startAtStart": "dvar interval a;\ndvar interval b;\nconstraints { startAtStart(a, b); }",
    "startBeforeEnd": "dvar interval a;\ndvar interval b;\nconstraints { startBeforeEnd(a, b); }",
    "startBeforeStart": "dvar interval a;\ndvar interval b;\nconstraints { startBeforeStart(a, b); }",
    "isomorphism (with an index array)": "using CP;\ndvar interval a[1..2] size 1;\ndvar interval b[1..2] size 1;\n"
    "dvar int m[1..2] in -1..1;\nminimize 0;\nconstraints { isomorphism(a, b, m, -1); }",
    "alwaysIn": "dvar interval a;\ndvar interval b;\nconstraints { alwaysIn(a, b); }",
    "lengthOf": "dvar interval a;\nminimize lengthOf(a);",
    "sizeOf": "dvar interval a;\nminimize sizeOf(a);",
    "startOfNext": "using CP;\ndvar interval a;\nminimize startOfNext(a);",
    "startOfPrev": "using CP;\ndvar interval a;\nminimize startOfPrev(a);",
    "endOfNext": "using CP;\ndvar interval a;\nminimize endOfNext(a);",
    "endOfPrev": "using CP;\ndvar interval a;\nminimize endOfPrev(a);",
    "lengthOfNext": "using CP;\ndvar interval a;\nminimize lengthOfNext(a);",
    "lengthOfPrev": "using CP;\ndvar interval a;\nminimize lengthOfPrev(a);",
    "sizeOfNext": "using CP;\ndvar interval a;\nminimize sizeOfNext(a);",
    "sizeOfPrev": "using CP;\ndvar interval a;\nminimize sizeOfPrev(a);",
    "typeOfNext": "using CP;\ndvar interval a;\nminimize typeOfNext(a);",
    "typeOfPrev": "using CP;\ndvar interval a;\nminimize typeOfPrev(a);",
    "heightAtEnd (of an interval with a pulse)": "using CP;\ndvar interval a size 2;\ncumulFunction f = pulse(a, 2);\n"
    "minimize heightAtEnd(a, f);",
    "pulse": "dvar interval a;\nminimize pulse(a);",
    "step": "dvar interval a;\nminimize step(a);",
    "stepAtStart": "dvar interval a;\nminimize stepAtStart(a);",
    "stepAtEnd": "dvar interval a;\nminimize stepAtEnd(a);",
    "standardDeviation": _CPX + "minimize standardDeviation(x);",
}

# issue 44: the entries that had no row (CP functions, `.dat` forms, script keywords, CP script classes)
from reference_entries_more import CODE_MODELS as _MORE_MODELS, ENTRIES as _MORE  # noqa: E402

ENTRIES += _MORE
CODE_MODELS.update(_MORE_MODELS)

_TEST = "tests/conformance/test_conf_reference.py"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render() -> str:
    """docs/conformance.md from :data:`ENTRIES`: one table per section, counts per section."""
    out = ["# OPL conformance", "",
           "One row per entry of IBM's *OPL Language Quick Reference* (keywords, functions, operators), per form of",
           "an OPL data file (`.dat`), and per entry of the *IBM ILOG Script for OPL* reference (its keywords and",
           "functions; its classes, their methods and properties). A **supported** row names",
           "the test that runs a model of ours exercising it (its optimum or output worked out by hand); a **not",
           "supported** row names the diagnostic pyopl gives and why. `tests/conformance/test_conf_reference.py`",
           "checks that every named test exists and every code is registered; this page is generated by",
           "`python tests/conformance/reference_entries.py`. Language behaviour in detail: [language](language.md),",
           "scripts: [scripting](scripting.md).", ""]
    sections: list[str] = []
    for e in ENTRIES:
        if e[0] not in sections:
            sections.append(e[0])
    out.append("| Section | supported | not supported |")
    out.append("|---|---|---|")
    for sec in sections:
        rows = [e for e in ENTRIES if e[0] == sec]
        sup = sum(1 for e in rows if e[2] != "code")
        out.append("| %s | %d | %d |" % (sec, sup, len(rows) - sup))
    total_sup = sum(1 for e in ENTRIES if e[2] != "code")
    out.append("| all | %d | %d |" % (total_sup, len(ENTRIES) - total_sup))
    for sec in sections:
        out += ["", "## " + sec, "", "| Entry | Status | Test or diagnostic | Why not |", "|---|---|---|---|"]
        for s, name, kind, text, _data, expected in ENTRIES:
            if s != sec:
                continue
            if kind == "code":
                out.append("| `%s` | not supported | `%s` | %s |" % (_cell(name), expected, _cell(text)))
            elif kind == "ref":  # a test of its own (files, several steps)
                out.append("| `%s` | supported | `%s` | |" % (_cell(name), text))
            else:
                fn = "test_supported"
                out.append("| `%s` | supported | `%s::%s[%s]` | |" % (_cell(name), _TEST, fn, _cell(name)))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    import pathlib

    target = pathlib.Path(__file__).resolve().parents[2] / "docs" / "conformance.md"
    target.write_text(render(), encoding="utf-8")
    print("wrote", target)
