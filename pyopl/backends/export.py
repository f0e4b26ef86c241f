"""LP and MPS export through HiGHS's writer, with row and column names derived from OPL names.

Names follow the strictest rules of the formats and of the readers we test
(HiGHS and Gurobi; HiGHS's writer drops every name if one has a bracket):
indices go in parentheses, ``ship["Seattle"]["Chicago"]`` is written
``ship(Seattle,Chicago)`` and a tuple index ``<1,"a">`` as ``(1,a)``; only
letters, digits and ``_ . ( ) ,`` remain (anything else becomes ``_``),
at most 255 characters, no leading digit or period, no name that an LP
reader takes for a number (``e1``) or a keyword (``st``, ``bounds``, ``free``...).
Sanitised names that collide get ``_1``, ``_2``... so every name stays unique.
The objective constant is written as HiGHS's objective offset (a constant term in
LP, the negated RHS of the objective row in MPS), so re-reading the file gives
the same optimum.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from ..ir import IR
from ..semantics.values import ProductKeys

# Words an LP reader treats as section keywords (CPLEX LP format, as read by HiGHS and Gurobi).
_LP_KEYWORDS = {"st", "s.t.", "subject", "such", "bound", "bounds", "bin", "binary", "binaries", "gen", "general",
                "generals", "int", "integer", "integers", "semi", "semis", "semi-continuous", "free", "end", "inf",
                "infinity", "min", "max", "minimize", "maximize", "minimum", "maximum", "sos", "sos1", "sos2"}


_BAD = re.compile(r"[^A-Za-z0-9_.(),]")


def _sanitise(names: list[str], limit: int = 255) -> list[str]:
    """Make each name legal in LP and MPS files and unique (the first spelling keeps its name)."""
    out: list[str] = []
    seen: set[str] = set()
    for n in names:
        s = _BAD.sub("_", n)[:limit] or "x"
        if _needs_prefix(s):
            s = ("n" + s)[:limit]
        if s in seen:
            k = 1
            while "%s_%d" % (s[:limit - 8], k) in seen:
                k += 1
            s = "%s_%d" % (s[:limit - 8], k)
        seen.add(s)
        out.append(s)
    return out


def _part(v) -> str:
    if isinstance(v, tuple):
        return "(" + ",".join(_part(x) for x in v) + ")"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _name(name: str, key: tuple) -> str:
    return name + ("(" + ",".join(_part(k) for k in key) + ")" if key else "")


def column_names(ir: IR) -> list[str]:
    """One legal, unique name per column: ``ship(Seattle,Chicago)``."""
    return _names(ir.col_name, ir.col_key, unlabelled=None)


def row_names(ir: IR) -> list[str]:
    """One legal, unique name per row: ``ctDemand(Chicago)``; ``c17`` for an unlabelled row 17;
    rows a linearisation added keep their constraint's label (``ctX#aux`` becomes ``ctX_aux``)."""
    return _names(ir.row_label, ir.row_key, unlabelled="c%d")


def _names(labels: Sequence[str], keys: Sequence, unlabelled: str | None) -> list[str]:
    """``_sanitise([_name(label or unlabelled % i, key) ...])``, made block by block (an empty
    label stays empty when ``unlabelled`` is None).

    Sanitising maps each character on its own, so a name is the sanitised label followed by the
    sanitised key parts: a label's and each distinct key value's spelling is made once, and a
    block whose keys are a full product of index sets (:class:`~pyopl.semantics.values.ProductKeys`)
    gets its names as the product of those spellings, one string concatenation per name.  The
    result is the per-name rule's exactly when no name is cut at 255 characters and no two names
    meet; otherwise (rare) the names are made again one by one by :func:`_sanitise`."""
    out: list[str] = []
    parts = keys.parts() if callable(getattr(keys, "parts", None)) else [(0, keys)]
    spell: dict = {}  # (type, key value) -> sanitised spelling
    heads: dict = {}  # label -> its sanitised spelling before "(" (with the leading "n" where needed)

    def part(v: Any) -> str:
        if v.__class__ not in (str, int, float):  # tuples compare 1 == True == 1.0 inside: never cached
            return _BAD.sub("_", _part(v))
        k = (v.__class__, v)
        s = spell.get(k)
        if s is None:
            s = spell[k] = _BAD.sub("_", _part(v))
        return s

    def head(label: str) -> str:
        h = heads.get(label)
        if h is None:
            h = _BAD.sub("_", label)
            h = heads[label] = ("n" + h) if _needs_prefix(h + "()") else h
        return h

    # Names a product block makes are distinct, without a set over them, when its label's
    # spelling has no "(", no spelled key value has "," "(" or ")" (so a name splits back into
    # its values) and each index set's spellings are distinct; and they differ from every other
    # name when no other name has the same text before its first "(" (a name without "(" cannot
    # be one of them). Anything else is checked with a set.
    proven: list[tuple[str, int]] = []  # (spelling of the label, longest name) of each such block
    others: list[str] = []  # the names of every other block
    other_heads: set[str] = set()  # their text before "(" (the label's spelling, for keyed names)
    for start, block in parts:
        count = len(block)
        label = labels[start] if count else ""
        dims = getattr(block, "dims", None)
        if (dims and label and isinstance(block, ProductKeys)
                and labels[start:start + count].count(label) == count):
            h = head(label)
            names = [h + "("]
            last = len(dims) - 1
            plain, longest = "(" not in h, len(h) + 1
            for i, d in enumerate(dims):
                sep, end = ("," if i else ""), (")" if i == last else "")
                spelt = [sep + part(v) + end for v in d]
                if plain:
                    bare = [part(v) for v in d]
                    plain = len(set(bare)) == len(bare) and not any("," in b or "(" in b or ")" in b for b in bare)
                    longest += max(map(len, spelt), default=0)
                names = [a + b for a in names for b in spelt]  # last index fastest, as ProductKeys
            out.extend(names)
            if plain:
                proven.append((h, longest))
            else:
                others.extend(names)
                other_heads.add(h)
            continue
        for j, key in enumerate(block, start):
            label = labels[j] or (unlabelled % j if unlabelled else "")
            if key:
                h = head(label)
                other_heads.add(h)
                others.append(h + "(" + ",".join([part(v) for v in key]) + ")")
            else:
                name = _sanitise([label])[0]
                others.append(name)
                if "(" in name:
                    other_heads.add(name)
            out.append(others[-1])
    proven_heads = [h for h, _ in proven]
    other_heads = {h.split("(", 1)[0] for h in other_heads}
    distinct = (len(set(proven_heads)) == len(proven_heads) and not other_heads.intersection(proven_heads)
                and len(set(others)) == len(others))
    longest = max([n for _, n in proven] + [max(map(len, others), default=0)])
    if len(out) == len(labels) and longest <= 255 and distinct:
        return out
    return _sanitise([_name(l or (unlabelled % i if unlabelled else ""), tuple(k))
                      for i, (l, k) in enumerate(zip(labels, keys))])


def _needs_prefix(s: str) -> bool:
    """A sanitised name an LP reader would take for a number or a keyword (or that starts oddly)."""
    return bool(s[0].isdigit() or s[0] in ".()," or re.match(r"[eE](\d|$)", s) or s.lower() in _LP_KEYWORDS)


class CpModelNotExportable(ValueError):
    """An LP or MPS file asked of a `using CP;` model (diagnostic ``OPL1201``, ``export-cp-model``).

    Neither format holds what makes a CP model (interval variables, sequences, cumul and state
    functions, global constraints such as ``allDifferent``, CP-SAT's exact integer objective), so
    the file would be a different model with a different optimum.  ``span`` is the ``using CP;`` line."""

    slug = "export-cp-model"

    def __init__(self, span: Any = None) -> None:
        self.span = span
        self.message = ("this is a `using CP;` model: an LP or MPS file cannot hold it (interval variables, "
                        "sequences, cumul functions and global constraints have no rows there), so no file was written")
        self.help = ("solve it with `pyopl solve` (CP-SAT); to export the linear form instead, remove `using CP;` "
                     "(the file then holds the MIP model that HiGHS, SCIP, CPLEX or Gurobi would solve)")
        super().__init__(self.message)

    def diagnostic(self, fallback_file: str = "<model>") -> Any:
        """The refusal as a :class:`~pyopl.diagnostics.diagnostic.Diagnostic` at the ``using CP;`` line."""
        from ..diagnostics.diagnostic import Diagnostic, Span
        from ..diagnostics.registry import BY_SLUG

        kind = BY_SLUG[self.slug]
        span = self.span or Span(fallback_file, 1, 1, 1, 2)
        return Diagnostic(kind.code, kind.severity, self.message, span, help=self.help)


def write_model(ir: IR, path: str, fmt: str) -> list[str]:
    """Write ``ir`` to ``path`` as ``lp`` or ``mps``; returns notes for the user (empty when nothing was lost).

    The objective constant is kept as an offset. A ``staticLex`` model is written with
    its first objective only (neither format has priorities), and the note says so.
    Written through :mod:`pyopl.files.safe_write` (a device such as ``/dev/null`` is written in place, a
    symbolic link's target is replaced, the mode kept). Raises
    :class:`~pyopl.files.safe_write.WriteError` (an OSError) when the file cannot be written, and
    :class:`CpModelNotExportable` for a ``using CP;`` model (nothing is written)."""
    if getattr(ir, "engine", "mp") == "cp":
        raise CpModelNotExportable(getattr(ir, "engine_span", None))
    from .common import SolveOptions, quiet_stdout
    from .mp.highs import _new_solver, _pass

    notes = []
    if ir.lex_objectives and len(ir.lex_objectives) > 1:
        notes.append("staticLex: only the first of %d objectives is written (LP and MPS have no priorities)"
                     % len(ir.lex_objectives))
    if getattr(ir, "qcons", None) and fmt != "lp":  # (an LP file gets them: quadratic_lines)
        notes.append("the %d quadratic constraint(s) are NOT written (the HiGHS writer takes linear rows only; "
                     "`--lp` writes them): the file is not the whole model" % len(ir.qcons))
    if getattr(ir, "indicators", None) and fmt != "lp":  # (an LP file gets them: indicator_lines)
        notes.append("the %d indicator constraint(s) are NOT written (MPS has no standard form for them; "
                     "`--lp` writes them): the file is not the whole model" % len(ir.indicators))
    assumed = getattr(ir, "assumptions", None)
    if assumed:  # the big-M rows carry a bound the model does not state (OPL0901)
        names = ", ".join("%s %s %g" % (ir.column_label(a["column"]), "<=" if a["side"] == "upper" else ">=",
                                        a["bound"]) for a in assumed[:3])
        notes.append("big-M rows rest on %d bound(s) pyopl assumed (%s%s, OPL0901): a solution of the file at "
                     "one of them proves nothing beyond it" % (len(assumed), names, ", ..." if len(assumed) > 3 else ""))
    c, c0 = (ir.lex_objectives[0] if ir.lex_objectives else (ir.obj, ir.obj_constant))
    import os

    from ..files.safe_write import write_with

    def produce(tmp: str) -> None:
        # HiGHS names the file itself and picks the format from the extension: it writes a
        # temporary `.lp`/`.mps` beside the target, which the safe writer then moves (safe_write.py).
        import highspy

        h = _new_solver(SolveOptions())
        with quiet_stdout():
            _pass(h, ir, c, c0, ir.sense)
            # highspy sets names one at a time (passColName, about 2 s per million); the model's
            # name lists are set whole instead, in a copy of the model passed back (Hessian and all)
            model = h.getModel()
            lp = model.lp_
            lp.col_names_ = column_names(ir)
            lp.row_names_ = row_names(ir)
            model.lp_ = lp
            h.passModel(model)
            status = h.writeModel(tmp)
        if status == highspy.HighsStatus.kError or not os.path.getsize(tmp):
            raise OSError("HiGHS could not write the model (is the disk full or the folder read-only?)")
        if fmt == "lp" and (getattr(ir, "indicators", None) or getattr(ir, "qcons", None)):
            with open(tmp, encoding="utf-8") as f:
                text = f.read()
            extra = quadratic_lines(ir, lp.col_names_, lp.row_names_)
            extra += indicator_lines(ir, lp.col_names_, list(lp.row_names_) + [t.split(":")[0].strip() for t in extra])
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(with_indicator_lines(text, extra))

    write_with(path, produce, suffix="." + fmt)
    return notes


def _lp_number(v: float) -> str:
    """A coefficient or right-hand side as the LP format reads it (``+1``, ``-2.5``, ``+1e+07``)."""
    v = float(v)
    return ("%+d" % v) if v.is_integer() and abs(v) < 1e15 else "%+.17g" % v


def indicator_lines(ir: IR, col_names: list[str], row_names_: list[str]) -> list[str]:
    """The model's indicator constraints in the CPLEX LP format's syntax (read by CPLEX, Gurobi and SCIP):
    `` name: b = 1 -> +1 x -1 y <= +3``; a ranged one as two lines, an equation with ``=``. Names are
    the constraint's OPL label (``link``, ``link(2)``), unique against the rows' names."""
    taken = set(row_names_)
    out = []
    for k, ind in enumerate(ir.indicators):
        base = _sanitise([_name(ind.label or "ind%d" % k, tuple(ind.key or ()))])[0]
        body = " ".join("%s %s" % (_lp_number(c), col_names[j]) for j, c in ind.terms.items() if c != 0) or "0 %s" % (
            col_names[ind.binary])
        lo, hi = float(ind.lo), float(ind.hi)
        if lo == hi:
            sides = [("=", lo)]
        else:
            sides = ([(">=", lo)] if lo > -float("inf") else []) + ([("<=", hi)] if hi < float("inf") else [])
        for i, (op, rhs) in enumerate(sides):
            name, n = base if i == 0 else base + "_hi", 1
            while name in taken:
                name, n = "%s_%d" % (base, n), n + 1
            taken.add(name)
            out.append(" %s: %s = %d -> %s %s %s" % (name, col_names[ind.binary], ind.active, body, op, _lp_number(rhs)))
    return out


def quadratic_lines(ir: IR, col_names: list[str], row_names_: list[str]) -> list[str]:
    """The model's quadratic constraints in the CPLEX LP format's syntax (read by CPLEX, Gurobi and SCIP):
    `` name: +1 x + [ +1 x ^2 +2 x * y ] <= +4`` (no halving inside a constraint's brackets, unlike the
    objective's); a ranged one as two lines. Names are the constraint's OPL label, unique against the rows'."""
    taken = set(row_names_)
    out = []
    for k, q in enumerate(getattr(ir, "qcons", None) or ()):
        base = _sanitise([_name(q.label or "q%d" % k, tuple(q.key or ()))])[0]
        lin = " ".join("%s %s" % (_lp_number(c), col_names[j]) for j, c in q.lin.items() if c != 0)
        quad = " ".join("%s %s" % (_lp_number(c), "%s ^2" % col_names[i] if i == j else "%s * %s" % (
            col_names[i], col_names[j])) for (i, j), c in q.quad.items() if c != 0)
        body = ("%s + [ %s ]" % (lin, quad) if lin else "[ %s ]" % quad) if quad else lin or "0 %s" % col_names[0]
        lo, hi = float(q.lo), float(q.hi)
        sides = [("=", lo)] if lo == hi else (([(">=", lo)] if lo > -float("inf") else [])
                                               + ([("<=", hi)] if hi < float("inf") else []))
        for i, (op, rhs) in enumerate(sides):
            name, n = base if i == 0 else base + "_hi", 1
            while name in taken:
                name, n = "%s_%d" % (base, n), n + 1
            taken.add(name)
            out.append(" %s: %s %s %s" % (name, body, op, _lp_number(rhs)))
    return out


def with_indicator_lines(text: str, lines: list[str]) -> str:
    """``text`` (an LP file from HiGHS's writer) with ``lines`` at the end of its constraints section."""
    rows = text.split("\n")
    sections = ("bounds", "bin", "binary", "binaries", "gen", "general", "generals", "semi", "semi-continuous", "end")
    start = next((i for i, r in enumerate(rows) if r.strip().lower() in ("st", "s.t.", "subject to")), None)
    at = next(i for i, r in enumerate(rows) if r.strip().lower() in sections and (start is None or i > start))
    return "\n".join(rows[:at] + (["st"] if start is None else []) + lines + rows[at:])
