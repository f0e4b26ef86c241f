"""Command line: ``pyopl solve|check|explain|export``.

Contract (tools rely on it): ``pyopl solve MODEL [DATA] [--solver highs] [--time-limit S]
[--format text|json]`` prints a JSON object with ``status``, ``objective``,
``variables`` and ``solve_time_s``; ``pyopl check MODEL [DATA] --format json``
prints ``{"diagnostics": [...]}`` and exits non-zero when there are errors.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def _non_negative(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a number, got %r" % text)
    if not v >= 0:
        raise argparse.ArgumentTypeError("must be zero or more, got %s" % text)
    return v


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(prog="pyopl", description="Compile and solve OPL models with HiGHS or Gurobi.")
    p.add_argument("--version", action="version", version="pyopl %s" % __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("model", help="the model file (.mod)")
        sp.add_argument("data", nargs="*", help="data files (.dat), applied in order")
        sp.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")

    s = sub.add_parser("solve", help="compile and solve a model")
    common(s)
    s.add_argument("--solver", choices=("highs", "gurobi"), default="highs", help="the solver (default: highs)")
    s.add_argument("--time-limit", type=_non_negative, metavar="S", help="time limit in seconds")
    s.add_argument("--mip-gap", type=_non_negative, metavar="G", help="relative MIP gap (e.g. 0.01)")
    s.add_argument("--mip-gap-abs", type=_non_negative, metavar="G", help="absolute MIP gap")
    s.add_argument("--threads", type=int, help="solver threads")
    s.add_argument("--seed", type=int, help="solver random seed")
    s.add_argument("--log", action="store_true", help="show the solver's log on stderr")
    s.add_argument("--log-file", metavar="FILE", help="write the solver's log to FILE")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="backend-specific option, passed through (repeatable)")
    s.add_argument("--duals", action="store_true",
                   help="for a MIP, also report duals/slacks/reduced costs with the integers fixed (LPs always have them)")
    s.add_argument("--explain-infeasible", dest="explain_infeasible", action="store_true", default=True,
                   help="when infeasible, name the constraints that conflict (the default)")
    s.add_argument("--no-explain-infeasible", dest="explain_infeasible", action="store_false",
                   help="do not compute the conflict of an infeasible model")
    s.add_argument("--csv", metavar="FILE", help="also write the values (and duals) as CSV to FILE")
    s.add_argument("--output", "-o", metavar="FILE", help="also write the JSON result to FILE")

    c = sub.add_parser("check", help="report diagnostics without solving")
    common(c)
    c.add_argument("--solver", choices=("highs", "gurobi"), default="highs",
                   help="check for this solver: what it cannot take is an error (default: highs)")
    c.add_argument("--fix", action="store_true", help="apply machine-applicable fixes to the model file (keeps a .bak copy)")

    e = sub.add_parser("explain", help="explain a diagnostic code")
    e.add_argument("code", nargs="?", help="a code such as OPL0101")
    e.add_argument("--list", action="store_true", help="list every code with its title")

    x = sub.add_parser("export", help="write the compiled model as an LP or MPS file")
    x.add_argument("model")
    x.add_argument("data", nargs="*")
    fmt = x.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--lp", metavar="OUT", help="write CPLEX LP format to OUT")
    fmt.add_argument("--mps", metavar="OUT", help="write MPS format to OUT")
    x.add_argument("--format", choices=("text", "json"), default="text")
    return p


def _option_value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def _data_arg(paths: list[str]) -> Any:
    if not paths:
        return None
    return [Path(p) for p in paths]


def _check_files(args: argparse.Namespace) -> str | None:
    for p in [args.model] + list(getattr(args, "data", []) or []):
        if not os.path.exists(p):
            return "file not found: %s" % p
        if os.path.isdir(p):
            return "%s is a folder, not a file" % p
    return None


_USAGE_SLUGS = (("file not found", "cli-file-not-found"), ("is a folder", "cli-path-is-folder"),
                ("--option needs", "cli-option-malformed"))


def _emit_usage_error(args: argparse.Namespace, message: str) -> int:
    if getattr(args, "format", "text") == "json":
        diags = []
        slug = next((s for key, s in _USAGE_SLUGS if key in message), None)
        if slug:
            from .diagnostics.registry import lookup

            kind = lookup(slug)
            diags.append({"code": kind.code, "severity": "error", "message": message, "file": "<command line>",
                          "line": 1, "column": 1, "end_line": 1, "end_column": 2, "labels": [], "notes": [],
                          "help": kind.title, "fix": None, "rendered": "error[%s]: %s" % (kind.code, message)})
        print(json.dumps({"status": "error", "message": message, "diagnostics": diags}))
    else:
        print("pyopl: error: %s" % message, file=sys.stderr)
    return EXIT_USAGE


def cmd_check(args: argparse.Namespace) -> int:
    import pyopl

    diags = pyopl.check(Path(args.model), _data_arg(args.data), solver=args.solver)
    if args.fix:
        from .fixes import apply_fixes_to_file

        n = apply_fixes_to_file(args.model, _safe([d for d in diags if d.file == args.model], args))
        if n:
            diags = pyopl.check(Path(args.model), _data_arg(args.data), solver=args.solver)
        if args.format == "text":
            print("applied %d fix%s to %s" % (n, "" if n == 1 else "es", args.model), file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"diagnostics": diags.to_json()}, indent=1))
    else:
        text = diags.render()
        print(text if text else "no problems found")
    return EXIT_ERRORS if diags.errors else EXIT_OK


def cmd_solve(args: argparse.Namespace) -> int:
    import pyopl

    extra = {}
    for item in args.option:
        if "=" not in item:
            return _emit_usage_error(args, "--option needs NAME=VALUE, got %r" % item)
        k, v = item.split("=", 1)
        extra[k.strip()] = _option_value(v.strip())
    try:
        model = pyopl.compile_model(Path(args.model), _data_arg(args.data))
    except pyopl.CompileError as e:
        if args.format == "json":
            print(json.dumps({"status": "error", "objective": None, "variables": {}, "solve_time_s": 0.0,
                              "message": "the model has errors", "diagnostics": [d.to_dict(e.sources) for d in e.diagnostics]},
                             indent=1))
        else:
            print(str(e), file=sys.stderr)
        return EXIT_ERRORS
    result = model.solve(solver=args.solver, time_limit=args.time_limit, mip_gap=args.mip_gap,
                         mip_gap_abs=args.mip_gap_abs, threads=args.threads, seed=args.seed, log=args.log,
                         log_file=args.log_file, options=extra, duals=args.duals,
                         explain_infeasible=args.explain_infeasible)
    solver_diags = list(result.diagnostics)
    if model.warnings:
        result.diagnostics = list(model.warnings) + solver_diags
    if args.csv:
        result.to_csv(args.csv)
    out = result.to_dict()
    out["compile_time_s"] = model.compile_time_s
    out["model_size"] = model.size
    if result.diagnostics:
        out["diagnostics"] = [d.to_dict(model.sources) for d in result.diagnostics]
    if args.output:
        from .util import write_atomic

        write_atomic(args.output, json.dumps(out, indent=1))
    if args.format == "json":
        print(json.dumps(out, indent=1))
    else:
        if model.warnings or solver_diags:
            from .diagnostics.render import render_all

            print(render_all(list(model.warnings) + solver_diags, model.sources), file=sys.stderr)
        from .report import text_report

        print(text_report(result, model.ir, compile_time_s=model.compile_time_s))
    return EXIT_OK if result.status != "error" else EXIT_ERRORS


def cmd_explain(args: argparse.Namespace) -> int:
    from .diagnostics.registry import all_kinds, explain, lookup

    if args.list or not args.code:
        for k in all_kinds():
            print("%s  %-8s %s" % (k.code, k.severity, k.title))
        return EXIT_OK
    kind = lookup(args.code)
    if kind is None:
        from .diagnostics.reporter import near_miss

        best = near_miss(args.code.upper(), [k.code for k in all_kinds()])
        print("pyopl: unknown diagnostic code %s%s; `pyopl explain --list` lists them" % (
            args.code, " (did you mean %s?)" % best if best else ""), file=sys.stderr)
        return EXIT_USAGE
    print(explain(kind), end="")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    import pyopl

    try:
        model = pyopl.compile_model(Path(args.model), _data_arg(args.data))
    except pyopl.CompileError as e:
        if args.format == "json":
            print(json.dumps({"status": "error", "message": "the model has errors",
                              "diagnostics": [d.to_dict(e.sources) for d in e.diagnostics]}, indent=1))
        else:
            print(str(e), file=sys.stderr)
        return EXIT_ERRORS
    from .export import write_model

    out = args.lp or args.mps
    fmt = "lp" if args.lp else "mps"
    try:
        notes = write_model(model.ir, out, fmt)
    except OSError as e:
        return _emit_usage_error(args, "cannot write %s: %s" % (out, e.strerror or e))
    if args.format == "json":
        print(json.dumps({"status": "ok", "file": out, "format": fmt, "notes": notes}))
    else:
        for n in notes:
            print("note: %s" % n, file=sys.stderr)
        print("wrote %s" % out, file=sys.stderr)
    return EXIT_OK


def _safe(diags: list, args: argparse.Namespace) -> list:
    """The diagnostics whose fixes make the model better when tried one by one (pyopl/fixselect.py)."""
    from .fixselect import safe_fixes

    try:
        model = Path(args.model).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return diags
    data = list(args.data or [])

    def check(m: str, _d: object) -> list:
        import pyopl

        found = list(pyopl.check(m, _data_arg(data), solver=args.solver))  # the edited text, in memory: its file is `<model>`
        return [_renamed(d, args.model) if d.file == "<model>" else d for d in found]

    return safe_fixes(model, None, diags, model_file=args.model, check=check)


def _renamed(d, path: str):
    import dataclasses

    return dataclasses.replace(d, span=dataclasses.replace(d.span, file=path))


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    if args.command in ("solve", "check", "export"):
        problem = _check_files(args)
        if problem:
            return _emit_usage_error(args, problem)
    handler = {"solve": cmd_solve, "check": cmd_check, "explain": cmd_explain, "export": cmd_export}[args.command]
    try:
        return handler(args)
    except BrokenPipeError:  # `pyopl solve ... | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except KeyboardInterrupt:
        print("pyopl: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug in pyopl: say so plainly, never dress it as the user's mistake
        import traceback

        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        msg = ("internal error in pyopl (%s); this is a bug in pyopl, not in your model — please report it "
               "with the model and data" % detail)
        if getattr(args, "format", "text") == "json":
            print(json.dumps({"status": "error", "message": msg, "diagnostics": [{
                "code": "OPL0605", "severity": "error", "message": msg, "file": args.__dict__.get("model", ""),
                "line": 1, "column": 1, "help": "please report this", "rendered": "error[OPL0605]: " + msg}]}))
        else:
            print("pyopl: " + msg, file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
