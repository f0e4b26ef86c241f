"""Start-up checks: the installation can compile a model and retrieve exemplars.

A broken installation (a wheel without the grammar files, an empty knowledge
base) would otherwise surface only after the first LLM call: every compile then
fails with "file not found: .../opl.lark", and syntagm spends its whole budget
"repairing" a model that was never wrong, while retrieval silently returns no
exemplars. :func:`check_installation` runs before any LLM call and raises
:class:`~syntagm.errors.SyntagmError` with one clear message instead.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import SyntagmError

#: The smallest model that exercises parser, checker, lowering and IR (solved nowhere).
PROBE_MODEL = "dvar float+ x; minimize x; subject to { x >= 1; }"

_REINSTALL = "reinstall the package (pip install --force-reinstall pyopl) or report the broken installation"


def check_compiler() -> None:
    """Compile :data:`PROBE_MODEL`; raise :class:`SyntagmError` naming the first diagnostic if that fails."""
    try:
        import pyopl
    except ImportError as e:
        raise SyntagmError(f"the pyopl compiler cannot be imported ({e}); {_REINSTALL}") from None
    try:
        model = pyopl.compile_model(PROBE_MODEL)
    except pyopl.CompileError as e:
        first = e.diagnostics[0].message if e.diagnostics else "no diagnostic"
        raise SyntagmError(f"the pyopl compiler does not work in this installation: compiling a one-line "
                           f"model failed ({first}); {_REINSTALL}") from None
    if model.ir.num_cols != 1:  # pragma: no cover - a compiler bug, not an installation problem
        raise SyntagmError("the pyopl compiler returned a wrong model for a one-line probe; " + _REINSTALL)


def check_knowledge_base(kb_path: str | Path | None) -> tuple[Path | None, int]:
    """``(folder, number of exemplars)`` of the knowledge base retrieval would use.

    Raises :class:`SyntagmError` when an explicit ``kb_path`` is not a folder, or when the
    knowledge base holds no exemplar (retrieval would silently add none to the prompts)."""
    from .rag.knowledge import default_kb_path, load_knowledge_base

    if kb_path is not None and not Path(kb_path).is_dir():
        what = "is a file, not a folder" if Path(kb_path).exists() else "does not exist"
        raise SyntagmError(f"knowledge base folder {kb_path} {what} (--kb)")
    root = Path(kb_path) if kb_path is not None else default_kb_path()
    n = len(load_knowledge_base(root)) if root is not None else 0
    if n == 0:
        where = str(root) if root is not None else "the syntagm package (syntagm.knowledge_base)"
        hint = "" if kb_path is not None else f"; if it should ship with syntagm, {_REINSTALL}"
        raise SyntagmError(f"the knowledge base in {where} has no exemplars (folders with description.md and "
                           f"model.mod); pass --kb DIR, or --retriever none to run without exemplars{hint}")
    return root, n


def check_installation(args: Any) -> tuple[Path | None, int]:
    """The start-up check of ``syntagm solve``, ``bench`` and ``prompt-size`` (``args`` from the parser).

    The compiler always; the knowledge base unless ``--retriever none`` or ``--exemplars 0``.
    Returns ``(knowledge base folder, exemplars)``; ``(None, 0)`` when retrieval is off."""
    check_compiler()
    if (getattr(args, "retriever", None) or "bm25") == "none" or getattr(args, "exemplars", None) == 0:
        return None, 0
    return check_knowledge_base(getattr(args, "kb", None))
