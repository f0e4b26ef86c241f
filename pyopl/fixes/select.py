"""Which fix-its to apply: only those that make the model better.

A machine-applicable fix is a local edit chosen by one rule; in a broken file it can be wrong
(a rule that reads the error's neighbourhood differently than the author meant). So each
candidate is *tried*: applied to the text, the model and data are checked again, and the fix is
kept only if the error it was attached to is gone and no new error appears. Kept fixes
accumulate; a round that keeps nothing ends the repair (a rule whose fix does not converge,
such as `=<` becoming `==<`, is rejected rather than applied again and again).

The file I/O of ``pyopl check --fix`` lives in :mod:`pyopl.fixes.apply` and the CLI; this module only
decides which edits to apply. Fixes in ``.dat`` files are tried the same way.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..diagnostics.diagnostic import Diagnostic
from .edit import apply_fixes

#: At most this many candidate fixes are tried per round, and this many rounds are made (bounded work).
MAX_TRIES = 24
MAX_ROUNDS = 6


def _signature(d: Diagnostic) -> tuple[str, str]:
    """An error as compared across edits: its code and message (positions move when text is inserted)."""
    return d.code, d.message


def _errors(diags: list[Diagnostic]) -> Counter:
    return Counter(_signature(d) for d in diags if d.is_error)


def _check(model: str, data: str | None) -> list[Diagnostic]:
    import pyopl

    return list(pyopl.check(model, data, source="text"))  # texts, never file names


def _in_data(d: Diagnostic, data_file: str | None) -> bool:
    return data_file is not None and d.file == data_file


def improves(before: Counter, after: Counter, target: Diagnostic) -> bool:
    """True when ``after`` (errors once the fix is applied) has the target's error fewer times and no
    error that ``before`` did not have (as many times or more)."""
    sig = _signature(target)
    if after[sig] >= before[sig]:
        return False
    # Strict: even an error of a later stage that the fix merely uncovers counts as new. Recovery keeps
    # checking the statements around a syntax error, so little is hidden; and `sum;{...}` turning a
    # syntax error into "`sum` is not declared" must be refused.
    return all(after[k] <= before[k] for k in after)


def repair(model: str, data: str | None = None, *, check: Callable[[str, str | None], list[Diagnostic]] | None = None,
           model_file: str = "<model>", data_file: str | None = "<data>") -> tuple[str, str | None, list[Diagnostic]]:
    """Apply, one by one, the machine-applicable fixes that make things better, until none does.

    ``model``/``data``: the texts; ``check(model, data)`` returns the diagnostics (default: ``pyopl.check``
    on the texts, whose files are ``<model>`` and ``<data>``). Returns ``(model, data, applied)`` with
    the diagnostics whose fixes were kept, in order. Never raises for the user's text.
    """
    check = check or _check
    applied: list[Diagnostic] = []
    diags = check(model, data)
    for _round in range(MAX_ROUNDS):
        before = _errors(diags)
        if not before:
            break
        kept = False
        tries = [d for d in diags if d.is_error and d.fix is not None and d.fix.applicability == "machine-applicable"]
        for d in tries[:MAX_TRIES]:
            in_data = _in_data(d, data_file)
            if in_data and data is None:
                continue
            if not in_data and d.file != model_file:
                continue
            text = data if in_data else model
            new, n = apply_fixes(text, [d])
            if not n or new == text:
                continue
            m2, d2 = (model, new) if in_data else (new, data)
            after_diags = check(m2, d2)
            if improves(before, _errors(after_diags), d):
                model, data, diags = m2, d2, after_diags
                applied.append(d)
                kept = True
                break  # positions changed: take the next round's diagnostics
        if not kept:
            break
    return model, data, applied


def safe_fixes(model: str, data: str | None, diagnostics: list[Diagnostic], *, model_file: str = "<model>",
               data_file: str | None = None, check: Callable[[str, str | None], list[Diagnostic]] | None = None
               ) -> list[Diagnostic]:
    """The subset of ``diagnostics`` whose machine-applicable fixes, applied one at a time to the texts as
    they are now, each remove their error without bringing a new one (see :func:`improves`).

    For a caller that applies a set of fixes to the files at once (``pyopl check --fix``): fixes that
    would make things worse are left out. ``check(model, data)`` must return diagnostics whose files are
    ``model_file`` / ``data_file``.
    """
    check = check or _check
    before = _errors(diagnostics)
    out = []
    for d in diagnostics:
        if d.fix is None or d.fix.applicability != "machine-applicable" or not d.is_error:
            continue
        in_data = _in_data(d, data_file)
        if (in_data and data is None) or (not in_data and d.file != model_file):
            continue
        text = data if in_data else model
        new, n = apply_fixes(text, [d])
        if not n:
            continue
        after = check(model, new) if in_data else check(new, data)
        if improves(before, _errors(after), d):
            out.append(d)
    return out


#: ``pyopl check --fix`` re-checks after applying fixes and applies what the re-check finds, at most this many times.
FIX_ROUNDS = 3


def _machine(d: Diagnostic, texts: dict[str, str]) -> bool:
    return d.is_error and d.fix is not None and d.fix.applicability == "machine-applicable" and d.file in texts


def _apply_to(texts: dict[str, str], diags: list[Diagnostic]) -> tuple[dict[str, str], int]:
    """``texts`` (file name -> text) with the fixes of ``diags`` applied, each to its own file; and their count."""
    out, n = dict(texts), 0
    for name in texts:
        mine = [d for d in diags if d.file == name]
        if mine:
            out[name], k = apply_fixes(out[name], mine)
            n += k
    return out, n


def fix_in_rounds(texts: dict[str, str], check: Callable[[dict[str, str]], list[Diagnostic]],
                  rounds: int = FIX_ROUNDS) -> tuple[dict[str, str], int, list[Diagnostic]]:
    """The machine-applicable fixes for the files ``texts`` (file name -> text; a model and its data files),
    applied in up to ``rounds`` rounds: each round re-checks the texts and applies what it finds, so an
    error that a syntax error hid (`x =< capacty` only says `=<` until `<=` is written) is fixed in the
    same run.

    ``check(texts)`` returns the diagnostics of the texts (their ``file`` is a key of ``texts``). A fix is
    kept when, tried alone, it removes its error and brings no new one (:func:`improves`). A fix that
    *uncovers* errors is kept only together with the machine-applicable fixes of those errors, and only
    when the bundle leaves no error the texts did not have. Returns ``(texts, fixes_applied, diagnostics)``
    with the diagnostics of the returned texts. Work: at most ``rounds`` x :data:`MAX_TRIES` x 3 checks.
    """
    diags = list(check(texts))
    total = 0
    for _round in range(rounds):
        before = _errors(diags)
        if not before:
            break
        tries = [d for d in diags if _machine(d, texts)][:MAX_TRIES]
        chosen, bundle = [], None
        for d in tries:
            t2, n = _apply_to(texts, [d])
            if not n or t2 == texts:
                continue
            d2 = list(check(t2))
            if improves(before, _errors(d2), d):
                chosen.append(d)
                continue
            if chosen or bundle is not None:
                continue  # a bundle only where no plain fix is found: its edits are placed after `d`'s
            uncovered = [e for e in d2 if _machine(e, t2) and before[_signature(e)] == 0]
            if not uncovered:
                continue
            t3, k = _apply_to(t2, uncovered)
            d3 = list(check(t3))
            if k and improves(before, _errors(d3), d):
                bundle = (t3, 1 + k, d3)
        if chosen:
            texts, n = _apply_to(texts, chosen)
            total += n
            diags = list(check(texts))
        elif bundle is not None:
            texts, n, diags = bundle
            total += n
        else:
            break
    return texts, total, diags
