"""When and how script blocks run, in IBM OPL's processing order: pre-processing ``execute``
blocks, post-processing and assertions after the solve, ``main`` and its flow control
(``main_flow.py``, sub-models, calls checked before the run), ``.dat`` ``prepare``/``invoke``
scripts, the OPL globals a script sees (``opl_runtime.py``: ``writeln``, ``Opl``, ``cplex``,
``thisOplModel``), which model elements a block that is not run may write (``model_writes.py``) and
which diagnostics only follow from a failed block.

May import: every other folder of :mod:`pyopl.script` and the pipeline below it
(``pyopl.api.compile_model`` reaches ``main`` as an argument, not an import).
"""
