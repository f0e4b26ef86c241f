"""Every entry of IBM's OPL Language Quick Reference (keywords, functions, operators) and of the IBM
ILOG Script for OPL reference (classes, methods, properties) either runs as IBM defines it or is
named by a registered diagnostic; `docs/conformance.md` lists them and is checked here.

The models are our own (tests/conformance/reference_entries.py); each row's expected optimum or
output is worked out by hand or with Python's math, never taken from pyopl."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import pyopl
from pyopl.diagnostics.registry import lookup

sys.path.insert(0, str(Path(__file__).parent))
from reference_entries import CODE_MODELS, ENTRIES, render  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SUPPORTED = [e for e in ENTRIES if e[2] in ("obj", "out")]
UNSUPPORTED = [e for e in ENTRIES if e[2] == "code"]


def _write(tmp_path: Path, text: str, data: str | None):
    mod = tmp_path / "m.mod"
    mod.write_text(text, encoding="utf-8")
    dat = None
    if data is not None:
        dat = tmp_path / "m.dat"
        dat.write_text(data, encoding="utf-8")
    return mod, dat


@pytest.mark.parametrize("entry", SUPPORTED, ids=[e[1] for e in SUPPORTED])
def test_supported(entry, tmp_path):
    """Each supported entry: its model solves to the optimum worked out by hand, or its scripts
    print what IBM's reference page says they print (the page is the row's name)."""
    _section, _name, kind, text, data, expected = entry
    mod, dat = _write(tmp_path, text, data)
    r = pyopl.solve(mod, dat)
    assert not [d for d in r.diagnostics if d.is_error], [(d.code, d.message) for d in r.diagnostics]
    if kind == "obj":
        assert r.objective == pytest.approx(expected, rel=1e-6, abs=1e-6)
    elif expected.startswith("@"):  # the output names this
        assert expected[1:] in (r.script_output or "")
    else:
        assert (r.script_output or "").strip() == expected


@pytest.mark.parametrize("entry", UNSUPPORTED, ids=[e[1] for e in UNSUPPORTED])
def test_not_supported(entry, tmp_path):
    """Each entry pyopl does not run yields its registered diagnostic, never a silent other meaning."""
    _section, name, _kind, _why, _data, code = entry
    model = CODE_MODELS[name]
    text, data = model if isinstance(model, tuple) else (model, None)
    mod, dat = _write(tmp_path, text, data)
    try:
        m = pyopl.compile_model(mod, dat)
        diags = list(m.diagnostics) + list(m.solve().diagnostics)
    except pyopl.CompileError as e:
        diags = list(e.diagnostics)
    assert code in [d.code for d in diags], [(d.code, d.message) for d in diags]
    assert any(d.is_error for d in diags)


_ROW = re.compile(r"^\|(?P<cells>.*)\|\s*$")


def _rows(text: str) -> list[list[str]]:
    """The entry rows: the table lines after the first section heading (the counts come before)."""
    out = []
    text = text[text.index("\n## "):]
    for line in text.splitlines():
        m = _ROW.match(line)
        if not m or line.startswith("|---") or line.startswith("| Entry"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", m.group("cells"))]
        out.append(cells)
    return out


def _test_exists(ref: str) -> bool:
    """``path::function[id]`` (or without ``[id]``) names a test function in the file, and the id
    is one of its parameters' ids (the entries of reference_entries.py)."""
    m = re.fullmatch(r"`?(?P<path>[^:`]+)::(?P<fn>test_\w+)(\[(?P<id>.*)\])?`?", ref)
    if not m:
        return False
    path = ROOT / m.group("path")
    if not path.is_file() or not re.search(r"^def %s\(" % m.group("fn"), path.read_text(), re.M):
        return False
    if m.group("id") is None:
        return True
    ids = {"test_supported": [e[1] for e in SUPPORTED], "test_not_supported": [e[1] for e in UNSUPPORTED]}
    return m.group("id") in ids.get(m.group("fn"), [])


def test_conformance_table_is_consistent():
    """docs/conformance.md: every `supported` row names a test that exists, every `not supported`
    row a registered diagnostic code and a reason; the table is the one the entries give."""
    doc = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    assert doc == render(), "docs/conformance.md is stale: run `python tests/conformance/reference_entries.py`"
    rows = _rows(doc)
    assert len(rows) == len(ENTRIES)
    for cells in rows:
        entry, status, where, why = cells[:4]
        if status == "supported":
            assert _test_exists(where), (entry, where)
        else:
            assert status == "not supported", (entry, status)
            code = where.strip("`")
            assert lookup(code) is not None and lookup(code).code == code, (entry, code)
            assert why, entry


def test_parser_of_the_table_rejects_a_missing_test_and_an_unknown_code():
    """The check above can fail: a row naming a test that does not exist, or a code never registered."""
    assert not _test_exists("tests/conformance/test_conf_reference.py::test_supported[no such entry]")
    assert not _test_exists("tests/nowhere.py::test_x")
    assert _test_exists("tests/conformance/test_conf_reference.py::test_supported[abs]")
    assert lookup("OPL9999") is None


# Entries of IBM's references that once had no row (issue 44): each must keep one (a missing row is worse
# than a row marked not supported).
_REQUIRED = """append element standardDeviation strong sameSequence sameCommonSubsequence cumulFunctionValue
stateFunctionValue segmentStart segmentEnd segmentValue numberOfSegments initial template struct break continue for
function return var while write writeln""".split() + ["^ (power)", "#<field: value># named tuple"]
_REQUIRED_CLASSES = ["IloCP", "IloIntervalVar", "IloIntervalSequenceVar", "IloCumulFunctionExpr", "IloStateFunctionExpr",
                     "IloOplProject", "IloOplRunConfiguration", "IloOplCPSolution"]


def test_every_required_reference_entry_has_a_row():
    names = [e[1] for e in ENTRIES]
    missing = [n for n in _REQUIRED if n not in names]
    missing += [c for c in _REQUIRED_CLASSES if not any(n == c or n.startswith(c + " ") for n in names)]
    assert missing == []
