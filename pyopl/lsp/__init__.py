"""The OPL language server (``pyopl lsp``; needs the ``lsp`` extra: pygls and lsprotocol).

:mod:`.analysis` analyses a model with its data, :mod:`.features` answers hover, definition,
references, symbols and completion on an analysis, :mod:`.server` speaks LSP over stdio.
"""
