"""The model instance: the driver (items in source order), the ``Instance`` (symbols, columns, rows),
declarations and constraint statements, IBM's lazy initialisation of data, value checks, the IR build
(``build.py``) and the model evaluated at a solver's point (``at_point.py``).

May import: every other folder of ``pyopl.lowering`` and the layers below lowering.
"""
