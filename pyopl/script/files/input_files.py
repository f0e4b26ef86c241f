"""``new IloOplInputFile(name)``: a script reads a text file beside the model (IBM ILOG Script for
OPL reference, IloOplInputFile: ``readline()``, ``eof``, ``exists``, ``close()``, ``open(name)``, ``isOpen``).

Where it reads is :func:`pyopl.script.files.input_paths.script_input`: a name relative to the model's
folder whose real path (symbolic links followed) stays inside it, or a file of the output folder
(one this run wrote is read back from there, or from the analysis sink); a model given as text
reads only inside its output folder. An absolute name, a ``..`` or a link leading out is refused
(OPL1056), a missing file is OPL1061 for ``open``. It
is read through :func:`pyopl.files.source_io.read_source_file` (bounded size; UTF-8, else
Windows-1252), all at once when opened, so a script never holds an open descriptor.
"""
from __future__ import annotations

from typing import Any

from ..opl.host_errors import host_error
from ..opl.opl_objects import _arg, _Host
from ..language.values import UNDEFINED


class InputFileHost(_Host):
    """An ``IloOplInputFile``: the lines of a file beside the model, read one by one."""

    type_name = "IloOplInputFile"

    def __init__(self, ctx: Any, args: list, span: Any):
        super().__init__(ctx)
        self.lines: list[str] = []
        self.pos = 0
        self.is_open = False
        self.exists = False
        if args and args[0] is not UNDEFINED:
            self._open(args, span, missing_ok=True)

    def _open(self, args: list, span: Any, missing_ok: bool = False) -> Any:
        """Open the file ``args[0]``; a missing file is an error for ``open(path)`` (IBM: "raises an
        error if the file does not exist") but not for the constructor, where ``exists`` says so."""
        from ...files.source_io import SourceProblem, read_source_file
        from .input_paths import script_input

        name = _arg(args, 0)
        if not isinstance(name, str) or not name:
            raise host_error("script-value-type", "`IloOplInputFile` needs a file name", span,
                             help='give a name such as `"values.txt"`, beside the model')
        target, text = script_input(self.ctx, name, span)
        if target is None and text is None:
            if missing_ok:
                self.exists = self.is_open = False
                return UNDEFINED
            raise host_error("script-file-not-found", "the input file `%s` does not exist" % name, span,
                             help="put the file beside the model, or check its name")
        import os

        from ..language.budgets import charge_chars, hold

        # the lines it keeps count against the script's memory budget, before the file is read
        size = len(text) if text is not None else os.path.getsize(target)
        hold(size, span)
        charge_chars(size, span)
        if text is None:
            try:
                text = read_source_file(target, [])[0]
            except SourceProblem as p:
                raise host_error("script-file-not-found", "the input file `%s` cannot be read: %s" % (name, p.message),
                                 span, help="put the file beside the model, or check its name")
        self.lines = text.splitlines()
        self.pos = 0
        self.is_open = self.exists = True
        return UNDEFINED

    def _methods(self) -> dict[str, Any]:
        return {"readline": self._readline, "close": self._close, "open": self._open}

    def _properties(self) -> list[str]:
        return ["eof", "exists", "isOpen"]

    def _readline(self, args: list, span: Any) -> Any:
        if not self.is_open or self.pos >= len(self.lines):
            return ""  # IBM's readline at the end of the file: an empty string (test `eof` first)
        line = self.lines[self.pos]
        self.pos += 1
        return line

    def _close(self, args: list, span: Any) -> Any:
        self.is_open = False
        return UNDEFINED

    def get_member(self, name: str, span: Any) -> Any:
        if name == "eof":
            return not self.is_open or self.pos >= len(self.lines)
        if name == "exists":
            return self.exists
        if name == "isOpen":  # a property (IBM: deprecated, "use exists instead")
            return self.is_open
        return self._method(name, span)
