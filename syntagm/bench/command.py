"""``syntagm bench``: the command that ties datasets, strategies, the worker pool and the report together.

Output folder (``--out``, default ``out/bench``):

- ``results.jsonl`` – one record per finished problem (see :mod:`.results`), appended as it finishes;
- ``report.json`` – the aggregates of this run's selection (see :mod:`.report`), rewritten at the end;
- ``accuracy_vs_cost.png`` – when matplotlib is installed;
- ``transcripts/<dataset>/<strategy>/<id>.jsonl`` – with ``--record``: every LLM exchange of
  each problem, which ``--replay OUT`` serves again offline;
- ``run.json`` – the last run's settings (model, base URL, strategies, datasets; never the key).

Exit status: 0 when every selected problem is recorded; 1 when some could not be run
(listed on stderr); 2 for usage and input errors; 130 after Ctrl-C.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import ConfigError, ReplayError, SyntagmError
from ..redact import scrub
from ..safeio import FolderLock, open_new, replace_file, safe_name, write_atomic
from .datasets import BenchProblem, load_dataset
from .report import _money, build_report, text_table, write_plot
from .results import RESULTS_FILE, ResultsLog
from .runner import BenchTask, run_tasks
from .scoring import DEFAULT_TOLERANCE, is_correct

EXIT_OK, EXIT_INCOMPLETE, EXIT_INTERRUPTED = 0, 1, 130
TRANSCRIPTS = "transcripts"


def add_parser(sub, types) -> None:
    """Register ``bench`` on the CLI's sub-parsers; ``types`` holds the CLI's argument checkers."""
    from ..strategies import STRATEGIES

    b = sub.add_parser("bench", help="run strategies over benchmark datasets and report accuracy and cost",
                       description="Run each --strategy on every problem of each --dataset (a JSON list of "
                       "{id?, en_question, en_answer}); append one record per problem to OUT/results.jsonl as it "
                       "finishes (a rerun skips problems already recorded), then write OUT/report.json, a table "
                       "and, with matplotlib, OUT/accuracy_vs_cost.png.")
    b.add_argument("--dataset", action="append", required=True, metavar="PATH.json",
                   help="a benchmark file (repeatable), e.g. ../shared/benchmarks/NL4OPT.json")
    b.add_argument("--strategy", action="append", choices=sorted(STRATEGIES), metavar="NAME",
                   help=f"repeatable; one of {', '.join(sorted(STRATEGIES))} (default: syntagm)")
    b.add_argument("--limit", type=types["positive_int"], help="only the first N problems of each dataset")
    b.add_argument("--ids", nargs="+", action="extend", metavar="ID", help="only these problem ids")
    b.add_argument("--workers", type=types["positive_int"], default=4, help="problems run at once (default 4)")
    b.add_argument("--tolerance", type=types["nonneg_float"], default=DEFAULT_TOLERANCE,
                   help=f"relative tolerance: |obj - answer| <= tol * max(1, |answer|) (default {DEFAULT_TOLERANCE:g})")
    ep = b.add_argument_group("endpoint (flags > environment > config file)")
    ep.add_argument("--model", help="model name (env SYNTAGM_MODEL; default gpt-4o-mini)")
    ep.add_argument("--base-url", help="OpenAI-compatible base URL (env OPENAI_BASE_URL)")
    ep.add_argument("--timeout", type=types["positive_float"], dest="timeout_s", help="seconds per HTTP request")
    ep.add_argument("--max-retries", type=types["nonneg_int"], help="retries on 429/5xx/timeouts (default 4)")
    ep.add_argument("--json-mode", choices=("auto", "on", "off"))
    ep.add_argument("--temperature", type=float)
    ep.add_argument("--config", help="TOML config file")
    ep.add_argument("--prices", help="price table JSON (env SYNTAGM_PRICES)")
    run = b.add_argument_group("run")
    run.add_argument("--max-iterations", type=types["positive_int"], help="per problem (strategy default)")
    run.add_argument("--time-limit", type=types["positive_float"], dest="time_limit_s", help="solver seconds per solve")
    run.add_argument("--retriever", choices=("bm25", "embeddings", "none"), help="exemplar retrieval (default bm25)")
    run.add_argument("--kb", help="knowledge base folder")
    run.add_argument("--exemplars", type=types["nonneg_int"])
    run.add_argument("--grammar-ref", choices=("auto", "compact", "full"), dest="grammar_mode")
    io = b.add_argument_group("output")
    io.add_argument("--out", default=str(Path("out") / "bench"), help="output folder (default out/bench)")
    rr = io.add_mutually_exclusive_group()
    rr.add_argument("--record", action="store_true", help="keep every problem's LLM transcript in OUT/transcripts/")
    rr.add_argument("--replay", metavar="DIR", help="serve the transcripts recorded in DIR (an earlier --out with "
                    "--record) instead of calling an endpoint")
    io.add_argument("--format", choices=("text", "json"), default="text", help="the report on stdout")
    io.add_argument("--no-plot", action="store_true", help="do not write accuracy_vs_cost.png")
    io.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")


def _select(problems: list[BenchProblem], ids: list[str] | None, limit: int | None) -> list[BenchProblem]:
    if ids:
        wanted = set(ids)
        problems = [p for p in problems if p.id in wanted]
    return problems[:limit] if limit else problems


def transcript_path(root: Path, task: BenchTask) -> Path:
    """``root/transcripts/<dataset>/<strategy>/<id>.jsonl``, each part encoded by
    :func:`~syntagm.safeio.safe_name` (one component each, different ids never share a file)."""
    return (root / TRANSCRIPTS / safe_name(task.problem.dataset) / safe_name(task.strategy)
            / f"{safe_name(task.problem.id)}.jsonl")


def make_record(task: BenchTask, result, *, model: str, dataset_path: str, settings: dict[str, Any],
                wall_s: float, transcript: str | None) -> dict[str, Any]:
    """The ``results.jsonl`` record of one finished problem (fields: :mod:`.results`)."""
    from ..compiler import SOLVED

    totals = result.telemetry.totals()
    sol = result.solution or {}
    solved = sol.get("status") in SOLVED
    p = task.problem
    return {"type": "result", "dataset": p.dataset, "dataset_path": dataset_path, "id": p.id,
            "strategy": task.strategy, "model": model, "status": result.status,
            "objective": sol.get("objective") if solved else None, "solver_status": sol.get("status"),
            "answer": p.answer, "answer_raw": p.answer_raw,
            "compiled": any(a.compiled for a in result.attempts), "solved": solved,
            "aligned": (result.verdict or {}).get("aligned") if result.verdict else None,
            "iterations": result.iterations, "llm_calls": totals["llm_calls"],
            "prompt_tokens": totals["prompt_tokens"], "completion_tokens": totals["completion_tokens"],
            "cached_tokens": totals["cached_tokens"], "cost_usd": totals["cost_usd"],
            "latency_s": totals["latency_s"], "wall_s": round(wall_s, 6), "retries": totals["retries"],
            "usage_estimated": totals["usage_estimated"], "error": result.error, "settings": settings,
            "transcript": transcript,
            "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "syntagm": __version__}


class _Locked:
    """A retriever shared by the workers, one search at a time."""

    def __init__(self, inner):
        self.inner = inner
        self.lock = threading.Lock()

    def search(self, query: str, k: int):
        with self.lock:
            return self.inner.search(query, k)


def _progress_line(task: BenchTask, rec: dict[str, Any] | None, err: str | None, done: int, total: int,
                   tol: float) -> str:
    head = f"[{done}/{total}] {task.problem.dataset} #{task.problem.id} {task.strategy}: "
    if rec is None:
        return head + f"not run: {err}"
    verdict = is_correct(rec["objective"], rec["answer"], tol)
    word = {True: "correct", False: "wrong", None: "unscorable"}[verdict]
    obj = "no objective" if rec["objective"] is None else f"objective {rec['objective']:g}"
    ans = "" if rec["answer"] is None else f", answer {rec['answer']:g}"
    cost = _money(rec["cost_usd"])
    tail = f" ({rec['error']})" if rec.get("error") else ""
    return (head + f"{word} ({rec['status']}, {obj}{ans}), {rec['iterations']} it, {rec['llm_calls']} calls, "
            f"{cost}, {rec['wall_s']:.1f} s{tail}")


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the bench described by ``args`` (see :func:`add_parser`); returns the exit status.

    The output folder is locked for the whole run (:class:`~syntagm.safeio.FolderLock`): a
    second bench on the same ``--out`` is refused with the holder's pid.
    """
    with FolderLock(Path(args.out)):
        return _bench(args)


def _bench(args: argparse.Namespace) -> int:
    from .. import config as config_mod
    from ..compiler import _pyopl
    from ..llm.client import OpenAIChatClient
    from ..llm.transcript import RecordingClient, ReplayClient
    from ..prices import load_prices
    from ..rag import make_retriever
    from ..strategies import StrategyContext, get_strategy

    strategies = list(dict.fromkeys(args.strategy or ["syntagm"]))
    datasets: list[tuple[str, list[BenchProblem]]] = []
    names: dict[str, str] = {}
    for path in args.dataset:
        problems = load_dataset(path)
        name = problems[0].dataset
        if name in names and Path(names[name]).resolve() != Path(path).resolve():
            raise SyntagmError(f"two datasets are called {name!r} ({names[name]} and {path}); rename one")
        if name in names:
            continue
        names[name] = path
        datasets.append((path, _select(problems, args.ids, args.limit)))
    if not any(ps for _, ps in datasets):
        raise SyntagmError("no problem matches --ids" + (f" {' '.join(args.ids)}" if args.ids else ""))
    out = Path(args.out)
    replay_root = Path(args.replay) if args.replay else None
    cfg = None
    fileconf: dict[str, Any] = {}
    if replay_root is not None:
        if not (replay_root / TRANSCRIPTS).is_dir():
            raise SyntagmError(f"{replay_root} holds no {TRANSCRIPTS}/ folder: replay needs the --out of a run "
                               "made with --record")
        try:
            recorded = json.loads((replay_root / "run.json").read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            recorded = {}
        model = args.model or recorded.get("model") or "replay"
        base_url = recorded.get("base_url")
        for k, v in (recorded.get("settings") or {}).items():  # the recorded run's settings by default
            if getattr(args, k, None) is None:
                setattr(args, k, v)
    else:
        flags = {"model": args.model, "base_url": args.base_url, "timeout_s": args.timeout_s,
                 "max_retries": args.max_retries, "json_mode": args.json_mode, "temperature": args.temperature}
        cfg, fileconf = config_mod.resolve(flags, config_path=args.config)
        if cfg is None:
            raise ConfigError(config_mod.NO_ENDPOINT_MESSAGE)
        model, base_url = cfg.model, cfg.base_url
    args.retriever = args.retriever or "bm25"
    prices = load_prices(args.prices or os.environ.get("SYNTAGM_PRICES") or fileconf.get("prices"))
    _pyopl()
    strategy_objs = {s: get_strategy(s) for s in strategies}
    retriever = make_retriever(args.retriever, args.kb)
    retriever = _Locked(retriever) if retriever is not None else None
    settings = {"max_iterations": args.max_iterations, "time_limit_s": args.time_limit_s,
                "exemplars": args.exemplars, "grammar_mode": args.grammar_mode, "retriever": args.retriever}
    overrides = {k: v for k, v in settings.items() if k != "retriever"}

    out.mkdir(parents=True, exist_ok=True)
    log = ResultsLog.open(out / RESULTS_FILE)
    notes = [f"results.jsonl: {c.describe()} skipped; its problem is run again" for c in log.corrupt]
    for n in notes:
        print(f"syntagm: warning: {n}", file=sys.stderr)
    write_atomic(out / "run.json", json.dumps({"model": model, "base_url": scrub(base_url) if base_url else None, "strategies": strategies,
                                               "datasets": [p for p, _ in datasets], "settings": settings,
                                               "replay": str(replay_root) if replay_root else None,
                                               "syntagm": __version__}, indent=2) + "\n")
    shared_client = OpenAIChatClient(cfg, prices) if cfg is not None else None
    paths = {ps[0].dataset: path for path, ps in datasets if ps}

    tasks = [BenchTask(p, s) for s in strategies for _path, ps in datasets for p in ps
             if not log.done((p.dataset, s, model, p.id))]
    skipped = sum(len(ps) for _, ps in datasets) * len(strategies) - len(tasks)
    if skipped and not args.quiet:
        print(f"syntagm: {skipped} problem(s) already in {out / RESULTS_FILE}; running the other {len(tasks)}",
              file=sys.stderr)

    def solve_one(task: BenchTask) -> dict[str, Any]:
        tpath = transcript_path(out, task)
        sink = None
        if replay_root is not None:
            src = transcript_path(replay_root, task)
            if not src.is_file():
                raise ReplayError(f"no recorded transcript {src}")
            llm = ReplayClient(src)
        else:
            llm = shared_client
            if args.record:
                sink = open_new(tpath.with_name(tpath.name + ".partial"))
                llm = RecordingClient(shared_client, sink, base_url, {"strategy": task.strategy, **settings})
        ctx = StrategyContext(llm, retriever, None, dict(overrides))
        start = time.monotonic()
        try:
            result = strategy_objs[task.strategy].solve(task.problem.question, ctx)
        finally:
            if sink is not None:
                sink.close()
        wall = time.monotonic() - start
        kept = None
        if sink is not None:
            replace_file(tpath.with_name(tpath.name + ".partial"), tpath)
            kept = str(tpath.relative_to(out))
        return make_record(task, result, model=model, dataset_path=paths[task.problem.dataset],
                           settings=settings, wall_s=wall, transcript=kept)

    def on_done(task, rec, err, done, total):
        if not args.quiet:
            print(_progress_line(task, rec, err, done, total, args.tolerance), file=sys.stderr, flush=True)

    try:
        summary = run_tasks(tasks, solve_one, log, args.workers, on_done)
    finally:
        log.close()

    groups = []
    for path, ps in datasets:
        if not ps:
            continue
        for s in strategies:
            # scored against the dataset's answers as they are now
            recs = [dict(log.records[(p.dataset, s, model, p.id)], answer=p.answer) for p in ps
                    if log.done((p.dataset, s, model, p.id))]
            groups.append((ps[0].dataset, s, recs, len(ps)))
    if summary.interrupted:
        notes.append(f"interrupted: {summary.abandoned} problem(s) not finished; run the same command to resume")
    if summary.failed:
        notes.append(f"{len(summary.failed)} problem(s) could not be run (not recorded; a rerun tries them again)")
    report = build_report(groups, model=model, tol=args.tolerance, notes=notes,
                          results_path=str(out / RESULTS_FILE))
    write_atomic(out / "report.json", json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    plot = None if args.no_plot else write_plot(report, out)
    report_for_stdout = dict(report, plot=str(plot) if plot else None)
    if args.format == "json":
        print(json.dumps(report_for_stdout, indent=2, ensure_ascii=False))
    else:
        print(text_table(report))
        print(f"written to {out}/ (results.jsonl, report.json{', ' + plot.name if plot else ''})")
    for task, err in summary.failed[:10]:
        print(f"syntagm: {task.problem.dataset} #{task.problem.id} {task.strategy}: not run: {err}", file=sys.stderr)
    if summary.interrupted:
        print("syntagm: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_INCOMPLETE if summary.failed else EXIT_OK
