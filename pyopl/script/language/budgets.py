"""The step, memory and string budgets of a script run, as a mixin of the interpreter (needs
``steps``, ``max_steps``, ``memory``, ``max_memory``)."""
from __future__ import annotations

from ...diagnostics.diagnostic import Span
from .convert import CHARS_PER_STEP
from .values import ScriptError


#: How a user raises the memory budget: the help named `Interpreter(..., max_memory=N)`, a class of
#: the engine that no user calls (the option reaches it from `compile_model`'s `scripts=`).
_RAISE_MEMORY = ("(from Python, `compile_model(..., scripts=ScriptOptions(max_memory=N))` raises the budget; "
                 "`ScriptOptions` is in `pyopl.script.opl.options`)")


class Budgets:
    """``charge`` (steps), ``alloc`` (slots), ``check_string`` (one string's length)."""

    def budget_error(self, slug: str, message: str, span: Span, help: str) -> ScriptError:
        return ScriptError(slug, message, span, help, catchable=False)

    def charge(self, units: int, span: Span) -> None:
        """Count ``units`` steps of work done inside a built-in (copying, scanning, sorting).

        Arrays cost one step per element touched, strings one per :data:`CHARS_PER_STEP`
        characters, so that no single built-in call can outlast the step budget by much.
        """
        self.steps += units
        if self.steps > self.max_steps:
            self._out_of_steps(None, span)

    def _out_of_steps(self, node, span: Span | None = None) -> None:
        raise self.budget_error("script-step-budget",
                                "the script exceeded its step budget of %d steps" % self.max_steps,
                                node.span if node is not None else span,
                                "check that this loop ends; a longer script needs a larger budget "
                                "(`pyopl solve --script-steps N`; `script_steps=N` in Python)")

    def alloc(self, units: int, span: Span) -> None:
        """Charge ``units`` array/object slots (before allocating them); raise past ``max_memory``."""
        self.memory += units
        if self.memory > self.max_memory or units < 0:
            raise self.budget_error("script-memory-budget",
                                    "the script exceeded its memory budget of %d units" % self.max_memory, span,
                                    "create fewer or smaller arrays and objects " + _RAISE_MEMORY)

    def check_string(self, length: int, span: Span) -> None:
        """Refuse a string longer than ``max_memory`` characters before building it; charge its copying."""
        if length >= CHARS_PER_STEP:
            self.charge(length // CHARS_PER_STEP, span)
        if length > self.max_memory:
            raise self.budget_error("script-memory-budget",
                                    "the script builds a string of %d characters, over its memory budget of %d"
                                    % (length, self.max_memory), span,
                                    "build shorter strings " + _RAISE_MEMORY)


def active() -> "Budgets | None":
    """The interpreter running in this thread (a host object's method is charged to it), or None."""
    from .convert import ACTIVE

    return getattr(ACTIVE, "interp", None)


def charge_chars(chars: int, span: Span | None) -> None:
    """Charge work over ``chars`` characters (or elements) to the running interpreter: one step per
    :data:`CHARS_PER_STEP` (copying, printing, converting); nothing outside a run."""
    interp = active()
    if interp is not None and chars >= CHARS_PER_STEP:
        interp.charge(chars // CHARS_PER_STEP, span or interp.last_span)


def hold(units: int, span: Span | None) -> None:
    """Count ``units`` (characters or slots a host object keeps: an output string or file's text,
    an input file's lines) against the running interpreter's memory budget; nothing outside a run."""
    interp = active()
    if interp is not None and units > 0:
        interp.alloc(units, span or interp.last_span)


class metered:
    """``with metered(meter, interp):`` runs ``interp`` on the run's budgets: it starts from what the
    model's earlier blocks spent (``meter``: :class:`pyopl.script.opl.options.RunMeter`) and adds what it
    spends, so that ten blocks share one step budget instead of having ten."""

    def __init__(self, meter, interp) -> None:
        self.meter, self.interp = meter, interp

    def __enter__(self):
        if self.meter is not None:
            self.interp.steps, self.interp.memory = self.meter.steps, self.meter.memory
        self.start = (self.interp.steps, self.interp.memory)
        return self.interp

    def __exit__(self, *exc) -> None:
        if self.meter is not None:
            self.meter.steps += max(0, self.interp.steps - self.start[0])
            self.meter.memory += max(0, self.interp.memory - self.start[1])
