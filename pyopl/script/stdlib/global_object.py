"""The global object of an interpreter without a host (ECMAScript 3, 15.1)."""
from __future__ import annotations

from ..language.convert import to_string
from ..language.values import UNDEFINED, HostObject

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


class HostGlobalObject(HostObject):
    """The global object of an interpreter with a host (``this`` at the top level and in a plain call,
    ES3 10.2.3): the script's own globals (``var top = 7;`` of the block) first, then the host's names
    (the model's elements, ``cplex``, ...)."""

    def __init__(self, interp, host):
        self.interp = interp
        self.host = host
        self.type_name = getattr(host, "type_name", "global")

    def get_member(self, name, span):
        v = self.interp.globals.get(name, _MISSING)
        return v if v is not _MISSING else self.host.get_member(name, span)

    def get_index(self, key, span):
        return self.get_member(to_string(key), span)

    def has_member(self, name):
        return name in self.interp.globals or self.host.has_member(name)

    def set_member(self, name, value, span):
        if name in self.interp.globals or not self.host.has_member(name):
            self.interp.globals[name] = value
        else:
            self.host.set_member(name, value, span)

    def set_index(self, key, value, span):
        self.set_member(to_string(key), value, span)

    def iter_keys(self):
        return list(self.interp.globals) + [k for k in self.host.iter_keys() if k not in self.interp.globals]

    def member_names(self):
        return sorted(set(self.interp.globals) | set(self.host.member_names()))

    def to_number(self):
        return self.host.to_number()

    def to_display(self):
        return self.host.to_display()
