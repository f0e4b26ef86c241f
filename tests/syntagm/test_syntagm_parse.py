"""Robust reading of replies: fences, prose, trailing commas, and clear contract diagnostics."""
from __future__ import annotations

import pytest

from syntagm.errors import ContractError
from syntagm.llm.parse import extract_json_object, require_keys, strip_trailing_commas


@pytest.mark.parametrize("text", [
    '{"model": "m", "data": "d"}',
    'Here is the model:\n```json\n{"model": "m", "data": "d"}\n```\nHope it helps.',
    'Sure! {"model": "m", "data": "d"} Let me know.',
    '```\n{"model": "m", "data": "d",}\n```',
    '<think>maybe {"model": 1}</think>{"model": "m", "data": "d"}',
    '{\n  "model": "m",\n  "data": "d",\n}\n',
])
def test_extracts_the_object(text):
    assert extract_json_object(text) == {"model": "m", "data": "d"}


def test_raw_newlines_inside_strings_are_accepted():
    assert extract_json_object('{"model": "line1\nline2", "data": ""}')["model"] == "line1\nline2"


def test_braces_inside_strings_do_not_confuse_the_matcher():
    text = 'prose {"model": "subject to { c: x <= 1; }", "data": ""} more prose'
    assert extract_json_object(text)["model"] == "subject to { c: x <= 1; }"


def test_trailing_commas_only_outside_strings():
    assert strip_trailing_commas('{"a": "x,}", "b": [1, 2,],}') == '{"a": "x,}", "b": [1, 2]}'


@pytest.mark.parametrize("text, fragment", [
    ("", "empty reply"),
    ("I cannot help with that.", "no '{'"),
    ('{"model": "m", "data": ', "not valid JSON"),
])
def test_broken_replies_give_a_clear_diagnostic(text, fragment):
    with pytest.raises(ContractError) as e:
        extract_json_object(text)
    assert fragment in str(e.value)
    assert "output contract" in str(e.value)


def test_require_keys_names_missing_and_mistyped_keys():
    with pytest.raises(ContractError) as e:
        require_keys({"model": 3}, {"model": str, "data": str})
    msg = str(e.value)
    assert '"model" must be a string' in msg and 'missing key "data"' in msg


def test_require_keys_bool_is_not_a_string_and_vice_versa():
    with pytest.raises(ContractError):
        require_keys({"aligned": "yes"}, {"aligned": bool})
    assert require_keys({"aligned": False}, {"aligned": bool}) == {"aligned": False}


@pytest.mark.parametrize("reply", [
    "```opl\ndvar float+ x;\nmaximize x;\nsubject to { c: x <= 4; }\n```",
    "Here is the model:\n```\ndvar float+ x;\nmaximize x;\nsubject to { c: x <= 4; }\n```\nand no data.",
])
def test_a_reply_that_is_only_an_opl_block_says_so(reply):
    with pytest.raises(ContractError) as e:
        extract_json_object(reply)
    msg = str(e.value)
    assert "only a code block" in msg and '"model" string' in msg
    assert "line" not in msg.split("only a code block")[0]  # no position inside the model's braces


def test_a_json_block_next_to_an_opl_block_is_still_read():
    reply = '```opl\nsubject to { }\n```\n```json\n{"model": "dvar float x;", "data": ""}\n```'
    assert extract_json_object(reply) == {"model": "dvar float x;", "data": ""}
