"""Robust reading of a JSON object out of an LLM reply.

Replies are meant to be one JSON object, but models wrap them in code fences,
put prose before or after, leave trailing commas, or write raw newlines inside
strings. :func:`extract_json_object` copes with all of these and raises
:class:`~syntagm.errors.ContractError` with a clear diagnostic otherwise.
:func:`require_keys` then checks the contract's keys and types.

Nothing here evaluates the reply: it is only ever parsed with :mod:`json`.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

from ..errors import ContractError

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
EXCERPT_CHARS = 300


def excerpt(text: str, n: int = EXCERPT_CHARS) -> str:
    """The first ``n`` characters of ``text`` on one line, for error messages (lone surrogates
    shown as U+FFFD, so the excerpt can always be written as UTF-8)."""
    flat = " ".join(text[: 4 * n].split())
    flat = flat if len(flat) <= n else flat[: n - 1] + "…"
    return flat.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def text_defect(text: str) -> str | None:
    """Why ``text`` is not valid Unicode text, or ``None``.

    The client decodes a reply that is not UTF-8 with ``surrogateescape`` (each bad byte
    becomes U+DC80..U+DCFF); a JSON ``\\ud800`` escape gives a lone surrogate directly.
    """
    m = _SURROGATE.search(text)  # (a regular expression: a walk in Python took 2 s on a 2.4 MB reply)
    if m is None:
        return None
    i, o = m.start(), ord(m.group())
    if 0xDC80 <= o <= 0xDCFF:
        return f"the reply is not valid UTF-8 (byte 0x{o - 0xDC00:02X} at character {i + 1})"
    return (f"the reply holds a lone surrogate U+{o:04X} at character {i + 1}, which is not valid "
            "Unicode text")


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _balanced_objects(text: str) -> list[str]:
    """Every top-level ``{...}`` substring, braces matched outside JSON strings."""
    found: list[str] = []
    depth = 0
    start = -1
    in_str = False
    esc = False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            if depth > 0:
                in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                found.append(text[start: i + 1])
    return found


def strip_trailing_commas(text: str) -> str:
    """Remove commas directly before ``}`` or ``]`` (outside strings)."""
    out: list[str] = []
    in_str = False
    esc = False
    i = 0
    while i < len(text):
        ch = text[i]
        if in_str:
            out.append(ch)
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            out.append(ch)
        elif ch == ",":
            j = i + 1
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            if j < len(text) and text[j] in "}]":
                i += 1
                continue
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


class _TooDeep(Exception):
    pass


def _loads(candidate: str) -> Any:
    try:
        try:
            return json.loads(candidate, strict=False)
        except json.JSONDecodeError:
            return json.loads(strip_trailing_commas(candidate), strict=False)
    except RecursionError:
        raise _TooDeep from None


def _candidates(text: str) -> Iterator[str]:
    """The texts that may be the JSON object, in order: the whole reply, each fenced block, each
    balanced ``{...}``; each kind found only when the ones before did not parse (walking a reply of
    megabytes for its braces took most of a second when the whole reply was the object)."""
    yield text.strip()
    for _lang, body in _FENCE.findall(text):
        yield body.strip()
    yield from _balanced_objects(text)


def extract_json_object(text: str) -> dict[str, Any]:
    """The JSON object in ``text``: the whole reply, a fenced block, or the first parsable ``{...}``.

    Tolerates code fences, leading/trailing prose, trailing commas and raw
    control characters inside strings. Raises :class:`ContractError` when no
    object can be read.
    """
    if text is None or not text.strip():
        raise ContractError("expected a JSON object, got an empty reply")
    defect = text_defect(text)
    if defect:
        raise ContractError(defect + "; write the reply again as plain UTF-8 JSON", excerpt(text))
    text = _THINK.sub("", text)  # reasoning models' scratchpad may hold braces
    last_error: json.JSONDecodeError | None = None
    too_deep = False
    for cand in _candidates(text):
        try:
            value = _loads(cand)
        except json.JSONDecodeError as e:
            last_error = e
            continue
        except _TooDeep:
            too_deep = True
            continue
        if isinstance(value, dict):
            return value
    code_only = _code_blocks_only(text)
    if code_only:
        raise ContractError(code_only, excerpt(text))
    if too_deep:
        raise ContractError("the JSON nests too deeply to read: the contract is one flat object of strings",
                            excerpt(text))
    if last_error is not None and "{" in text:
        raise ContractError(f"expected a JSON object; the closest candidate is not valid JSON "
                            f"({last_error.msg} at line {last_error.lineno}, column {last_error.colno})",
                            excerpt(text))
    raise ContractError("expected a JSON object, found no '{' in the reply", excerpt(text))


#: fence languages that hold model or data text, not the JSON object
_CODE_LANGUAGES = {"opl", "mod", "dat", "ampl", "cplex", "ilog", "oplscript"}


def _code_blocks_only(text: str) -> str:
    """When the reply is only fenced code blocks that are not JSON (an ```opl block), the message
    that says so and what to do; else ''.  Without it the JSON parser's complaint points into the
    model's own braces (``subject to {``)."""
    blocks = _FENCE.findall(text)
    if not blocks:
        return ""
    outside = _FENCE.sub("", text).strip()
    if "{" in outside:
        return ""
    langs = [lang.lower() for lang, _ in blocks]
    if any(lang == "json" for lang in langs):
        return ""
    looks_like_opl = any(lang in _CODE_LANGUAGES or re.search(r"\b(dvar|subject\s+to|minimize|maximize)\b", body)
                         for lang, body in blocks)
    if not looks_like_opl:
        return ""
    what = ", ".join(sorted({f"```{lang}" if lang else "```" for lang in langs}))
    return (f"the reply holds only a code block ({what}), not the JSON object: put the model text in the "
            '"model" string and the data in the "data" string of {"model": ..., "data": ...}')


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """``[(language, body)]`` of every fenced code block in ``text``."""
    return [(lang.lower(), body) for lang, body in _FENCE.findall(text or "")]


_TYPE_NAMES = {str: "a string", bool: "a boolean", list: "a list", dict: "an object"}


def require_keys(obj: dict[str, Any], spec: dict[str, type], text: str = "") -> dict[str, Any]:
    """Check that ``obj`` has every key of ``spec`` with the given type; return ``obj``.

    Raises :class:`ContractError` naming each missing or mistyped key.
    """
    problems = []
    for key, typ in spec.items():
        if key not in obj:
            problems.append(f"missing key \"{key}\" ({_TYPE_NAMES.get(typ, typ.__name__)})")
        elif not isinstance(obj[key], typ) or (typ is not bool and isinstance(obj[key], bool)):
            problems.append(f"\"{key}\" must be {_TYPE_NAMES.get(typ, typ.__name__)}, "
                            f"got {type(obj[key]).__name__}")
    if problems:
        raise ContractError("; ".join(problems) + f" (keys found: {', '.join(sorted(obj)) or 'none'})",
                            excerpt(text))
    return obj
