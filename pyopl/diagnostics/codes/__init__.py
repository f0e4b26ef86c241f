"""Every diagnostic kind, grouped by stage; importing this package fills the registry."""
from . import syntax, names, types, indexing, data, linearity, unsupported, solver, language, warnings, limits, interface, files, script, script_host, constructs  # noqa: F401
from . import strict_types  # noqa: F401  (1100-1119: unsigned data, 32-bit int, tuple indexing)
from . import editor  # noqa: F401  (1220-1229: the language server's project setting)
