"""The declared types of data that are not plain values: ``{elem}`` sets and array-valued tuple
fields (a leaf module: the checker in :mod:`pyopl.data.convert` and the pandas reader in
:mod:`pyopl.data.frames` both read them)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SetOf:
    """The type ``{elem}`` with OPL's ``ordered``/``sorted``/``reversed`` option."""

    elem: Any
    order: str | None = None


@dataclass(frozen=True)
class ArrayOf:
    """The type of an array-valued tuple field, ``int use[Resources]``: ``elem`` over index sets ``dims``."""

    elem: Any
    dims: tuple
