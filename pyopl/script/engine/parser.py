"""Parse IBM ILOG Script text into the AST of :mod:`pyopl.script.language.ast`.

The grammar is ``grammar/script.lark`` (LALR(1), basic lexer).  The tokens are fed to
Lark's interactive parser one by one so that two things ECMAScript needs, and that an
LALR grammar cannot say, happen here:

* ``{`` is a block wherever the parser accepts a block (statement position, function
  bodies) and an object literal elsewhere (ECMAScript 3, 12.4: an expression statement
  cannot start with ``{``);
* automatic semicolon insertion (ECMAScript 3, 7.9.1): when the next token cannot follow
  and a line break or ``}`` comes before it (or the text ends), a ``;`` is inserted if the
  parser takes one; ``return``, ``break`` and ``continue`` followed by a line break, and
  ``++``/``--`` after a line break, get one too (the "restricted productions").

Spans are positions in the ``.mod`` file: the caller passes the line and column where the
script text starts.  Parsing stops at the first error (one diagnostic).
"""
from __future__ import annotations

import functools
import math

from ...lazy_names import import_deferring

import_deferring("lark", "regex")  # (its optional `regex` loads when first used: pyopl.lazy_names)
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ...diagnostics.diagnostic import Diagnostic, Span
from ..language import ast as A
from ..language.values import NULL, ScriptError

MAX_NESTING = 200  # depth of the syntax tree; deeper input is a diagnostic, never a RecursionError
MAX_TOKENS = 400_000  # tokens of one script (about 1.5 MB of code); past it a diagnostic, not minutes of parsing
_LINE_TERMINATORS = ("\n", "\r", "\u2028", "\u2029")


@functools.lru_cache(maxsize=None)
def script_parser() -> Lark:
    """The compiled LALR parser of ``grammar/script.lark``, once per process, its tables from
    the private cache (:mod:`pyopl.syntax.parser_cache`; building them takes 0.7 s).  Its
    ``lex`` reads tokens with one lexer of every terminal, made once here."""
    from ...syntax.parser_cache import lark_parser

    parser = lark_parser("script")
    parser.lexer = parser._build_lexer()  # (what `Lark.lex` would otherwise build at each call)
    return parser


@functools.lru_cache(maxsize=None)
def _terminal_text() -> dict:
    out = {}
    for t in script_parser().terminals:
        out[t.name] = t.pattern.value if t.pattern.type == "str" else None
    out.update(NAME="a name", NUMBER="a number", STRING="a string", BLOCK_LBRACE="{", LBRACE="{", SEMI=";")
    return out


def parse_script(text: str, file: str = "<script>", line: int = 1, column: int = 1) -> A.Program | list[Diagnostic]:
    """Parse ``text``, the body of an ``execute``/``main`` block.

    ``line``/``column`` (1-based) say where ``text[0]`` sits in ``file``, so every span of
    the result points into the ``.mod``.  Returns the :class:`~pyopl.script.language.ast.Program`,
    or a list with the one syntax diagnostic (code OPL1000, OPL1011, OPL1012 or OPL1013).
    """
    try:
        return _Parser(text, file, line, column).run()
    except ScriptError as e:
        return [e.to_diagnostic()]
    except RecursionError:  # pragma: no cover - MAX_NESTING keeps the tree shallow
        return [ScriptError("script-nesting-too-deep", "the script is nested too deeply",
                            Span(file, line, column, line, column + 1),
                            "split the script into smaller functions").to_diagnostic()]
    except Exception as e:  # a bug of pyopl, never a traceback for the user
        return [ScriptError("internal-error", "internal error while parsing the script (%s)" % type(e).__name__,
                            Span(file, line, column, line, column + 1),
                            "please report this to the pyopl developers with the model").to_diagnostic()]


class _Parser:
    def __init__(self, text: str, file: str, line: int, column: int):
        self.max_tokens = MAX_TOKENS
        self.text = text
        self.file = file
        self.line0 = line
        self.col0 = column

    # --- positions ---------------------------------------------------------------------

    def span(self, line: int, col: int, end_line: int, end_col: int) -> Span:
        l1 = self.line0 + line - 1
        c1 = col + self.col0 - 1 if line == 1 else col
        l2 = self.line0 + end_line - 1
        c2 = end_col + self.col0 - 1 if end_line == 1 else end_col
        return Span(self.file, l1, c1, l2, max(c2, c1 + 1) if l2 == l1 else c2)

    def tok_span(self, t: Token) -> Span:
        return self.span(t.line, t.column, t.end_line, t.end_column)

    def tree_span(self, t) -> Span:
        if isinstance(t, Token):
            return self.tok_span(t)
        m = t.meta
        if getattr(m, "empty", True):
            for c in t.children:
                return self.tree_span(c)
            return self.span(1, 1, 1, 2)
        return self.span(m.line, m.column, m.end_line, m.end_column)

    def error(self, message: str, span: Span, help: str, slug: str = "script-syntax-error") -> ScriptError:
        return ScriptError(slug, message, span, help)

    # --- tokens to tree --------------------------------------------------------------------

    def run(self) -> A.Program:
        tree = self.parse_tree()
        self.check_depth(tree)
        self.loops = 0
        self.switches = 0
        self.labels: list = []  # [(name, is_loop)] of the labelled statements around
        self.in_function = False
        prog = self.program(tree)
        return prog

    def tokens(self):
        """The tokens of the text: Lark's lexer, plus regular-expression literals (7.8.5), which
        only the previous token tells from a division (a `/` where an expression may start)."""
        from lark.lexer import LexerState, LineCounter
        from lark.utils import TextSlice

        lexer = script_parser().lexer
        state = LexerState(TextSlice.cast_from(self.text), LineCounter("\n"))
        count = 0
        prev = None
        headers: list[bool] = []  # per open `(`: whether it opens an `if`/`for`/`while`/`with` header
        after_header = False  # `prev` is the `)` that closed such a header: a statement, so a regex, may follow
        try:
            while True:
                try:
                    tok = lexer.next_token(state, None)
                except EOFError:
                    return
                count += 1
                if count > self.max_tokens:
                    raise self.error("the script has more than %d tokens" % self.max_tokens, self.tok_span(tok),
                                     "split it into smaller scripts or move data into the `.dat` file",
                                     "script-too-long")
                if tok.type == "NAME":
                    if "\\" in tok.value:  # 7.6: `\u0061` in a name is `a`
                        tok = Token.new_borrow_pos("NAME", _unescape(tok.value), tok)
                        if tok.value in _KEYWORD_WORDS:
                            raise self.error("`%s` written with escapes is still the keyword, not a name" % tok.value,
                                             self.tok_span(tok), "choose another name")
                    if tok.value in _RESERVED:
                        raise self.error("`%s` is a reserved word of ECMAScript and cannot be a name" % tok.value,
                                         self.tok_span(tok), "choose another name")
                elif tok.value in ("/", "/=") and not self.text.startswith("/*", tok.start_pos) and (prev is None or not (
                        (prev.type in _BEFORE_DIVISION and not after_header) or prev.value in ("++", "--"))):
                    end = self._regex_end(tok)
                    state.line_ctr.feed(self.text[tok.end_pos:end], test_newline=False)
                    tok = Token("REGEX", self.text[tok.start_pos:end], tok.start_pos, tok.line, tok.column,
                                tok.line, tok.column + end - tok.start_pos, end)
                if tok.type == "LPAR":
                    headers.append(prev is not None and prev.type in _HEADER_KEYWORDS)
                after_header = tok.type == "RPAR" and bool(headers) and headers.pop()
                prev = tok
                yield tok
        except UnexpectedCharacters as e:
            ch = self.text[e.pos_in_stream] if e.pos_in_stream < len(self.text) else ""
            sp = self.span(e.line, e.column, e.line, e.column + 1)
            if ch in "\"'":
                raise self.error("this string is not closed on its line", sp,
                                 "end the string with `%s` before the end of the line" % ch)
            from ...syntax.words import TYPOGRAPHIC

            if ch in TYPOGRAPHIC:  # pasted from a word processor or a PDF
                ascii_, what = TYPOGRAPHIC[ch]
                raise self.error("`%s` (%s) is not the script's `%s`" % (ch, what, ascii_), sp, "write `%s`" % ascii_)
            raise self.error("unexpected character `%s` in the script" % ch, sp,
                             "remove it; a script is written in IBM ILOG Script (JavaScript)")

    def _regex_end(self, tok: Token) -> int:
        """Where the regular-expression literal starting at ``tok`` ends (after its flags)."""
        text = self.text
        j = tok.start_pos + 1
        in_class = False
        while True:
            c = text[j] if j < len(text) else "\n"
            if c in _LINE_TERMINATORS:
                sp = self.span(tok.line, tok.column, tok.line, tok.column + 1)
                raise self.error("this regular expression is not closed on its line", sp,
                                 "end it with `/` (write `\\/` for a slash inside it)")
            if c == "\\":
                j += 2 if (j + 1 < len(text) and text[j + 1] not in _LINE_TERMINATORS) else 1
                continue
            if in_class:
                in_class = c != "]"
            elif c == "[":
                in_class = True
            elif c == "/":
                break
            j += 1
        j += 1
        while j < len(text) and (text[j].isalnum() or text[j] in "_$"):
            j += 1
        return j

    def parse_tree(self) -> Tree:
        ip = script_parser().parse_interactive(None)
        self.fed: list = []  # every token given to the parser (inserted `;` included), to explain an error
        prev = None
        depth = 0
        opened: list = []  # open brackets; "for" for the parentheses of a `for` header (no `;` inserted there)
        closed = None
        for tok in self.tokens():
            newline = prev is not None and _has_line_break(self.text, prev.end_pos, tok.start_pos)
            if tok.type == "LBRACE" and "BLOCK_LBRACE" in ip.choices():
                tok = Token.new_borrow_pos("BLOCK_LBRACE", tok.value, tok)
            closed = None
            if tok.type in ("LPAR", "LBRACK", "LBRACE", "BLOCK_LBRACE"):
                opened.append("for" if (tok.type == "LPAR" and prev is not None and prev.type == "FOR") else tok.type)
                depth += 1
                if depth > MAX_NESTING:
                    raise self.error("brackets nested too deeply", self.tok_span(tok),
                                     "split the expression or statement into smaller ones (at most %d levels)" % MAX_NESTING,
                                     "script-nesting-too-deep")
            elif tok.type in ("RPAR", "RSQB", "RBRACE"):
                depth -= 1
                closed = opened.pop() if opened else None
            restricted = prev is not None and newline and (
                prev.type in ("RETURN", "BREAK", "CONTINUE", "THROW") or tok.value in ("++", "--"))
            if restricted and prev.type == "THROW":
                raise self.error("`throw` and the value it throws must be on the same line", self.tok_span(prev),
                                 "write `throw value;` on one line (12.13)")
            if restricted and tok.type != "SEMI" and "SEMI" in ip.choices():
                self.feed(ip, self._semi(prev, tok), tok)
            try:
                self._feed_raw(ip, tok)
            except UnexpectedToken:
                # ECMAScript 7.9.1: a `;` goes in before an offending token that follows a line break
                # or is `}` (LALR may have made some reductions on the way; the state is still valid).
                if not (newline or tok.type == "RBRACE") or tok.type == "SEMI" or "SEMI" not in ip.choices() or (
                        opened and opened[-1] == "for") or (tok.type == "RPAR" and closed == "for"):
                    raise self._unexpected(tok)
                self.feed(ip, self._semi(prev, tok), tok)
                self.feed(ip, tok, tok)
            prev = tok
        if "$END" not in ip.choices() and "SEMI" in ip.choices() and prev is not None:
            self.feed(ip, self._semi(prev, None), None)
        end = Token("$END", "", len(self.text), *self._end_pos(prev))
        try:
            return ip.feed_token(end)
        except UnexpectedToken:
            raise self._unexpected(None, prev)

    def _end_pos(self, prev):
        if prev is None:
            return (1, 1, 1, 1, 0)
        return (prev.end_line, prev.end_column, prev.end_line, prev.end_column + 1, prev.end_pos)

    def _semi(self, prev: Token | None, tok: Token | None) -> Token:
        if prev is not None:  # the inserted `;` sits just after the unfinished statement
            return Token("SEMI", ";", prev.end_pos, prev.end_line, prev.end_column,
                         prev.end_line, prev.end_column + 1, prev.end_pos)
        return Token.new_borrow_pos("SEMI", ";", tok)

    def _feed_raw(self, ip, tok: Token) -> None:
        ip.feed_token(tok)
        self.fed.append(tok)

    def feed(self, ip, tok: Token, culprit: Token | None) -> None:
        """Feed ``tok``; on failure report ``culprit`` (the source token that could not follow)."""
        try:
            self._feed_raw(ip, tok)
        except UnexpectedToken:
            raise self._unexpected(culprit, self.fed[-1] if self.fed else None)

    def _accepted(self) -> set:
        """The terminals a fresh parser takes after the tokens fed so far (only computed for errors)."""
        ip = script_parser().parse_interactive(None)
        try:
            for t in self.fed:
                ip.feed_token(t)
            return set(ip.accepts())
        except UnexpectedInput:  # pragma: no cover - the same tokens were accepted once already
            return set()

    def _unexpected(self, got: Token | None, last: Token | None = None) -> ScriptError:
        expected = _expected_words(self._accepted())
        if got is None:
            tok = last if last is not None else (self.fed[-1] if self.fed else None)
            sp = self.tok_span(tok) if tok is not None else self.span(1, 1, 1, 2)
            sp = Span(sp.file, sp.end_line, sp.end_column, sp.end_line, sp.end_column + 1)
            return self.error("the script ends before this statement is complete", sp,
                              "expected %s here" % expected if expected else "complete the statement")
        sp = self.tok_span(got)
        if got.type == "SLASH" and self.text.startswith("/*", got.start_pos):
            return self.error("this comment is not closed", sp, "end the comment with `*/`")
        what = got.value if len(got.value) <= 30 else got.value[:27] + "..."
        msg = "unexpected `%s` in the script" % what
        if got.type in _KEYWORDS:
            msg = "unexpected keyword `%s` in the script" % what
        return self.error(msg, sp, "expected %s here" % expected if expected else "remove or complete it")

    def check_depth(self, tree: Tree) -> None:
        stack = [(tree, 1)]
        while stack:
            node, d = stack.pop()
            if d > MAX_NESTING:
                raise self.error("the script is nested too deeply", self.tree_span(node),
                                 "split the expression or statement into smaller ones (at most %d levels)" % MAX_NESTING,
                                 "script-nesting-too-deep")
            for c in node.children:
                if isinstance(c, Tree):
                    stack.append((c, d + 1))

    # --- tree to AST -----------------------------------------------------------------------

    def program(self, tree: Tree) -> A.Program:
        body = [self.stmt(c) for c in tree.children]
        prog = A.Program(self.tree_span(tree) if tree.children else self.span(1, 1, 1, 2), body)
        _hoist(prog.body, prog.var_names, prog.functions)
        return prog

    def stmt(self, t: Tree):
        return getattr(self, "s_" + t.data)(t, self.tree_span(t))

    def stmts(self, items) -> list:
        return [self.stmt(c) for c in items if isinstance(c, Tree)]

    def s_block(self, t, sp):
        return A.Block(sp, self.stmts(t.children))

    def s_var_stmt(self, t, sp):
        return A.VarDecl(sp, [self.var_decl(c) for c in t.children if isinstance(c, Tree)])

    def var_decl(self, t):
        name = t.children[0]
        init = None
        if len(t.children) > 1:
            op = t.children[1].children[0]
            if op.value != "=":
                raise self.error("`var %s` takes `=`, not `%s`" % (name.value, op.value), self.tok_span(op),
                                 "write `var %s = ...`" % name.value)
            init = self.expr(t.children[2])
        return (name.value, init, self.tok_span(name))

    def s_empty_stmt(self, t, sp):
        return A.Empty(sp)

    def s_expr_stmt(self, t, sp):
        return A.ExprStmt(sp, self.expr(t.children[0]))

    def s_if_stmt(self, t, sp):
        c = t.children
        return A.If(sp, self.expr(c[1]), self.stmt(c[2]), self.stmt(c[4]) if len(c) > 4 else None)

    def loop_body(self, t):
        self.loops += 1
        try:
            return self.stmt(t)
        finally:
            self.loops -= 1

    def s_while_stmt(self, t, sp):
        return A.While(sp, self.expr(t.children[1]), self.loop_body(t.children[2]))

    def s_do_stmt(self, t, sp):
        return A.DoWhile(sp, self.loop_body(t.children[1]), self.expr(t.children[3]))

    def s_for_stmt(self, t, sp):
        init = test = update = None
        semis = 0
        body = None
        for c in t.children[1:]:
            if isinstance(c, Token):
                semis += c.type == "SEMI"
            elif c.data == "for_var":
                init = A.VarDecl(self.tree_span(c), [self.var_decl(d) for d in c.children if isinstance(d, Tree)])
            elif c.data == "for_expr":
                init = self.expr(c.children[0])
            elif c.data == "for_test":
                test = self.expr(c.children[0])
            elif c.data == "for_update":
                update = self.expr(c.children[0])
            else:
                body = c
        return A.For(sp, init, test, update, self.loop_body(body))

    def s_for_in_var(self, t, sp):
        name = t.children[2]
        target = A.Name(self.tok_span(name), name.value)
        decl = A.VarDecl(self.tok_span(name), [(name.value, None, self.tok_span(name))])
        loop = A.ForIn(sp, target, self.expr(t.children[4]), self.loop_body(t.children[5]))
        return A.Block(sp, [decl, loop])  # `var` is hoisted: declare, then loop

    def s_for_in(self, t, sp):
        target = self.expr(t.children[1])
        self.check_target(target, "for-in")
        return A.ForIn(sp, target, self.expr(t.children[3]), self.loop_body(t.children[4]))

    def _jump_label(self, t, keyword: str):
        label = t.children[1] if len(t.children) > 1 and getattr(t.children[1], "type", "") == "NAME" else None
        if label is None:
            return None
        for name, is_loop in reversed(self.labels):
            if name == label.value:
                if keyword == "continue" and not is_loop:
                    raise self.error("`continue %s`: the label `%s` is not on a loop" % (name, name),
                                     self.tok_span(label), "continue a label written just before `for`, `while` "
                                     "or `do`", "script-misplaced-jump")
                return name
        raise self.error("`%s %s`: no statement around it has the label `%s`" % (keyword, label.value, label.value),
                         self.tok_span(label), "write the label before an enclosing statement, as `%s: for (...)`"
                         % label.value, "script-misplaced-jump")

    def s_continue_stmt(self, t, sp):
        label = self._jump_label(t, "continue")
        if not self.loops:
            raise self.error("`continue` outside a loop", self.tok_span(t.children[0]),
                             "use `continue` only inside `for`, `while` or `do`", "script-misplaced-jump")
        return A.Continue(self.tok_span(t.children[0]), label)

    def s_break_stmt(self, t, sp):
        label = self._jump_label(t, "break")
        if label is None and not (self.loops or self.switches):
            raise self.error("`break` outside a loop or `switch`", self.tok_span(t.children[0]),
                             "use `break` only inside a loop or a `switch`", "script-misplaced-jump")
        return A.Break(self.tok_span(t.children[0]), label)

    def s_labelled_stmt(self, t, sp):
        names = []
        node = t
        while isinstance(node, Tree) and node.data == "labelled_stmt":  # `a: b: for (...)`
            tok = node.children[0]
            if tok.value in names or any(tok.value == n for n, _ in self.labels):
                raise self.error("the label `%s` is already in use here" % tok.value, self.tok_span(tok),
                                 "give the inner statement another label", "script-misplaced-jump")
            names.append(tok.value)
            node = node.children[-1]
        is_loop = isinstance(node, Tree) and node.data in ("while_stmt", "do_stmt", "for_stmt", "for_in_var",
                                                            "for_in")
        self.labels.extend((n, is_loop) for n in names)
        try:
            body = self.stmt(node)
        finally:
            del self.labels[len(self.labels) - len(names):]
        return A.Labelled(sp, names, body)

    def s_return_stmt(self, t, sp):
        value = t.children[1] if len(t.children) > 1 and isinstance(t.children[1], Tree) else None
        if value is None and len(t.children) > 1 and isinstance(t.children[1], Token) and t.children[1].type != "SEMI":
            value = t.children[1]
        return A.Return(sp, self.expr(value) if value is not None else None)

    def s_with_stmt(self, t, sp):
        return A.With(sp, self.expr(t.children[1]), self.stmt(t.children[2]))

    def s_switch_stmt(self, t, sp):
        cases = []
        self.switches += 1
        try:
            for c in t.children:
                if isinstance(c, Tree):
                    if c.data == "case":
                        cases.append(A.Case(self.tree_span(c), self.expr(c.children[1]), self.stmts(c.children[2:])))
                    elif c.data == "default":
                        cases.append(A.Case(self.tree_span(c), None, self.stmts(c.children[1:])))
                    else:
                        disc = c
        finally:
            self.switches -= 1
        return A.Switch(sp, self.expr(t.children[1]), cases)

    def s_throw_stmt(self, t, sp):
        return A.Throw(sp, self.expr(t.children[1]))

    def s_try_stmt(self, t, sp):
        block = self.s_block(t.children[1], self.tree_span(t.children[1]))
        name = catch = fin = None
        for c in t.children[2:]:
            if c.data == "catch_clause":
                name = c.children[1].value
                catch = self.s_block(c.children[2], self.tree_span(c.children[2]))
            else:
                fin = self.s_block(c.children[1], self.tree_span(c.children[1]))
        return A.Try(sp, block, name, catch, fin)

    def s_function_decl(self, t, sp):
        return A.FunctionDecl(sp, self.function(t, sp))

    def function(self, t, sp) -> A.FunctionNode:
        name = None
        params: list = []
        body_items = []
        seen_body = False
        for c in t.children[1:]:
            if isinstance(c, Token):
                if c.type == "NAME" and not seen_body:
                    name = c.value
                elif c.type == "BLOCK_LBRACE":
                    seen_body = True
            elif c.data == "params" and not seen_body:
                params = [p.value for p in c.children]
            else:
                body_items.append(c)
        saved = (self.loops, self.switches, self.in_function, self.labels)
        self.loops, self.switches, self.in_function, self.labels = 0, 0, True, []
        try:
            body = self.stmts(body_items)
        finally:
            self.loops, self.switches, self.in_function, self.labels = saved
        fn = A.FunctionNode(sp, name, params, body)
        _hoist(fn.body, fn.var_names, fn.functions)
        return fn

    # expressions

    def expr(self, t):
        if isinstance(t, Token):  # `?` rules can leave a bare token only through aliases; be safe
            return A.Name(self.tok_span(t), t.value)
        return getattr(self, "e_" + t.data)(t, self.tree_span(t))

    def e_sequence(self, t, sp):
        left = self.expr(t.children[0])
        items = left.exprs if isinstance(left, A.Sequence) else [left]
        return A.Sequence(sp, items + [self.expr(t.children[1])])

    def check_target(self, target, what: str) -> None:
        if not isinstance(target, (A.Name, A.Member, A.Index)):
            raise self.error("this cannot be assigned to", target.span,
                             "assign to a variable, a property `o.p` or an item `a[i]`", "script-bad-assignment")

    def e_assign(self, t, sp):
        target = self.expr(t.children[0])
        self.check_target(target, "assign")
        return A.Assign(sp, t.children[1].children[0].value, target, self.expr(t.children[2]))

    def e_conditional(self, t, sp):
        c = t.children
        return A.Conditional(sp, self.expr(c[0]), self.expr(c[1]), self.expr(c[2]))

    def e_logical(self, t, sp):
        c = t.children
        return A.Logical(sp, c[1].value, self.expr(c[0]), self.expr(c[2]))

    def e_binary(self, t, sp):
        c = t.children
        op = c[1] if isinstance(c[1], Token) else c[1].children[0]
        return A.Binary(sp, op.value, self.expr(c[0]), self.expr(c[2]), self.tok_span(op))

    def e_unary(self, t, sp):
        op = t.children[0].children[0].value
        return A.Unary(sp, op, self.expr(t.children[1]))

    def e_prefix_update(self, t, sp):
        target = self.expr(t.children[1])
        self.check_target(target, "update")
        return A.Update(sp, t.children[0].children[0].value, True, target)

    def e_postfix_update(self, t, sp):
        target = self.expr(t.children[0])
        self.check_target(target, "update")
        return A.Update(sp, t.children[1].children[0].value, False, target)

    def e_new_noargs(self, t, sp):
        return A.New(sp, self.expr(t.children[1]), [])

    def e_new(self, t, sp):
        return A.New(sp, self.expr(t.children[1]), self.args(t.children[2]))

    def e_call(self, t, sp):
        return A.Call(sp, self.expr(t.children[0]), self.args(t.children[1]))

    def args(self, t) -> list:
        return [self.expr(c) for c in t.children]

    def e_index(self, t, sp):
        return A.Index(sp, self.expr(t.children[0]), self.expr(t.children[1]))

    def e_member(self, t, sp):
        name = t.children[1]
        return A.Member(sp, self.expr(t.children[0]), name.value, self.tok_span(name))

    def e_name(self, t, sp):
        return A.Name(sp, t.children[0].value)

    def e_number(self, t, sp):
        return A.Literal(sp, _number_value(t.children[0].value))

    def e_string(self, t, sp):
        return A.Literal(sp, _code_units(_unescape(t.children[0].value[1:-1])))

    def e_this(self, t, sp):
        return A.This(sp)

    def e_true(self, t, sp):
        return A.Literal(sp, True)

    def e_false(self, t, sp):
        return A.Literal(sp, False)

    def e_null(self, t, sp):
        return A.Literal(sp, NULL)

    def e_regex(self, t, sp):
        """``/body/flags`` (7.8.5): checked here, so a bad pattern is reported before the script runs."""
        from ..stdlib.regexp import RegexSyntaxError, RegexUnsupported, compile_pattern, unsupported

        text = t.children[0].value
        close = text.rindex("/")
        body, flags = text[1:close], text[close + 1:]
        try:
            compile_pattern(body, flags)
        except RegexSyntaxError as e:
            raise self.error("invalid regular expression: %s" % e, sp, "check the pattern") from None
        except RegexUnsupported as e:
            raise unsupported(e, sp) from None
        return A.RegexLit(sp, body, flags)

    def e_array_lit(self, t, sp):
        """``[a, , b]`` (11.1.4): an empty item is a hole; one trailing comma adds nothing."""
        items = [c for c in t.children if isinstance(c, Tree) and c.data == "array_item"]
        values = [self.expr(c.children[0]) if c.children else None for c in items]
        if values and values[-1] is None:
            values.pop()
        return A.ArrayLit(sp, values)

    def e_object_lit(self, t, sp):
        props = []
        for p in t.children:
            if isinstance(p, Tree):
                k = p.children[0]
                key = _code_units(_unescape(k.value[1:-1])) if k.type == "STRING" else (
                    _number_key(k.value) if k.type == "NUMBER" else k.value)
                props.append((key, self.expr(p.children[1])))
        return A.ObjectLit(sp, props)

    def e_function_expr(self, t, sp):
        return A.FunctionExpr(sp, self.function(t, sp))


_KEYWORDS = {"VAR", "IF", "ELSE", "WHILE", "DO", "FOR", "IN", "CONTINUE", "BREAK", "RETURN", "WITH", "SWITCH",
             "CASE", "DEFAULT", "THROW", "TRY", "CATCH", "FINALLY", "FUNCTION", "NEW", "THIS", "TRUE", "FALSE",
             "NULL", "TYPEOF", "VOID", "DELETE", "INSTANCEOF"}
_KEYWORD_WORDS = {"var", "if", "else", "while", "do", "for", "in", "continue", "break", "return", "with", "switch",
                  "case", "default", "throw", "try", "catch", "finally", "function", "new", "this", "true", "false",
                  "null", "typeof", "void", "delete", "instanceof"}
# ES5's future reserved words (7.6.1.2) and `debugger`: names no script may use, as engines refuse them
_RESERVED = {"class", "const", "enum", "export", "extends", "import", "super", "debugger"}
#: keywords whose `( ... )` header is followed by a statement (ES3 12.5-12.10): `for (...) /a/.test(s);`
_HEADER_KEYWORDS = {"IF", "FOR", "WHILE", "WITH"}
_BEFORE_DIVISION = {"NAME", "NUMBER", "STRING", "REGEX", "RPAR", "RSQB", "THIS", "TRUE", "FALSE", "NULL"}
_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "LESSTHAN", "MORETHAN", "OROR", "ANDAND", "DOT"}
_EXPR_START = {"NAME", "NUMBER", "STRING", "LPAR", "LBRACK", "THIS", "FUNCTION", "NEW"}


def _expected_words(names) -> str:
    """The expected terminals in words: "`;`", "`)` or `,`", "an expression"."""
    names = set(names) - {"$END"}
    if not names:
        return ""
    text = _terminal_text()
    words = []
    if "NAME" in names and len(names & _EXPR_START) > 3:
        words.append("an expression" if "VAR" not in names else "a statement")
        names = {n for n in names if n in ("SEMI", "RPAR", "RSQB", "RBRACE", "COMMA", "COLON")}
    elif len(names & _OPERATORS) > 3:
        words.append("an operator")
        names = {n for n in names if n in ("SEMI", "RPAR", "RSQB", "RBRACE", "COMMA", "COLON")}
    order = ["SEMI", "RPAR", "RSQB", "RBRACE", "COMMA", "COLON", "NAME", "LPAR", "BLOCK_LBRACE", "EQUAL"]
    for n in sorted(names, key=lambda n: (order.index(n) if n in order else 99, n)):
        w = text.get(n)
        if w is None:
            continue
        words.append(w if n in ("NAME", "NUMBER", "STRING") else "`%s`" % w)
        if len(words) >= 4:
            break
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _number_value(v: str) -> float:
    """The value of a numeric literal: hex ``0x1F``; octal ``010`` (= 8: ECMAScript 3, Annex B.1.1, as
    JavaScript engines read it; ``08`` and ``09`` stay decimal); decimal otherwise (``float()`` gives
    ``inf`` past the largest double, as JavaScript does)."""
    if v[:2] in ("0x", "0X"):
        return float(int(v, 16))
    if len(v) > 1 and v[0] == "0" and v.isdigit() and "8" not in v and "9" not in v:
        return float(int(v, 8))
    return float(v)


def _number_key(v: str) -> str:
    from ..language.convert import number_to_string

    return number_to_string(_number_value(v))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(s: str) -> str:
    """The value of a string literal's body (ECMAScript 3, 7.8.4 escapes)."""
    if "\\" not in s:
        return s
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\" or i + 1 >= len(s):
            out.append(c)
            i += 1
            continue
        d = s[i + 1]
        if d in _ESCAPES:
            out.append(_ESCAPES[d])
            i += 2
        elif d == "x" and _is_hex(s[i + 2:i + 4], 2):
            out.append(chr(int(s[i + 2:i + 4], 16)))
            i += 4
        elif d == "u" and _is_hex(s[i + 2:i + 6], 4):
            out.append(chr(int(s[i + 2:i + 6], 16)))
            i += 6
        else:
            out.append(d)
            i += 2
    return "".join(out)


def _code_units(s: str) -> str:
    """``s`` as ECMAScript's UTF-16 code units (8.4): a character above U+FFFF becomes its surrogate
    pair, so ``"\U0001F600".length`` is 2 as in the standard (``values.well_formed`` joins pairs on output)."""
    if s.isascii() or all(ord(c) < 0x10000 for c in s):
        return s
    return "".join(
        c if ord(c) < 0x10000 else chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + ((ord(c) - 0x10000) & 0x3FF))
        for c in s)


def _has_line_break(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (white space and comments) holds a line terminator (7.3, 7.4)."""
    gap = text[start:end]
    return any(lt in gap for lt in _LINE_TERMINATORS)


def _is_hex(s: str, n: int) -> bool:
    return len(s) == n and all(ch in "0123456789abcdefABCDEF" for ch in s)


def _hoist(body: list, var_names: list, functions: list) -> None:
    """Collect the ``var`` names and function declarations of a function body (not nested functions)."""
    seen = set(var_names)
    stack = list(reversed(body))
    while stack:
        s = stack.pop()
        if isinstance(s, A.VarDecl):
            for name, _init, _sp in s.decls:
                if name not in seen:
                    seen.add(name)
                    var_names.append(name)
        elif isinstance(s, A.FunctionDecl):
            functions.append(s)
        elif isinstance(s, A.Block):
            stack.extend(reversed(s.body))
        elif isinstance(s, A.If):
            if s.other is not None:
                stack.append(s.other)
            stack.append(s.then)
        elif isinstance(s, (A.While, A.DoWhile, A.With, A.ForIn, A.Labelled)):
            stack.append(s.body)
        elif isinstance(s, A.For):
            stack.append(s.body)
            if isinstance(s.init, A.VarDecl):
                stack.append(s.init)
        elif isinstance(s, A.Switch):
            for c in reversed(s.cases):
                stack.extend(reversed(c.body))
        elif isinstance(s, A.Try):
            for b in (s.finally_block, s.catch_block, s.block):
                if b is not None:
                    stack.append(b)
