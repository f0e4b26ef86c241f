"""Keeping secrets out of everything syntagm records, prints or writes.

An endpoint's error body, or an exception raised on the way, may echo the API key
or the request's headers. :func:`scrub` removes, from any text:

- every secret registered with :func:`register_secret` (the API keys of the clients made
  in this process), wherever it appears;
- the value of an ``Authorization``, ``Proxy-Authorization``, ``api-key``, ``x-api-key``
  or ``OpenAI-Api-Key`` header written as ``name: value`` or ``"name": "value"``;
- ``Bearer <token>`` and ``Basic <token>`` credentials;
- the password of a URL's ``user:password@`` part.

Each is replaced by ``[REDACTED]``. Every error text that reaches a file, a transcript,
telemetry or the terminal goes through :func:`scrub` first.

Everything else syntagm records (replies, prompts, models, results, caches: whatever
:mod:`syntagm.safeio` writes) goes through :func:`redact_secrets`, which removes the registered
secrets only, wherever they appear: an endpoint that echoes the key or a header the client sent
inside a reply must not get it into ``transcript.jsonl`` or ``attempts.json`` (issue 33). The
header and ``Bearer`` patterns are not applied there: they would rewrite ordinary text ("basic
solution", a model parameter called ``api_key``). :func:`register_client_headers` registers the
values of the headers an ``openai`` client sends (its key, organisation, project, custom
headers; not the library's own ``Accept``, ``User-Agent``, ``X-Stainless-*``).
"""
from __future__ import annotations

import re
import threading

REDACTED = "[REDACTED]"
_SECRETS: set[str] = set()
_LOCK = threading.Lock()
#: Keys shorter than this are not scrubbed by value (``"x"`` would redact every x).
MIN_SECRET = 6

_HEADER = re.compile(r"""(?ix)
    (["']?(?:proxy-)?authorization|["']?(?:x-|openai-)?api[-_]key)(["']?\s*[:=]\s*["']?)
    ((?:(?:bearer|basic|token)\s+)?[^"'\s,;}]+)""")
_SCHEME = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+")
_URL_PASSWORD = re.compile(r"(?i)([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^/\s@]+@")


def register_secret(secret: str | None) -> None:
    """Remember ``secret`` (an API key) so :func:`scrub` removes it from every text."""
    if secret and len(secret) >= MIN_SECRET:
        with _LOCK:
            _SECRETS.add(secret)


#: Headers the ``openai`` library sends on its own (no secret): their values are not registered.
_PUBLIC_HEADERS = frozenset({"accept", "content-type", "user-agent", "x-stainless-async", "x-stainless-lang",
                             "x-stainless-package-version", "x-stainless-os", "x-stainless-arch",
                             "x-stainless-runtime", "x-stainless-runtime-version", "x-stainless-retry-count",
                             "x-stainless-read-timeout"})


def register_client_headers(headers: object) -> None:
    """Register the value of every header in ``headers`` (a mapping of name to value, such as an
    ``openai.OpenAI`` client's ``auth_headers`` or ``default_headers``) that is not one of the
    library's public ones; a ``Bearer``/``Basic`` value registers its token too. Values that are
    not strings (the library's ``Omit`` marker) are skipped."""
    for name, value in dict(headers or {}).items():  # type: ignore[call-overload]
        if not isinstance(value, str) or str(name).lower() in _PUBLIC_HEADERS:
            continue
        register_secret(value)
        scheme, _, token = value.partition(" ")
        if scheme.lower() in ("bearer", "basic", "token") and token:
            register_secret(token.strip())


def redact_secrets(text: str) -> str:
    """``text`` with every registered secret replaced by ``[REDACTED]`` (longest first), nothing else
    changed; ``text`` itself when it holds none."""
    with _LOCK:
        secrets = sorted(_SECRETS, key=len, reverse=True)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def redact_bytes(data: bytes) -> bytes:
    """:func:`redact_secrets` for bytes (each secret as UTF-8)."""
    with _LOCK:
        secrets = sorted(_SECRETS, key=len, reverse=True)
    for secret in secrets:
        raw = secret.encode("utf-8", "surrogatepass")
        if raw in data:
            data = data.replace(raw, REDACTED.encode())
    return data


def redact_value(obj: object) -> object:
    """A copy of ``obj`` (JSON-like: dicts, lists, tuples, strings, numbers) with
    :func:`redact_secrets` applied to every string, dictionary keys included (``obj`` itself
    when no secret is registered)."""
    if not _SECRETS:
        return obj
    if isinstance(obj, str):
        return redact_secrets(obj)
    if isinstance(obj, dict):
        return {(redact_secrets(k) if isinstance(k, str) else k): redact_value(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [redact_value(v) for v in obj]
    return obj


def scrub(text: object) -> str:
    """``str(text)`` with every registered secret, credential header value, bearer token and
    URL password replaced by ``[REDACTED]``."""
    s = str(text)
    with _LOCK:
        secrets = sorted(_SECRETS, key=len, reverse=True)
    for secret in secrets:
        if secret in s:
            s = s.replace(secret, REDACTED)
    s = _HEADER.sub(lambda m: m.group(1) + m.group(2) + REDACTED, s)
    s = _SCHEME.sub(lambda m: m.group(1) + " " + REDACTED, s)
    s = _URL_PASSWORD.sub(lambda m: m.group(1) + REDACTED + "@", s)
    return s
