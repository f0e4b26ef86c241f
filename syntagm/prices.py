"""The price table: model name → dollars per million prompt, completion and cached tokens.

The table ships as ``syntagm/prices.json`` (with its date and source). A user
file with the same shape (``{"models": {name: {"input", "output",
"cached_input"}}}``; ``date``/``source`` optional) overrides or adds models:
pass it as ``--prices FILE`` or set ``SYNTAGM_PRICES``. Nothing is fetched
from the network.

Model names are matched exactly first, then by the longest table name that
is a prefix of the requested one (``gpt-4o-mini-2024-07-18`` → ``gpt-4o-mini``),
ignoring a provider prefix such as ``openai/``. An unknown model has no price:
its cost is ``None`` and the report says "unpriced" instead of inventing 0.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import ConfigError

PER_TOKENS = 1_000_000


@dataclass(frozen=True)
class Price:
    """Dollars per million tokens: ``input`` (uncached prompt), ``output`` (completion), ``cached_input``."""

    input: float
    output: float
    cached_input: float

    def cost(self, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float:
        """Dollars for one call. ``prompt_tokens`` includes ``cached_tokens`` (as in OpenAI's ``usage``)."""
        cached = min(max(cached_tokens, 0), max(prompt_tokens, 0))
        uncached = max(prompt_tokens, 0) - cached
        return (uncached * self.input + cached * self.cached_input
                + max(completion_tokens, 0) * self.output) / PER_TOKENS


@dataclass
class PriceTable:
    """Prices by model name, with the table's ``date`` and ``source`` note."""

    models: dict[str, Price]
    date: str = ""
    source: str = ""

    def lookup(self, model: str) -> Price | None:
        """The price of ``model`` (exact, then longest prefix, provider prefix ignored), or ``None``."""
        if model in self.models:
            return self.models[model]
        name = model.rsplit("/", 1)[-1]
        if name in self.models:
            return self.models[name]
        best = max((k for k in self.models if name.startswith(k + "-") or name.startswith(k + ":")),
                   key=len, default=None)
        return self.models[best] if best else None

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float | None:
        """Dollars for one call of ``model``, or ``None`` when the model has no price."""
        price = self.lookup(model)
        return None if price is None else price.cost(prompt_tokens, completion_tokens, cached_tokens)


#: the largest price per million tokens a table may give (the dearest list price is some $100s)
MAX_PRICE = 1e6


def valid_price(value: float) -> bool:
    """Whether ``value`` can be a price in dollars per million tokens: finite, 0 to :data:`MAX_PRICE`."""
    return math.isfinite(value) and 0.0 <= value <= MAX_PRICE


def _parse(raw: Any, origin: str) -> PriceTable:
    if not isinstance(raw, dict) or not isinstance(raw.get("models"), dict):
        raise ConfigError(f"{origin}: a price table is a JSON object with a \"models\" object "
                          "(model -> {\"input\", \"output\", \"cached_input\"} in $ per million tokens)")
    models: dict[str, Price] = {}
    for name, p in raw["models"].items():
        try:
            inp = float(p["input"])
            out = float(p["output"])
            cached = float(p.get("cached_input", inp))
        except (TypeError, KeyError, ValueError):
            raise ConfigError(f"{origin}: model {name!r} needs numeric \"input\" and \"output\" prices "
                              "(and optionally \"cached_input\"), in $ per million tokens") from None
        # a negative, NaN or infinite price made the run's dollars -0.0074, nan or inf, and a NaN total
        # never reaches --max-cost-usd: the cap stopped nothing
        for field, value in (("input", inp), ("output", out), ("cached_input", cached)):
            if not valid_price(value):
                raise ConfigError(f"{origin}: model {name!r} has the {field} price {value!r}: a price is a finite "
                                  f"number of dollars per million tokens, from 0 to {MAX_PRICE:g}")
        models[name] = Price(inp, out, cached)
    return PriceTable(models, str(raw.get("date", "")), str(raw.get("source", "")))


def load_prices(override: str | Path | None = None) -> PriceTable:
    """The shipped table, with the models of ``override`` (a JSON file path) laid on top.

    Raises :class:`ConfigError` when the override is missing or malformed.
    """
    text = resources.files("syntagm").joinpath("prices.json").read_text(encoding="utf-8")
    table = _parse(json.loads(text), "syntagm/prices.json")
    if override:
        path = Path(override)
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise ConfigError(f"cannot read the price table {path}: {e.strerror or e}") from None
        except json.JSONDecodeError as e:
            raise ConfigError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
        except UnicodeDecodeError as e:  # was an internal error
            raise ConfigError(f"{path}: not UTF-8 text (byte {e.start}); a price table is UTF-8 JSON") from None
        user = _parse(raw, str(path))
        table = PriceTable({**table.models, **user.models}, user.date or table.date,
                           (user.source or f"user table {path}") + " (over the shipped table of " + table.date + ")")
    return table
