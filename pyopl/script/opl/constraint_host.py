"""``IloConstraint`` in scripts: a labelled constraint (or an array of them) with its dual, slack,
bounds (``LB``, ``UB``, ``setBounds``) and coefficients (``setCoef``, ``getCoef``), changed in ``main``
between solves (IBM ILOG Script for OPL, class ``IloConstraint``)."""
from __future__ import annotations

from typing import Any

from .host_errors import host_error
from .opl_objects import DvarHost, _arg, _Host, _num, display, to_key, to_script
from ..language.values import UNDEFINED


class ConstraintHost(_Host):
    """A labelled constraint (or an array of them) after the solve: ``dual``, ``slack``, bounds."""

    def __init__(self, ctx: Any, label: str, prefix: tuple = ()):
        super().__init__(ctx)
        self.label = label
        self.prefix = prefix
        self.type_name = "IloConstraint"

    @property
    def script_class(self) -> str:
        """``IloConstraint`` for one labelled constraint, ``IloMap`` for an array of them (IBM's ``IloMap`` page)."""
        return "IloMap" if self.ctx.label_first_keys(self.label, self.prefix) else "IloConstraint"

    def _text(self) -> str:
        return self.label + "".join("[%s]" % display(p, True) for p in self.prefix)

    def _properties(self) -> list[str]:
        return ["dual", "slack", "LB", "UB", "name"]

    def get_member(self, name: str, span: Any) -> Any:
        if name in ("dual", "slack"):
            return self.ctx.row_value(name, self.label, self.prefix, self._text(), span)
        if name in ("LB", "UB", "lb", "ub"):
            return self.ctx.row_bound(self.label, self.prefix, name.upper(), self._text(), span)
        if name == "name":
            return self._text()
        return self._method(name, span)

    def _methods(self) -> dict[str, Any]:
        return {"setCoef": self._set_coef, "getCoef": self._get_coef, "setBounds": self._set_bounds}

    def _set_bounds(self, args: list, span: Any) -> Any:
        """``ct.setBounds(lb, ub)`` (IBM's IloConstraint): both bounds of the row at once, in ``main``."""
        self.set_member("LB", _arg(args, 0), span)
        self.set_member("UB", _arg(args, 1), span)
        return UNDEFINED

    def set_member(self, name: str, value: Any, span: Any) -> None:
        if name in ("LB", "UB", "lb", "ub") and self.ctx.phase == "main":
            # between solves in `main` (IBM ILOG Script for OPL, IloConstraint "LB"/"UB")
            v = _num(self.ctx, value, span, "the bound of `%s`" % self._text())
            self.ctx.set_row_bound(self.label, self.prefix, name.upper(), v, self._text(), span)
            return
        raise host_error("script-forbidden-assignment", "the constraint `%s` cannot be changed by a script here" % self._text(),
                         span, help="change its bounds (`ct.UB = ...`) or coefficients (`ct.setCoef(x, 2)`) in `main` "
                                    "between solves, or the data it is built from in a block before the constraints")

    def _set_coef(self, args: list, span: Any) -> Any:
        """``ct.setCoef(x[i], v)``: the coefficient of a decision in this row, in `main` between solves."""
        var, v = _arg(args, 0), _num(self.ctx, _arg(args, 1), span, "the coefficient")
        if self.ctx.phase != "main" or not isinstance(var, DvarHost) or not var.is_item:
            raise host_error("script-forbidden-assignment", "`setCoef` takes a decision variable item and a number, "
                             "in `main` between solves", span, help="write `ct.setCoef(x[i], 2);` after `generate()`")
        self.ctx.set_row_coef(self.label, self.prefix, var.column(), v, self._text(), span)
        return UNDEFINED

    def _get_coef(self, args: list, span: Any) -> Any:
        var = _arg(args, 0)
        if not isinstance(var, DvarHost) or not var.is_item:
            raise host_error("script-value-type", "`getCoef` takes a decision variable item", span,
                             help="write `ct.getCoef(x[i])`")
        return self.ctx.row_coef(self.label, self.prefix, var.column(), self._text(), span)

    def get_index(self, key: Any, span: Any) -> Any:
        return ConstraintHost(self.ctx, self.label, self.prefix + (to_key(key),))

    def iter_keys(self):
        return (to_script(self.ctx, k) for k in self.ctx.label_first_keys(self.label, self.prefix))

    def to_display(self) -> str:
        return self._text()
