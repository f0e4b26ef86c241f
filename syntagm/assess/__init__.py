"""What syntagm learns about an LLM's reply without asking an LLM: pyopl's check, fix-its, compile
and solve (``compiler.py``), run on the reply's text in a worker process under a wall-clock and a
memory limit (``sandbox.py``, with what the workers load first in ``worker_preload.py``), and the
semantic checks of a compiled model against its problem statement (``semantic.py``: numbers, data
use, sense, sensitivity).

May import: :mod:`pyopl`, :mod:`syntagm.equiv` (the compile worker runs the equivalence check),
``errors.py``, ``redact.py`` and the other leaves; nothing of the loop, the strategies or the bench.
"""
