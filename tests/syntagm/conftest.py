"""Fixtures for the syntagm tests: the scripted server, fast client settings, the compiler backends."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

from syntagm_testkit import ScriptedCompiler, ScriptedServer, pyopl_ready  # noqa: E402


@pytest.fixture
def server():
    s = ScriptedServer()
    yield s
    s.close()


@pytest.fixture
def llm_config(server):
    from syntagm.llm.client import LLMConfig

    return LLMConfig(model="gpt-4o-mini", base_url=server.url, api_key="sk-test-SECRET-KEY", timeout_s=5.0,
                     max_retries=3, backoff_s=0.01, backoff_max_s=0.05)


@pytest.fixture
def client(llm_config):
    from syntagm.llm.client import OpenAIChatClient

    return OpenAIChatClient(llm_config)


@pytest.fixture(params=["scripted", "pyopl"])
def compiler_backend(request, monkeypatch):
    """Run a loop test with the scripted compiler and, when it is importable, with the real pyopl."""
    if request.param == "pyopl":
        if not pyopl_ready():
            pytest.skip("pyopl.compile_model/check are not importable yet")
        return "pyopl"
    import syntagm.assess.compiler as comp

    fake = ScriptedCompiler()
    monkeypatch.setattr(comp, "check", fake.check)
    monkeypatch.setattr(comp, "solve", fake.solve)
    return "scripted"
