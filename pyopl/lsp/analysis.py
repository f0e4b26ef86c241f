"""One analysis of a model (and its data) for the editor: diagnostics, the AST, declarations,
iterator scopes and the evaluated data values, with a lexical index of every name.

The pipeline is pyopl's own (parse, name checks, data, instance, IR, number checks: the same
stages and diagnostics as :func:`pyopl.check`), kept open so that the editor also gets the AST
and the evaluated data for hover.  Nothing here raises for any text: a failure of pyopl itself
becomes one ``internal-error`` diagnostic.
"""
from __future__ import annotations

import gc
import os
import re
from dataclasses import dataclass, fields
from typing import Any, Iterator, Optional

from ..diagnostics.diagnostic import Diagnostic, Span
from ..syntax import ast as A

MODEL = "<model>"  # the file name pyopl gives model text
DATA = "<data>"  # ... and data text

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BLANKS = re.compile(r'//[^\n]*|/\*.*?(?:\*/|$)|"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?', re.S)  # (possessive: no memory per character)


@dataclass
class DeclInfo:
    """A declared name: ``kind`` is tuple, param, set, range, dvar, dexpr or constraint."""

    name: str
    kind: str
    name_span: Span
    span: Span
    node: Any


@dataclass
class Scope:
    """An iterator (``p`` of ``forall(p in Plants)``) bound over the text of ``span``."""

    name: str
    name_span: Span
    span: Span
    domain: Any  # the domain expression (or None for a tuple-pattern component)


@dataclass
class Token:
    """A name in the text: 1-based line, column, end column; ``after_dot`` for ``x.name``."""

    text: str
    line: int
    column: int
    end_column: int
    after_dot: bool

    def span(self, file: str = MODEL) -> Span:
        return Span(file, self.line, self.column, self.line, self.end_column)


class Analysis:
    """The result of :func:`analyse`.  ``diagnostics``, ``sources`` (file name -> text), ``ast``
    (None when the text did not parse) and ``values`` (name -> evaluated data, sets and ranges)
    come from the check; the index for the editor's requests (``decls``: name -> DeclInfo of the
    first declaration, ``fields``: field name -> [(tuple name, TupleField)], ``scopes``: [Scope],
    ``labels``: [(name, label Span, statement Span)], ``scripts``: [ScriptBlock], ``tokens``:
    every name of the model text) is built on first use, so a re-check does not pay for it."""

    def __init__(self, model_text: str, data_text: Optional[str]):
        self.model_text = model_text
        self.data_text = data_text
        self.diagnostics: list[Diagnostic] = []
        self.sources: dict = {}
        self.ast: Optional[A.Model] = None
        self.values: dict = {}
        self._indexed = False
        self._tokens: Optional[list] = None
        self._decls: dict = {}
        self._fields: dict = {}
        self._scopes: list = []
        self._labels: list = []
        self._scripts: list = []

    def _index(self) -> None:
        if not self._indexed:
            self._indexed = True
            if self.ast is not None:
                _index_ast(self)

    @property
    def decls(self) -> dict:
        self._index()
        return self._decls

    @property
    def fields(self) -> dict:
        self._index()
        return self._fields

    @property
    def scopes(self) -> list:
        self._index()
        return self._scopes

    @property
    def labels(self) -> list:
        self._index()
        return self._labels

    @property
    def scripts(self) -> list:
        self._index()
        return self._scripts

    @property
    def tokens(self) -> list:
        if self._tokens is None:
            self._tokens = lex_names(self.model_text)
        return self._tokens

    # ---------------------------------------------------------------- look-ups
    def token_at(self, line: int, column: int, tokens: list | None = None) -> Optional[Token]:
        """The name under 1-based ``(line, column)`` (the column just after a name counts too)."""
        for t in tokens if tokens is not None else self.tokens:
            if t.line == line and t.column <= column <= t.end_column:
                return t
        return None

    def scope_at(self, name: str, line: int, column: int) -> Optional[Scope]:
        """The innermost iterator ``name`` visible at the position."""
        best = None
        for s in self.scopes:
            if s.name == name and contains(s.span, line, column):
                if best is None or span_size(s.span) <= span_size(best.span):
                    best = s
        return best

    def scopes_visible(self, line: int, column: int) -> list[Scope]:
        return [s for s in self.scopes if contains(s.span, line, column)]


def _ends(span: Span) -> tuple[int, int, int, int]:
    """The span's numbers; a missing one (a node built by error recovery) is taken as its start."""
    line, col = span.line or 1, span.column or 1
    return line, col, span.end_line or line, span.end_column or col


def contains(span: Span, line: int, column: int) -> bool:
    l0, c0, l1, c1 = _ends(span)
    return (l0, c0) <= (line, column) <= (l1, c1)


def span_size(span: Span) -> tuple[int, int]:
    l0, c0, l1, c1 = _ends(span)
    return (l1 - l0, c1 - c0)


def lex_names(text: str) -> list[Token]:
    """Every identifier of ``text`` outside comments and strings, in order."""
    blank = _BLANKS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out = []
    for ln, line in enumerate(blank.split("\n"), 1):
        for m in _IDENT.finditer(line):
            before = line[:m.start()].rstrip()
            if m.start() > 0 and line[m.start() - 1].isdigit():
                continue  # `1e5`
            out.append(Token(m.group(0), ln, m.start() + 1, m.end() + 1, before.endswith(".") and not before.endswith("..")))
    return out


_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _fields_of(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(child field names, span field names) of an AST class (cached: ``fields()`` is slow)."""
    got = _FIELDS.get(cls)
    if got is None:
        names = [f.name for f in fields(cls)]
        spans = tuple(n for n in names if n == "span" or n.endswith("_span"))
        got = _FIELDS[cls] = (tuple(n for n in names if n not in spans), spans)
    return got


def children(node: Any) -> Iterator[Any]:
    """The direct AST children of a node (dataclass fields holding nodes, lists or tuples of them)."""
    for name in _fields_of(type(node))[0]:
        v = getattr(node, name)
        if isinstance(v, A.Node):
            yield v
        elif isinstance(v, (list, tuple)):
            stack = list(reversed(v))
            while stack:
                x = stack.pop()
                if isinstance(x, A.Node):
                    yield x
                elif isinstance(x, (list, tuple)):
                    stack.extend(reversed(x))


def walk(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, A.Node):
            stack.extend(children(n))


_DECL_KIND = {A.TupleDecl: "tuple", A.RangeDecl: "range", A.DvarDecl: "dvar", A.DexprDecl: "dexpr",
              A.ConstraintDecl: "constraint", A.IntervalDecl: "dvar", A.SequenceDecl: "dvar", A.CumulDecl: "dexpr"}


def _word_span(text_lines: list[str], span: Span, word: str) -> Span:
    """The span of the first whole ``word`` inside ``span`` (one line), else ``span``."""
    if 1 <= span.line <= len(text_lines):
        line = text_lines[span.line - 1]
        seg_end = span.end_column - 1 if span.end_line == span.line else len(line)
        m = re.search(r"\b%s\b" % re.escape(word), line[span.column - 1:seg_end])
        if m:
            col = span.column + m.start()
            return Span(span.file, span.line, col, span.line, col + len(word))
    return span


def _mend_spans(ast: A.Model) -> None:
    """Give every span of the tree whole numbers: error recovery can leave an end unset.  (Only a
    tree from a whole-text parse with errors has such spans: the statements that
    :mod:`pyopl.lsp.incremental` keeps and shares between analyses parsed cleanly.)"""
    for node in walk(ast):
        for name in _fields_of(type(node))[1]:
            sp = getattr(node, name)
            if isinstance(sp, Span) and (sp.end_column is None or sp.end_line is None or sp.line is None
                                         or sp.column is None):
                setattr(node, name, Span(sp.file, *_ends(sp)))


def _index_ast(an: Analysis) -> None:
    _mend_spans(an.ast)
    lines = an.model_text.split("\n")
    for item in an.ast.items:
        if isinstance(item, A.Decl):
            kind = _DECL_KIND.get(type(item))
            if isinstance(item, A.ParamDecl):
                kind = "set" if item.type.is_set and not item.dims else "param"
            an._decls.setdefault(item.name, DeclInfo(item.name, kind or "param", item.name_span, item.span, item))
            if isinstance(item, A.TupleDecl):
                for f in item.fields:
                    an._fields.setdefault(f.name, []).append((item.name, f))
        elif isinstance(item, A.ScriptBlock):
            an._scripts.append(item)
    for node in walk(an.ast):
        quals = getattr(node, "quals", None)
        if isinstance(node, A.Qualifiers):
            continue
        qlist = quals if isinstance(quals, list) else [quals] if isinstance(quals, A.Qualifiers) else []
        for q in qlist:
            for b in q.binders:
                for p in b.patterns:
                    for sub in walk(p):
                        if isinstance(sub, A.Pattern) and sub.name is not None:
                            an._scopes.append(Scope(sub.name, sub.span, node.span, b.domain if sub is p else None))
        if isinstance(node, A.Decl):
            for d in getattr(node, "dims", []) or []:
                if d.var:
                    an._scopes.append(Scope(d.var, _word_span(lines, d.span, d.var), node.span, d.domain))
                if d.pattern is not None:
                    for sub in walk(d.pattern):
                        if isinstance(sub, A.Pattern) and sub.name is not None:
                            an._scopes.append(Scope(sub.name, sub.span, node.span, None))
        if isinstance(node, A.ConsStmt) and node.label is not None:
            base = node.label.base if isinstance(node.label, A.Index) else node.label
            if isinstance(base, A.Name):
                an._labels.append((base.id, base.span, node.span))
                if base.id not in an._decls:
                    an._decls[base.id] = DeclInfo(base.id, "constraint", base.span, node.span, node)


def _internal(message: str) -> Diagnostic:
    from ..api import _internal as internal

    return internal(message)


class Caches:
    """What a warm server keeps between analyses: the statements parsed so far and the data
    loaded last (see :mod:`pyopl.lsp.incremental`)."""

    def __init__(self) -> None:
        from .incremental import DataCache, IncrementalParser

        self.parser = IncrementalParser()
        self.data = DataCache()


def analyse(model_text: str, data: Any = None, *, max_errors: int = 100, caches: Optional[Caches] = None,
            include_dir: Optional[str] = None, input_dir: Optional[str] = None,
            output_dir: Optional[str] = None) -> Analysis:
    """Analyse model text with its data; never raises for any text.

    ``data``: None, ``.dat`` text, a :class:`pathlib.Path` of a ``.dat`` file, or a list of these.
    Text is only ever text (as :func:`pyopl.check_text`); its ``include`` statements are looked
    up in ``include_dir`` (and confined to it), or not at all when it is None.  ``caches``: what
    a warm server reuses between calls (None: nothing is reused).  ``input_dir``: the folder the
    model's scripts read files from (the document's folder inside the workspace; None: none, as
    for any model given as text).  ``output_dir``: the output folder a solve of the document's file
    would use (``<stem>.out`` beside it), against which its output file names are checked (nothing is
    written); None: a model given as text, whose scripts write nothing (OPL1056).  The stages and diagnostics
    are those of :func:`pyopl.check_text` (``tests/test_lsp_incremental.py`` holds them equal)."""
    from ..diagnostics.reporter import Reporter, TooManyErrors

    an = Analysis(model_text, data if isinstance(data, str) or data is None else None)
    reporter = Reporter(max_errors)
    sources = {MODEL: model_text}
    was_enabled = gc.isenabled()
    gc.disable()  # as pyopl.api does: compiling frees few cycles
    try:
        _pipeline(an, model_text, data, reporter, sources, caches, include_dir, input_dir, output_dir)
    except TooManyErrors:
        pass
    except RecursionError:
        reporter.diagnostics.append(_internal("the model nests too deeply to compile"))
    except Exception as e:  # a bug in pyopl, never the user's
        reporter.diagnostics.append(_internal("internal error in pyopl (%s: %s); this is a bug in pyopl, not in your "
                                              "model; please report it with the model and data" % (type(e).__name__, e)))
    finally:
        if was_enabled:
            gc.enable()
    inst = an.__dict__.pop("instance", None)
    if inst is not None:  # for hover: the data as evaluated (also when the instance stopped at an error)
        an.values = {name: sym.value for name, sym in inst.symbols.items() if sym.kind in ("param", "set", "range")}
    an.diagnostics = reporter.sorted()
    an.sources = sources
    return an


def _pipeline(an: Analysis, text: str, data: Any, reporter: Any, sources: dict, caches: Optional[Caches],
              include_dir: Optional[str], input_dir: Optional[str] = None, output_dir: Optional[str] = None) -> None:
    """The stages of ``pyopl.api._compile`` for model text (``source="text"``), with the parse and
    the data load served from ``caches`` when given."""
    from ..data.loader import load_data
    from ..limits import Limits
    from ..lowering.model.build import build_ir, check_numbers
    from ..lowering.model.driver import run as lower_items
    from ..lowering.model.instance import Instance
    from ..script.flow import processing as script_host
    from ..script.opl.options import EDITOR_STEPS, ScriptOptions
    from ..semantics.checker import check_names
    from ..syntax.nesting import check_nesting
    from ..syntax.parser import parse_model

    limits = Limits()
    ast = caches.parser.parse(text, MODEL, reporter) if caches is not None else parse_model(text, MODEL, reporter)
    if ast is None:
        return
    an.ast = ast
    if not check_nesting(ast, reporter, limits.max_nesting, limits.max_string):
        return
    if not ast.items and not reporter.has_errors:
        reporter.emit("empty-model", Span(MODEL, 1, 1, 1, 2), "the model is empty: it declares nothing to solve",
                      help="declare decision variables, an objective and constraints, e.g. "
                           "`dvar float+ x; minimize x; subject to { x >= 1; }`")
        return
    check_names(ast, reporter)
    n_before = len(reporter.diagnostics)
    load = caches.data.load if caches is not None else load_data
    items = load(data, reporter, sources, os.getcwd(), source="text", include_dir=include_dir)
    if any(d.is_error for d in reporter.diagnostics[n_before:]):
        return
    inst = an.instance = Instance(ast, items, reporter, limits, script_host=script_host)
    # an editor runs scripts, never writes, and reads only in the document's folder (docs/safety.md)
    inst.script_options = ScriptOptions(max_steps=EDITOR_STEPS, enabled=True, analysis=True, input_dir=input_dir,
                                        output_dir=output_dir)
    inst.script_options.default_output = output_dir is not None  # (as `pyopl check` of the file: `<stem>.out`)
    lower_items(inst)
    if reporter.has_errors:
        from ..semantics.data_names import merge_undeclared_data_names

        merge_undeclared_data_names(ast, items, reporter)
        return
    ir = build_ir(inst)
    check_numbers(ir, reporter)
    if ir.qcons or ir.q is not None:
        from ..lowering.linearise.quadratic import report_solver_needs

        report_solver_needs(ir, reporter, "auto")  # as `pyopl check` and `pyopl solve` by default
