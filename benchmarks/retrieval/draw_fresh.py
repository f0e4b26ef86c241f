"""Draw the fresh, blind held-out problem set for labelling.

The set excludes every (dataset, index) already listed in
``benchmark_labels.json`` and is drawn with seed 3129:

* IndustryOR: every problem not already labelled.
* NL4OPT: ``random.Random(3129).sample(sorted(remaining), 24)``.
* NLP4LP: ``random.Random(3129).sample(range(len(data)), 12)``.
* ComplexOR: the same draw of 12 (or all problems if there are fewer).

Indices are 0-based positions in ``../shared/benchmarks/<DATASET>.json``.
Run from the repository root: ``python benchmarks/retrieval/draw_fresh.py``;
it prints one ``dataset index`` line per drawn problem.
"""
import json
import random
from pathlib import Path

SEED = 3129
HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1].parent / "shared" / "benchmarks"


def load(dataset):
    """Return the list of problems of one benchmark dataset."""
    return json.loads((SHARED / f"{dataset}.json").read_text())


def draw():
    """Return the drawn problems as a list of (dataset, index) pairs."""
    labelled = json.loads((HERE / "benchmark_labels.json").read_text())
    done = {(p[0], p[1]) for p in labelled["problems"]}
    out = []
    n = len(load("IndustryOR"))
    out += [("IndustryOR", i) for i in range(n) if ("IndustryOR", i) not in done]
    n = len(load("NL4OPT"))
    remaining = [i for i in range(n) if ("NL4OPT", i) not in done]
    out += [("NL4OPT", i) for i in random.Random(SEED).sample(sorted(remaining), 24)]
    for name in ("NLP4LP", "ComplexOR"):
        n = len(load(name))
        picks = random.Random(SEED).sample(range(n), 12) if n >= 12 else list(range(n))
        out += [(name, i) for i in picks if (name, i) not in done]
    return out


if __name__ == "__main__":
    for dataset, index in draw():
        print(dataset, index)
