"""A compiled Lark LALR parser as plain data (for the private table cache of :mod:`.parser_cache`),
and the parser made again from that data in a few milliseconds.

:func:`encode` takes a parser Lark has just built (``Lark(text, parser="lalr",
lexer="contextual", ...)``) and returns only ``str``, ``int``, ``bool``, ``None``, ``bytes``,
``tuple``, ``list`` and ``dict``: the terminals, the rules, the LALR table (each state's actions
as two tuples of small integers) and the compiled code of every regular expression the lexer
states use (each marshalled on its own, read when its pattern is first made). :func:`decode`
makes the parser from that data with Lark's own classes (``TerminalDef``, ``Rule``,
``IntParseTable``, ``ParsingFrontend``...), as Lark's ``_load`` does from its own format, but:

- the table's actions are made with ``dict(zip(...))`` per state instead of Lark's generic
  deserialiser (about 35 ms of the old load, with the JSON decoding another 35 ms);
- a parser state's ``BasicLexer`` is made when a parse first reaches the state
  (:class:`LazyContextualLexer`): a small model reaches a few dozen of the 700;
- a lexer state's regular expression is made from the compiled code kept with the tables
  (:class:`RegexCodes`, given to Lark as its ``re_module``) instead of being compiled again
  from its text by ``re`` (a few tenths of a second for all states, 20 ms for a small model).
  The code is what ``re`` itself compiled when the cache was written, checked equal to
  ``re.compile``'s pattern then; CPython's ``_sre.compile`` validates code it is given. A
  pattern without kept code (another Python, another Lark) is compiled by ``re`` as before.

Everything here reads Lark's and ``re``'s internals of Lark 1.2-1.3 and CPython 3.11-3.13. The
cache key holds Lark's and Python's versions; if those internals change, :func:`encode` or
:func:`decode` raises and the caller builds the parser with ``Lark(...)`` instead
(``tests/test_parser_tables.py`` compares a decoded parser with a fresh one, part by part).
"""
from __future__ import annotations

import copy
import marshal
import re
from array import array
from typing import Any

from ..lazy_names import import_deferring

import_deferring("lark", "regex")  # (its optional `regex` loads when first used: pyopl.lazy_names)
from lark import Lark
from lark.common import LexerConf, ParserConf
from lark.grammar import NonTerminal, Rule, RuleOptions, Terminal
from lark.lark import LarkOptions
from lark.lexer import BasicLexer, ContextualLexer, PatternRE, PatternStr, TerminalDef
from lark.parser_frontends import ParsingFrontend
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
from lark.parsers.lalr_parser import LALR_Parser, _Parser

try:  # the compiled form of a regular expression (CPython)
    import _sre
    from re import _compiler as _re_compiler
    from re import _parser as _re_parser

    _CODE_TYPE = next((t for t in "IL" if array(t).itemsize == _sre.CODESIZE), None)
except ImportError:  # another Python: patterns are compiled from their text
    _CODE_TYPE = None

FORMAT = 3  # bump when the layout below changes (3: each pattern's kept code marshalled on its own)


class LazyContextualLexer(ContextualLexer):
    """Lark's contextual lexer, making each parser state's ``BasicLexer`` when a parse first
    reaches the state (Lark makes all of them up front: 130 for the model grammar).

    States whose parser accepts the same tokens share one lexer, as in Lark. ``lexers`` is a
    dict (state -> lexer) holding the states made so far; :meth:`make_all` makes the rest.
    """

    def __init__(self, conf: LexerConf, states: dict, always_accept: Any = ()) -> None:
        trad_conf = copy.copy(conf)
        trad_conf.terminals = list(conf.terminals)
        self.lexers = _StateLexers(self.BasicLexer, trad_conf, states, frozenset(always_accept))
        root_conf = copy.copy(trad_conf)
        root_conf.skip_validation = True  # (as Lark: the terminals were checked when the table was built)
        self.root_lexer = self.BasicLexer(root_conf)

    def make_all(self) -> None:
        """Make the lexer of every parser state now."""
        self.lexers.make_all()


class _StateLexers(dict):
    def __init__(self, basic: type, conf: LexerConf, states: dict, always_accept: frozenset) -> None:
        super().__init__()
        self._basic, self._conf, self._states, self._always = basic, conf, states, always_accept
        self._by_tokens: dict = {}

    def __missing__(self, state: int) -> BasicLexer:
        accepts = self._states[state]  # KeyError for a state the table does not have, as Lark's dict
        key = frozenset(accepts)
        lexer = self._by_tokens.get(key)
        if lexer is None:
            by_name = self._conf.terminals_by_name
            names = set(accepts) | set(self._conf.ignore) | self._always
            conf = copy.copy(self._conf)
            conf.terminals = [by_name[n] for n in names if n in by_name]
            lexer = self._by_tokens[key] = self._basic(conf)
        self[state] = lexer
        return lexer

    def make_all(self) -> None:
        for state in self._states:
            self[state]


class _TreeCallbacks(dict):
    """Lark's tree-building callbacks of a decoded parser (rule -> callback), made by Lark's
    ``_prepare_callbacks`` on the first look-up: the model parser builds its AST with callbacks
    of its own (:mod:`.inline_parse`), so a solve never needs these (2 ms of the load)."""

    def __init__(self, parser: Lark) -> None:
        super().__init__()
        self._parser = parser

    def __bool__(self) -> bool:
        return True  # (Lark's parser reduces without callbacks when its dict is empty)

    def __missing__(self, rule: Rule) -> Any:
        if not dict.__len__(self):
            self.make_all()
        return dict.__getitem__(self, rule)  # (KeyError for a rule not in the grammar, as Lark's dict)

    def make_all(self) -> None:
        """Make every rule's callback now (a dict read other than ``d[rule]`` sees only those made)."""
        if dict.__len__(self):
            return
        parser = self._parser
        parser._prepare_callbacks()  # (sets parser._callbacks to Lark's new dict: taken into this one)
        made, parser._callbacks = parser._callbacks, self
        self.update(made)


class RegexCodes:
    """Stands in for the ``re`` module in Lark's lexers (its ``re_module``): ``compile`` makes a
    pattern whose compiled code was kept with the tables from that code, any other pattern with
    ``re.compile``; ``match`` and ``error`` are ``re``'s."""

    error = re.error

    def __init__(self, codes: dict) -> None:
        # (pattern, flags) -> (final flags, code bytes, groups, groupindex, indexgroup), or that
        # tuple marshalled (as the cache keeps it: read when the pattern is first made, for a small
        # model's few dozen lexer states the table's 130 patterns' group names were 4 ms of the load)
        self._codes = codes
        self._made: dict = {}
        self._matched: dict = {}

    def compile(self, pattern: str, flags: int = 0) -> "re.Pattern[str]":
        key = (pattern, flags)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._from_code(key) or re.compile(pattern, flags)
        return made

    def _from_code(self, key: tuple) -> "re.Pattern[str] | None":
        kept = self._codes.get(key)
        if kept is None or _CODE_TYPE is None:
            return None
        try:
            if type(kept) is bytes:
                kept = marshal.loads(kept)
            final_flags, code, groups, groupindex, indexgroup = kept
            return _sre.compile(key[0], final_flags, array(_CODE_TYPE, code).tolist(), groups, dict(groupindex),
                                tuple(indexgroup))
        except Exception:  # code this Python does not take: compile the text
            return None

    def match(self, pattern: str, string: str, flags: int = 0) -> "re.Match[str] | None":
        # Lark asks, for each lexer state, which keywords each of its terminal patterns matches:
        # the same few hundred questions in every state, so each is answered once.
        key = (pattern, string, flags)
        try:
            return self._matched[key]
        except KeyError:
            m = self.compile(pattern, flags).match(string)
            if len(self._matched) < 100_000:  # (bounded, whoever else may ask)
                self._matched[key] = m
            return m


class _RecordCodes:
    """``re`` for Lark's lexers while :func:`encode` makes every state's scanner: compiles as
    ``re.compile`` does, step by step, keeping each pattern's code (checked equal to
    ``re.compile``'s)."""

    error = re.error

    def __init__(self) -> None:
        self.codes: dict = {}

    def compile(self, pattern: str, flags: int = 0) -> "re.Pattern[str]":
        made = re.compile(pattern, flags)
        if _CODE_TYPE is not None and (pattern, flags) not in self.codes and isinstance(pattern, str):
            p = _re_parser.parse(pattern, flags)
            code = _re_compiler._code(p, flags)
            groupindex = dict(p.state.groupdict)
            indexgroup = [None] * p.state.groups
            for k, i in groupindex.items():
                indexgroup[i] = k
            final_flags = flags | p.state.flags
            again = _sre.compile(pattern, final_flags, code, p.state.groups - 1, groupindex, tuple(indexgroup))
            if again != made:  # (a Pattern compares its text, flags and code)
                raise ValueError("re's internals changed: cannot keep compiled patterns")
            self.codes[(pattern, flags)] = (final_flags, array(_CODE_TYPE, code).tobytes(), p.state.groups - 1,
                                            groupindex, tuple(indexgroup))
        return made

    def match(self, pattern: str, string: str, flags: int = 0) -> "re.Match[str] | None":
        return self.compile(pattern, flags).match(string)


def encode(parser: Lark) -> dict:
    """The plain data of ``parser`` (LALR, contextual lexer, no postlex or callbacks of its own).

    Raises ``TypeError``/``ValueError``/``AttributeError`` when the parser is not of that kind or
    Lark's internals are not the known ones."""
    frontend = parser.parser
    conf = parser.lexer_conf
    if (parser.options.parser != "lalr" or parser.options.lexer != "contextual" or conf.postlex is not None
            or conf.callbacks or parser.options.transformer is not None or conf.use_bytes):
        raise TypeError("only a plain LALR parser with the contextual lexer is kept")
    table = frontend.parser._parse_table
    terminals = []
    for t in conf.terminals:
        kind = {PatternStr: "str", PatternRE: "re"}[type(t.pattern)]
        width = getattr(t.pattern, "_width", None) if kind == "re" else None
        terminals.append((str(t.name), kind, str(t.pattern.value), tuple(sorted(t.pattern.flags)), t.pattern.raw,
                          None if width is None else tuple(width), t.priority))
    rules = list(parser.rules)
    index = {id(r): i for i, r in enumerate(rules)}
    for actions in table.states.values():  # rules only the table names (none in Lark 1.3: kept anyway)
        for action, arg in actions.values():
            if action is Reduce and id(arg) not in index:
                index[id(arg)] = len(rules)
                rules.append(arg)
    n_states = max(table.states) + 1
    names: list[str] = []
    name_index: dict[str, int] = {}
    states = []
    for state, actions in table.states.items():
        keys, codes = [], []
        for name, (action, arg) in actions.items():
            if name not in name_index:
                name_index[name] = len(names)
                names.append(str(name))
            keys.append(name_index[name])
            if action is Shift:
                codes.append(int(arg))
            elif action is Reduce:
                codes.append(n_states + index[id(arg)])
            else:
                raise TypeError("unknown LALR action %r" % (action,))
        states.append((int(state), tuple(keys), tuple(codes)))
    options = parser.options.serialize({})
    if options.get("_plugins") or options.get("lexer_callbacks") or options.get("tree_class") is not None:
        raise TypeError("a parser with plugins or callbacks is not kept")
    return {
        "format": FORMAT,
        "options": options,
        "terminals": terminals,
        "ignore": tuple(conf.ignore),
        "g_regex_flags": int(conf.g_regex_flags),
        "rules": [_encode_rule(r) for r in rules],
        "n_rules": len(parser.rules),
        "start": list(frontend.parser_conf.start),
        "names": names,
        "n_states": n_states,
        "states": states,
        "start_states": dict(table.start_states),
        "end_states": dict(table.end_states),
        "regex_codes": {k: marshal.dumps(v) for k, v in _record_codes(frontend.lexer).items()},
    }


def _encode_rule(r: Rule) -> tuple:
    o = r.options
    # (Lark's names may be its Token, a str subclass: kept as plain str, as Lark's own serialiser does)
    return (str(r.origin.name), tuple((str(s.name), True, bool(s.filter_out)) if s.is_term else (str(s.name), False, False)
                                      for s in r.expansion),
            int(r.order), None if r.alias is None else str(r.alias),
            (bool(o.keep_all_tokens), bool(o.expand1), o.priority, o.template_source, tuple(bool(b) for b in o.empty_indices)))


def _record_codes(lexer: ContextualLexer) -> dict:
    # Make every state's scanner on a copy of its lexer (the parser given is left as it was),
    # keeping the code of each pattern compiled on the way.
    recorder = _RecordCodes()
    lexers = list({id(lx): lx for lx in lexer.lexers.values()}.values()) + [lexer.root_lexer]
    for lx in lexers:
        lx = copy.copy(lx)
        lx.re = recorder
        lx._scanner = None
        lx._build_scanner()
    return recorder.codes


def decode(doc: dict) -> Lark:
    """The parser whose data :func:`encode` gave.  Raises (``KeyError``, ``TypeError``,
    ``ValueError``...) on data of another layout."""
    if doc["format"] != FORMAT:
        raise ValueError("tables of another layout")
    terminals = []
    for name, kind, value, flags, raw, width, priority in doc["terminals"]:
        pattern = (PatternStr if kind == "str" else PatternRE)(value, flags, raw)
        if width is not None:
            pattern._width = list(width)  # (as Lark keeps it: saves the width of every RE terminal again)
        terminals.append(TerminalDef(name, pattern, priority))
    all_rules = [Rule(NonTerminal(origin), [Terminal(n, f) if term else NonTerminal(n) for n, term, f in expansion],
                      order, alias, RuleOptions(*opts))
                 for origin, expansion, order, alias, opts in doc["rules"]]
    rules = all_rules[:doc["n_rules"]]
    options = LarkOptions(dict(doc["options"], _plugins={"ContextualLexer": LazyContextualLexer}))
    lexer_conf = LexerConf(terminals, RegexCodes(doc["regex_codes"]), tuple(doc["ignore"]),
                           g_regex_flags=doc["g_regex_flags"], skip_validation=True)
    lexer_conf.lexer_type = "contextual"

    parser = Lark.__new__(Lark)  # what Lark._load sets, in its order
    parser.options = options
    parser.rules = rules
    parser.source_path = "<deserialized>"
    parser.lexer_conf = lexer_conf
    parser.terminals = lexer_conf.terminals
    parser._callbacks = _TreeCallbacks(parser)  # (Lark's _prepare_callbacks, on first use)
    parser._terminals_dict = {t.name: t for t in terminals}

    n_states = doc["n_states"]
    actions = [(Shift, s) for s in range(n_states)] + [(Reduce, r) for r in all_rules]
    states = _States(doc["names"], actions, doc["states"])
    table = IntParseTable(states, dict(doc["start_states"]), dict(doc["end_states"]))
    lalr = LALR_Parser.__new__(LALR_Parser)
    lalr._parse_table = table
    lalr.parser = _Parser(table, parser._callbacks, options.debug)
    parser_conf = ParserConf(rules, parser._callbacks, list(doc["start"]))
    parser_conf.parser_type = "lalr"
    # What ParsingFrontend(lexer_conf, parser_conf, options, parser=lalr) sets for a contextual
    # lexer without postlex, but the lexer given the table's states as they are (Lark's
    # create_contextual_lexer reads every state's tokens: every state made at once)
    frontend = ParsingFrontend.__new__(ParsingFrontend)
    frontend.parser_conf, frontend.lexer_conf, frontend.options = parser_conf, lexer_conf, options
    frontend.parser = lalr
    frontend.skip_lexer = False
    frontend.lexer = LazyContextualLexer(lexer_conf, states)
    parser.parser = frontend
    return parser


class _States(dict):
    """The LALR table's states (state -> {token name: action}), each made from the cached data when
    the parser first reads it (``states[state]``): a parse reaches a few dozen of the model
    grammar's 700.  Any other read (iteration, ``keys``, ``items``, ``values``, ``len``, ``in``)
    makes all of them first, so it sees the whole table, as Lark's own dict."""

    def __init__(self, names: list, actions: list, rows: list) -> None:
        super().__init__()
        self._names, self._actions = names, actions
        self._rows = {state: (keys, codes) for state, keys, codes in rows}

    def __missing__(self, state: int) -> dict:
        keys, codes = self._rows[state]  # (KeyError for a state the table does not have, as Lark's dict)
        made = self[state] = dict(zip(map(self._names.__getitem__, keys), map(self._actions.__getitem__, codes)))
        return made

    def make_all(self) -> None:
        """Make every state now."""
        if dict.__len__(self) < len(self._rows):
            for state in self._rows:
                if not dict.__contains__(self, state):
                    self.__missing__(state)

    def __iter__(self):
        self.make_all()
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, state: object) -> bool:
        return state in self._rows

    def keys(self):
        self.make_all()
        return dict.keys(self)

    def items(self):
        self.make_all()
        return dict.items(self)

    def values(self):
        self.make_all()
        return dict.values(self)

    def get(self, state, default=None):
        return self[state] if state in self._rows else default


def make_all_lexer_states(parser: Lark) -> None:
    """Make (and compile the regular expression of) the lexer of every parser state now, for a
    long-running caller or a benchmark that times parses alone; otherwise each is made when a
    parse first reaches its state."""
    lexer = getattr(parser.parser, "lexer", None)
    if isinstance(lexer, LazyContextualLexer):
        lexer.make_all()
    # ``ContextualLexer.lexers`` maps each parser state to a ``BasicLexer`` whose ``scanner``
    # property compiles its regex on first access (Lark 1.2-1.3); states with the same terminals
    # share one lexer.  If a later Lark changes these internals we just keep the lazy behaviour.
    states = getattr(lexer, "lexers", None)
    if not isinstance(states, dict):
        return
    for lx in {id(lx): lx for lx in states.values()}.values():
        getattr(lx, "scanner", None)


def make_tree_callbacks(parser: Lark) -> None:
    """Make Lark's tree-building callbacks of a decoded parser now (otherwise made by its first
    parse that builds a tree)."""
    callbacks = getattr(parser, "_callbacks", None)
    if isinstance(callbacks, _TreeCallbacks):
        callbacks.make_all()
