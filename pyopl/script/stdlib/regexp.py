"""``RegExp`` objects and the regular-expression string methods of IBM ILOG Script
(ECMAScript 3, 15.10 and 15.5.4.10-15.5.4.14): ``exec``, ``test``, ``lastIndex``, ``match``,
``search``, ``replace``, ``split``.

Patterns are checked and translated by :mod:`pyopl.script.stdlib.builtins.regexp_translate` and run by the
``regex`` package (a backtracking engine with the same semantics as Python's ``re`` for the
translated patterns) with a timeout taken from what is left of the script's step budget, so a
pattern that backtracks catastrophically ends in the step-budget diagnostic (OPL1007).
A pattern the translator refuses is the diagnostic OPL1015 at the literal or the ``RegExp``
call; an invalid pattern is a SyntaxError (OPL1000 for a literal, catchable for ``RegExp``).
"""
from __future__ import annotations

import math
import time

from ..language.convert import CHARS_PER_STEP, to_number, to_string, to_uint32
from .regexp_translate import RegexSyntaxError, RegexUnsupported, translate
from .text import expand_replacement
from ..language.values import NULL, UNDEFINED, HostFunction, JSArray, JSFunction, JSObject, ScriptError, is_new

STEPS_PER_SECOND = 3_000_000  # the interpreter's pace, to turn the remaining step budget into a timeout
_CACHE: dict = {}


class Pattern:
    """A compiled ES3 pattern: ``source``, ``flags`` and the ``regex`` object."""

    __slots__ = ("source", "flags", "compiled", "groups")

    def __init__(self, source: str, flags: str):
        import regex

        text, groups = translate(source, flags)
        opts = regex.VERSION0
        if "i" in flags:
            opts |= regex.IGNORECASE | regex.ASCII
        self.source = source
        self.flags = flags
        self.groups = groups
        self.compiled = regex.compile(text, opts)


def compile_pattern(source: str, flags: str) -> Pattern:
    """The :class:`Pattern` for ``source``/``flags`` (cached); raises the translator's errors."""
    key = (source, flags)
    p = _CACHE.get(key)
    if p is None:
        p = Pattern(source, flags)
        if len(_CACHE) > 512:
            _CACHE.clear()
        _CACHE[key] = p
    return p


def unsupported(e: RegexUnsupported, span) -> ScriptError:
    return ScriptError("script-regex-unsupported", "this regular expression uses %s, which pyopl does not run" % e,
                       span, "rewrite the pattern without it, or do the text work with string methods "
                       "(`indexOf`, `split`, `substring`)", catchable=False)


def make_regexp(interp, source: str, flags: str, span) -> JSObject:
    """A new RegExp object (15.10.4.1); an invalid pattern is a catchable SyntaxError."""
    try:
        p = compile_pattern(source, flags)
    except RegexSyntaxError as e:
        raise ScriptError("script-syntax-error", "invalid regular expression: %s" % e, span,
                          "check the pattern", error_name="SyntaxError") from None
    except RegexUnsupported as e:
        raise unsupported(e, span) from None
    interp.alloc(5, span)
    props = {"source": source, "global": "g" in flags, "ignoreCase": "i" in flags, "multiline": "m" in flags,
             "lastIndex": 0.0}
    return JSObject(props, class_name="RegExp", proto=interp.protos["RegExp"], hidden=set(props), value=p)


def is_regexp(v) -> bool:
    return isinstance(v, JSObject) and v.class_name == "RegExp" and isinstance(v.value, Pattern)


def regexp_ctor(interp, this, args, span):
    """``RegExp(p, f)`` / ``new RegExp(p, f)`` (15.10.3-4)."""
    new = is_new(interp)
    p = args[0] if args else UNDEFINED
    f = args[1] if len(args) > 1 else UNDEFINED
    if is_regexp(p):
        if f is not UNDEFINED:
            raise ScriptError.type_error("`RegExp(re, flags)`: flags cannot be given with a RegExp", span,
                                         "write `new RegExp(re.source, flags)`")
        if not new:
            return p
        return make_regexp(interp, p.value.source, p.value.flags, span)
    source = "" if p is UNDEFINED else to_string(p)
    flags = "" if f is UNDEFINED else to_string(f)
    return make_regexp(interp, source, flags, span)


def _timeout(interp) -> float:
    left = max(0, interp.max_steps - interp.steps)
    return max(0.01, left / STEPS_PER_SECOND)


def _run(interp, pat: Pattern, s: str, pos: int, span, anchored: bool = False):
    """One match attempt, charged by its real cost: the characters it may scan up front, then the
    processor time the engine took (backtracking) at the interpreter's pace, :data:`STEPS_PER_SECOND`."""
    upfront = 1 + len(s) // CHARS_PER_STEP
    interp.charge(upfront, span)
    began = time.thread_time()
    try:
        if anchored:
            m = pat.compiled.match(s, pos, timeout=_timeout(interp))
        else:
            m = pat.compiled.search(s, pos, timeout=_timeout(interp))
    except TimeoutError:
        interp._out_of_steps(None, span)
    spent = int((time.thread_time() - began) * STEPS_PER_SECOND)
    if spent > upfront:
        interp.charge(spent - upfront, span)
    return m


def _match_array(interp, m, s: str, span) -> JSArray:
    groups = [m.group(0)] + [UNDEFINED if g is None else g for g in m.groups()]
    interp.alloc(len(groups) + 2, span)
    a = JSArray(groups)
    a.props = {"index": float(m.start()), "input": s}
    return a


def _this_regexp(this, name, span) -> JSObject:
    if not is_regexp(this):
        raise ScriptError.type_error("`%s` is a method of regular expressions" % name, span,
                                     "call it on a RegExp such as `/a+/`")
    return this


def exec_(interp, this, args, span):
    """``RegExp.prototype.exec`` applied to ``s`` (15.10.6.2): a match array (with ``index`` and ``input``) or null; a global
    RegExp starts at and updates ``lastIndex``."""
    r = _this_regexp(this, "exec", span)
    s = to_string(args[0] if args else UNDEFINED)
    glob = "g" in r.value.flags
    i = 0
    if glob:
        li = to_number(r.props.get("lastIndex", 0.0))
        i = 0 if li != li else (int(li) if not math.isinf(li) else (len(s) + 1 if li > 0 else -1))
        if i < 0 or i > len(s):
            r.props["lastIndex"] = 0.0
            return NULL
    m = _run(interp, r.value, s, i, span)
    if m is None:
        r.props["lastIndex"] = 0.0
        return NULL
    if glob:
        r.props["lastIndex"] = float(m.end())
    return _match_array(interp, m, s, span)


def test(interp, this, args, span):
    return exec_(interp, this, args, span) is not NULL


def regexp_to_string(interp, this, args, span):
    r = _this_regexp(this, "toString", span)
    return "/%s/%s" % (r.value.source or "(?:)", r.value.flags)


def _as_regexp(interp, v, span) -> JSObject:
    return v if is_regexp(v) else make_regexp(interp, "" if v is UNDEFINED else to_string(v), "", span)


def match(interp, this, args, span):
    """``s.match(re)`` (15.5.4.10): ``exec`` for a non-global RegExp, else every match (or null)."""
    s = this if type(this) is str else to_string(this)
    r = _as_regexp(interp, args[0] if args else UNDEFINED, span)
    if "g" not in r.value.flags:
        return exec_(interp, r, [s], span)
    out = []
    pos = 0
    while pos <= len(s):
        m = _run(interp, r.value, s, pos, span)
        if m is None:
            break
        out.append(m.group(0))
        pos = m.end() + (1 if m.end() == m.start() else 0)
    r.props["lastIndex"] = 0.0
    if not out:
        return NULL
    interp.alloc(len(out), span)
    return JSArray(out)


def search(interp, this, args, span):
    """``s.search(re)`` (15.5.4.12): the index of the first match, or -1 (``g`` and ``lastIndex`` ignored)."""
    s = this if type(this) is str else to_string(this)
    r = _as_regexp(interp, args[0] if args else UNDEFINED, span)
    m = _run(interp, r.value, s, 0, span)
    return -1.0 if m is None else float(m.start())


def replace_regexp(interp, s: str, r: JSObject, rep, span) -> str:
    """``s.replace(re, rep)`` (15.5.4.11) for a RegExp: the first match, or every one with ``g``."""
    glob = "g" in r.value.flags
    out = []
    last = 0
    pos = 0
    total = 0
    while pos <= len(s):
        m = _run(interp, r.value, s, pos, span)
        if m is None:
            break
        groups = m.groups()
        if isinstance(rep, (JSFunction, HostFunction)):
            call_args = [m.group(0)] + [UNDEFINED if g is None else g for g in groups] + [float(m.start()), s]
            text = to_string(interp.call_value(rep, None, call_args, span))
        else:
            text = expand_replacement(to_string(rep), m.group(0), m.start(), s, groups)
        out.append(s[last:m.start()])
        out.append(text)
        total += m.start() - last + len(text)
        interp.check_string(total, span)
        last = m.end()
        if not glob:
            break
        pos = m.end() + (1 if m.end() == m.start() else 0)
    if glob:
        r.props["lastIndex"] = 0.0
    out.append(s[last:])
    return "".join(out)


def split_regexp(interp, s: str, r: JSObject, limit, span) -> JSArray:
    """``s.split(re, limit)`` (15.5.4.14): split at each non-empty match, captures spliced in."""
    lim = 4294967295 if limit is UNDEFINED else to_uint32(limit)
    out: list = []
    if lim == 0:
        return JSArray(out)
    if not s:
        return JSArray([] if _run(interp, r.value, s, 0, span, anchored=True) is not None else [s])
    p = q = 0
    while q < len(s):
        m = _run(interp, r.value, s, q, span, anchored=True)
        if m is None or m.end() == p:
            q += 1
            continue
        out.append(s[p:q])
        if len(out) == lim:
            return JSArray(out)
        for g in m.groups():
            out.append(UNDEFINED if g is None else g)
            if len(out) == lim:
                return JSArray(out)
        interp.alloc(1 + len(m.groups()), span)
        p = q = m.end()
    out.append(s[p:])
    return JSArray(out)


def regexp_methods() -> dict:
    """The functions of ``RegExp.prototype``."""
    return {"exec": exec_, "test": test, "toString": regexp_to_string}

