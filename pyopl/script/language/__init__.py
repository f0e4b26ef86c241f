"""ECMAScript 3 as IBM ILOG Script has it, without OPL: the script AST (one dataclass per construct,
each with its span), the values and the host-object protocol (``values.py``), the type conversions
and equality (``convert.py``), the operators, property access along prototype chains, the short
descriptions of values used in messages, and the step, memory and string budgets of a run.

May import: the standard library, :mod:`pyopl.diagnostics`; nothing else of :mod:`pyopl.script`
(the built-in objects, the parser and the interpreter sit above it).
"""
