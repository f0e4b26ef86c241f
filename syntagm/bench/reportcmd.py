"""``syntagm report DIR [DIR...]``: rebuild a bench report from recorded results, offline.

Reads ``results.jsonl`` from each folder (a bench ``--out``, or the shards of one sweep run
with ``--shard i/n``), groups the records by run id × dataset × strategy × model, and scores
them at ``--tolerance``/``--abs-tol`` against the answer recorded with each result. No
endpoint is needed and nothing is asked. ``--run-id`` keeps some runs only; without it every
run found is reported, each group marked with its run id (never pooled across runs).

A problem counts as *selected* in a group when any record of its run and dataset names it, so
a shard that has not finished shows as ``pending``. Output: the table (or ``--format json``) on
stdout, and with ``--out DIR`` the files ``report.json``, ``report.md``, ``report.csv`` and the
plots there.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import SyntagmError
from ..safeio import make_out_folder
from .results import RESULTS_FILE, ResultsLog
from .scoring import DEFAULT_TOLERANCE


def add_parser(sub, types) -> None:
    """Register ``report`` on the CLI's sub-parsers."""
    r = sub.add_parser("report", help="rebuild a bench report from recorded results (no endpoint)",
                       description="Rebuild the report of one or more `syntagm bench --out` folders from their "
                       "results.jsonl, re-scored at --tolerance/--abs-tol, without calling an LLM.")
    r.add_argument("dirs", nargs="+", metavar="DIR", help="bench output folders (shards of one sweep included)")
    r.add_argument("--run-id", action="append", metavar="NAME", help="only these run ids (repeatable)")
    r.add_argument("--tolerance", type=types["nonneg_float"], default=DEFAULT_TOLERANCE, help="relative tolerance")
    r.add_argument("--abs-tol", type=types["nonneg_float"], default=0.0, help="absolute tolerance")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.add_argument("--out", help="also write report.json, report.md, report.csv and plots into this folder")
    r.add_argument("--no-plot", action="store_true")


def collect(dirs: list[str], run_ids: list[str] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """``(records, notes)``: every result record of ``dirs`` (a later one replaces an earlier one
    with the same key, and a note says how many did), filtered by ``run_ids``."""
    records: dict[Any, dict[str, Any]] = {}
    notes = []
    for d in dirs:
        path = Path(d) / RESULTS_FILE
        if not path.is_file():
            raise SyntagmError(f"{d} holds no {RESULTS_FILE}: give the --out folder of a bench run")
        log = ResultsLog.open(path)
        notes += [f"{path}: {c.describe()} skipped" for c in log.corrupt]
        again = sum(1 for k in log.records if k in records)
        if again:  # two runs of the same problems (a folder given twice, a copy, a shard run twice): count once
            notes.append(f"{path}: {again} record(s) replace those of the same run id and problem in an earlier "
                         "folder; each problem is counted once, from the last folder that holds it")
        records.update(log.records)
    recs = [r for r in records.values() if r.get("run_id") and (not run_ids or r["run_id"] in run_ids)]
    old = sum(1 for r in records.values() if not r.get("run_id"))
    if old:
        notes.append(f"{old} record(s) written before run ids existed are left out (their settings are unknown)")
    return recs, notes


def group_records(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Groups ``{run_id, model, dataset, strategy, records, selected}`` in first-seen order."""
    groups: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    problems: dict[tuple[str, str], set[str]] = {}
    for r in records:
        k = (r["run_id"], str(r.get("model")), str(r.get("dataset")), str(r.get("strategy")))
        g = groups.setdefault(k, {"run_id": k[0], "model": k[1], "dataset": k[2], "strategy": k[3], "records": []})
        if not r.get("retryable"):  # an endpoint failure settles nothing: the problem is pending
            g["records"].append(r)
        problems.setdefault((k[0], k[2]), set()).add(str(r.get("id")))
    for (run_id, _m, dataset, _s), g in groups.items():
        g["selected"] = len(problems[(run_id, dataset)])
    return list(groups.values())


def cmd_report(args: argparse.Namespace) -> int:
    """Print (and with ``--out`` write) the report of the recorded results; returns 0."""
    from .command import finish_report
    from .report import build_report

    records, notes = collect(args.dirs, args.run_id)
    if not records:
        raise SyntagmError("no result records to report" + (f" for run id(s) {', '.join(args.run_id)}"
                                                            if args.run_id else ""))
    groups = group_records(records)
    retry = sum(1 for r in records if r.get("retryable"))
    if retry:
        notes.append(f"{retry} record(s) ended on an endpoint failure: counted as pending; the bench runs them "
                     "again when its command is run again")
    settings = {}
    for r in records:
        settings.setdefault(r["run_id"], r.get("settings"))
    report = build_report(groups, tol=args.tolerance, abs_tol=args.abs_tol, notes=notes,
                          results_path=", ".join(str(Path(d) / RESULTS_FILE) for d in args.dirs),
                          extra={"settings": settings})
    out = Path(args.out) if args.out else None
    if out is not None:
        make_out_folder(out)
    finish_report(report, out, args)
    return 0
