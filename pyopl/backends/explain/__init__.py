"""What is said about a solve's answer beyond its numbers: why a model has no solution or no finite
optimum, in OPL terms (``iis.py``: the solvers' conflict refiners and IIS, or pyopl's own deletion
filter, as the statements of the model), and whether a returned solution holds (``solution_check.py``:
every point evaluated against the model before it is reported).

May import: ``mp/`` (the solvers whose refiners it calls) and the modules at the top of
:mod:`pyopl.backends` below them, and the pipeline below the backends (lowering's ``AtPoint``).
"""
