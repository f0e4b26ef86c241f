"""Diagnostic kinds OPL1160-OPL1199: constructs of real models and the mistakes LLMs make with them."""
from ..registry import register as R

R("OPL1160", "implication-of-numbers", "error", "`=>` between numbers (did you mean `>=`?)",
  """`=>` is logical implication: both sides must be constraints or booleans
(`b == 1 => x >= 3`). With a number on either side it is almost always `>=` typed
the wrong way round; read as an implication it would solve a different model.""",
  bad="dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to { x + y => 3; }",
  good="dvar float+ x;\ndvar float+ y;\nminimize x + y;\nsubject to { x + y >= 3; }",
  at=(4, 20), fixable="machine-applicable")
