"""CPU time of loading two large .dat files with ``pyopl.data.loader.load_data`` (fastest of ``--repeat``).

    python benchmarks/dat_read.py                      # this checkout
    python benchmarks/dat_read.py --root /tmp/base     # another checkout's pyopl, same files

- netflow, 64,000 nodes: the benchmark family's ``.dat`` (15.6 MB; ``Arcs`` holds 512,000 tuples
  ``<src, dst, cost, cap>``), as ``benchmarks/run.py`` writes it;
- 1,000,000 numbers: ``a = [[...], ...]``, 1000 rows of 1000 floats (7.8 MB), as ``run.py``'s
  "1,000,000-number .dat" figure.

and, for the netflow file, the part that reads ``Arcs``'s numbers: the layout check and the
conversion of its 2,048,000 numbers (``_tuple_layout``, and before numscan also ``np.fromstring``).

CPU time (``time.process_time``) in one process, so a busy machine moves the figures less than
wall time; compare two checkouts by running both in turn, twice.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", help="the checkout whose pyopl is timed (default: this one)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", default=str(Path(tempfile.gettempdir()) / "pyopl-dat-read"))
    args = ap.parse_args()
    sys.path[:0] = [str(HERE), args.root or str(HERE.parent)]
    import models
    from pyopl.data.loader import load_data
    from pyopl.diagnostics.reporter import Reporter
    import pyopl

    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {"netflow 64,000 nodes": out / "netflow-64000.dat", "1,000,000 numbers": out / "numbers-1M.dat"}
    if not files["netflow 64,000 nodes"].exists():
        files["netflow 64,000 nodes"].write_text(models.netflow(64000).dat)
    if not files["1,000,000 numbers"].exists():
        vals = np.round(np.random.default_rng(7).uniform(0, 100, size=(1000, 1000)), 3)  # as run.py's
        files["1,000,000 numbers"].write_text("a = %s;\n" % models.fmt_matrix(vals))
    print("pyopl from %s" % Path(pyopl.__file__).parent.parent)
    for name, path in files.items():
        best = float("inf")
        for _ in range(args.repeat):
            t = time.process_time()
            items = load_data(path, Reporter(), {}, str(out))
            best = min(best, time.process_time() - t)
            del items
        print("%-22s %6.1f MB  load_data %.3f s CPU (fastest of %d)" % (name, path.stat().st_size / 1e6, best,
                                                                         args.repeat))
    text = files["netflow 64,000 nodes"].read_text()
    body = text[text.index("Arcs = {") + 8:text.index("}", text.index("Arcs = {"))]
    best = float("inf")
    for _ in range(args.repeat):
        t = time.process_time()
        _layout_and_numbers(body)
        best = min(best, time.process_time() - t)
    print("%-22s %6.1f MB  layout + numbers %.3f s CPU" % ("netflow Arcs", len(body) / 1e6, best))


def _layout_and_numbers(body: str):
    """The layout check of a tuple set's body and its numbers as float64, in this checkout's way."""
    from pyopl.data import fastpath

    if hasattr(fastpath, "_NOT_TUPLE_NUMERIC"):  # before numscan: checked, then NumPy's parser
        assert not body.translate(fastpath._NOT_TUPLE_NUMERIC) and fastpath._tuple_layout(body) is not None
        return np.fromstring(body.translate(fastpath._SEPARATORS), dtype=np.float64, sep=" ")
    return fastpath._tuple_layout(body)[4]


if __name__ == "__main__":
    main()
