"""How scripts run (:class:`ScriptOptions`), apart from the host objects so that compiling a
model without scripts does not import the script interpreter."""
from __future__ import annotations

DEFAULT_STEPS = 2_000_000  # statements and expressions a script may evaluate (about a second or two)
DEFAULT_MEMORY = 5_000_000  # script values (array items, object properties, string characters) it may hold


class ScriptOptions:
    """How scripts run: ``max_steps`` (the step budget), ``max_memory``, ``output_dir`` (where
    ``IloOplOutputFile`` may write; the model's folder when None), ``enabled`` (False:
    ``--no-scripts``)."""

    def __init__(self, max_steps: int | None = None, max_memory: int | None = None, output_dir: str | None = None,
                 enabled: bool = True, keep_instance: bool = False):
        self.max_steps = max_steps or DEFAULT_STEPS
        self.max_memory = max_memory or DEFAULT_MEMORY
        self.output_dir = output_dir
        self.enabled = enabled
        self.keep_instance = keep_instance  # keep a context even without scripts (a model made by `main`)
