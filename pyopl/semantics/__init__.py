"""Semantics: names and scopes (``checker.py``, ``static.py``), which fields of an AST node hold nodes
(``fields.py``), the data names a model reads, OPL's runtime values (``values.py``: sets, ranges,
tuples, arrays) and implication between conditions.

May import: :mod:`pyopl.syntax`, :mod:`pyopl.ir`, :mod:`pyopl.files`, :mod:`pyopl.diagnostics`, the leaves (and the
table of built-in functions, a listed exception).
"""
