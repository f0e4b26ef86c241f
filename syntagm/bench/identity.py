"""What a bench run *is*: every setting that can change an answer, and the run id made from them.

A result is only comparable with results made under the same settings. :func:`run_settings`
collects them (what the user chose and digests of what syntagm read: the knowledge base,
the grammar reference, the prompt templates); :func:`derive_run_id` hashes them. Every
record carries its ``run_id`` and ``settings``; results are keyed by ``(run_id, model,
strategy, dataset, id, sample)``, so a rerun with other settings never reuses old answers,
and a report covers one run id at a time.

Settings (``None`` where the strategy's own default applies): ``temperature``,
``max_iterations``, ``exemplars``, ``retriever``, ``kb_sha256`` (the knowledge base's
files; ``null`` without retrieval), ``grammar_mode`` and ``grammar_reference_sha256`` (the
text the prompts embed), ``prompts_sha256`` and ``prompt_versions`` (the templates),
``solver``, ``time_limit_s``, ``seed``, ``json_mode``, ``max_tokens``, ``compile_timeout_s``,
``syntagm`` (the version), ``constrained_decoding`` (the mode asked for: a grammar may shape
the replies; in the run id only when it is not ``None`` or ``off``, so earlier ids stay), and the optional strategy settings :data:`STRATEGY_SETTINGS` (the
ablations ``use_judge``, ``use_fixits``, ``diagnostics``; ``refine_tree``'s ``ucb_c``;
``reflexion``'s ``memory_size``; ``staged``'s ``stage_retries``; the retriever's ``embedding_model``), which enter the run id only
when given, so the ids of runs made before they existed do not change. The model and the strategy are part of each record's key instead (one run may
sweep several), and so is the sample index. The scoring tolerance is *not* a setting of the
run: results are re-scored at any tolerance without asking the LLM again.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import SyntagmError

#: Settings that change what the LLM is asked or how an answer is checked, in record order.
SETTING_NAMES = ("temperature", "max_iterations", "exemplars", "retriever", "kb_sha256", "grammar_mode",
                 "grammar_reference_sha256", "prompts_sha256", "prompt_versions", "solver", "time_limit_s",
                 "seed", "json_mode", "max_tokens", "compile_timeout_s", "syntagm")
from ..strategies.base import STRATEGY_SETTINGS  # optional: in the run id only when not ``None``


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def folder_digest(root: Path | None) -> str | None:
    """SHA-256 over every file under ``root`` (relative path and bytes, sorted); ``None`` without a folder."""
    if root is None or not Path(root).is_dir():
        return None
    h = hashlib.sha256()
    for p in sorted(Path(root).rglob("*")):
        if p.is_file() and not p.name.startswith("."):
            h.update(str(p.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
            h.update(_sha(p.read_bytes()).encode("ascii") + b"\n")
    return h.hexdigest()


def prompts_digest() -> tuple[str, dict[str, int]]:
    """``(SHA-256 over the pinned prompt templates' texts, {name: version})``."""
    from ..templates import PROMPT_VERSIONS, load

    h = hashlib.sha256()
    for name in sorted(PROMPT_VERSIONS):
        t = load(name)
        h.update(json.dumps([t.id, list(t.sections), t.text], ensure_ascii=True).encode("ascii") + b"\n")
    return h.hexdigest(), dict(sorted(PROMPT_VERSIONS.items()))


def run_settings(*, temperature: float | None, max_iterations: int | None, exemplars: int | None,
                 retriever: str, kb_path: str | None, grammar_mode: str | None, solver: str | None,
                 time_limit_s: float | None, seed: int | None, json_mode: str | None,
                 max_tokens: int | None, compile_timeout_s: float | None = None,
                 constrained_decoding: str | None = None, **strategy: Any) -> dict[str, Any]:
    """The settings dict of a run (keys :data:`SETTING_NAMES` and :data:`STRATEGY_SETTINGS`), digests
    computed here. ``strategy`` holds the optional settings (unknown names are a bug: :class:`TypeError`)."""
    unknown = set(strategy) - set(STRATEGY_SETTINGS)
    if unknown:
        raise TypeError(f"unknown run settings: {sorted(unknown)}")
    from ..rag import default_kb_path
    from ..templates import grammar_reference

    kb = None
    if retriever != "none":
        kb = folder_digest(Path(kb_path) if kb_path else default_kb_path())
    reference, _origin = grammar_reference(grammar_mode or "auto")
    prompts, versions = prompts_digest()
    return {"temperature": temperature, "max_iterations": max_iterations, "exemplars": exemplars,
            "retriever": retriever, "kb_sha256": kb, "grammar_mode": grammar_mode,
            "grammar_reference_sha256": _sha(reference.encode("utf-8")), "prompts_sha256": prompts,
            "prompt_versions": versions, "solver": solver, "time_limit_s": time_limit_s, "seed": seed,
            "json_mode": json_mode, "max_tokens": max_tokens, "compile_timeout_s": compile_timeout_s,
            "syntagm": __version__, "constrained_decoding": constrained_decoding,
            **{k: strategy.get(k) for k in STRATEGY_SETTINGS}}


def derive_run_id(settings: dict[str, Any]) -> str:
    """``r-`` and 12 hex digits of the SHA-256 of the canonical settings JSON."""
    chosen = {k: settings.get(k) for k in SETTING_NAMES}
    chosen.update({k: settings[k] for k in STRATEGY_SETTINGS if settings.get(k) is not None})
    if settings.get("constrained_decoding") not in (None, "off"):
        chosen["constrained_decoding"] = settings["constrained_decoding"]
    canon = json.dumps(chosen, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return "r-" + _sha(canon.encode("ascii"))[:12]


def setting_differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """``["name: A → B", ...]`` for every setting that differs between ``a`` (recorded) and ``b``."""
    out = []
    for k in SETTING_NAMES + STRATEGY_SETTINGS + ("constrained_decoding",):
        if a.get(k) != b.get(k) and not (k == "constrained_decoding" and {a.get(k), b.get(k)} <= {None, "off"}):
            out.append(f"{k}: {_show(a.get(k))} → {_show(b.get(k))}")
    return out


def _show(v: Any) -> str:
    s = json.dumps(v, sort_keys=True)
    return s if len(s) <= 24 else s[:11] + "…" + s[-8:]


def check_run_id(run_id: str, settings: dict[str, Any], recorded: list[dict[str, Any]]) -> None:
    """Refuse to add results under ``run_id`` when records already under it were made with
    other settings; the message names each differing setting."""
    for rec in recorded:
        if rec.get("run_id") != run_id:
            continue
        diff = setting_differences(rec.get("settings") or {}, settings)
        if diff:
            raise SyntagmError(f"run id {run_id!r} already holds results made with other settings ("
                               + "; ".join(diff) + "): give another --run-id, or drop --run-id to get one "
                               "derived from the settings")
        return
