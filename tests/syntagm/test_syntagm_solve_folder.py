"""Issue 42, major 7: two `syntagm solve` runs on one `--out` never share a transcript (the second
waits for the first), and a run after a crash never empties the `.partial` transcript the crash
kept."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from syntagm.cli import main
from syntagm_testkit import GOOD, PROBLEM, gen

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SYNTAGM_"))}
    env["HOME"] = str(tmp_path)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_two_runs_on_one_out_folder_do_not_share_the_transcript(server, tmp_path):
    # before: both wrote transcript.jsonl.partial (truncated by the second), one ended with the
    # other's transcript and the other failed renaming a file that was gone, writing nothing
    (tmp_path / "p.txt").write_text(PROBLEM + " [case-a]")
    server.route_by_marker({"[case-a]": [gen(GOOD), gen(GOOD)]}, delay_s=1.5)
    cmd = [sys.executable, "-m", "syntagm", "solve", "p.txt", "--base-url", server.url, "--out", "o",
           "--retriever", "none", "--strategy", "standard", "--max-retries", "0", "-q"]
    runs = [subprocess.Popen(cmd, cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(2)]
    outs = [r.communicate(timeout=120) for r in runs]
    assert [r.returncode for r in runs] == [0, 0], outs
    assert any("waiting for it to finish" in err for _out, err in outs)
    lines = (tmp_path / "o" / "transcript.jsonl").read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["header", "exchange"]  # one run's, whole
    assert not list((tmp_path / "o").glob("*.partial*")) and (tmp_path / "o" / "solution.json").is_file()
    assert len(server.requests) == 2


def test_a_run_after_a_crash_keeps_the_partial_transcript(server, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    for k in ("OPENAI_BASE_URL", "SYNTAGM_MODEL", "OPENAI_MODEL", "SYNTAGM_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    (tmp_path / "p.txt").write_text(PROBLEM)
    kept = tmp_path / "o" / "transcript.jsonl.partial"
    kept.parent.mkdir()
    kept.write_text('{"type": "header", "format": "syntagm-transcript"}\n{"type": "exchange", "n": 1}\n')
    server.push_reply(gen(GOOD))
    rc = main(["solve", "p.txt", "--base-url", server.url, "--out", "o", "--retriever", "none", "--strategy",
               "standard", "--max-retries", "0", "-q"])
    err = capsys.readouterr().err
    assert rc == 0, err
    aside = tmp_path / "o" / "transcript.jsonl.partial.1"
    assert aside.read_text().count("\n") == 2 and '"n": 1' in aside.read_text()  # before: emptied by the new run
    assert str(aside) in err or "transcript.jsonl.partial.1" in err
    assert not kept.exists() and (tmp_path / "o" / "transcript.jsonl").is_file()
