"""The compiled LALR tables of our grammars, cached in a folder only the user can write, and the
parsers made from them once per process (:func:`lark_parser`).

Lark's own ``cache=True`` pickles the parser to a predictable name in the shared temporary
folder and unpickles whatever it finds there: any local user could plant code for us to run
(issue 14). Building the tables takes about 0.7 s per process, loading them a few milliseconds
(see docs/safety.md and docs/performance.md), so a cache is worth keeping, made safe twice over:

- the file holds only plain data (:func:`.lalr_tables.encode`: strings, numbers, tuples, lists,
  dicts and bytes) written with ``marshal``, never a pickle: reading it can never run code. It
  starts with a tag and the SHA-256 of the rest; a file whose tag, digest, key or layout is not
  ours (damaged, truncated, from another version) is ignored and rebuilt;
- the folder is ``$XDG_CACHE_HOME/pyopl`` (``~/.cache/pyopl``), created with mode 0700 and used
  only while it is a real folder (not a symbolic link) owned by the user with no write
  permission for group or others; each file must be a regular file owned by the user that
  others cannot write. Otherwise the tables are built in memory and not cached.

The file name (and the key inside) holds a hash of the grammar text, the Lark and Python versions
and the options, so an edited grammar never meets stale tables.
"""
from __future__ import annotations

import functools
import gc
import hashlib
import marshal
import os
import stat
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark

from . import grammars  # (its `grammar_text` looked up at each build: tests replace it)

OPTIONS: dict[str, Any] = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)
# the script grammar (IBM ILOG Script): its own start and tree shape; its tokens come from
# ``Lark.lex`` (pyopl/script/engine/parser.py feeds them one by one), so the lexer kind only matters to the cache
SCRIPT_OPTIONS: dict[str, Any] = dict(parser="lalr", lexer="contextual", propagate_positions=True,
                                      maybe_placeholders=False, start="program")


def options_of(name: str) -> dict[str, Any]:
    """Lark's options for ``grammar/<name>.lark``."""
    return SCRIPT_OPTIONS if name == "script" else OPTIONS
_KEEP = 8  # tables kept per grammar
_FORMAT = "2"  # bump when the file layout below changes (1: JSON of Lark's own serialisation)
_SUFFIX = ".tables"
_TAG = b"pyopl LALR tables\n"  # then the SHA-256 of the marshal data that follows


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


def cache_key(name: str) -> str:
    """Hex SHA-256 of what the tables of ``grammar/<name>.lark`` depend on: the grammar text, the
    layouts of the file and of the tables, Lark's version, Python's (the marshal format and the
    compiled regular expressions kept with the tables are Python's own) and the options."""
    from . import lalr_tables  # (first: Lark imported as pyopl.lazy_names.import_deferring does)

    import lark

    parts = [_FORMAT, str(lalr_tables.FORMAT), lark.__version__, sys.version, str(marshal.version),
             repr(sorted(options_of(name).items())), grammars.grammar_text(name)]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def build(name: str) -> Lark:
    """The LALR parser of ``grammar/<name>.lark``: from the cache when a good copy is there, else
    built (and cached when the folder is safe).

    A parser that was cached is the one :func:`.lalr_tables.decode` makes from the cached data,
    in this process too, so the first run parses as every later one."""
    from . import lalr_tables

    key = cache_key(name)
    folder = cache_folder()
    path = None if folder is None else os.path.join(folder, "%s-%s%s" % (name, key[:32], _SUFFIX))
    # Loading or building makes many objects and no garbage: the cyclic collector's passes over
    # them found nothing and took a third of the load.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        if path is not None:
            parser = _load(path, key)
            if parser is not None:
                return parser
        from lark import Lark

        parser = Lark(grammars.grammar_text(name), **options_of(name))
        if path is None:
            return parser
        try:
            doc = {"key": key, "tables": lalr_tables.encode(parser)}
            body = marshal.dumps(doc)
            made = lalr_tables.decode(doc["tables"])
        except Exception:  # Lark's or re's internals are not the known ones: no cache
            return parser
        _save(body, path, folder, name)
        return made
    finally:
        if was_enabled:
            gc.enable()


def _load(path: str, key: str) -> Lark | None:
    from . import lalr_tables

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read()
        head = len(_TAG) + 32
        if not data.startswith(_TAG) or hashlib.sha256(data[head:]).digest() != data[len(_TAG):head]:
            return None  # damaged, truncated or not ours
        doc = marshal.loads(data[head:])
        if not isinstance(doc, dict) or doc.get("key") != key:
            return None
        return lalr_tables.decode(doc["tables"])
    except Exception:  # a foreign layout: build the tables instead
        return None
    finally:
        os.close(fd)


def _save(body: bytes, path: str, folder: str, name: str) -> None:
    from ..files.safe_write import WriteError, write_bytes_safely

    try:
        write_bytes_safely(path, _TAG + hashlib.sha256(body).digest() + body, mode=0o600)
    except WriteError:
        return
    # Keep the newest few tables of this grammar (several checkouts may share the folder). The
    # JSON files of the first layout are left to the versions that read them (which prune them).
    try:
        olds = [os.path.join(folder, f) for f in os.listdir(folder)
                if f.startswith(name + "-") and f.endswith(_SUFFIX)]
        olds.sort(key=lambda f: os.lstat(f).st_mtime, reverse=True)
    except OSError:
        return
    for old in olds[_KEEP:]:
        try:
            os.unlink(old)
        except OSError:
            pass


@functools.lru_cache(maxsize=None)
def lark_parser(name: str) -> Lark:
    """The compiled LALR parser for ``opl``, ``dat`` or ``script`` (built once, then reused).

    The tables come from a cache in a private folder (:func:`build`). Each contextual-lexer
    state's lexer and regular expression are made when a parse first reaches the state, so a
    small model makes only the few its text reaches; :func:`make_all_lexer_states` (called by
    ``pyopl.syntax.parser.prepare``) makes them all up front for a long-running caller or a
    benchmark that times parses alone.
    """
    return build(name)  # never Lark's cache=True: it unpickles a file from the shared /tmp


def make_all_lexer_states(parser: Lark) -> None:
    """Make the lexer of every parser state of ``parser`` now, and Lark's tree-building callbacks
    (see :func:`lark_parser`; a parser from the cache makes both on first use)."""
    from .lalr_tables import make_all_lexer_states as make
    from .lalr_tables import make_tree_callbacks

    make(parser)
    make_tree_callbacks(parser)
