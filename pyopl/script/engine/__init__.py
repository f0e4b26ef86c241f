"""Script text to a run: the parser (``grammar/script.lark``, the AST of
:mod:`pyopl.script.language.ast`; regular-expression literals checked with the standard library's
pattern compiler), the tree-walking interpreter, and script text made into code while a script
runs (``eval``, ``new Function``).

May import: :mod:`pyopl.script.stdlib`, :mod:`pyopl.script.language`, :mod:`pyopl.diagnostics`,
:mod:`pyopl.syntax` (the cached Lark tables).
"""
