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
