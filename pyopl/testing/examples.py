"""Run a registry entry's bad or corrected example, the way a user would meet it.

Used by the tests (every code's bad example must yield that code at the documented
place, the corrected one no error) and by ``python -m pyopl.diagnostics.docs``.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
from pathlib import Path

from ..diagnostics.diagnostic import Diagnostic, Span
from ..diagnostics.registry import Kind


def run_example(kind: Kind, folder: str, good: bool = False) -> list[Diagnostic]:
    """Diagnostics from the bad (or, with ``good``, corrected) example of ``kind``.

    The model is written to ``folder/model.mod`` and the data, if any, to
    ``folder/data.dat``, so data ``include`` statements resolve against ``folder``.
    ``via == "check:NAME"`` checks for the solver NAME (``pyopl check --solver NAME``);
    ``via == "solve"`` compiles and solves with HiGHS and returns the result's
    diagnostics; ``via == "cli"`` runs ``pyopl`` with the example's words as arguments
    (in ``folder``) and returns the JSON diagnostics it prints.
    """
    import pyopl

    text = kind.good if good else kind.bad
    data = kind.good_data if good else kind.bad_data
    if kind.via == "cli":
        Path(folder, "model.mod").write_text("dvar float+ x;\nminimize x;\nsubject to { x >= 1; }\n", encoding="utf-8")
        return _run_cli(text, folder)
    mod = Path(folder, "model.mod")
    mod.write_text(text + "\n", encoding="utf-8")
    dat = None
    if data:
        dat = Path(folder, "data.dat")
        dat.write_text(data + "\n", encoding="utf-8")
    budget = {"script_steps": kind.script_steps} if kind.script_steps else {}
    if kind.via == "solve":
        try:
            model = pyopl.compile_model(mod, dat, **budget)
        except pyopl.CompileError as e:
            return list(e.diagnostics)
        return list(model.diagnostics) + list(model.solve(solver="highs", time_limit=5).diagnostics)
    if kind.via.startswith("check:"):  # checked for one solver (`pyopl check --solver NAME`)
        return list(pyopl.check(mod, dat, solver=kind.via.split(":", 1)[1], **budget))
    return list(pyopl.check(mod, dat, **budget))


def _run_cli(words: str, folder: str) -> list[Diagnostic]:
    from ..cli import main

    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(shlex.split(words) + ["--format", "json"])
    finally:
        os.chdir(cwd)
    doc = json.loads(out.getvalue() or "{}")
    diags = []
    for d in doc.get("diagnostics", []):
        span = Span(d.get("file", ""), d.get("line", 1), d.get("column", 1), d.get("end_line", 1), d.get("end_column", 2))
        diags.append(Diagnostic(d["code"], d["severity"], d["message"], span, help=d.get("help")))
    return diags
