"""OPL0431 (value-out-of-range) from ``build.check_numbers``: coefficients and bounds no solver can take
are reported, and the infinities a bound may have on its own side (-inf below, +inf above) are not.
The check first looks only at each array's minimum and maximum; these cases put the bad number in
each array (coefficients, row bounds, column bounds), in small models and in an array-built family."""
import pytest

import pyopl
from pyopl import CompileError


def _message(src: str, dat: str | None = None) -> str | None:
    try:
        pyopl.compile_model(src, dat)
    except CompileError as e:
        return str(e)
    return None


@pytest.mark.parametrize("src, expected", [
    ("float big = 1e16; dvar float x; minimize x; subject to { c: big * x >= 1; }",
     "the coefficient of `x` in the constraint `c` is 1e+16"),
    ("dvar float+ x; minimize x; subject to { c: x <= 1e16; }", "the constraint `c` has the bounds [-inf, 1e+16]"),
    ("dvar float+ x; minimize x; subject to { c: -x <= 1e16; }", "the constraint `c` has the bounds [-inf, 1e+16]"),
    ("dvar float+ x; minimize x; subject to { c: x >= -1e16; }", "the constraint `c` has the bounds [-1e+16, inf]"),
    ("dvar float x in -1e16..0; minimize x;", "the variable `x` has the bounds [-1e+16, 0.0]"),
    ("dvar float x in 0..1e16; minimize x;", "the variable `x` has the bounds [0.0, 1e+16]"),
])
def test_out_of_range_numbers_are_reported(src, expected):
    msg = _message(src)
    assert msg is not None and "OPL0431" in msg and expected in msg, msg


def test_infinities_on_their_own_side_are_accepted():
    src = ("dvar float x in -infinity..infinity; dvar float+ y; minimize y;\n"
           "subject to { c: x >= -infinity; d: x <= infinity; e: x - y <= 1; f: x + y >= -3; }")
    assert _message(src) is None


_FAMILY = """int n = ...; range R = 1..n; float a[R] = ...; float b[R] = ...;
dvar float+ x[R];
minimize sum(i in R) x[i];
subject to { forall(i in R) ct: a[i] * x[i] >= b[i]; }
"""


def _family_dat(n: int, at: int, a: str = "1", b: str = "1") -> str:
    av = ["2"] * n
    bv = ["1"] * n
    av[at], bv[at] = a, b
    return "n = %d; a = [%s]; b = [%s];" % (n, ", ".join(av), ", ".join(bv))


def test_array_family_accepted_and_bad_entry_found_by_row():
    """A 5,000-row family (the array path): clean data compiles; one huge coefficient or bound in the
    middle is reported with the row it sits in."""
    n = 5000
    assert _message(_FAMILY, _family_dat(n, 10, "2", "1")) is None
    msg = _message(_FAMILY, _family_dat(n, 4321, a="3e15"))
    assert msg is not None and "the coefficient of `x[4322]` in the constraint `ct[4322]` is 3000000000000000.0" in msg, msg
    msg = _message(_FAMILY, _family_dat(n, 77, b="-2e15"))
    assert msg is not None and "the constraint `ct[78]` has the bounds [-2000000000000000.0, inf]" in msg, msg
