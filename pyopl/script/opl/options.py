"""How scripts run (:class:`ScriptOptions`), apart from the host objects so that compiling a
model without scripts does not import the script interpreter."""
from __future__ import annotations

import copy

#: statements and expressions the scripts of one run may evaluate: at the rates measured by
#: benchmarks/script_steps.py (about 5 million plain steps a second, 1.3 million steps on OPL
#: arrays), 10 to 40 seconds of one core; memory is bounded apart (DEFAULT_MEMORY), so a larger
#: step budget costs time only (docs/scripting.md, Limits)
DEFAULT_STEPS = 50_000_000
#: the step budget of an editor's analysis (pyopl/lsp): the old default, about half a second, so that a
#: runaway loop typed in an editor does not hold the re-checks of the next keystrokes for tens of seconds
EDITOR_STEPS = 2_000_000
DEFAULT_MEMORY = 5_000_000  # script values (array items, object properties, string characters) it may hold
#: bytes the scripts of one run may write into files, all files together (docs/limits.md)
DEFAULT_WRITTEN = 200_000_000
#: the default output folder of a model file ``plan.mod``: ``plan.out`` beside it (docs/safety.md)
OUTPUT_SUFFIX = ".out"


class RunMeter:
    """What the scripts of one run spent so far, shared by all of the model's blocks (and the
    models its ``main`` makes), so that the step and memory budgets are the model's, not each
    block's: ``steps``, ``memory`` (slots and characters held) and ``written`` (bytes written)."""

    def __init__(self) -> None:
        self.steps = 0
        self.memory = 0
        self.written = 0


class ScriptOptions:
    """How scripts run: ``max_steps`` (the step budget), ``max_memory``, ``output_dir`` (the folder
    where ``IloOplOutputFile`` writes; None: ``<model stem>.out`` beside the model file, made on the
    first write), ``enabled`` (False: ``--no-scripts``), ``analysis`` (True for ``check``, the
    language server and the MCP ``check`` tool: scripts run, every file name is checked as for a
    solve, but nothing is written; the file's text goes to a sink in memory), ``input_dir`` (the
    folder a model given as text reads its files from, as a model file reads beside itself: the
    language server's document folder; None: a text model reads only inside ``output_dir``),
    ``max_written`` (bytes the run's scripts may write into files, all files together). The step
    and memory budgets are the model's: its blocks share them (:class:`RunMeter`)."""

    def __init__(self, max_steps: int | None = None, max_memory: int | None = None, output_dir: str | None = None,
                 enabled: bool = True, keep_instance: bool = False, analysis: bool = False,
                 input_dir: str | None = None, max_written: int | None = None):
        self.max_steps = max_steps or DEFAULT_STEPS
        self.max_memory = max_memory or DEFAULT_MEMORY
        self.output_dir = output_dir
        self.enabled = enabled
        self.keep_instance = keep_instance  # keep a context even without scripts (a model made by `main`)
        self.analysis = analysis
        self.allow_db_writes = False  # the data's DBExecute may change any table (pyopl.data.connections.confine)
        self.input_dir = input_dir
        self.max_written = max_written or DEFAULT_WRITTEN  # bytes all output files of a run may hold
        self.meter: RunMeter | None = None  # set for the models `main` makes: they spend the run's budgets
        self.default_output = False  # output_dir is a default folder (a model of `main`): made when missing

    def for_analysis(self) -> "ScriptOptions":
        """A copy with ``analysis`` on (nothing is written)."""
        other = copy.copy(self)
        other.analysis = True
        return other
