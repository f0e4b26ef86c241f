"""Independent formulations of the knowledge-base exemplars.

Each module ``<exemplar>.py`` rebuilds the exemplar's optimisation problem
directly in Python (with :mod:`tests.kb_independent.lp`, a thin layer over
``scipy.optimize.milp`` / ``highspy``, or by brute force), without going
through the OPL model.  It exposes either ``model(d) -> lp.Model`` or
``solve(d) -> float`` where ``d`` is the exemplar's ``data.dat`` read by
:mod:`tests.kb_independent.datfile`.
"""
