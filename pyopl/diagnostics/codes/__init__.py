"""Every diagnostic kind, grouped by stage; importing this package fills the registry."""
from . import syntax, names, types, indexing, data, linearity, unsupported, solver, language, warnings, limits, interface, files, script, script_host, constructs  # noqa: F401
from . import semantics_round3  # noqa: F401  (11xx: unsigned data, 32-bit int, tuple indexing)
from . import editor  # noqa: F401  (1220-1229: the language server's project setting)
