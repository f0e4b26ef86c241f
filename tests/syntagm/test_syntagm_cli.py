"""``syntagm solve``: results on disk, record → replay, and clear messages for bad inputs."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from syntagm.artefacts import write_atomic
from syntagm.cli import main
from syntagm_testkit import BROKEN, GOOD, PROBLEM, WRONG, gen, pyopl_ready, verdict

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = ("model.mod", "data.dat", "solution.json", "telemetry.json", "attempts.json")


def _clean_env(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SYNTAGM_"))}
    env["HOME"] = str(tmp_path)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run(tmp_path, *args):
    return subprocess.run([sys.executable, "-m", "syntagm", *args], cwd=tmp_path, env=_clean_env(tmp_path),
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def problem_file(tmp_path):
    p = tmp_path / "workshop.txt"
    p.write_text(PROBLEM)
    return p


def test_report_out_that_is_a_file_is_a_clear_message(tmp_path):
    """``syntagm report DIR --out FILE`` (and bench's lock) made the folder with mkdir: ``File exists: FILE``."""
    from syntagm.errors import ConfigError
    from syntagm.safeio import FolderLock, make_out_folder

    (tmp_path / "notes.txt").write_text("hello\n")
    for make in (make_out_folder, lambda p: FolderLock(p).acquire()):
        with pytest.raises(ConfigError, match="--out .*notes.txt is a file, not a folder"):
            make(tmp_path / "notes.txt")
    make_out_folder(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()


def test_no_endpoint_configured_is_one_message(tmp_path, problem_file):
    r = _run(tmp_path, "solve", str(problem_file))
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert "no LLM endpoint is configured" in r.stderr
    assert "--base-url" in r.stderr and "OPENAI_API_KEY" in r.stderr and "--replay" in r.stderr
    # the advice is printed through the secret scrubber: it must not read as a key it hid
    # (`export OPENAI_API_KEY=sk-...` came out as `export OPENAI_API_KEY=[REDACTED]`)
    assert "[REDACTED]" not in r.stderr


@pytest.mark.parametrize("args, fragment", [
    (["solve", "missing.txt"], "problem file missing.txt does not exist"),
    (["solve", "empty.txt"], "is empty"),
    (["solve", "workshop.txt", "--max-iterations", "many"], "expected a whole number"),
    (["solve", "workshop.txt", "--record", "a.jsonl", "--replay", "b.jsonl"], "not allowed with argument"),
    (["solve", "workshop.txt", "--replay", "notes.txt"], "not a transcript"),
    (["solve", "workshop.txt", "--strategy", "magic"], "invalid choice"),
    # (mkdir's "File exists: notes.txt" before)
    (["solve", "workshop.txt", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--out", "notes.txt"],
     "--out notes.txt is a file, not a folder"),
    # bench and report said only "File exists: notes.txt"
    (["bench", "--dataset", "tiny.json", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--out", "notes.txt"],
     "--out notes.txt is a file, not a folder"),
])
def test_bad_inputs_are_clear_messages(tmp_path, problem_file, args, fragment):
    (tmp_path / "empty.txt").write_text("  \n")
    (tmp_path / "notes.txt").write_text("hello\n")
    (tmp_path / "tiny.json").write_text(json.dumps([{"id": "a", "en_question": PROBLEM, "en_answer": 12}]))
    r = _run(tmp_path, *args)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert fragment in r.stderr


def _scripted_compiler(monkeypatch, backend):
    if backend == "scripted":
        import syntagm.assess.compiler as comp
        monkeypatch.setattr(comp, "_pyopl", lambda: None)


def _solve(monkeypatch, tmp_path, server, *args):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    if server is not None:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    else:
        monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    return main(["solve", "workshop.txt", "-q", *args])


def test_solve_writes_results_and_replay_reproduces_them(server, tmp_path, problem_file, monkeypatch,
                                                         compiler_backend, capsys):
    _scripted_compiler(monkeypatch, compiler_backend)
    server.push_reply(gen(BROKEN), prompt=1000, completion=100)
    server.push_reply(gen(WRONG), prompt=1100, completion=110, cached=512)
    server.push_reply(verdict(False, "tables earn 3"), prompt=600, completion=30)
    server.push_reply(gen(GOOD), prompt=1200, completion=120, cached=1024)
    server.push_reply(verdict(True), prompt=650, completion=10)
    rc = _solve(monkeypatch, tmp_path, server, "--out", "run1", "--record", "rec.jsonl", "--model", "gpt-4o-mini",
                "--max-retries", "0")
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "status: aligned" in out and "objective: 12" in out and "cost:" in out
    run1 = tmp_path / "run1"
    assert (run1 / "model.mod").read_text() == GOOD
    sol = json.loads((run1 / "solution.json").read_text())
    assert sol["status"] == "aligned" and sol["objective"] == pytest.approx(12.0)
    tel = json.loads((run1 / "telemetry.json").read_text())
    assert tel["totals"]["prompt_tokens"] == 4550 and tel["totals"]["cached_tokens"] == 1536
    assert tel["totals"]["iterations"] == 3 and tel["totals"]["llm_calls"] == 5
    assert len(tel["iterations"]) == 3 and tel["price_table"]["date"]
    lines = (tmp_path / "rec.jsonl").read_text().splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["type"] == "header"
    assert "SECRET" not in "".join(lines) and "api_key" not in lines[0]
    assert (run1 / "transcript.jsonl").read_text() == (tmp_path / "rec.jsonl").read_text()
    assert not list(run1.glob("*.tmp")) and not list(tmp_path.glob("*.partial"))

    server.close()  # the replay must not need the endpoint
    rc = _solve(monkeypatch, tmp_path, None, "--out", "run2", "--replay", "rec.jsonl")
    assert rc == 0
    for name in ARTEFACTS:
        assert (tmp_path / "run2" / name).read_bytes() == (run1 / name).read_bytes(), name


@pytest.mark.skipif(not pyopl_ready(), reason="needs pyopl and highspy")
def test_replay_of_a_mip_reproduces_solution_and_attempts(server, tmp_path, problem_file, monkeypatch, capsys):
    """A MIP's solution carries HiGHS's presolve re-check, whose ``time_s`` made the replay's
    solution.json and attempts.json differ from the run's (docs/syntagm.md: byte for byte)."""
    mip = GOOD.replace("float+", "int+")
    server.push_reply(gen(mip))
    assert _solve(monkeypatch, tmp_path, server, "--out", "run1", "--strategy", "standard", "--retriever", "none",
                  "--max-retries", "0") == 0
    sol = json.loads((tmp_path / "run1" / "solution.json").read_text())["solution"]
    recheck = sol.get("presolve_recheck") or (sol.get("extra") or {}).get("presolve_recheck")
    assert recheck and recheck["ran"] is True and "time_s" not in recheck
    assert main(["solve", "workshop.txt", "-q", "--replay", "run1/transcript.jsonl", "--out", "run2"]) == 0
    for name in ("model.mod", "solution.json", "telemetry.json", "attempts.json"):
        assert (tmp_path / "run2" / name).read_bytes() == (tmp_path / "run1" / name).read_bytes(), name


def test_replay_that_diverges_is_a_clear_error(server, tmp_path, problem_file, monkeypatch, compiler_backend, capsys):
    _scripted_compiler(monkeypatch, compiler_backend)
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    assert _solve(monkeypatch, tmp_path, server, "--out", "r1", "--record", "rec.jsonl") == 0
    problem_file.write_text(PROBLEM + " Chairs need varnish.")
    rc = _solve(monkeypatch, tmp_path, None, "--out", "r2", "--replay", "rec.jsonl")
    err = capsys.readouterr().err
    assert rc == 2 and "differs from the transcript" in err


def test_json_format_and_exit_status_when_unaligned(server, tmp_path, problem_file, monkeypatch, compiler_backend,
                                                     capsys):
    _scripted_compiler(monkeypatch, compiler_backend)
    server.push_reply(gen(WRONG))
    server.push_reply(verdict(False, "profit"))
    rc = _solve(monkeypatch, tmp_path, server, "--max-iterations", "1", "--format", "json", "--out", "o")
    doc = json.loads(capsys.readouterr().out)
    assert rc == 1 and doc["status"] == "unaligned" and doc["totals"]["llm_calls"] == 2


def test_write_atomic_never_leaves_a_half_file(tmp_path, monkeypatch):
    target = tmp_path / "solution.json"
    write_atomic(target, "old")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_atomic(target, "new content")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["solution.json"]


def test_a_cost_below_a_cent_is_not_printed_as_zero(server, tmp_path, problem_file, monkeypatch, capsys):
    """gpt-4o-mini: 200 prompt tokens at $0.15/M + 50 completion at $0.60/M = $0.00006 (was ``$0.0001``,
    and a run under $0.00005 read ``$0.0000``)."""
    server.push_reply(gen(GOOD), prompt=200, completion=50)
    rc = _solve(monkeypatch, tmp_path, server, "--strategy", "standard", "--model", "gpt-4o-mini", "--out", "o",
                "--retriever", "none", "--max-retries", "0")
    out = capsys.readouterr().out
    assert rc == 0 and ", $0.000060, " in out, out


def test_failed_run_names_the_compile_error(server, tmp_path, problem_file, monkeypatch, capsys):
    bad = "dvar float+ x;\nmaximize x + yy;\n"  # `yy` is not declared: an error at line 2, column 14
    server.push_reply(gen(bad))
    rc = _solve(monkeypatch, tmp_path, server, "--max-iterations", "1", "--out", "o", "--retriever", "none")
    out = capsys.readouterr().out
    assert rc == 1 and "status: failed (solver: no solution)" in out
    why = [line for line in out.splitlines() if line.startswith("why: ")]
    assert len(why) == 1 and why[0].startswith("why: the last model does not compile: model:2:14: OPL")
    assert "yy" in why[0]
    assert json.loads((tmp_path / "o" / "solution.json").read_text())["failure"] == why[0][len("why: "):]


def test_failed_contract_says_so_once(server, tmp_path, problem_file, monkeypatch, capsys):
    """A run whose last reply broke the contract says so once on its `why:` line (it said "the last
    reply broke the output contract: the reply broke the output contract: ...")."""
    server.push_reply("I cannot help with that.")  # no JSON object at all
    rc = _solve(monkeypatch, tmp_path, server, "--max-iterations", "1", "--out", "o", "--retriever", "none")
    out = capsys.readouterr().out
    why = [line for line in out.splitlines() if line.startswith("why: ")]
    assert rc == 1 and len(why) == 1
    assert why[0].startswith("why: the last reply broke the output contract: expected a JSON object")
    assert why[0].count("broke the output contract") == 1
    failure = json.loads((tmp_path / "o" / "solution.json").read_text())["failure"]
    assert failure.splitlines()[0] == why[0][len("why: "):] and failure.count("broke the output contract") == 1


def test_failed_run_in_json_says_why(server, tmp_path, problem_file, monkeypatch, capsys):
    """`--format json` left out the `why:` of the text summary (only solution.json had `failure`)."""
    server.push_reply(gen("dvar float+ x;\nmaximize x + yy;\n"))  # `yy` undeclared: line 2, column 14
    rc = _solve(monkeypatch, tmp_path, server, "--max-iterations", "1", "--out", "o", "--retriever", "none",
                "--format", "json")
    doc = json.loads(capsys.readouterr().out)
    assert rc == 1 and doc["status"] == "failed"
    assert doc["failure"].startswith("the last model does not compile: model:2:14: OPL0101")
    assert doc["failure"] == json.loads((tmp_path / "o" / "solution.json").read_text())["failure"]


def test_mcp_without_its_extra_names_the_install_command(monkeypatch, capsys):
    """``syntagm mcp`` without the mcp extra: one line with the install command and exit 2, as
    ``pyopl mcp`` does (it said "internal error: ModuleNotFoundError", exit 3, in a fresh install).
    The missing extra is simulated by blocking its modules in ``sys.modules``."""
    for name in ("mcp", "mcp.server", "mcp.server.fastmcp", "mcp.server.mcpserver"):
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["mcp"]) == 2
    err = capsys.readouterr().err
    assert 'pip install "pyopl[mcp]"' in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1


def test_compare_without_networkx_names_the_llm_extra(monkeypatch, capsys, tmp_path):
    """``syntagm compare`` in a plain ``pip install pyopl`` (no ``llm`` extra, so no networkx): a
    usage error naming the extra, exit 2 (it printed "unknown (none): the comparison did not
    finish (ModuleNotFoundError: ...)", exit 1)."""
    model = tmp_path / "a.mod"
    model.write_text("dvar float+ x; minimize x; subject to { x >= 1; }\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "networkx", None)
    assert main(["compare", str(model), str(model)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'pyopl[llm]'" in err and "networkx" in err
