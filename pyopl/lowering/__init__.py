"""Lowering: the checked model and its data evaluated into the instance (symbols, columns, rows,
CP records) and built into the IR, in seven sub-folders, each importing only itself and the ones
below it (docs/architecture.md, "Layers"):

- ``model/``: the driver, the ``Instance``, declarations, constraint statements, the IR build, the
  solution check at a point;
- ``evaluate/``: the tree walk (the ``Evaluator``) and the compiled closures, one value per expression;
- ``cp/``: the constructs of ``using CP;`` models kept for CP-SAT (global constraints, intervals,
  sequences, cumul, state and step functions);
- ``functions/``: the one table of OPL's built-in functions and the readers of their array arguments;
- ``linearise/``: what is not a plain linear row (logic, ``min``/``max``/``abs``, piecewise, quadratic
  forms, lexicographic objectives, CP integer arithmetic);
- ``arrays/``: the NumPy paths (sums, ``forall`` families of rows, generic arrays), bit-identical to
  the tree walk;
- ``forms/``: the vocabulary every path shares: ``LinExpr``, ``EvalError``, symbols, value tests,
  budgets, the CP record.

The package itself exports nothing: import the module that holds a name (``pyopl.lowering.model.driver``).
"""
