"""The exceptions syntagm raises for things a user can fix.

Every one carries a message meant to be printed as is: the CLI prints
``error: <message>`` and exits, never a traceback.
"""
from __future__ import annotations


class SyntagmError(Exception):
    """Base class: a problem the user can act on; ``str(err)`` is the whole message."""


class ConfigError(SyntagmError):
    """No endpoint, a bad config file, an unreadable price table, a bad flag value."""


class LLMError(SyntagmError):
    """The endpoint failed after every retry (HTTP error, timeout, refused connection).

    ``kind`` is a short tag: ``"timeout"``, ``"rate_limit"``, ``"server_error"``,
    ``"connection"``, ``"bad_request"``, ``"auth"``, ``"not_found"``, ``"bad_response"`` (a 200 answer
    that is not a chat completion) or ``"other"``. The message never holds the API key
    (see :mod:`syntagm.redact`).
    ``attempts`` is the number of HTTP requests made (1 + retries);
    ``latency_s`` the seconds spent on them, backoff included; ``cost_usd`` what the failed call
    cost: 0 dollars for a priced model, ``None`` (unpriced) for a model without a price.
    """

    def __init__(self, message: str, kind: str = "other", attempts: int = 1, latency_s: float = 0.0,
                 cost_usd: float | None = 0.0):
        from .redact import scrub

        super().__init__(scrub(message))
        self.kind = kind
        self.cost_usd = cost_usd
        self.attempts = attempts
        self.latency_s = latency_s


class ContractError(SyntagmError):
    """A reply broke the output contract (no JSON object, missing or mistyped keys).

    ``detail`` says what was expected and what was found; ``excerpt`` is the
    start of the offending reply (at most 300 characters).
    """

    def __init__(self, detail: str, excerpt: str = ""):
        self.detail = detail
        self.excerpt = excerpt
        msg = "the reply broke the output contract: " + detail
        if excerpt:
            msg += "\n  reply began: " + excerpt
        super().__init__(msg)


class ReplayError(SyntagmError):
    """A replayed run diverged from its transcript (different request, or more calls than recorded)."""
