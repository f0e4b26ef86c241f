"""The command line: ``syntagm solve PROBLEM.txt``, ``syntagm bench --dataset PATH.json ...``,
``syntagm prompt-size DATASET``, ``syntagm compare A.mod A.dat B.mod B.dat`` and ``syntagm mcp``.

Exit status: 0 when the run ends aligned (or solved, for strategies without a
judge); 1 when it ends unaligned or failed; 2 for usage, configuration and
input errors (one message on stderr, never a traceback).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

from . import __version__
from .cli_flags import add_strategy_flags
from .decoding.endpoints import MODES as DECODING_MODES
from .rag.kinds import RETRIEVERS
from .errors import ConfigError, SyntagmError
from .redact import scrub
from .safeio import plain_text

EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE = 0, 1, 2


def _number(kind: type, minimum: float, strict: bool):
    """An argparse type: ``kind`` (int or float) at least ``minimum`` (above it when ``strict``)."""
    what = "a whole number" if kind is int else "a number"
    bound = ("a positive number" if kind is float else "at least %d" % (minimum + 1)) if strict else "0 or more"

    def convert(s: str):
        try:
            v = kind(s)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {s!r}") from None
        if kind is float and not math.isfinite(v):  # (inf seconds reached the HTTP client: OverflowError)
            raise argparse.ArgumentTypeError(f"expected a finite number, got {s!r}")
        if not (v > minimum if strict else v >= minimum):
            raise argparse.ArgumentTypeError(f"expected {bound}, got {s!r}")
        return v

    return convert


_positive_int = _number(int, 0, strict=True)
_nonneg_int = _number(int, 0, strict=False)
_positive_float = _number(float, 0.0, strict=True)
_nonneg_float = _number(float, 0.0, strict=False)


def build_parser() -> argparse.ArgumentParser:
    from .strategies import STRATEGIES

    p = argparse.ArgumentParser(prog="syntagm", description="Turn a plain-language optimisation problem into a "
                                "solved PyOPL model with an LLM, and report what it cost.")
    p.add_argument("--version", action="version", version=f"syntagm {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser("solve", help="write, check, solve and judge a model for PROBLEM.txt",
                       description="Run a strategy on one problem; write model.mod, data.dat, solution.json, "
                       "telemetry.json, attempts.json, timings.json and transcript.jsonl into --out.")
    s.add_argument("problem", metavar="PROBLEM.txt", help="the problem in plain language (a text file)")
    ep = s.add_argument_group("endpoint (flags > environment > config file)")
    ep.add_argument("--model", help="model name (env SYNTAGM_MODEL; default gpt-4o-mini)")
    ep.add_argument("--base-url", help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (env OPENAI_BASE_URL)")
    ep.add_argument("--timeout", type=_positive_float, dest="timeout_s", help="seconds per HTTP request (default 120)")
    ep.add_argument("--max-retries", type=_nonneg_int, help="retries on 429/5xx/timeouts (default 4)")
    ep.add_argument("--json-mode", choices=("auto", "on", "off"), help="ask for JSON replies (default auto)")
    ep.add_argument("--constrained-decoding", choices=DECODING_MODES, dest="constrained_decoding",
                    help="send the GBNF grammar of the model/data reply where the endpoint takes one: auto asks "
                    "the endpoint (llama.cpp, vLLM); off never (default auto)")
    ep.add_argument("--temperature", type=float, help="sampling temperature (default: not sent, so the endpoint's "
                    "own default applies; if set and the endpoint rejects it, as reasoning models do, it is dropped "
                    "for the rest of the run)")
    ep.add_argument("--max-tokens", type=_positive_int, dest="max_tokens",
                    help="completion token cap per call (default: the endpoint's own); sent as max_tokens, or "
                    "max_completion_tokens where the endpoint asks for it")
    ep.add_argument("--config", help="TOML config file (default ./syntagm.toml or ~/.config/syntagm/config.toml)")
    ep.add_argument("--prices", help="price table JSON overriding the shipped one (env SYNTAGM_PRICES)")
    run = s.add_argument_group("run")
    run.add_argument("--strategy", choices=sorted(STRATEGIES), default=None, help="default: syntagm")
    run.add_argument("--max-iterations", type=_positive_int, help="LLM generation/revision calls allowed (default 5)")
    run.add_argument("--time-limit", type=_positive_float, dest="time_limit_s", help="solver seconds per solve (default 30)")
    run.add_argument("--compile-timeout", type=_positive_float, dest="compile_timeout_s",
                     help="seconds one compile of a candidate may take before it is stopped (default 60)")
    run.add_argument("--retriever", choices=RETRIEVERS, default=None,
                     help="exemplar retrieval (default bm25; structure = BM25 re-ranked by decision structure; hybrid = "
                     "BM25 + sentence embeddings, needs the [rag] extra)")
    run.add_argument("--kb", help="knowledge base folder (default $SYNTAGM_KB, else ./knowledge_base, else the packaged one)")
    run.add_argument("--exemplars", type=_nonneg_int, help="exemplars in the generation prompt (default 2)")
    run.add_argument("--grammar-ref", choices=("auto", "compact", "full", "none"), dest="grammar_mode", default=None,
                     help="language reference in the prompt (default auto; none is an ablation)")
    add_strategy_flags(run, _positive_float, _nonneg_int)
    io = s.add_argument_group("output")
    io.add_argument("--out", help="output folder (default out/<problem name>)")
    rr = io.add_mutually_exclusive_group()
    rr.add_argument("--record", metavar="FILE", help="also keep the transcript in FILE (JSONL)")
    rr.add_argument("--replay", metavar="FILE", help="replay a recorded transcript offline instead of calling an endpoint")
    io.add_argument("--format", choices=("text", "json"), default="text", help="summary on stdout")
    io.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")

    ps = sub.add_parser("prompt-size", help="prompt tokens of the first generation call over a dataset",
                        description="Build the first generation prompt for every problem of a dataset "
                        "(JSON list of {\"en_question\": ...}) and report the distribution of its prompt tokens.")
    ps.add_argument("dataset")
    ps.add_argument("--retriever", choices=RETRIEVERS, default="bm25")
    ps.add_argument("--kb")
    ps.add_argument("--exemplars", type=_nonneg_int, default=2)
    ps.add_argument("--grammar-ref", choices=("auto", "compact", "full", "none"), dest="grammar_mode", default="auto")
    ps.add_argument("--model", default="gpt-4o-mini",
                    help="count with this model's tokenizer when one is available offline (default gpt-4o-mini); "
                    "other models get the labelled chars/4 estimate")
    ps.add_argument("--format", choices=("text", "json"), default="text")

    from .bench.command import add_parser as add_bench
    from .bench.reportcmd import add_parser as add_report
    types = {"positive_int": _positive_int, "nonneg_int": _nonneg_int, "positive_float": _positive_float,
             "nonneg_float": _nonneg_float}
    add_bench(sub, types)
    add_report(sub, types)
    from .commands.compare import add_parser as add_compare
    add_compare(sub, types)
    sub.add_parser("grammar", help="print the GBNF grammar of the model/data reply (llama.cpp format)",
                   description="Print the GBNF grammar that --constrained-decoding sends, generated from "
                   "pyopl's model and data grammars (e.g. for llama-server --grammar-file).")
    sub.add_parser("mcp", help="serve syntagm's MCP tools (compare) over stdio",
                   description="A Model Context Protocol server over stdio with the tool `compare`.")
    return p


# -- solve -------------------------------------------------------------------------------------

def _read_problem(path: str) -> str:
    p = Path(path)
    if not p.exists():
        raise SyntagmError(f"problem file {p} does not exist")
    if not p.is_file():
        raise SyntagmError(f"{p} is not a file")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SyntagmError(f"{p} is not UTF-8 text") from None
    except OSError as e:
        raise SyntagmError(f"cannot read {p}: {e.strerror or e}") from None
    if not text.strip():
        raise SyntagmError(f"{p} is empty: write the problem in plain language in it")
    return text


def _progress(quiet: bool):
    def show(e: dict[str, Any]) -> None:
        if quiet:
            return
        detail = f": {e['detail']}" if e.get("detail") else ""
        print(plain_text(f"[{e['iteration']}/{e['max_iterations']}] {e['step']}{detail}"), file=sys.stderr, flush=True)
    return show


def _endpoint_note(line: str) -> None:
    """A progress line from the client (a retry with its reason and wait, a dropped parameter)."""
    print(plain_text(f"[endpoint] {line}"), file=sys.stderr, flush=True)


def _fmt_cost(c: float | None) -> str:
    """Dollars as ``syntagm bench`` prints them: 4 decimals, 6 below a cent (with 4 always, a
    measured $0.000045 run read ``$0.0000``, as if it had cost nothing)."""
    from .bench.report import _money

    return _money(c)


def _text_summary(doc: dict[str, Any], tel: dict[str, Any], out: Path) -> str:
    t = tel["totals"]
    lines = [f"status: {doc['status']} (solver: {doc['solver_status'] or 'no solution'})"]
    if doc.get("failure"):
        lines.append(f"why: {doc['failure']}")
    if doc["objective"] is not None:
        lines.append(f"objective: {doc['objective']:g}")
    sol = doc.get("solution") or {}
    shown = 0
    for name, v in (sol.get("variables") or {}).items():
        if shown >= 20:
            lines.append("  ...")
            break
        lines.append(f"  {name} = {json.dumps(v) if not isinstance(v, float) else format(v, 'g')}")
        shown += 1
    v = doc.get("verdict")
    if v and v.get("issues"):
        lines.append("judge: " + ("aligned" if v.get("aligned") else "issues remain"))
        for it in v["issues"][:5]:
            lines.append(f"  - {it.get('problem', it) if isinstance(it, dict) else it}")
    if doc.get("error"):
        lines.append(f"stopped: {doc['error']}")
    est = " (estimated)" if t["usage_estimated"] else ""
    calls, its = t["llm_calls"], t["iterations"]
    lines.append(f"cost: {calls} LLM call{'s' * (calls != 1)}, {its} iteration{'s' * (its != 1)}, "
                 f"{t['prompt_tokens']:,} prompt + {t['completion_tokens']:,} completion tokens{est} "
                 f"({t['cached_tokens']:,} cached), {_fmt_cost(t['cost_usd'])}, {t['latency_s']:.1f} s LLM time, "
                 f"{t['retries']} retries")
    lines.append(f"written to {out}/")
    return "\n".join(lines)


def cmd_solve(args: argparse.Namespace) -> int:
    """``syntagm solve``: one problem through a strategy, its outputs written into ``--out``
    (the folder locked while the run writes into it; the locks are released however it ends)."""
    held: list[int] = []
    try:
        return _solve(args, held)
    finally:
        for fd in held:
            os.close(fd)


def _solve(args: argparse.Namespace, held: list[int]) -> int:
    from . import config as config_mod
    from .artefacts import solution_doc, telemetry_doc, write_results
    from .safeio import keep_aside, lock_folder, make_out_folder, open_new, replace_file, write_atomic
    from .assess.compiler import _pyopl
    from .llm.client import OpenAIChatClient
    from .llm.transcript import RecordingClient, ReplayClient
    from .prices import load_prices
    from .rag import make_retriever
    from .strategies import STRATEGY_SETTINGS, StrategyContext, get_strategy

    problem = _read_problem(args.problem)
    replay = ReplayClient(args.replay) if args.replay else None
    recorded = (replay.header.get("run") or {}) if replay else {}

    def setting(name: str, default: Any) -> Any:
        v = getattr(args, name, None)
        return v if v is not None else recorded.get(name, default)

    strategy_name = setting("strategy", "syntagm")
    strategy = get_strategy(strategy_name)
    run_settings = {"strategy": strategy_name, "max_iterations": setting("max_iterations", None),
                    "time_limit_s": setting("time_limit_s", None), "exemplars": setting("exemplars", None),
                    "grammar_mode": setting("grammar_mode", None), "retriever": setting("retriever", "bm25"),
                    "compile_timeout_s": setting("compile_timeout_s", None),
                    **{k: setting(k, None) for k in STRATEGY_SETTINGS}}
    fileconf: dict[str, Any] = {}
    base_url = None
    if replay is None:
        flags = {"model": args.model, "base_url": args.base_url, "timeout_s": args.timeout_s,
                 "max_retries": args.max_retries, "json_mode": args.json_mode, "temperature": args.temperature,
                 "max_tokens": args.max_tokens, "constrained_decoding": args.constrained_decoding}
        cfg, fileconf = config_mod.resolve(flags, config_path=args.config)
        if cfg is None:
            raise ConfigError(config_mod.NO_ENDPOINT_MESSAGE)
        base_url = cfg.base_url
    prices = load_prices(args.prices or os.environ.get("SYNTAGM_PRICES") or fileconf.get("prices"))
    _pyopl()  # fail now, with one message, if the compiler is missing
    out = Path(args.out) if args.out else Path("out") / Path(args.problem).stem
    make_out_folder(out)
    # one run at a time writes into a folder: a second `syntagm solve --out` on it waits (its
    # transcript and results would otherwise mix with the first's)
    lock = lock_folder(out, lambda: print(f"syntagm: another run is writing into {out}; waiting for it to finish",
                                          file=sys.stderr))
    held.extend([lock] if lock is not None else [])
    retriever = make_retriever(run_settings["retriever"], args.kb, run_settings.get("embedding_model"))

    transcript = out / "transcript.jsonl"
    record_path = Path(args.record) if args.record else transcript
    partial = record_path.with_name(record_path.name + ".partial")
    if record_path.parent != out:  # a --record elsewhere: its folder is locked too
        record_path.parent.mkdir(parents=True, exist_ok=True)
        if record_path.parent.resolve() != out.resolve():
            lock_record = lock_folder(record_path.parent)
            held.extend([lock_record] if lock_record is not None else [])
    kept = keep_aside(partial) if replay is None else None  # what a crashed run kept is never emptied
    if kept is not None:
        print(f"syntagm: the exchanges a stopped run kept in {partial} are now in {kept}", file=sys.stderr)
    sink = None
    if replay is not None:
        llm = replay
        model_name = replay.model
    else:
        quiet = args.quiet or args.format == "json"
        llm = OpenAIChatClient(cfg, prices, notify=None if quiet else _endpoint_note)
        model_name = cfg.model
        record_path.parent.mkdir(parents=True, exist_ok=True)
        sink = open_new(partial)
        llm = RecordingClient(llm, sink, base_url, run_settings)
    ctx = StrategyContext(llm, retriever, _progress(args.quiet or args.format == "json"),
                          {k: v for k, v in run_settings.items() if k not in ("strategy", "retriever")})
    start = time.monotonic()
    try:
        result = strategy.solve(problem, ctx)
    except BaseException:
        if sink is not None:  # what was said so far is kept, never lost with the run (issue 33)
            print(f"syntagm: the exchanges so far are kept in {partial}", file=sys.stderr)
        raise
    finally:
        if sink is not None:
            sink.close()
    wall = time.monotonic() - start
    if sink is not None:
        replace_file(partial, record_path)
        if record_path != transcript:
            write_atomic(transcript, record_path.read_text(encoding="utf-8"))
    elif Path(args.replay).resolve() != transcript.resolve():
        write_atomic(transcript, Path(args.replay).read_text(encoding="utf-8"))
    write_results(out, result, model=model_name, strategy=strategy_name, prices=prices, wall_s=wall)
    doc = solution_doc(result, strategy_name)
    tel = telemetry_doc(result, model_name, strategy_name, prices)
    if args.format == "json":
        print(json.dumps({"status": doc["status"], "objective": doc["objective"], "solver_status": doc["solver_status"],
                          "iterations": result.iterations, "verdict": doc["verdict"], "error": doc["error"],
                          "failure": doc["failure"],  # the text summary's `why:` (it was only in solution.json)
                          "totals": tel["totals"], "out": str(out)}, indent=2))
    else:
        print(plain_text(_text_summary(doc, tel, out)))
    return EXIT_OK if result.status in ("aligned", "solved") else EXIT_UNSOLVED


def cmd_prompt_size(args: argparse.Namespace, kb: tuple[Any, int] = (None, 0)) -> int:
    from .loop import LoopOptions
    from .commands.promptsize import load_questions, prompt_size_report
    from .rag import make_retriever

    questions = load_questions(args.dataset)
    opts = LoopOptions(exemplars=args.exemplars, grammar_mode=args.grammar_mode)
    rep = prompt_size_report(questions, make_retriever(args.retriever, args.kb), opts, model=args.model)
    rep["knowledge_base"] = {"path": str(kb[0]) if kb[0] is not None else None, "exemplars": kb[1]}
    if args.format == "json":
        print(json.dumps(rep, indent=2))
    else:
        print(f"{rep['count']} problems; first generation prompt tokens: min {rep['min']}, median {rep['median']}, "
              f"mean {rep['mean']}, p90 {rep['p90']}, max {rep['max']}\n({rep['method']})\n"
              f"knowledge base: {kb[1]} exemplars ({rep['knowledge_base']['path'] or 'retrieval off'})")
    return EXIT_OK


def _serve_mcp() -> int:
    """``syntagm mcp``: the server needs the ``mcp`` extra.  Without it: one line naming the install
    command, exit status 2 (EXIT_USAGE), as ``pyopl mcp`` does; not an internal error."""
    try:
        import mcp.server  # noqa: F401  (mcp 1.x and 2.x both have it)
    except ImportError as e:
        print(f'syntagm: `syntagm mcp` needs the mcp extra: pip install "pyopl[mcp]" ({e})', file=sys.stderr)
        return EXIT_USAGE
    from .commands.mcp_server import main as serve

    return serve()


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``syntagm`` script and ``python -m syntagm``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        if args.command == "mcp":
            return _serve_mcp()
        if args.command == "grammar":
            from .decoding.contract import contract_grammar
            sys.stdout.write(contract_grammar())
            return 0
        from .selfcheck import check_installation

        kb = check_installation(args)  # before any LLM call: compiler and knowledge base work
        if args.command == "solve":
            return cmd_solve(args)
        if args.command == "bench":
            from .bench.command import cmd_bench
            return cmd_bench(args)
        if args.command == "report":
            from .bench.reportcmd import cmd_report
            return cmd_report(args)
        if args.command == "compare":
            from .commands.compare import cmd_compare
            return cmd_compare(args)
        return cmd_prompt_size(args, kb)
    except SyntagmError as e:
        print(f"syntagm: error: {scrub(e)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("syntagm: interrupted", file=sys.stderr)
        return 130
    except OSError as e:
        print(f"syntagm: error: {e.strerror or e}" + (f": {e.filename}" if getattr(e, "filename", None) else ""),
              file=sys.stderr)
        return EXIT_USAGE
    except Exception as e:  # an internal bug: one line, with a way to get the traceback
        if os.environ.get("SYNTAGM_DEBUG"):
            raise
        print(f"syntagm: internal error: {type(e).__name__}: {scrub(e)} (set SYNTAGM_DEBUG=1 for the traceback)",
              file=sys.stderr)
        return 3
