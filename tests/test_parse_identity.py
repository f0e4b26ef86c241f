"""The model parser builds the AST while Lark parses (per-rule callbacks that mirror Lark's
tree builder); the reference is Lark's parse tree transformed afterwards, with the same
handlers.  Both must give the same AST (every node, every span) and the same diagnostics,
on every model we have and on damaged copies of them that drive error recovery.
"""
from __future__ import annotations

import random
import re
import threading

import pytest

from pyopl.diagnostics.registry import all_kinds
from pyopl.diagnostics.reporter import Reporter, TooManyErrors
from pyopl.semantics.checker import check_names
from pyopl.syntax import parser as P
from shared_material import ROOT, SHARED


def _models() -> dict[str, str]:
    texts = {}
    for root in (ROOT / "tests", ROOT / "examples", ROOT / "knowledge_base", SHARED):
        if root.is_dir():
            for p in sorted(root.rglob("*.mod")):
                texts[str(p.relative_to(root.parent))] = p.read_text(encoding="utf-8", errors="replace")
    for kind in all_kinds():
        if kind.via != "cli":
            for tag, text in (("bad", kind.bad), ("good", kind.good)):
                if text:
                    texts["%s/%s" % (kind.slug, tag)] = text + "\n"
    return texts


_TOKEN = re.compile(r'[A-Za-z_]\w*|\d+(?:\.\d*)?|"[^"\n]*"|\S')
_INSERTS = [";", ")", "(", "=", "[", "]", "{", "}", ",", "..", "&", "#", "'", '"', "int", "forall", ":"]


def _damaged(texts: dict[str, str], per_text: int = 2) -> dict[str, str]:
    """Copies with one token dropped, inserted or replaced, a line repeated, or the end cut off."""
    rng = random.Random(20261129)
    out = {}
    for name, text in texts.items():
        toks = list(_TOKEN.finditer(text))
        if not toks or len(text) > 20000:
            continue
        for k in range(per_text):
            m = toks[rng.randrange(len(toks))]
            how = rng.randrange(5)
            if how == 0:
                v = text[:m.start()] + text[m.end():]
            elif how == 1:
                v = text[:m.start()] + rng.choice(_INSERTS) + " " + text[m.start():]
            elif how == 2:
                v = text[:m.start()] + rng.choice(["=", "==", ":", ";", "in", "+"]) + text[m.end():]
            elif how == 3:
                lines = text.split("\n")
                i = rng.randrange(len(lines))
                v = "\n".join(lines[:i + 1] + lines[i:])
            else:
                v = text[:m.start()]
            out["%s~%d" % (name, k)] = v
    return out


def _outcome(text: str, inline: bool) -> tuple:
    r = Reporter()
    try:
        model = P._parse_model(text, "model.mod", r, inline=inline)
    except Exception as e:  # noqa: BLE001  (a crash must be the same crash)
        return ("crash", type(e).__name__, str(e))
    parsed = list(r.diagnostics)
    try:
        if model is not None:
            check_names(model, r)
    except TooManyErrors:
        pass
    return repr(model), parsed, list(r.diagnostics)


MODELS = _models()


def test_the_inline_parser_is_in_use():
    assert P._ast_parser() is not None, "Lark's internals changed: every parse now builds and transforms a tree"
    assert len(MODELS) > 100


@pytest.mark.parametrize("group", ["models", "damaged"])
def test_inline_ast_and_diagnostics_equal_the_parse_tree_path(group):
    texts = MODELS if group == "models" else _damaged(MODELS)
    differ = [name for name, text in texts.items() if _outcome(text, True) != _outcome(text, False)]
    assert not differ, "%d of %d differ, e.g. %s" % (len(differ), len(texts), differ[:5])


def test_recovery_trials_leave_no_diagnostics_behind():
    # `param` is reported by a handler; the missing `;` makes recovery try repairs on copies
    # of the parser, whose reductions run that handler too.  (The reporter would drop exact
    # repeats, so count what the handlers held back.)
    from pyopl.syntax.recovery import HeldDiagnostics, parse_with_recovery

    text = "param int n = 3\nparam float a[1..n] = [1, 2, 3];\ndvar float+ x;\nminimize x;\n"
    held = HeldDiagnostics()
    token = P._CTX.set(P._InlineHandlers("m.mod", held, text))
    try:
        result, _broken = parse_with_recovery(P._ast_parser(), text, "m.mod", Reporter(), text, effects=held)
    finally:
        P._CTX.reset(token)
    assert result is not None
    assert [args[0] for args, _kw in held.items] == ["dialect-param-keyword"] * 2
    assert _outcome(text, True) == _outcome(text, False)


def test_parses_in_threads_keep_their_own_file_and_diagnostics():
    texts = {"t%d.mod" % k: "param int n%d = %d;\ndvar float+ x;\nminimize x;\n" % (k, k) for k in range(8)}
    results: dict[str, tuple] = {}

    def work(name: str) -> None:
        for _ in range(20):
            r = Reporter()
            model = P.parse_model(texts[name], name, r)
            results[name] = (model.items[0].span.file, [d.span.file for d in r.diagnostics])

    threads = [threading.Thread(target=work, args=(n,)) for n in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {n: (n, [n]) for n in texts}


def test_a_block_of_many_foralls():
    body = "".join("  c%d: forall(i in I : i > %d) sum(j in I) a[j] * x[i][j] <= %d;\n" % (k, k % 7, k) for k in range(600))
    text = "range I = 1..3;\nfloat a[I] = ...;\ndvar float+ x[I][I];\nminimize sum(i in I) x[i][i];\nsubject to {\n%s}\n" % body
    r = Reporter()
    model = P.parse_model(text, "long.mod", r)
    check_names(model, r)  # the static rules once walked the whole block again for every `forall` (seconds here)
    assert len(model.items[-1].stmts) == 600 and not r.diagnostics
    assert _outcome(text, True) == _outcome(text, False)
