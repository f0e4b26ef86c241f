"""The constructs of ``using CP;`` models that lowering keeps for CP-SAT: global constraints
(``constraints.py``, ``global_rows.py``, ``element.py``), interval variables and scheduling,
sequences and their groups, cumul, state and step functions, segmented functions.

May import: ``pyopl.lowering.functions``, ``linearise``, ``arrays``, ``forms`` and the layers below
lowering; never the tree walk (``evaluate/``), which calls into this folder.
"""
