"""The compiled LALR tables of our grammars, cached as JSON in a folder only the user can write,
and the parsers built from them once per process (:func:`lark_parser`).

Lark's own ``cache=True`` pickles the parser to a predictable name in the shared temporary
folder and unpickles whatever it finds there: any local user could plant code for us to run
(issue 14). Building the tables takes about 0.7 s per process, loading them about 0.05 s (see
docs/safety.md), so a cache is worth keeping, made safe twice over:

- the tables are written as JSON (Lark's ``memo_serialize``, with dict keys and tuples tagged so
  they survive JSON), so reading the cache can never run code; a file that does not read back
  is ignored and rebuilt;
- the folder is ``$XDG_CACHE_HOME/pyopl`` (``~/.cache/pyopl``), created with mode 0700 and used
  only while it is a real folder (not a symbolic link) owned by the user with no write
  permission for group or others. Otherwise the tables are built in memory and not cached.

The file name holds a hash of the grammar text, the Lark version and the options, so an
edited grammar never meets stale tables.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
from typing import Any

from lark import Lark

from ..safe_write import WriteError, write_text_safely
from . import grammars  # (its `grammar_text` looked up at each build: tests replace it)

OPTIONS: dict[str, Any] = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)
_KEEP = 8  # tables kept per grammar
_FORMAT = "1"  # bump when the JSON layout below changes


def cache_folder() -> str | None:
    """The private cache folder (created if missing), or None when it is not safe to use."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    folder = os.path.join(base, "pyopl")
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        st = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077:
        return None
    return folder


def build(name: str) -> Lark:
    """The LALR parser of ``grammar/<name>.lark``: from the cache when a good copy is there, else
    built (and cached when the folder is safe)."""
    text = grammars.grammar_text(name)
    import lark

    key = hashlib.sha256("\0".join([_FORMAT, lark.__version__, repr(sorted(OPTIONS.items())), text])
                         .encode("utf-8")).hexdigest()[:32]
    folder = cache_folder()
    path = None if folder is None else os.path.join(folder, "%s-%s.json" % (name, key))
    if path is not None:
        parser = _load(path)
        if parser is not None:
            return parser
    parser = Lark(text, **OPTIONS)
    if path is not None:
        _save(parser, path, folder, name)
    return parser


def _load(path: str) -> Lark | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            doc = json.loads(f.read().decode("utf-8"), object_hook=_untag)
        parser = Lark._load_from_dict(doc["data"], doc["memo"], propagate_positions=True)
        if parser.options.parser != "lalr" or parser.options.lexer != "contextual":
            return None
        return parser
    except Exception:  # a damaged or foreign file: build the tables instead
        return None
    finally:
        os.close(fd)


def _save(parser: Lark, path: str, folder: str, name: str) -> None:
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        write_text_safely(path, json.dumps(_encode({"data": data, "memo": memo})), mode=0o600)
    except (WriteError, TypeError, ValueError):
        return
    # keep the newest few tables of this grammar (several checkouts may share the folder)
    try:
        olds = [os.path.join(folder, f) for f in os.listdir(folder) if f.startswith(name + "-") and f.endswith(".json")]
        olds.sort(key=lambda f: os.lstat(f).st_mtime, reverse=True)
    except OSError:
        return
    for old in olds[_KEEP:]:
        try:
            os.unlink(old)
        except OSError:
            pass


# JSON has only string keys and no tuples: both are tagged, so the tables read back exactly.
_DICT, _TUPLE = "\0dict", "\0tuple"


def _encode(o: Any) -> Any:
    if isinstance(o, dict):
        if all(isinstance(k, str) and not k.startswith("\0") for k in o):
            return {k: _encode(v) for k, v in o.items()}
        return {_DICT: [[_encode(k), _encode(v)] for k, v in o.items()]}
    if isinstance(o, tuple):
        return {_TUPLE: [_encode(x) for x in o]}
    if isinstance(o, list):
        return [_encode(x) for x in o]
    if o is None or isinstance(o, (str, int, float, bool)):
        return o
    raise TypeError("cannot cache a %s" % type(o).__name__)


def _untag(o: dict) -> Any:
    """``json.loads`` hook: inner objects come first, so only this object's tag is undone."""
    if _DICT in o:
        return {(tuple(k) if isinstance(k, list) else k): v for k, v in o[_DICT]}
    if _TUPLE in o:
        return tuple(o[_TUPLE])
    return o


@functools.lru_cache(maxsize=None)
def lark_parser(name: str) -> Lark:
    """The compiled LALR parser for ``opl`` or ``dat`` (built once, then reused).

    Lark compiles the regular expression of each contextual-lexer state on first use, so a
    small model compiles only the few states its text reaches (all of them take a few
    tenths of a second, most of a one-shot ``pyopl solve``'s parse); ``parser.prepare``
    compiles them all up front for a long-running caller or a benchmark that times parses alone.
    The tables come from a JSON cache in a private folder (:mod:`.parser_cache`).
    """
    return build(name)  # never Lark's cache=True: it unpickles a file from the shared /tmp


def _compile_lexer_states(parser: Lark) -> None:
    # ``ContextualLexer.lexers`` maps each parser state to a ``BasicLexer`` whose ``scanner``
    # property compiles its regex on first access (Lark 1.2-1.3); states with the same terminals
    # share one lexer.  If a later Lark changes these internals we just keep the lazy behaviour.
    states = getattr(getattr(parser.parser, "lexer", None), "lexers", None)
    if not isinstance(states, dict):
        return
    for lexer in {id(lx): lx for lx in states.values()}.values():
        getattr(lexer, "scanner", None)
