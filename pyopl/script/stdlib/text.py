"""Text built-ins of IBM ILOG Script beyond the basic string methods: ``String.fromCharCode``,
``localeCompare``, ``escape``/``unescape`` (ECMAScript 3, B.2.1-B.2.2), the URI functions
(15.1.3) and the ``$`` patterns of ``replace`` (15.5.4.11, table 22).

Strings are sequences of UTF-16 code units as in the standard; a lone surrogate given to
``encodeURI``/``encodeURIComponent``, or a malformed escape given to the decoders, is a
``URIError`` a script can catch.
"""
from __future__ import annotations

from ..language.convert import CHARS_PER_STEP, to_string, to_uint32
from ..language.values import UNDEFINED, ScriptError

# White space and line terminators of ECMAScript (7.2, 7.3; Unicode category Zs, as engines use for trim)
WHITESPACE = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
              "\u2028\u2029\u202f\u205f\u3000\ufeff")


def _arg(args, i):
    return args[i] if i < len(args) else UNDEFINED


def _work(interp, n: int, span) -> None:
    if n >= CHARS_PER_STEP:
        interp.charge(n // CHARS_PER_STEP, span)


def from_char_code(interp, this, args, span):
    """``String.fromCharCode(c0, c1, ...)`` (15.5.3.2): code units ToUint16 of each argument."""
    interp.check_string(len(args), span)
    return "".join(chr(to_uint32(a) & 0xFFFF) for a in args)


def locale_compare(interp, this, args, span):
    """``s.localeCompare(t)`` (15.5.4.9): negative, 0 or positive.  The order is case-insensitive
    first, then lower case before upper case (as the common locales order letters)."""
    s = this if type(this) is str else to_string(this)
    t = to_string(_arg(args, 0))
    _work(interp, len(s) + len(t), span)
    ks, kt = (s.casefold(), s.swapcase()), (t.casefold(), t.swapcase())
    return -1.0 if ks < kt else (1.0 if ks > kt else 0.0)


_ESCAPE_KEEP = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@*_+-./")


def escape(interp, this, args, span):
    """``escape(s)`` (B.2.1): ``%XX`` below 256, ``%uXXXX`` above, letters, digits and ``@*_+-./`` kept."""
    s = to_string(_arg(args, 0))
    _work(interp, 6 * len(s), span)
    interp.check_string(6 * len(s), span)
    out = []
    for ch in s:
        c = ord(ch)
        if ch in _ESCAPE_KEEP:
            out.append(ch)
        elif c < 256:
            out.append("%%%02X" % c)
        else:
            for unit in _units(ch):
                out.append("%%u%04X" % unit)
    return "".join(out)


def _units(ch: str):
    c = ord(ch)
    if c < 0x10000:
        return (c,)
    c -= 0x10000
    return (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF))


def _hex(s: str) -> bool:
    return len(s) > 0 and all(c in "0123456789abcdefABCDEF" for c in s)


def unescape(interp, this, args, span):
    """``unescape(s)`` (B.2.2): ``%uXXXX`` and ``%XX`` back to their characters; anything else kept."""
    s = to_string(_arg(args, 0))
    _work(interp, 6 * len(s), span)
    out = []
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch == "%":
            if s[i + 1:i + 2] == "u" and _hex(s[i + 2:i + 6]) and len(s[i + 2:i + 6]) == 4:
                out.append(chr(int(s[i + 2:i + 6], 16)))
                i += 6
                continue
            if _hex(s[i + 1:i + 3]) and len(s[i + 1:i + 3]) == 2:
                out.append(chr(int(s[i + 1:i + 3], 16)))
                i += 3
                continue
        out.append(ch)
        i += 1
    return "".join(out)


_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_UNRESERVED = frozenset(_ALNUM + "-_.!~*'()")
_RESERVED = frozenset(";/?:@&=+$,")


def _uri_error(what: str, span) -> ScriptError:
    return ScriptError("script-type-error", what, span, "pass well-formed text (paired surrogates, valid %XX escapes)",
                       error_name="URIError")


def _encode(interp, args, span, keep: frozenset, name: str) -> str:
    s = to_string(_arg(args, 0))
    _work(interp, 9 * len(s), span)
    interp.check_string(9 * len(s), span)
    out = []
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch in keep:
            out.append(ch)
            i += 1
            continue
        c = ord(ch)
        if 0xDC00 <= c <= 0xDFFF:
            raise _uri_error("`%s` was given a lone low surrogate at %d" % (name, i), span)
        if 0xD800 <= c <= 0xDBFF:
            low = ord(s[i + 1]) if i + 1 < n else 0
            if not 0xDC00 <= low <= 0xDFFF:
                raise _uri_error("`%s` was given a lone high surrogate at %d" % (name, i), span)
            ch = chr(0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00))
            i += 1
        out.extend("%%%02X" % b for b in ch.encode("utf-8"))
        i += 1
    return "".join(out)


def encode_uri(interp, this, args, span):
    """``encodeURI(s)`` (15.1.3.3): reserved characters and ``#`` stay."""
    return _encode(interp, args, span, _UNRESERVED | _RESERVED | {"#"}, "encodeURI")


def encode_uri_component(interp, this, args, span):
    """``encodeURIComponent(s)`` (15.1.3.4)."""
    return _encode(interp, args, span, _UNRESERVED, "encodeURIComponent")


def _decode(interp, args, span, reserved: frozenset, name: str) -> str:
    s = to_string(_arg(args, 0))
    _work(interp, 3 * len(s), span)
    out = []
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch != "%":
            out.append(ch)
            i += 1
            continue
        start = i
        if not (_hex(s[i + 1:i + 3]) and len(s[i + 1:i + 3]) == 2):
            raise _uri_error("`%s`: `%%` at %d is not followed by two hex digits" % (name, i), span)
        b = int(s[i + 1:i + 3], 16)
        i += 3
        if b < 0x80:
            c = chr(b)
            out.append(s[start:i] if c in reserved else c)
            continue
        count = 2 if b & 0xE0 == 0xC0 else (3 if b & 0xF0 == 0xE0 else (4 if b & 0xF8 == 0xF0 else 0))
        if count == 0:
            raise _uri_error("`%s`: malformed UTF-8 at %d" % (name, start), span)
        bs = [b]
        for _ in range(count - 1):
            if s[i:i + 1] != "%" or not (_hex(s[i + 1:i + 3]) and len(s[i + 1:i + 3]) == 2):
                raise _uri_error("`%s`: malformed UTF-8 at %d" % (name, start), span)
            bs.append(int(s[i + 1:i + 3], 16))
            i += 3
        try:
            c = bytes(bs).decode("utf-8")
        except UnicodeDecodeError:
            raise _uri_error("`%s`: malformed UTF-8 at %d" % (name, start), span) from None
        for unit in _units(c):
            out.append(chr(unit))
    return "".join(out)


def decode_uri(interp, this, args, span):
    """``decodeURI(s)`` (15.1.3.1): escapes of reserved characters and ``#`` stay escaped."""
    return _decode(interp, args, span, _RESERVED | {"#"}, "decodeURI")


def decode_uri_component(interp, this, args, span):
    """``decodeURIComponent(s)`` (15.1.3.2)."""
    return _decode(interp, args, span, frozenset(), "decodeURIComponent")


def expand_replacement(rep: str, matched: str, pos: int, subject: str, groups=()) -> str:
    """The replacement text of ``replace`` (15.5.4.11, table 22): ``$$``, ``$&``, `` $` ``, ``$'``
    and ``$1``-``$99`` (capture groups; undefined ones give ""), anything else as written."""
    if "$" not in rep:
        return rep
    out = []
    i, n = 0, len(rep)
    m = len(groups)
    while i < n:
        ch = rep[i]
        if ch == "$" and i + 1 < n:
            nx = rep[i + 1]
            if nx == "$":
                out.append("$")
                i += 2
                continue
            if nx == "&":
                out.append(matched)
                i += 2
                continue
            if nx == "`":
                out.append(subject[:pos])
                i += 2
                continue
            if nx == "'":
                out.append(subject[pos + len(matched):])
                i += 2
                continue
            if nx.isdigit() and nx.isascii():
                two = rep[i + 1:i + 3]
                if len(two) == 2 and two.isdigit() and two.isascii() and 1 <= int(two) <= m:
                    g = groups[int(two) - 1]
                    out.append("" if g is None else g)
                    i += 3
                    continue
                if 1 <= int(nx) <= m:
                    g = groups[int(nx) - 1]
                    out.append("" if g is None else g)
                    i += 2
                    continue
        out.append(ch)
        i += 1
    return "".join(out)
