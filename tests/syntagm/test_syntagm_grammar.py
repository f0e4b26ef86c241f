"""Grammar-constrained decoding: the GBNF grammar of the reply contract and where it is sent.

The grammar is checked with the recogniser of ``gbnf_recogniser.py`` (llama.cpp's semantics: no
lexer, every alternative followed per character, left recursion refused). Every knowledge-base
exemplar is accepted; held-out kinds of syntax mistake (each one first shown to be a mistake by
pyopl's own Lark parser) are rejected, and so are broken JSON frames. The scripted
OpenAI-compatible server sees the grammar in the request body when constrained decoding is on
for the endpoint it claims to be, and never when it is off or the endpoint takes none.
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from lark import Lark
from lark.exceptions import LarkError

from gbnf_recogniser import GbnfError, Recogniser, read_gbnf
from syntagm.decoding import endpoints
from syntagm.decoding.contract import LEAD_KEYS, MODEL_CONTRACT_TEMPLATES, contract_grammar
from syntagm.decoding.lark_gbnf import lark_to_gbnf, rule_name
from syntagm.llm.client import OpenAIChatClient
from syntagm.llm.constrain import template_name
from syntagm_testkit import Item, gen, verdict

from pyopl.syntax.grammars import grammar_text
from pyopl.syntax.parser_cache import build

KB = Path(__file__).resolve().parents[2] / "knowledge_base"
EXEMPLARS = sorted(p for p in KB.iterdir() if (p / "model.mod").is_file())
PROMPTS = Path(__file__).resolve().parents[2] / "syntagm" / "prompts"
MSGS = [{"role": "user", "content": "write the model"}]


@pytest.fixture(scope="module")
def rec() -> Recogniser:
    return Recogniser(read_gbnf(contract_grammar()))


def reply(model: str, data: str = "", **kw) -> str:
    return json.dumps({**kw, "model": model, "data": data}, ensure_ascii=False)


# -- the grammar follows the Lark grammars ------------------------------------------------------
def test_every_lark_rule_and_terminal_has_its_gbnf_rule():
    text = contract_grammar()
    defined = set(re.findall(r"^([a-z0-9-]+) ::=", text, re.M))
    for name, prefix in (("opl", "opl-"), ("dat", "dat-")):
        lark = Lark(grammar_text(name), parser="earley", lexer="dynamic")
        for r in lark.rules:
            assert rule_name(prefix, r.origin.name) in defined
            for sym in r.expansion:
                if sym.is_term:
                    assert rule_name(prefix + "t-", sym.name) in defined
    root = re.search(r"^root ::= (.*)$", text, re.M).group(1)
    assert "opl-root" in root and "dat-root" in root


def test_a_grammar_change_shows_in_the_gbnf():
    """Generated, not copied: a new keyword in the Lark text becomes a GBNF rule."""
    changed = grammar_text("dat").replace("-> dmaxint", '-> dmaxint\n        | "nothing" -> dnothing')
    assert changed != grammar_text("dat")
    rules, root = lark_to_gbnf(changed, "x-")
    assert any('"nothing"' in expr for expr in rules.values())
    assert root == "x-root"


def test_no_left_recursion_and_llama_cpp_names():
    text = contract_grammar()
    read_gbnf(text)  # raises GbnfError on left recursion, as llama.cpp refuses it
    assert all(re.fullmatch(r"[a-z0-9-]+", n) for n in re.findall(r"^(\S+) ::=", text, re.M))
    with pytest.raises(GbnfError):
        read_gbnf('root ::= x\nx ::= x "a" | "b"\n')


def test_the_recogniser_itself():
    g = read_gbnf('root ::= "a" [0-9]{2,3} ("-" [^-]+)? x*\nx ::= "\\\\" | "\\x41"\n')
    r = Recogniser(g)
    assert r.accepts("a12") and r.accepts("a123-zz") and r.accepts("a12\\A\\")
    assert not r.accepts("a1") and not r.accepts("a1234") and not r.accepts("a12-") and not r.accepts("a12B")


# -- it accepts what pyopl reads ------------------------------------------------------------------
@pytest.mark.parametrize("folder", EXEMPLARS, ids=lambda p: p.name)
def test_accepts_every_exemplar(rec, folder):
    model = (folder / "model.mod").read_text(encoding="utf-8")
    data = (folder / "data.dat").read_text(encoding="utf-8") if (folder / "data.dat").exists() else ""
    build("opl").parse(model)  # pyopl reads it (the grammar must accept at least that)
    assert rec.failure(reply(model, data)) is None


def _shared_corpus() -> list[Path]:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from shared_material import SHARED

    return sorted((SHARED / "opl-corpus").glob("*/model.mod"))


def _corpus() -> list[Path]:
    return _shared_corpus() + sorted(ROOT.glob("examples/**/*.mod"))


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not _shared_corpus(), reason="../shared/opl-corpus is not present here")
def test_accepts_every_corpus_model_pyopl_reads(rec):
    """IBM's and others' OPL models (with their ILOG Script blocks) and their data files: each one
    pyopl's parser reads (scripts cut out as pyopl does) the grammar accepts, script and all."""
    from pyopl.syntax.scripts import strip_scripts

    read = 0
    for mod in _corpus():
        model = mod.read_text(encoding="utf-8", errors="replace")
        try:
            build("opl").parse(strip_scripts(model)[0])
        except LarkError:
            continue
        dats = [d.read_text(encoding="utf-8", errors="replace") for d in sorted(mod.parent.glob("*.dat"))]
        data = next((d for d in dats if _reads(d)), "")
        assert rec.failure(reply(model, data)) is None, mod
        read += 1
    assert read >= 20


def _reads(data: str) -> bool:
    try:
        build("dat").parse(data)
        return True
    except LarkError:
        return False


def test_accepts_the_frames_llms_write(rec):
    model = "dvar float+ x;\nmaximize x; // the goal\nsubject to { c: x <= 4; }"
    assert rec.accepts(json.dumps({"model": model, "data": ""}, indent=2))
    for key in LEAD_KEYS:
        assert rec.accepts(reply(model, "", **{key: 'Say "why": 2 \\ 3\nthen'}))
    assert rec.accepts(reply(model + "\n// last line comment, no newline"))
    assert rec.accepts(reply("/* a block */ int n = 3; range R = 1..n;\ndvar int y[R] in 0..1;\n"
                             "minimize sum(r in R) y[r];"))


def test_accepts_script_blocks(rec):
    model = ('int n = 2;\ndvar float x;\nminimize x;\nsubject to { x >= n; }\n'
             'execute REPORT {\n  for (var i = 0; i < 2; i++) { writeln("} is not the end", \'{\'); }\n'
             '  // a } in a comment\n}\n')
    assert rec.accepts(reply(model))


# -- it rejects held-out kinds of syntax mistake ----------------------------------------------------
BASE_MODEL = """{string} Items = ...;
float profit[Items] = ...;
dvar int+ make[Items] in 0..10;
maximize sum(i in Items) profit[i] * make[i];
subject to {
  forall(i in Items)
    cap: make[i] <= 5;
}
"""
BASE_DATA = 'Items = {"a", "b"};\nprofit = [3, 4.5];\n'

MODEL_MISTAKES = {
    "missing semicolon after a declaration": ("float profit[Items] = ...;", "float profit[Items] = ..."),
    "unbalanced parenthesis": ("sum(i in Items)", "sum(i in Items"),
    "Python power operator": ("profit[i] * make[i]", "profit[i] ** make[i]"),
    "AMPL assignment": ("float profit[Items] = ...;", "float profit[Items] := ...;"),
    "forall without parentheses": ("forall(i in Items)", "forall i in Items:"),
    "AMPL s.t. label": ("subject to {", "s.t. {"),
    "unclosed constraint block": ("    cap: make[i] <= 5;\n}", "    cap: make[i] <= 5;\n"),
    "hash comment": ("dvar int+", "# decisions\ndvar int+"),
    "unterminated string": ('{string} Items = ...;', '{string} Items = {"a};'),
    "dangling operator": ("make[i] <= 5;", "make[i] <= 5 +;"),
}
DATA_MISTAKES = {
    "AMPL data assignment": ("profit = [3, 4.5];", "profit := [3, 4.5];"),
    "unclosed array": ("profit = [3, 4.5];", "profit = [3, 4.5;"),
    "missing semicolon": ("profit = [3, 4.5];", "profit = [3, 4.5]"),
    "set without braces": ('Items = {"a", "b"};', 'Items = "a", "b";'),
}


def test_the_base_is_accepted(rec):
    build("opl").parse(BASE_MODEL)
    build("dat").parse(BASE_DATA)
    assert rec.accepts(reply(BASE_MODEL, BASE_DATA))


@pytest.mark.parametrize("kind", sorted(MODEL_MISTAKES))
def test_rejects_model_mistakes(rec, kind):
    old, new = MODEL_MISTAKES[kind]
    assert old in BASE_MODEL
    model = BASE_MODEL.replace(old, new, 1)
    with pytest.raises(LarkError):
        build("opl").parse(model)  # pyopl's own parser calls it a mistake
    assert not rec.accepts(reply(model, BASE_DATA))


@pytest.mark.parametrize("kind", sorted(DATA_MISTAKES))
def test_rejects_data_mistakes(rec, kind):
    old, new = DATA_MISTAKES[kind]
    assert old in BASE_DATA
    data = BASE_DATA.replace(old, new, 1)
    with pytest.raises(LarkError):
        build("dat").parse(data)
    assert not rec.accepts(reply(BASE_MODEL, data))


def test_rejects_broken_frames(rec):
    good = reply(BASE_MODEL, BASE_DATA)
    assert not rec.accepts(good.replace("\\n", "\n", 1))  # a raw newline inside a JSON string
    assert not rec.accepts(good + "\nHope this helps!")  # prose after the object
    assert not rec.accepts("```json\n" + good + "\n```")  # a fence
    assert not rec.accepts(json.dumps({"model": BASE_MODEL}))  # no data
    assert not rec.accepts(json.dumps({"data": BASE_DATA, "model": BASE_MODEL}))  # another order
    assert not rec.accepts(reply(BASE_MODEL, BASE_DATA, notes="x"))  # a key not in the contract


# -- which templates carry it ------------------------------------------------------------------------
def test_model_contract_templates_match_the_templates_texts():
    asks_for_model = set()
    for f in PROMPTS.glob("*.md"):
        if re.search(r'"model":\s*(\.\.\.|"<)', f.read_text(encoding="utf-8")):
            asks_for_model.add(template_name(f.stem))
    # system.v1 states the contract for every call after it; a call's template id is its own template's
    assert asks_for_model - {"system"} == set(MODEL_CONTRACT_TEMPLATES)


# -- where it is sent ----------------------------------------------------------------------------------
@pytest.mark.parametrize("owner, version, field", [
    ("llamacpp", None, "grammar"),
    ("vllm", "0.11.2", "guided_grammar"),
    ("vllm", "0.12.0", "structured_outputs"),
    ("vllm", None, "structured_outputs"),
])
def test_auto_sends_the_grammar_to_servers_that_take_it(server, llm_config, owner, version, field):
    server.owned_by, server.version = owner, version
    client = OpenAIChatClient(replace(llm_config, constrained_decoding="auto"))
    server.push_reply(gen("dvar float x; minimize x;"))
    server.push_reply(verdict(True))
    server.push_reply(gen("dvar float x; minimize x;"))
    client.chat(MSGS, purpose="generate", prompt_version="generate.v1")
    client.chat(MSGS, purpose="judge", prompt_version="judge.v1")
    client.chat(MSGS, purpose="syntax_repair", prompt_version="syntax_repair.v2")
    bodies = [r["body"] for r in server.requests]
    sent = bodies[0]["structured_outputs"]["grammar"] if field == "structured_outputs" else bodies[0][field]
    assert sent == contract_grammar()
    assert "response_format" not in bodies[0]  # the grammar makes it JSON; vLLM refuses two constraints
    assert field not in bodies[1] and bodies[1]["response_format"] == {"type": "json_object"}  # the judge
    assert field in bodies[2]
    assert server.gets.count("/v1/models") == 1  # asked once per client


@pytest.mark.parametrize("mode, owner", [("off", "llamacpp"), ("auto", "openai"), ("auto", None)])
def test_no_grammar_when_off_or_unsupported(server, llm_config, mode, owner):
    server.owned_by = owner
    client = OpenAIChatClient(replace(llm_config, constrained_decoding=mode))
    server.push_reply(gen("dvar float x; minimize x;"))
    client.chat(MSGS, purpose="generate", prompt_version="generate.v1")
    body = server.requests[0]["body"]
    assert not {"grammar", "guided_grammar", "structured_outputs"} & set(body)
    assert body["response_format"] == {"type": "json_object"}
    assert server.gets == ([] if mode == "off" else ["/v1/models"])


def test_forced_mode_needs_no_probe(server, llm_config):
    client = OpenAIChatClient(replace(llm_config, constrained_decoding="llama.cpp"))
    server.push_reply(gen("dvar float x; minimize x;"))
    client.chat(MSGS, purpose="generate", prompt_version="generate.v1")
    assert server.requests[0]["body"]["grammar"] == contract_grammar() and server.gets == []


def test_an_endpoint_that_refuses_the_grammar_is_asked_without_it(server, llm_config):
    lines: list[str] = []
    server.owned_by = "llamacpp"
    client = OpenAIChatClient(replace(llm_config, constrained_decoding="auto"), notify=lines.append)
    server.push_item(Item(gen("dvar float x; minimize x;"), reject=("grammar",)))
    server.push_reply(gen("dvar float x; minimize x;"))
    r = client.chat(MSGS, purpose="generate", prompt_version="generate.v1")
    assert json.loads(r.content)["model"].startswith("dvar")
    client.chat(MSGS, purpose="generate", prompt_version="generate.v1")
    bodies = [q["body"] for q in server.requests]
    assert "grammar" in bodies[0] and "grammar" not in bodies[1] and "grammar" not in bodies[2]
    assert any("refuses the grammar field grammar" in line for line in lines)
    assert any("llama.cpp" in line for line in lines)


def test_modes_and_fields():
    assert endpoints.plan_for("auto", ["system", "openai"]).field is None
    assert endpoints.plan_for("auto", None).field is None
    assert endpoints.request_fields(endpoints.plan_for("vllm"), "g") == {"structured_outputs": {"grammar": "g"}}
    assert endpoints.request_fields(endpoints.plan_for("off"), "g") == {}
    with pytest.raises(ValueError):
        endpoints.plan_for("always")


def test_the_grammar_command_prints_it(capsys):
    from syntagm.cli import main

    assert main(["grammar"]) == 0
    out = capsys.readouterr().out
    assert out == contract_grammar() and out.splitlines()[1].startswith("root ::= ")


# -- what a cache and a run id make of it -------------------------------------------------------------
def test_a_reply_decoded_under_a_grammar_is_not_reused_without_one(server, llm_config, tmp_path):
    """The cache's key holds the digest of the grammar sent: the same messages asked of a
    llama.cpp endpoint with the grammar and with it off are two requests, each answered by the
    endpoint once; the same request again is a hit."""
    from syntagm.llm.cache import CachingClient

    server.owned_by = "llamacpp"
    settings = {"base_url": llm_config.base_url, "temperature": 0}
    clients = {mode: CachingClient(OpenAIChatClient(replace(llm_config, constrained_decoding=mode)), tmp_path, settings)
               for mode in ("auto", "off")}
    for _ in range(2):
        server.push_reply(gen("dvar float x; minimize x;"))
    for mode in ("auto", "off", "auto"):
        clients[mode].chat(MSGS, purpose="generate", prompt_version="generate.v1")
    assert len(server.requests) == 2
    assert "grammar" in server.requests[0]["body"] and "grammar" not in server.requests[1]["body"]
    assert (clients["auto"].hits, clients["auto"].misses, clients["off"].misses) == (1, 1, 1)
    assert len(list(tmp_path.glob("*/*.json"))) == 2


def test_the_decoding_mode_is_part_of_the_run_id():
    """A bench run that may send a grammar is another run than one that never does; ``off`` and a
    run recorded before the setting existed (``None``) keep the id they had."""
    from syntagm.bench import identity

    base = {k: None for k in identity.SETTING_NAMES}
    ids = {mode: identity.derive_run_id({**base, "constrained_decoding": mode})
           for mode in (None, "off", "auto", "llama.cpp")}
    assert ids[None] == ids["off"] == identity.derive_run_id(base)
    assert len({ids["off"], ids["auto"], ids["llama.cpp"]}) == 3
    assert identity.setting_differences({**base, "constrained_decoding": "off"}, base) == []
    assert identity.setting_differences(base, {**base, "constrained_decoding": "auto"}) == [
        "constrained_decoding: null → \"auto\""]


def test_case_insensitive_terminals_keep_their_flag():
    # issue 42 (minor): `/select/i` became GBNF for lowercase `select` only (the flag was dropped), so a
    # constrained LLM could not write `SELECT`; a string terminal `"from"i` was refused outright
    from syntagm.decoding.lark_gbnf import lark_to_gbnf

    rules, root = lark_to_gbnf('start: KW NAME\nKW: /sel[a-e]ct/i\nNAME: "from"i\n%ignore " "\n', "p-")
    r = Recogniser(read_gbnf("".join("%s ::= %s\n" % kv for kv in rules.items()) + "root ::= %s\n" % root))
    for text in ("select from", "SELECT FROM", "SeLeCt fRoM", "selact from"):
        assert r.accepts(text), text
    assert not r.accepts("selfct from") and not r.accepts("select form")
