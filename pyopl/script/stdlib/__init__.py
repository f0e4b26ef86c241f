"""The standard library of IBM ILOG Script: the ECMAScript 3 built-in objects OPL scripts use
(``builtins.py``: ``Math``, ``Number``, ``String``, ``Array``, ``Object``, ``parseInt``, ...), the
text and number-formatting methods, ``Date``, ``RegExp`` (patterns checked and translated to
Python's ``re`` in ``regexp_translate.py``), the prototypes of one interpreter (``protos.py``) and
the global object of an interpreter without a host.

May import: :mod:`pyopl.script.language`, :mod:`pyopl.diagnostics`.
"""
