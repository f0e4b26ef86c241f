"""The command line: ``pyopl check|solve|export|explain`` (:func:`main`), its exit codes and
the imports it defers."""
from .commands import main

__all__ = ["main"]
