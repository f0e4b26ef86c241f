"""OPL's built-in functions: ``builtins.py`` holds the one table every path reads (the tree walk, the
closures, the name checker of ``pyopl.semantics``), and ``array_args.py`` reads their array arguments.
The CP constructs register their functions in the table from ``cp/``.

May import: ``pyopl.lowering.linearise``, ``arrays``, ``forms`` and the layers below lowering.
"""
