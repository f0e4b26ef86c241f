"""Diagnostic kinds: solver."""
from ..registry import register as R

