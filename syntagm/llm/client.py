"""One chat client for any OpenAI-compatible endpoint, through the ``openai`` package.

:class:`OpenAIChatClient` sends a list of chat messages and returns a
:class:`ChatReply` (the reply text and its :class:`CallTelemetry`). It owns
retries (so they can be counted): rate limits (429), server errors (5xx),
timeouts and refused connections are retried with exponential backoff;
other errors fail at once with a message that says what to check. The API
key is never logged, printed or recorded.

JSON mode: with ``json_mode="auto"`` the request asks for
``response_format={"type": "json_object"}``; if the endpoint rejects that
parameter (HTTP 400/422 naming it), the client drops it for the rest of the
run and relies on :mod:`syntagm.llm.parse`. ``"on"`` always sends it,
``"off"`` never does.

Constrained decoding (``constrained_decoding``: ``auto``/``off``/``llama.cpp``/``vllm``): a request
made from a model-contract template carries the GBNF grammar of the ``{"model", "data"}`` reply
(:mod:`syntagm.decoding`) where the endpoint takes one (:mod:`syntagm.llm.constrain`), instead of
``response_format`` (the grammar already makes the reply JSON); an endpoint that refuses it
(HTTP 400 naming it) is asked without it from then on.

Any endpoint: the optional parameters (``temperature``, ``seed``, the token cap) are sent only
when set, and one an endpoint rejects by name (HTTP 400/422) is dropped for the rest of the run
(OpenAI's reasoning models accept only the default temperature). The token cap goes out as
``max_tokens``; an endpoint that asks for ``max_completion_tokens`` instead (OpenAI's reasoning
models) gets that for the rest of the run, and the other way round. Each retry and each dropped
parameter is reported through ``notify`` (one line: the reason and the wait).
"""
from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import ConfigError, LLMError
from ..redact import register_client_headers, register_secret, scrub
from ..safeio import plain_text
from ..prices import PriceTable, load_prices
from ..tokens import count_prompt_tokens, count_text_tokens
from .constrain import Constrainer, probe_openai
from .telemetry import CallTelemetry

Message = dict[str, str]


@dataclass
class LLMConfig:
    """How to reach the endpoint.

    ``base_url``: e.g. ``http://127.0.0.1:8000/v1`` (``None``: OpenAI's own);
    ``api_key``: secret, never shown (``repr`` masks it); ``model``: the model
    name the endpoint knows; ``timeout_s``: seconds per HTTP request;
    ``max_retries``: extra requests after a retryable failure; ``backoff_s``:
    first backoff in seconds, doubled each retry (with up to 25 % jitter) and
    capped at ``backoff_max_s``; ``temperature``: sampling temperature
    (``None``, the default: not sent, so the endpoint's own default applies); ``max_tokens``: completion cap; ``seed``: sent as the
    request's ``seed`` (endpoints that take it sample reproducibly; ``None``: not sent).
    """

    model: str
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 120.0
    max_retries: int = 4
    backoff_s: float = 1.0
    backoff_max_s: float = 30.0
    json_mode: str = "auto"
    temperature: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    constrained_decoding: str = "auto"

    def describe(self) -> dict[str, Any]:
        """A loggable summary: everything but the key (only whether one is set)."""
        return {"model": self.model, "base_url": self.base_url or "https://api.openai.com/v1",
                "api_key": "set" if self.api_key else "not set", "timeout_s": self.timeout_s,
                "max_retries": self.max_retries, "json_mode": self.json_mode,
                "temperature": self.temperature, "constrained_decoding": self.constrained_decoding}


@dataclass
class ChatReply:
    """A reply: ``content`` (text), ``finish_reason``, ``telemetry``; ``request`` as sent
    (model, messages, json_mode, temperature) and ``usage`` as received (``None`` if absent)."""

    content: str
    telemetry: CallTelemetry
    finish_reason: str | None = None
    request: dict[str, Any] = field(default_factory=dict)
    usage: dict[str, Any] | None = None


class ChatClient(Protocol):
    """What the loop needs: a model name and one ``chat`` call."""

    model: str

    def chat(self, messages: list[Message], *, purpose: str, json_mode: bool = True,
             iteration: int = 0, prompt_version: str = "") -> ChatReply: ...


#: More tokens than any model's context window holds in one call: a usage count above it is malformed.
MAX_TOKENS_PER_CALL = 100_000_000


def usage_counts(usage: dict[str, Any] | None) -> tuple[int, int, int] | None:
    """``(prompt, completion, cached)`` tokens from a ``usage`` dict, or ``None`` when absent.

    Cached tokens come from ``prompt_tokens_details.cached_tokens`` (OpenAI,
    vLLM) or ``prompt_cache_hit_tokens`` (DeepSeek); 0 when neither is given.
    """
    if not usage or usage.get("prompt_tokens") is None:
        return None
    details = usage.get("prompt_tokens_details") or {}
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    if cached is None:
        cached = usage.get("prompt_cache_hit_tokens") or 0
    counts = []
    for v in (usage.get("prompt_tokens"), usage.get("completion_tokens"), cached):
        v = 0 if v is None else v
        # a malformed usage block counts as none (the call is then counted here, labelled estimated):
        # a negative or absurd count would otherwise lower a run's cost under its --max-cost-usd cap
        # or print a cost of $1e23
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or not 0 <= v <= MAX_TOKENS_PER_CALL \
                or v != int(v):
            return None
        counts.append(int(v))
    if counts[2] > counts[0]:  # cached tokens are part of the prompt
        return None
    return counts[0], counts[1], counts[2]


class BadResponse(Exception):
    """The endpoint answered 200 with a body that is not a chat completion (not JSON, nested
    too deeply, no ``choices``); retried like a server error."""


def _reply_parts(raw: Any) -> tuple[str, str | None, dict[str, Any] | None]:
    """``(content, finish_reason, usage)`` of a raw ``openai`` response.

    The ``openai`` parser fails on a body that is not UTF-8; such a body is decoded here with
    ``surrogateescape``, so each invalid byte becomes a lone surrogate in the content, which
    the loop reports to the LLM as a broken contract (:func:`syntagm.llm.parse.text_defect`).
    """
    try:
        resp = raw.parse()
        if not isinstance(resp.choices, list) or not resp.choices:
            raise ValueError("no choices")  # read again below, to say what the body is
        choice = resp.choices[0]
        content = (choice.message.content if choice and choice.message else None) or ""
        # (warnings=False: a usage field of the wrong type, "many" tokens, is judged below, not printed by pydantic)
        usage = resp.usage.model_dump(warnings=False) if getattr(resp, "usage", None) is not None else None
        return content, (choice.finish_reason if choice else None), usage
    except (UnicodeDecodeError, ValueError, RecursionError, AttributeError, TypeError):
        pass
    body = raw.content
    try:
        obj = json.loads(body.decode("utf-8", "surrogateescape"))
    except RecursionError:
        raise BadResponse("the endpoint's answer nests too deeply to read") from None
    except ValueError:
        if _looks_like_html(body):
            raise BadResponse("the endpoint's answer is an HTML page, not a chat completion (a proxy or web "
                              "page answered: is the base URL right, and does it end in /v1?)") from None
        raise BadResponse("the endpoint's answer is not JSON (is the base URL right, and does it end in /v1?)") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("choices"), list) or not obj["choices"]:
        keys = ", ".join(sorted(map(str, obj))[:5]) if isinstance(obj, dict) else type(obj).__name__
        raise BadResponse(f"the endpoint's answer is JSON without \"choices\" ({keys}): not a chat completion "
                          "(is the base URL right, and does it end in /v1?)")
    try:
        choice = obj["choices"][0] or {}
        content = (choice.get("message") or {}).get("content") or ""
        usage = obj.get("usage") if isinstance(obj.get("usage"), dict) else None
        if not isinstance(content, str):
            raise TypeError
        return content, choice.get("finish_reason"), usage
    except (AttributeError, TypeError, IndexError):
        raise BadResponse("the endpoint's answer is not a chat completion") from None


def _rejects_response_format(err: Exception) -> bool:
    text = str(err).lower()
    return "response_format" in text or "json_object" in text or "json mode" in text


#: Optional request parameters the client may drop when an endpoint rejects them.
OPTIONAL_PARAMS = ("temperature", "seed", "max_tokens", "max_completion_tokens")
_TOKEN_PARAMS = ("max_tokens", "max_completion_tokens")


def rejected_param(err: Exception, sent: set[str]) -> str | None:
    """The optional parameter (of ``sent``) a 400/422 error names, or ``None``.

    Looks at the error body's ``param`` field first (OpenAI sets it), then for the
    quoted or bare name in the message. ``max_tokens`` is matched as a whole word, so
    a message naming ``max_completion_tokens`` does not count as naming it.
    """
    named = getattr(err, "param", None)
    if isinstance(named, str) and named in sent:
        return named
    text = (getattr(err, "message", None) or str(err)).lower()
    if "max_tokens" in sent and "max_completion_tokens" in text:
        return "max_tokens"  # "use max_completion_tokens instead"
    for name in OPTIONAL_PARAMS:
        if name in sent and re.search(r"(?<![a-z_])" + name + r"(?![a-z_])", text):
            return name
    return None


def _looks_like_html(body: bytes) -> bool:
    head = body[:512].lstrip().lower()
    return head.startswith(b"<!doctype html") or head.startswith(b"<html") or b"<head" in head or b"<body" in head


class OpenAIChatClient:
    """The real client. ``sleep`` is injectable for tests (default :func:`time.sleep`); ``notify`` is
    called with one line of text per retry (reason and wait) and per dropped parameter (``None``:
    silent). ``dropped`` lists the parameters dropped so far, ``token_param`` the name the token
    cap goes out under."""

    def __init__(self, config: LLMConfig, prices: PriceTable | None = None, sleep=time.sleep, notify=None):
        try:
            import openai
        except ImportError:  # pragma: no cover - declared dependency
            raise ConfigError("the `openai` package is needed to reach an endpoint: pip install 'pyopl[llm]'") from None
        self._openai = openai
        self.config = config
        self.model = config.model
        self.prices = prices or load_prices()
        self._sleep = sleep
        self._json_supported = config.json_mode != "off"
        self.notify = notify
        self.dropped: list[str] = []
        self.token_param = "max_tokens"
        register_secret(config.api_key)  # scrubbed from every error text from now on
        self._client = openai.OpenAI(api_key=config.api_key or "not-needed", base_url=config.base_url,
                                     timeout=config.timeout_s, max_retries=0)
        # every header value the client sends (key, organisation, project, custom headers) is kept out
        # of every recorded file and error text, wherever an endpoint echoes it (issue 33)
        if config.api_key:  # (without one the client sends the placeholder `not-needed`)
            register_client_headers(getattr(self._client, "auth_headers", None))
        register_client_headers(getattr(self._client, "default_headers", None))
        self.constrainer = Constrainer(config.constrained_decoding,
                                       lambda: probe_openai(self._client, config.base_url), self._say)

    # -- one call -----------------------------------------------------------------
    def chat(self, messages: list[Message], *, purpose: str, json_mode: bool = True,
             iteration: int = 0, prompt_version: str = "") -> ChatReply:
        """Send ``messages``; return the reply with telemetry. Raises :class:`LLMError` after the last retry."""
        cfg = self.config
        request = {"model": cfg.model, "messages": messages, "json_mode": bool(json_mode),
                   "temperature": cfg.temperature}
        start = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            kwargs = self._request(messages)
            grammar = self.constrainer.extra_body(prompt_version)
            if grammar:  # the grammar makes the reply JSON: no response_format beside it
                kwargs["extra_body"] = grammar
            send_json = json_mode and self._json_supported and not grammar
            if send_json:
                kwargs["response_format"] = {"type": "json_object"}
            try:
                raw = self._client.chat.completions.with_raw_response.create(**kwargs)
                content, finish_reason, usage = _reply_parts(raw)
                break
            except Exception as err:  # classified below; anything unknown is re-raised
                kind, retryable, wait_hint = self._classify(err)
                if kind == "bad_request" and send_json and cfg.json_mode == "auto" and _rejects_response_format(err):
                    self._json_supported = False  # endpoint has no JSON mode: parse replies robustly
                    self._say("the endpoint rejects response_format (JSON mode); asking without it from now on")
                    continue
                if kind == "bad_request" and self._drop_rejected(err, set(kwargs) & set(OPTIONAL_PARAMS)):
                    continue
                if kind == "bad_request" and grammar and self.constrainer.refused(
                        getattr(err, "message", None) or str(err)):
                    continue
                if not retryable or attempt > cfg.max_retries:
                    cost = 0.0 if self.prices.lookup(cfg.model) is not None else None
                    raise LLMError(self._message(kind, err, attempt), kind, attempt,
                                   round(time.monotonic() - start, 6), cost_usd=cost) from None
                wait = self._backoff(attempt, wait_hint)
                self._say(f"retry {attempt}/{cfg.max_retries} after {self._reason(kind, err)}; "
                          f"waiting {wait:.1f} s")
                self._sleep(wait)
        latency = time.monotonic() - start
        request["temperature"] = kwargs.get("temperature")  # as sent: None when unset or dropped
        counts = usage_counts(usage)
        estimated = counts is None
        source = "endpoint"
        if estimated:  # counted here: exactly with the model's tokenizer where available, else estimated
            prompt_n, source = count_prompt_tokens(messages, cfg.model)
            counts = (prompt_n, count_text_tokens(content, cfg.model)[0], 0)
        prompt, completion, cached = counts
        tel = CallTelemetry(purpose=purpose, model=cfg.model, prompt_tokens=prompt, completion_tokens=completion,
                            cached_tokens=cached, usage_estimated=estimated, latency_s=round(latency, 6),
                            retries=attempt - 1, cost_usd=self.prices.cost(cfg.model, prompt, completion, cached),
                            prompt_version=prompt_version, iteration=iteration, usage_source=source)
        return ChatReply(content, tel, finish_reason, request, usage)

    def _request(self, messages: list[Message]) -> dict[str, Any]:
        """The keyword arguments of one request: the optional parameters only when set and not dropped;
        lone surrogates in the messages' text are sent as U+FFFD."""
        cfg = self.config
        # a lone surrogate (from a reply's `\ud800` escape, or an invalid byte read with surrogateescape)
        # cannot be encoded as UTF-8: the `openai` library would fail to send the request (issue 33)
        sendable = [dict(m, content=plain_text(m["content"])) if isinstance(m.get("content"), str) else m
                    for m in messages]
        kwargs: dict[str, Any] = {"model": cfg.model, "messages": sendable}
        if cfg.temperature is not None and "temperature" not in self.dropped:
            kwargs["temperature"] = cfg.temperature
        if cfg.max_tokens and self.token_param not in self.dropped:
            kwargs[self.token_param] = cfg.max_tokens
        if cfg.seed is not None and "seed" not in self.dropped:
            kwargs["seed"] = cfg.seed
        return kwargs

    def _drop_rejected(self, err: Exception, sent: set[str]) -> bool:
        """Handle a 400/422 that names an optional parameter: switch the token cap's name once,
        else drop the parameter for the rest of the run. ``False`` when none is named."""
        name = rejected_param(err, sent)
        if name is None:
            return False
        if name in _TOKEN_PARAMS:
            other = _TOKEN_PARAMS[1 - _TOKEN_PARAMS.index(name)]
            if other not in self.dropped:
                self.dropped.append(name)
                self.token_param = other
                self._say(f"the endpoint rejects {name}; sending the token cap as {other} from now on")
                return True
        self.dropped.append(name)
        self._say(f"the endpoint rejects {name}; sending requests without it from now on")
        return True

    def _say(self, line: str) -> None:
        if self.notify is not None:
            self.notify(scrub(line))

    def _reason(self, kind: str, err: Exception) -> str:
        """A few words on why a request is retried, for the progress line."""
        status = getattr(err, "status_code", None)
        words = {"rate_limit": "a rate limit (HTTP 429)", "server_error": f"a server error (HTTP {status})",
                 "timeout": "a timeout", "connection": "a refused or dropped connection",
                 "bad_response": "an answer that is not a chat completion"}
        return words.get(kind, kind)

    # -- error handling -------------------------------------------------------------
    def _classify(self, err: Exception) -> tuple[str, bool, float | None]:
        """``(kind, retryable, server's retry-after seconds or None)`` for an exception from ``openai``."""
        o = self._openai
        if isinstance(err, BadResponse):
            return "bad_response", True, None
        if isinstance(err, o.APITimeoutError):
            return "timeout", True, None
        if isinstance(err, o.APIConnectionError):
            return "connection", True, None
        if isinstance(err, o.APIStatusError):
            status = err.status_code
            hint = None
            try:
                ra = err.response.headers.get("retry-after")
                hint = float(ra) if ra is not None else None
            except (TypeError, ValueError, AttributeError):
                hint = None
            if status == 429:
                return "rate_limit", True, hint
            if status >= 500:
                return "server_error", True, hint
            if status in (401, 403):
                return "auth", False, None
            if status == 404:
                return "not_found", False, None
            return "bad_request", False, None
        raise err

    def _backoff(self, attempt: int, hint: float | None) -> float:
        """Seconds to wait before request ``attempt + 1``: the server's hint, else exponential with jitter."""
        cfg = self.config
        if hint is not None and hint >= 0:
            return min(hint, cfg.backoff_max_s)
        base = cfg.backoff_s * (2 ** (attempt - 1))
        return min(base * (1 + 0.25 * random.random()), cfg.backoff_max_s)

    def _message(self, kind: str, err: Exception, attempts: int) -> str:
        """The error text for the user and the records, with every secret scrubbed (:mod:`syntagm.redact`)."""
        return scrub(self._describe(kind, err, attempts))

    def _describe(self, kind: str, err: Exception, attempts: int) -> str:
        cfg = self.config
        where = cfg.base_url or "https://api.openai.com/v1"
        tries = f" after {attempts} request{'s' if attempts != 1 else ''}"
        detail = getattr(err, "message", None) or str(err)
        detail = " ".join(scrub(detail).split())[:300]
        if kind == "timeout":
            return f"the endpoint {where} did not answer within {cfg.timeout_s:g} s{tries} (raise --timeout?)"
        if kind == "connection":
            return f"cannot connect to {where}{tries}: is the server running? ({detail})"
        if kind == "rate_limit":
            return f"the endpoint {where} kept rate-limiting (HTTP 429){tries}: {detail}"
        if kind == "server_error":
            return f"the endpoint {where} kept failing with a server error{tries}: {detail}"
        if kind == "auth":
            return (f"the endpoint {where} refused the API key (HTTP {getattr(err, 'status_code', '?')}): "
                    "check OPENAI_API_KEY (the key itself is never printed)")
        if kind == "not_found":
            return f"the endpoint {where} answered 404: is the model name {cfg.model!r} right, and does the base URL end in /v1? ({detail})"
        if kind == "bad_response":
            return f"the endpoint {where} kept sending answers that are not chat completions{tries}: {detail}"
        return f"the endpoint {where} rejected the request (HTTP {getattr(err, 'status_code', '?')}): {detail}"
