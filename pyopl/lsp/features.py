"""The language features over one :class:`~pyopl.lsp.analysis.Analysis`: hover, definition,
references, document symbols, completion and code actions.

Positions in and out are pyopl's 1-based ``(line, column)``; :mod:`pyopl.lsp.server` converts
them to LSP positions.  Each function answers for any analysis, a failed parse included.
"""
from __future__ import annotations

import itertools
from typing import Any, Optional

from ..diagnostics.diagnostic import Span
from ..syntax import ast as A
from ..syntax.words import KEYWORDS
from .analysis import Analysis, DeclInfo, Scope, contains
from .builtins import SIGNATURES

MAX_SHOWN = 6  # elements of a set or array shown in a hover


def source_of(an: Analysis, span: Span, limit: int = 240) -> str:
    """The model text of ``span`` (at most ``limit`` characters)."""
    lines = an.model_text.split("\n")
    if not (1 <= span.line <= len(lines)):
        return ""
    if span.end_line == span.line:
        text = lines[span.line - 1][span.column - 1:span.end_column - 1]
    else:
        parts = [lines[span.line - 1][span.column - 1:]] + lines[span.line:span.end_line - 1]
        if span.end_line <= len(lines):
            parts.append(lines[span.end_line - 1][:span.end_column - 1])
        text = "\n".join(parts)
    return text if len(text) <= limit else text[:limit] + " ..."


# ------------------------------------------------------------------ resolving a name
def resolve(an: Analysis, line: int, column: int) -> tuple[str, Any] | None:
    """What the name at the position means: ``("decl", DeclInfo)``, ``("iter", Scope)`` or
    ``("field", [(tuple name, TupleField)])``; None when nothing is known."""
    tok = an.token_at(line, column)
    if tok is None:
        return None
    if tok.after_dot:
        hits = an.fields.get(tok.text)
        return ("field", hits) if hits else None
    for s in an.scopes:  # on the binder itself
        if s.name_span.line == tok.line and s.name_span.column == tok.column and s.name == tok.text:
            return ("iter", s)
    scope = an.scope_at(tok.text, line, column)
    if scope is not None:
        return ("iter", scope)
    decl = an.decls.get(tok.text)
    if decl is not None:
        return ("decl", decl)
    hits = an.fields.get(tok.text)
    if hits:  # a field name at its declaration inside `tuple T { ... }`
        for tname, f in hits:
            if f.span.line == tok.line and f.span.column == tok.column:
                return ("field", [(tname, f)])
    return None


def definition(an: Analysis, line: int, column: int) -> list[Span]:
    """Where the name at the position is declared (several places for a field name shared by tuples)."""
    r = resolve(an, line, column)
    if r is None:
        return []
    kind, what = r
    if kind == "decl":
        return [what.name_span]
    if kind == "iter":
        return [what.name_span]
    return [f.span for _t, f in what]


def _shadowed(an: Analysis, name: str, line: int, column: int, outer: Optional[Scope]) -> bool:
    """Whether an iterator ``name`` narrower than ``outer`` binds the position."""
    inner = an.scope_at(name, line, column)
    return inner is not None and inner is not outer


def references(an: Analysis, line: int, column: int, include_declaration: bool = True) -> list[Span]:
    """Every use of the name at the position (its declaration first when asked)."""
    r = resolve(an, line, column)
    if r is None:
        return []
    kind, what = r
    out: list[Span] = []
    if kind == "field":
        names = {what[0][1].name}
        decl_spans = [f.span for _t, f in what]
        uses = [t.span() for t in an.tokens if t.after_dot and t.text in names]
    elif kind == "iter":
        decl_spans = [what.name_span]
        uses = [t.span() for t in an.tokens if t.text == what.name and not t.after_dot
                and contains(what.span, t.line, t.column) and an.scope_at(t.text, t.line, t.column) is what]
    else:
        decl_spans = [what.name_span]
        uses = [t.span() for t in an.tokens if t.text == what.name and not t.after_dot
                and not _shadowed(an, t.text, t.line, t.column, None)]
    keys = {(s.line, s.column) for s in decl_spans}
    if include_declaration:
        out.extend(decl_spans)
    out.extend(s for s in uses if (s.line, s.column) not in keys)
    return out


# ------------------------------------------------------------------ hover
def _dims_text(an: Analysis, node: Any) -> list[str]:
    return [source_of(an, d.span if d.var or d.pattern is not None else d.domain.span, 80)
            for d in getattr(node, "dims", []) or []]


def _value_text(value: Any) -> str:
    from ..semantics.values import OplArray, OplRange, OplSet, show

    if isinstance(value, OplRange):
        return "%d..%d (%d values)" % (value.lo, value.hi, max(0, value.hi - value.lo + 1))
    if isinstance(value, OplSet):
        return "%d element%s: %s" % (len(value), "" if len(value) == 1 else "s", show(value))
    if isinstance(value, OplArray):
        n = 1
        for d in value.dims:
            n *= len(d)
        if value.flat is not None:
            pairs = zip(value.flat_keys(), value.flat)
        else:
            pairs = iter(value.data.items())
        shown = ["[%s] = %s" % ("][".join(show(k) for k in key), _value_text(v) if isinstance(v, (OplSet, OplArray)) else show(v))
                 for key, v in itertools.islice(pairs, MAX_SHOWN)]
        return "%d entr%s: %s%s" % (n, "y" if n == 1 else "ies", ", ".join(shown), ", ..." if n > MAX_SHOWN else "")
    return show(value)


_DVAR_DOMAIN = {"float+": "[0, +infinity)", "float": "(-infinity, +infinity)", "int+": "integers >= 0",
                "int": "integers", "boolean": "{0, 1}"}


def hover(an: Analysis, line: int, column: int) -> Optional[str]:
    """Markdown for the name (or diagnostic) at the position, or None."""
    parts = []
    r = resolve(an, line, column)
    if r is not None:
        kind, what = r
        if kind == "decl":
            parts.append(_hover_decl(an, what))
        elif kind == "iter":
            dom = source_of(an, what.domain.span, 80) if what.domain is not None else None
            parts.append("iterator `%s`%s" % (what.name, " in `%s`" % dom if dom else " (tuple pattern)"))
        else:
            parts.append("\n".join("field `%s` of tuple `%s`: `%s`" % (f.name, t, source_of(an, f.type.span, 60))
                                   for t, f in what))
    for d in an.diagnostics:
        if d.span.file == "<model>" and contains(Span(d.file, d.line, d.column, d.end_line, d.end_column), line, column):
            from ..diagnostics.registry import lookup

            kind = lookup(d.code)
            parts.append("**%s[%s]** %s%s%s" % (d.severity, d.code, d.message,
                                                 "\n\nhelp: %s" % d.help if d.help else "",
                                                 "\n\n%s: %s (`pyopl explain %s`)" % (d.code, kind.title, d.code) if kind else ""))
    return "\n\n---\n\n".join(parts) if parts else None


def _hover_decl(an: Analysis, decl: DeclInfo) -> str:
    node = decl.node
    head = "```opl\n%s\n```" % source_of(an, node.span, 300).split("\n{", 1)[0]
    words = {"tuple": "tuple type", "param": "data", "set": "set", "range": "range", "dvar": "decision variable",
             "dexpr": "decision expression", "constraint": "constraint"}
    lines = ["%s `%s`" % (words.get(decl.kind, decl.kind), decl.name)]
    dims = _dims_text(an, node)
    if isinstance(node, A.TupleDecl):
        lines.append("fields: " + ", ".join("`%s %s`" % (source_of(an, f.type.span, 40), f.name) for f in node.fields))
    if isinstance(node, A.ParamDecl):
        t = node.type
        lines.append("type: `%s`" % ("{%s}" % t.name if t.is_set else t.name))
    if dims:
        lines.append("indexed by: " + " × ".join("`%s`" % d for d in dims))
    if isinstance(node, A.DvarDecl):
        dom = source_of(an, node.domain.span, 80) if node.domain is not None else _DVAR_DOMAIN.get(node.vtype, node.vtype)
        lines.append("type: `%s`, domain: `%s`" % (node.vtype, dom))
    if decl.name in an.values:
        try:
            lines.append("value: " + _value_text(an.values[decl.name]))
        except Exception:  # a value kind this summary does not know: show nothing rather than fail
            pass
    elif decl.kind in ("param", "set", "range") and isinstance(getattr(node, "init", None), A.External):
        lines.append("value: from the data file (not loaded)")
    return head + "\n\n" + "  \n".join(lines)


# ------------------------------------------------------------------ document symbols
def symbols(an: Analysis) -> list[tuple[str, str, Span, Span, list]]:
    """The outline: ``(name, kind, span, selection span, children)``; kind is a DeclInfo kind,
    ``field``, ``objective``, ``constraints`` or ``execute``."""
    out = []
    if an.ast is None:
        return out
    for item in an.ast.items:
        if isinstance(item, A.Decl):
            info = an.decls.get(item.name)
            kind = info.kind if info is not None and info.node is item else "param"
            kids = [(f.name, "field", f.span, f.span, []) for f in item.fields] if isinstance(item, A.TupleDecl) else []
            out.append((item.name, kind, item.span, item.name_span, kids))
        elif isinstance(item, A.Objective):
            out.append((item.name or item.sense, "objective", item.span, item.span, []))
        elif isinstance(item, A.ConstraintsBlock):
            kids = [(name, "constraint", stmt, lab, []) for name, lab, stmt in
                    sorted(an.labels, key=lambda t: (t[1].line, t[1].column)) if contains(item.span, lab.line, lab.column)]
            out.append(("subject to", "constraints", item.span, item.span, kids))
        elif isinstance(item, A.ScriptBlock):
            out.append((item.name or item.kind, "execute", item.span, item.span, []))
    return out


# ------------------------------------------------------------------ completion
def _line_prefix(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    return lines[line - 1][:column - 1] if 1 <= line <= len(lines) else ""


def completion(an: Analysis, line: int, column: int, text: Optional[str] = None) -> list[tuple[str, str, str]]:
    """``(label, kind, detail)``: after ``x.`` the tuple fields (of ``x``'s tuple when known),
    else declared names, iterators in scope, keywords and built-in functions.

    ``text``: the live text when ``an`` is an older analysis (the last one that parsed)."""
    prefix = _line_prefix(an.model_text if text is None else text, line, column).rstrip()
    import re

    m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*\.\s*[A-Za-z0-9_]*$", prefix)
    if m and not prefix.endswith(".."):
        tuple_name = _tuple_of(an, m.group(1), line, m.start(1) + 1)
        out = []
        for fname, hits in an.fields.items():
            for tname, f in hits:
                if tuple_name is None or tname == tuple_name:
                    out.append((fname, "field", "%s %s (in %s)" % (source_of(an, f.type.span, 40), fname, tname)))
        return out
    out = []
    for name, d in an.decls.items():
        out.append((name, d.kind, source_of(an, d.span, 80).split("\n")[0]))
    seen = set(an.decls)
    for s in an.scopes_visible(line, column):
        if s.name not in seen:
            seen.add(s.name)
            out.append((s.name, "iterator", "iterator in %s" % (source_of(an, s.domain.span, 40) if s.domain else "a tuple pattern")))
    for k in sorted(KEYWORDS | {"subject", "float+", "int+", "dvar", "dexpr", "maximize", "minimize", "sum", "prod"}):
        if k not in seen:
            out.append((k, "keyword", "keyword"))
    for f, (sig, doc) in SIGNATURES.items():
        if f not in seen:
            out.append((f, "function", "%s: %s" % (sig, doc)))
    return out


def _tuple_of(an: Analysis, name: str, line: int, column: int) -> Optional[str]:
    """The tuple type of ``name`` at the position (an iterator over a tuple set, or a tuple-valued decl)."""
    scope = an.scope_at(name, line, column)
    target = None
    if scope is not None and isinstance(scope.domain, A.Name):
        target = an.decls.get(scope.domain.id)
    elif scope is None:
        target = an.decls.get(name)
    if target is not None and isinstance(target.node, A.ParamDecl) and target.node.type.name in an.decls:
        return target.node.type.name
    return None
