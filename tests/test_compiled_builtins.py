"""Built-in calls, casts, membership and ``div``/``mod``/``^`` through compiled closures
(pyopl/lowering/evaluate/compiled.py, compiled_calls.py) give exactly what the tree walk gives.

Two levels: random expressions evaluated directly (a closure either gives the tree walk's value, of
the same type and to the bit, or raises so that the tree walk evaluates the node; ``evaluate_fast``
then gives the tree walk's value or error, word for word), and whole models whose filters, computed
sets and rows use these calls, compiled with closures and without (the same IR and diagnostics).
"""
from __future__ import annotations

import math
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from property_budget import SPEED_CHECKS, examples

import pyopl
from pyopl.diagnostics.reporter import Reporter
from pyopl.lowering.evaluate import compiled
from pyopl.lowering.model import constraints, driver
from pyopl.lowering.forms.errors import EvalError
from pyopl.lowering.model.instance import Instance
from pyopl.lowering.forms.linear import LinExpr
from pyopl.semantics.values import OplRange, OplSet
from pyopl.syntax.parser import parse_model
from ir_compare import assert_same_bits

DECLS = """
{int} S = {7, 3, 9, 4};
{float} F = {0.5, -0.0, 2, 1e300};
{string} W = {"a", "b", "c"};
range R = 1..5;
{int} E = {};
tuple T { string s; int k; float w; }
{T} Ts = {<"a", 1, 2.5>, <"b", 2, -0.0>};
int a[R] = [1, 0, 3, -4, 5];
float d[W] = [1.5, -0.0, 2];
{int} sub[k in R] = {i | i in S : (k div ftoi(pow(2, ord(S, i)))) mod 2 == 1};
dvar float x[R];
dvar int y in 0..10;
minimize y;
"""


@pytest.fixture(scope="module")
def inst():
    reporter = Reporter()
    model = parse_model(DECLS, "<decls>", reporter)
    instance = Instance(model, {}, reporter)
    driver.run(instance)
    assert not reporter.has_errors, reporter.diagnostics
    return instance


def _exact(v):
    """A value as a comparable record: its type and, for floats, its bits (-0.0 and nan told apart)."""
    if type(v) is float:
        return ("float", struct.pack("<d", v))
    if isinstance(v, LinExpr):
        return ("LinExpr", sorted(v.terms.items()), struct.pack("<d", v.const))
    if isinstance(v, (OplSet, OplRange)):
        return (type(v).__name__, [_exact(x) for x in v])
    if isinstance(v, tuple):
        return (type(v).__name__, [_exact(x) for x in v])
    return (type(v).__name__, repr(v))


def _outcome(f):
    try:
        v = f()
    except EvalError as e:
        return ("error", e.slug, e.message, e.span, e.help, e.notes, type(e).__name__)
    except Exception as e:  # what the tree walk lets through is reported as an internal error upstream
        return ("crash", type(e).__name__)
    return ("value", _exact(v))


def _expr(text: str):
    reporter = Reporter()
    model = parse_model("float probe = %s;" % text, "<probe>", reporter)
    assert model is not None and not reporter.has_errors, (text, reporter.diagnostics)
    return model.items[0].init


INTS = [-2, 0, 1, 3, 4, 7, 9, 2 ** 70, 2 ** 1001, -(2 ** 1100), True]
FLOATS = [0.5, -0.0, 0.0, 2.0, 3.0, 1e300, -1e308, math.inf, math.nan, 2.5]
STRINGS = ["a", "c", "z", ""]
FUNCS = ["floor", "ceil", "round", "trunc", "sqrt", "exp", "log", "lg", "ln", "frac", "sgn", "sin", "cos", "tan",
         "atan", "asin", "acos", "ftoi", "abs", "pow", "min", "max", "minl", "maxl", "card", "first", "last", "ord",
         "next", "prev", "nextc", "prevc", "item", "asSet"]
ATOMS = ["i", "f", "s", "t", "t.k", "t.w", "t.s", "S", "F", "W", "R", "E", "a[i]", "d[s]", "sub[i]", "0", "1", "2",
         "-3", "2.5", "-0.0", "1e308", "true", "false", "\"a\"", "x[1]", "maxint", "infinity", "17", "(2 ^ 1100)",
         "t.nope", "y", "(0 - 2 ^ 1100)"]
# Exponents stay small: an int raised to a huge int takes as long in both paths (and all the memory).
EXPONENTS = ["2", "3", "-1", "0", "0.5", "-0.0", "f", "true", "\"a\"", "x[1]", "S", "(2 - 1)"]
BINOPS = ["+", "-", "*", "/", "div", "mod", "^", "in", "not in", "&&", "||", "union", "diff"]
CMPS = ["==", "!=", "<", "<=", ">", ">="]


@st.composite
def expressions(draw, depth: int = 4):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(ATOMS))
    kind = draw(st.integers(0, 9))
    if kind <= 3:
        f = draw(st.sampled_from(FUNCS))
        n = draw(st.sampled_from([1, 1, 2, 2, 0, 3]))
        args = [draw(expressions(depth - 1)) for _ in range(n)]
        if f == "pow" and n == 2:
            args[1] = draw(st.sampled_from(EXPONENTS))
        return "%s(%s)" % (f, ", ".join(args))
    if kind <= 6:
        op = draw(st.sampled_from(BINOPS))
        right = draw(st.sampled_from(EXPONENTS)) if op == "^" else draw(expressions(depth - 1))
        return "(%s %s %s)" % (draw(expressions(depth - 1)), op, right)
    if kind == 7:
        return "(%s %s %s)" % (draw(expressions(depth - 1)), draw(st.sampled_from(CMPS)), draw(expressions(depth - 1)))
    if kind == 8:
        return "%s(%s)" % (draw(st.sampled_from(["int", "float"])), draw(expressions(depth - 1)))
    return "(%s ? %s : %s)" % (draw(expressions(depth - 1)), draw(expressions(depth - 1)), draw(expressions(depth - 1)))


NUM_ATOMS = ["i", "k", "t.k", "t.w", "a[k]", "f", "2", "3", "-1", "2.5", "-0.0", "1e300", "true"]
SET_ATOMS = ["S", "R", "F", "E", "sub[k]", "W"]
UNARY = ["floor", "ceil", "round", "trunc", "sqrt", "exp", "log", "lg", "ln", "frac", "sgn", "sin", "cos", "tan",
         "atan", "asin", "acos", "ftoi", "abs", "int", "float"]


@st.composite
def numbers(draw, depth: int = 4):
    """Mostly well-typed numeric expressions (the shapes closures cover), with some errors among them."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(NUM_ATOMS))
    kind = draw(st.integers(0, 11))
    sub = numbers(depth - 1)
    if kind <= 1:
        return "%s(%s)" % (draw(st.sampled_from(UNARY)), draw(sub))
    if kind == 2:
        return "pow(%s, %s)" % (draw(sub), draw(st.sampled_from(EXPONENTS[:8] + ["k", "i"])))
    if kind == 3:
        f = draw(st.sampled_from(["min", "max", "minl", "maxl"]))
        if draw(st.booleans()):
            return "%s(%s)" % (f, draw(st.sampled_from(SET_ATOMS)))
        return "%s(%s)" % (f, ", ".join(draw(sub) for _ in range(draw(st.integers(1, 3)))))
    if kind == 4:
        f = draw(st.sampled_from(["card", "first", "last"]))
        return "%s(%s)" % (f, draw(st.sampled_from(SET_ATOMS)))
    if kind in (5, 11):
        f = draw(st.sampled_from(["ord", "next", "prev", "nextc", "prevc", "item"]))
        arg = draw(st.one_of(st.sampled_from(["i", "k", "f", "t.k", "0", "2"]), sub))
        return "%s(%s, %s)" % (f, draw(st.sampled_from(SET_ATOMS)), arg)
    if kind <= 8:
        op = draw(st.sampled_from(["+", "-", "*", "/", "div", "mod", "^", "div", "mod"]))
        right = draw(st.sampled_from(EXPONENTS[:8] + ["k", "i"])) if op == "^" else draw(sub)
        return "(%s %s %s)" % (draw(sub), op, right)
    if kind == 9:
        return "(%s ? %s : %s)" % (draw(conditions(depth - 1)), draw(sub), draw(sub))
    if kind == 10:
        return "(%s)" % draw(conditions(depth - 1))


@st.composite
def conditions(draw, depth: int = 3):
    sub = numbers(max(depth - 1, 0))
    kind = draw(st.integers(0, 4))
    if kind <= 1:
        return "%s %s %s" % (draw(sub), draw(st.sampled_from(CMPS)), draw(sub))
    if kind <= 3:
        return "%s %s %s" % (draw(sub), draw(st.sampled_from(["in", "not in"])), draw(st.sampled_from(SET_ATOMS)))
    return "(%s) && (%s)" % (draw(conditions(max(depth - 1, 0))), draw(conditions(max(depth - 1, 0))))


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, *SPEED_CHECKS])
@given(text=st.one_of(numbers(), conditions()), i=st.sampled_from([7, 3, 9, 4, 1, -5, True]),
       k=st.integers(1, 5), f=st.sampled_from(FLOATS), n=st.integers(0, 1))
def test_random_typed_expressions_agree_with_the_tree_walk(inst, text, i, k, f, n):
    t = list(inst.symbols["Ts"].value)[n]
    _agree(inst, text, {"i": i, "k": k, "f": f, "s": "a", "t": t})


def _state(inst) -> tuple:
    return len(inst.cols.lower), len(inst.rows), len(inst.reporter.diagnostics)


def _agree(inst, text: str, env: dict) -> bool:
    """Checks one expression in one environment; True when its closure gave the value itself."""
    ev = inst.ev
    node = _expr(text)
    state = _state(inst)
    walk = _outcome(lambda: ev.evaluate(node, env))
    added = _state(inst) != state  # (a column or row for a decision, a warning)
    try:
        fn = compiled.compile_expr(ev, node)
    except compiled._Unsupported:
        fn = None
    direct = None
    if fn is not None:
        state = _state(inst)
        direct = _outcome(lambda: fn(env))
        assert _state(inst) == state, text  # a closure adds nothing and reports nothing
        if direct[0] == "value":
            assert not added, text  # the tree walk added a column: a closure may not give that value
            assert direct == walk, (text, env)
    if not added:
        for _ in range(3):  # the first evaluation walks the tree, the next ones go through the closure
            assert _outcome(lambda: ev.evaluate_fast(node, env)) == walk, (text, env)
    return direct is not None and direct[0] == "value"


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, *SPEED_CHECKS])
@given(text=expressions(), i=st.sampled_from(INTS), f=st.sampled_from(FLOATS), s=st.sampled_from(STRINGS),
       k=st.integers(0, 1))
def test_random_expressions_agree_with_the_tree_walk(inst, text, i, f, s, k):
    t = list(inst.symbols["Ts"].value)[k]
    _agree(inst, text, {"i": i, "f": f, "s": s, "t": t})


PLAIN = [
    "ftoi(pow(2, ord(S, i)))", "(i div ftoi(pow(2, ord(S, i)))) mod 2 == 1", "card(sub[i]) - 1", "i in S",
    "ord(S, i)", "ord(R, i mod 5 + 1) + 0.5", "i not in sub[i]", "t.k in S", "s in W", "f in F", "abs(i - 10)",
    "min(i, 2.5, f)", "max(S)", "maxl(a[i], 0)", "first(S) + last(W)", "next(S, i)", "prevc(S, i)", "item(W, 2)",
    "sqrt(i)", "floor(f)", "round(2.5) + sgn(-i)", "int(f) + float(i)", "i mod 3", "-i mod 3", "i div -2", "2 ^ i",
    "f mod 0.75", "lg(1000) + ln(1) + exp(0)",
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_calls_go_through_closures(inst, text):
    """The common shapes are covered (a regression that always fell back would pass the random test)."""
    envs = [{"i": i, "f": 2.5, "s": "b", "t": list(inst.symbols["Ts"].value)[0]} for i in (3, 7, 9, 4)]
    covered = [_agree(inst, text, env) for env in envs]
    assert any(covered), text


def test_sets_keep_closures_exact_for_floats_and_ints(inst):
    # `2 in F` (a float set holding 2.0), `-0.0 in F`, an int index in a float set, a tuple of a set
    for text in ("2 in F", "-0.0 in F", "0 in F", "1e300 in F", "ord(F, 2)", "ord(F, -0.0)", "ord(R, 2.0)"):
        _agree(inst, text, {})


# --------------------------------------------------------------------------- whole models
def _compile(mod: str, monkeypatch, closures: bool):
    monkeypatch.setattr(constraints, "vector_forall", lambda inst, s, env: False)
    if not closures:
        def unsupported(ev, node, depth=0):
            raise compiled._Unsupported
        monkeypatch.setattr(compiled, "compile_expr", unsupported)
    diags = pyopl.check(mod)
    try:
        ir = pyopl.compile_model(mod).ir
    except pyopl.CompileError:
        ir = None
    monkeypatch.undo()
    return ir, [(d.code, d.severity, d.message, d.span, d.notes, d.help) for d in diags]


STATEMENTS = [
    "forall(k in R) ct1: sum(i in sub[k]) x[i mod 5 + 1] <= card(sub[k]);",
    "forall(k in R, i in S : (k div ftoi(pow(2, ord(S, i)))) mod 2 == 1) x[k] >= ord(S, i) / 2;",
    "forall(i in S : next(S, i) > i) x[1] >= next(S, i);",
    "forall(i in S) x[1] >= next(S, i);",
    "forall(i in S) x[1] >= prev(S, i) + nextc(S, i) - prevc(S, i);",
    "forall(k in R) x[k] <= abs(a[k]) + max(a[k], 1) - min(S) + maxl(1, 2, k);",
    "forall(k in R) x[k] >= abs(x[k] - 2);",
    "forall(k in R) y >= max(x[k], 2);",
    "forall(k in R) x[k] >= sqrt(a[k]);",
    "forall(k in R) x[k] >= log(a[k] + 4) + item(S, k);",
    "forall(k in R) x[k] >= item(S, k - 1) + first(sub[k]);",
    "forall(k in R : k in S || k not in sub[k]) x[k] <= int(2.7 * k) + float(k) / 3;",
    "forall(k in R) x[k] <= pow(2, k) + 2 ^ (k - 3) + k mod -3 + k div 0;",
    "forall(k in R) x[k] <= pow(0, k - 3);",
    "forall(k in R) x[k] <= ftoi(x[k]);",
    "forall(k in R) x[k] <= card(k);",
    "forall(k in R) x[k] <= ord(W, k);",
    "forall(k in R) x[k] <= min();",
    "forall(k in R) x[k] <= floor(1, 2);",
    "forall(k in R) x[k] <= max(W) + min(E);",
    "forall(k in R) x[k] <= (x[k] in S);",
    "forall(k in R) x[k] <= (k in x[k]);",
    "forall(k in R) x[k] <= rand(3) * 0;",
]


@pytest.mark.parametrize("stmt", STATEMENTS)
def test_models_match_without_closures(stmt, monkeypatch):
    mod = DECLS + "{int} big[k in 1..40] = {i | i in 0..12 : (k div ftoi(pow(2, i))) mod 2 == 1 && i in S};\n" \
        "subject to {\n  %s\n}\n" % stmt
    on = _compile(mod, monkeypatch, True)
    off = _compile(mod, monkeypatch, False)
    assert_same_bits(on[0], off[0])
    assert on[1] == off[1]


def test_remembered_calls_tell_equal_keys_of_other_types_apart(inst):
    """A call's value is remembered by the values of its names: ``1``, ``1.0`` and ``True`` are equal
    dict keys, ``-0.0`` and ``0.0`` too, yet give other values; each must get its own."""
    for text in ("pow(2, i)", "ftoi(pow(2, i)) + 0 * card(sub[1])", "abs(i) / -1", "maxl(i, 0.0)", "item(S, i)",
                 "ord(W, s)", "next(F, i)"):
        for i in (1, 1.0, True, 1, -0.0, 0.0, 0, False, -0.0, 2.0, 2):
            assert _agree(inst, text, {"i": i, "s": "b"}) in (True, False)


def test_remembered_calls_stop_keeping_values(inst, monkeypatch):
    from pyopl.lowering.evaluate import compiled_calls

    monkeypatch.setattr(compiled_calls, "_MEMO_SIZE", 3)
    node = _expr("pow(2, i) + ord(R, k) + card(sub[k])")
    fn = compiled.compile_expr(inst.ev, node)
    for n in range(40):  # one closure, more keys than it keeps, each met several times
        env = {"i": n % 7 if n % 3 else float(n % 7), "k": 1 + n % 5}
        assert _outcome(lambda: fn(env)) == _outcome(lambda: inst.ev.evaluate(node, env)), env
