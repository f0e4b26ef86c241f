"""An iterator is known only inside its own aggregate or `forall` (IBM OPL language reference,
"Aggregate operators" and "forall"): the same name bound in two sibling `sum`s over sets of
different tuple types has the type of its own set in each (issue 34, item 1; before, the name
kept one type for the whole item and valid OPL got OPL0217)."""
from __future__ import annotations

import pyopl

HEAD = ("tuple P { string a; int b; }\ntuple Q { int c; string d; string e; }\n"
        "{P} A = {<\"x\", 1>, <\"y\", 2>};\n{Q} B = {<1, \"u\", \"v\">};\n"
        "dvar float+ x[A] in 0..3;\ndvar float+ y[B] in 0..4;\n")


def test_sibling_sums_reuse_an_iterator_name_over_different_tuple_types():
    model = HEAD + ("maximize sum(t in A) t.b * x[t] + sum(t in B) t.c * y[t] + sum(t in B) y[t];\n"
                    "subject to { forall(t in A) x[t] <= 3; forall(t in B) y[t] <= 4; }\n")
    assert [d for d in pyopl.check(model) if d.is_error] == []
    r = pyopl.compile_model(model).solve()
    # by hand: x at its bound 3 with weights 1 and 2, y at 4 with weight 1 (t.c) + 1
    assert r.objective == 1 * 3 + 2 * 3 + 1 * 4 + 4


def test_an_inner_iterator_shadows_an_outer_one_of_another_type():
    model = HEAD + ("minimize sum(t in A) (x[t] + sum(t in B) y[t]);\nsubject to { x[<\"x\", 1>] >= 0; }\n")
    assert [d for d in pyopl.check(model) if d.is_error] == []


def test_an_iterator_of_the_wrong_type_is_still_a_type_error_in_its_own_scope():
    model = HEAD + "minimize sum(t in B) y[t] + sum(t in A) y[t];\nsubject to { x[<\"x\", 1>] >= 0; }\n"
    errs = [d for d in pyopl.check(model) if d.is_error]
    assert [d.code for d in errs] == ["OPL0217"]
    assert errs[0].span.line == 7 and errs[0].span.column == len("minimize sum(t in B) y[t] + sum(t in A) y[") + 1
    assert "`Q` tuples" in errs[0].message and "`P`" in errs[0].message
