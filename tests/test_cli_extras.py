"""`pyopl lsp` and `pyopl mcp` without their extra: one line with the install command, exit 2,
no traceback (issue 30; `pyopl mcp` printed a traceback and exited 1).  The missing extra is
simulated by blocking its modules in ``sys.modules`` (an import of a None entry fails)."""
from __future__ import annotations

import sys

import pytest

from pyopl.cli.commands import main

BLOCK = {"lsp": ["pygls", "lsprotocol"], "mcp": ["mcp", "mcp.server", "mcp.server.fastmcp"]}


@pytest.mark.parametrize("which", ["lsp", "mcp"])
def test_a_server_without_its_extra_names_the_install_command(which, monkeypatch, capsys):
    for name in BLOCK[which]:
        monkeypatch.setitem(sys.modules, name, None)
    assert main([which]) == 2
    err = capsys.readouterr().err
    assert 'pip install "pyopl[%s]"' % which in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
