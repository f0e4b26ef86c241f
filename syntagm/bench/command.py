"""``syntagm bench``: the command that ties datasets, strategies, the worker pool and the report together.

Output folder (``--out``, default ``out/bench``):

- ``results.jsonl`` – one record per finished problem and sample (see :mod:`.results`), appended
  as it finishes, each with its run id and settings (see :mod:`.identity`);
- ``report.json`` – the aggregates of this run's selection (see :mod:`.report`), rewritten at the end;
- ``accuracy_vs_cost.png`` – when matplotlib is installed;
- ``transcripts/<run id>/<model>/<dataset>/<strategy>/<id>.jsonl`` – with ``--record``: every LLM
  exchange of each problem, which ``--replay OUT`` serves again offline (checking model and settings);
- ``run.json`` – the last run's id, settings, models, strategies, datasets (never the key);
- ``.lock`` – held while a bench runs on the folder.

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
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import ConfigError, ReplayError, SyntagmError
from ..cli_flags import add_strategy_flags
from ..decoding.endpoints import MODES as DECODING_MODES
from ..rag.kinds import RETRIEVERS
from ..redact import scrub
from ..safeio import FolderLock, json_text, make_out_folder, open_new, plain_text, replace_file, safe_name, write_atomic
from . import identity
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
    b.add_argument("--dataset", action="append", metavar="PATH.json",
                   help="a benchmark file (repeatable), e.g. ../shared/benchmarks/NL4OPT.json; with --replay, "
                   "the replayed run's datasets by default")
    b.add_argument("--strategy", action="append", choices=sorted(STRATEGIES), metavar="NAME",
                   help=f"repeatable; one of {', '.join(sorted(STRATEGIES))} (default: syntagm)")
    b.add_argument("--limit", type=types["positive_int"], help="only the first N problems of each dataset")
    b.add_argument("--ids", nargs="+", action="extend", metavar="ID", help="only these problem ids")
    b.add_argument("--workers", type=types["positive_int"], default=4, help="problems run at once (default 4)")
    b.add_argument("--shard", type=_shard, metavar="I/N", help="run only shard I of N (1-based): each problem "
                   "belongs to one shard by a hash of its dataset and id; combine the shards' --out folders "
                   "with `syntagm report DIR...`")
    b.add_argument("--tolerance", type=types["nonneg_float"], default=DEFAULT_TOLERANCE,
                   help=f"relative tolerance: |obj - answer| <= tol * max(1, |answer|) (default {DEFAULT_TOLERANCE:g}); "
                   "changing it re-scores recorded results without calling the LLM")
    b.add_argument("--abs-tol", type=types["nonneg_float"], default=0.0,
                   help="absolute tolerance too: |obj - answer| <= max(tol * max(1, |answer|), ABS_TOL) (default 0)")
    b.add_argument("--run-id", metavar="NAME", type=_run_name, help="name of this run's results (default: derived from every "
                   "setting that can change an answer, so other settings never reuse old results)")
    b.add_argument("--samples", type=types["positive_int"], default=None,
                   help="run each problem K times (pass@1 and pass@k in the report; default 1, or the replayed "
                   "run's with --replay)")
    b.add_argument("--seed", type=int, help="sent to the endpoint as the request's seed (sample i gets SEED + i)")
    cost = b.add_argument_group("cost control")
    cost.add_argument("--max-cost-usd", type=types["positive_float"], metavar="USD",
                      help="sweep cap: once the recorded problems of this run have cost this much, no new problem "
                      "starts (those in flight finish); the report lists what was skipped")
    cost.add_argument("--max-cost-usd-per-problem", type=types["positive_float"], metavar="USD",
                      help="problem cap: a problem's run ends (keeping what it has) once its calls cost this much")
    cost.add_argument("--cache", metavar="DIR", help="content-addressed cache of LLM calls: an identical request "
                      "(at temperature 0, or with a seed) is answered from DIR at no cost; hits are counted")
    ep = b.add_argument_group("endpoint (flags > environment > config file)")
    ep.add_argument("--model", action="append", metavar="NAME",
                    help="model name, repeatable: several models in one sweep, one report across them "
                    "(env SYNTAGM_MODEL; default gpt-4o-mini); a [models.NAME] table of the config file gives "
                    "a model its own endpoint")
    ep.add_argument("--base-url", help="OpenAI-compatible base URL (env OPENAI_BASE_URL)")
    ep.add_argument("--timeout", type=types["positive_float"], dest="timeout_s", help="seconds per HTTP request")
    ep.add_argument("--max-retries", type=types["nonneg_int"], help="retries on 429/5xx/timeouts (default 4)")
    ep.add_argument("--json-mode", choices=("auto", "on", "off"))
    ep.add_argument("--constrained-decoding", choices=DECODING_MODES, dest="constrained_decoding",
                    help="send the reply's GBNF grammar where the endpoint takes one (default auto)")
    ep.add_argument("--temperature", type=float, help="sampling temperature (default: not sent, the endpoint's "
                    "own default applies; recorded as null)")
    ep.add_argument("--max-tokens", type=types["positive_int"], dest="max_tokens",
                    help="completion token cap per call (default: the endpoint's own)")
    ep.add_argument("--config", help="TOML config file")
    ep.add_argument("--prices", help="price table JSON (env SYNTAGM_PRICES)")
    run = b.add_argument_group("run")
    run.add_argument("--max-iterations", type=types["positive_int"], help="per problem (strategy default)")
    run.add_argument("--time-limit", type=types["positive_float"], dest="time_limit_s", help="solver seconds per solve")
    run.add_argument("--retriever", choices=RETRIEVERS,
                     help="exemplar retrieval (default bm25; structure = BM25 re-ranked by decision structure; hybrid = "
                     "BM25 + sentence embeddings, needs the [rag] extra)")
    run.add_argument("--kb", help="knowledge base folder")
    run.add_argument("--exemplars", type=types["nonneg_int"])
    run.add_argument("--grammar-ref", choices=("auto", "compact", "full", "none"), dest="grammar_mode")
    add_strategy_flags(run, types["positive_float"], types["nonneg_int"])
    run.add_argument("--solver", choices=("highs", "gurobi"), help="solver (default highs)")
    run.add_argument("--compile-timeout", type=types["positive_float"], dest="compile_timeout_s",
                     help="seconds one compile of a candidate may take before it is stopped (default 60)")
    io = b.add_argument_group("output")
    io.add_argument("--out", default=str(Path("out") / "bench"), help="output folder (default out/bench)")
    rr = io.add_mutually_exclusive_group()
    rr.add_argument("--record", action="store_true", help="keep every problem's LLM transcript in OUT/transcripts/")
    rr.add_argument("--replay", metavar="DIR", help="serve the transcripts recorded in DIR (an earlier --out with "
                    "--record) instead of calling an endpoint")
    io.add_argument("--format", choices=("text", "json"), default="text", help="the report on stdout")
    io.add_argument("--no-plot", action="store_true", help="do not write accuracy_vs_cost.png")
    io.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")


def _endpoint_note(model: str):
    """A client's ``notify``: one stderr line per retry or dropped parameter, naming the model."""
    def note(line: str) -> None:
        print(plain_text(f"[endpoint {model}] {line}"), file=sys.stderr, flush=True)
    return note


def _shard(text: str) -> tuple[int, int]:
    """``"I/N"`` → ``(I, N)`` with ``1 <= I <= N``."""
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected I/N like 2/8, got {text!r}") from None
    if not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"shard {text}: I must be between 1 and N")
    return i, n


def in_shard(problem: BenchProblem, shard: tuple[int, int] | None) -> bool:
    """Whether ``problem`` belongs to ``shard`` ``(I, N)``: SHA-256 of ``dataset NUL id``, mod N, is I - 1
    (stable across machines and runs; every problem is in exactly one shard)."""
    if shard is None:
        return True
    import hashlib

    h = int(hashlib.sha256(f"{problem.dataset}\0{problem.id}".encode("utf-8", "surrogatepass")).hexdigest(), 16)
    return h % shard[1] == shard[0] - 1


def _select(problems: list[BenchProblem], ids: list[str] | None, limit: int | None,
            shard: tuple[int, int] | None = None) -> list[BenchProblem]:
    if ids:
        wanted = set(ids)
        problems = [p for p in problems if p.id in wanted]
    problems = problems[:limit] if limit else problems
    return [p for p in problems if in_shard(p, shard)]


def transcript_path(root: Path, task: BenchTask, run_id: str) -> Path:
    """``root/transcripts/<run id>/<model>/<dataset>/<strategy>/<id>.jsonl`` (``<id>@<sample>.jsonl``
    for samples after the first), each part encoded by :func:`~syntagm.safeio.safe_name` (one
    component each; different ids, models or runs never share a file)."""
    name = safe_name(task.problem.id) + (f"@{task.sample}" if task.sample else "")
    return (root / TRANSCRIPTS / safe_name(run_id) / safe_name(task.model) / safe_name(task.problem.dataset)
            / safe_name(task.strategy) / f"{name}.jsonl")


def _trace(result) -> list[dict[str, Any]]:
    """Per iteration k = 1..iterations: the objective the run would have ended with had it stopped
    after iteration k (the last solved attempt so far, as the loop picks it; ``None`` if none),
    whether that attempt compiled, and the tokens and dollars spent up to k (cumulative)."""
    out = []
    iters = sorted({c.iteration for c in result.telemetry.calls} | {a.iteration for a in result.attempts})
    prompt = completion = 0
    cost: float | None = 0.0
    for k in iters:
        for c in result.telemetry.calls:
            if c.iteration == k:
                prompt += c.prompt_tokens
                completion += c.completion_tokens
                cost = None if cost is None or c.cost_usd is None else cost + c.cost_usd
        upto = [a for a in result.attempts if a.iteration <= k]
        solved = next((a for a in reversed(upto) if a.solved), None)
        out.append({"iteration": k, "objective": (solved.outcome or {}).get("objective") if solved else None,
                    "compiled": any(a.compiled for a in upto), "prompt_tokens": prompt,
                    "completion_tokens": completion, "cost_usd": None if cost is None else round(cost, 8)})
    return out


#: endpoint failure kinds (:class:`~syntagm.errors.LLMError`) that are the run's own limit, not a failure
#: of the endpoint: the problem ended as the settings said, and is not retried
NOT_RETRYABLE = ("cost_cap",)


def endpoint_failure(result) -> str | None:
    """The kind of endpoint failure that ended ``result`` (its last LLM call failed and the run
    stopped on it), or None when the run ended otherwise or on its own cost cap.  Such a
    record is *retryable*: it measured the endpoint, not the method."""
    if not result.error:
        return None
    failed = [c for c in result.telemetry.calls if getattr(c, "error", None)]
    if not failed or failed[-1] is not result.telemetry.calls[-1] or failed[-1].error in NOT_RETRYABLE:
        return None
    return str(failed[-1].error)


def make_record(task: BenchTask, result, *, model: str, dataset_path: str, settings: dict[str, Any],
                wall_s: float, transcript: str | None, run_id: str = "") -> dict[str, Any]:
    """The ``results.jsonl`` record of one finished problem (fields: :mod:`.results`)."""
    from ..assess.compiler import SOLVED

    totals = result.telemetry.totals()
    sol = result.solution or {}
    solved = sol.get("status") in SOLVED
    p = task.problem
    return {"type": "result", "run_id": run_id, "sample": task.sample, "dataset": p.dataset,
            "dataset_path": dataset_path, "id": p.id, "question_sha256": question_digest(p.question),
            "strategy": task.strategy, "model": model,
            "status": result.status, "objective": sol.get("objective") if solved else None,
            "solver_status": sol.get("status") or _last_solver_status(result), "answer": p.answer,
            "answer_raw": p.answer_raw, "fields": p.fields,
            "compiled": any(a.compiled for a in result.attempts), "solved": solved,
            "contract_only": bool(result.attempts) and all(a.contract_error for a in result.attempts),
            "attempts": len(result.attempts),
            "aligned": (result.verdict or {}).get("aligned") if result.verdict else None,
            "iterations": result.iterations, "llm_calls": totals["llm_calls"],
            "prompt_tokens": totals["prompt_tokens"], "completion_tokens": totals["completion_tokens"],
            "cached_tokens": totals["cached_tokens"], "cost_usd": totals["cost_usd"],
            "cache_hits": totals.get("cache_hits", 0),
            "latency_s": totals["latency_s"], "wall_s": round(wall_s, 6), "retries": totals["retries"],
            "usage_estimated": totals["usage_estimated"], "error": result.error,
            "endpoint_error": endpoint_failure(result), "retryable": endpoint_failure(result) is not None,
            "settings": settings,
            "trace": _trace(result), "transcript": transcript,
            "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "syntagm": __version__}


def _last_solver_status(result) -> str | None:
    for a in reversed(result.attempts):
        if a.outcome:
            return a.outcome.get("status")
    return None


class _Locked:
    """A retriever shared by the workers, one search at a time."""

    def __init__(self, inner):
        self.inner = inner
        self.lock = threading.Lock()

    def search(self, query: str, k: int):
        with self.lock:
            return self.inner.search(query, k)


def _run_name(text: str) -> str:
    """``--run-id``'s value: a name with a visible character (an empty one silently gave the derived id)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a name, got an empty one (leave --run-id out for the derived id)")
    return text


def _progress_line(task: BenchTask, rec: dict[str, Any] | None, err: str | None, done: int, total: int,
                   tol: float, abs_tol: float = 0.0) -> str:
    sample = f" sample {task.sample}" if task.sample else ""
    head = f"[{done}/{total}] {task.problem.dataset} #{task.problem.id} {task.strategy} {task.model}{sample}: "
    if rec is None:
        return head + f"not run: {err}"
    verdict = is_correct(rec["objective"], rec["answer"], tol, abs_tol)
    word = {True: "correct", False: "wrong", None: "unscorable"}[verdict]
    if rec.get("retryable"):  # an endpoint failure settles nothing: the report counts it as pending, so does this line
        word = "pending"
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


#: Settings a replay takes from the recorded run.json when the command line leaves them out.
_REPLAYED = ("max_iterations", "time_limit_s", "exemplars", "grammar_mode", "retriever", "temperature", "solver",
             "seed", "json_mode", "max_tokens", "compile_timeout_s", "use_judge", "use_fixits", "diagnostics",
             "semantic_checks", "ucb_c", "memory_size", "stage_retries", "embedding_model", "constrained_decoding")


def _load_datasets(args) -> list[tuple[str, list[BenchProblem]]]:
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
        datasets.append((path, _select(problems, args.ids, args.limit, getattr(args, "shard", None))))
    if not any(ps for _, ps in datasets) and getattr(args, "shard", None):
        raise SyntagmError(f"shard {args.shard[0]}/{args.shard[1]} holds none of the selected problems")
    if not any(ps for _, ps in datasets):
        raise SyntagmError("no problem matches --ids" + (f" {' '.join(args.ids)}" if args.ids else ""))
    return datasets


def _recorded_run(replay_root: Path, run_id: str | None) -> dict[str, Any]:
    """What a replay takes from the run it replays: ``{"choices", "datasets", "models", "strategies",
    "samples", "base_url"}``.

    ``run.json`` describes the *last* run of a folder; when ``run_id`` names another run that
    shares it, the choices come from that run's own records in ``results.jsonl`` (their
    ``settings``, where an unset setting is recorded as null and given back as unset), and the
    datasets and models from those records too."""
    try:
        last = json.loads((replay_root / "run.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        last = {}
    if not run_id or last.get("run_id") == run_id:
        return last
    mine = [r for r in ResultsLog.open(replay_root / RESULTS_FILE).records.values() if r.get("run_id") == run_id] \
        if (replay_root / RESULTS_FILE).is_file() else []
    if not mine:
        return {}
    settings = mine[0].get("settings") or {}
    return {"run_id": run_id, "settings": settings, "choices": {k: settings.get(k) for k in _REPLAYED if k in settings},
            "datasets": list(dict.fromkeys(r["dataset_path"] for r in mine if r.get("dataset_path"))),
            "models": list(dict.fromkeys(str(r["model"]) for r in mine if r.get("model"))),
            "strategies": list(dict.fromkeys(str(r["strategy"]) for r in mine if r.get("strategy"))),
            "samples": 1 + max(int(r.get("sample") or 0) for r in mine),
            "base_url": last.get("base_url")}


def _replay_mismatch(replay_root: Path, task: BenchTask, run_id: str, settings: dict[str, Any]) -> str:
    """Why ``replay_root`` has no transcript for ``task`` under ``run_id``: the recorded runs and
    how their settings and models differ."""
    from ..llm.transcript import read_transcript

    root = replay_root / TRANSCRIPTS
    found = []
    for run_dir in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        header = None
        for f in run_dir.rglob("*.jsonl"):
            try:
                header, _ = read_transcript(f)
                break
            except SyntagmError:
                continue
        if header is None:
            continue
        run = header.get("run") or {}
        diff = identity.setting_differences(run.get("settings") or {}, settings)
        models = sorted(p.name for p in run_dir.iterdir() if p.is_dir())
        found.append(f"{run.get('run_id', run_dir.name)} (models {', '.join(models)}"
                     + (f"; settings differ: {'; '.join(diff)}" if diff else "") + ")")
    where = f"no recorded transcript for run {run_id}, model {task.model}, {task.problem.dataset} " \
            f"#{task.problem.id} {task.strategy}" + (f" sample {task.sample}" if task.sample else "")
    return where + (f"; {replay_root} holds: " + " | ".join(found) if found else f" in {replay_root}")


def _bench(args: argparse.Namespace) -> int:
    from .. import config as config_mod
    from ..assess.compiler import _pyopl
    from ..llm.cache import BudgetClient, CachingClient
    from ..llm.client import OpenAIChatClient
    from ..llm.transcript import RecordingClient, ReplayClient
    from ..prices import load_prices
    from ..rag import make_retriever
    from ..strategies import STRATEGY_SETTINGS, StrategyContext, get_strategy

    out = Path(args.out)
    replay_root = Path(args.replay) if args.replay else None
    recorded: dict[str, Any] = {}
    if replay_root is not None:
        if not (replay_root / TRANSCRIPTS).is_dir():
            raise SyntagmError(f"{replay_root} holds no {TRANSCRIPTS}/ folder: replay needs the --out of a run "
                               "made with --record")
        recorded = _recorded_run(replay_root, args.run_id)
        for k, v in (recorded.get("choices") or {}).items():  # the recorded run's choices by default
            if k in _REPLAYED and getattr(args, k, None) is None:
                setattr(args, k, v)
        if not args.dataset:
            args.dataset = list(recorded.get("datasets") or [])
        if not args.strategy:  # the recorded run's strategies and samples unless given
            args.strategy = list(recorded.get("strategies") or [])
        if args.samples is None and recorded.get("samples"):
            args.samples = int(recorded["samples"])
    strategies = list(dict.fromkeys(args.strategy or ["syntagm"]))
    if args.samples is None:
        args.samples = 1
    if not args.dataset:
        raise SyntagmError("give --dataset PATH.json (with --replay, the replayed run's datasets are used when "
                           "its records name them)")
    datasets = _load_datasets(args)
    flags = {"model": (args.model or [None])[0], "base_url": args.base_url, "timeout_s": args.timeout_s,
             "max_retries": args.max_retries, "json_mode": args.json_mode, "temperature": args.temperature,
             "max_tokens": getattr(args, "max_tokens", None),
             "constrained_decoding": getattr(args, "constrained_decoding", None)}
    cfg, fileconf = (None, {}) if replay_root is not None else config_mod.resolve(flags, config_path=args.config)
    if replay_root is not None:
        models = args.model or recorded.get("models") or ["replay"]
    else:
        models = list(dict.fromkeys(args.model or [cfg.model if cfg else config_mod.model_name(fileconf)]))
    base_url = cfg.base_url if cfg else recorded.get("base_url")
    args.retriever = args.retriever or "bm25"
    temperature = args.temperature if args.temperature is not None else (
        cfg.temperature if cfg else fileconf.get("temperature"))
    json_mode = args.json_mode or (cfg.json_mode if cfg else fileconf.get("json_mode", "auto"))
    max_tokens = getattr(args, "max_tokens", None) or (cfg.max_tokens if cfg else fileconf.get("max_tokens"))
    # a replay keeps the recorded mode (None for runs recorded before the setting existed); with no
    # endpoint (re-scoring what is recorded) the configured one, as the run that made the records had
    decoding = cfg.constrained_decoding if cfg else (
        getattr(args, "constrained_decoding", None)
        or (None if replay_root is not None else fileconf.get("constrained_decoding", "auto")))
    choices = {"max_iterations": args.max_iterations, "time_limit_s": args.time_limit_s, "exemplars": args.exemplars,
               "grammar_mode": args.grammar_mode, "retriever": args.retriever, "temperature": temperature,
               "solver": args.solver, "seed": args.seed, "json_mode": json_mode, "max_tokens": max_tokens,
               "compile_timeout_s": args.compile_timeout_s, "constrained_decoding": decoding,
               **{k: getattr(args, k, None) for k in STRATEGY_SETTINGS}}
    settings = identity.run_settings(kb_path=args.kb, **choices)
    run_id = args.run_id or identity.derive_run_id(settings)
    if (replay_root is not None and not args.run_id and recorded.get("run_id")
            and not (replay_root / TRANSCRIPTS / safe_name(run_id)).is_dir()
            and not identity.setting_differences(recorded.get("settings") or {}, settings)):
        run_id = str(recorded["run_id"])  # a named run replayed with its own settings keeps its name
    prices = load_prices(args.prices or os.environ.get("SYNTAGM_PRICES") or fileconf.get("prices"))
    strategy_objs = {s: get_strategy(s) for s in strategies}
    overrides = {k: v for k, v in choices.items() if k in ("max_iterations", "time_limit_s", "exemplars",
                                                           "grammar_mode", "solver", "compile_timeout_s")
                 or k in STRATEGY_SETTINGS}

    make_out_folder(out)
    log = ResultsLog.open(out / RESULTS_FILE)
    identity.check_run_id(run_id, settings, list(log.records.values()))
    notes = [f"results.jsonl: {c.describe()} skipped; its problem is run again" for c in log.corrupt]
    if args.cache and replay_root is None and temperature != 0 and args.seed is None:
        # an unset temperature samples at the endpoint's default, so one cached sample must not stand for all
        notes.append("--cache: without --temperature 0 or --seed the requests are sampled and none is cached")
    for n in notes:
        print(f"syntagm: warning: {n}", file=sys.stderr)
    paths = {ps[0].dataset: path for path, ps in datasets if ps}
    samples = args.samples

    def key(task: BenchTask):
        return (run_id, task.model, task.strategy, task.problem.dataset, task.problem.id, task.sample)

    every = [BenchTask(p, s, m, k) for m in models for s in strategies for _path, ps in datasets for p in ps
             for k in range(samples)]
    # a recorded problem whose question text changed since (a dataset corrected in place) is run
    # again: its old record answers another question (records without the digest are kept)
    changed = [t for t in every if log.done(key(t)) and log.records[key(t)].get("question_sha256")
               not in (None, question_digest(t.problem.question))]
    if changed:
        print(f"syntagm: warning: {len(changed)} recorded problem(s) have another question text in the dataset now "
              f"(first: {changed[0].problem.dataset} #{changed[0].problem.id}); running them again", file=sys.stderr)
    tasks = [t for t in every if not log.done(key(t)) or t in changed]
    endpoints = {}
    if tasks and replay_root is None:
        for m in dict.fromkeys(t.model for t in tasks):
            endpoints[m] = config_mod.model_config(m, cfg, fileconf)
            if endpoints[m] is not None:  # the run's temperature, whichever table the endpoint came from
                endpoints[m] = replace(endpoints[m], temperature=temperature)
            if endpoints[m] is None:
                raise ConfigError(config_mod.NO_ENDPOINT_MESSAGE if len(models) == 1 else
                                  f"no endpoint for model {m!r}: give --base-url/OPENAI_API_KEY, or a "
                                  f"[models.{m}] table in the config file")
        if args.max_cost_usd or args.max_cost_usd_per_problem:
            # an unpriced call costs "unknown", which a cap would count as 0: the cap would never stop
            # anything, so refuse before any call rather than run a sweep the user meant to bound
            unpriced = [m for m, ep in endpoints.items()
                        if _with_price(prices, ep.model, fileconf, m).lookup(ep.model) is None]
            if unpriced:
                flag = "--max-cost-usd" if args.max_cost_usd else "--max-cost-usd-per-problem"
                raise ConfigError(f"{flag} needs a price for every model, and {', '.join(map(repr, unpriced))} "
                                  "has none in the price table: give one with --prices FILE (or `prices` in a "
                                  "[models.NAME] table of the config file), or drop the cap")
    if tasks:
        _pyopl()
    skipped = len(every) - len(tasks)
    if skipped and not args.quiet:
        print(f"syntagm: {skipped} problem(s) already in {out / RESULTS_FILE} for run {run_id}; running the other "
              f"{len(tasks)}", file=sys.stderr)
    write_atomic(out / "run.json", json_text({
        "run_id": run_id, "models": models, "base_url": scrub(base_url) if base_url else None,
        "strategies": strategies, "datasets": [p for p, _ in datasets], "samples": samples, "choices": choices,
        "settings": settings, "replay": str(replay_root) if replay_root else None, "syntagm": __version__}))
    retriever = None
    if tasks:
        retriever = make_retriever(args.retriever, args.kb, getattr(args, "embedding_model", None))
        retriever = _Locked(retriever) if retriever is not None else None
    clients: dict[tuple[str, int], Any] = {}
    clients_lock = threading.Lock()

    def client_for(task: BenchTask):
        seed = None if args.seed is None else args.seed + task.sample
        k = (task.model, -1 if seed is None else seed)
        with clients_lock:
            if k not in clients:
                ep = endpoints[task.model]
                clients[k] = OpenAIChatClient(replace(ep, seed=seed, max_tokens=max_tokens or ep.max_tokens),
                                              _with_price(prices, ep.model, fileconf, task.model),
                                              notify=None if args.quiet else _endpoint_note(task.model))
            return clients[k]

    def solve_one(task: BenchTask) -> dict[str, Any]:
        tpath = transcript_path(out, task, run_id)
        header_run = {"run_id": run_id, "strategy": task.strategy, "sample": task.sample, "settings": settings}
        sink = None
        if replay_root is not None:
            src = transcript_path(replay_root, task, run_id)
            if not src.is_file():
                raise ReplayError(_replay_mismatch(replay_root, task, run_id, settings))
            llm = ReplayClient(src, expect_model=task.model, expect_run=header_run,
                               settings_differences=identity.setting_differences)
        else:
            llm = client_for(task)
            if args.cache:
                ep = endpoints[task.model]
                llm = CachingClient(llm, args.cache, {"base_url": scrub(ep.base_url) if ep.base_url else None,
                                                      "temperature": ep.temperature, "max_tokens": ep.max_tokens,
                                                      "seed": None if args.seed is None else args.seed + task.sample})
            if args.max_cost_usd_per_problem:
                llm = BudgetClient(llm, args.max_cost_usd_per_problem)
            if args.record:
                sink = open_new(tpath.with_name(tpath.name + ".partial"))
                llm = RecordingClient(llm, sink, base_url, header_run)
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
        rec = make_record(task, result, model=task.model, dataset_path=paths[task.problem.dataset],
                          settings=settings, wall_s=wall, transcript=kept, run_id=run_id)
        if task.problem.reference_model and result.model:
            from .equivalence import compare_models

            rec["equivalence"] = compare_models(result.model, result.data, task.problem.reference_model,
                                                task.problem.reference_data, args.tolerance,
                                                args.time_limit_s or 30.0)
        with spent_lock:  # counted before this worker asks may_start() for its next task
            spent["usd"] += float(rec.get("cost_usd") or 0)
        return rec

    spent = {"usd": sum(float(r.get("cost_usd") or 0) for r in log.records.values() if r.get("run_id") == run_id)}

    spent_lock = threading.Lock()

    def may_start() -> bool:
        with spent_lock:
            return args.max_cost_usd is None or spent["usd"] < args.max_cost_usd

    def on_done(task, rec, err, done, total):
        if not args.quiet:
            print(_progress_line(task, rec, err, done, total, args.tolerance, args.abs_tol), file=sys.stderr,
                  flush=True)

    try:
        summary = run_tasks(tasks, solve_one, log, args.workers, on_done, may_start=may_start)
    finally:
        log.close()

    groups = []
    for m in models:
        for path, ps in datasets:
            if not ps:
                continue
            for s in strategies:
                # scored against the dataset's answers as they are now
                recs = [dict(log.records[k], answer=p.answer) for p in ps for i in range(samples)
                        if log.done(k := (run_id, m, s, p.dataset, p.id, i))]
                groups.append({"run_id": run_id, "model": m, "dataset": ps[0].dataset, "strategy": s,
                               "records": recs, "selected": len(ps)})
    if summary.interrupted:
        notes.append(f"interrupted: {summary.abandoned} problem(s) not finished; run the same command to resume")
    if summary.failed:
        notes.append(f"{len(summary.failed)} problem(s) could not be run (not recorded; a rerun tries them again)")
    retry = [k for t in every if (k := key(t)) in log.records and log.records[k].get("retryable")]
    if retry:
        kinds = sorted({str(log.records[k].get("endpoint_error")) for k in retry})
        notes.append(f"{len(retry)} problem(s) ended on an endpoint failure ({', '.join(kinds)}): recorded as "
                     "retryable, counted as pending, and run again when the same command is run again")
    skipped_tasks = [{"model": t.model, "strategy": t.strategy, "dataset": t.problem.dataset, "id": t.problem.id,
                      "sample": t.sample} for t in summary.skipped]
    if skipped_tasks:
        notes.append(f"cost cap ${args.max_cost_usd:g} reached (${spent['usd']:.6f} spent by this run): "
                     f"{len(skipped_tasks)} problem(s) not started; rerun with a higher --max-cost-usd to do them")
    report = build_report(groups, tol=args.tolerance, abs_tol=args.abs_tol, notes=notes,
                          results_path=str(out / RESULTS_FILE), run_ids=[run_id],
                          extra={"settings": {run_id: settings}, "skipped": skipped_tasks,
                                 "cost_cap_usd": args.max_cost_usd})
    finish_report(report, out, args)
    for task, err in summary.failed[:10]:
        print(f"syntagm: {task.problem.dataset} #{task.problem.id} {task.strategy} {task.model}: not run: {err}",
              file=sys.stderr)
    if summary.interrupted:
        print("syntagm: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_INCOMPLETE if summary.failed or summary.skipped or retry else EXIT_OK


def question_digest(question: str) -> str:
    """SHA-256 (hex) of a problem's question text, kept in its record so that a resumed sweep can
    tell a problem whose text changed in the dataset from one already answered."""
    import hashlib

    return hashlib.sha256(question.encode("utf-8", "surrogatepass")).hexdigest()


def _with_price(prices, endpoint_model: str, fileconf: dict[str, Any], name: str):
    """``prices`` plus the inline price of ``[models.NAME]`` (for the endpoint's model name), if any."""
    p = ((fileconf.get("models") or {}).get(name) or {}).get("prices")
    if not p:
        return prices
    from ..prices import Price, PriceTable

    models = dict(prices.models)
    models[endpoint_model] = Price(float(p["input"]), float(p["output"]), float(p.get("cached_input", p["input"])))
    return PriceTable(models, prices.date, prices.source)


def finish_report(report: dict[str, Any], out: Path | None, args) -> None:
    """Write ``report.json``, ``report.md``, ``report.csv`` (and the plot) into ``out`` when given;
    print the report."""
    from .tables import csv_table, markdown_table

    plot = None
    if out is not None:
        write_atomic(out / "report.json", json_text(report))
        write_atomic(out / "report.md", markdown_table(report))
        write_atomic(out / "report.csv", csv_table(report))
        plot = None if getattr(args, "no_plot", False) else write_plot(report, out)
    if args.format == "json":
        print(json.dumps(dict(report, plot=str(plot) if plot else None), indent=2, ensure_ascii=False))
    else:
        print(plain_text(text_table(report)))
        if out is not None:
            print(f"written to {out}/ (results.jsonl, report.json{', ' + plot.name if plot else ''})")
