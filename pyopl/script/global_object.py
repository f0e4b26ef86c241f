"""The global object of an interpreter without a host (ECMAScript 3, 15.1)."""
from __future__ import annotations

from .convert import to_string
from .values import UNDEFINED, HostObject

_MISSING = object()


class GlobalObject(HostObject):
    """The global object (15.1) of an interpreter without a host: ``this`` at the top level and
    in a plain call; its properties are the script's globals, then the built-ins."""

    type_name = "global"

    def __init__(self, interp):
        self.interp = interp

    def _get(self, name: str):
        v = self.interp.globals.get(name, _MISSING)
        if v is _MISSING:
            v = self.interp.builtins.get(name, UNDEFINED)
        return v

    def get_member(self, name, span):
        return self._get(name)

    def get_index(self, key, span):
        return self._get(to_string(key))

    def has_member(self, name):
        return name in self.interp.globals or name in self.interp.builtins

    def set_member(self, name, value, span):
        self.interp.globals[name] = value

    def set_index(self, key, value, span):
        self.interp.globals[to_string(key)] = value

    def iter_keys(self):
        return list(self.interp.globals)

    def member_names(self):
        return list(self.interp.globals) + list(self.interp.builtins)

    def to_display(self):
        return "[object global]"
