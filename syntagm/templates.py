"""Versioned prompt templates, stored as files in ``syntagm/prompts/``.

A template file is ``<name>.v<N>.md``. Its text is split into chat messages
by lines ``@@ system`` / ``@@ user`` / ``@@ assistant``; a file without such
lines is a snippet (plain text used inside another template). Placeholders
are ``$name`` (:class:`string.Template`), which never clash with OPL code or
JSON braces. :data:`PROMPT_VERSIONS` pins the version used for each name, and
every LLM call records the id (``generate.v1``) in its telemetry.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .errors import SyntagmError
from .tokens import estimate_text_tokens

#: The template version used for each prompt.
PROMPT_VERSIONS = {
    "system": 1, "generate": 1, "exemplar": 1, "syntax_repair": 2, "alignment_repair": 1,
    "contract_repair": 1, "judge": 1, "cot": 1, "reflect": 2, "opl_reference": 1,
    # tree of thoughts
    "tot": 1, "tot_expand": 1, "tot_select": 1,
    # chain of experts
    "coe_interpreter": 1, "coe_parameters": 1, "coe_modeller": 1, "coe_programmer": 1, "coe_reviewer": 1,
    "coe_conductor": 1, "coe_reducer": 1, "coe_reflect": 1,
    # staged (parameters -> objective -> variables -> constraints -> model)
    "staged_system": 1, "staged_parameters": 2, "staged_objective": 2, "staged_variables": 2,
    "staged_constraints": 2, "staged_model": 1,
}

_ROLE_LINE = re.compile(r"^@@ (system|user|assistant)[ \t]*$", re.MULTILINE)

#: Prompt-token ceiling for using ``grammar/PyOPL.md`` as the reference in ``auto`` mode.
GRAMMAR_REFERENCE_MAX_TOKENS = 1500


@dataclass(frozen=True)
class Template:
    """A loaded template: ``id`` (``generate.v1``), ``sections`` as ``[(role, text)]`` or a snippet ``text``."""

    id: str
    sections: tuple[tuple[str, str], ...]
    text: str

    def messages(self, **values: str) -> list[dict[str, str]]:
        """The chat messages with ``$placeholders`` filled. Raises :class:`SyntagmError` on a missing value."""
        return [{"role": role, "content": _fill(self.id, body, values)} for role, body in self.sections]

    def fill(self, **values: str) -> str:
        """The snippet text with ``$placeholders`` filled."""
        return _fill(self.id, self.text, values)


def _fill(tid: str, body: str, values: dict[str, str]) -> str:
    try:
        return string.Template(body).substitute(values)
    except KeyError as e:
        raise SyntagmError(f"prompt template {tid} needs a value for ${e.args[0]}") from None


@lru_cache(maxsize=None)
def load(name: str) -> Template:
    """The template ``name`` at its pinned version, read from the package's ``prompts/`` folder."""
    version = PROMPT_VERSIONS.get(name)
    if version is None:
        raise SyntagmError(f"no prompt template called {name!r}")
    tid = f"{name}.v{version}"
    try:
        raw = resources.files("syntagm").joinpath("prompts", tid + ".md").read_text(encoding="utf-8")
    except OSError:
        raise SyntagmError(f"prompt template file prompts/{tid}.md is missing from the syntagm package") from None
    parts = _ROLE_LINE.split(raw)
    if len(parts) == 1:
        return Template(tid, (), raw.strip("\n"))
    sections = tuple((parts[i], parts[i + 1].strip("\n")) for i in range(1, len(parts), 2))
    return Template(tid, sections, "")


def _grammar_doc() -> Any:
    """``grammar/PyOPL.md`` (installed as package data of ``pyopl.grammar``), or ``None`` if it is not installed."""
    try:
        doc = resources.files("pyopl.grammar").joinpath("PyOPL.md")
    except ModuleNotFoundError:
        return None
    return doc if doc.is_file() else None


#: The grammar reference modes (``--grammar-ref``).
GRAMMAR_MODES = ("auto", "compact", "full", "none")
#: What the prompt says in place of a reference under ``--grammar-ref none``.
NO_REFERENCE = "(none given: write the OPL you know)"


@lru_cache(maxsize=None)
def grammar_reference(mode: str = "auto") -> tuple[str, str]:
    """``(reference text, origin)`` for the generation prompt.

    ``mode``: ``"compact"`` – the built-in summary ``prompts/opl_reference.v1.md``
    (about 600 tokens); ``"full"`` – ``grammar/PyOPL.md`` whatever its size;
    ``"auto"`` – ``grammar/PyOPL.md`` when it exists and fits in
    :data:`GRAMMAR_REFERENCE_MAX_TOKENS` estimated tokens, else the summary;
    ``"none"`` – no reference at all (an ablation: the prompt says so in one line).
    ``origin`` names what was used (``grammar/PyOPL.md``, ``opl_reference.v1`` or ``none``).
    """
    if mode not in GRAMMAR_MODES:
        raise SyntagmError(f"grammar reference mode must be one of {', '.join(GRAMMAR_MODES)}, not {mode!r}")
    if mode == "none":
        return NO_REFERENCE, "none"
    doc = _grammar_doc() if mode != "compact" else None
    if doc is not None:
        text = doc.read_text(encoding="utf-8").strip()
        if mode == "full" or estimate_text_tokens(text) <= GRAMMAR_REFERENCE_MAX_TOKENS:
            return text, "grammar/PyOPL.md"
    elif mode == "full":
        raise SyntagmError("--grammar-ref full needs grammar/PyOPL.md, which is not there")
    t = load("opl_reference")
    return t.text, t.id
