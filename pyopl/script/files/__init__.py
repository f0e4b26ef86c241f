"""The files a script touches: input files it reads (``IloOplInputFile``, ``includeScript``,
``loadFile``, ``applyOpsSettings``), confined to the model's folder, and the output it writes
(``IloOplOutputFile``, ``IloOplOutputString``), confined to the output folder with the checks every
output file passes.

May import: :mod:`pyopl.script.solver`, :mod:`pyopl.script.opl` and the folders below them,
:mod:`pyopl.files`.
"""
