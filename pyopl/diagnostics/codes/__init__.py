"""Every diagnostic kind, grouped by stage; importing this package fills the registry."""
from . import syntax, names, types, indexing, data, linearity, unsupported, solver, language, warnings, limits, constructs  # noqa: F401
