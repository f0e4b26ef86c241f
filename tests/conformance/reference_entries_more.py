"""The entries of IBM's references that had no row before issue 44: the remaining OPL functions
(CP Optimizer's `append`, `element`, `standardDeviation`, ... and the readers of a solved cumul or
state function), the `^` operator, the reserved words `initial`/`template`/`struct`, the forms of
an OPL data file (`.dat`), ILOG Script's keywords and functions, and the script classes of CP
models (`IloCP`, `IloIntervalVar`, ...) and of projects (`IloOplProject`, `IloOplRunConfiguration`).

Same shape as :mod:`reference_entries` (which appends these to its ``ENTRIES``/``CODE_MODELS``):
``(section, name, kind, text, data, expected)``. Every expected optimum or output is worked out by
hand in the comment beside it, from the model's data (IBM's own example where the page gives one).
"""
from __future__ import annotations

KW = "OPL Language Quick Reference: keywords"
FN = "OPL Language Quick Reference: functions"
OP = "OPL Language Quick Reference: operators"
SC = "IBM ILOG Script for OPL: classes"
DT = "OPL data files (.dat)"
SK = "IBM ILOG Script: keywords and global functions"

F = "tests/conformance/test_conf_reference_forms.py::"  # the tests of rows that need two files or several checks
_N = "\ndvar float+ x;\nminimize x;\n"  # a model whose only job is to run its scripts
_CAP = "dvar float+ x in 0..10;\ndvar float+ y in 0..10;\nmaximize x + 2 * y;\nsubject to { cap: x + y <= 12; }\n"


def _v(expr: str, decl: str = "") -> str:
    """A model whose optimum is the data value ``expr`` (minimise x subject to x == expr)."""
    return decl + "\nfloat v = %s;\ndvar float x;\nminimize x;\nsubject to { x == v; }\n" % expr


def _s(body: str) -> str:
    """A model that runs ``body`` in an ``execute`` block."""
    return "execute { %s }" % body + _N


_READ = ("reads a cumul or state function of a CP solution, which pyopl does not compute yet: read the intervals "
         "(`a.start`, `a.end`, `a.present`) instead")
_CUMUL = "using CP;\ndvar interval a in 0..10 size 2;\ncumulFunction f = pulse(a, 3);\nminimize startOf(a);\n"
_STATE = "using CP;\nstateFunction f;\ndvar interval a size 2;\nminimize endOf(a);\nsubject to { alwaysEqual(f, a, 1); }\n"
_SEQ = ("using CP;\nrange R = 1..3;\ndvar interval tia[i in R] size i;\ndvar sequence seq in tia;\n"
        "minimize max(i in R) endOf(tia[i]);\nsubject to { noOverlap(seq); }\n")
_CPX = "using CP;\ndvar int x in 0..5;\nmaximize x;\n"  # CP-SAT: x = 5
_IV = "using CP;\ndvar interval x in 2..20 size 10;\nminimize startOf(x);\n"  # IBM's example: x on [2, 12)
_OPT = "using CP;\ndvar interval x optional size 3;\nminimize 2 * presenceOf(x);\n"  # absent is cheaper

ENTRIES = [
    # ------------------------------------------------------------ keywords
    # ------------------------------------------------------------ functions
    # ------------------------------------------------------------ operators
    (OP, "^ before * (precedence)", "obj", _v("2 * 3 ^ 2"), None, 18.0),  # IBM's table: ^ binds tighter: 2 * 9
    (OP, "+ (unary)", "obj", _v("+(3) - 1"), None, 2.0),
    (OP, "hi >= e >= lo (ranged)", "obj", "dvar float x;\nmaximize x;\nsubject to { 9 >= x >= 2; }", None, 9.0),
    # ------------------------------------------------------------ .dat forms (IBM, "Data files" and "Initializing tuples")
    (DT, "negative number and exponent", "obj", "int n = ...;\nfloat f = ...;\n" + _v("n + f"), "n = -4;\nf = 1.5e2;", 146.0),
    (DT, "unquoted string in a set", "obj", "{string} S = ...;\n" + _v('card(S) + ("c" in S)'), 'S = {"a", "b", c};', 4.0),
    (DT, "array items separated by spaces", "obj", "int b[1..3] = ...;\n" + _v("b[1] + 10 * b[3]"), "b = [1 0 4];", 41.0),
    (DT, "2-D array [[...], [...]]", "obj", "int a[1..2][1..3] = ...;\n" + _v("a[2][3] * 10 + a[1][2]"),
     "a = [[1, 2, 3], [4, 5, 6]];", 62.0),
    (DT, "2-D keyed array, nested", "obj", "int a[1..2][1..2] = ...;\n" + _v("a[2][1] * 10 + a[1][2]"),
     "a = #[1: [1, 2], 2: #[2: 4, 1: 3]#]#;", 32.0),
    (DT, "named tuple nested in a named tuple", "obj", "tuple point { int x; int y; }\ntuple seg { point a; point b; }\n"
     "seg s = ...;\n" + _v("s.b.x * 10 + s.a.y"), "s = #<a: <1, 2>, b: #<x: 5, y: 6>#>#;", 52.0),
    (DT, "named tuple in a tuple set", "obj", "tuple point { int x; int y; }\n{point} S = ...;\n" + _v("sum(p in S) p.x * p.y"),
     "S = {#<y: 2, x: 1>#, <3, 4>};", 14.0),  # 1 * 2 + 3 * 4
    (DT, "tuple set {<...>, <...>}", "obj", "tuple P { int a; int b; }\n{P} S = ...;\n" + _v("sum(t in S) t.a * t.b"),
     "S = {<1, 2>, <3, 4>};", 14.0),
    (DT, "array of tuples", "obj", "tuple P { int a; int b; }\nP p[1..2] = ...;\n" + _v("p[2].b * 10 + p[1].a"),
     "p = [<1, 2>, <3, 4>];", 41.0),
    (DT, "tuple with an array field", "obj", "tuple Rectangle { int id; int x[1..2]; int y[1..2]; }\nRectangle r = ...;\n"
     + _v("r.x[2] + r.y[1] + r.id"), "r = <1, [0, 10], [3, 10]>;", 14.0),  # IBM's example shape: 10 + 3 + 1
    (DT, "tuple with a set field", "obj", "tuple Precedence { string name; {string} after; }\nPrecedence p = ...;\n"
     + _v('card(p.after) + ("a3" in p.after)'), 'p = <"a1", {"a2", "a3", "a4"}>;', 4.0),
    (DT, "named tuple: each field exactly once", "ref", F + "test_a_named_tuple_gives_each_field_exactly_once", None, None),
    (DT, "include \"file.dat\"", "ref", F + "test_a_data_file_includes_another", None, None),
    # ------------------------------------------------------------ ILOG Script keywords and functions
    (SK, "do ... while", "out", _s("var i = 0; do { i += 2; } while (i < 5); writeln(i);"), None, "6"),
    (SK, "if ... else (script)", "out", _s("var a = 2; if (a > 3) writeln(\"big\"); else writeln(\"small\");"), None, "small"),
    # ------------------------------------------------------------ IloCP (the `cp` object of a `using CP;` model)
    (SC, "IloCP.param", "out", "using CP;\nexecute { cp.param.TimeLimit = 5; writeln(cp.param.TimeLimit); }\n"
     "dvar int x in 0..5;\nmaximize x;", None, "5"),
    (SC, "IloCP.setSearchPhases / factory (accepted, no effect)", "obj", _CPX + "subject to { x != 5; }\n"
     "execute { var f = cp.factory; cp.setSearchPhases(f.searchPhase(x)); }", None, 4.0),
    (SC, "IloCP (constructor)", "code", "a second CP engine from a script is not supported: pyopl solves `using CP;` "
     "models itself", None, "OPL1057"),
    # x in 0..2, x != 1 and no objective: the search steps through x = 0 and x = 2
    (SC, "IloCP.startNewSearch / next", "out", "using CP;\ndvar int x in 0..2;\nsubject to { x != 1; }\n"
     "main { thisOplModel.generate(); cp.startNewSearch(); var n = 0; while (cp.next()) n++; writeln(n); }", None, "2"),
]

# IloCP members pyopl's `cp` object does not have (OPL1004, "has no member"): flow control of a CP solve
_CP_MISSING = {
    "dumpModel": "cp.dumpModel(\"d.cpo\");",
    "getNumberOfCriteria": "writeln(cp.getNumberOfCriteria());", "getKPIValue": "writeln(cp.getKPIValue(\"k\"));", "removeAllKPIs": "cp.removeAllKPIs();",
    "clearModel": "cp.clearModel();", "clearStartingPoint": "cp.clearStartingPoint();",
    "getIncumbentValue": "writeln(cp.getIncumbentValue(thisOplModel.x));",
    "status": "writeln(cp.status);",
}
CODE_MODELS = {
    "IloCP (constructor)": _CPX + "main { var c = new IloCP(); }",
}
for _m, _call in _CP_MISSING.items():
    _name = "IloCP.%s" % _m
    ENTRIES.append((SC, _name, "code", "the `cp` object has `param`, `factory`, `setSearchPhases` and `getObjValue`; "
                    "pyopl solves `using CP;` models itself, with no flow control of the CP solve", None, "OPL1004"))
    CODE_MODELS[_name] = _CPX + "main { thisOplModel.generate(); %s }" % _call

_SOLVED = _CPX + "main { thisOplModel.generate(); %s }"  # x = 5, proved optimal
ENTRIES += [
    (SC, "IloCP.solve", "out", _SOLVED % "if (cp.solve()) writeln(cp.getObjValue());", None, "5"),
    (SC, "IloCP.endSearch", "out", _SOLVED % "cp.startNewSearch(); cp.next(); cp.endSearch(); writeln(\"ended\");", None,
     "ended"),
    (SC, "IloCP.getObjBound / getObjGap", "out", _SOLVED % "cp.solve(); writeln(cp.getObjBound(), \" \", cp.getObjGap());",
     None, "5 0"),  # proved: the bound is the optimum, the gap 0
    (SC, "IloCP.addKPI", "out", _SOLVED % "cp.addKPI(thisOplModel.x, \"k\"); cp.solve(); writeln(cp.getObjValue());",
     None, "5"),  # accepted; a KPI changes no solution
    (SC, "IloCP.setStartingPoint", "out", _SOLVED % "var s = new IloOplCPSolution(); s.setValue(thisOplModel.x, 3); "
     "cp.setStartingPoint(s); cp.solve(); writeln(cp.getObjValue());", None, "5"),  # a hint: the optimum stays 5
    # three variables in 1..2 cannot all differ: the refiner names `allDifferent` (pyopl/backends/cp/conflict.py)
    (SC, "IloCP.refineConflict / writeConflict", "out", "using CP;\ndvar int x[1..3] in 1..2;\nsubject to { ad: "
     "allDifferent(x); }\nmain { thisOplModel.generate(); if (!cp.solve()) { writeln(cp.refineConflict()); "
     "cp.writeConflict(); } }", None, "true\ninfeasible: ad cannot hold\n  conflict found by pyopl's CP conflict "
     "refiner (CP-SAT assumptions, deletion filter):\n    ad                   allDifferent(...) over 3 expressions"),
    (SC, "IloCP.info", "out", _SOLVED % "cp.solve(); writeln(cp.info.NumberOfSolutions >= 1);", None, "true"),
    # the model written as .cpo into the output folder (pyopl/backends/cp/cpo_export.py), and the run goes on
    (SC, "IloCP.exportModel", "out", _SOLVED % "cp.exportModel(\"m.cpo\"); cp.solve(); writeln(cp.getObjValue());",
     None, "5"),
    # ------------------------------------------------------------ IloIntervalVar (after a CP solve)
    (SC, "IloIntervalVar.size / .length", "out", _IV + "execute { writeln(x.size, \" \", x.length); }", None, "10 10"),
    (SC, "IloIntervalVar.present / .absent", "out", _OPT + "execute { writeln(x.present, \" \", x.absent); }", None, "false true"),
    (SC, "IloIntervalVar.name", "out", "using CP;\ndvar interval a[1..2] size 2;\nminimize endOf(a[2]);\n"
     "execute { writeln(a[2].name); }", None, "a[2]"),
    (SC, "IloIntervalVar declared bounds (the in window, the size range)", "code",
     "the declared window and size range are not readable from scripts", None, "OPL1004"),
]
CODE_MODELS["IloIntervalVar declared bounds (the in window, the size range)"] = \
    "using CP;\ndvar interval x in 2..20 size 3..5;\nminimize startOf(x);\nexecute { writeln(x.StartMin); }"

_SEQ_SPT = ("using CP;\nrange R = 1..3;\ndvar interval tia[i in R] size i;\ndvar sequence seq in tia;\n"
            "minimize sum(i in R) endOf(tia[i]);\nsubject to { noOverlap(seq); }\n")  # shortest first: [0,1) [1,3) [3,6)
for _m, _call, _out in (("first()", "seq.first()", "<1 0 1 1>"), ("last()", "seq.last()", "<1 3 6 3>"),
                        ("next(x)", "seq.next(tia[1])", "<1 1 3 2>"), ("prev(x)", "seq.prev(tia[2])", "<1 0 1 1>")):
    ENTRIES.append((SC, "IloIntervalSequenceVar.%s" % _m, "out", _SEQ_SPT + "execute { writeln(%s); }" % _call, None, _out))
ENTRIES.append((SC, "IloIntervalSequenceVar.name", "code", "a sequence's name is not readable from scripts", None, "OPL1004"))
CODE_MODELS["IloIntervalSequenceVar.name"] = _SEQ + "execute { writeln(seq.name); }"

for _cls, _base, _outs in (("IloCumulFunctionExpr", _CUMUL, ("3", "-1073741823", "0", "0", "3")),
                           ("IloStateFunctionExpr", _STATE, ("3", "-1073741823", "0", "-1", "1"))):
    for _k, (_m, _call) in enumerate((("getNumberOfSegments()", "f.getNumberOfSegments()"),
                                      ("getSegmentStart(i)", "f.getSegmentStart(0)"), ("getSegmentEnd(i)", "f.getSegmentEnd(0)"),
                                      ("getSegmentValue(i)", "f.getSegmentValue(0)"), ("getValue(t)", "f.getValue(1)"))):
        _name = "%s.%s" % (_cls, _m)
        if _outs is None:
            ENTRIES.append((SC, _name, "code", _READ, None, "OPL1050"))
            CODE_MODELS[_name] = _base + "execute { writeln(%s); }" % _call
        else:  # a on [0, 2) in state 1 (at height 3): segments (-inf, 0) no state (-1) or 0, [0, 2), [2, +inf)
            ENTRIES.append((SC, _name, "out", _base + "execute { writeln(%s); }" % _call, None, _outs[_k]))

_PROJECT = "pyopl runs one model with its data per call (or sub-models through `new IloOplModel(def, cplex)`): " \
           "there are no project files or run configurations"
_RC = "main { var rc = new IloOplRunConfiguration(\"m.mod\"); writeln(rc.%s); }"
for _name, _model in (
        ("IloOplProject (constructor)", "main { var p = new IloOplProject(\".\"); }"),
        ("IloOplProject.makeRunConfiguration", "main { var rc = new IloOplProject(\".\").makeRunConfiguration(); }"),
        ("IloOplRunConfiguration (constructor)", "main { var rc = new IloOplRunConfiguration(\"m.mod\"); }"),
        ("IloOplRunConfiguration.oplModel", _RC % "oplModel"),
        ("IloOplRunConfiguration.cplex", _RC % "cplex"),
        ("IloOplRunConfiguration.cp", _RC % "cp"),
        ("IloOplRunConfiguration.settings", _RC % "settings")):
    ENTRIES.append((SC, _name, "code", _PROJECT, None, "OPL1057"))
    CODE_MODELS[_name] = "int n = 3;" + _N + _model

_HINT = _CPX + "main { thisOplModel.generate(); var s = new IloOplCPSolution(); %s cp.setStartingPoint(s); cp.solve(); " \
    "writeln(cp.getObjValue()); }"
for _m, _call in (("(constructor)", ""), ("setValue", "s.setValue(thisOplModel.x, 1);"),
                  ("setPresent / setAbsent", "s.setPresent(thisOplModel.x); s.setAbsent(thisOplModel.x);")):
    _name = "IloOplCPSolution %s" % _m if _m.startswith("(") else "IloOplCPSolution.%s" % _m
    # a starting point is a hint: the optimum stays 5 (setPresent/setAbsent are accepted and not passed to CP-SAT)
    ENTRIES.append((SC, _name, "out", _HINT % _call, None, "5"))
for _m in ("setStart", "setEnd", "setEndMin", "setEndMax", "setMin", "setMax"):
    _name = "IloOplCPSolution.%s" % _m
    ENTRIES.append((SC, _name, "code", "interval and range hints are not passed to CP-SAT from a script", None, "OPL1004"))
    CODE_MODELS[_name] = _CPX + "main { var s = new IloOplCPSolution(); s.%s(thisOplModel.x, 1); }" % _m

# ------------------------------------------------------------ IloCplex, IloOplModel and IloObject members not covered above
_X3 = ("range I = 1..3;\ndvar float+ x[I] in 0..5;\nmaximize sum(i in I) i * x[i];\nsubject to { ct: sum(i in I) x[i] <= 7; }\n")
# _X3 by hand: x = [0 2 5], objective 2 * 2 + 3 * 5 = 19
_NDAT = "int n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }\n"  # optimum n
ENTRIES += [
    (SC, "IloCplex (constructor)", "out", _X3 + "main { var c = new IloCplex(); var o = new IloOplModel(thisOplModel.modelDefinition, c); "
     "o.generate(); c.solve(); writeln(c.getObjValue()); }", None, "19"),
    (SC, "IloCplex.status", "out", _X3 + "main { thisOplModel.generate(); cplex.solve(); writeln(cplex.status); }", None, "1"),  # CPX_STAT_OPTIMAL
    (SC, "IloObject.end (model, definition, engine, source)", "out", _X3 + "main { var s = new IloOplModelSource(\"m.mod\"); "
     "var d = new IloOplModelDefinition(s); var c = new IloCplex(); var o = new IloOplModel(d, c); o.generate(); c.solve(); "
     "writeln(c.getObjValue()); o.end(); d.end(); c.end(); s.end(); }", None, "19"),
    (SC, "IloOplDataSource (constructor: a .dat file for a sub-model)", "out", _NDAT + "main { var d = new IloOplDataSource(\"m.dat\"); "
     "var o = new IloOplModel(thisOplModel.modelDefinition, cplex); o.addDataSource(d); o.generate(); cplex.solve(); "
     "writeln(cplex.getObjValue()); d.end(); }", "n = 6;", "6"),
    (SC, "IloOplModel.dataElements", "out", _NDAT + "main { writeln(thisOplModel.dataElements.n); }", "n = 6;", "6"),
    (SC, "IloOplModel.modelDefinition", "out", _NDAT + "main { var o = new IloOplModel(thisOplModel.modelDefinition, cplex); "
     "var d = new IloOplDataElements(); d.n = 4; o.addDataSource(d); o.generate(); cplex.solve(); writeln(cplex.getObjValue()); }",
     "n = 6;", "4"),
]
_CPLEX_MISSING = {  # IloCplex methods of IBM's ILOG Script reference that pyopl's `cplex` does not have
    "addCut": "addCut(thisOplModel.ct)", "addCuts": "addCuts([thisOplModel.ct])", "addUserCut": "addUserCut(thisOplModel.ct)",
    "addUserCuts": "addUserCuts([thisOplModel.ct])", "addLazyConstraint": "addLazyConstraint(thisOplModel.ct)",
    "addLazyConstraints": "addLazyConstraints([thisOplModel.ct])", "clearCuts": "clearCuts()",
    "clearUserCuts": "clearUserCuts()", "clearLazyConstraints": "clearLazyConstraints()",
    "addDiversityFilter": "addDiversityFilter(0, 1, thisOplModel.x, [1, 1, 1], [0, 0, 0], \"d\")",
    "addRangeFilter": "addRangeFilter(0, 1, thisOplModel.x, [1, 1, 1], \"r\")", "readFilters": "readFilters(\"f.flt\")",
    "deleteMIPStarts": "deleteMIPStarts(0)", "readMIPStarts": "readMIPStarts(\"s.mst\")", "getNMIPStarts": "getNMIPStarts()",
    "readBasis": "readBasis(\"b.bas\")", "writeBasis": "writeBasis(\"b.bas\")", "readParam": "readParam(\"p.prm\")",
    "writeParam": "writeParam(\"p.prm\")", "setDefaults": "setDefaults()", "tuneParam": "tuneParam()",
    "readVMConfig": "readVMConfig(\"v.vmc\")", "feasOpt": "feasOpt(thisOplModel.ct, 1)", "getVersion": "getVersion()",
    "getDetTime": "getDetTime()", "getNrows": "getNrows()", "getNcols": "getNcols()", "getNintVars": "getNintVars()",
    "getNbinVars": "getNbinVars()", "getNsemiContVars": "getNsemiContVars()", "getNsemiIntVars": "getNsemiIntVars()",
    "getNnodesLeft": "getNnodesLeft()", "getNbarrierIterations": "getNbarrierIterations()",
    "getNphaseOneIterations": "getNphaseOneIterations()", "getNsiftingIterations": "getNsiftingIterations()",
    "getNsiftingPhaseOneIterations": "getNsiftingPhaseOneIterations()", "getNprimalSuperbasics": "getNprimalSuperbasics()",
    "getNdualSuperbasics": "getNdualSuperbasics()", "getNcrossPExch": "getNcrossPExch()", "getNcrossDExch": "getNcrossDExch()",
}
for _m, _call in _CPLEX_MISSING.items():
    _name = "IloCplex.%s" % _m
    ENTRIES.append((SC, _name, "code", "not in pyopl's `cplex` object (docs/scripting.md lists its methods); the call is "
                    "refused before the `main` block runs", None, "OPL1057"))
    CODE_MODELS[_name] = _X3 + "main { thisOplModel.generate(); cplex.solve(); writeln(cplex.%s); }" % _call

# ------------------------------------------------------------ IBM ILOG Script's built-in objects and operators
# (IBM, "IBM ILOG Script" language reference: numeric, string, array, date functions, operators); outputs by hand
ENTRIES += [
    (SK, 'Math.abs/max/min', "out", _s('writeln(Math.abs(-3), " ", Math.max(2, 7), " ", Math.min(2, 7));'), None, '3 7 2'),
    (SK, 'Math.ceil/floor/round', "out", _s('writeln(Math.ceil(2.1), " ", Math.floor(-2.5), " ", Math.round(2.5));'), None, '3 -3 3'),
    (SK, 'Math.sqrt/pow/exp/log', "out", _s('writeln(Math.sqrt(16), " ", Math.pow(2, 5), " ", Math.exp(0), " ", Math.log(1));'), None, '4 32 1 0'),
    (SK, 'Math.sin/cos/tan', "out", _s('writeln(Math.sin(0), " ", Math.cos(0), " ", Math.tan(0));'), None, '0 1 0'),
    (SK, 'Math.asin/acos/atan/atan2', "out", _s('writeln(Math.asin(0), " ", Math.acos(1), " ", Math.atan(0), " ", Math.atan2(0, 1));'), None, '0 0 0 0'),
    (SK, 'Math.random', "out", _s('var r = Math.random(); writeln(r >= 0 && r < 1);'), None, 'true'),
    (SK, 'Math.PI / Math.E', "out", _s('writeln(Math.floor(Math.PI * 1000), " ", Math.floor(Math.E * 1000));'), None, '3141 2718'),
    (SK, 'String.length / charAt / charCodeAt', "out", _s('var s = "hello"; writeln(s.length, " ", s.charAt(1), " ", s.charCodeAt(0));'), None, '5 e 104'),
    (SK, 'String.indexOf / lastIndexOf', "out", _s('var s = "abcabc"; writeln(s.indexOf("c"), " ", s.lastIndexOf("b"), " ", s.indexOf("z"));'), None, '2 4 -1'),
    (SK, 'String.substring', "out", _s('writeln("optimize".substring(1, 4));'), None, 'pti'),
    (SK, 'String.toLowerCase / toUpperCase', "out", _s('writeln("OpL".toLowerCase(), "OpL".toUpperCase());'), None, 'oplOPL'),
    (SK, 'String.split', "out", _s('var p = "a,b,c".split(","); writeln(p.length, " ", p[2]);'), None, '3 c'),
    (SK, 'String.fromCharCode', "out", _s('writeln(String.fromCharCode(79, 80, 76));'), None, 'OPL'),
    (SK, 'string + (concatenation)', "out", _s('writeln("a" + 1 + 2, " ", 1 + 2 + "a");'), None, 'a12 3a'),
    (SK, 'Array (constructor) / length', "out", _s('var t = new Array(3); var u = [1, 2]; writeln(t.length, " ", u.length);'), None, '3 2'),
    (SK, 'Array.join / reverse', "out", _s('var t = [1, 2, 3]; writeln(t.join("-"), " ", t.reverse().join(""));'), None, '1-2-3 321'),
    (SK, 'Array.sort', "out", _s('var t = [3, 1, 10, 2]; t.sort(); writeln(t.join(","));'), None, '1,10,2,3'),
    (SK, 'Array.sort (with a comparison)', "out", _s('var t = [3, 1, 10, 2]; t.sort(function(a, b) { return a - b; }); writeln(t.join(","));'), None, '1,2,3,10'),
    (SK, 'Array.concat / slice', "out", _s('var t = [1, 2].concat([3, 4]); writeln(t.join(""), " ", t.slice(1, 3).join(""));'), None, '1234 23'),
    (SK, 'Array.push / pop / shift / unshift', "out", _s('var t = [2]; t.push(3); t.unshift(1); var p = t.pop(); var s = t.shift(); writeln(p, s, " ", t.join(""));'), None, '31 2'),
    (SK, 'Array.splice', "out", _s('var t = [1, 2, 3, 4]; var r = t.splice(1, 2); writeln(r.join(""), " ", t.join(""));'), None, '23 14'),
    (SK, 'Number.toString (radix)', "out", _s('var n = 255; writeln(n.toString(16), " ", n.toString(2));'), None, 'ff 11111111'),
    (SK, 'parseInt / parseFloat', "out", _s('writeln(parseInt("42abc"), " ", parseInt("ff", 16), " ", parseFloat("2.5e1"));'), None, '42 255 25'),
    (SK, 'isNaN / isFinite', "out", _s('writeln(isNaN(0 / 0), " ", isFinite(1 / 0), " ", isFinite(3));'), None, 'true false true'),
    (SK, 'NaN / Infinity', "out", _s('writeln(NaN, " ", -Infinity);'), None, 'NaN -Infinity'),
    (SK, 'Date (constructor) / getFullYear', "out", _s('var d = new Date(2020, 0, 15); writeln(d.getFullYear(), " ", d.getMonth(), " ", d.getDate());'), None, '2020 0 15'),
    (SK, 'Date.getTime', "out", _s('var d = new Date(0); writeln(d.getTime());'), None, '0'),
    (SK, 'Date.getDay / getHours / getMinutes / getSeconds', "out", _s('var d = new Date(2020, 0, 15, 10, 20, 30); writeln(d.getDay(), " ", d.getHours(), " ", d.getMinutes(), " ", d.getSeconds());'), None, '3 10 20 30'),
    (SK, 'typeof', "out", _s('writeln(typeof 1, " ", typeof "a", " ", typeof true, " ", typeof undefined, " ", typeof null, " ", typeof {});'), None, 'number string boolean undefined object object'),
    (SK, 'Object (constructor) / properties', "out", _s('var o = new Object(); o.a = 2; o["b"] = 3; writeln(o.a + o.b);'), None, '5'),
    (SK, 'delete', "out", _s('var o = {a: 1, b: 2}; delete o.a; var n = 0; for (var k in o) n++; writeln(n, " ", o.a);'), None, '1 undefined'),
    (SK, 'in / instanceof', "out", _s('var o = {a: 1}; var t = []; writeln("a" in o, " ", t instanceof Array);'), None, 'true true'),
    (SK, 'this / new (constructor function)', "out", _s('function P(x) { this.x = x; } var p = new P(4); writeln(p.x);'), None, '4'),
    (SK, 'arguments', "out", _s('function f() { return arguments.length; } writeln(f(1, 2, 3));'), None, '3'),
    (SK, 'with (script)', "out", _s('var o = {a: 7}; with (o) { writeln(a); }'), None, '7'),
    (SK, 'switch', "out", _s('var k = 2; switch (k) { case 1: writeln("one"); break; case 2: writeln("two"); break; default: writeln("other"); }'), None, 'two'),
    (SK, 'null / undefined', "out", _s('var u; writeln(u == null, " ", u === null, " ", null);'), None, 'true false null'),
    (SK, 'Boolean / Number / String (conversion)', "out", _s('writeln(Boolean(""), " ", Number("12") + 1, " ", String(3) + 1);'), None, 'false 13 31'),
    (SK, '?: / && / || (script)', "out", _s('var a = 0; writeln(a > 1 ? "y" : "n", " ", a || 5, " ", a && 5);'), None, 'n 5 0'),
    (SK, '++ / -- / += and the other assignments', "out", _s('var i = 5; i++; i--; --i; i += 10; i -= 2; i *= 3; i /= 2; i %= 7; writeln(i);'), None, '4'),
    (SK, 'bitwise & | ^ ~ << >> >>>', "out", _s('writeln(14 & 9, " ", 14 | 9, " ", 14 ^ 9, " ", ~14, " ", 9 << 2, " ", -9 >> 2, " ", -9 >>> 28);'), None, '8 15 7 -15 36 -3 15'),
    (SK, 'Function.call / apply', "out", _s('function f(a, b) { return this.k + a + b; } var o = {k: 1}; writeln(f.call(o, 2, 3), " ", f.apply(o, [4, 5]));'), None, '6 10'),
    (SK, 'Boolean.toString / Number.toString', "out", _s('var b = true; writeln(b.toString() + "!", (12).toString());'), None, 'true!12'),
]

# ------------------------------------------------------------ the Opl namespace, files, sets and tuples from scripts
# (outputs by hand: S = {5, 6, 7}; item 1 is 6, ord of 7 is 2; floor(2.5) 2 ... minl(3, 1) 1; the files round-trip)
ENTRIES += [
    (SC, 'Opl.item / first / last / ord / next / prev / nextc / prevc', "out", '{int} S = {5, 6, 7};\nexecute { writeln(Opl.item(S, 1), " ", Opl.first(S), " ", Opl.last(S), " ", Opl.ord(S, 7), " ", Opl.next(S, 5), " ", Opl.prev(S, 7), " ", Opl.nextc(S, 7), " ", Opl.prevc(S, 5)); }\ndvar float+ x;\nminimize x;\n', None, '6 5 7 2 6 6 5 7'),
    (SC, 'Opl numeric functions (floor, ceil, round, sqrt, pow, exp, ln, log, lg, ftoi, frac, trunc, sgn, maxl, minl)', "out", 'execute { writeln(Opl.floor(2.5), " ", Opl.ceil(2.1), " ", Opl.round(2.6), " ", Opl.sqrt(4), " ", Opl.pow(2, 3), " ", Opl.exp(0), " ", Opl.ln(1), " ", Opl.log(100), " ", Opl.lg(8), " ", Opl.ftoi(2.7), " ", Opl.frac(2.5), " ", Opl.trunc(-2.5), " ", Opl.sgn(-3), " ", Opl.maxl(1, 4, 2), " ", Opl.minl(3, 1)); }\ndvar float+ x;\nminimize x;\n', None, '2 3 3 2 8 1 0 2 3 2 0.5 -2 -1 4 1'),
    (SC, 'Opl.rand / Opl.srand', "out", 'execute { Opl.srand(3); var r = Opl.rand(10); writeln(r >= 0 && r < 10 && r == Math.floor(r)); }\ndvar float+ x;\nminimize x;\n', None, 'true'),
    (SC, 'IloOplOutputFile.write / append mode', "out", 'execute { var f = new IloOplOutputFile("o.txt"); f.writeln("a"); f.close(); var g = new IloOplOutputFile("o.txt", true); g.write("b", 1); g.writeln(); g.close(); var h = new IloOplInputFile("o.txt"); writeln(h.readline(), h.readline()); h.close(); }\ndvar float+ x;\nminimize x;\n', None, 'ab1'),
    (SC, 'IloOplOutputFile.open', "out", 'execute { var f = new IloOplOutputFile(); f.open("o.txt"); f.writeln("z"); f.close(); var h = new IloOplInputFile("o.txt"); writeln(h.readline()); h.close(); }\ndvar float+ x;\nminimize x;\n', None, 'z'),
    (SC, 'IloOplInputFile.open', "out", 'execute { var f = new IloOplOutputFile("o.txt"); f.writeln("q"); f.close(); var h = new IloOplInputFile(); h.open("o.txt"); writeln(h.readline()); h.close(); }\ndvar float+ x;\nminimize x;\n', None, 'q'),
    (SC, 'IloTupleSet.add / find / get / size', "out", 'tuple T { key int id; string n; }\n{T} S = {<1, "a">};\nexecute { S.add(2, "b"); writeln(S.size, " ", S.find(2).n, " ", S.get(1).n); }\ndvar float+ x;\nminimize x;\n', None, '2 b a'),
    (SC, 'IloTupleSet.addOnly / remove / first', "out", 'tuple T { key int id; string n; }\n{T} S = {<1, "a">, <2, "b">};\nexecute { S.remove(S.find(1)); S.addOnly(3, "c"); writeln(S.size, " ", S.first().n); }\ndvar float+ x;\nminimize x;\n', None, '2 b'),
    (SC, 'set .first / .last / .next / .prev / .nextc / .prevc', "out", '{int} S = {5, 6, 7};\nexecute { writeln(S.first(), S.last(), S.next(5), S.prev(7), S.nextc(7), S.prevc(5)); }\ndvar float+ x;\nminimize x;\n', None, '576657'),
    (SC, 'set .contains / .remove / .addOnly', "out", '{int} S = {5, 6, 7};\nexecute { S.remove(6); S.addOnly(9); writeln(S.contains(6), " ", S.contains(9), " ", S.size); }\ndvar float+ x;\nminimize x;\n', None, 'false true 3'),
    (SC, 'data array .size / for-in over its indices', "out", 'float a[2..4] = [1, 2, 3];\nexecute { var t = 0; for (var i in a) t += i; writeln(a.size, " ", t); }\ndvar float+ x;\nminimize x;\n', None, '3 9'),
    (SC, 'dvar .LB / .UB (read)', "out", 'dvar float y in 1..4;\nminimize y;\nexecute { writeln(y.LB, " ", y.UB); }', None, '1 4'),
    (SC, 'dexpr array item', "out", 'dvar float y[1..2] in 0..3;\ndexpr float d[i in 1..2] = i * y[i];\nmaximize sum(i in 1..2) d[i];\nexecute { writeln(d[2]); }', None, '6'),
]
ENTRIES.append((SC, 'Opl.append', "out", 'int a[1..2] = [1, 2];\nexecute { writeln(Opl.append(a, 3)); }\n'
                'dvar float+ x;\nminimize x;\n', None, "1,2,3"))  # a script array of 1, 2 and 3 (ToString joins with ",")

# IBM ILOG Script's "Miscellaneous functions" and the rest of its built-in objects (outputs by hand; eval: IBM's examples)
ENTRIES += [
    (SK, "eval", "out", _s('writeln(eval("2*3"), " ", eval("var i=0; for (var j=0; j<100; j++) i=i+j; i"));'), None, "6 4950"),
    (SK, "stop", "code", "pyopl has no script debugger to stop in (IBM: stop() halts the program for the debugger)", None, "OPL1057"),
    (SK, "Number.MAX_VALUE / MIN_VALUE / NaN", "out", _s('writeln(Number.MAX_VALUE > 1e300, " ", Number.MIN_VALUE > 0, " ", '
     'isNaN(Number.NaN));'), None, "true true true"),
    (SK, "Date.setDate / setMonth / setFullYear", "out", _s('var d = new Date(2020, 0, 15); d.setDate(20); d.setMonth(1); '
     'd.setFullYear(2021); writeln(d.getFullYear(), " ", d.getMonth(), " ", d.getDate());'), None, "2021 1 20"),
    (SK, "Array.length (assigned: truncates)", "out", _s('var t = [1, 2, 3]; t.length = 1; writeln(t.length, " ", t[1]);'),
     None, "1 undefined"),
    (SK, "Math.max / Math.min of several or none", "out", _s('writeln(Math.max(1, 5, 3), " ", Math.min());'), None, "5 Infinity"),
    (SK, "string comparison < >", "out", _s('writeln("abc" < "abd", " ", "b" > "a");'), None, "true true"),
    (SK, "Boolean (object) / valueOf", "out", _s('var b = new Boolean(false); writeln(typeof b, " ", b.valueOf());'), None,
     "object false"),
]
CODE_MODELS["stop"] = _s('writeln("a"); stop(); writeln("b");')

# Opl.element / Opl.standardDeviation (IBM: "You can use this function within IBM ILOG Script statements by specifying
# the OPL namespace"): b flattened is 1 2 3 4 5 6, position 4 is 5; b[2] is 4 5 6; 2 4 4 4 5 5 7 9 has mean 5, variance 4
ENTRIES += [
    (SC, "Opl.element", "out", "float b[1..2][1..3] = [[1, 2, 3], [4, 5, 6]];\n" + _s('writeln(Opl.element(b, 4), " ", '
     'Opl.element(b[2], 0));'), None, "5 4"),
    (SC, "Opl.standardDeviation", "out", "int a[1..8] = [2, 4, 4, 4, 5, 5, 7, 9];\n" + _s("writeln(Opl.standardDeviation(a));"),
     None, "2"),
]

# IloOplSettings (IBM: "Accesses OPL settings"): the display and run settings are kept as assigned and change no result
ENTRIES.append((SC, "IloOplSettings (bigMapThreshold, displayWidth, mainEndEnabled, ...: kept, no effect)", "out",
                _s('settings.displayWidth = 80; settings.bigMapThreshold = 10; settings.mainEndEnabled = true; '
                   'writeln(settings.displayWidth, " ", settings.bigMapThreshold, " ", settings.mainEndEnabled);'),
                None, "80 10 true"))

# element / standardDeviation on data (IBM: "This function also works for integer arrays outside constraint blocks both
# in CP and CPLEX models"): IBM's example gives 3; b flattened is 1 2 3 4 5 6 (position 4: 5); 2 4 4 4 5 5 7 9: mean 5,
# variance 4, so 2; 1 1 3 3: mean 2, variance 1, so x >= 1
ENTRIES += [
    (FN, "element (on data)", "obj", "{int} s = {1, 2, 3};\nint r1 = element(all(i in s: i != 1) i, 1);\nassert r1 == 3;\n"
     + _v("r1"), None, 3.0),
    (FN, "element (on data, a 2-D array flattened)", "obj", "int b[1..2][1..3] = [[1, 2, 3], [4, 5, 6]];\n"
     + _v("element(b, 4)"), None, 5.0),
    (FN, "standardDeviation (on data)", "obj", "int a[1..8] = [2, 4, 4, 4, 5, 5, 7, 9];\n" + _v("standardDeviation(a)"),
     None, 2.0),
    (FN, "standardDeviation (on data, in a CP model)", "obj", "using CP;\nint a[1..4] = [1, 1, 3, 3];\ndvar int x in 0..5;\n"
     "minimize x;\nsubject to { x >= standardDeviation(a); }", None, 1.0),
]

# issue 44, third round: IBM's class names answered by `typeof` (IBM's typeof.mod prints IloDiscreteDataCollection,
# IloNumVar, IloNumExpr, IloIntRange), and the field names of a tuple or tuple set (T has fields id, n: 2 and "n")
_R3 = "tests/conformance/test_conf_mp_round3.py::"
ENTRIES += [
    (SK, "typeof (of OPL objects: IBM's class names)", "ref", _R3 + "test_typeof_answers_ibms_class_names", None, None),
    (SC, "IloTuple.getNFields / getFieldName", "out", 'tuple T { key int id; string n; }\nT t = <1, "a">;\n'
     'execute { writeln(t.getNFields(), " ", t.getFieldName(1), " ", t[t.getFieldName(1)]); }\ndvar float+ x;\nminimize x;\n',
     None, "2 n a"),
    (SC, "IloTupleSet.getNFields / getFieldName", "out", 'tuple T { key int id; string n; }\n{T} S = {<1, "a">};\n'
     'execute { writeln(S.getNFields(), " ", S.getFieldName(0)); }\ndvar float+ x;\nminimize x;\n', None, "2 id"),
    (SC, "IloTupleSet.getFieldName (past the last field)", "ref",
     _R3 + "test_get_field_name_past_the_last_field_is_a_script_error", None, None),
]
# IloConstraint.setBounds / IloNumVar.setBounds (IBM: "Sets lb as the lower bound and ub as the upper bound"), and a
# labelled constraint on data only kept as an (empty) row that `main` changes (IBM's incremental zoo example)
ENTRIES += [
    (SC, "constraint .setBounds", "out", _CAP + "main { thisOplModel.generate(); thisOplModel.cap.setBounds(0, 8); "
     "cplex.solve(); writeln(cplex.getObjValue()); }", None, "16"),  # x + y <= 8 with y <= 10: y = 8, 16
    (SC, "dvar .setBounds", "out", _CAP + "main { thisOplModel.generate(); thisOplModel.y.setBounds(0, 3); "
     "cplex.solve(); writeln(cplex.getObjValue()); }", None, "15"),  # y <= 3: x = 9, 9 + 6 = 15
    (SC, "constraint on data only (a row main can change)", "ref",
     _R3 + "test_a_labelled_constraint_on_data_only_is_a_row_main_can_change", None, None),
]
# staticLexFull (IBM: "OPL function for use in CPLEX models with a multi-criteria objective"): goals x, y maximised with
# x + y <= 10, x first (priority 2) with an absolute tolerance of 3: x = 7, y = 3 (by hand); the objective is x's value
ENTRIES.append((FN, "staticLexFull", "obj", "dvar int x in 0..10;\ndvar int y in 0..10;\ndexpr float g[i in 1..2] = "
                "(i == 1) ? x : y;\nfloat w[1..2] = [1, 1];\nint p[1..2] = [2, 1];\nfloat at[1..2] = [3, 0];\n"
                "float rt[1..2] = [0, 0];\nmaximize staticLexFull(g, w, p, at, rt);\nsubject to { x + y <= 10; }", None, 7.0))
ENTRIES.append((FN, "staticLexFull (priorities, blending, tolerances)", "ref", _R3 +
                "test_static_lex_full_orders_by_priority_and_keeps_each_level_within_its_tolerance", None, None))
ENTRIES.append((SC, "IloOplModel.dataElements changed after a solve, then a new model generated", "ref", _R3 +
                "test_data_changed_after_a_solve_then_a_new_model_generated_from_it", None, None))
