"""Files are never corrupted or lost (issue 14): `check --fix`, every writer, reading sources.

Each test pins one defect class; expected texts are written out by hand (the fixed model is the
original with one name replaced), never computed by the code under test.
"""
from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from property_budget import SPEED_CHECKS, examples

import pyopl
from pyopl.cli import main

ROOT = Path(__file__).resolve().parents[1]
MODEL = "float capacity = 3;\ndvar float+ x;\nminimize x;\nsubject to {\n  x >= capacit;\n}\n"
FIXED = MODEL.replace("capacit;", "capacity;")


@pytest.fixture(autouse=True)
def _devices_stay_devices():
    """Every test here must leave /dev/null and /dev/full devices (the issue: a test run as root
    once replaced /dev/full with a regular file)."""
    yield
    for dev in ("/dev/null", "/dev/full"):
        if os.path.exists(dev):
            assert stat.S_ISCHR(os.stat(dev).st_mode), "%s was replaced by a regular file" % dev


def _safe_writer_present():
    """Tests that write to real devices first import the safe writer, so that run against code
    without it they fail here, before anything could replace a device."""
    import pyopl.files.safe_write  # noqa: F401


def _cli(argv, capsys):
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def _codes(doc):
    return [d["code"] for d in doc.get("diagnostics", [])]


# --- check --fix: concurrency -------------------------------------------------------------------

def test_two_concurrent_fix_runs_leave_a_correct_file_and_the_true_backup(tmp_path):
    """Two real processes race `check --fix` on one file, several rounds: the fix is applied once
    (today the second run re-applied it to the fixed text: `capacityy`), `.bak` holds the original."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for round_no in range(4):
        folder = tmp_path / ("r%d" % round_no)
        folder.mkdir()
        mod = folder / "model.mod"
        mod.write_text(MODEL, encoding="utf-8")
        procs = [subprocess.Popen([sys.executable, "-m", "pyopl", "check", "--fix", str(mod)], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
        for p in procs:
            assert p.wait(timeout=120) in (0, 1)
        assert mod.read_text(encoding="utf-8") == FIXED, round_no
        backups = sorted(p.name for p in folder.iterdir() if ".bak" in p.name)
        assert backups == ["model.mod.bak"], backups
        assert (folder / "model.mod.bak").read_text(encoding="utf-8") == MODEL


def test_fix_is_not_applied_when_the_file_changed_meanwhile(tmp_path, monkeypatch):
    """An editor that ignores the lock writes the file between the check and the write: refused."""
    from pyopl.fixes import apply as fixes

    mod = tmp_path / "model.mod"
    mod.write_text(MODEL, encoding="utf-8")
    edited = MODEL.replace("minimize x;", "minimize 2 * x;")
    real_check = fixes._check_text

    def check_then_edit(text, name, data):
        out = real_check(text, name, data)
        Path(name).write_text(edited, encoding="utf-8")
        return out

    monkeypatch.setattr(fixes, "_check_text", check_then_edit)
    outcome = fixes.fix_file(str(mod))
    assert outcome.applied == 0
    assert [d.code for d in outcome.problems] == ["OPL1126"]
    assert mod.read_text(encoding="utf-8") == edited
    assert not (tmp_path / "model.mod.bak").exists()


# --- check --fix: what the file is ---------------------------------------------------------------

def test_fix_keeps_crlf_bom_and_permissions(tmp_path, capsys):
    mod = tmp_path / "model.mod"
    original = b"\xef\xbb\xbf" + MODEL.replace("\n", "\r\n").encode()
    mod.write_bytes(original)
    os.chmod(mod, 0o640)
    rc, _out, _err = _cli(["check", "--fix", str(mod)], capsys)
    assert rc == 0
    assert mod.read_bytes() == b"\xef\xbb\xbf" + FIXED.replace("\n", "\r\n").encode()
    assert stat.S_IMODE(os.stat(mod).st_mode) == 0o640
    assert Path(str(mod) + ".bak").read_bytes() == original
    assert stat.S_IMODE(os.stat(str(mod) + ".bak").st_mode) == 0o640


def test_fix_on_a_symlink_fixes_the_target_and_keeps_the_link(tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    target = real / "model.mod"
    target.write_text(MODEL, encoding="utf-8")
    link = tmp_path / "link.mod"
    link.symlink_to(target)
    rc, _o, _e = _cli(["check", "--fix", str(link)], capsys)
    assert rc == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == FIXED
    assert (real / "model.mod.bak").read_text(encoding="utf-8") == MODEL


def test_fix_refuses_a_read_only_file(tmp_path, capsys):
    mod = tmp_path / "model.mod"
    mod.write_text(MODEL, encoding="utf-8")
    os.chmod(mod, 0o444)
    rc, out, _e = _cli(["check", "--fix", str(mod), "--format", "json"], capsys)
    assert rc == 1
    assert "OPL1125" in _codes(json.loads(out))
    assert mod.read_text(encoding="utf-8") == MODEL
    assert stat.S_IMODE(os.stat(mod).st_mode) == 0o444
    assert not (tmp_path / "model.mod.bak").exists()


def test_backup_is_never_overwritten_nor_written_through_a_symlink(tmp_path, capsys):
    mod = tmp_path / "model.mod"
    mod.write_text(MODEL, encoding="utf-8")
    (tmp_path / "model.mod.bak").write_text("an older backup\n", encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    (tmp_path / "model.mod.bak.1").symlink_to(victim)
    rc, _o, _e = _cli(["check", "--fix", str(mod)], capsys)
    assert rc == 0
    assert mod.read_text(encoding="utf-8") == FIXED
    assert (tmp_path / "model.mod.bak").read_text(encoding="utf-8") == "an older backup\n"
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert (tmp_path / "model.mod.bak.2").read_text(encoding="utf-8") == MODEL


# --- check --fix: lines and columns as the diagnostics count them --------------------------------

# Characters that `str.splitlines` takes for line breaks (and a BOM); Lark and the diagnostics
# count only "\n".  They go in comments (any character may sit there) and, for the ones the
# grammar takes for blanks, between tokens.
_ODD = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\ufeff"]
_BLANK = [" ", "\t", "\x0c", "\r"]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, *SPEED_CHECKS])
@given(comments=st.lists(st.text(alphabet=_ODD + ["a", " "], max_size=6), min_size=6, max_size=6),
       blanks=st.lists(st.sampled_from(_BLANK), min_size=6, max_size=6),
       newline=st.sampled_from(["\n", "\r\n"]), bom=st.booleans())
def test_a_fix_lands_where_the_diagnostic_points(tmp_path, comments, blanks, newline, bom):
    from pyopl.fixes.apply import fix_file

    lines = ["float capacity = 3;", "dvar float+ x;", "minimize x;", "subject to {", "  x >=%scapacit;" % blanks[0], "}"]

    def build(last):
        body = [line + blanks[k + 1 if k + 1 < 6 else 0] + "// " + comments[k] for k, line in enumerate(last)]
        return newline.join(body) + newline

    mod = tmp_path / "model.mod"
    head = b"\xef\xbb\xbf" if bom else b""
    mod.write_bytes(head + build(lines).encode("utf-8"))
    fixed_lines = lines[:4] + ["  x >=%scapacity;" % blanks[0]] + lines[5:]
    fix_file(str(mod))
    assert mod.read_bytes() == head + build(fixed_lines).encode("utf-8")
    for p in tmp_path.iterdir():
        if p != mod:
            p.unlink()


def test_fixes_out_of_the_text_are_not_applied():
    from pyopl.diagnostics.diagnostic import Diagnostic, Edit, Fix, Span
    from pyopl.fixes.edit import apply_fixes

    def d(line, col, end_col):
        span = Span("<model>", line, col, line, end_col)
        return Diagnostic("OPL0101", "error", "x", span, fix=Fix("f", (Edit(span, "Z"),)))

    text = "ab\ncd\n"
    assert apply_fixes(text, [d(9, 1, 2)]) == (text, 0)        # no line 9
    assert apply_fixes(text, [d(1, 2, 9)]) == (text, 0)        # past the end of line 1
    assert apply_fixes(text, [d(2, 2, 3)]) == ("ab\ncZ\n", 1)


# --- reading sources: UTF-8 only, never a silent replacement character ---------------------------

def test_a_model_that_is_not_utf8_gets_a_diagnostic_with_the_place(tmp_path):
    mod = tmp_path / "latin1.mod"
    mod.write_bytes('dvar float x;\nstring c = "café";\nminimize x;\n'.encode("latin-1"))
    diags = pyopl.check(mod)
    # not UTF-8: read as Windows-1252 with a warning at the deciding byte (OPL1131)
    assert [d.code for d in diags if d.code.startswith("OPL11")] == ["OPL1131"]
    d = [d for d in diags if d.code == "OPL1131"][0]
    assert (d.line, d.column) == (2, 16) and d.severity == "warning"
    assert "UTF-8" in d.message and "0xe9" in d.message and "byte 29" in d.message and "Windows-1252" in d.message
    mod.write_bytes(b'dvar float x;\nstring c = "caf\x81";\nminimize x;\n')  # 0x81: no Windows-1252 character
    assert [d.code for d in pyopl.check(mod)] == ["OPL1120"]


def test_fix_on_a_file_that_is_not_utf8_reports_it_once(tmp_path, capsys):
    # the fixer refuses the file for the reason the check gives: one diagnostic, not two copies
    mod = tmp_path / "latin1.mod"
    original = 'dvar float x;\nstring c = "café";\nminimize x;\n'.encode("latin-1")
    mod.write_bytes(original)
    rc, out, _e = _cli(["check", "--fix", str(mod), "--format", "json"], capsys)
    codes = _codes(json.loads(out))
    assert rc == 1 and codes.count("OPL1120") == 1  # --fix rewrites UTF-8 files only
    assert mod.read_bytes() == original


@pytest.mark.parametrize("argv,link", [
    (["solve", "m.mod", "m.dat", "-o", "m.mod"], None),
    (["solve", "m.mod", "m.dat", "--csv", "./m.dat"], None),
    (["solve", "m.mod", "m.dat", "--log-file", "m.mod"], None),
    (["solve", "m.mod", "m.dat", "-o", "res.json"], "symlink"),  # res.json -> m.mod
    (["export", "m.mod", "m.dat", "--lp", "m.lp"], "hardlink"),  # m.lp is m.dat under another name
    (["export", "m.mod", "m.dat", "--mps", "m.dat"], None),
])
def test_an_output_that_is_an_input_of_the_run_is_refused(tmp_path, capsys, monkeypatch, argv, link):
    # a slip of tab completion (`-o m.mod`) replaced the model with the JSON results, with no backup
    monkeypatch.chdir(tmp_path)
    mod, dat = tmp_path / "m.mod", tmp_path / "m.dat"
    mod.write_text("float c = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= c; }\n", encoding="utf-8")
    dat.write_text("c = 2;\n", encoding="utf-8")
    if link == "symlink":
        os.symlink("m.mod", tmp_path / "res.json")
    elif link == "hardlink":
        os.link(dat, tmp_path / "m.lp")
    before = {p.name: p.read_bytes() for p in (mod, dat)}
    rc, out, _e = _cli(argv + ["--format", "json"], capsys)
    doc = json.loads(out)
    assert rc == 2 and _codes(doc) == ["OPL1250"]
    assert "of this run: writing it would replace it" in doc["diagnostics"][0]["message"]
    assert {p.name: p.read_bytes() for p in (mod, dat)} == before


def test_data_and_included_files_that_are_not_utf8_get_the_diagnostic(tmp_path):
    (tmp_path / "inc.mod").write_bytes(b'string t = "\x8d";\n')  # bytes Windows-1252 leaves undefined
    (tmp_path / "model.mod").write_text('include "inc.mod";\nint n = ...;\ndvar float x;\nminimize x;\n')
    (tmp_path / "d.dat").write_bytes(b"n = 3; \x9d\n")
    diags = pyopl.check(tmp_path / "model.mod", tmp_path / "d.dat")
    bad = sorted((Path(d.file).name, d.line, d.column) for d in diags if d.code == "OPL1120")
    assert bad == [("d.dat", 1, 8), ("inc.mod", 1, 13)]


def test_two_different_non_utf8_texts_never_read_the_same(tmp_path):
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_bytes(b's = "\xe9";\n')
    b.write_bytes(b's = "\xe8";\n')
    model = "string s = ...;\ndvar float x;\nminimize x;\n"
    # read as Windows-1252 (OPL1131): the two bytes stay two different characters
    seen = set()
    for path in (a, b):
        m = pyopl.compile_model(model + "subject to { x >= 0; }\nexecute { writeln(s); }\n", data=path)
        assert "OPL1131" in [d.code for d in m.diagnostics]
        seen.add(m.solve().script_output)
    assert seen == {"\xe9\n", "\xe8\n"}


# --- the safe writer -----------------------------------------------------------------------------

def test_safe_write_keeps_mode_and_writes_through_a_symlink(tmp_path):
    from pyopl.files.safe_write import write_text_safely

    target = tmp_path / "out.json"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o644)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_text_safely(str(link), "new\r\n")
    assert link.is_symlink() and target.read_bytes() == b"new\r\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644
    fresh = tmp_path / "fresh.txt"
    write_text_safely(str(fresh), "x", mode=0o600)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o600
    write_text_safely(str(fresh), "y")
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.txt", "link.json", "out.json"]


def test_safe_write_never_replaces_a_device_and_reports_a_full_disk():
    from pyopl.files.safe_write import WriteError, write_bytes_safely

    before = os.stat("/dev/null")
    write_bytes_safely("/dev/null", b"data")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    if os.path.exists("/dev/full"):
        with pytest.raises(WriteError) as e:
            write_bytes_safely("/dev/full", b"data")
        assert e.value.code == "OPL1123" and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_safe_write_to_a_fifo_writes_in_place_or_refuses(tmp_path):
    import threading

    from pyopl.files.safe_write import WriteError, write_bytes_safely

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(WriteError) as e:  # nobody reads it: refused at once, never blocks
        write_bytes_safely(str(fifo), b"x")
    assert e.value.code == "OPL1124"
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    import time

    for _ in range(200):  # the reader's open() must come first
        try:
            write_bytes_safely(str(fifo), b"payload")
            break
        except WriteError:
            time.sleep(0.01)
    reader.join(10)
    assert got == [b"payload"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_full_disk_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    from pyopl.files import safe_write

    target = tmp_path / "result.json"
    target.write_text("old result", encoding="utf-8")
    real_write = os.write

    def full(fd, data):
        if os.fstat(fd).st_ino != os.stat(target).st_ino:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(safe_write.os, "write", full)
    with pytest.raises(safe_write.WriteError) as e:
        safe_write.write_text_safely(str(target), "new result")
    assert e.value.code == "OPL1123"
    assert target.read_text(encoding="utf-8") == "old result"
    assert [p.name for p in tmp_path.iterdir()] == ["result.json"]


@pytest.fixture()
def solved_model(tmp_path):
    mod = tmp_path / "m.mod"
    mod.write_text("dvar float+ x;\nminimize x;\nsubject to { c: x >= 1; }\n", encoding="utf-8")
    return mod


def test_solve_outputs_go_through_the_safe_writer(solved_model, tmp_path, capsys):
    _safe_writer_present()
    before = os.stat("/dev/null")
    rc, _o, _e = _cli(["solve", str(solved_model), "-o", "/dev/null", "--csv", "/dev/null"], capsys)
    assert rc == 0 and os.stat("/dev/null").st_rdev == before.st_rdev and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    out = tmp_path / "r.json"
    out.write_text("{}", encoding="utf-8")
    os.chmod(out, 0o664)
    rc, _o, _e = _cli(["solve", str(solved_model), "-o", str(out), "--csv", str(tmp_path / "r.csv")], capsys)
    assert rc == 0 and json.loads(out.read_text())["objective"] == pytest.approx(1.0)
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o664
    assert (tmp_path / "r.csv").read_text().splitlines()[0] == "kind,name,index,value"


@pytest.mark.parametrize("flag", ["-o", "--csv", "--log-file"])  # the solver's log: it failed silently
def test_solve_output_in_a_missing_folder_is_a_diagnostic(solved_model, tmp_path, capsys, flag):
    _safe_writer_present()
    rc, out, _e = _cli(["solve", str(solved_model), flag, str(tmp_path / "no" / "r.out"), "--format", "json"], capsys)
    assert rc == 2
    doc = json.loads(out)
    assert "OPL1122" in _codes(doc) and "internal" not in out


def test_a_log_file_that_is_a_folder_is_a_diagnostic(solved_model, tmp_path, capsys):
    rc, out, _e = _cli(["solve", str(solved_model), "--log-file", str(tmp_path), "--format", "json"], capsys)
    assert rc == 2 and _codes(json.loads(out)) == ["OPL1124"]


def test_solve_output_on_a_full_disk_is_a_diagnostic(solved_model, capsys):
    _safe_writer_present()
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    rc, out, _e = _cli(["solve", str(solved_model), "-o", "/dev/full", "--format", "json"], capsys)
    assert rc == 2 and "OPL1123" in _codes(json.loads(out))
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.parametrize("fmt", ["--lp", "--mps"])
def test_export_to_devices_symlinks_and_missing_folders(solved_model, tmp_path, capsys, fmt):
    _safe_writer_present()
    before = os.stat("/dev/null")
    rc, _o, _e = _cli(["export", str(solved_model), fmt, "/dev/null"], capsys)
    assert rc == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode) and os.stat("/dev/null").st_rdev == before.st_rdev
    target = tmp_path / "real.out"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o664)
    link = tmp_path / "link.out"
    link.symlink_to(target)
    rc, _o, _e = _cli(["export", str(solved_model), fmt, str(link)], capsys)
    assert rc == 0 and link.is_symlink() and "x" in target.read_text()
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o664
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.out", "m.mod", "real.out"]
    rc, out, _e = _cli(["export", str(solved_model), fmt, str(tmp_path / "no" / "m.lp"), "--format", "json"], capsys)
    assert rc == 2 and "OPL1122" in _codes(json.loads(out))
    if os.path.exists("/dev/full"):
        rc, out, _e = _cli(["export", str(solved_model), fmt, "/dev/full", "--format", "json"], capsys)
        assert rc == 2 and "OPL1123" in _codes(json.loads(out))
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


# --- user and environment mistakes are diagnostics, never "internal error" -----------------------

def test_a_folder_or_unreadable_file_as_model_through_the_api(tmp_path, monkeypatch):
    diags = pyopl.check(tmp_path)
    assert [d.code for d in diags] == ["OPL0803"]
    mod = tmp_path / "m.mod"
    mod.write_text("dvar float x;\nminimize x;\n", encoding="utf-8")
    real_open = os.open

    def denied(path, *a, **kw):  # tests may run as root, where chmod 000 does not stop reading
        if str(path) == str(mod):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *a, **kw)

    monkeypatch.setattr(os, "open", denied)
    diags = pyopl.check(mod)
    assert [d.code for d in diags] == ["OPL1121"] and "Permission denied" in diags[0].message


def test_a_nul_byte_in_an_include_name_is_a_diagnostic(tmp_path):
    model = "int n = ...;\ndvar float x;\nminimize x;\n"
    diags = pyopl.check(model, 'include "a\0b.dat";\n')
    assert [d.code for d in diags] == ["OPL0416"] and "internal" not in diags[0].message
    bad = tmp_path / "nul.mod"
    bad.write_text('include "a\0b.mod";\ndvar float x;\nminimize x;\n', encoding="utf-8")
    diags = pyopl.check(bad)
    assert [d.code for d in diags] == ["OPL0609"] and (diags[0].line, diags[0].column) == (1, 1)
    assert [d.code for d in pyopl.check(tmp_path / "a\0b.mod")] == ["OPL0802"]
    assert [d.code for d in pyopl.check(model, tmp_path / "a\0b.dat")] == ["OPL0416"]


_BIG = "1" + "0" * 400


@pytest.mark.parametrize("model,data", [
    ("float a = %s;\ndvar float x;\nminimize x;\nsubject to { x >= a; }\n" % _BIG, None),
    ("float a = ...;\ndvar float x;\nminimize x;\nsubject to { x >= a; }\n", "a = %s;\n" % _BIG),
    ("dvar float x;\nminimize %s * x;\nsubject to { x >= 1; }\n" % _BIG, None),
    ("float a = 10^400;\ndvar float x;\nminimize x;\nsubject to { x >= a; }\n", None),
])
def test_numbers_too_large_are_diagnostics(model, data):
    diags = pyopl.check(model, data)
    assert diags.errors and not [d for d in diags if d.code == "OPL0605"], [(d.code, d.message) for d in diags]
    assert all(d.line > 0 for d in diags.errors)


@pytest.mark.parametrize("decl,data", [
    ("float R[1..3] = ...;", "R = [1, 2, %s];" % _BIG),  # a row of plain numbers
    ("float R[1..2][1..2] = ...;", "R = [[1, 2], [3, -%s]];" % _BIG),
    ("float R[1..2000] = ...;", "R = [%s];" % ", ".join(["1"] * 1999 + [_BIG])),  # read in bulk
    ("{float} S = ...;", "S = {1, %s};" % _BIG),
    ("tuple t {int i; float v;} {t} T = ...;", "T = {<1, 2>, <2, %s>};" % _BIG),
    ("tuple t {int i; float v;} {t} T = ...;", "T = {%s};" % ", ".join("<%d, %s>" % (i, _BIG if i == 20 else "1")
                                                                  for i in range(40))),
    ("float R[1..2] = ...;", {"R": [1, 10 ** 400]}),
])
def test_an_int_past_every_float_in_a_float_container_is_a_diagnostic(decl, data):
    """The containers' converters of whole columns turn ints into floats at once: an int past
    1.8e308 there is OPL1128, as for a single value, never an internal error."""
    diags = pyopl.check(decl + "\ndvar float x;\nminimize x;\n", data)
    assert [d.code for d in diags.errors] == ["OPL1128"], [(d.code, d.message) for d in diags]


def test_the_rendered_source_line_is_the_diagnostics_line():
    """A comment holding characters `str.splitlines` breaks on must not shift the snippet."""
    model = "// a\x85b\u2028c\x0cd\x1ce\rf\ndvar float+ x;\nminimize x;\nsubject to {\n  x >= capacit;\n}\n"
    diags = pyopl.check(model)
    (d,) = diags.errors
    assert (d.line, d.column) == (5, 8)
    shown = diags.render().splitlines()
    k = next(i for i, l in enumerate(shown) if "x >= capacit;" in l)
    assert shown[k].startswith("5 |") and shown[k + 1].index("^") == shown[k].index("capacit")


def test_an_endless_device_as_model_is_bounded(monkeypatch):
    from pyopl.files import source_io

    monkeypatch.setattr(source_io, "MAX_SOURCE_BYTES", 1 << 16)
    diags = pyopl.check(Path("/dev/zero"))
    assert [d.code for d in diags] == ["OPL1121"] and "larger than" in diags[0].message


@pytest.mark.parametrize("codec, mark", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-32-le", b"\xff\xfe\x00\x00"),
                                         ("utf-16-le", b""), ("utf-16-be", b"")])
def test_a_utf16_file_is_read_as_utf16_with_a_warning(tmp_path, codec, mark):
    """Windows Notepad's "Unicode" and PowerShell 5's `>` write UTF-16: read as UTF-8 such a file gave
    a `\\0` error at every other character (39 for a three-line model) after a warning that it was
    read as Windows-1252."""
    mod, dat = tmp_path / "m.mod", tmp_path / "m.dat"
    mod.write_bytes(mark + "int n = ...;\ndvar float x;\nminimize x;\nsubject to { x >= n; }\n".encode(codec))
    dat.write_bytes(mark + "n = 3;\n".encode(codec))
    diags = pyopl.check(mod, dat)
    assert [d.code for d in diags] == ["OPL1132", "OPL1132"] and all(d.severity == "warning" for d in diags)
    kind = codec.upper()
    assert all(kind in d.message and "UTF-8" in d.help for d in diags)
    assert pyopl.solve(mod, dat).objective == 3
    from pyopl.cli import main

    assert main(["check", str(mod), "--fix"]) == 1  # --fix rewrites UTF-8 files only (OPL1120)
    assert mod.read_bytes().startswith(mark)


@pytest.mark.parametrize("flags", [["--csv", "out.txt", "-o", "out.txt"], ["--csv", "out.txt", "--log-file", "./out.txt"],
                                   ["-o", "r.json", "--log-file", "link.json"]])
def test_two_outputs_of_one_run_in_one_file_are_refused(tmp_path, monkeypatch, capsys, flags):
    """`--csv out.txt -o out.txt` wrote the table, then the JSON over it (exit 0): one result lost."""
    from pyopl.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.mod").write_text("dvar float+ x;\nminimize x;\nsubject to { x >= 1; }\n")
    os.symlink(tmp_path / "r.json", tmp_path / "link.json")
    assert main(["solve", "m.mod", "--quiet"] + flags) == 2
    err = capsys.readouterr().err
    assert "error[OPL1133]" in err and "are the same file" in err
    assert not (tmp_path / "out.txt").exists() and not (tmp_path / "r.json").exists()
    assert main(["solve", "m.mod", "--quiet", "--csv", "out.csv", "-o", "out.json", "--csv", "/dev/null"]) == 0
