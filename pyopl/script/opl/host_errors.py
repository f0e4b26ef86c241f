"""Errors raised by the OPL host objects of IBM ILOG Script (codes OPL1050-OPL1099).

A host object that meets a user mistake (an index outside its set, a forbidden assignment,
a file outside the model's folder) raises :class:`HostError`: a
:class:`pyopl.script.language.values.ScriptError` that carries one of the ``script_host`` codes, so a
script's ``try``/``catch`` sees it as IBM's engine would, and an uncaught one ends the run
as a diagnostic at the script's own span.
"""
from __future__ import annotations

from typing import Any

from ..language.values import ScriptError


class HostError(ScriptError):
    """A host-object error: ``slug`` names a kind in :mod:`pyopl.diagnostics.codes.script_host`."""


def host_error(slug: str, message: str, span: Any, help: str | None = None) -> HostError:
    """A :class:`HostError` of kind ``slug`` at ``span`` (the script span of the offending expression)."""
    from ...diagnostics import codes  # noqa: F401  (fills the registry)
    from ...diagnostics.registry import BY_SLUG

    kind = BY_SLUG[slug]
    return HostError(slug, message, span, help, code=kind.code)
