"""Syntax: OPL source text to the typed AST (``ast.py``): the Lark grammars and their cached tables,
the parser and its handlers, one-token error recovery, script bodies blanked before parsing, and the
words and number literals of the language.

May import: :mod:`pyopl.files`, :mod:`pyopl.diagnostics` and the leaves.
"""
