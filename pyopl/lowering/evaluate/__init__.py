"""One value per expression: the tree walk (``expressions.py``'s ``Evaluator`` and its mixins:
operators, comparisons, aggregates, indexing, literals, iteration) and the compiled closures
(``compiled.py``, ``compiled_calls.py``, ``closure_types.py``) for expressions evaluated many times.

May import: ``pyopl.lowering.cp``, ``functions``, ``linearise``, ``arrays``, ``forms`` and the layers
below lowering.
"""
