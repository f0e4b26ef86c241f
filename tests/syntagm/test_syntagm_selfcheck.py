"""The start-up check: a broken compiler or an empty knowledge base stops syntagm before any LLM call."""
from __future__ import annotations

import json

import pytest

from syntagm.cli import main
from syntagm_testkit import GOOD, PROBLEM, gen


def _solve(monkeypatch, tmp_path, server, *args):
    (tmp_path / "workshop.txt").write_text(PROBLEM)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SYNTAGM_KB", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    return main(["solve", "workshop.txt", "-q", "--max-retries", "0", *args])


def test_empty_knowledge_base_fails_before_any_llm_call(server, tmp_path, monkeypatch, capsys):
    (tmp_path / "kb").mkdir()
    server.push_reply(gen(GOOD))
    rc = _solve(monkeypatch, tmp_path, server, "--kb", "kb")
    err = capsys.readouterr().err
    assert rc == 2
    assert "has no exemplars" in err and "--retriever none" in err
    assert server.requests == []


def test_missing_knowledge_base_folder_is_named(server, tmp_path, monkeypatch, capsys):
    rc = _solve(monkeypatch, tmp_path, server, "--kb", "nowhere")
    assert rc == 2 and "knowledge base folder nowhere does not exist" in capsys.readouterr().err
    assert server.requests == []


def test_a_knowledge_base_that_is_a_file_is_named_as_such(server, tmp_path, monkeypatch, capsys):
    (tmp_path / "kb.txt").write_text("not a folder")
    rc = _solve(monkeypatch, tmp_path, server, "--kb", str(tmp_path / "kb.txt"))
    err = capsys.readouterr().err
    assert rc == 2 and "kb.txt is a file, not a folder (--kb)" in err and "does not exist" not in err
    assert server.requests == []


def test_broken_compiler_fails_before_any_llm_call(server, tmp_path, monkeypatch, capsys):
    import pyopl.syntax.grammars as grammars
    import pyopl.syntax.parser as parser

    def missing(name):  # what a wheel without its grammar files did: every compile failed
        raise FileNotFoundError(2, "No such file or directory", "/site-packages/pyopl/grammar/%s.lark" % name)

    def clear():
        parser.lark_parser.cache_clear()
        parser._ast_parser.cache_clear()

    clear()
    monkeypatch.setattr(grammars, "grammar_text", missing)
    try:
        rc = _solve(monkeypatch, tmp_path, server)
    finally:
        monkeypatch.undo()
        clear()
    err = capsys.readouterr().err
    assert rc == 2
    assert "the pyopl compiler does not work in this installation" in err and "opl.lark" in err
    assert server.requests == []


def test_prompt_size_reports_the_packaged_knowledge_base(tmp_path, monkeypatch, capsys):
    from syntagm.rag.knowledge import packaged_kb_path

    data = tmp_path / "q.json"
    data.write_text(json.dumps([{"en_question": "A bakery bakes bread and cakes to maximise profit."}]))
    monkeypatch.chdir(tmp_path)  # no ./knowledge_base here: the packaged one is used
    monkeypatch.delenv("SYNTAGM_KB", raising=False)
    assert main(["prompt-size", str(data), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    kb = packaged_kb_path()
    assert rep["knowledge_base"] == {"path": str(kb), "exemplars": len(list(kb.glob("*/model.mod")))}
    assert rep["knowledge_base"]["exemplars"] >= 40
    # the same problem with retrieval off gives a shorter first prompt (no exemplars in it)
    assert main(["prompt-size", str(data), "--format", "json", "--retriever", "none"]) == 0
    off = json.loads(capsys.readouterr().out)
    assert off["knowledge_base"] == {"path": None, "exemplars": 0} and off["max"] < rep["max"]
