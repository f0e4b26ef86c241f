"""Prompt tokens per problem of each syntagm strategy, counted exactly from the requests.

Runs ``syntagm bench`` for every strategy on the first N problems of each dataset against the
tests' scripted OpenAI-compatible server (one fixed, contract-keeping reply for every step: the
workshop model, an "aligned" verdict), and counts every request's prompt tokens with the o200k
tokenizer (``syntagm.tokens.count_prompt_tokens``, model gpt-4o-mini), not with the chars/4
estimate. Replies are scripted, so the figures measure what each strategy *sends* under this
script (how many calls, how large the prompts), not what a real model would make it do.

    python benchmarks/syntagm_prompt_tokens.py ../shared/benchmarks/NL4OPT.json ../shared/benchmarks/IndustryOR.json --limit 20
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "syntagm")]

from syntagm.bench.datasets import load_dataset  # noqa: E402
from syntagm.cli import main  # noqa: E402
from syntagm.strategies import STRATEGIES  # noqa: E402
from syntagm.tokens import count_prompt_tokens  # noqa: E402
from syntagm_testkit import GOOD, Item, ScriptedServer, usage  # noqa: E402

UNIVERSAL = json.dumps({
    "model": GOOD, "data": "", "aligned": True, "issues": [], "ok": True, "expert": "", "feedback": "",
    "thought": "straight from the text", "best": 1, "reason": "it matches the text",
    "declarations": "float cap = ...;", "sense": "maximize", "objective": "3*x + 2*y",
    "variables": "dvar float+ x; dvar float+ y;", "constraints": "ctA: x + y <= cap; ctB: x + 3*y <= 6;",
    "reflection": "the model follows the text", "quantities": ["profit"], "set_aside": [], "justified": [],
    "meanings": [{"name": "x", "meaning": "tables", "domain": ">= 0", "units": "tables"},
                 {"name": "y", "meaning": "chairs", "domain": ">= 0", "units": "chairs"}],
    "mapping": [{"label": "ctA", "sentence": "(scripted)"}, {"label": "ctB", "sentence": "(scripted)"}]})


def main_(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--model", default="gpt-4o-mini")
    ap.add_argument("--retriever", default=None, help="passed to syntagm bench (default: its own, bm25)")
    args = ap.parse_args(argv)
    server = ScriptedServer()
    server.router = lambda body: Item(UNIVERSAL, usage=usage())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for ds in args.datasets:
            questions = [p.question for p in load_dataset(ds)[: args.limit]]
            for strategy in sorted(STRATEGIES):
                before = len(server.requests)
                with contextlib.redirect_stdout(io.StringIO()):
                    rc = main(["bench", "--dataset", ds, "--strategy", strategy, "--limit", str(args.limit),
                           "--base-url", server.url, "--model", args.model, "--out", f"{tmp}/{Path(ds).stem}-{strategy}",
                               "--workers", "2", "-q", "--no-plot", "--max-retries", "0"]
                          + (["--retriever", args.retriever] if args.retriever else []))
                reqs = server.requests[before:]
                per_problem: dict[str, int] = {}
                method = ""
                for r in reqs:
                    msgs = r["body"]["messages"]
                    n, method = count_prompt_tokens(msgs, args.model)
                    text = "\n".join(m["content"] for m in msgs)
                    owner = [i for i, q in enumerate(questions) if q.strip() in text]
                    if len(owner) != 1:
                        raise SystemExit(f"a request of {strategy} names {len(owner)} of the problems")
                    per_problem[owner[0]] = per_problem.get(owner[0], 0) + n
                vals = sorted(per_problem.values())
                rows.append({"dataset": Path(ds).stem, "strategy": strategy, "rc": rc, "problems": len(vals),
                             "calls": len(reqs), "mean": round(statistics.fmean(vals), 1) if vals else None,
                             "median": statistics.median(vals) if vals else None,
                             "min": vals[0] if vals else None, "max": vals[-1] if vals else None,
                             "method": method})
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    server.close()
    print("| dataset | strategy | problems | calls | prompt tokens / problem: mean | median | min | max |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dataset']} | {r['strategy']} | {r['problems']} | {r['calls']} | {r['mean']:,} | "
              f"{r['median']:,} | {r['min']:,} | {r['max']:,} |")
    print(f"\ncounted with {rows[0]['method'] if rows else '?'}")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
