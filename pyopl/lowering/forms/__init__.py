"""The vocabulary every lowering path shares: linear and quadratic forms (``linear.py``), the located
error of evaluation (``errors.py``), decision and dexpr arrays (``symbols.py``), the value tests
(``value_tests.py``), type words for messages, index shapes, 32-bit integer arithmetic, budgets and
the size limit, tuple indexes, the CP record and which side of a comparison is its constant.

May import: the standard library, NumPy, ``pyopl.syntax``, ``pyopl.semantics``, ``pyopl.ir``,
``pyopl.diagnostics``, ``pyopl.limits``; nothing else of ``pyopl.lowering``.
"""
