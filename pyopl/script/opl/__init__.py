"""OPL seen from a script: the model's elements (sets, ranges, arrays, tuples, decisions,
constraints, intervals) as host objects, the :class:`ScriptContext` of one model instance
(``host.py``), where a tuple a script holds lives in the data, the model's names read at a solution,
the ``Opl.*`` array functions, ``printExternalData``/``printInternalData``, and how scripts run
(``options.py``: budgets, output folder, on or off; importable without the interpreter).

May import: :mod:`pyopl.script.language`, :mod:`pyopl.script.stdlib`, :mod:`pyopl.script.engine`,
and the pipeline below :mod:`pyopl.script` (lowering, data, semantics, syntax, diagnostics; a
MIP's row slacks from :mod:`pyopl.backends.common`, a listed exception).
"""
