"""Calls in a ``main`` block found before it runs: methods of ``cplex`` and ``thisOplModel`` pyopl does
not have (a misspelling when one or two letters off a real one), and unsupported IBM globals.

Used by :func:`pyopl.script.flow.main_flow.run_main` (refused before anything is solved) and by the check of
a ``main`` block (:func:`pyopl.script.flow.processing.syntax_check`, the misspellings only).
"""
from __future__ import annotations

from typing import Any

from ..opl.host_errors import host_error

_MODEL_METHODS = ("generate", "postProcess", "printSolution", "addDataSource", "end", "getObjValue", "hasObjective",
                  "resolvePath", "printConflict", "convertAllIntVars", "unconvertAllIntVars", "setPoolSolution",
                  "printRelaxation", "applyOpsSettings", "printExternalData", "printInternalData", "getObjective")


#: IloCplex's Benders annotation methods (IBM ILOG Script for OPL, ``IloCplex``; CPLEX's annotated
#: Benders decomposition): they steer CPLEX's algorithm only, so the answer is to solve without them
BENDERS_ANNOTATIONS = frozenset({"newLongAnnotation", "newDoubleAnnotation", "setLongAnnotation",
                                 "setLongAnnotations", "setDoubleAnnotation", "setDoubleAnnotations",
                                 "getLongAnnotation", "getDoubleAnnotation", "writeBendersAnnotation",
                                 "readAnnotations", "writeAnnotations", "deleteAnnotation"})


#: IloCplex methods of IBM's reference that pyopl's engine object lacks and that are no misspelling of one it has
IBM_ONLY = BENDERS_ANNOTATIONS | {"importModel"}


def _new_engines(program: Any, S: Any) -> set[str]:
    """Names a ``main`` body gives ``new IloCplex()`` (``var sub = new IloCplex();`` or ``sub = new IloCplex();``)."""
    import dataclasses

    found: set[str] = set()

    def is_cplex(v: Any) -> bool:
        return isinstance(v, S.New) and isinstance(v.callee, S.Name) and v.callee.name == "IloCplex"

    def visit(node: Any) -> None:
        if isinstance(node, (list, tuple)):
            for x in node:
                visit(x)
            return
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            return
        if isinstance(node, S.VarDecl):
            found.update(name for name, init, _span in node.decls if is_cplex(init))
        elif isinstance(node, S.Assign) and isinstance(node.target, S.Name) and is_cplex(node.value):
            found.add(node.target.name)
        for f in dataclasses.fields(node):
            if f.name != "span":
                visit(getattr(node, f.name))

    visit(program)
    return found


def unsupported_calls(program: Any) -> list:
    """Calls in a ``main`` body that pyopl cannot run, found before anything runs: methods of
    ``cplex`` and ``thisOplModel`` it does not have, and unsupported IBM globals
    (``IloOplExec``, ...). Each is a :class:`~pyopl.script.opl.host_errors.HostError` at the method's name."""
    import dataclasses

    from ...diagnostics.reporter import edit_distance, near_miss
    from ..language import ast as S
    from .opl_runtime import UNSUPPORTED_GLOBALS, CplexHost, unsupported_help

    cplex_methods = set(CplexHost(None)._methods())
    out: list = []
    engines = {"cplex"} | _new_engines(program, S)  # `var sub = new IloCplex();` has `cplex`'s methods

    def visit(node: Any) -> None:
        if isinstance(node, list):
            for x in node:
                visit(x)
            return
        if isinstance(node, tuple):
            for x in node:
                visit(x)
            return
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            return
        if isinstance(node, (S.Call, S.New)):
            c = node.callee
            if isinstance(c, S.Member) and isinstance(c.obj, S.Name):
                known = cplex_methods if c.obj.name in engines else {"thisOplModel": set(_MODEL_METHODS)}.get(c.obj.name)
                real = c.obj.name in engines and c.name in IBM_ONLY  # IBM's own method, not a misspelling
                best = near_miss(c.name, known) if known is not None and c.name not in known and not real else None
                if best is not None and edit_distance(c.name.lower(), best.lower()) > 2:
                    best = None  # one or two letters off only (`thisOplModel.demand()` is no `end()`)
                if best is not None:  # a misspelt method, not a missing feature
                    out.append(host_error("script-unknown-name", "%s has no method `%s`; did you mean `%s`?" % (
                        "IloCplex" if c.obj.name in engines else "IloOplModel", c.name, best), c.name_span,
                        help="write `%s.%s`" % (c.obj.name, best)))
                elif known is not None and c.name in BENDERS_ANNOTATIONS and c.obj.name in engines:
                    out.append(host_error("script-unsupported", "`%s.%s()` is not supported by pyopl: CPLEX's Benders "
                                          "annotations choose how CPLEX decomposes the model" % (c.obj.name, c.name),
                                          c.name_span, help="remove the annotation calls: they do not change the "
                                          "model or its optimum, which `%s.solve()` finds without them" % c.obj.name))
                elif known is not None and c.name == "importModel" and c.obj.name in engines:
                    out.append(host_error("script-unsupported", "`%s.importModel()` is not supported by pyopl: a script "
                                          "reads no model file into an engine" % c.obj.name, c.name_span,
                                          help="build the model from its OPL definition instead: `var m = new "
                                          "IloOplModel(thisOplModel.modelDefinition, %s); m.generate();`" % c.obj.name))
                elif known is not None and c.name not in known:
                    out.append(host_error("script-unsupported", "`%s.%s()` is not supported by pyopl" % (c.obj.name, c.name),
                                          c.name_span, help="the supported methods are %s; see docs/scripting.md" % ", ".join(
                                              "`%s`" % m for m in sorted(known))))
            elif isinstance(c, S.Name) and c.name in UNSUPPORTED_GLOBALS:
                out.append(host_error("script-unsupported", "`%s` is not supported by pyopl" % c.name, c.span,
                                      help=unsupported_help(c.name)))
        for f in dataclasses.fields(node):
            if f.name != "span":
                visit(getattr(node, f.name))

    visit(program)
    return out
