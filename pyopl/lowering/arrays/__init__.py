"""The NumPy paths of lowering: a ``sum`` over index sets, whole ``forall`` families of rows
(``vectorised_rows.py``, ``row_blocks.py``), ragged ranges, set filters and joins, generic data
arrays and dexprs, each bit-identical to the tree walk, which takes anything they do not cover.

May import: ``pyopl.lowering.forms`` and the layers below lowering; never the tree walk (``evaluate/``).
"""
