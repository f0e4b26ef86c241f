"""``syntagm compare A.mod [A.dat] B.mod [B.dat]``: the equivalence verdict on two models.

Exit status: 0 when ``equivalent``, 1 for any other verdict, 2 for usage errors.  A ``.dat``
argument is recognised by its suffix; either model may come without one.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import SyntagmError


def add_parser(sub, types) -> None:
    """Register ``compare`` on the CLI's sub-parsers."""
    c = sub.add_parser("compare", help="are two OPL models equivalent? (structure, then solutions)",
                       description="Normalise both compiled models, match their structure, and fall back to "
                       "solution evidence; print the verdict and its evidence: equivalent only with a proof, different "
                       "only with a witness that holds whatever the correspondence of variables, else "
                       "equivalent_by_solutions (evidence, not proof) or unknown.")
    c.add_argument("files", nargs="+", metavar="FILE", help="A.mod [A.dat] B.mod [B.dat]")
    c.add_argument("--tolerance", type=types["nonneg_float"], default=1e-6, help="relative objective tolerance")
    c.add_argument("--time-limit", type=types["positive_float"], default=30.0, dest="time_limit_s",
                   help="solver seconds per model")
    c.add_argument("--format", choices=("text", "json"), default="text")


def _pairs(files: list[str]) -> list[tuple[str, str]]:
    out: list[list[str]] = []
    for f in files:
        if f.endswith(".dat"):
            if not out or out[-1][1]:
                raise SyntagmError(f"data file {f} does not follow a model file")
            out[-1][1] = f
        else:
            out.append([f, ""])
    if len(out) != 2:
        raise SyntagmError(f"compare takes two models (each optionally followed by its .dat), got {len(out)}")
    return [(m, d) for m, d in out]


def _read(path: str) -> str:
    if not path:
        return ""
    p = Path(path)
    if not p.is_file():
        raise SyntagmError(f"{p} is not a file")
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SyntagmError(f"{p} is not UTF-8 text") from None


def _name_files(reason: str, files: dict[str, tuple[str, str]]) -> str:
    """``reason`` with the compiler's ``<model>``/``<data>`` placeholders (the texts are compiled
    as text, in a worker) replaced by the user's file names, for the model the reason is about
    (``model A does not compile (<model>:1:23: ...)`` named no file the user could open)."""
    for side, (model_path, data_path) in files.items():
        if reason.startswith(f"model {side} does not compile"):
            reason = reason.replace("<model>:", f"{model_path}:")
            return reason.replace("<data>:", f"{data_path}:") if data_path else reason
    return reason


def cmd_compare(args: Any) -> int:
    """Run ``syntagm compare``; returns the exit status.

    Raises :class:`~syntagm.errors.ConfigError` (exit status 2) without the ``llm`` extra: the
    structural match needs networkx, and without it every comparison would end ``unknown``."""
    try:
        import networkx  # noqa: F401
    except ImportError:
        from ..errors import ConfigError

        raise ConfigError("syntagm compare needs the networkx package: pip install 'pyopl[llm]'") from None
    from ..bench.equivalence import compare_models

    (ma, da), (mb, db) = _pairs(args.files)
    r = compare_models(_read(ma), _read(da), _read(mb), _read(db), args.tolerance, args.time_limit_s)
    r["reason"] = _name_files(r["reason"], {"A": (ma, da), "B": (mb, db)})
    if args.format == "json":
        print(json.dumps(r, indent=2, default=str))
    else:
        print(f"{r['verdict']} ({r['method']}): {r['reason']}")
        for side, key in (("A", "generated"), ("B", "reference")):
            s = r[key]
            if s:
                print(f"  {side}: {s.get('status')}, objective {s.get('objective')}")
        ev = r["evidence"]
        for key in ("normalised_A", "normalised_B"):
            for step in ev.get(key) or []:
                print(f"  {key[-1]}: {step}")
        for key in ("correspondence", "candidate_witness", "infeasible", "structure", "notes"):
            if ev.get(key):
                print(f"  {key}: {json.dumps(ev[key], default=str)}")
    return 0 if r["verdict"] == "equivalent" else 1
