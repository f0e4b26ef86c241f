"""The solver objects of a script: CPLEX parameters set by a script (``cplex.tilim = 60``) mapped
onto pyopl's options, IBM's ``cp`` object and its ``IloCP`` search methods, warm starts
(``IloOplCplexVectors``, ``IloOplCplexBasis``), ``printRelaxation``, and the conflict and relaxation
iterators (``IloOplConflictIterator``, ``IloOplRelaxationIterator``).

May import: :mod:`pyopl.script.opl` and the folders below it.
"""
