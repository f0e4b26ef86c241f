"""Repeated declarations stop at the error budget before the name and static checks walk the model
(an LLM reply of 200,000 copies of `int n = 3;` took 30 s and 1.1 GB to be told so), and syntagm's
handling of a large reply reads its text once."""
from __future__ import annotations

import pyopl
from pyopl.diagnostics.reporter import Reporter


def _model(copies: int, tail: str = "") -> str:
    return "dvar float+ x;\n" + "int n = 3;\n" * copies + "minimize x;\nsubject to { x >= n; }\n" + tail


def test_repeats_past_the_budget_stop_with_a_count_and_skip_the_later_checks(monkeypatch):
    from pyopl.semantics import static

    walked = []
    monkeypatch.setattr(static, "check_static", lambda model, reporter: walked.append(model))
    # 150 copies: line 2 declares `n`, lines 3..151 repeat it (149 repeats); `y` at the end is undeclared
    diags = pyopl.check(_model(150, "subject to { y >= 1; }\n"))
    assert [d.code for d in diags] == ["OPL0102"] * 100 + ["OPL0801"]
    assert [d.line for d in diags[:100]] == list(range(3, 103))  # in source order, each at its name
    assert all(d.message == "`n` is declared twice: it was already declared on line 2" for d in diags[:100])
    assert diags[-1].notes == ("49 more declarations repeat a name declared earlier (149 in all); the checks "
                               "after the declarations were not run",)
    assert walked == []  # the static checks never walked the 150 items
    assert not any(d.code == "OPL0101" for d in diags)  # nor the name checks (`y` is not looked up)


def test_a_repeat_is_reported_once_with_its_first_declaration():
    diags = pyopl.check("int n = 1;\nfloat m = 2;\nint n = 3;\ndvar float+ x;\nminimize x + n + m;\n")
    dup = [d for d in diags if d.code == "OPL0102"]
    assert len(dup) == 1  # said by the name checks; the lowering's identical report is not repeated
    (d,) = dup
    assert (d.span.line, d.span.column, d.span.end_column) == (3, 5, 6)  # `n` on line 3
    assert d.message == "`n` is declared twice: it was already declared on line 1"
    assert [(l.span.line, l.span.column, l.message) for l in d.labels] == [(1, 5, "first declared here")]


def test_under_the_budget_every_later_check_still_runs():
    diags = pyopl.check("int n = 1;\nint n = 2;\ndvar float+ x;\nminimize x;\nsubject to { y >= 1; }\n")
    assert sorted(d.code for d in diags if d.is_error) == ["OPL0101", "OPL0102"]  # `y` undeclared too


def test_a_statement_read_as_a_declaration_of_no_type_repeats_nothing():
    # `minimise x;` parses as a declaration of `x` with the type `minimise`: the type is reported,
    # and it declares nothing, so `x` is not declared twice (as in the lowering)
    diags = pyopl.check("dvar float+ x;\nminimise x;\nsubject to { x >= 1; }\n")
    assert "OPL0102" not in [d.code for d in diags]
    assert diags and diags[0].is_error


def test_repeats_of_every_kind_of_declaration():
    src = ("tuple T { int a; }\nrange T = 1..2;\ndvar float x;\ndexpr float x = 1;\n"
           "int r = 1;\nconstraint r;\nminimize 0;\n")
    diags = pyopl.check(src)
    dup = sorted((d.line, d.message) for d in diags if d.code == "OPL0102")
    assert dup == [(2, "`T` is declared twice: it was already declared on line 1"),
                   (4, "`x` is declared twice: it was already declared on line 3"),
                   (6, "`r` is declared twice: it was already declared on line 5")]


def test_report_duplicates_alone_raises_at_the_budget():
    import pytest
    from pyopl.diagnostics.reporter import TooManyErrors
    from pyopl.semantics.checker import report_duplicates
    from pyopl.syntax.parser import parse_model

    r = Reporter(max_errors=3)
    ast = parse_model(_model(5), "<m>", r)
    with pytest.raises(TooManyErrors):
        report_duplicates(ast, r)
    assert [d.code for d in r.diagnostics] == ["OPL0102"] * 3 + ["OPL0801"]
    assert r.diagnostics[-1].notes == ("1 more declarations repeat a name declared earlier (4 in all); the "
                                       "checks after the declarations were not run",)


class _CountedText(str):
    """A text that counts how often it is split into lines."""

    splits = 0

    def splitlines(self, *a):
        type(self).splits += 1
        return str.splitlines(self, *a)


def test_the_repair_payload_splits_each_text_once():
    from syntagm.assess.compiler import CheckReport, diagnostics_payload

    model = _CountedText(_model(30))
    diags = pyopl.check(str(model))
    assert len(diags) == 29
    _CountedText.splits = 0
    payload = diagnostics_payload(CheckReport(list(diags)), model, "")
    assert _CountedText.splits == 1  # was once per diagnostic (a hundred on a 2 MB reply: seconds)
    assert [p["source"] for p in payload] == ["int n = 3;"] * 29 and payload[0]["line"] == 3


def test_a_reply_without_include_is_not_walked_character_by_character():
    from syntagm.assess.compiler import include_positions

    class Untouchable(str):
        def __getitem__(self, k):
            raise AssertionError("walked")

        def startswith(self, *a):
            raise AssertionError("walked")

    assert include_positions(Untouchable(_model(50))) == []
    assert include_positions('int a = 1;\n/* include */ include "x.mod";\n') == [(2, 15)]


def test_reading_a_large_reply_neither_walks_it_per_character_nor_looks_for_braces(monkeypatch):
    import json

    from syntagm.llm import parse

    class NoWalk(str):
        def __iter__(self):
            raise AssertionError("walked character by character")

    monkeypatch.setattr(parse, "_balanced_objects", lambda text: (_ for _ in ()).throw(AssertionError("braces")))
    reply = NoWalk(json.dumps({"model": _model(2000), "data": ""}))
    assert parse.text_defect(reply) is None
    assert parse.extract_json_object(reply)["model"] == _model(2000)
    # the defects are still found, at their place (1-based characters)
    assert parse.text_defect("ab\udc9fc") == "the reply is not valid UTF-8 (byte 0x9F at character 3)"
    assert parse.text_defect("x\ud800").startswith("the reply holds a lone surrogate U+D800 at character 2")


def test_the_repair_payload_keeps_every_error_and_counts_the_warnings_past_twenty():
    from syntagm.assess.compiler import MORE_WARNINGS_CODE, CheckReport, diagnostics_payload

    # 30 unused strings with an unknown escape: 30 OPL0922 (unused) and 30 OPL0931 (escape) warnings;
    # with them, the error of another check (`y` undeclared), as if one compile had given all 61
    src = "dvar float+ x;\n" + "".join('string s%d = "a\\q";\n' % i for i in range(30)) + "minimize x;\n"
    diags = pyopl.check("dvar float+ x;\nminimize x + y;\n") + pyopl.check(src)
    assert sorted({d.code for d in diags}) == ["OPL0101", "OPL0922", "OPL0931"] and len(diags) == 61
    payload = diagnostics_payload(CheckReport(list(diags)), src, "")
    assert [p["code"] for p in payload if p["severity"] == "error"] == ["OPL0101"]
    shown = [p for p in payload if p["severity"] == "warning"]
    assert len(shown) == 20 and shown == [p for p in payload if p["code"] in ("OPL0922", "OPL0931")]
    n922 = sum(d.code == "OPL0922" for d in diags) - sum(p["code"] == "OPL0922" for p in shown)
    n931 = sum(d.code == "OPL0931" for d in diags) - sum(p["code"] == "OPL0931" for p in shown)
    assert n922 + n931 == 40
    assert payload[-1]["code"] == MORE_WARNINGS_CODE and payload[-1]["message"] == \
        "40 more warnings not shown (OPL0922 x%d, OPL0931 x%d)" % (n922, n931)
