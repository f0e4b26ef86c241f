"""Command line: ``pyopl solve|check|explain|export``.

Contract (tools rely on it): ``pyopl solve MODEL [DATA] [--solver highs] [--time-limit S]
[--format text|json]`` prints a JSON object with ``status``, ``objective``,
``variables`` and ``solve_time_s``; ``pyopl check MODEL [DATA] --format json``
prints ``{"diagnostics": [...]}`` and exits non-zero when there are errors.
Exit codes, one per outcome, are in :mod:`pyopl.cli.exit_codes` (and ``pyopl --help``).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from . import exit_codes
from ..lazy_names import defer_import

#: ``--solver`` choices; the same as :data:`pyopl.backends.SOLVER_CHOICES` (a test checks), written
#: out so that parsing the command line imports no backend.
SOLVER_CHOICES = ("auto", "highs", "scip", "cplex", "gurobi", "cpsat")

# The command's own process: Lark's optional `regex` loads on first use, not with Lark (13 ms of a
# small solve; see pyopl.lazy_names). A program that imports pyopl keeps its sys.modules as it is.
if "lark" not in sys.modules:
    defer_import("regex")

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = exit_codes.OK, exit_codes.COMPILE_ERRORS, exit_codes.USAGE
_OUTPUT_DIR_HELP = ("the only folder where the model's scripts may write files (IloOplOutputFile); default: "
                    "MODEL-STEM.out beside the model, made on the first file (docs/safety.md)")


def _json_dumps(obj: Any, **kw: Any) -> str:
    """``json.dumps(obj, **kw)``; the module is imported by the first JSON output (a text solve never needs it)."""
    import json

    return json.dumps(obj, **kw)


def _non_negative(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a number, got %r" % text)
    if not v >= 0:
        raise argparse.ArgumentTypeError("must be zero or more, got %s" % text)
    return v


def _parser() -> argparse.ArgumentParser:
    from .. import __version__

    p = argparse.ArgumentParser(prog="pyopl", description="Compile and solve OPL models with HiGHS, SCIP, CPLEX or Gurobi.",
                                epilog=exit_codes.epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version="pyopl %s" % __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("model", help="the model file (.mod)")
        sp.add_argument("data", nargs="*", default=[], help="data files (.dat), applied in order")
        sp.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
        _limit_options(sp)

    s = sub.add_parser("solve", help="compile and solve a model", epilog=exit_codes.epilog(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    common(s)
    s.add_argument("--solver", choices=SOLVER_CHOICES, default="auto",
                   help="the solver (default: auto, HiGHS for what it takes, else SCIP, Gurobi or CPLEX by the "
                        "model's features, CP-SAT for a `using CP;` model; the report names the one used)")
    s.add_argument("--time-limit", type=_non_negative, metavar="S", help="time limit in seconds")
    s.add_argument("--mip-gap", type=_non_negative, metavar="G", help="relative MIP gap (e.g. 0.01)")
    s.add_argument("--mip-gap-abs", type=_non_negative, metavar="G", help="absolute MIP gap")
    s.add_argument("--threads", type=_whole(0, 1024), metavar="N", help="solver threads (0: the solver chooses)")
    s.add_argument("--seed", type=_whole(0, 2 ** 31 - 1), metavar="N", help="solver random seed (0..2147483647)")
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
    s.add_argument("--explain-time-limit", type=_non_negative, metavar="SECONDS", default=None,
                   help="time the infeasibility explanation may take (default: a quarter of --time-limit, "
                        "or the solve's own time within 10-60 s); a partial explanation when it runs out")
    s.add_argument("--no-verify", dest="verify", action="store_false", default=True,
                   help="skip the check of the returned solution against the model (for benchmarking only: an "
                        "unchecked answer may be wrong, docs/solvers.md)")
    s.add_argument("--csv", metavar="FILE", help="also write the values (and duals) as CSV to FILE")
    s.add_argument("--output-dir", metavar="DIR", help=_OUTPUT_DIR_HELP)
    s.add_argument("--script-steps", type=_positive_int, metavar="N",
                   help="step budget of the model's IBM ILOG Script blocks, all together (default 50,000,000: "
                        "tens of seconds of script)")
    s.add_argument("--no-scripts", dest="scripts", action="store_false", default=True,
                   help="do not run execute/main blocks (an error when a skipped block sets data the model uses)")
    s.add_argument("--output", "-o", metavar="FILE", help="also write the JSON result to FILE")
    s.add_argument("--gantt", metavar="FILE", help="a CP schedule: also draw its Gantt chart to FILE (.png, .svg or "
                   ".html; needs matplotlib, the `plot` extra; docs/cp.md)")
    s.add_argument("--allow-db-writes", action="store_true",
                   help="let the data's DBExecute statements change tables no DBUpdate of the file writes "
                        "(refused otherwise; docs/data-sources.md)")
    _add_display_flags(s)

    c = sub.add_parser("check", help="report diagnostics without solving")
    common(c)
    c.add_argument("--solver", choices=SOLVER_CHOICES, default="auto",
                   help="check for this solver: what it cannot take is an error (default: auto, as `solve`: "
                        "an error only when no installed solver takes the model)")
    c.add_argument("--fix", action="store_true", help="apply machine-applicable fixes to the model and data files (keeps .bak copies)")
    c.add_argument("--output-dir", metavar="DIR", help="check script output files against this folder, as "
                   "`solve --output-dir DIR` would write them (check itself never writes a file)")
    c.add_argument("--allow-db-writes", action="store_true",
                   help="check as `solve --allow-db-writes` would run (check itself writes nothing)")

    e = sub.add_parser("explain", help="explain a diagnostic code")
    e.add_argument("code", nargs="?", help="a code such as OPL0101")
    e.add_argument("--list", action="store_true", help="list every code with its title")

    x = sub.add_parser("export", help="write the compiled model as an LP or MPS file")
    x.add_argument("model")
    x.add_argument("data", nargs="*", default=[])
    fmt = x.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--lp", metavar="OUT", help="write CPLEX LP format to OUT")
    fmt.add_argument("--mps", metavar="OUT", help="write MPS format to OUT")
    x.add_argument("--format", choices=("text", "json"), default="text")
    x.add_argument("--output-dir", metavar="DIR", help=_OUTPUT_DIR_HELP)
    _limit_options(x)
    sub.add_parser("lsp", help="run the language server on stdio (extra: pyopl[lsp]; docs/editors.md)")
    sub.add_parser("mcp", help="run the Model Context Protocol server on stdio (extra: pyopl[mcp]; docs/mcp.md)")
    return p


def _limit_options(sp: argparse.ArgumentParser) -> None:
    from ..limits import DEFAULT_MAX_NONZEROS, DEFAULT_MAX_WORK

    sp.add_argument("--max-work", type=_positive_int, default=DEFAULT_MAX_WORK, metavar="N",
                    help="work budget: iterations the compiler may expand (default: %s; see docs/limits.md)" % (
                        f"{DEFAULT_MAX_WORK:,}"))
    sp.add_argument("--max-nonzeros", type=_positive_int, default=DEFAULT_MAX_NONZEROS, metavar="N",
                    help="model size limit: constraint-matrix nonzeros the compiler may make (default: %s; "
                         "see docs/limits.md)" % f"{DEFAULT_MAX_NONZEROS:,}")
    sp.add_argument("--eplin", type=_positive_float, default=None, metavar="EPS",
                    help="CPLEX's linearisation tolerance for strict comparisons and `!=` on continuous expressions "
                         "inside logical constraints (default 1e-3, as CPLEX; a script's `cplex.eplin` wins; "
                         "see docs/language.md)")


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a positive number, got %r" % text)
    if not 0 < v < float("inf"):
        raise argparse.ArgumentTypeError("expected a positive number, got %r" % text)
    return v


def _positive_int(text: str) -> int:
    try:
        v = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError("expected a positive whole number, got %r" % text)
    if v < 1:
        raise argparse.ArgumentTypeError("expected a positive whole number, got %r" % text)
    return v


def _whole(lo: int, hi: int):
    """An argparse type: a whole number from ``lo`` to ``hi`` (solvers refuse others, or, for
    thousands of threads, spend seconds starting them)."""
    def parse(text: str) -> int:
        try:
            v = int(text.replace("_", "").replace(",", ""))
        except ValueError:
            raise argparse.ArgumentTypeError("expected a whole number, got %r" % text)
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError("must be from %d to %d, got %d" % (lo, hi, v))
        return v
    return parse


def _limits(args: argparse.Namespace):
    from ..limits import Limits

    eplin = getattr(args, "eplin", None)
    sizes = {"max_work": args.max_work, "max_nonzeros": args.max_nonzeros}
    return Limits(**sizes) if eplin is None else Limits(**sizes, eplin=eplin)


def _add_display_flags(s: argparse.ArgumentParser) -> None:
    """``--show``, ``--no-constraints``, ``--quiet`` and ``--progress`` of ``pyopl solve``."""
    s.add_argument("--show", metavar="NAME[,NAME...]", action="append", default=[],
                   help="text report: print only these decisions/dexprs (repeatable)")
    s.add_argument("--no-constraints", dest="constraints", action="store_false", default=True,
                   help="text report: leave out the constraint table (duals and slacks)")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress line on stderr")
    s.add_argument("--progress", action="store_true",
                   help="show the progress line even when stderr is not a terminal (one line per update)")


def _show_names(args: argparse.Namespace, known: list[str]) -> tuple[list[str] | None, str | None]:
    """(the names of ``--show``, or None for all; a usage error naming an unknown one, or None).

    ``known``: the model's dvar and dexpr names."""
    names = [n.strip() for item in args.show for n in item.split(",") if n.strip()]
    if not names:
        return None, None
    for n in names:
        if n not in known:
            from ..diagnostics.reporter import did_you_mean

            best = did_you_mean(n, known)  # every equally close name
            return None, "--show: the model has no decision or dexpr `%s`%s" % (n, " (%s)" % best if best else "")
    return names, None


def _progress_line(args: argparse.Namespace) -> Any:
    """A :class:`~pyopl.backends.progress.ProgressLine` on stderr when wanted: a terminal (or ``--progress``),
    no ``--quiet``, and no solver log on the console (the two would interleave)."""
    if args.quiet or args.log:
        return None
    if not args.progress:
        try:
            if not sys.stderr.isatty():
                return None
        except (AttributeError, ValueError):
            return None
    from ..backends.progress import ProgressLine

    return ProgressLine(sys.stderr, in_place=None if not args.progress else sys.stderr.isatty())


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
                ("--option needs", "cli-option-malformed"), ("--show:", "cli-show-unknown-name"))


def _dash_output(outputs: list) -> str | None:
    """The usage error for an output flag given ``-``: many tools read it as standard output, where
    pyopl prints its report, and writing a file named ``-`` in the current folder surprised users."""
    for flag, path in outputs:
        if path == "-":
            return ("`%s -` would write a file named `-`: pyopl prints its report on standard output; give a file "
                    "name (or /dev/stdout, to have both there)" % flag)
    return None


def _emit_usage_error(args: argparse.Namespace, message: str) -> int:
    if getattr(args, "format", "text") == "json":
        diags = []
        slug = next((s for key, s in _USAGE_SLUGS if key in message), None)
        if slug:
            from ..diagnostics.registry import lookup

            kind = lookup(slug)
            diags.append({"code": kind.code, "severity": "error", "message": message, "file": "<command line>",
                          "line": 1, "column": 1, "end_line": 1, "end_column": 2, "labels": [], "notes": [],
                          "help": kind.title, "fix": None, "rendered": "error[%s]: %s" % (kind.code, message)})
        print(_json_dumps({"status": "error", "message": message, "diagnostics": diags}))
    else:
        print("pyopl: error: %s" % message, file=sys.stderr)
    return EXIT_USAGE


def cmd_check(args: argparse.Namespace) -> int:
    import pyopl

    if args.output_dir and not os.path.isdir(args.output_dir):
        return _emit_usage_error(args, "--output-dir %s is not a folder" % args.output_dir)

    if args.fix:
        from ..api import Diagnostics
        from ..fixes.apply import fix_file

        # checked, fixed (model and .dat files, re-checked up to 3 rounds) and written under locks, only if
        # unchanged (fixes/apply.py)
        outcome = fix_file(args.model, _data_arg(args.data))
        diags = pyopl.check(Path(args.model), _data_arg(args.data), solver=args.solver, limits=_limits(args),
                            output_dir=args.output_dir, allow_db_writes=args.allow_db_writes)
        if outcome.problems:
            # the fixer's reasons not to write (a file that is not UTF-8...) are often what the check
            # itself reports: each once
            seen = {(d.code, d.span, d.message) for d in diags}
            extra = [d for d in outcome.problems if (d.code, d.span, d.message) not in seen]
            diags = Diagnostics(extra + list(diags), diags.sources)
        if args.format == "text":
            print("applied %d fix%s to %s" % (outcome.applied, "" if outcome.applied == 1 else "es",
                                              ", ".join(outcome.backups) or args.model), file=sys.stderr)
    else:
        diags = pyopl.check(Path(args.model), _data_arg(args.data), solver=args.solver, limits=_limits(args),
                            output_dir=args.output_dir, allow_db_writes=args.allow_db_writes)
    if args.format == "json":
        print(_json_dumps({"diagnostics": diags.to_json()}, indent=1))
    else:
        from .terminal import shown

        text = shown(diags.render())
        print(text if text else "no problems found")
    return EXIT_ERRORS if diags.errors else EXIT_OK


def _same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name one file (by real path, or a hard link); False for a
    name that is no file (``<model>``)."""
    try:
        return os.path.realpath(a) == os.path.realpath(b) or os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _clobbered_input(args: argparse.Namespace, outputs: list[tuple[str, str | None]], read: Any = None) -> Any:
    """A :class:`~pyopl.files.safe_write.WriteError` (OPL1250) when an output path of this command is its
    model or one of its data files (same name, a symbolic link to it, or a hard link), else None:
    ``pyopl solve m.mod -o m.mod`` would replace the model with the results; OPL1133 when two outputs are
    one file (``--csv r.txt -o r.txt``: the JSON replaced the table).

    ``read``: the :class:`~pyopl.files.reads.FilesRead` of the compiled run (after compiling): an output
    that is any file the run read (an ``include``d file of the model or the data too) is refused."""
    from ..files.safe_write import WriteError

    inputs = [args.model] + list(getattr(args, "data", []) or [])
    seen: list[tuple[str, str]] = []
    for flag, out in outputs:  # two outputs of one run in one file: the second replaced the first, silently
        if not out:
            continue
        for flag0, out0 in seen:
            try:
                same = os.path.realpath(out) == os.path.realpath(out0) or os.path.samefile(out, out0)
                if same and os.path.exists(out) and not os.path.isfile(out):
                    same = False  # (`/dev/null` twice: a device takes any number of writers)
            except OSError:
                same = False
            if same:
                err = WriteError("OPL1133", out, "%s `%s` and %s `%s` are the same file: one output would replace "
                                 "the other" % (flag0, out0, flag, out))
                err.help = "give each output its own file, e.g. `%s`" % (os.path.splitext(out)[0] + {
                    "-o": ".json", "--csv": ".csv", "--log-file": ".log", "--gantt": ".html"}.get(flag, ".out"))
                return err
        seen.append((flag, out))
    for flag, out in outputs:
        if not out:
            continue
        if read is not None and read.holds(out):
            err = WriteError("OPL1250", out, "%s `%s` is a file this run reads (the model, a data file or a file "
                             "they `include`): writing it would replace it" % (flag, out))
            err.help = "give the output a name that is not an input of the run"
            return err
        for src in inputs:
            try:
                same = os.path.realpath(out) == os.path.realpath(src) or os.path.samefile(out, src)
            except OSError:  # an output that does not exist yet is no input
                same = False
            if same:
                err = WriteError("OPL1250", out, "%s `%s` is the %s `%s` of this run: writing it would replace it"
                                 % (flag, out, "model" if src == args.model else "data file", src))
                other = os.path.splitext(out)[0] + {"-o": ".json", "--csv": ".csv", "--lp": ".lp", "--mps": ".mps",
                                                    "--log-file": ".log"}.get(flag, ".out")
                err.help = ("give the output another name, e.g. `%s`" % other if other != out else
                            "give the output a name that is not a link to an input")
                return err
    return None


def _write_error(args: argparse.Namespace, err: Any) -> int:
    """A :class:`~pyopl.files.safe_write.WriteError` as a diagnostic on stderr (or in the JSON); exit code 2."""
    if getattr(args, "format", "text") == "json":
        d = {"code": err.code, "severity": "error", "message": err.message, "file": err.path, "line": 1, "column": 1,
             "end_line": 1, "end_column": 2, "labels": [], "notes": [], "help": err.help, "fix": None,
             "rendered": "error[%s]: %s" % (err.code, err.message)}
        print(_json_dumps({"status": "error", "message": err.message, "diagnostics": [d]}))
    else:
        print("error[%s]: %s\n  = help: %s" % (err.code, err.message, err.help), file=sys.stderr)
    return EXIT_USAGE  # like a missing input file: the command line or the machine, not the model


def cmd_solve(args: argparse.Namespace) -> int:
    import pyopl

    extra = {}
    for item in args.option:
        if "=" not in item:
            return _emit_usage_error(args, "--option needs NAME=VALUE, got %r" % item)
        k, v = item.split("=", 1)
        extra[k.strip()] = _option_value(v.strip())
    if args.output_dir and not os.path.isdir(args.output_dir):
        return _emit_usage_error(args, "--output-dir %s is not a folder" % args.output_dir)
    dash = _dash_output([("-o", args.output), ("--csv", args.csv), ("--log-file", args.log_file),
                         ("--gantt", args.gantt)])
    if dash:
        return _emit_usage_error(args, dash)
    clobber = _clobbered_input(args, [("-o", args.output), ("--csv", args.csv), ("--log-file", args.log_file),
                                      ("--gantt", args.gantt)])
    if clobber is not None:
        return _write_error(args, clobber)
    if args.gantt:
        problem = _gantt_problem(args.gantt)
        if problem:
            return _emit_usage_error(args, problem)
    if args.log_file:  # the solver writes it itself and says nothing when it cannot: check the place first
        from ..files.safe_write import WriteError

        folder = os.path.dirname(os.path.abspath(args.log_file))
        if os.path.isdir(args.log_file):
            return _write_error(args, WriteError("OPL1124", args.log_file, "--log-file `%s` is a folder, not a file"
                                                 % args.log_file, "give a file name, e.g. `%s`" % os.path.join(
                                                     args.log_file, "solver.log")))
        if not os.path.isdir(folder):
            return _write_error(args, WriteError("OPL1122", args.log_file, "cannot write `%s`: the folder `%s` does "
                                                 "not exist" % (args.log_file, folder), "create the folder first, or "
                                                 "give a path in an existing one"))
    try:
        model = pyopl.compile_model(Path(args.model), _data_arg(args.data), scripts=args.scripts,
                                    script_steps=args.script_steps, output_dir=args.output_dir,
                                    limits=_limits(args), allow_db_writes=args.allow_db_writes)
    except pyopl.CompileError as e:
        out = {"status": "error", "objective": None, "variables": {}, "solve_time_s": 0.0,
               "message": "the model has errors", "diagnostics": [d.to_dict(e.sources) for d in e.diagnostics]}
        if e.script_output:
            out["script_output"] = e.script_output
        # `-o` holds the outcome of every run, a model with errors too (it wrote nothing for one, so a
        # batch reading the files found none); never over a file the compile read (an included one)
        if args.output and not any(_same_file(args.output, f) for f in e.sources):
            from ..files.safe_write import WriteError, write_text_safely

            try:
                write_text_safely(args.output, _json_dumps(out, indent=1))
            except WriteError as err:
                return _write_error(args, err)
        if args.format == "json":
            print(_json_dumps(out, indent=1))
        else:
            from .terminal import shown

            print(shown(str(e)), file=sys.stderr)  # a thrown string in a message: shown, never obeyed
            _print_script_output(e.script_output)  # what pre-processing wrote before it failed
        return EXIT_ERRORS
    outputs = [("-o", args.output), ("--csv", args.csv), ("--log-file", args.log_file), ("--gantt", args.gantt)]
    clobber = _clobbered_input(args, outputs, model.files_read)  # includes are known once compiled
    if clobber is not None:
        return _write_error(args, clobber)
    if args.gantt and not model.ir.intervals:
        return _emit_usage_error(args, "--gantt draws a CP schedule, and this model has no interval variables")
    show, show_error = _show_names(args, list(model.ir.dvars) + list(model.ir.dexprs))
    if show_error:
        return _emit_usage_error(args, show_error)
    progress = _progress_line(args)
    try:
        result = model.solve(solver=args.solver, time_limit=args.time_limit, mip_gap=args.mip_gap,
                             mip_gap_abs=args.mip_gap_abs, threads=args.threads, seed=args.seed, log=args.log,
                             log_file=args.log_file, options=extra, duals=args.duals,
                             explain_infeasible=args.explain_infeasible,
                             explain_time_limit=args.explain_time_limit, progress=progress, verify=args.verify)
    finally:
        if progress is not None:
            progress.finish()
    clobber = _clobbered_input(args, outputs[:2], model.files_read)  # and what `main` loaded
    if clobber is not None:
        return _write_error(args, clobber)
    solver_diags = list(result.diagnostics)
    warnings = model.solve_warnings  # (a quadratic model's OPL1163: the solve says where it went, once)
    if warnings:
        result.diagnostics = warnings + solver_diags
    from ..files.safe_write import WriteError, write_text_safely

    try:
        if args.csv:
            write_text_safely(args.csv, result.to_csv())
        if args.gantt:
            from ..results.gantt import GanttUnavailable

            try:
                result.gantt(args.gantt)
            except GanttUnavailable as e:  # no solution to draw: said, and the run's own exit code stands
                print("warning: no Gantt chart written to %s: %s" % (args.gantt, e.message), file=sys.stderr)
    except WriteError as err:
        return _write_error(args, err)
    out = result.to_dict()
    out["compile_time_s"] = model.compile_time_s
    out["model_size"] = model.size
    if result.diagnostics:
        out["diagnostics"] = [d.to_dict(model.sources) for d in result.diagnostics]
    if args.output:
        try:
            write_text_safely(args.output, _json_dumps(out, indent=1))
        except WriteError as err:
            return _write_error(args, err)
    if args.format == "json":
        print(_json_dumps(out, indent=1))
    else:
        from .terminal import shown

        if warnings or solver_diags:
            from ..diagnostics.render import render_all

            print(shown(render_all(warnings + solver_diags, model.sources)), file=sys.stderr)
        from ..results.report import text_report

        own = result.solved_ir is None or result.solved_ir is model.ir  # (else a sub-model `main` made and solved)
        print(shown(text_report(result, model.ir if own else result.solved_ir,
                                compile_time_s=model.compile_time_s if own else None, show=show,
                                constraints=args.constraints)))
        _print_script_output(result.script_output)
    if result.run_failed:
        return exit_codes.SCRIPT_ERROR  # a script error stops the run, as in IBM OPL (docs/cli.md, "Run status")
    if any(d.is_error for d in solver_diags if hasattr(d, "is_error")) and (
            result.script_output is not None or result.extra.get("postprocessing_failed")):
        return EXIT_ERRORS  # a script error, or a post-solve assertion that failed, stops the run, as in IBM OPL
    if result.script_exit is not None:
        return result.script_exit  # a `main` block's return value is the exit status (IBM OPL)
    return exit_codes.for_result(result.status, result.has_solution)


def _gantt_problem(path: str) -> str | None:
    """Why ``--gantt path`` cannot be drawn, checked before solving (a usage error); None when it can."""
    from ..results.gantt import INSTALL

    ext = os.path.splitext(path)[1].lower()
    if ext not in (".png", ".svg", ".html", ".htm"):
        return "--gantt writes a .png, .svg or .html file, not %r" % path
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        return "--gantt needs matplotlib, which is not installed: %s" % INSTALL
    return None


def cmd_explain(args: argparse.Namespace) -> int:
    from ..diagnostics.registry import all_kinds, explain, lookup

    if args.list or not args.code:
        for k in all_kinds():
            print("%s  %-8s %s" % (k.code, k.severity, k.title))
        return EXIT_OK
    kind = lookup(args.code)
    if kind is None:
        from ..diagnostics.reporter import near_misses, one_of

        best = near_misses(args.code.upper(), [k.code for k in all_kinds()])
        print("pyopl: unknown diagnostic code %s%s; `pyopl explain --list` lists them" % (
            args.code, " (did you mean %s?)" % one_of(best[:5]).replace("`", "") if best else ""), file=sys.stderr)
        return EXIT_USAGE
    print(explain(kind), end="")
    return EXIT_OK


def _print_script_output(text: str | None) -> None:
    """The text report's ``script output:`` section (nothing when the scripts wrote nothing)."""
    if text:
        from .terminal import shown

        print("script output:")
        sys.stdout.write(shown(text if text.endswith("\n") else text + "\n"))  # escapes shown, never obeyed


def cmd_export(args: argparse.Namespace) -> int:
    import pyopl

    dash = _dash_output([("--lp", args.lp), ("--mps", args.mps)])
    if dash:
        return _emit_usage_error(args, dash)
    clobber = _clobbered_input(args, [("--lp", args.lp), ("--mps", args.mps)])
    if clobber is not None:
        return _write_error(args, clobber)
    if args.output_dir and not os.path.isdir(args.output_dir):
        return _emit_usage_error(args, "--output-dir %s is not a folder" % args.output_dir)
    try:
        model = pyopl.compile_model(Path(args.model), _data_arg(args.data), output_dir=args.output_dir,
                                    limits=_limits(args))
    except pyopl.CompileError as e:
        if args.format == "json":
            print(_json_dumps({"status": "error", "message": "the model has errors",
                              "diagnostics": [d.to_dict(e.sources) for d in e.diagnostics]}, indent=1))
        else:
            print(str(e), file=sys.stderr)
        return EXIT_ERRORS
    from ..backends.export import CpModelNotExportable, write_model
    from ..files.safe_write import WriteError

    out = args.lp or args.mps
    fmt = "lp" if args.lp else "mps"
    clobber = _clobbered_input(args, [("--lp", args.lp), ("--mps", args.mps)], model.files_read)
    if clobber is not None:
        return _write_error(args, clobber)
    try:
        notes = write_model(model.ir, out, fmt)
    except WriteError as err:
        return _write_error(args, err)
    except CpModelNotExportable as refusal:  # the file would be another model (issue 43)
        d = refusal.diagnostic(args.model)
        if args.format == "json":
            print(_json_dumps({"status": "error", "message": refusal.message,
                              "diagnostics": [d.to_dict(model.sources)]}, indent=1))
        else:
            from ..diagnostics.render import render_text

            print(render_text(d, model.sources), file=sys.stderr)
        return exit_codes.SOLVER_ERROR
    ctx = getattr(model, "script", None)
    if ctx is not None and getattr(ctx, "main_block", None) is not None:
        # the file must not pass for what `pyopl solve` (and IBM) would solve: main may change it first
        notes = list(notes) + ["the model's `main` block is not run by export: the file holds the model as "
                               "declared, before any bound or data `main` changes"]
    if args.format == "json":
        doc = {"status": "ok", "file": out, "format": fmt, "notes": notes}
        if model.solve_warnings:
            doc["diagnostics"] = [d.to_dict(model.sources) for d in model.solve_warnings]
        print(_json_dumps(doc))
    else:
        if model.solve_warnings:  # what the compile warned about holds for the file too (an assumed big-M bound...)
            from ..diagnostics.render import render_all

            print(render_all(model.solve_warnings, model.sources), file=sys.stderr)
        for n in notes:
            print("note: %s" % n, file=sys.stderr)
        print("wrote %s" % out, file=sys.stderr)
    return EXIT_OK


#: The modules each server's extra brings (pyproject.toml, [project.optional-dependencies]).
_EXTRA_MODULES = {"lsp": ("pygls", "lsprotocol"), "mcp": ("mcp.server",)}  # mcp 1.x and 2.x both have it


def _serve(which: str) -> int:
    """``pyopl lsp`` / ``pyopl mcp``: the servers live in optional extras.  Without the extra: one
    line naming the install command, exit status 2 (EXIT_USAGE), no traceback."""
    from importlib import import_module

    try:
        for name in _EXTRA_MODULES[which]:
            import_module(name)
        server = import_module("pyopl.%s.server" % which)
    except ImportError as e:
        print("pyopl: `pyopl %s` needs the %s extra: pip install \"pyopl[%s]\" (%s)" % (which, which, which, e),
              file=sys.stderr)
        return EXIT_USAGE
    return server.main()


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
    if args.command in ("lsp", "mcp"):
        return _serve(args.command)
    handler = {"solve": cmd_solve, "check": cmd_check, "explain": cmd_explain, "export": cmd_export}[args.command]
    try:
        return handler(args)
    except BrokenPipeError:  # `pyopl solve ... | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return exit_codes.BROKEN_PIPE
    except KeyboardInterrupt:
        print("pyopl: interrupted", file=sys.stderr)
        return exit_codes.INTERRUPTED
    except Exception as exc:  # a bug in pyopl: say so plainly, never dress it as the user's mistake
        import traceback

        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        msg = ("internal error in pyopl (%s); this is a bug in pyopl, not in your model — please report it "
               "with the model and data" % detail)
        if getattr(args, "format", "text") == "json":
            print(_json_dumps({"status": "error", "message": msg, "diagnostics": [{
                "code": "OPL0605", "severity": "error", "message": msg, "file": args.__dict__.get("model", ""),
                "line": 1, "column": 1, "help": "please report this", "rendered": "error[OPL0605]: " + msg}]}))
        else:
            print("pyopl: " + msg, file=sys.stderr)
        return exit_codes.INTERNAL


def run() -> int:
    """The ``pyopl`` program (the console script and ``python -m pyopl``): :func:`main`, then the
    process's objects set aside from the collector's passes at interpreter exit.  Those passes walk
    every object NumPy, HiGHS and the compile made (about 35 ms of a small solve's 0.25 s); one
    collection here first finalises whatever is garbage by then (a file in a reference cycle is
    still closed), and the rest is live until the process ends.  Before :func:`main`, the collector's
    first threshold is raised to 100,000 (CPython's default is 700; see the comment below).
    :func:`main` itself leaves the collector as it is: tests and programs call it in a process
    that goes on."""
    import gc

    # A compile allocates hundreds of thousands of objects that live to the end (modules, AST,
    # tables) and makes few reference cycles: with CPython's default threshold (700) the collector
    # ran about 50 times in a small solve, 20-30 ms of its 0.35 s CPU, finding almost nothing.
    # One pass per 100,000 net allocations, as mypy and other compilers set it for their process.
    gc.set_threshold(100_000, 10, 10)
    code = main()
    gc.collect()
    gc.freeze()
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
