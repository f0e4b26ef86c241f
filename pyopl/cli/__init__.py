"""The command line: ``pyopl check|solve|export|explain`` (:func:`main`), its exit codes and
the imports it defers; :func:`run` is the program itself."""
from .commands import main, run

__all__ = ["main", "run"]
