"""The floor's own reading of a benchmark ``.dat`` file with NumPy, as a user of NumPy + highspy would
read it (issue 31's floor: "read the .dat text, NumPy CSC, highspy").

Every statement of the generated files is ``name = value;`` with ``value`` a number, a vector or
matrix ``[...]``, a set of numbers or strings ``{...}`` or a set of numeric tuples ``{<...>, ...}``;
numbers are read by NumPy's C text reader (``np.fromstring(..., sep=" ")``) after the brackets and
commas become spaces, strings by splitting at the quotes.  No checks beyond what NumPy does: this is
the least work that gets the numbers out of the text, the floor under any compiler that reads it.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

_SPACES = str.maketrans("{}[]<>,", "       ")


def read(path: Path) -> dict:
    """``{name: value}``: a float for a number, a float64 array for a vector or a set of numbers, a
    2-D float64 array for a matrix (one row per row) or a tuple set (one row per tuple), a list of
    str for a set or vector of strings."""
    out: dict = {}
    for stmt in Path(path).read_text().split(";"):
        if "=" not in stmt:
            continue
        name, value = stmt.split("=", 1)
        name, value = name.strip(), value.strip()
        if '"' in value:
            out[name] = value.split('"')[1::2]
        elif value[:1] in "[{":
            nums = np.fromstring(value.translate(_SPACES), dtype=np.float64, sep=" ")
            inner = value.find("<") if "<" in value else value.find("[", 1)
            if inner >= 0:  # a tuple set or a matrix: as wide as its first tuple or row
                first = value[inner + 1:value.find(">" if value[inner] == "<" else "]", inner)]
                nums = nums.reshape(-1, first.count(",") + 1)
            out[name] = nums
        else:
            out[name] = float(value)
    return out
