"""``cp.exportModel("m.cpo")``: the generated model in CP Optimizer's .cpo format (pyopl/backends/cp/cpo_export.py),
for integer decisions, linear constraints, allDifferent and a linear objective; a warning otherwise.
The expected text is written by hand from the model (IBM's own export of the first model is in
../shared/cp-corpus/afp-zoo-zoocpoexportmodel/model.mod: the same statements, as scalProd)."""
import pyopl


def test_a_linear_integer_model_is_written(tmp_path):
    mod = tmp_path / "m.mod"
    mod.write_text("""using CP;
float costBus40 = 500; float costBus30 = 400;
dvar int+ nbBus40; dvar int+ nbBus30; dvar int x[1..2] in -3..4;
minimize costBus40 * nbBus40 + nbBus30 * costBus30 - x[1];
subject to {
  kids: 40 * nbBus40 + nbBus30 * 30 >= 300;
  2 <= x[1] - x[2] <= 5;
  allDifferent(all(i in 1..2) x[i] + i);
}
main { thisOplModel.generate(); cp.exportModel("zoo.cpo"); }
""")
    r = pyopl.compile_model(str(mod), output_dir=str(tmp_path)).solve()
    text = (tmp_path / "zoo.cpo").read_text()
    body = [line for line in text.splitlines() if line and not line.startswith("//")]
    assert body == [
        "nbBus40 = intVar(0..intmax);",
        "nbBus30 = intVar(0..intmax);",
        "x_1 = intVar(-3..4);  // x[1]",
        "x_2 = intVar(-3..4);  // x[2]",
        "minimize(500*nbBus40 + 400*nbBus30 - x_1);",
        "40*nbBus40 + 30*nbBus30 >= 300;  // kids",
        "range(x_1 - x_2, 2, 5);",
        "allDiff([x_1 + 1, x_2 + 2]);",
    ]
    assert not [d for d in r.diagnostics if d.code == "OPL1058"]


def test_a_model_with_intervals_is_not_written(tmp_path):
    mod = tmp_path / "m.mod"
    mod.write_text("""using CP;
dvar interval a size 3;
minimize endOf(a);
main { thisOplModel.generate(); cp.exportModel("s.cpo"); }
""")
    r = pyopl.compile_model(str(mod), output_dir=str(tmp_path)).solve()
    assert not (tmp_path / "s.cpo").exists()
    d = [d for d in r.diagnostics if d.code == "OPL1058"]
    assert d and "does not write interval variables yet; nothing is written" in d[0].message
