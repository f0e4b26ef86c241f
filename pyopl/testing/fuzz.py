"""Mutations of valid models and data for robustness checks (tests and ``tools/fuzz_diagnostics.py``).

A mutation deletes, duplicates or swaps tokens, inserts a random character, or truncates.
``compile_safely`` compiles one input and returns (crashed, seconds, diagnostics): a crash is a
Python exception escaping ``pyopl.check`` or an internal-error diagnostic (OPL0605).
"""
from __future__ import annotations

import random
import re
import time

TOKEN = re.compile(r'"[^"\n]*"|\d+\.\d*|\d+|[A-Za-z_]\w*\+?|\.\.\.|\.\.|[<>=!]=|=>|&&|\|\||\S')
CHARS = '{}[]()<>;:,.=+-*/^!&|#"\'@$ \n\tx1'

SEEDS = [
    """{string} Cities = {"Rome", "Paris", "Berlin"};
float cap[Cities] = [10, 20, 30];
float demand = 25;
dvar float+ x[Cities] in 0..100;
dvar boolean open[Cities];
minimize sum(c in Cities) (2 * x[c] + 5 * open[c]);
subject to {
  forall(c in Cities) ctCap: x[c] <= cap[c] * open[c];
  sum(c in Cities) x[c] >= demand;
  open["Rome"] == 1 => x["Rome"] >= 3;
}""",
    """tuple Arc { string f; string t; float cost; }
{Arc} Arcs = {<"a", "b", 2.5>, <"b", "c", 1>};
dvar float+ flow[Arcs];
dexpr float total = sum(a in Arcs) a.cost * flow[a];
minimize total;
subject to { forall(a in Arcs : a.cost > 1) flow[a] >= 1; }""",
    """int n = ...;
range R = 1..n;
float w[R] = ...;
dvar int y[R] in 0..5;
maximize sum(i in R) w[i] * y[i];
subject to { sum(i in R) y[i] <= n; }""",
]
DATA_SEEDS = ["n = 3;\nw = [1.5, 2, 3];", 'n = 2;\nw = #[1: 4, 2: 5]#;']


def mutate(text: str, rng: random.Random) -> str:
    toks = [m.group(0) for m in TOKEN.finditer(text)]
    ops = rng.randint(1, 3)
    for _ in range(ops):
        op = rng.randrange(6)
        if not toks:
            break
        k = rng.randrange(len(toks))
        if op == 0:
            del toks[k]
        elif op == 1:
            toks.insert(k, toks[k])
        elif op == 2:
            j = rng.randrange(len(toks))
            toks[k], toks[j] = toks[j], toks[k]
        elif op == 3:
            toks.insert(k, rng.choice(CHARS))
        elif op == 4:
            toks = toks[:k]
        else:
            toks[k] = rng.choice(toks)
    return " ".join(toks)


def random_dat(rng: random.Random) -> str:
    return "".join(rng.choice('n=w[]{}<>#:;,."ab 0123456789.-\n') for _ in range(rng.randint(0, 60)))


def compile_safely(model: str, data: str | None, limits=None):
    """``limits``: a :class:`pyopl.Limits` for the compile (None: the defaults)."""
    import pyopl

    t = time.perf_counter()
    try:
        diags = pyopl.check(model, data, limits=limits)
    except Exception as e:  # noqa: BLE001 - the point is to catch anything
        return e, time.perf_counter() - t, []
    crashed = next((d for d in diags if d.code == "OPL0605"), None)
    return crashed, time.perf_counter() - t, diags
