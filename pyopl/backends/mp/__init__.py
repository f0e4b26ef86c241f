"""The math-programming solvers: HiGHS (the whole IR in one ``passModel`` call), Gurobi (the
matrix API), CPLEX and SCIP; each maps the IR onto the solver's arrays and its answer back to OPL
names, with Ctrl-C and progress through the solver's callbacks.

May import: the modules at the top of :mod:`pyopl.backends` below them (``common.py``,
``capabilities.py``, ``interrupt.py``, ``progress.py``) and the pipeline below the backends (``ir``,
``results``, ``diagnostics``); never another solver's module nor ``cp/``.
"""
