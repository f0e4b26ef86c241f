"""A small GBNF reader and recogniser for the tests: does a grammar accept a text?

It reads llama.cpp's GBNF (``grammars/README.md`` of llama.cpp: ``name ::= expression`` rules,
``"literals"``, ``[classes]`` with ``^`` and ranges, ``.``, groups, ``|``, ``* + ?`` and
``{m}``/``{m,}``/``{m,n}``, ``#`` comments, escapes ``\\x \\u \\U \\n \\r \\t \\\\ \\" \\[ \\] \\-``) and
recognises text the way llama.cpp's grammar engine does: a set of parse stacks, every alternative
followed in parallel, advanced one character (code point) at a time. Like llama.cpp it cannot
follow left recursion: :func:`read_gbnf` refuses a grammar where a rule can begin with itself.

Written for the tests (no GBNF validator on PyPI reads llama.cpp's semantics without a model:
``llguidance`` turns GBNF into a lexer-based grammar, which accepts different texts).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_ESC = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "[": "[", "]": "]", "-": "-", "/": "/",
        "^": "^"}


class GbnfError(ValueError):
    """The grammar text is not GBNF this reader understands, or it is left-recursive."""


@dataclass
class Grammar:
    """Rules as alternatives of elements: ``("c", ranges)`` one character in ``ranges`` (sorted
    ``(lo, hi)`` code points), ``("r", rule)`` a rule reference. ``names[rule]`` for messages."""

    rules: list[list[int]] = field(default_factory=list)  # rule -> alternative ids
    alts: list[tuple] = field(default_factory=list)  # alternative id -> tuple of elements
    names: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)

    def rule(self, name: str) -> int:
        if name not in self.index:
            self.index[name] = len(self.rules)
            self.rules.append([])
            self.names.append(name)
        return self.index[name]

    def fresh(self, hint: str) -> int:
        return self.rule(f"{hint}#{len(self.rules)}")

    def add_alt(self, rule: int, elems: list) -> None:
        self.alts.append(tuple(elems))
        self.rules[rule].append(len(self.alts) - 1)


_TOKEN = re.compile(r"""
    (?P<ws>\s+|\#[^\n]*)
  | (?P<define>::=)
  | (?P<name>[A-Za-z0-9-]+)
  | (?P<lit>"(?:[^"\\]|\\.)*")
  | (?P<cls>\[(?:[^\]\\]|\\.)*\])
  | (?P<rep>\{\s*\d+\s*(?:,\s*\d*\s*)?\})
  | (?P<op>[()|*+?.])
""", re.VERBOSE | re.DOTALL)


def _unescape(body: str, pos: int) -> tuple[int, int]:
    """``(code point, next position)`` of the (possibly escaped) character at ``body[pos]``."""
    ch = body[pos]
    if ch != "\\":
        return ord(ch), pos + 1
    kind = body[pos + 1]
    for letter, width in (("x", 2), ("u", 4), ("U", 8)):
        if kind == letter:
            return int(body[pos + 2: pos + 2 + width], 16), pos + 2 + width
    if kind in _ESC:
        return ord(_ESC[kind]), pos + 2
    raise GbnfError(f"unknown escape \\{kind}")


def _class_ranges(token: str) -> tuple:
    body = token[1:-1]
    negate = body.startswith("^")
    pos = 1 if negate else 0
    ranges = []
    while pos < len(body):
        lo, pos = _unescape(body, pos)
        hi = lo
        if pos + 1 < len(body) and body[pos] == "-":
            hi, pos = _unescape(body, pos + 1)
        ranges.append((lo, hi))
    ranges.sort()
    if negate:
        out, nxt = [], 0
        for lo, hi in ranges:
            if lo > nxt:
                out.append((nxt, lo - 1))
            nxt = max(nxt, hi + 1)
        out.append((nxt, 0x10FFFF))
        ranges = out
    return tuple(ranges)


class _Reader:
    def __init__(self, text: str):
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                raise GbnfError(f"cannot read the grammar at {text[pos:pos + 30]!r}")
            if m.lastgroup != "ws":
                self.tokens.append((m.lastgroup, m.group()))
            pos = m.end()
        self.i = 0
        self.g = Grammar()

    def peek(self, k: int = 0):
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else ("eof", "")

    def read(self) -> Grammar:
        while self.peek()[0] != "eof":
            kind, name = self.peek()
            if kind != "name" or self.peek(1)[0] != "define":
                raise GbnfError(f"expected a rule definition at {name!r}")
            self.i += 2
            rule = self.g.rule(name)
            for alt in self.alternatives(name):
                self.g.add_alt(rule, alt)
        for n, r in self.g.index.items():
            if not self.g.rules[r]:
                raise GbnfError(f"rule {n} is used but never defined")
        return self.g

    def at_rule_start(self) -> bool:
        return self.peek()[0] == "name" and self.peek(1)[0] == "define"

    def alternatives(self, hint: str) -> list[list]:
        alts = [self.sequence(hint)]
        while self.peek() == ("op", "|"):
            self.i += 1
            alts.append(self.sequence(hint))
        return alts

    def sequence(self, hint: str) -> list:
        seq: list = []
        while True:
            kind, tok = self.peek()
            if kind == "eof" or tok in ("|", ")") or self.at_rule_start():
                return seq
            self.i += 1
            if kind == "name":
                atom = [("r", self.g.rule(tok))]
            elif kind == "lit":
                body, pos, atom = tok[1:-1], 0, []
                while pos < len(body):
                    code, pos = _unescape(body, pos)
                    atom.append(("c", ((code, code),)))
            elif kind == "cls":
                atom = [("c", _class_ranges(tok))]
            elif tok == ".":
                atom = [("c", ((0, 0x10FFFF),))]
            elif tok == "(":
                rule = self.g.fresh(hint)
                for alt in self.alternatives(hint):
                    self.g.add_alt(rule, alt)
                if self.peek() != ("op", ")"):
                    raise GbnfError(f"unclosed group in {hint}")
                self.i += 1
                atom = [("r", rule)]
            else:
                raise GbnfError(f"unexpected {tok!r} in {hint}")
            seq.extend(self.repeat(atom, hint))

    def repeat(self, atom: list, hint: str) -> list:
        kind, tok = self.peek()
        if kind == "op" and tok in "*+?":
            lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[tok]
        elif kind == "rep":
            nums = tok[1:-1].split(",")
            lo = int(nums[0])
            hi = lo if len(nums) == 1 else (int(nums[1]) if nums[1].strip() else None)
        else:
            return atom
        self.i += 1
        out = atom * lo
        if hi is None:  # R ::= atom R | ""  (right recursion, as llama.cpp writes x*)
            rule = self.g.fresh(hint)
            self.g.add_alt(rule, atom + [("r", rule)])
            self.g.add_alt(rule, [])
            return out + [("r", rule)]
        for _ in range(hi - lo):
            rule = self.g.fresh(hint)
            self.g.add_alt(rule, atom)
            self.g.add_alt(rule, [])
            out.append(("r", rule))
        return out


def read_gbnf(text: str) -> Grammar:
    """The grammar of GBNF ``text``. Raises :class:`GbnfError` for text it cannot read, an
    undefined rule, or left recursion (which llama.cpp refuses too)."""
    g = _Reader(text).read()
    _refuse_left_recursion(g)
    return g


def _refuse_left_recursion(g: Grammar) -> None:
    nullable: set[int] = set()
    changed = True
    while changed:
        changed = False
        for r, alts in enumerate(g.rules):
            if r not in nullable and any(all(e[0] == "r" and e[1] in nullable for e in g.alts[a]) for a in alts):
                nullable.add(r)
                changed = True
    first: list[set[int]] = [set() for _ in g.rules]
    for r, alts in enumerate(g.rules):
        for a in alts:
            for kind, val in g.alts[a]:
                if kind != "r":
                    break
                first[r].add(val)
                if val not in nullable:
                    break
    for start in range(len(g.rules)):
        seen, todo = set(), list(first[start])
        while todo:
            cur = todo.pop()
            if cur == start:
                raise GbnfError(f"rule {g.names[start]} is left-recursive")
            if cur not in seen:
                seen.add(cur)
                todo.extend(first[cur])


def _matches(ranges: tuple, code: int) -> bool:
    for lo, hi in ranges:
        if code < lo:
            return False
        if code <= hi:
            return True
    return False


class Recogniser:
    """Feed a text character by character; ``accepts(text)`` says whether ``root`` derives it."""

    def __init__(self, grammar: Grammar, root: str = "root"):
        if root not in grammar.index:
            raise GbnfError(f"no rule {root}")
        self.g = grammar
        self.root = grammar.index[root]

    def _expand(self, stack: tuple, out: set) -> None:
        """Add to ``out`` every stack reachable from ``stack`` whose top is a character element
        (or ``()``: the whole root matched), entering rules and leaving finished ones."""
        todo = [stack]
        seen = set()
        alts, rules = self.g.alts, self.g.rules
        while todo:
            st = todo.pop()
            if st in seen:
                continue
            seen.add(st)
            if not st:
                out.add(st)
                continue
            alt, i = st[-1]
            elems = alts[alt]
            if i == len(elems):
                todo.append(st[:-1])
                continue
            kind, val = elems[i]
            if kind == "c":
                out.add(st)
                continue
            base = st[:-1] if i + 1 == len(elems) else st[:-1] + ((alt, i + 1),)
            for a in rules[val]:
                todo.append(base + ((a, 0),))

    def accepts(self, text: str) -> bool:
        """Whether the grammar's root derives exactly ``text``."""
        return self.failure(text) is None

    def failure(self, text: str) -> int | None:
        """``None`` when ``text`` is accepted, else the offset of the first character no parse
        can take (``len(text)`` when the text stops short)."""
        ready: set = set()
        for a in self.g.rules[self.root]:
            self._expand(((a, 0),), ready)
        alts = self.g.alts
        for pos, ch in enumerate(text):
            code = ord(ch)
            nxt: set = set()
            for st in ready:
                if not st:
                    continue
                alt, i = st[-1]
                if _matches(alts[alt][i][1], code):
                    self._expand(st[:-1] + ((alt, i + 1),), nxt)
            if not nxt:
                return pos
            ready = nxt
        return None if () in ready else len(text)
