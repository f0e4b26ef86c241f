"""Decision expressions that are not a plain linear row: logical constraints as binary literals and
big-M rows (with M from implied bounds, ``bounds.py``), ``min``/``max``/``abs`` (epigraphs),
piecewise-linear functions and the check that their LP form is exact, quadratic forms,
``staticLexFull``, and the non-linear integer arithmetic of ``using CP;`` models (``cp_arith.py``).

May import: ``pyopl.lowering.forms`` and the layers below lowering (``backends/capabilities.py`` and
``backends/cpsat_scale.py``: the two listed exceptions).
"""
