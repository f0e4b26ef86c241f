"""The tree-walking interpreter of IBM ILOG Script.

``Interpreter(globals_host, output, ...)`` runs :class:`~pyopl.script.language.ast.Program` values
made by :func:`pyopl.script.engine.parser.parse_script`.  Semantics follow ECMAScript 3
(numbers are doubles, ``==`` converts, ``var`` is function-scoped and hoisted, functions
are closures).  Names resolve through the local scopes, then the script's globals, then
``globals_host`` (the OPL model: ``thisOplModel``, model elements, ``cplex``, ...), then
the standard library (:mod:`pyopl.script.stdlib.builtins`).

Every run is bounded: ``max_steps`` counts statements and expression evaluations (the
counter :attr:`Interpreter.steps` is cumulative, so a host can share one budget across
blocks), ``max_memory`` counts array and object slots created and caps the length of any
one string, ``max_depth`` caps nested calls.  Exceeding one raises a
:class:`~pyopl.script.language.values.ScriptError` at the place it happened.  Nothing else escapes
:meth:`Interpreter.run`/:meth:`Interpreter.call`: a Python error inside is reported as an
internal error (OPL0605) at the statement that was running.
"""
from __future__ import annotations

import contextvars
import sys
import threading
from typing import Callable

from ...diagnostics.diagnostic import Span
from ..language import ast as A
from ..language.convert import ACTIVE, strict_equals, to_boolean, to_int32, to_number, to_string, typeof
from ..language.messages import describe as _describe, kind as _kind, shown as _shown
from ..language.budgets import Budgets
from .dynamic_code import DynamicCode
from ..stdlib.global_object import GlobalObject as _GlobalObject, HostGlobalObject as _HostGlobalObject
from ..language.operators import Operators
from ..language.properties import MISSING as _MISSING, Properties
from ..language.values import (HOLE, NULL, UNDEFINED, Arguments, HostFunction, HostObject, JSArray, JSFunction, JSObject,
                               ScriptError, near_miss)

DEFAULT_MAX_STEPS = 3_000_000  # about one second of a runaway loop on one unloaded core
DEFAULT_MAX_MEMORY = 50_000_000  # array/object slots created; also the longest string
DEFAULT_MAX_DEPTH = 1000  # nested script function calls
_STACK_BYTES = 256 * 1024 * 1024  # the interpreter thread's stack (reserved, touched only as used)
_RECURSION_LIMIT = 80_000


class ScriptThrow(Exception):
    """A script ``throw`` travelling to its ``catch`` (internal to the interpreter)."""

    def __init__(self, value, span: Span):
        super().__init__("script throw")
        self.value = value
        self.span = span


class _Return:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


BREAK = object()
CONTINUE = object()


class _LabelJump:
    """``break label`` / ``continue label`` travelling to the statement with that label."""

    __slots__ = ("kind", "label")

    def __init__(self, kind: str, label: str):
        self.kind = kind
        self.label = label


class Scope:
    """One link of the scope chain: a function's variables, a ``catch`` name, or a ``with`` object."""

    __slots__ = ("vars", "parent", "obj", "this")

    def __init__(self, vars: dict | None, parent: "Scope | None", this=UNDEFINED, obj=None):
        self.vars = vars
        self.parent = parent
        self.obj = obj
        self.this = this


class Interpreter(Budgets, Operators, Properties, DynamicCode):
    """Runs script programs against an optional host.

    ``globals_host``: a :class:`~pyopl.script.language.values.HostObject` answering global names
    (or None); ``output(text)`` receives what ``write``/``writeln`` print (``writeln``
    adds ``"\\n"``); ``max_steps``, ``max_memory``, ``max_depth``: the budgets above;
    ``file``: the ``.mod`` path used in spans made by the interpreter itself.
    """

    def __init__(self, globals_host: HostObject | None = None, output: Callable[[str], None] | None = None,
                 max_steps: int = DEFAULT_MAX_STEPS, max_memory: int = DEFAULT_MAX_MEMORY,
                 max_depth: int = DEFAULT_MAX_DEPTH, file: str = "<script>"):
        from ..stdlib.protos import make_builtins

        self.host = globals_host
        self.output = output or (lambda text: None)
        self.max_steps = max_steps
        self.max_memory = max_memory
        self.max_depth = max_depth
        self.file = file
        self.steps = 0  # statements and expressions evaluated so far (all runs together)
        self.memory = 0  # array/object slots created so far
        self.depth = 0
        self.globals: dict = {}  # the script's own global variables
        self.declared_globals: set = set()  # those declared with `var`/`function` (DontDelete)
        self.completion = UNDEFINED  # value of the last expression statement (for `eval`)
        self.direct_eval = None  # the `eval` function just called by the name `eval`
        self.loop_labels: dict = {}  # id(loop node) -> its labels, from `ex_Labelled` to the loop it starts
        self.global_scope = Scope(self.globals, None,
                                  this=_HostGlobalObject(self, globals_host) if globals_host is not None
                                  else _GlobalObject(self))
        self.scope = self.global_scope
        self.builtins = make_builtins(self)
        self.last_span = Span(file, 1, 1, 1, 2)
        self._ev = {cls: getattr(self, "ev_" + cls.__name__) for cls in _EXPRS}
        self._ex = {cls: getattr(self, "ex_" + cls.__name__) for cls in _STMTS}

    # --- entry points ------------------------------------------------------------------

    def run(self, program: A.Program):
        """Run ``program``; return its top-level ``return`` value (``main``'s exit value) or UNDEFINED.

        Raises :class:`ScriptError` for every problem (uncaught ``throw`` included).
        """
        return self._guarded(self._run_program, program)

    def call(self, function, args: list, this=None, span: Span | None = None):
        """Call a script or host function value with ``args``; errors as in :meth:`run`."""
        return self._guarded(self.call_value, function, this, list(args), span or self.last_span)

    def _run_program(self, program: A.Program):
        self.last_span = program.span
        self.scope = self.global_scope
        self._instantiate(program.var_names, program.functions, self.globals, self.global_scope)
        self.declared_globals.update(program.var_names)
        self.declared_globals.update(fd.func.name for fd in program.functions)
        r = self.exec_list(program.body)
        if isinstance(r, _Return):
            return r.value
        return UNDEFINED

    def _guarded(self, fn, *args):
        if threading.current_thread().name == "pyopl-script":  # re-entered from a host callback
            return self._protect(fn, *args)
        box: dict = {}

        def work():
            old = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old, _RECURSION_LIMIT))
            try:
                box["value"] = self._protect(fn, *args)
            except BaseException as e:  # handed to the caller's thread below
                box["error"] = e
            finally:
                sys.setrecursionlimit(old)

        # the caller's context variables go with it (pyopl.files.reads: the files the run read)
        t = threading.Thread(target=contextvars.copy_context().run, args=(work,), name="pyopl-script", daemon=True)
        try:  # the stack size is read when the thread starts
            old_size = threading.stack_size(_STACK_BYTES)
        except (ValueError, RuntimeError):  # a platform without settable stacks
            old_size = None
        try:
            t.start()
        except (RuntimeError, MemoryError):  # no thread (or no memory for its stack): run here, shallower
            return self._protect(fn, *args)
        finally:
            if old_size is not None:
                threading.stack_size(old_size)
        t.join()
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def _protect(self, fn, *args):
        saved_scope, saved_depth = self.scope, self.depth
        saved_active = getattr(ACTIVE, "interp", None)
        ACTIVE.interp = self
        try:
            return fn(*args)
        except ScriptError as e:
            if e.span is None:  # raised where no span is at hand (a value shown whole): the statement's
                e.span = self.last_span
            raise
        except ScriptThrow as t:
            err = ScriptError("script-uncaught-exception",
                              "the script throws %s and nothing catches it" % _shown(t.value), t.span,
                              "catch it with `try { ... } catch (e) { ... }`, or fix what makes it throw",
                              catchable=False)
            err.thrown = t.value  # the value thrown (for a host that wants it)
            raise err from None
        except RecursionError:
            raise self.budget_error("script-call-depth", "the script recursed too deeply", self.last_span,
                                    "make the recursion shallower (the limit is %d nested calls: "
                                    "`Interpreter(..., max_depth=N)`)" % self.max_depth) from None
        except MemoryError:
            raise self.budget_error("script-memory-budget", "the script ran out of memory", self.last_span,
                                    "create smaller arrays and strings") from None
        except Exception as e:  # a bug in pyopl or in a host object: never a traceback
            raise ScriptError("internal-error", "internal error while running the script (%s)" % type(e).__name__,
                              self.last_span, "please report this to the pyopl developers with the model",
                              catchable=False) from None
        finally:
            self.scope, self.depth = saved_scope, saved_depth
            ACTIVE.interp = saved_active

    # --- statements --------------------------------------------------------------------

    def run_statement(self, node):
        self.steps += 1
        if self.steps > self.max_steps:
            self._out_of_steps(node)
        self.last_span = node.span
        return self._ex[type(node)](node)

    def exec_list(self, body: list):
        for s in body:
            r = self.run_statement(s)
            if r is not None:
                return r
        return None

    def ex_Block(self, node):
        return self.exec_list(node.body)

    def ex_VarDecl(self, node):
        for name, init, span in node.decls:
            if init is not None:
                self.set_name(name, self.ev(init), span, declared=True)
        return None

    def ex_Empty(self, node):
        return None

    def ex_ExprStmt(self, node):
        self.completion = self.ev(node.expr)  # the value `eval` gives back (12.4)
        return None

    def ex_FunctionDecl(self, node):
        return None  # bound on entry to the enclosing function (hoisting)

    def ex_If(self, node):
        if to_boolean(self.ev(node.test)):
            return self.run_statement(node.then)
        if node.other is not None:
            return self.run_statement(node.other)
        return None

    # Each loop is an iterator of turns (it evaluates the test, update or next key between
    # turns); _run_loop runs the body once a turn and handles break, continue and return once.
    def ex_While(self, node):
        return self._run_loop(node, "while", self._while_turns(node))

    def ex_DoWhile(self, node):
        return self._run_loop(node, "do", self._do_while_turns(node))

    def ex_For(self, node):
        return self._run_loop(node, "for", self._for_turns(node))

    def ex_ForIn(self, node):
        return self._run_loop(node, "for", self._for_in_turns(node))

    def _run_loop(self, node, keyword: str, turns):
        labels = self.loop_labels.pop(id(node), ()) if self.loop_labels else ()
        try:
            for _ in turns:
                r = self.run_statement(node.body)
                if r is BREAK:
                    break
                if r is not None and r is not CONTINUE:
                    if type(r) is _LabelJump and r.label in labels:
                        if r.kind == "break":
                            break
                        continue
                    return r
            return None
        except ScriptError as e:
            raise _at_loop(e, node, keyword)

    def _while_turns(self, node):
        while to_boolean(self.ev(node.test)):
            yield

    def _do_while_turns(self, node):
        yield
        while to_boolean(self.ev(node.test)):
            yield

    def _for_turns(self, node):
        if node.init is not None:
            if isinstance(node.init, A.VarDecl):
                self.run_statement(node.init)
            else:
                self.ev(node.init)
        test, update = node.test, node.update
        while test is None or to_boolean(self.ev(test)):
            yield
            if update is not None:
                self.ev(update)
            elif test is None:  # `for (;;)` still counts a step per turn
                self.steps += 1
                if self.steps > self.max_steps:
                    self._out_of_steps(node)

    def _for_in_turns(self, node):
        obj = self.ev(node.obj)
        for key in self.for_in_keys(obj, node.obj.span):
            self.steps += 1
            if self.steps > self.max_steps:
                self._out_of_steps(node)
            self.assign_to(node.target, key)
            yield

    def ex_Continue(self, node):
        return CONTINUE if node.label is None else _LabelJump("continue", node.label)

    def ex_Break(self, node):
        return BREAK if node.label is None else _LabelJump("break", node.label)

    def ex_Labelled(self, node):
        """``label: statement`` (12.12): a ``break label`` inside ends it; a loop also takes ``continue label``."""
        body = node.body
        if isinstance(body, A.Block) and len(body.body) == 2 and isinstance(body.body[1], A.ForIn):
            loop = body.body[1]  # `for (var k in o)` is a declaration and the loop
        else:
            loop = body
        if isinstance(loop, (A.While, A.DoWhile, A.For, A.ForIn)):
            self.loop_labels[id(loop)] = node.labels
        try:
            r = self.run_statement(body)
        finally:
            self.loop_labels.pop(id(loop), None)
        if type(r) is _LabelJump and r.kind == "break" and r.label in node.labels:
            return None
        return r

    def ex_Return(self, node):
        return _Return(self.ev(node.value) if node.value is not None else UNDEFINED)

    def ex_With(self, node):
        obj = self.ev(node.obj)
        if obj is UNDEFINED or obj is NULL:
            raise ScriptError("script-property-of-nothing", "`with` needs an object, and %s is %s"
                              % (_describe(node.obj), to_string(obj)), node.obj.span,
                              "give `with` an object such as `thisOplModel`")
        outer = self.scope
        self.scope = Scope(None, outer, this=outer.this, obj=obj)
        try:
            return self.run_statement(node.body)
        finally:
            self.scope = outer

    def ex_Switch(self, node):
        disc = self.ev(node.disc)
        start = None
        for i, c in enumerate(node.cases):
            if c.test is not None and strict_equals(disc, self.ev(c.test)):
                start = i
                break
        if start is None:
            for i, c in enumerate(node.cases):
                if c.test is None:
                    start = i
                    break
        if start is None:
            return None
        for c in node.cases[start:]:
            r = self.exec_list(c.body)
            if r is not None:
                return None if r is BREAK else r
        return None

    def ex_Throw(self, node):
        raise ScriptThrow(self.ev(node.value), node.span)

    def ex_Try(self, node):
        try:
            try:
                r = self.run_statement(node.block)
            except ScriptThrow as t:
                if node.catch_block is None:
                    raise
                r = self._catch(node, t.value)
            except ScriptError as e:
                if not e.catchable or node.catch_block is None:
                    raise
                r = self._catch(node, self.error_value(e))
        except (ScriptThrow, ScriptError) as exc:
            if node.finally_block is not None and (isinstance(exc, ScriptThrow) or exc.catchable):
                f = self.run_statement(node.finally_block)
                if f is not None:
                    return f  # an abrupt `finally` replaces the throw
            raise
        if node.finally_block is not None:
            f = self.run_statement(node.finally_block)
            if f is not None:
                return f
        return r

    def _catch(self, node, value):
        outer = self.scope
        self.scope = Scope({node.catch_name: value}, outer, this=outer.this)
        try:
            return self.run_statement(node.catch_block)
        finally:
            self.scope = outer

    def error_value(self, e: ScriptError) -> JSObject:
        """The object a script ``catch`` receives for a run-time error (``e.name``, ``e.message``):
        an instance of ``ReferenceError``, ``TypeError``, ``RangeError``, ... (ECMAScript 15.11)."""
        name = e.error_name or {"script-undefined-name": "ReferenceError",
                                "script-syntax-error": "SyntaxError"}.get(e.slug, "TypeError")
        proto = self.protos.get(name) or self.protos["Error"]
        return JSObject({"message": e.message}, class_name="Error", proto=proto)

    # --- names -------------------------------------------------------------------------

    def _instantiate(self, var_names, functions, vars: dict, scope: Scope) -> None:
        for name in var_names:
            if name not in vars:
                vars[name] = UNDEFINED
        for fd in functions:
            vars[fd.func.name] = JSFunction(fd.func, scope)

    def lookup(self, name: str, span: Span):
        s = self.scope
        while s is not None:
            if s.obj is None:
                v = s.vars.get(name, _MISSING)
                if v is not _MISSING:
                    return v
            elif self._has(s.obj, name):
                return self.get_member(s.obj, name, span)
            s = s.parent
        host = self.host
        if host is not None and host.has_member(name):
            return host.get_member(name, span)
        v = self.builtins.get(name, _MISSING)
        if v is not _MISSING:
            return v
        raise self.undefined_name(name, span)

    def _has(self, obj, name: str) -> bool:
        if isinstance(obj, HostObject):
            return obj.has_member(name)
        if isinstance(obj, (JSObject, JSArray, JSFunction, HostFunction)):
            return self.has_property(obj, name, None)
        return False

    def defined(self, name: str) -> bool:
        """Whether ``name`` resolves (``typeof undeclared`` is ``"undefined"``, not an error)."""
        s = self.scope
        while s is not None:
            if (s.obj is None and name in s.vars) or (s.obj is not None and self._has(s.obj, name)):
                return True
            s = s.parent
        return (self.host is not None and self.host.has_member(name)) or name in self.builtins

    def names(self) -> list:
        """Every name visible here (for near-miss suggestions): scopes, globals, host, builtins."""
        out = []
        s = self.scope
        while s is not None:
            if s.obj is None:
                out.extend(s.vars)
            elif isinstance(s.obj, HostObject):
                out.extend(s.obj.member_names())
            elif isinstance(s.obj, JSObject):
                out.extend(s.obj.props)
            s = s.parent
        if self.host is not None:
            out.extend(self.host.member_names())
        out.extend(self.builtins)
        return out

    def undefined_name(self, name: str, span: Span) -> ScriptError:
        near = near_miss(name, self.names())
        help = ("did you mean `%s`?" % near) if near else (
            "declare it with `var %s = ...;` or check the spelling against the model's names" % name)
        return ScriptError("script-undefined-name", "`%s` is not defined" % name, span, help)

    def set_name(self, name: str, value, span: Span, declared: bool = False) -> None:
        s = self.scope
        while s is not None:
            if s.obj is None:
                if name in s.vars:
                    s.vars[name] = value
                    return
            elif self._has(s.obj, name):
                self.put_member(s.obj, name, value, span)
                return
            s = s.parent
        if not declared and self.host is not None and self.host.has_member(name):
            self.host.set_member(name, value, span)
            return
        if name in _READ_ONLY_GLOBALS:
            return  # 15.1.1: NaN, Infinity and undefined are ReadOnly; the assignment does nothing
        self.globals[name] = value  # ECMAScript: assigning an undeclared name creates a global

    # --- expressions -------------------------------------------------------------------

    def ev(self, node):
        steps = self.steps + 1
        self.steps = steps
        if steps > self.max_steps:
            self._out_of_steps(node)
        t = type(node)
        # the two most frequent nodes are handled here, saving a call each
        if t is _LITERAL:
            return node.value
        if t is _NAME:
            name = node.name
            s = self.scope
            while s is not None and s.obj is None:
                v = s.vars.get(name, _MISSING)
                if v is not _MISSING:
                    return v
                s = s.parent
            return self.lookup(name, node.span)
        return self._ev[t](node)

    def ev_Literal(self, node):
        return node.value

    def ev_Name(self, node):
        return self.lookup(node.name, node.span)

    def ev_This(self, node):
        return self.scope.this

    def ev_ArrayLit(self, node):
        self.alloc(len(node.items), node.span)
        return JSArray([HOLE if x is None else self.ev(x) for x in node.items])  # None: an elision `[1,,3]`

    def ev_RegexLit(self, node):
        from ..stdlib.regexp import make_regexp

        return make_regexp(self, node.body, node.flags, node.span)

    def ev_ObjectLit(self, node):
        self.alloc(len(node.props), node.span)
        return JSObject({k: self.ev(v) for k, v in node.props})

    def ev_FunctionExpr(self, node):
        fn = node.func
        if fn.name:  # a named function expression sees its own name (for recursion)
            scope = Scope({}, self.scope, this=self.scope.this)
            f = JSFunction(fn, scope)
            scope.vars[fn.name] = f
            return f
        return JSFunction(fn, self.scope)

    def ev_Member(self, node):
        obj = self.ev(node.obj)
        return self.get_property(obj, node.name, node, is_member=True)

    def ev_Index(self, node):
        obj = self.ev(node.obj)
        key = self.ev(node.key)
        return self.get_property(obj, key, node, is_member=False)

    def ev_Call(self, node):
        callee = node.callee
        if isinstance(callee, A.Member):
            this = self.ev(callee.obj)
            fn = self.get_property(this, callee.name, callee, is_member=True)
        elif isinstance(callee, A.Index):
            this = self.ev(callee.obj)
            fn = self.get_property(this, self.ev(callee.key), callee, is_member=False)
        else:
            this = None
            fn = self.ev(callee)
            if type(callee) is _NAME and callee.name == "eval":
                self.direct_eval = fn  # 15.1.2.1.1: a call of the name `eval` is a direct eval
        if type(fn) is HostFunction and fn.unevaluated:
            args = [UNDEFINED] * len(node.args)
        else:
            args = [self.ev(a) for a in node.args]
        if not isinstance(fn, (JSFunction, HostFunction)):
            raise self.not_a_function(callee, fn)
        return self.call_value(fn, this, args, node.span)

    def not_a_function(self, callee, value) -> ScriptError:
        what = "undefined" if value is UNDEFINED else ("null" if value is NULL else "a " + _kind(value))
        help = "call a function or a method the object has"
        if isinstance(callee, A.Member) and value is UNDEFINED:
            help = "check the method name `%s`" % callee.name
        return ScriptError("script-not-a-function", "%s is not a function (it is %s)" % (_describe(callee), what),
                           callee.span, help)

    def call_value(self, fn, this, args: list, span: Span):
        """Call a function value (script or host) with ``this`` and ``args``."""
        if isinstance(fn, HostFunction):
            return fn.fn(self, this, args, span)
        if not isinstance(fn, JSFunction):
            raise ScriptError("script-not-a-function", "this value is not a function (it is %s)" % _kind(fn), span,
                              "call a function")
        node = fn.node
        if self.depth >= self.max_depth:
            raise self.budget_error("script-call-depth",
                                    "the script nests more than %d function calls" % self.max_depth, span,
                                    "check that the recursion of `%s` ends; deeper recursion needs "
                                    "`Interpreter(..., max_depth=N)`" % fn.name)
        vars: dict = {}
        params = node.params
        for i, p in enumerate(params):
            vars[p] = args[i] if i < len(args) else UNDEFINED
        scope = Scope(vars, fn.scope, this=this if (this is not None and this is not UNDEFINED
                                                     and this is not NULL) else self.global_scope.this)
        if "arguments" not in vars:  # 10.1.8: indices of named parameters are those parameters
            props = {str(i): a for i, a in enumerate(args)}
            props["length"] = float(len(args))
            props["callee"] = fn
            mapped = {str(i): p for i, p in enumerate(params[:len(args)])}
            vars["arguments"] = Arguments(props, vars, mapped)
        self._instantiate(node.var_names, node.functions, vars, scope)
        outer = self.scope
        self.scope = scope
        self.depth += 1
        try:
            r = self.exec_list(node.body)
        finally:
            self.scope = outer
            self.depth -= 1
        if isinstance(r, _Return):
            return r.value
        return UNDEFINED

    def ev_New(self, node):
        ctor = self.ev(node.callee)
        args = [self.ev(a) for a in node.args]
        return self.construct(ctor, args, node.callee, node.span)

    def construct(self, ctor, args, callee_node, span):
        if isinstance(ctor, HostFunction):
            if not ctor.constructor:
                raise ScriptError.type_error("`%s` cannot be used with `new`" % ctor.name, callee_node.span,
                                             "call it without `new`")
            self.new_target = ctor  # read (and cleared) by a built-in that makes a wrapper for `new`
            try:
                return ctor.fn(self, None, args, span)
            finally:
                self.new_target = None
        if isinstance(ctor, JSFunction):
            proto = ctor.props.get("prototype") if "prototype" in ctor.props else self.function_prototype(ctor)
            self.alloc(1, span)
            obj = JSObject(proto=proto if isinstance(proto, JSObject) else None, ctor=ctor)
            r = self.call_value(ctor, obj, args, span)
            return r if isinstance(r, (JSObject, JSArray, JSFunction, HostObject)) else obj
        raise ScriptError("script-not-a-function", "%s is not a constructor (it is %s)"
                          % (_describe(callee_node), "undefined" if ctor is UNDEFINED else _kind(ctor)),
                          callee_node.span, "use `new` with a function or a class such as `Array`, `Object`")

    def ev_Unary(self, node):
        op = node.op
        if op == "typeof":
            if isinstance(node.operand, A.Name) and not self.defined(node.operand.name):
                return "undefined"
            return typeof(self.ev(node.operand))
        if op == "delete":
            return self._delete(node.operand)
        v = self.ev(node.operand)
        if op == "!":
            return not to_boolean(v)
        if op == "-":
            return -to_number(v)
        if op == "+":
            return to_number(v)
        if op == "~":
            return float(~to_int32(v))
        return UNDEFINED  # void

    def ev_Update(self, node):
        def compute(old):
            n = to_number(old)
            return n, (n + 1.0 if node.op == "++" else n - 1.0)
        return self._modify(node.target, compute, node.prefix)

    def _modify(self, target, compute, prefix: bool):
        """Read-modify-write of a name, property or item (``++``, ``--``, ``+=``)."""
        if isinstance(target, A.Name):
            old, new = compute(self.lookup(target.name, target.span))
            self.set_name(target.name, new, target.span)
        elif isinstance(target, A.Member):
            obj = self.ev(target.obj)
            old, new = compute(self.get_property(obj, target.name, target, is_member=True))
            self.put_member(obj, target.name, new, target.name_span, target)
        else:
            obj = self.ev(target.obj)
            key = self.ev(target.key)
            old, new = compute(self.get_property(obj, key, target, is_member=False))
            self.put_index(obj, key, new, target.span, target)
        return new if prefix else old

    def ev_Binary(self, node):
        a = self.ev(node.left)
        b = self.ev(node.right)
        if type(a) is float and type(b) is float:
            op = node.op
            if op == "+":
                return a + b
            if op == "<":
                return a < b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
        return self.binary(node.op, a, b, node)

    def ev_Logical(self, node):
        a = self.ev(node.left)
        if node.op == "&&":
            return self.ev(node.right) if to_boolean(a) else a
        return a if to_boolean(a) else self.ev(node.right)

    def ev_Conditional(self, node):
        return self.ev(node.then) if to_boolean(self.ev(node.test)) else self.ev(node.other)

    def ev_Assign(self, node):
        if node.op == "=":
            target = node.target
            if isinstance(target, A.Name):
                v = self.ev(node.value)
                self.set_name(target.name, v, target.span)
                return v
            obj = self.ev(target.obj)
            if isinstance(target, A.Member):
                v = self.ev(node.value)
                self.put_member(obj, target.name, v, target.name_span, target)
            else:
                key = self.ev(target.key)
                v = self.ev(node.value)
                self.put_index(obj, key, v, target.span, target)
            return v
        op = node.op[:-1]

        def compute(old):
            new = self.binary(op, old, self.ev(node.value), node)
            return new, new
        return self._modify(node.target, compute, True)

    def ev_Sequence(self, node):
        v = UNDEFINED
        for e in node.exprs:
            v = self.ev(e)
        return v

    def assign_to(self, target, value) -> None:
        if isinstance(target, A.Name):
            self.set_name(target.name, value, target.span)
        elif isinstance(target, A.Member):
            self.put_member(self.ev(target.obj), target.name, value, target.name_span, target)
        else:
            obj = self.ev(target.obj)
            self.put_index(obj, self.ev(target.key), value, target.span, target)

    # --- properties ----------------------------------------------------------------------

_READ_ONLY_GLOBALS = frozenset(("NaN", "Infinity", "undefined"))
_LITERAL = A.Literal
_NAME = A.Name
_EXPRS = (A.Literal, A.Name, A.This, A.ArrayLit, A.RegexLit, A.ObjectLit, A.FunctionExpr, A.Member, A.Index, A.Call, A.New,
          A.Update, A.Unary, A.Binary, A.Logical, A.Conditional, A.Assign, A.Sequence)
_STMTS = (A.Block, A.VarDecl, A.Empty, A.ExprStmt, A.FunctionDecl, A.If, A.While, A.DoWhile, A.For, A.ForIn,
          A.Continue, A.Break, A.Return, A.With, A.Switch, A.Throw, A.Try, A.Labelled)


def _at_loop(e: ScriptError, node, keyword: str) -> ScriptError:
    """A step-budget error is reported at the keyword of the innermost loop that was running."""
    if e.slug == "script-step-budget" and not getattr(e, "at_loop", False):
        sp = node.span
        e.span = Span(sp.file, sp.line, sp.column, sp.line, sp.column + len(keyword))
        e.at_loop = True
    return e
