"""Data: ``.dat`` text (``parser.py`` with ``grammar/dat.lark``, ``fastpath.py`` and ``numscan.py`` for
the plain numeric statements), Python dicts and pandas data (``frames.py``), checked against the
model's declarations (``convert.py``), and IBM's data sources (``connections/``).

May import: :mod:`pyopl.semantics`, :mod:`pyopl.results`, :mod:`pyopl.syntax`, :mod:`pyopl.files`, :mod:`pyopl.diagnostics`
(and the listed exceptions of docs/architecture.md: lowering's ``EvalError``, the ``.dat`` script blanker).
"""
