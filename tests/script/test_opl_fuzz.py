"""Random token mutations of a post-processing block that touches every kind of host object:
each run ends normally or with a user diagnostic, never with an exception or an internal error."""
from __future__ import annotations

import copy
import random
import re

import pyopl
from pyopl.script.flow.processing import run_post

MODEL = """
tuple Arc { key string o; key string d; float cost; }
{Arc} Arcs = {<"a", "b", 2>, <"b", "c", 3>};
{string} N = {"a", "b", "c"};
float w[N] = [1, 2, 3];
range R = 1..3;
dvar float+ f[Arcs] in 0..4;
dexpr float total = sum(a in Arcs) a.cost * f[a];
maximize total;
subject to { cap: sum(a in Arcs) f[a] <= 5; forall(n in N) node[n]: sum(a in Arcs: a.o == n) f[a] <= w[n]; }
execute {
  for (var a in Arcs) { writeln(a.o, "->", a.d, " ", f[a], " ", f[a].UB, " ", a.cost * w[a.o]); }
  var t = Arcs.find("a", "b"); writeln(t.cost, N.next("a"), N.size, R.UB, Opl.card(N), Opl.ord(N, "c"));
  writeln(total, cap.dual, node["a"].slack, cplex.getObjValue(), cplex.status, thisOplModel.w["b"]);
  var s = 0; for (var n in w) s += w[n]; writeln(s, N, w, f);
}
"""
TOKEN = re.compile(r'"[^"]*"|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|\S')
EXTRA = ["[", "]", ".", "(", ")", "size", "first()", "UB", "LB", "dual", "solutionValue", "next", "+", "-",
         '"a"', '"zz"', "0", "-1", "99", "null", "undefined", "thisOplModel", "cplex", "Opl", "find", "add",
         "for", "in", "var", "=", ";", "{", "}", "writeln", "R", "N", "Arcs", "f", "w", "cap", "node", "total"]


def test_mutated_post_processing_never_crashes():
    model = pyopl.compile_model(MODEL)
    result = model.solve()
    ctx = model.script
    assert result.script_output.startswith("a->b ")
    (block,) = ctx.post_blocks
    base = TOKEN.findall(block.body)
    rng = random.Random(20261201)
    for _ in range(250):
        toks = list(base)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(toks))
            op = rng.random()
            if op < 0.35:
                del toks[k]
            elif op < 0.7:
                toks.insert(k, rng.choice(EXTRA))
            else:
                toks[k] = rng.choice(EXTRA + base)
        mutated = copy.copy(block)
        mutated.body = " ".join(toks)
        ctx.post_blocks = [mutated]
        res = copy.copy(result)
        res.diagnostics = []
        run_post(ctx, res, model.ir)
        assert not [d for d in res.diagnostics if d.code == "OPL0605"], (mutated.body, res.diagnostics)
        for d in res.diagnostics:
            assert d.message and d.line >= 1
