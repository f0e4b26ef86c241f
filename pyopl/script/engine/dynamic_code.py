"""Script text made into code while a script runs: the script global ``eval`` (ECMAScript 3, 15.1.2.1) and
``Function(p1, ..., body)`` (15.3.2.1), as a mixin of the interpreter.  The text is parsed by the
script parser, like any script; nothing is ever handed to Python's ``eval``."""
from __future__ import annotations

from ...diagnostics.diagnostic import Span
from ..language import ast as A
from ..language.values import UNDEFINED, JSFunction, ScriptError


class DynamicCode:
    """``eval_text`` and ``make_function`` (need ``scope``, ``global_scope``, ``exec_list``, ``_instantiate``)."""

    def eval_text(self, text: str, span: Span, direct: bool = True):
        """The script global ``eval`` applied to ``text`` (15.1.2.1): the text is parsed by the script parser (never by Python) and run
        in the calling scope (its ``var``s and functions join that scope); the value is that of the
        last expression statement run.  Text that does not parse is a SyntaxError."""
        from .parser import parse_script

        self.check_string(len(text), span)
        prog = parse_script(text, span.file, span.line, span.column)
        if isinstance(prog, list):
            raise ScriptError("script-syntax-error", "`eval`: %s" % prog[0].message, span,
                              "pass `eval` text that parses as a script", error_name="SyntaxError")
        s = self.scope if direct else self.global_scope
        while s.obj is not None:
            s = s.parent
        outer = self.scope
        if not direct:
            self.scope = self.global_scope  # 10.4.2: an indirect eval runs as global code
        self._instantiate(prog.var_names, prog.functions, s.vars, s)
        if s is self.global_scope:
            self.declared_globals.update(prog.var_names)
        saved = self.completion
        self.completion = UNDEFINED
        try:
            r = self.exec_list(prog.body)
            if r is not None:  # a `return`, `break` or `continue` reached the top of the text
                raise ScriptError("script-misplaced-jump", "`eval` text cannot `return`, `break` or `continue` "
                                  "out of itself", span, "end the text with an expression instead",
                                  error_name="SyntaxError")
            return self.completion
        finally:
            self.completion = saved
            self.scope = outer

    def make_function(self, params: list, body: str, span: Span) -> JSFunction:
        """The function ``Function(p1, ..., body)`` makes (15.3.2.1): the text is parsed as a script
        function expression and closes over the global scope; bad text is a SyntaxError."""
        from .parser import parse_script

        text = "(function (%s) {\n%s\n})" % (",".join(params), body)
        self.check_string(len(text), span)
        prog = parse_script(text, span.file, span.line, span.column)
        node = None
        if not isinstance(prog, list) and len(prog.body) == 1 and isinstance(prog.body[0], A.ExprStmt):
            node = prog.body[0].expr
        if not isinstance(node, A.FunctionExpr):
            why = prog[0].message if isinstance(prog, list) else "the text is not one function body"
            raise ScriptError("script-syntax-error", "`Function(...)`: %s" % why, span,
                              "pass parameter names and a function body that parse", error_name="SyntaxError")
        return JSFunction(node.func, self.global_scope)
