"""ECMAScript 3 regular-expression patterns (15.10.1) checked and translated to the syntax of
Python's ``regex``/``re`` engines, only where both engines give the same matches.

Both engines are backtracking matchers with the same order of trying alternatives and the same
greedy and lazy quantifiers, so a pattern means the same where its pieces do.  The pieces whose
meaning differs are rewritten: ``.`` (ECMAScript excludes four line terminators), ``\\s``/``\\S``
(ECMAScript's white space), ``\\d``, ``\\w``, ``\\b`` (ASCII in ECMAScript), ``^``/``$`` (``$``
never matches before a final newline), ``[]`` and ``[^]``, and every literal character is
written as an escape.  Case-insensitive matching (flag ``i``) uses ASCII case folding, which is
ECMAScript's for a pattern of ASCII characters.

Refused with :class:`RegexUnsupported` (a diagnostic names the construct) where the engines
differ and no rewriting is known to be exact: captures inside a repeated group (ECMAScript
resets them on each repetition), a repeated capturing group that can match the empty string
zero times, a back-reference to a group that may not have taken part (ECMAScript matches the
empty string there, Python fails), captures inside a negative lookahead, a quantified
lookahead, ``i`` with non-ASCII characters in the pattern, and legacy octal escapes.
A pattern that is not ES3 syntax raises :class:`RegexSyntaxError` (a SyntaxError).
"""
from __future__ import annotations

ES_WHITESPACE = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                 "\u2028\u2029\u202f\u205f\u3000\ufeff")
_LT = "\n\r\u2028\u2029"
_WORD = "A-Za-z0-9_"
MAX_PATTERN = 10_000  # characters of one pattern


class RegexSyntaxError(Exception):
    """The pattern is not an ECMAScript 3 regular expression (the message says where)."""


class RegexUnsupported(Exception):
    """The pattern is ECMAScript, but one of its constructs would match differently here."""


def _esc(c: int) -> str:
    ch = chr(c)
    if ch.isascii() and ch.isalnum():
        return ch
    return "\\x%02x" % c if c < 0x100 else "\\u%04x" % c if c < 0x10000 else "\\U%08x" % c


def _ws_class(negated: bool) -> str:
    return "[" + ("^" if negated else "") + "".join(_esc(ord(c)) for c in ES_WHITESPACE) + "]"


class _Translator:
    def __init__(self, source: str, flags: str):
        self.s = source
        self.i = 0
        self.ignore_case = "i" in flags
        self.multiline = "m" in flags
        self.groups = 0  # capturing groups opened so far
        self.closed: dict = {}  # group number -> whether it always takes part once closed
        self.total_groups = _count_groups(source)
        self.optional = 0  # depth of alternatives and zero-minimum quantifiers around the current point
        self.non_ascii = False

    def error(self, msg: str) -> RegexSyntaxError:
        return RegexSyntaxError("%s at position %d of /%s/" % (msg, self.i, self.s))

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    # Each parse function returns (python_text, info) with info = {"nullable", "captures", "kind"}.

    def disjunction(self):
        alts = []
        start_groups = self.groups
        has_alt = self._has_top_alternative()
        if has_alt:
            self.optional += 1
        try:
            alts.append(self.alternative())
            while self.peek() == "|":
                self.i += 1
                alts.append(self.alternative())
        finally:
            if has_alt:
                self.optional -= 1
        text = "|".join(a[0] for a in alts)
        return text, {"nullable": any(a[1]["nullable"] for a in alts), "captures": self.groups > start_groups,
                      "kind": "seq"}

    def _has_top_alternative(self) -> bool:
        """Whether a `|` follows at this nesting level (before the closing `)` of this group)."""
        depth, j, in_class = 0, self.i, False
        s = self.s
        while j < len(s):
            c = s[j]
            if c == "\\":
                j += 2
                continue
            if in_class:
                in_class = c != "]"
            elif c == "[":
                in_class = True
            elif c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    return False
                depth -= 1
            elif c == "|" and depth == 0:
                return True
            j += 1
        return False

    def alternative(self):
        parts = []
        nullable = True
        while self.i < len(self.s) and self.peek() not in "|)":
            text, info = self.term()
            parts.append(text)
            nullable = nullable and info["nullable"]
        return "".join(parts), {"nullable": nullable}

    def term(self):
        c = self.peek()
        if c == "^":
            self.i += 1
            return ("(?<![^%s])" % "".join(_esc(ord(x)) for x in _LT) if self.multiline else "\\A"), \
                {"nullable": True, "kind": "assert"}
        if c == "$":
            self.i += 1
            return ("(?![^%s])" % "".join(_esc(ord(x)) for x in _LT) if self.multiline else "\\Z"), \
                {"nullable": True, "kind": "assert"}
        if c == "\\" and self.peek(1) in ("b", "B"):
            self.i += 2
            w = "[%s]" % _WORD
            if self.s[self.i - 1] == "b":
                return "(?:(?<=%s)(?!%s)|(?<!%s)(?=%s))" % (w, w, w, w), {"nullable": True, "kind": "assert"}
            return "(?:(?<=%s)(?=%s)|(?<!%s)(?!%s))" % (w, w, w, w), {"nullable": True, "kind": "assert"}
        quant_start = self.i
        start_groups = self.groups
        optional_before = self.optional
        atom_text, info = self.atom()
        q = self.quantifier()
        if q is None:
            return atom_text, info
        lo, hi, lazy, qtext = q
        if info["kind"] in ("assert", "look"):
            raise RegexUnsupported("a quantifier on an assertion or lookahead (`%s`)" % self.s[quant_start:self.i])
        captures = self.groups > start_groups
        if captures:
            inner = self.groups - start_groups - (1 if info.get("capturing") else 0)
            if inner > 0 and (hi is None or hi > 1):
                raise RegexUnsupported("capturing groups inside a repeated group (`%s`): ECMAScript clears "
                                       "them on each repetition" % self.s[quant_start:self.i])
            if lo == 0 and info["nullable"]:
                raise RegexUnsupported("a repeated capturing group that can match the empty string (`%s`)"
                                       % self.s[quant_start:self.i])
            if lo == 0:  # the groups inside may not take part: no back-reference to them is exact
                for g in range(start_groups + 1, self.groups + 1):
                    self.closed[g] = False
        del optional_before
        return "(?:%s)%s" % (atom_text, qtext), {"nullable": info["nullable"] or lo == 0, "kind": "quant"}

    def quantifier(self):
        c = self.peek()
        if c in ("*", "+", "?"):
            self.i += 1
            lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
            text = c
        elif c == "{":
            j = self.i + 1
            k = j
            while k < len(self.s) and self.s[k].isdigit() and self.s[k].isascii():
                k += 1
            if k == j:
                return None  # `{` not starting a quantifier: a literal (web-compatible reading, Annex B)
            lo = int(self.s[j:k])
            hi = lo
            if self.s[k:k + 1] == ",":
                k += 1
                m = k
                while m < len(self.s) and self.s[m].isdigit() and self.s[m].isascii():
                    m += 1
                hi = int(self.s[k:m]) if m > k else None
                k = m
            if self.s[k:k + 1] != "}":
                return None
            if hi is not None and hi < lo:
                raise self.error("the quantifier {%d,%d} has its numbers out of order" % (lo, hi))
            if lo > 65535 or (hi is not None and hi > 65535):
                raise RegexUnsupported("a quantifier above 65535 repetitions")
            self.i = k + 1
            text = "{%d}" % lo if hi == lo else ("{%d,}" % lo if hi is None else "{%d,%d}" % (lo, hi))
        else:
            return None
        lazy = self.peek() == "?"
        if lazy:
            self.i += 1
        return lo, hi, lazy, text + ("?" if lazy else "")

    def atom(self):
        c = self.peek()
        if c == "(":
            return self.group()
        if c == ")":
            raise self.error("unmatched `)`")
        if c == "[":
            return self.char_class()
        if c == ".":
            self.i += 1
            return "[^%s]" % "".join(_esc(ord(x)) for x in _LT), {"nullable": False, "kind": "atom"}
        if c in ("*", "+", "?"):
            raise self.error("nothing to repeat before `%s`" % c)
        if c == "{" and self.quantifier_here():
            raise self.error("nothing to repeat before `{`")
        if c == "\\":
            return self.atom_escape()
        self.i += 1
        return self.literal(ord(c)), {"nullable": False, "kind": "atom"}

    def quantifier_here(self) -> bool:
        save = self.i
        try:
            return self.quantifier() is not None
        finally:
            self.i = save

    def literal(self, c: int) -> str:
        if c > 127:
            self.non_ascii = True
        return _esc(c)

    def group(self):
        self.i += 1
        if self.s.startswith("?:", self.i):
            self.i += 2
            text, info = self.disjunction()
            self.expect_close()
            return "(?:%s)" % text, {"nullable": info["nullable"], "kind": "group"}
        if self.s.startswith("?=", self.i) or self.s.startswith("?!", self.i):
            negative = self.s[self.i + 1] == "!"
            self.i += 2
            before = self.groups
            text, info = self.disjunction()
            self.expect_close()
            if negative and self.groups > before:
                raise RegexUnsupported("capturing groups inside a negative lookahead `(?!...)`")
            return ("(?!%s)" if negative else "(?=%s)") % text, {"nullable": True, "kind": "look"}
        if self.peek() == "?":
            raise self.error("`(?` must be followed by `:`, `=` or `!` in ECMAScript 3")
        self.groups += 1
        n = self.groups
        always = self.optional == 0
        text, info = self.disjunction()
        self.expect_close()
        self.closed[n] = always
        return "(%s)" % text, {"nullable": info["nullable"], "kind": "group", "capturing": True}

    def expect_close(self):
        if self.peek() != ")":
            raise self.error("a group is not closed with `)`")
        self.i += 1

    def atom_escape(self):
        self.i += 1
        c = self.peek()
        if c == "":
            raise self.error("`\\` at the end of the pattern")
        if c.isdigit() and c.isascii():
            j = self.i
            while j < len(self.s) and self.s[j].isdigit() and self.s[j].isascii():
                j += 1
            digits = self.s[self.i:j]
            if digits == "0":
                self.i = j
                return _esc(0), {"nullable": False, "kind": "atom"}
            n = int(digits)
            if digits[0] == "0" or n > self.total_groups:
                raise RegexUnsupported("the escape `\\%s` (a legacy octal escape, or a reference to a group "
                                       "the pattern does not have)" % digits)
            self.i = j
            if not self.closed.get(n, False):
                raise RegexUnsupported("the back-reference `\\%d` to a group that may not have matched yet "
                                       "(ECMAScript matches the empty string there)" % n)
            return "(?:\\%d)" % n, {"nullable": True, "kind": "atom"}
        cls = self.class_escape_text(c)
        if cls is not None:
            self.i += 1
            return cls, {"nullable": False, "kind": "atom"}
        code = self.char_escape()
        return self.literal(code), {"nullable": False, "kind": "atom"}

    def class_escape_text(self, c: str):
        return {"d": "[0-9]", "D": "[^0-9]", "w": "[%s]" % _WORD, "W": "[^%s]" % _WORD,
                "s": _ws_class(False), "S": _ws_class(True)}.get(c)

    def char_escape(self) -> int:
        """The code of a character escape after `\\` (self.i at the letter); advances past it."""
        c = self.peek()
        simple = {"f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
        if c in simple:
            self.i += 1
            return simple[c]
        if c == "c" and self.peek(1).isascii() and self.peek(1).isalpha():
            self.i += 2
            return ord(self.s[self.i - 1]) % 32
        if c == "x" and _is_hex(self.s[self.i + 1:self.i + 3], 2):
            self.i += 3
            return int(self.s[self.i - 2:self.i], 16)
        if c == "u" and _is_hex(self.s[self.i + 1:self.i + 5], 4):
            self.i += 5
            return int(self.s[self.i - 4:self.i], 16)
        self.i += 1  # an identity escape (`\\.`, `\\/`, and web-compatible `\\q`)
        return ord(c)

    def char_class(self):
        self.i += 1
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        items = []
        while True:
            c = self.peek()
            if c == "":
                raise self.error("a character class is not closed with `]`")
            if c == "]":
                self.i += 1
                break
            lo_text, lo_code = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.i += 1
                hi_text, hi_code = self.class_atom()
                if lo_code is None or hi_code is None:
                    raise RegexUnsupported("a range in a character class with a class escape as an end")
                if hi_code < lo_code:
                    raise self.error("the range of a character class is out of order")
                items.append("%s-%s" % (_esc(lo_code), _esc(hi_code)))
            else:
                items.append(lo_text)
        if not items:
            return ("[\\s\\S]" if negated else "(?!)"), {"nullable": False, "kind": "atom"}
        return "[%s%s]" % ("^" if negated else "", "".join(items)), {"nullable": False, "kind": "atom"}

    def class_atom(self):
        """(text inside a Python class, code or None for a class escape)."""
        c = self.peek()
        if c != "\\":
            self.i += 1
            code = ord(c)
            if code > 127:
                self.non_ascii = True
            return _esc(code), code
        self.i += 1
        c = self.peek()
        if c == "":
            raise self.error("`\\` at the end of the pattern")
        if c == "b":
            self.i += 1
            return _esc(8), 8
        if c.isdigit() and c.isascii():
            if c == "0" and not (self.peek(1).isdigit()):
                self.i += 1
                return _esc(0), 0
            raise RegexUnsupported("the escape `\\%s` inside a character class (a legacy octal escape)" % c)
        cls = self.class_escape_text(c)
        if cls is not None:
            self.i += 1
            return cls[1:-1], None
        code = self.char_escape()
        if code > 127:
            self.non_ascii = True
        return _esc(code), code


def _is_hex(s: str, n: int) -> bool:
    return len(s) == n and all(ch in "0123456789abcdefABCDEF" for ch in s)


def _count_groups(s: str) -> int:
    n, j, in_class = 0, 0, False
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(" and not s.startswith("(?", j):
            n += 1
        j += 1
    return n


def check_flags(flags: str) -> None:
    """ECMAScript 3 flags are ``g``, ``i`` and ``m``, each at most once."""
    for f in flags:
        if f not in "gim" or flags.count(f) > 1:
            raise RegexSyntaxError("invalid regular-expression flags `%s` (ECMAScript 3 has g, i and m)" % flags)


def translate(source: str, flags: str) -> tuple[str, int]:
    """(Python pattern, number of capturing groups) for the ES3 pattern ``source`` with ``flags``.

    Raises :class:`RegexSyntaxError` or :class:`RegexUnsupported`.
    """
    check_flags(flags)
    if len(source) > MAX_PATTERN:
        raise RegexUnsupported("a pattern longer than %d characters" % MAX_PATTERN)
    t = _Translator(source, flags)
    text, _ = t.disjunction()
    if t.i < len(source):
        raise t.error("unmatched `)`")
    if t.ignore_case and t.non_ascii:
        raise RegexUnsupported("the flag `i` with non-ASCII characters in the pattern (case folding of "
                               "non-ASCII letters differs between engines)")
    return text, t.groups
