"""Every diagnostic kind, grouped by stage; importing this package fills the registry."""
from . import syntax, names, types, indexing, data, linearity, unsupported, solver, language, warnings, limits, script, script_host  # noqa: F401
