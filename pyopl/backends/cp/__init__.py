"""OR-Tools CP-SAT: ``using CP;`` models (and pure-integer linear ones). ``cpsat.py`` is the backend
(columns as integer variables, rows in exact integers, the solve and its answer),
``constraints.py`` builds the IR's CP constraints and intervals as CP-SAT's own constraints, and
``sequences.py`` the order of a ``dvar sequence`` where ``first``/``last``/``before``/``prev`` use it.
The exact scaling of fractional coefficients is ``pyopl/backends/cpsat_scale.py``, at the top since
lowering imports it too.

May import: the modules at the top of :mod:`pyopl.backends` below them and the pipeline below the
backends; never ``mp/``.
"""
