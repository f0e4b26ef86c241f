"""``pyopl lsp``: the Language Server Protocol server over stdio, on pygls (LSP 3.17).

A ``.mod`` is analysed with the data files the project setting names (:mod:`pyopl.lsp.project`:
``pyopl.toml`` or the ``data`` option), else with the ``.dat`` of the same name beside it (the
open editor's text first, else the file on disk), and a ``.dat`` with its ``.mod``; diagnostics
go to whichever file they are about.  Analyses run after a pause in typing (``DEBOUNCE_S``) on
one worker thread, incrementally (:mod:`pyopl.lsp.incremental`: statements and data seen before
are reused), and are cached by text, so requests on unchanged text cost a look-up.  Every
handler answers for any text: a failure inside becomes an empty answer and a log message.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import os
import threading
from pathlib import Path
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional
from urllib.parse import unquote

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ..diagnostics.diagnostic import Diagnostic, Span
from . import features as F
from . import semantic as S
from .analysis import DATA, MODEL, Analysis, Caches, analyse, lex_names
from .project import PROJECT_FILE, Project, load_project, relative
from .positions import LineIndex

DEBOUNCE_S = 0.3
EXPLAIN_COMMAND = "pyopl.explain"
log = logging.getLogger("pyopl.lsp")

_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
             "note": T.DiagnosticSeverity.Information}
_SYMBOL_KIND = {"tuple": T.SymbolKind.Struct, "param": T.SymbolKind.Variable, "set": T.SymbolKind.Array,
                "range": T.SymbolKind.Enum, "dvar": T.SymbolKind.Field, "dexpr": T.SymbolKind.Function,
                "constraint": T.SymbolKind.Event, "field": T.SymbolKind.Property, "objective": T.SymbolKind.Method,
                "constraints": T.SymbolKind.Namespace, "execute": T.SymbolKind.Module}
_COMPLETION_KIND = {"tuple": T.CompletionItemKind.Struct, "param": T.CompletionItemKind.Variable,
                    "set": T.CompletionItemKind.Variable, "range": T.CompletionItemKind.Enum,
                    "dvar": T.CompletionItemKind.Field, "dexpr": T.CompletionItemKind.Function,
                    "constraint": T.CompletionItemKind.Event, "field": T.CompletionItemKind.Property,
                    "iterator": T.CompletionItemKind.Variable, "keyword": T.CompletionItemKind.Keyword,
                    "function": T.CompletionItemKind.Function}


class OplLanguageServer(LanguageServer):
    """The server: documents, pairing, the analysis cache and the debounce timers."""

    def __init__(self, debounce_s: float = DEBOUNCE_S):
        from .. import __version__

        super().__init__("pyopl", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.debounce_s = debounce_s
        self.cache: OrderedDict[tuple, Analysis] = OrderedDict()
        self.lock = threading.Lock()  # one analysis at a time (the compiler is not re-entrant)
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyopl-lsp")
        self.pending: dict[str, asyncio.Task] = {}
        self.last_parsed: dict[str, Analysis] = {}  # model uri -> the last analysis whose text parsed
        self.caches = Caches()  # statements parsed and data loaded: a re-check reuses them
        self.projects: dict[str, Project] = {}  # workspace folder (real path) -> its settings
        self.init_options: Any = None  # the client's initialization options
        self.shown: set = set()  # problems of the options already shown as a message
        self.unreported: list[Project] = []  # settings read, their problems not yet sent

    # ---------------------------------------------------------------- texts and pairing
    def open_doc(self, uri: str) -> Any:
        """The open document ``uri`` names, else None. pygls (2.x) keys its documents by the
        *unquoted* uri, so ``text_documents.get(uri)`` missed every document whose uri an editor
        percent-encodes (a space or a non-ASCII letter in its path: ``with%20space.mod``), which
        then got no diagnostics, hover or completion at all."""
        return self.workspace.text_documents.get(unquote(uri))

    def open_uris(self) -> list[str]:
        """The uris of the open documents as the editor sent them (percent-encoded where it
        encodes), the form to publish diagnostics to."""
        return [doc.uri for doc in list(self.workspace.text_documents.values())]

    def text_of(self, uri: str) -> Optional[str]:
        """The open editor's text, else the file on disk when it lies inside the workspace
        (:meth:`in_workspace`), else None: a file outside is never read, whatever is asked of it."""
        doc = self.open_doc(uri)
        if doc is not None:
            return doc.source
        path = to_fs_path(uri)
        if path and self.in_workspace(path) and os.path.isfile(path):
            try:
                with open(path, encoding="utf-8-sig", errors="replace") as fh:
                    return fh.read()
            except OSError:
                return None
        return None

    def workspace_roots(self) -> list[str]:
        """The real paths of the workspace folders (the root path when the client named no folder);
        when the client named neither, the folders of the open documents."""
        roots = [to_fs_path(f.uri) for f in self.workspace.folders.values()] or [self.workspace.root_path]
        real = [os.path.realpath(r) for r in roots if r]
        if not real:
            paths = (to_fs_path(u) for u in self.open_uris())
            real = sorted({os.path.realpath(os.path.dirname(p)) for p in paths if p})
        return real

    def in_workspace(self, path: str) -> bool:
        """Whether ``path`` (its real path: links followed) lies inside a workspace root."""
        return any(relative(root, path) is not None for root in self.workspace_roots())

    def folder_of(self, uri: str) -> Optional[str]:
        """The folder a document's scripts read from (``IloOplInputFile``, ``includeScript``): its own
        folder, as for a model file, when that folder lies inside the workspace; else None (the
        document then reads no file: docs/safety.md, "The language server")."""
        path = to_fs_path(uri)
        if not path:
            return None
        folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
        return folder if self.in_workspace(folder) else None

    # ---------------------------------------------------------------- project settings
    def project_for(self, uri: str) -> Optional[Project]:
        """The settings of the workspace folder holding ``uri`` (the innermost), read again when
        its ``pyopl.toml`` changed; None outside every workspace folder."""
        path = to_fs_path(uri)
        if not path:
            return None
        real = os.path.realpath(path)
        roots = [to_fs_path(f.uri) for f in self.workspace.folders.values()] or [self.workspace.root_path]
        best = None
        for root in roots:
            if root and relative(os.path.realpath(root), real) is not None:
                if best is None or len(os.path.realpath(root)) > len(best):
                    best = os.path.realpath(root)
        if best is None:
            return None
        project = self.projects.get(best)
        toml = os.path.join(best, PROJECT_FILE)
        try:
            st = os.stat(toml)
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        if project is None or project.stamp != stamp:
            project = self.projects[best] = load_project(best, self.init_options)
            self.unreported.append(project)  # sent by the event loop (this may be the worker thread)
        return project

    def report_projects(self) -> None:
        """Send the problems of the settings read since the last call (on the event loop)."""
        while self.unreported:
            self.report_project(self.unreported.pop(0))

    def report_project(self, project: Project) -> None:
        """Publish the problems of ``pyopl.toml`` in it; show those of the options as a message."""
        toml = os.path.join(project.root, PROJECT_FILE)
        in_file = [d for d in project.problems if d.file == toml]
        text = project.text
        if os.path.lexists(toml):
            uri = Path(toml).as_uri()
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
                uri=uri, diagnostics=[to_lsp_diagnostic(d, text, uri, {toml: text}, {toml: uri}) for d in in_file]))
        for d in project.problems:
            if d.file != toml and (d.code, d.message) not in self.shown:
                self.shown.add((d.code, d.message))
                self.window_show_message(T.ShowMessageParams(
                    type=T.MessageType.Error if d.is_error else T.MessageType.Warning,
                    message="pyopl %s: %s%s" % (d.code, d.message, "\nhelp: %s" % d.help if d.help else "")))

    def pair(self, uri: str) -> tuple[Optional[str], list[str], list[Diagnostic]]:
        """``(model uri, data uris, problems of the setting for this model)`` for a ``.mod`` or
        ``.dat`` uri: by the project setting (:mod:`pyopl.lsp.project`), else by name (``x.mod``
        with ``x.dat`` beside it); None and [] where there is none."""
        stem, ext = os.path.splitext(uri)
        project = self.project_for(uri)
        path = to_fs_path(uri)
        if ext.lower() == ".dat":
            models = project.models_for_data(path) if project is not None and path else []
            if models:
                uri = Path(models[0]).as_uri()
            else:
                mod = stem + ".mod"
                return (mod if self.readable(mod, project) else None), [uri], []
            stem, ext = os.path.splitext(uri)
            path = to_fs_path(uri)
        rule = project.rule_for_model(path) if project is not None and path else None
        if rule is not None:
            return uri, [Path(d).as_uri() for d in rule.data], rule.problems
        dat = stem + ".dat"
        return uri, ([dat] if self.readable(dat, project) else []), []

    def readable(self, uri: str, project: Optional[Project]) -> bool:
        """Whether the partner ``uri`` found by name is open or a file, and inside the workspace
        folder when there is one (a symbolic link out of it is not followed)."""
        if self.open_doc(uri) is not None:
            return True
        path = to_fs_path(uri)
        if project is not None and (not path or relative(project.root, path) is None):
            return False
        return self.text_of(uri) is not None

    def analysis_for(self, uri: str) -> tuple[Optional[Analysis], Optional[str], Optional[str]]:
        """The (cached) analysis of the pair ``uri`` belongs to, with the model's uri and the data
        uri (``uri`` itself when it is one of the model's data files, else the first of them)."""
        mod, dats, _problems = self.pair(uri)
        dat = uri if uri in dats else (dats[0] if dats else None)
        if mod is None:
            return None, mod, dat
        model_text = self.text_of(mod)
        if model_text is None:  # neither open nor a file inside the workspace: nothing is read, nothing answered
            return None, mod, dat
        folder = self.folder_of(mod)
        out = None
        if folder is not None:  # what `pyopl check` of the file checks output names against: `<stem>.out`
            from ..script.opl.options import OUTPUT_SUFFIX

            stem = os.path.splitext(os.path.basename(to_fs_path(mod) or ""))[0] or "model"
            out = os.path.join(folder, stem + OUTPUT_SUFFIX)
        return self.analyse_cached(model_text, self.data_of(dats), folder, out), mod, dat

    def data_of(self, dats: list[str]) -> Any:
        """What the analysis reads for the data uris: one file's text (the editor's, unsaved
        changes included), or for several files their paths (read from disk: each file's
        diagnostics then carry its own name)."""
        if not dats:
            return None
        if len(dats) == 1:
            text = self.text_of(dats[0])
            return None if text is None else (text, os.path.dirname(to_fs_path(dats[0]) or "") or None)
        return [Path(to_fs_path(d)) for d in dats]

    def analyse_cached(self, model_text: str, data: Any, input_dir: Optional[str] = None,
                       output_dir: Optional[str] = None) -> Analysis:
        """The analysis of the model text with ``data`` (see :meth:`data_of`), its scripts reading in
        ``input_dir`` (:meth:`folder_of`) and checking output names against ``output_dir``, from the
        cache when the same texts were analysed."""
        key = (model_text, tuple(map(_stamp, data)) if isinstance(data, list) else data, input_dir, output_dir)
        with self.lock:
            an = self.cache.get(key)
            if an is None:
                if isinstance(data, tuple):  # (text, the folder its includes are looked up in)
                    an = analyse(model_text, data[0], caches=self.caches, include_dir=data[1], input_dir=input_dir,
                                 output_dir=output_dir)
                else:
                    an = analyse(model_text, data, caches=self.caches, input_dir=input_dir, output_dir=output_dir)
                self.cache[key] = an
                while len(self.cache) > 8:
                    self.cache.popitem(last=False)
            else:
                self.cache.move_to_end(key)
            return an

    # ---------------------------------------------------------------- diagnostics
    def publish(self, uri: str) -> None:
        """Analyse the pair of ``uri`` and publish diagnostics to both of its documents."""
        self.send(self.collect(uri))

    def send(self, out: dict[str, list[T.Diagnostic]]) -> None:
        self.report_projects()
        for target, diags in out.items():
            if target is not None:
                self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=target, diagnostics=diags))

    def collect(self, uri: str) -> dict[str, list[T.Diagnostic]]:
        """The diagnostics of the pair of ``uri``, by document uri (every document of the pair,
        maybe with none), the project setting's problems about the model included."""
        an, mod, dat = self.analysis_for(uri)
        _mod, dats, problems = self.pair(uri)
        if an is not None and an.ast is not None and mod:
            self.last_parsed[mod] = an
        if an is None:  # a .dat alone: its own syntax, no model to check it against
            text = self.text_of(uri) or ""
            an = self.analyse_data_only(text, os.path.dirname(to_fs_path(uri) or "") or None)
            mod, dat, dats, problems = None, uri, [uri], []
        uris = {MODEL: mod, DATA: dat if len(dats) == 1 else None}
        for d in dats:  # several data files are read by path: their diagnostics carry it
            uris[to_fs_path(d)] = d
        out: dict[str, list[T.Diagnostic]] = {u: [] for u in [mod, *dats] if u}
        for d in an.diagnostics:
            target = uris.get(d.file) or mod or dat
            text = an.sources.get(d.file, an.sources.get(MODEL, ""))
            out.setdefault(target, []).append(to_lsp_diagnostic(d, text, target, an.sources, uris))
        for d in problems:  # shown on the model too, where the user looks for its data
            if mod:
                out[mod].append(to_lsp_diagnostic(
                    Diagnostic(d.code, d.severity, d.message + " (the project setting)", Span(MODEL, 1, 1, 1, 2),
                               help=d.help), an.model_text, mod, an.sources, uris))
        return out

    def analyse_data_only(self, text: str, include_dir: Optional[str]) -> Analysis:
        from ..data.loader import load_data
        from ..diagnostics.reporter import Reporter

        an = Analysis("", text)
        reporter = Reporter(100)
        try:
            load_data(text, reporter, an.sources, os.getcwd(), source="text", include_dir=include_dir)
        except Exception:  # never let a data parse failure stop the server
            log.exception("data analysis failed")
        an.sources[DATA] = text
        an.diagnostics = reporter.sorted()
        return an

    def schedule(self, uri: str) -> None:
        """Publish after ``debounce_s`` without further changes (not for ``pyopl.toml``: its
        problems are published when it is read)."""
        if uri.endswith("/" + PROJECT_FILE):
            return
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()

        async def later() -> None:
            await asyncio.sleep(self.debounce_s)
            loop = asyncio.get_running_loop()
            try:  # analyse on the worker thread, write to the client from the event loop
                self.send(await loop.run_in_executor(self.executor, self.collect, uri))
            except Exception:
                log.exception("publishing diagnostics failed")

        self.pending[uri] = asyncio.get_event_loop().create_task(later())


def _stamp(path: Path) -> tuple:
    """A data file read from disk, as a cache key: its name, modification time and size."""
    try:
        st = path.stat()
        return str(path), st.st_mtime_ns, st.st_size
    except OSError:
        return str(path), None, None


def to_lsp_range(index: LineIndex, span: Span) -> T.Range:
    sl, sc = index.to_lsp(span.line, span.column)
    el, ec = index.to_lsp(span.end_line, span.end_column)
    if (el, ec) < (sl, sc):
        el, ec = sl, sc
    return T.Range(start=T.Position(line=sl, character=sc), end=T.Position(line=el, character=ec))


@functools.lru_cache(maxsize=8)
def _line_index(text: str) -> LineIndex:
    """The (shared, read-only) LineIndex of ``text``: one split per text, not one per diagnostic
    (thousands of warnings on a long model made publishing quadratic)."""
    return LineIndex(text)


def to_lsp_diagnostic(d: Any, text: str, uri: str, sources: dict, uris: dict) -> T.Diagnostic:
    """One pyopl diagnostic as an LSP diagnostic (labels become related information)."""
    index = _line_index(text)
    related = []
    for lab in d.labels:
        luri = uris.get(lab.span.file) or uri
        related.append(T.DiagnosticRelatedInformation(
            location=T.Location(uri=luri, range=to_lsp_range(_line_index(sources.get(lab.span.file, text)), lab.span)),
            message=lab.message))
    message = d.message + ("\nhelp: %s" % d.help if d.help else "") + "".join("\nnote: %s" % n for n in d.notes)
    return T.Diagnostic(range=to_lsp_range(index, d.span), message=message, severity=_SEVERITY.get(d.severity),
                        code=d.code, source="pyopl", related_information=related or None,
                        data={"fix": d.fix.to_dict() if d.fix else None})


def _safe(default: Any) -> Callable:
    """Answer ``default`` (and log) when a handler fails: a bad document never stops the server."""
    def wrap(f: Callable) -> Callable:
        @functools.wraps(f)
        def inner(*args: Any, **kw: Any) -> Any:
            try:
                return f(*args, **kw)
            except Exception:
                log.exception("%s failed", f.__name__)
                return default
        return inner
    return wrap


def _where(ls: OplLanguageServer, uri: str, pos: T.Position):
    """``(analysis, model uri, data uri, 1-based line, column, is_data)`` for a request position."""
    an, mod, dat = ls.analysis_for(uri)
    text = ls.text_of(uri) or ""
    line, col = LineIndex(text).from_lsp(pos.line, pos.character)
    return an, mod, dat, line, col, uri == dat


def _data_name(ls: OplLanguageServer, uri: str, line: int, col: int) -> Optional[str]:
    for t in lex_names(ls.text_of(uri) or ""):
        if t.line == line and t.column <= col <= t.end_column:
            return t.text
    return None


def _location(ls: OplLanguageServer, an: Analysis, mod: str, span: Span) -> T.Location:
    return T.Location(uri=mod, range=to_lsp_range(LineIndex(an.model_text), span))


def build_server(debounce_s: float = DEBOUNCE_S) -> OplLanguageServer:
    """A server with every feature registered (not yet started)."""
    server = OplLanguageServer(debounce_s)

    @server.feature(T.INITIALIZE)
    def initialize(ls: OplLanguageServer, params: T.InitializeParams) -> None:
        ls.init_options = params.initialization_options  # the `data` setting (pyopl.lsp.project)

    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: OplLanguageServer, params: T.DidChangeConfigurationParams) -> None:
        """New settings (``{"pyopl": {"data": ...}}``, as the initialization options): pair again."""
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get("pyopl"), dict):
            ls.init_options = settings["pyopl"]
            ls.projects.clear()
            ls.shown.clear()
            ls.cache.clear()
            for uri in ls.open_uris():
                if uri.lower().endswith(".mod"):
                    ls.schedule(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: OplLanguageServer, params: T.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)
        _refresh_partner(ls, params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: OplLanguageServer, params: T.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)
        _refresh_partner(ls, params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: OplLanguageServer, params: T.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.endswith("/" + PROJECT_FILE):  # new pairings: check every open model again
            ls.project_for(uri)
            ls.report_projects()
            for other in ls.open_uris():
                if other.lower().endswith(".mod"):
                    ls.schedule(other)
            return
        ls.schedule(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: OplLanguageServer, params: T.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    @_safe(None)
    def hover(ls: OplLanguageServer, params: T.HoverParams) -> Optional[T.Hover]:
        an, mod, dat, line, col, is_data = _where(ls, params.text_document.uri, params.position)
        if an is None:
            return None
        if is_data:
            name = _data_name(ls, params.text_document.uri, line, col)
            decl = an.decls.get(name) if name else None
            md = F._hover_decl(an, decl) if decl else None
        else:
            md = F.hover(an, line, col)
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=md)) if md else None

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    @_safe(None)
    def definition(ls: OplLanguageServer, params: T.DefinitionParams) -> Optional[list[T.Location]]:
        an, mod, dat, line, col, is_data = _where(ls, params.text_document.uri, params.position)
        if an is None:
            return None
        if is_data:
            name = _data_name(ls, params.text_document.uri, line, col)
            spans = [an.decls[name].name_span] if name in an.decls else []
        else:
            spans = F.definition(an, line, col)
        return [_location(ls, an, mod, s) for s in spans] or None

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    @_safe(None)
    def references(ls: OplLanguageServer, params: T.ReferenceParams) -> Optional[list[T.Location]]:
        an, mod, dat, line, col, is_data = _where(ls, params.text_document.uri, params.position)
        if an is None:
            return None
        include = params.context.include_declaration
        if is_data:
            name = _data_name(ls, params.text_document.uri, line, col)
            if name not in an.decls:
                return None
            d = an.decls[name].name_span
            spans = F.references(an, d.line, d.column, include)
        else:
            spans = F.references(an, line, col, include)
            tok = an.token_at(line, col)
            r = F.resolve(an, line, col)
            name = tok.text if tok is not None and r is not None and r[0] == "decl" else None
        out = [_location(ls, an, mod, s) for s in spans]
        if name and dat:  # the data file's entry for the name
            dtext = ls.text_of(dat) or ""
            dindex = LineIndex(dtext)
            out += [T.Location(uri=dat, range=to_lsp_range(dindex, t.span(DATA))) for t in lex_names(dtext)
                    if t.text == name and not t.after_dot]
        return out or None

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_safe(None)
    def document_symbol(ls: OplLanguageServer, params: T.DocumentSymbolParams) -> Optional[list[T.DocumentSymbol]]:
        uri = params.text_document.uri
        an, mod, dat = ls.analysis_for(uri)
        if an is None or uri != mod:
            return None
        index = LineIndex(an.model_text)

        def conv(entry) -> T.DocumentSymbol:
            name, kind, span, sel, kids = entry
            rng, srng = to_lsp_range(index, span), to_lsp_range(index, sel)
            if (srng.start.line, srng.start.character) < (rng.start.line, rng.start.character) or \
                    (srng.end.line, srng.end.character) > (rng.end.line, rng.end.character):
                srng = rng  # LSP requires the selection inside the range
            return T.DocumentSymbol(name=name or "?", kind=_SYMBOL_KIND.get(kind, T.SymbolKind.Variable), range=rng,
                                    selection_range=srng, detail=kind, children=[conv(k) for k in kids] or None)

        return [conv(e) for e in F.symbols(an)]

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    @_safe(None)
    def completion(ls: OplLanguageServer, params: T.CompletionParams) -> Optional[T.CompletionList]:
        uri = params.text_document.uri
        an, mod, dat, line, col, is_data = _where(ls, uri, params.position)
        if is_data or an is None:
            names = sorted(an.decls) if an is not None else []
            items = [T.CompletionItem(label=n, kind=T.CompletionItemKind.Variable) for n in names]
            return T.CompletionList(is_incomplete=False, items=items)
        # mid-typing text rarely parses: complete from the last analysis that did
        if an.ast is not None:
            ls.last_parsed[uri] = an
        else:
            an = ls.last_parsed.get(uri, an)
        items = [T.CompletionItem(label=label, kind=_COMPLETION_KIND.get(kind, T.CompletionItemKind.Text), detail=detail)
                 for label, kind, detail in F.completion(an, line, col, ls.text_of(uri) or "")]
        return T.CompletionList(is_incomplete=False, items=items)

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                    T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    @_safe(None)
    def code_action(ls: OplLanguageServer, params: T.CodeActionParams) -> Optional[list[T.CodeAction]]:
        uri = params.text_document.uri
        an, mod, dat = ls.analysis_for(uri)
        if an is None:
            return None
        which = DATA if uri == dat else MODEL
        index = LineIndex(an.sources.get(which, ""))
        want = params.range
        actions = []
        for d in an.diagnostics:
            if d.file != which:
                continue
            r = to_lsp_range(index, d.span)
            if (r.end.line, r.end.character) < (want.start.line, want.start.character) or \
                    (r.start.line, r.start.character) > (want.end.line, want.end.character):
                continue
            ldiag = to_lsp_diagnostic(d, an.sources.get(which, ""), uri, an.sources, {MODEL: mod, DATA: dat})
            if d.fix is not None and all(e.span.file == which for e in d.fix.edits):
                edits = [T.TextEdit(range=to_lsp_range(index, e.span), new_text=e.replacement) for e in d.fix.edits]
                actions.append(T.CodeAction(title=d.fix.message, kind=T.CodeActionKind.QuickFix, diagnostics=[ldiag],
                                            is_preferred=d.fix.applicability == "machine-applicable",
                                            edit=T.WorkspaceEdit(changes={uri: edits})))
            actions.append(T.CodeAction(title="Explain %s" % d.code, kind=T.CodeActionKind.QuickFix,
                                        diagnostics=[ldiag],
                                        command=T.Command(title="Explain %s" % d.code, command=EXPLAIN_COMMAND,
                                                          arguments=[d.code])))
        return actions or None

    @server.feature(T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    T.SemanticTokensLegend(token_types=S.TOKEN_TYPES, token_modifiers=S.TOKEN_MODIFIERS))
    @_safe(T.SemanticTokens(data=[]))
    def semantic_tokens(ls: OplLanguageServer, params: T.SemanticTokensParams) -> T.SemanticTokens:
        uri = params.text_document.uri
        an, mod, dat = ls.analysis_for(uri)
        if an is None:
            return T.SemanticTokens(data=[])
        if uri == dat:  # the data file: its names are the model's declarations
            return T.SemanticTokens(data=S.encode_data(an, ls.text_of(uri) or ""))
        if an.ast is not None:
            ls.last_parsed[uri] = an
        return T.SemanticTokens(data=S.encode(an, ls.last_parsed.get(uri)))

    @server.command(EXPLAIN_COMMAND)
    def explain(ls: OplLanguageServer, code: str) -> Optional[str]:
        from ..diagnostics.registry import explain as explain_text, lookup

        kind = lookup(str(code))
        text = explain_text(kind) if kind else "unknown diagnostic code %s (see `pyopl explain --list`)" % code
        ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Info, message=text))
        return text

    return server


def _refresh_partner(ls: OplLanguageServer, uri: str) -> None:
    """A change to a ``.dat`` changes its model's diagnostics too (and vice versa)."""
    mod, dats, _problems = ls.pair(uri)
    for other in [mod, *dats]:
        if other and other != uri and ls.open_doc(other) is not None:
            ls.schedule(other)


def main() -> int:
    """Run the server on stdin/stdout until the client says exit; only well-formed messages reach
    pygls (:mod:`pyopl.lsp.framing`: a malformed frame is dropped, never the server)."""
    import sys

    from .framing import FramedInput

    logging.basicConfig(level=logging.WARNING)
    build_server().start_io(stdin=FramedInput(sys.stdin.buffer))
    return 0
