"""``syntagm bench``: run strategies over benchmark datasets and report what they achieve and cost.

- :mod:`.datasets` – read a dataset (a JSON list of ``{id?, en_question, en_answer}``) from a path;
- :mod:`.scoring` – objective-wise scoring with a stated relative tolerance;
- :mod:`.results` – ``results.jsonl``: one record per finished problem, appended as it
  finishes, read back tolerantly (resume, crash recovery);
- :mod:`.runner` – the worker pool that runs (dataset, strategy, problem) tasks;
- :mod:`.report` – per dataset × strategy aggregates, the text table, ``report.json`` and the plot;
- :mod:`.command` – the ``syntagm bench`` command.

Datasets are never shipped with the package: the user names their paths.
"""
from __future__ import annotations

from .datasets import BenchProblem, load_dataset, parse_answer
from .scoring import DEFAULT_TOLERANCE, is_correct

__all__ = ["BenchProblem", "load_dataset", "parse_answer", "DEFAULT_TOLERANCE", "is_correct"]
