"""What every closure maker shares (:mod:`.compiled` for operators, names and indexing,
:mod:`.compiled_calls` for built-in calls and casts): the closure type, the two ways out of a
closure, the sentinels and the depth limit.

A leaf module: the makers import it, and :func:`compiled.compile_expr <pyopl.lowering.evaluate.compiled.compile_expr>`
hands itself to :mod:`.compiled_calls` as an argument, so neither maker module imports the other
upwards.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

Closure = Callable[[dict], Any]
_MISSING = object()
NOT_COVERED = object()  # what `try_closure` returns when the tree walk must evaluate the node
_BIG = 2 ** 1000  # ints below this convert to float exactly enough for `OplRange.__contains__`'s test
_NEG_BIG = -_BIG  # (made once: negating a 1000-bit int makes a new one at every test)
NUMBER_COMPARE = {"==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge, "<": operator.lt,
                  ">": operator.gt}  # a comparison of two numbers, by operator
# A deep tree is left to the tree walk: a closure takes one Python frame per level where the tree
# walk takes two or more, so a tree that exhausts the interpreter's stack must do so as it did.
MAX_DEPTH = 64

#: ``compile_expr(ev, node, depth) -> Closure``: the maker of a sub-expression's closure, passed down
#: to the makers that need one (see :func:`pyopl.lowering.evaluate.compiled.compile_expr`).
Compile = Callable[[Any, Any, int], Closure]


class _Bail(Exception):
    """The closure does not cover this value: evaluate the node through the tree walk."""


class _Unsupported(Exception):
    """A node kind or operator that :func:`~pyopl.lowering.evaluate.compiled.compile_expr` does not compile."""
