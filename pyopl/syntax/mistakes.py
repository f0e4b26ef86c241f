"""A table of typical syntax mistakes, each turning a raw "unexpected token" into a
specific diagnostic with a fix-it (in the spirit of Lark's ``match_examples``).

Each rule looks at the bad token, the word before it and the text around it, and
returns a :class:`Mistake` or None.  The table doubles as test data: every slug here
has a registry entry whose bad example triggers it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..diagnostics.diagnostic import Edit, Fix, Label, Span
from ..diagnostics.reporter import near_miss
from .brackets import unclosed_bracket
from .words import KEYWORDS

#: Misspellings of statement keywords seen in practice -> the OPL keyword.
_KEYWORD_WORDS = ["dvar", "dexpr", "minimize", "maximize", "subject", "forall", "tuple", "range", "constraints",
                  "execute", "float", "int", "string", "boolean", "sum", "using"]
_SPELLINGS = {"minimise": "minimize", "maximise": "maximize", "min": "minimize", "max": "maximize",
              "var": "dvar", "dvars": "dvar", "variable": "dvar", "param": None, "foreach": "forall", "for": "forall",
              "subjectto": "subject to", "st": "subject to", "constraint": "constraints"}
_DVAR_TYPES = {"integer": "int", "bool": "boolean", "binary": "boolean", "real": "float", "double": "float",
               "continuous": "float", "numeric": "float", "nonneg": "float+", "positive": "float+"}
_CP_DVAR_TYPES = {"stateFunction"}  # (`dvar interval`, `dvar sequence` parse: docs/cp.md)
_TYPE_WORDS = {"int", "float", "string", "boolean", "int+", "float+", "dvar", "dexpr", "range", "tuple", "constraint"}


@dataclass
class Context:
    """What a rule sees: the text, the bad token (its text, type, offset, span) and the words before it."""

    text: str
    kind: str  # "model" or "data"
    tok: str
    tok_type: str
    at: int  # offset of the bad token
    span: Span
    prev: str  # the word (or symbol) just before the bad token
    prev_at: int  # its offset
    expected: set
    in_constraints: bool
    statement: str  # the text of the statement so far (from its start to the bad token)

    def span_of(self, start: int, end: int) -> Span:
        l1, c1 = _line_col(self.text, start)
        l2, c2 = _line_col(self.text, end)
        return Span(self.span.file, l1, c1, l2, c2)


@dataclass
class Mistake:
    slug: str
    span: Span
    message: str
    help: str
    fix: Fix | None = None


def _line_col(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _fix(ctx: Context, start: int, end: int, new: str, what: str, level: str = "machine-applicable") -> Fix:
    return Fix(what, (Edit(ctx.span_of(start, end), new),), level)


# ---------------------------------------------------------------------- model rules
def _colon_equals(ctx: Context) -> Mistake | None:
    if ctx.tok == ":" and ctx.text.startswith(":=", ctx.at):
        return Mistake("syntax-colon-equals", ctx.span_of(ctx.at, ctx.at + 2), "`:=` is not OPL; a declaration's value follows `=`",
                       "write `=`", _fix(ctx, ctx.at, ctx.at + 2, "=", "replace `:=` with `=`"))
    return None


def _reversed_comparison(ctx: Context) -> Mistake | None:
    k = ctx.statement.find("=<")
    if k >= 0 and '"' not in ctx.statement:
        at = ctx.at - len(ctx.statement) + k
        return Mistake("syntax-reversed-comparison", ctx.span_of(at, at + 2),
                       "`=<` is not an operator; less-or-equal is written `<=`", "write `<=`",
                       _fix(ctx, at, at + 2, "<=", "replace `=<` with `<=`"))
    return None


def _equals_in_constraint(ctx: Context) -> Mistake | None:
    """`c1: x + y = 3;` and `c1: x + y =< 3;` in a constraint block, labelled or not (the dedicated
    codes and fixes; `=<` is looked at first, so its fix never becomes `==<`)."""
    if ctx.kind != "model" or not ctx.in_constraints or ctx.tok != "=" or "IN" in ctx.expected:
        return None
    nxt = ctx.text[ctx.at + 1:ctx.at + 2]
    if nxt == "<":
        return Mistake("syntax-reversed-comparison", ctx.span_of(ctx.at, ctx.at + 2),
                       "`=<` is not an operator; less-or-equal is written `<=`", "write `<=`",
                       _fix(ctx, ctx.at, ctx.at + 2, "<=", "replace `=<` with `<=`"))
    if nxt in ("=", ">"):
        return None
    return Mistake("syntax-assign-in-constraint", ctx.span, "`=` assigns a value; to compare, use `==`",
                   "write `==` for an equality constraint", _fix(ctx, ctx.at, ctx.at + 1, "==", "replace `=` with `==`"))


def _st_abbreviation(ctx: Context) -> Mistake | None:
    """`s.t. { ... }` (the textbook abbreviation) for `subject to`."""
    m = re.search(r"\bs\.t\.?", ctx.text[max(0, ctx.at - 3):ctx.at + 3])
    if ctx.kind != "model" or not m:
        return None
    start = max(0, ctx.at - 3) + m.start()
    end = max(0, ctx.at - 3) + m.end()
    return Mistake("syntax-misspelled-keyword", ctx.span_of(start, end), "`%s` is not OPL; constraints follow `subject to`"
                   % ctx.text[start:end], "write `subject to`", _fix(ctx, start, end, "subject to", "replace with `subject to`"))


def _subject_to_colon(ctx: Context) -> Mistake | None:
    """`subject to: { ... }`: the `:` is extra (the block follows `subject to` directly)."""
    if ctx.kind != "model" or ctx.tok != ":" or ctx.prev not in ("to", "constraints"):
        return None
    after = ctx.text[ctx.at + 1:].lstrip()
    if not after.startswith("{"):
        return None
    return Mistake("syntax-missing-constraints-brace", ctx.span, "`%s` takes its block directly: the `:` is extra" % (
        "subject to" if ctx.prev == "to" else "constraints"), "remove the `:`",
                   _fix(ctx, ctx.at, ctx.at + 1, "", "remove `:`"))


def _matching(text: str, open_at: int, pair: str = "()") -> int:
    """Offset of the bracket closing the one at ``open_at`` (strings skipped), or -1."""
    depth, i = 0, open_at
    while i < len(text):
        ch = text[i]
        if ch == '"':
            j = text.find('"', i + 1)
            if j < 0:
                return -1
            i = j
        elif ch == pair[0]:
            depth += 1
        elif ch == pair[1]:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


_AGGREGATES = ("sum", "prod", "min", "max", "forall", "and", "or")


def _python_comprehension(ctx: Context) -> Mistake | None:
    """`sum(x[i] for i in I)` / `sum(c[i]*x[i] for i in I if c[i] > 0)`: Python's generator in OPL's place."""
    if ctx.kind != "model" or ctx.tok != "for":
        return None
    opened = unclosed_bracket(ctx.text, ctx.at)
    if not opened or opened[0] != "(":
        return None
    lp = opened[1]
    m = re.search(r"(\w+)\s*$", ctx.text[:lp])
    if not m or m.group(1) not in _AGGREGATES:
        return None
    rp = _matching(ctx.text, lp)
    if rp < 0:
        return None
    body = ctx.text[lp + 1:ctx.at].strip()
    quals = ctx.text[ctx.at + 3:rp].strip()
    quals = re.sub(r"\s+if\s+", " : ", quals, count=1)
    quals = re.sub(r"\s+for\s+", ", ", quals)
    if not body or " in " not in " %s " % quals:
        return None
    if re.search(r"[-+<>=?]|\bor\b|\band\b", body):
        body = "(%s)" % body
    new = "%s(%s) %s" % (m.group(1), quals, body)
    start = lp - len(m.group(1))
    return Mistake("syntax-python-comprehension", ctx.span, "`%s(... for ...)` is Python; OPL writes the iterators first: `%s`"
                   % (m.group(1), new if len(new) <= 60 else m.group(1) + "(i in I) body"),
                   "write `%s(i in I) body`" % m.group(1), _fix(ctx, start, rp + 1, new, "rewrite as `%s`" % new))


def _balanced(text: str) -> bool:
    """Whether every bracket of ``text`` closes within it (so it is a whole expression)."""
    depth = 0
    for ch in text:
        depth += (ch in "([{") - (ch in ")]}")
        if depth < 0:
            return False
    return depth == 0


def _setof_comprehension(ctx: Context) -> Mistake | None:
    """`{int} F = setof(int i in 1..10: i < 4) i*i;`: `setof(T)` is a type (`setof(int) S = ...;`, IBM's
    "Sets" page), not an aggregate; a set built by iteration is the comprehension `{i*i | i in 1..10 : i < 4}`."""
    if ctx.kind != "model" or ctx.tok_type != "NAME":
        return None
    m = re.search(r"\bsetof\s*\(\s*(int|float|string|[A-Za-z_]\w*)\s*$", ctx.text[:ctx.at])
    if not m:
        return None
    lp = ctx.text.index("(", m.start())
    rp = _matching(ctx.text, lp)
    semi = ctx.text.find(";", rp) if rp > 0 else -1
    quals = ctx.text[ctx.at:rp].strip() if rp > 0 else ""
    body = ctx.text[rp + 1:semi].strip() if semi > 0 else ""
    example = "{int} F = {i*i | i in 1..10 : i < 4};"
    fix = None
    if quals and body and " in " in " %s " % quals and "\n" not in body and _balanced(body):
        new = "{%s | %s}" % (body, quals)
        decl = " ".join(ctx.text[ctx.at - len(ctx.statement):m.start()].split())
        example = "%s %s;" % (decl, new) if decl.endswith("=") else new
        fix = _fix(ctx, m.start(), semi, new, "rewrite as `%s`" % new, "maybe-incorrect")
    return Mistake("syntax-setof-comprehension", ctx.span,
                   "`setof(%s)` is a type, as in `setof(%s) S = ...;`, and takes no iterator" % (m.group(1), m.group(1)),
                   "a set built by iteration is a comprehension `{expression | iterators : filter}`: `%s`" % example, fix)


def _ampl_braces(ctx: Context) -> Mistake | None:
    """`sum{i in I} x[i]` (AMPL): OPL takes the iterators in parentheses."""
    if ctx.kind != "model" or ctx.tok != "{" or ctx.prev not in _AGGREGATES:
        return None
    close = _matching(ctx.text, ctx.at, "{}")
    if close < 0 or " in " not in ctx.text[ctx.at:close]:
        return None
    inner = ctx.text[ctx.at + 1:close]
    fix = Fix("replace `{ }` with `( )`", (Edit(ctx.span_of(ctx.at, ctx.at + 1), "("), Edit(ctx.span_of(close, close + 1), ")")),
              "machine-applicable")
    return Mistake("syntax-ampl-braces", ctx.span, "`%s{...}` is AMPL; OPL takes the iterators in parentheses: `%s(%s)`" % (
        ctx.prev, ctx.prev, inner.strip() if len(inner) <= 40 else "..."), "write `%s(i in I) ...`" % ctx.prev, fix)


def blank_comments(text: str) -> str:
    """``text`` with its comments (``// ...`` and ``/* ... */``) turned into blanks of the same length,
    so the rules that look at a statement's first words see them behind a comment too."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def _double_equals_in_decl(ctx: Context) -> Mistake | None:
    if ctx.tok == "=" and ctx.prev == "=" and ctx.prev_at == ctx.at - 1 and not ctx.in_constraints:
        return Mistake("syntax-equals-in-declaration", ctx.span_of(ctx.at - 1, ctx.at + 1),
                       "a declaration's value follows `=`, not `==`",
                       "write `=`", _fix(ctx, ctx.at - 1, ctx.at + 1, "=", "replace `==` with `=`"))
    return None


def _power(ctx: Context) -> Mistake | None:
    if ctx.tok == "*" and ctx.prev == "*" and ctx.prev_at == ctx.at - 1:
        return Mistake("syntax-python-power", ctx.span_of(ctx.at - 1, ctx.at + 1), "`**` is not OPL; a power is written `^`",
                       "write `^`", _fix(ctx, ctx.at - 1, ctx.at + 1, "^", "replace `**` with `^`"))
    return None


def _forall_equals(ctx: Context) -> Mistake | None:
    if ctx.tok == "=" and "IN" in ctx.expected:
        return Mistake("syntax-iterator-equals", ctx.span, "an iterator takes its values with `in`, not `=`",
                       "write `in`", _fix(ctx, ctx.at, ctx.at + 1, "in", "replace `=` with `in`"))
    return None


def _diamond(ctx: Context) -> Mistake | None:
    if ctx.tok == ">" and ctx.prev == "<" and ctx.prev_at == ctx.at - 1:
        return Mistake("syntax-not-equal-diamond", ctx.span_of(ctx.at - 1, ctx.at + 1), "`<>` is not OPL; not-equal is `!=`",
                       "write `!=`", _fix(ctx, ctx.at - 1, ctx.at + 1, "!=", "replace `<>` with `!=`"))
    return None


def _missing_comma(ctx: Context) -> Mistake | None:
    if "COMMA" in ctx.expected and ctx.tok_type in ("NUMBER", "STRING") and \
            re.fullmatch(r'[\w"\.]+', ctx.prev or "") and ctx.prev not in _TYPE_WORDS:
        end = ctx.prev_at + len(ctx.prev)
        return Mistake("syntax-missing-comma", ctx.span, "missing `,` between list elements",
                       "separate the elements with `,`",
                       Fix("insert `,`", (Edit(ctx.span_of(end, end), ","),), "maybe-incorrect"))
    return None


def _closer(ctx: Context) -> Mistake | None:
    if ctx.tok not in (")", "]", "}"):
        return None
    opened = unclosed_bracket(ctx.text, ctx.at)
    pairs = {"(": ")", "[": "]", "{": "}"}
    if opened is None:
        return Mistake("syntax-extra-closer", ctx.span, "this `%s` closes nothing" % ctx.tok,
                       "remove it", _fix(ctx, ctx.at, ctx.at + 1, "", "remove `%s`" % ctx.tok, "maybe-incorrect"))
    want = pairs[opened[0]]
    if want != ctx.tok:
        m = Mistake("syntax-mismatched-closer", ctx.span, "`%s` closes the `%s` opened on line %d, which needs `%s`" % (
            ctx.tok, opened[0], _line_col(ctx.text, opened[1])[0], want), "write `%s`" % want,
                    _fix(ctx, ctx.at, ctx.at + 1, want, "replace `%s` with `%s`" % (ctx.tok, want), "maybe-incorrect"))
        m.labels = [Label(ctx.span_of(opened[1], opened[1] + 1), "opened here")]  # type: ignore[attr-defined]
        return m
    return None


#: `piecewise{...}(v)` at the end of the statement so far: one value where the anchor point needs two.
_PW_ONE_VALUE = re.compile(r"\bpiecewise\s*(?:\([^()]*\))?\s*\{[^{}]*\}\s*(\([^(),]*\))\s*$")


def _piecewise_anchor(ctx: Context) -> Mistake | None:
    """`piecewise{...}(0) x`: the `(0)` was taken as the argument, and `x` follows with no operator."""
    if ctx.tok_type in ("SEMICOLON", "RPAR", "RBRACE", "COMMA"):
        return None
    m = _PW_ONE_VALUE.search(ctx.statement)
    if m is None:
        return None
    start = ctx.at - len(ctx.statement) + m.start(1)
    point = m.group(1)
    return Mistake("syntax-piecewise-anchor", ctx.span_of(start, start + len(point)),
                   "`%s` after `piecewise{...}` is read as the function's argument, so `%s` has no operator "
                   "before it: the point the function passes through is written `(x0, y0)`" % (point, ctx.tok),
                   "give both coordinates, e.g. `(%s, 0)`, or drop the point (the function then passes "
                   "through (0, 0))" % point[1:-1].strip())


def _juxtaposition(ctx: Context) -> Mistake | None:
    if ctx.tok_type in ("NAME", "LPAR") and re.fullmatch(r"\d+(\.\d*)?", ctx.prev or "") and \
            ctx.statement.strip() and not ctx.statement.rstrip().endswith(("..", ",")):
        end = ctx.prev_at + len(ctx.prev)
        return Mistake("syntax-missing-operator", ctx.span, "missing operator between `%s` and %s" % (ctx.prev, "`%s`" % ctx.tok),
                       "OPL needs `*` for products: `%s * %s`" % (ctx.prev, ctx.tok),
                       Fix("insert `*`", (Edit(ctx.span_of(end, end), " *"),), "maybe-incorrect"))
    return None


def _dvar_type(ctx: Context) -> Mistake | None:
    m = re.match(r"\s*dvar\s+([A-Za-z_]\w*)\s*$", ctx.statement)
    if ctx.prev == "dvar":
        word, at, is_name = ctx.tok, ctx.at, ctx.tok_type == "NAME" or ctx.tok in ("string", "range")
    elif m and m.group(1) not in ("int", "float", "boolean"):
        word, at, is_name = m.group(1), ctx.at - len(ctx.statement) + m.start(1), True
    else:
        return None
    span = ctx.span_of(at, at + len(word))
    if word in _CP_DVAR_TYPES:
        return Mistake("unsupported-cp-variable", span, "`dvar %s` is a CP Optimizer variable, which pyopl does not support" % word,
                       "model the schedule with integer start times or time-indexed binary variables")
    if word in ("interval", "sequence", "cumulFunction"):
        return None  # CP's own declarations (docs/cp.md): the parser's message says what is wrong after them
    good = _DVAR_TYPES.get(word) or near_miss(word, ["int", "float", "boolean", "int+", "float+"])
    if is_name:
        return Mistake("syntax-dvar-type", span, "`%s` is not a decision variable type" % word,
                       ("did you mean `%s`? " % good if good else "") + "decision variables are `int`, `int+`, `float`, "
                       "`float+` or `boolean`",
                       _fix(ctx, at, at + len(word), good, "replace with `%s`" % good) if good and word != "string" else None)
    return None


def _dvar_init(ctx: Context) -> Mistake | None:
    if ctx.tok == "=" and re.match(r"\s*dvar\b", ctx.statement):
        name = re.match(r"\s*dvar\s+\S+\s+(\w+)", ctx.statement)
        n = name.group(1) if name else "x"
        return Mistake("syntax-dvar-initialised", ctx.span, "a decision variable gets its value from the solver, not from `=`",
                       "to fix its value, write a constraint `%s == ...;`; for data, drop `dvar`" % n)
    return None


def _dexpr_no_value(ctx: Context) -> Mistake | None:
    if ctx.tok == ";" and re.match(r"\s*dexpr\b", ctx.statement) and "=" not in ctx.statement:
        return Mistake("syntax-dexpr-without-expression", ctx.span, "a `dexpr` needs `= expression`",
                       "write `dexpr float name = expression;`")
    return None


def _tuple_comma(ctx: Context) -> Mistake | None:
    before = ctx.text[:ctx.at]
    k = before.rfind("tuple")
    if ctx.tok == "," and k >= 0 and "}" not in before[k:] and re.match(r"tuple\s+\w+\s*\{", before[k:]):
        return Mistake("syntax-tuple-field-separator", ctx.span, "tuple fields end with `;`, not `,`",
                       "write `tuple T { int a; int b; }`", _fix(ctx, ctx.at, ctx.at + 1, ";", "replace `,` with `;`"))
    return None


def _declaration_in_constraints(ctx: Context) -> Mistake | None:
    if ctx.in_constraints and ctx.prev in _TYPE_WORDS and ctx.statement.strip() == ctx.prev:
        return Mistake("syntax-declaration-in-constraints", ctx.span_of(ctx.prev_at, ctx.prev_at + len(ctx.prev)),
                       "declarations cannot appear inside `subject to { ... }`",
                       "move the declaration above the objective")
    return None


def _objective_in_constraints(ctx: Context) -> Mistake | None:
    if ctx.in_constraints and (ctx.tok in ("minimize", "maximize") or ctx.prev in ("minimize", "maximize")):
        word, at = (ctx.tok, ctx.at) if ctx.tok in ("minimize", "maximize") else (ctx.prev, ctx.prev_at)
        return Mistake("syntax-objective-in-constraints", ctx.span_of(at, at + len(word)),
                       "the objective cannot be inside `subject to { ... }`", "move `%s ...;` above `subject to`" % word)
    return None


def _constraint_outside(ctx: Context) -> Mistake | None:
    if ctx.kind != "model" or ctx.in_constraints:
        return None
    if ctx.tok in ("<=", ">=", "=="):
        return Mistake("syntax-constraint-outside-block", ctx.span,
                       "a constraint must be inside `subject to { ... }`, and `subject to` is missing before it",
                       "put it in the `subject to { ... }` block")
    label = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*", ctx.statement)
    if ctx.tok == ":" and label and label.group(1) not in _TYPE_WORDS:  # `c1: x <= 3;` above any `subject to`
        return Mistake("syntax-constraint-outside-block", ctx.span,
                       "the labelled constraint `%s` must be inside `subject to { ... }`, and `subject to` is missing "
                       "before it" % label.group(1), "put it in the `subject to { ... }` block")
    m = re.match(r"\s*forall\b", ctx.statement)
    if m and ctx.tok == "(":
        at = ctx.at - len(ctx.statement) + m.end() - 6
        return Mistake("syntax-constraint-outside-block", ctx.span_of(at, at + 6),
                       "this `forall` of constraints is outside `subject to { ... }`: `subject to` is missing before it",
                       "put the constraints in a `subject to { ... }` block after the objective")
    return None


def _subject_to_brace(ctx: Context) -> Mistake | None:
    if ctx.prev in ("to", "constraints") and ctx.tok != "{" and "LBRACE" in ctx.expected:
        end = ctx.prev_at + len(ctx.prev)
        return Mistake("syntax-missing-constraints-brace", ctx.span, "`%s` must be followed by `{`" % (
            "subject to" if ctx.prev == "to" else "constraints"), "write `subject to { ...constraints... }`",
                       Fix("insert `{` and a closing `}`", (Edit(ctx.span_of(end, end), " {"),
                                                            Edit(ctx.span_of(len(ctx.text), len(ctx.text)), "\n}")),
                           "maybe-incorrect"))
    return None


def _aggregate_parens(ctx: Context) -> Mistake | None:
    if ctx.prev in ("sum", "prod", "forall") and ctx.tok_type == "NAME":
        return Mistake("syntax-aggregate-parentheses", ctx.span, "`%s` takes its iterators in parentheses" % ctx.prev,
                       "write `%s(%s in ...) ...`" % (ctx.prev, ctx.tok))
    return None


def _misspelled_keyword(ctx: Context) -> Mistake | None:
    first = re.match(r"\s*([A-Za-z_]\w*)", ctx.statement)
    if not first or ctx.kind != "model":
        return None
    word = first.group(1)
    if len(word) < 4:  # too short to call a misspelling of a keyword
        return None
    start = ctx.at - len(ctx.statement) + first.start(1)
    if word == "struct":  # IBM's "Summary table of OPL keywords": deprecated, use `tuple`
        return Mistake("syntax-misspelled-keyword", ctx.span_of(start, start + len(word)),
                       "`struct` is a deprecated OPL keyword; tuple types are declared with `tuple`", "write `tuple`",
                       _fix(ctx, start, start + len(word), "tuple", "replace with `tuple`"))
    good = _SPELLINGS.get(word.lower()) if word.lower() in _SPELLINGS else near_miss(word, _KEYWORD_WORDS)
    if not good or good == word:
        return None
    if word in _KEYWORD_WORDS or word in ("int", "float", "string", "boolean", "constraint", "key", "ordered", "sorted",
                                          "setof", "assert", "include", "main"):
        return None
    return Mistake("syntax-misspelled-keyword", ctx.span_of(start, start + len(word)),
                   "`%s` is not an OPL keyword; did you mean `%s`?" % (word, good), "write `%s`" % good,
                   _fix(ctx, start, start + len(word), good, "replace with `%s`" % good))


def _keyword_as_label(ctx: Context) -> Mistake | None:
    if ctx.tok == ":" and ctx.prev in KEYWORDS and ctx.statement.strip() == ctx.prev:
        return Mistake("syntax-reserved-word", ctx.span_of(ctx.prev_at, ctx.prev_at + len(ctx.prev)),
                       "`%s` is a reserved word and cannot be used as a label" % ctx.prev,
                       "rename it, for example `ct%s`" % ctx.prev.capitalize())
    return None


_STATEMENT_WORDS = {"dvar", "dexpr", "int", "float", "string", "boolean", "range", "tuple", "minimize", "maximize",
                    "subject", "constraints", "execute", "main", "using", "assert", "include", "constraint", "pwlFunction",
                    "setof", "ordered", "sorted", "{"}


def _external_in_expression(ctx: Context) -> Mistake | None:
    if ctx.prev == "..." and ctx.kind == "model" and (
            ctx.tok in _STATEMENT_WORDS or "\n" in ctx.text[ctx.prev_at + 3:ctx.at]):
        # `int n = ...` then the next declaration: the `;` is missing, not an expression around `...`
        end = ctx.prev_at + 3
        return Mistake("syntax-missing-semicolon", ctx.span_of(end, end), "missing `;` after `...`",
                       "add `;` here", _fix(ctx, end, end, ";", "insert `;`"))
    if ctx.prev == "..." and ctx.kind == "model":
        return Mistake("data-external-in-expression", ctx.span_of(ctx.prev_at, ctx.prev_at + 3),
                       "`...` stands for the whole value from the data and cannot be part of an expression",
                       "declare the data item alone (`int n0 = ...;`) and compute with it in another declaration")
    return None


def _unsupported_cp_statement(ctx: Context) -> Mistake | None:
    """A statement with a form pyopl's grammar does not take, for a construct it does not compile:
    ``stepwise(i in I) {...}`` (a stepwise function built over an index, OPL0622) and a
    ``stateFunction`` array or one with a transition distance (``stateFunction s[h] with M``, OPL0621),
    named at the word rather than at the token the parser stopped on."""
    stmt = ctx.statement
    m = re.search(r"\bstepwise\b", stmt)
    if m:
        at = ctx.at - len(stmt) + m.start()
        return Mistake("unsupported-stepwise", ctx.span_of(at, at + 8), "`stepwise` functions are not supported",
                       "model the steps with binary variables, one per step (or an integer table and `element` "
                       "in a CP model)")
    m = re.match(r"\s*stateFunction\s+\w+\s*(\[[^;]*\])?\s*(with\b)?", stmt)
    if m and m.group(2):
        at = ctx.at - len(stmt) + m.start() + stmt[m.start():].index("stateFunction")
        return Mistake("unsupported-cp-variable", ctx.span_of(at, at + 13), "a `stateFunction` is compiled to "
                       "CP-SAT without a transition distance, and this one is declared with one (`with`)",
                       "declare `stateFunction f;` (or an array `stateFunction f[I];`) without `with`")
    return None


def _unsupported_words(ctx: Context) -> Mistake | None:
    if ctx.tok in ("stepwise",) or ctx.prev == "stepwise":
        at = ctx.at if ctx.tok == "stepwise" else ctx.prev_at
        return Mistake("unsupported-stepwise", ctx.span_of(at, at + 8), "`stepwise` functions are not supported",
                       "model the steps with binary variables, one per step")
    return None


# ---------------------------------------------------------------------- data rules
def _data_declaration(ctx: Context) -> Mistake | None:
    stmt = ctx.statement
    m = re.match(r"\s*((?:int|float|string|boolean|range)\+?|\{\s*\w+\s*\})\s+$", stmt)
    if m and ctx.kind == "data" and ctx.tok_type == "NAME":
        start = ctx.at - len(stmt) + m.start(1)
        end = ctx.at
        return Mistake("syntax-data-declaration", ctx.span_of(start, end),
                       "a data file gives values only; the type belongs in the model",
                       "write `name = value;`", _fix(ctx, start, end, "", "remove the type"))
    return None


def _data_rest(ctx: Context) -> Mistake | None:
    if ctx.kind != "data" or ctx.tok_type != "REST":
        return None
    if ctx.tok.startswith('"'):
        return Mistake("syntax-data-unclosed-string", ctx.span_of(ctx.at, ctx.at + 1), "this string is never closed",
                       'end the string with `"` on the same line')
    if ctx.tok.startswith("/*"):  # (a closed one is a comment the lexer skips; the model says OPL0009 too)
        return Mistake("syntax-unclosed-comment", ctx.span_of(ctx.at, ctx.at + 2), "this `/*` comment is never closed",
                       "close the comment with `*/`")
    ch = ctx.tok[0]
    if ch.isalnum() or ch in "_=;,[]{}<>#:-+.()/ \t\n":
        return None
    return Mistake("syntax-data-unexpected-character", ctx.span_of(ctx.at, ctx.at + 1),
                   "the character `%s` is not allowed here" % ch, "remove it",
                   _fix(ctx, ctx.at, ctx.at + 1, "", "remove `%s`" % ch, "maybe-incorrect"))


def _data_expression(ctx: Context) -> Mistake | None:
    if ctx.kind == "data" and ctx.tok in ("+", "-", "*", "/") and "SEMICOLON" in ctx.expected:
        return Mistake("syntax-data-expression", ctx.span, "a data file holds literal values, not expressions",
                       "compute the value (or write the expression in the model)")
    return None


def _data_colon_equals(ctx: Context) -> Mistake | None:
    """`n := 3;` in a .dat: the same mistake, code and fix as in a model (OPL0017)."""
    if ctx.kind == "data" and ctx.text.startswith(":=", ctx.at):
        return Mistake("syntax-colon-equals", ctx.span_of(ctx.at, ctx.at + 2), "`:=` is not OPL; a data item's value follows `=`",
                       "write `=`", _fix(ctx, ctx.at, ctx.at + 2, "=", "replace `:=` with `=`"))
    return None


def _data_hash_comment(ctx: Context) -> Mistake | None:
    """`# note` in a .dat: `#` opens only `#[...]#` and `#<...>#` there; comments are `//` and `/* */`
    (IBM's data files take the model's comments)."""
    if ctx.kind != "data" or not ctx.text.startswith("#", ctx.at) or ctx.text.startswith(("#[", "#<"), ctx.at):
        return None
    return Mistake("syntax-data-unexpected-character", ctx.span_of(ctx.at, ctx.at + 1),
                   "`#` does not start a comment in an OPL data file", "write the comment after `//` (or between `/*` and `*/`)",
                   _fix(ctx, ctx.at, ctx.at + 1, "//", "replace `#` with `//`", "maybe-incorrect"))


def _data_empty_field(ctx: Context) -> Mistake | None:
    """`<1,,2>` or `[1,,2]`: a value is missing between two commas (OPL's data parser rejects it too)."""
    if ctx.kind != "data" or not ctx.text.startswith(",", ctx.at):
        return None
    k = ctx.at - 1
    while k >= 0 and ctx.text[k] in " \t\r\n":
        k -= 1
    if k < 0 or ctx.text[k] not in ",<[{":
        return None
    opener = ctx.text[k] if ctx.text[k] != "," else _innermost_opener(ctx.text, k)
    what = {"<": "a tuple", "[": "an array", "{": "a set"}.get(opener, "this value")
    return Mistake("data-empty-field", ctx.span_of(ctx.at, ctx.at + 1),
                   "a value is missing before this `,` in %s" % what,
                   "write the missing value, or remove the extra `,`",
                   _fix(ctx, ctx.at, ctx.at + 1, "", "remove the extra `,`", "maybe-incorrect"))


def _innermost_opener(text: str, k: int) -> str:
    """The bracket (`<`, `[` or `{`) that encloses offset ``k`` of a data value ('' if none)."""
    depth = 0
    while k >= 0:
        ch = text[k]
        if ch in ">]}":
            depth += 1
        elif ch in "<[{":
            if depth == 0:
                return ch
            depth -= 1
        elif ch in ";=":
            return ""
        k -= 1
    return ""


MODEL_RULES: list[Callable[[Context], Mistake | None]] = [
    _unsupported_cp_statement, _colon_equals, _st_abbreviation, _subject_to_colon, _python_comprehension, _setof_comprehension,
    _ampl_braces,
    _reversed_comparison, _double_equals_in_decl, _power, _dvar_type, _dvar_init, _forall_equals,
    _equals_in_constraint,
    _diamond, _dexpr_no_value, _tuple_comma, _objective_in_constraints, _declaration_in_constraints,
    _subject_to_brace, _aggregate_parens, _keyword_as_label, _external_in_expression, _unsupported_words, _misspelled_keyword,
    _constraint_outside, _closer, _missing_comma, _piecewise_anchor, _juxtaposition,
]
DATA_RULES: list[Callable[[Context], Mistake | None]] = [_data_colon_equals, _data_hash_comment, _data_empty_field, _data_rest, _data_declaration, _data_expression, _closer, _missing_comma]


def match_mistake(ctx: Context) -> Mistake | None:
    """The first rule of the table that recognises the error, or None."""
    for rule in (MODEL_RULES if ctx.kind == "model" else DATA_RULES):
        m = rule(ctx)
        if m is not None:
            return m
    return None
