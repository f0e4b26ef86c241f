"""Issue 14, the syntagm items: LLM text is never a path, the key never reaches a file, a hostile
reply cannot hang or end a run, one bench per output folder, collision-free transcript names,
and writers that replace only regular files.

Everything runs through the scripted OpenAI-compatible server and the real pyopl compiler.
"""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from syntagm.assess import compiler
from syntagm.cli import main
from syntagm.errors import SyntagmError
from syntagm.loop import LoopOptions, run_loop
from syntagm.safeio import FolderLock, open_append, safe_name, write_atomic
from syntagm_testkit import GOOD, GOOD_DATA, GOOD_DATA_MODEL, PROBLEM, gen, pyopl_ready, verdict

pytestmark = pytest.mark.skipif(not pyopl_ready(), reason="needs the pyopl compiler")

ROOT = Path(__file__).resolve().parents[2]
SECRET_MODEL = GOOD.replace("maximize", "// TOP-SECRET-FILE-CONTENT\nmaximize")
SECRET_DATA = "// TOP-SECRET-DATA-CONTENT\ncap = 4;\n"


def _all_text_sent(server) -> str:
    return json.dumps([r["body"] for r in server.requests])


# -- 1. LLM output is never a path ------------------------------------------------------------

@pytest.mark.parametrize("reply", ["model.mod", "/etc/passwd.mod", "../x.mod", "  model.mod  "])
def test_a_path_like_model_is_compiled_as_text(tmp_path, monkeypatch, reply):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    (work / "model.mod").write_text(SECRET_MODEL)
    (tmp_path / "x.mod").write_text(SECRET_MODEL)
    rep = compiler.check(reply, "")
    assert not rep.ok
    assert all(d.span.file == "<model>" for d in rep.diagnostics)  # never a file name
    assert rep.diagnostics[0].code == "OPL0001"  # a syntax error in the text itself


@pytest.mark.parametrize("data", ["../x.dat", "x.dat", "/etc/passwd.dat"])
def test_a_path_like_data_text_is_compiled_as_text(tmp_path, monkeypatch, data):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    (tmp_path / "x.dat").write_text(SECRET_DATA)
    (work / "x.dat").write_text(SECRET_DATA)
    rep = compiler.check(GOOD_DATA_MODEL, data)
    assert not rep.ok  # the file would have given `cap` a value and compiled
    assert {d.span.file for d in rep.diagnostics} == {"<data>"}


@pytest.mark.parametrize("model, data, role", [
    (GOOD_DATA_MODEL, 'include "x.dat";\n', "data"),
    (GOOD_DATA_MODEL, 'include "/etc/passwd";\n', "data"),
    (GOOD_DATA_MODEL, '/* a comment */ include\n  "../x.dat";', "data"),
    ('include "m.mod";\n' + GOOD, "", "model"),
])
def test_include_is_refused_with_a_diagnostic_at_its_place(tmp_path, monkeypatch, model, data, role):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.dat").write_text(SECRET_DATA)
    (tmp_path / "m.mod").write_text("float cap = 4;\n")
    rep = compiler.check(model, data)
    assert not rep.ok and not rep.diagnostics  # refused before anything was compiled
    (only,) = rep.refusals
    assert only["code"] == compiler.INCLUDE_CODE and only["file"] == role
    text = data if role == "data" else model
    line = text.splitlines()[only["line"] - 1]
    assert line[only["column"] - 1:].startswith("include")


def test_include_inside_strings_and_comments_is_not_an_include():
    assert compiler.include_positions('// include "a"\n/* include */ x = "include";\n') == []
    assert compiler.include_positions('a = 1;\n  include "b";') == [(2, 3)]
    assert compiler.include_positions("includes = 1;") == []


def test_the_loop_repairs_an_include_and_never_sends_the_file(server, client, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.dat").write_text(SECRET_DATA)
    (tmp_path / "model.mod").write_text(SECRET_MODEL)
    server.push_reply(gen("model.mod", 'include "x.dat";'))
    server.push_reply(gen(GOOD_DATA_MODEL, 'include "x.dat";'))
    server.push_reply(gen(GOOD_DATA_MODEL, GOOD_DATA))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    assert [a.diagnostics[0]["code"] for a in r.attempts[:2]] == [compiler.INCLUDE_CODE] * 2
    assert "not allowed" in server.requests[2]["body"]["messages"][-1]["content"]
    sent = _all_text_sent(server)
    assert "TOP-SECRET" not in sent


# -- 2. the API key never reaches disk or logs ---------------------------------------------------

KEY = "sk-test-SECRET-KEY"  # the fixture's key (conftest.llm_config)


def test_the_key_echoed_in_an_error_body_is_redacted(server, client):
    from syntagm.errors import LLMError

    server.push_error(400, f"invalid key {KEY}; headers were Authorization: Bearer {KEY} api-key: {KEY}")
    with pytest.raises(LLMError) as e:
        client.chat([{"role": "user", "content": "hi"}], purpose="generate")
    assert KEY not in str(e.value)
    assert str(e.value).endswith("headers were Authorization: [REDACTED] api-key: [REDACTED]")


def test_scrub_covers_headers_bearer_tokens_and_url_passwords():
    from syntagm.redact import register_secret, scrub

    register_secret("abcdef-123456")
    text = ('key abcdef-123456 "Authorization": "Bearer tok.en-1" x-api-key=zz9 Basic dXNlcjpwYXNz '
            "http://user:hunter2@host/v1")
    out = scrub(text)
    for secret in ("abcdef-123456", "tok.en-1", "zz9", "dXNlcjpwYXNz", "hunter2"):
        assert secret not in out, secret
    assert "http://user:[REDACTED]@host/v1" in out


def test_the_key_never_reaches_files_or_stderr_in_a_solve(server, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    (tmp_path / "p.txt").write_text(PROBLEM)
    server.push_error(500, f"upstream said: bad key {KEY}")
    server.push_error(500, f"Authorization: Bearer {KEY}")
    rc = main(["solve", "p.txt", "--out", "o", "--max-retries", "1", "-q"])
    _out, err = capsys.readouterr()
    assert rc == 1
    assert KEY not in err and KEY not in _out
    files = [p for p in (tmp_path / "o").rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"solution.json", "transcript.jsonl", "telemetry.json"}
    for p in files:
        assert KEY not in p.read_text(), p
    assert "REDACTED" in (tmp_path / "o" / "solution.json").read_text()


def test_the_key_in_an_exception_message_is_redacted_in_bench(server, tmp_path, monkeypatch, capsys):
    from syntagm.strategies import presets

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    (tmp_path / "d.json").write_text(json.dumps([{"id": 1, "en_question": PROBLEM, "en_answer": 12}]))

    def boom(self, problem, ctx):
        raise RuntimeError(f"client exploded with api_key={KEY}")

    monkeypatch.setattr(presets.PresetStrategy, "solve", boom)
    rc = main(["bench", "--dataset", "d.json", "--strategy", "standard", "--base-url", server.url,
               "--retriever", "none", "--out", "o", "--no-plot"])
    out, err = capsys.readouterr()
    assert rc == 1 and "client exploded" in err
    assert KEY not in err and KEY not in out
    for p in (tmp_path / "o").rglob("*"):
        if p.is_file():
            assert KEY not in p.read_text(errors="replace"), p


# -- 3. hostile replies are diagnostics, never a hang or a lost run ------------------------------

HOSTILE = "range R = 1..100000;\nminimize sum(i in R, j in R) 1;\n"


def test_a_compile_that_runs_away_becomes_a_diagnostic_the_loop_repairs(server, client):
    server.push_reply(gen(HOSTILE))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0, compile_timeout_s=3.0))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    first = r.attempts[0]
    assert not first.compiled and first.diagnostics[0]["severity"] == "error"
    # today: the time limit; once pyopl's work budget lands, its own diagnostic comes first
    assert first.diagnostics[0]["code"] == compiler.TIME_LIMIT_CODE or first.diagnostics[0]["code"].startswith("OPL")
    assert "syntax_repair" == r.attempts[1].source


def test_a_post_processing_script_error_is_not_a_solved_model(server, client):
    # `pyopl solve` exits 1 on it (IBM's oplrun stops too): the loop must repair it, not judge it
    failing = GOOD + 'execute { var f = new IloOplOutputFile("/tmp/out.txt"); f.writeln(x); f.close(); }\n'
    out = compiler.solve(failing, "")
    assert out.status == "script_error" and not out.solved and out.objective is None
    assert "post-processing script failed" in out.message and "OPL1056" in out.message
    server.push_reply(gen(failing))
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    r = run_loop(PROBLEM, client, LoopOptions(exemplars=0))
    assert r.status == "aligned" and r.objective == pytest.approx(12.0)
    assert r.attempts[0].outcome["status"] == "script_error"
    repair = json.dumps(server.requests[1]["body"]["messages"])
    assert "post-processing script failed" in repair and len(server.requests) == 3


def test_a_compile_over_its_memory_limit_becomes_a_diagnostic():
    big = "range R = 1..1000;\ndvar float x[R][R];\nminimize sum(i in R, j in R) x[i][j];\n"
    rep = compiler.check(big, "", compiler.Limits(timeout_s=60, memory_mb=100))
    assert not rep.ok
    assert [r["code"] for r in rep.refusals] == [compiler.MEMORY_LIMIT_CODE]


def _body(content_fragment: bytes) -> bytes:
    return (b'{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,'
            b'"finish_reason":"stop","message":{"role":"assistant","content":' + content_fragment + b'}}]}')


@pytest.mark.parametrize("kind", ["invalid-utf8", "lone-surrogate", "deep-json"])
def test_unreadable_replies_are_contract_errors_and_the_run_is_kept(server, tmp_path, monkeypatch, capsys, kind):
    if kind == "invalid-utf8":
        server.push_raw(_body(b'"{\\"model\\": \\"dvar float+ x\xff\xfe;\\", \\"data\\": \\"\\"}"'))
        expect = "not valid UTF-8"
    elif kind == "lone-surrogate":
        server.push_raw(_body(b'"{\\"model\\": \\"x\\ud800\\", \\"data\\": \\"\\"}"'))
        expect = "lone surrogate"
    else:
        server.push_reply('{"model": ' + "[" * 100000 + "]" * 100000 + ', "data": ""}')
        expect = "nests too deeply"
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    (tmp_path / "p.txt").write_text(PROBLEM)
    rc = main(["solve", "p.txt", "--out", "o", "--max-retries", "0", "-q", "--exemplars", "0"])
    capsys.readouterr()
    assert rc == 0
    attempts = json.loads((tmp_path / "o" / "attempts.json").read_text(encoding="utf-8"))
    assert expect in attempts[0]["contract_error"] and attempts[1]["source"] == "contract_repair"
    assert json.loads((tmp_path / "o" / "solution.json").read_text())["status"] == "aligned"
    # the transcript keeps the reply exactly and replays it to the same result
    rc = main(["solve", "p.txt", "--out", "o2", "--replay", "o/transcript.jsonl", "-q"])
    assert rc == 0
    assert (tmp_path / "o2" / "attempts.json").read_bytes() == (tmp_path / "o" / "attempts.json").read_bytes()


# -- 4. one bench per folder; transcript names ---------------------------------------------------

def test_a_second_bench_on_the_same_folder_is_refused_naming_the_holder(tmp_path, monkeypatch, capsys):
    out = tmp_path / "o"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from syntagm.safeio import FolderLock; "
         f"l = FolderLock({str(out)!r}).acquire(); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline().strip() == "held"
        monkeypatch.chdir(tmp_path)
        (tmp_path / "d.json").write_text(json.dumps([{"id": 1, "en_question": PROBLEM, "en_answer": 12}]))
        rc = main(["bench", "--dataset", "d.json", "--base-url", "http://127.0.0.1:9/v1", "--out", str(out)])
        err = capsys.readouterr().err
        assert rc == 2
        assert f"pid {holder.pid}" in err and "in use by another syntagm bench" in err
        assert not (out / "results.jsonl").exists()
    finally:
        holder.kill()
        holder.wait()
    with FolderLock(out):  # released when its holder died
        pass


def test_safe_names_are_distinct_single_components():
    ids = ["a/b", "a_b", "a%2Fb", "..", ".", "", "a\x00b", "a b", "é", "%", "~", "A", "x" * 400, "x" * 399 + "y",
           ".hidden", "a.b", "a..b", "CON", "a\\b"]
    names = [safe_name(i) for i in ids]
    assert len(set(names)) == len(ids)
    for n in names:
        assert "/" not in n and "\x00" not in n and "\\" not in n and n not in (".", "..")
        assert not n.startswith(".") and 0 < len(n.encode()) <= 200
    assert safe_name("a/b") == "a%2Fb" and safe_name("a_b") == "a_b"


def test_bench_keeps_transcripts_of_ids_that_differ_only_by_punctuation_apart(server, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rows = [{"id": "a/b", "en_question": PROBLEM + " [one]", "en_answer": 12},
            {"id": "a_b", "en_question": PROBLEM + " [two]", "en_answer": 8},
            {"id": "../../escape", "en_question": PROBLEM + " [three]", "en_answer": 12}]
    (tmp_path / "d.json").write_text(json.dumps(rows))
    server.route_by_marker({"[one]": [gen(GOOD)], "[two]": [gen(GOOD)], "[three]": [gen(GOOD)]})
    rc = main(["bench", "--dataset", "d.json", "--strategy", "standard", "--base-url", server.url,
               "--retriever", "none", "--out", "o", "--record", "--no-plot", "-q", "--exemplars", "0"])
    capsys.readouterr()
    assert rc == 0
    files = sorted(p for p in (tmp_path / "o").rglob("*.jsonl") if p.name != "results.jsonl")
    assert len(files) == 3
    assert all((tmp_path / "o") in p.parents for p in files)
    assert not (tmp_path / "escape.jsonl").exists()
    contents = {p.name: p.read_text() for p in files}
    assert "[one]" in contents["a%2Fb.jsonl"] and "[two]" in contents["a_b.jsonl"]


# -- 5. writers replace regular files only -------------------------------------------------------

def test_write_atomic_refuses_a_symlink_and_leaves_its_target(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    link = tmp_path / "solution.json"
    link.symlink_to(outside)
    with pytest.raises(SyntagmError, match="symbolic link"):
        write_atomic(link, "new")
    assert link.is_symlink() and outside.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outside.txt", "solution.json"]


def test_write_atomic_refuses_a_fifo_and_keeps_a_files_mode(tmp_path):
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    with pytest.raises(SyntagmError, match="FIFO"):
        write_atomic(fifo, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    regular = tmp_path / "run.json"
    regular.write_text("old")
    os.chmod(regular, 0o640)
    write_atomic(regular, "new")
    assert regular.read_text() == "new" and stat.S_IMODE(os.stat(regular).st_mode) == 0o640
    fresh = tmp_path / "fresh.json"
    write_atomic(fresh, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o666 & ~mask


def test_results_log_never_appends_through_a_symlink(tmp_path):
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_text("")
    (tmp_path / "results.jsonl").symlink_to(outside)
    with pytest.raises(SyntagmError, match="symbolic link"):
        open_append(tmp_path / "results.jsonl")
    assert outside.read_text() == ""


def test_solve_refuses_to_replace_a_symlinked_result(server, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    (tmp_path / "p.txt").write_text(PROBLEM)
    (tmp_path / "o").mkdir()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me")
    (tmp_path / "o" / "solution.json").symlink_to(outside)
    server.push_reply(gen(GOOD))
    server.push_reply(verdict(True))
    rc = main(["solve", "p.txt", "--out", "o", "-q", "--exemplars", "0"])
    err = capsys.readouterr().err
    assert rc == 2 and "refusing to write" in err and "symbolic link" in err
    assert outside.read_text() == "keep me" and (tmp_path / "o" / "solution.json").is_symlink()


def _ignores_sigint(pid: int) -> bool:
    """Whether process ``pid`` ignores SIGINT (Linux: bit 2 of ``SigIgn`` in /proc/PID/status)."""
    try:
        line = next(x for x in Path("/proc/%d/status" % pid).read_text().splitlines() if x.startswith("SigIgn:"))
    except (OSError, StopIteration):
        return False
    return bool(int(line.split()[1], 16) & (1 << 1))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/PID/status (Linux)")
def test_ctrl_c_in_the_process_group_leaves_the_compile_worker_to_its_parent():
    """Ctrl-C reaches every process of the group: each compile worker printed a KeyboardInterrupt
    traceback ("Process ForkServerProcess-14: ...") under `syntagm bench`'s own 'interrupted'. The
    worker ignores SIGINT (the parent kills it), so a worker sent SIGINT still answers."""
    import multiprocessing
    import signal
    import time

    from syntagm.assess import sandbox

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=True)
    proc = ctx.Process(target=sandbox._worker_main, args=(child, None), daemon=True)
    proc.start()
    child.close()
    try:
        deadline = time.monotonic() + 20
        while not _ignores_sigint(proc.pid) and proc.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _ignores_sigint(proc.pid), "the worker does not ignore SIGINT"
        os.kill(proc.pid, signal.SIGINT)
        model = "dvar float x;\nminimize x;\nsubject to { x >= 1; }\n"
        parent.send_bytes(json.dumps({"op": "solve", "model": model, "data": "", "time_limit_s": 30}).encode("ascii"))
        assert parent.poll(60), "the worker died of the signal"
        answer = json.loads(parent.recv_bytes().decode("utf-8"))
        assert answer["ok"] is True and answer["result"]["status"] == "optimal"
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)


def test_a_worker_whose_parent_left_before_the_request_ends_quietly(capfd):
    """A sweep interrupted between starting a worker and sending it the request left the worker
    printing an EOFError traceback ("Process ForkServerProcess-8: ... raise EOFError")."""
    import multiprocessing

    from syntagm.assess import sandbox

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=True)
    proc = ctx.Process(target=sandbox._worker_main, args=(child, None), daemon=True)
    proc.start()
    child.close()
    parent.close()  # the parent goes away without a request
    proc.join(60)
    assert proc.exitcode == 0
    assert "Traceback" not in capfd.readouterr().err
