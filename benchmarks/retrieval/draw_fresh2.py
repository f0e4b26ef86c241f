"""Draw the second fresh, blind held-out problem set for labelling.

The set excludes every (dataset, index) already listed in
``benchmark_labels.json`` or ``fresh_labels.json`` and is drawn with seed
3130:

* ComplexOR: every problem in neither file.
* ChallengeOR: ``random.Random(3130).sample(candidates, 20)`` (all of them if
  there are fewer than 20), where ``candidates`` are the sorted indices of
  problems whose text does not *copy* a ComplexOR problem or a problem
  already listed in either label file.
* ReSocratic: ``random.Random(3130).sample(range(len(data)), 12)``.
* NL4OPT: ``random.Random(3130).sample(sorted(remaining), 12)``, where
  ``remaining`` are the NL4OPT indices in neither file.

A text *copies* another when, after lower-casing and collapsing runs of
white space, their first 200 characters are equal or their
``difflib.SequenceMatcher`` ratio is at least 0.9.  ChallengeOR is, in the
shared copy, ComplexOR (indices 0-17), IndustryOR (18-59) and StochasticOR
(60-79) put end to end, each text unchanged; the 200-character prefix test
alone flags 0-17 and 18-59, and every other text scores far below 0.9
against them (checked by hand).  Copies of IndustryOR are excluded as well
as copies of ComplexOR because every IndustryOR problem is already labelled,
so its wording is development material and no longer blind; the candidates
left are the 20 StochasticOR texts.  The ReSocratic and NL4OPT draws were
checked the same way by hand: none of the drawn texts copies a labelled one.

Indices are 0-based positions in ``../shared/benchmarks/<DATASET>.json``;
every record keeps its wording under ``en_question``.
Run from the repository root: ``python benchmarks/retrieval/draw_fresh2.py``;
it prints one ``dataset index`` line per drawn problem.
"""
import difflib
import json
import random
import re
from pathlib import Path

SEED = 3130
PREFIX = 200
RATIO = 0.9
HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1].parent / "shared" / "benchmarks"


def load(dataset):
    """Return the list of problems of one benchmark dataset."""
    return json.loads((SHARED / f"{dataset}.json").read_text())


def normalise(text):
    """Return ``text`` lower-cased with runs of white space made one space."""
    return re.sub(r"\s+", " ", text.lower()).strip()


def copies(text, others):
    """Return True when normalised ``text`` copies one of normalised ``others``.

    A copy has the same first ``PREFIX`` characters, or a
    ``difflib.SequenceMatcher`` ratio of at least ``RATIO``.
    """
    for other in others:
        if text[:PREFIX] == other[:PREFIX]:
            return True
        matcher = difflib.SequenceMatcher(None, text, other, autojunk=False)
        if matcher.real_quick_ratio() >= RATIO and matcher.quick_ratio() >= RATIO \
                and matcher.ratio() >= RATIO:
            return True
    return False


def labelled_pairs():
    """Return the set of (dataset, index) pairs in either existing label file."""
    done = set()
    for name in ("benchmark_labels.json", "fresh_labels.json"):
        data = json.loads((HERE / name).read_text())
        done |= {(p[0], p[1]) for p in data["problems"]}
    return done


def draw():
    """Return the drawn problems as a list of (dataset, index) pairs."""
    done = labelled_pairs()
    out = []
    complexor = load("ComplexOR")
    out += [("ComplexOR", i) for i in range(len(complexor)) if ("ComplexOR", i) not in done]
    seen = [normalise(p["en_question"]) for p in complexor]
    seen += [normalise(load(d)[i]["en_question"]) for d, i in sorted(done) if d != "ComplexOR"]
    challenge = load("ChallengeOR")
    candidates = sorted(i for i, p in enumerate(challenge)
                        if ("ChallengeOR", i) not in done
                        and not copies(normalise(p["en_question"]), seen))
    k = min(20, len(candidates))
    out += [("ChallengeOR", i) for i in random.Random(SEED).sample(candidates, k)]
    n = len(load("ReSocratic"))
    out += [("ReSocratic", i) for i in random.Random(SEED).sample(range(n), 12)
            if ("ReSocratic", i) not in done]
    n = len(load("NL4OPT"))
    remaining = [i for i in range(n) if ("NL4OPT", i) not in done]
    out += [("NL4OPT", i) for i in random.Random(SEED).sample(sorted(remaining), 12)]
    return out


if __name__ == "__main__":
    for dataset, index in draw():
        print(dataset, index)
