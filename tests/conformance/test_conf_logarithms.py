"""OPL's three logarithms as IBM's OPL Language Quick Reference defines them: `log` base 10 ("log":
log(100) gives 2, log(20) gives 1.301029995663981), `ln` natural ("ln": ln(100) gives
4.605170185988092), `lg` base 2 ("lg": lg(128) gives 7, lg(20) gives 4.321928094887363); the same
functions in scripts through the `Opl` namespace ("you can use it within IBM ILOG Script statements
by specifying the OPL namespace"), while JavaScript's `Math.log` stays natural."""
from __future__ import annotations

import math

import pyopl


def test_log_ln_lg_in_the_model_follow_ibms_pages():
    text = """float lo = log(100);
float lo20 = log(20);
float na = ln(100);
float two = lg(128);
float two20 = lg(20);
dvar float x;
minimize x;
subject to { x >= lo + lg(8); }
execute { writeln(lo, " ", lo20, " ", na, " ", two, " ", two20); }"""
    r = pyopl.solve(text)
    lo, lo20, na, two, two20 = (float(v) for v in r.script_output.split())
    assert (lo, two) == (2.0, 7.0)
    assert abs(lo20 - 1.301029995663981) < 1e-12 and abs(na - 4.605170185988092) < 1e-12
    assert abs(two20 - 4.321928094887363) < 1e-12
    assert abs(r.objective - 5.0) < 1e-9  # log(100) + lg(8) = 2 + 3, by hand


def test_opl_namespace_logarithms_and_math_log_in_scripts():
    r = pyopl.solve("""execute {
  writeln(Opl.log(1000), " ", Opl.lg(1024), " ", Opl.ln(1), " ", Math.log(Math.E), " ", Opl.log(0));
}
dvar float+ x;
minimize x;""")
    assert r.script_output.split() == ["3", "10", "0", "1", "-Infinity"]
    assert math.log10(1000) == 3 and math.log2(1024) == 10  # the values above, by Python's own functions


def test_opl_namespace_has_frac_sgn_ftoi_as_the_model_has_them():
    """IBM's function pages ("frac", "sgn", "ftoi": usable in scripts as Opl.xxx()): by hand,
    frac(2.75) = 0.75, frac(-2.5) = -0.5, sgn(-3) = -1, sgn(0) = 0, ftoi(3.9) = 3, ftoi(-3.9) = -3;
    the model's own functions give the same."""
    r = pyopl.solve("""float m[1..6] = [frac(2.75), frac(-2.5), sgn(-3), sgn(0), ftoi(3.9), ftoi(-3.9)];
execute {
  writeln(Opl.frac(2.75), " ", Opl.frac(-2.5), " ", Opl.sgn(-3), " ", Opl.sgn(0), " ", Opl.ftoi(3.9), " ", Opl.ftoi(-3.9));
  writeln(m);
}
dvar float+ x;
minimize x;""")
    assert r.script_output.splitlines() == ["0.75 -0.5 -1 0 3 -3", "[0.75 -0.5 -1 0 3 -3]"]
