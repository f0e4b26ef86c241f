"""The lowering driver: a model's items evaluated in source order into an :class:`Instance`.

OPL's rule is that a name is usable after its declaration, so items run in order, except the
objective, which runs after the constraints (their single-variable rows bound the variables that
a linearisation in the objective needs).  Each item's :class:`EvalError` is reported and the next
item goes on; a failed declaration is remembered so later uses stay silent.  Script blocks run
through ``inst.script_host`` (see :class:`Instance`).
"""
from __future__ import annotations

from ...diagnostics.diagnostic import Label
from ...diagnostics.reporter import did_you_mean
from ...syntax import ast as A
from ..cp.constraints import check_cp_model
from .declarations import process_item
from .defaults import warn_defaults
from ..forms.errors import EvalError
from .instance import Instance, Symbol
from .lazy_data import external_first, lazy_of


def run(inst: Instance) -> None:
    """Evaluate every item of ``inst.model`` into ``inst`` (the objective after the constraints);
    each item's mistakes are reported to ``inst.reporter`` and the next item goes on."""
    deferred = []
    items = external_first(list(inst.model.items)) if inst.has_scripts else inst.model.items
    for item in items:
        if isinstance(item, A.Objective):
            # Evaluated after the constraints, whose single-variable rows may bound the
            # variables that a linearisation in the objective needs (OPL's order does not matter here).
            deferred.append(item)
            inst.after_model = True
            continue
        was_after = inst.after_model
        _process(inst, item)
        lazy = lazy_of(inst)
        if lazy is not None:  # IBM's lazy initialisation (lazy_data.py)
            if isinstance(item, A.ScriptBlock):
                if item.kind != "main" and not was_after:
                    lazy.after_script(item.body)
            else:
                lazy.after_item(item)
        if inst.budget.exhausted:
            return  # every later expansion would fail the same way: one diagnostic is enough
        if isinstance(item, A.ConstraintsBlock):
            inst.after_model = True
    for item in deferred:
        if inst.budget.exhausted:
            return
        _process(inst, item)
    if inst.has_scripts:
        inst.script_host.finish_pre(inst)
    else:
        warn_defaults(inst, lambda name: False)
    if inst.engine == "cp":
        check_cp_model(inst)
    _check_unused_data(inst)

# Errors that, in a data declaration or an assertion placed after the model, mean it reads the
# solution: OPL post-processing, computed after the solve (IBM, "Postprocessing of data").
_POST_SLUGS = frozenset({"decision-in-data", "nonlinear-division", "nonlinear-product", "nonlinear-expression",
                         "nonlinear-function", "decision-in-condition", "decision-as-index", "decision-in-membership",
                         "decision-in-filter", "decision-in-iteration", "decision-in-assert",
                         "strict-inequality-float", "nonlinear-not-equal-float"})
#: Kinds of symbol a second declaration of the same name collides with.
_DECLARED = ("param", "set", "range", "dvar", "dexpr", "tuple", "failed")


def _unknown_type(inst: Instance, item: A.Node) -> bool:
    """A data declaration whose type is no type (`minimise x;` read as a declaration of type
    `minimise`): the name checker already reported it, so it declares nothing twice."""
    if not isinstance(item, A.ParamDecl) or item.type.is_set:
        return False
    name = item.type.name
    return name not in ("int", "float", "string", "boolean", "int+", "float+") and name not in inst.symbols


def _process(inst: Instance, item: A.Node) -> None:
    name = getattr(item, "name", None)
    old = inst.symbols.get(name) if isinstance(name, str) and hasattr(item, "name_span") else None
    if old is not None and old.kind in _DECLARED and isinstance(item, (A.ParamDecl, A.DvarDecl, A.DexprDecl, A.TupleDecl)) \
            and not _unknown_type(inst, item):
        # said before the second declaration is evaluated: its own errors (its data, say) would
        # otherwise hide the duplicate, and the first one's failure would hide it for good
        inst.declare(Symbol(old.kind, name, None, item), item.name_span)
        return
    try:
        process_item(inst, item)
    except EvalError as e:
        name = getattr(item, "name", None)
        if inst.after_model and e.slug in _POST_SLUGS and isinstance(item, (A.ParamDecl, A.RangeDecl, A.Assert)):
            # OPL post-processing: data computed, and assertions checked, on the solution after the
            # solve (pyopl.script.postsolve); a script that reads the data gets the computed value.
            if isinstance(item, A.Assert):
                inst.post_asserts.append(item)
            else:
                inst.symbols.setdefault(name, Symbol("postproc", name, None, item))
            return
        e.report(inst.reporter)
        if name and name not in inst.symbols:
            inst.symbols[name] = Symbol("failed", name, None, item)


def _check_unused_data(inst: Instance) -> None:
    for name, item in inst.data.items():
        if name in inst.used_data:
            continue
        sym = inst.symbols.get(name)
        if sym is not None and (sym.kind in ("failed", "postproc") or isinstance(getattr(sym.decl, "init", None), A.External)):
            continue  # its declaration failed (already reported) or it reads `...`: no follow-on warning
        if sym is None:
            hint = did_you_mean(name, [s for s in inst.symbols if inst.symbols[s].kind in ("param", "set", "range", "failed")])
            inst.reporter.emit("data-unknown-name", item.name_span,
                               "the data sets `%s`, which the model does not declare" % name,
                               help=hint or "declare it in the model (`... %s = ...;`) or remove it from the data" % name)
        elif sym.kind in ("dvar", "dexpr"):
            inst.reporter.emit("data-for-decision", item.name_span,
                               "the data sets `%s`, which is a decision %s: the solver chooses its value" % (
                                   name, "variable" if sym.kind == "dvar" else "expression"),
                               labels=[Label(getattr(sym.decl, "name_span", sym.decl.span), "declared here")],
                               help="remove it from the data; to fix the value, add a constraint `%s == ...;`" % name)
        else:
            inst.reporter.emit("data-not-external", item.name_span,
                               "the data sets `%s`, but the model gives it a value already" % name,
                               labels=[Label(getattr(sym.decl, "name_span", sym.decl.span), "declared here")],
                               help="declare it as `... %s = ...;` to read it from the data, or remove it from the data" % name)
