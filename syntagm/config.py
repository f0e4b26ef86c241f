"""Where the endpoint settings come from: flags, then environment, then a config file.

Precedence, highest first:

1. command-line flags (``--model``, ``--base-url``, ``--timeout``...);
2. environment: ``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``SYNTAGM_MODEL``
   (or ``OPENAI_MODEL``), ``SYNTAGM_PRICES``;
3. a TOML config file: ``--config FILE``, else ``$SYNTAGM_CONFIG``, else
   ``./syntagm.toml``, else ``~/.config/syntagm/config.toml``. Keys:
   ``base_url``, ``model``, ``api_key_env`` (the *name* of the environment
   variable holding the key; keys themselves do not belong in files, but
   ``api_key`` is read if present), ``timeout_s``, ``max_retries``,
   ``backoff_s``, ``json_mode`` (``auto``/``on``/``off``), ``constrained_decoding``
   (``auto``/``off``/``llama.cpp``/``vllm``, :mod:`syntagm.decoding.endpoints`), ``temperature``,
   ``max_tokens``, ``prices`` (path of a price table), and ``[models.NAME]`` tables for
   sweeps over several models (``syntagm bench --model NAME ...``): ``base_url``, ``model``
   (the name the endpoint knows; default NAME), ``api_key_env``, ``timeout_s``,
   ``max_retries``, ``json_mode``, ``max_tokens`` and ``prices`` (an inline
   ``{input, output, cached_input}`` in dollars per million tokens).

An endpoint is configured when there is a base URL or an API key. With a
base URL and no key (a local server) a placeholder key is sent.
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Mapping

from .errors import ConfigError
from .decoding.endpoints import MODES as DECODING_MODES
from .llm.client import LLMConfig

DEFAULT_MODEL = "gpt-4o-mini"

NO_ENDPOINT_MESSAGE = """no LLM endpoint is configured.
Point syntagm at any OpenAI-compatible server, for example:
  OpenAI:            put your key in the environment variable OPENAI_API_KEY  (model: --model gpt-4o-mini)
  local vLLM/llama.cpp/Ollama:  syntagm solve problem.txt --base-url http://127.0.0.1:8000/v1 --model NAME
  or set OPENAI_BASE_URL / SYNTAGM_MODEL, or write base_url/model in ./syntagm.toml.
To rerun a recorded run offline, with no endpoint: syntagm solve problem.txt --replay transcript.jsonl"""

_KEYS = {"base_url": str, "model": str, "api_key_env": str, "api_key": str, "timeout_s": (int, float),
         "max_retries": int, "backoff_s": (int, float), "backoff_max_s": (int, float), "json_mode": str,
         "constrained_decoding": str,
         "temperature": (int, float), "max_tokens": int, "prices": str}


_MODEL_KEYS = {"base_url": str, "model": str, "api_key_env": str, "timeout_s": (int, float), "max_retries": int,
               "json_mode": str, "max_tokens": int, "prices": dict}


def _check_models(path: Path, value: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ConfigError(f"{path}: [models] must hold one table per model, like [models.gpt-4o-mini]")
    for name, table in value.items():
        for k, v in table.items():
            if k not in _MODEL_KEYS:
                raise ConfigError(f"{path}: [models.{name}] has an unknown setting {k!r} "
                                  f"(known: {', '.join(sorted(_MODEL_KEYS))})")
            if not isinstance(v, _MODEL_KEYS[k]) or isinstance(v, bool):
                raise ConfigError(f"{path}: [models.{name}] setting {k!r} has the wrong type ({type(v).__name__})")
        prices = table.get("prices")
        if prices is not None and not all(isinstance(prices.get(k), (int, float)) for k in ("input", "output")):
            raise ConfigError(f"{path}: [models.{name}] prices need numeric input and output "
                              "(dollars per million tokens)")
        if prices is not None:
            from .prices import MAX_PRICE, valid_price

            for k in ("input", "output", "cached_input"):
                v = prices.get(k)
                if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool) or not valid_price(v)):
                    raise ConfigError(f"{path}: [models.{name}] has the {k} price {v!r}: a price is a finite number "
                                      f"of dollars per million tokens, from 0 to {MAX_PRICE:g}")
    return value


def find_config_file(explicit: str | None, env: Mapping[str, str]) -> Path | None:
    """The config file to read: ``explicit``, ``$SYNTAGM_CONFIG``, ``./syntagm.toml``, the user's, or ``None``."""
    if explicit:
        p = Path(explicit)
        if not p.is_file():
            raise ConfigError(f"config file {p} {'is a folder, not a file' if p.is_dir() else 'does not exist'}")
        return p
    if env.get("SYNTAGM_CONFIG"):
        p = Path(env["SYNTAGM_CONFIG"])
        if not p.is_file():
            raise ConfigError(f"SYNTAGM_CONFIG names {p}, which does not exist")
        return p
    for p in (Path("syntagm.toml"), Path.home() / ".config" / "syntagm" / "config.toml"):
        if p.is_file():
            return p
    return None


def read_config_file(path: Path | None) -> dict[str, Any]:
    """The settings in a TOML file (top level or a ``[syntagm]`` table), type-checked."""
    if path is None:
        return {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"cannot read config file {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:  # was an internal error
        raise ConfigError(f"{path}: not UTF-8 text (byte {e.start}); TOML files are UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML ({e})") from None
    table = raw.get("syntagm", raw)
    if table is not raw:  # with a [syntagm] table, a key or table beside it was silently ignored
        outside = sorted(k for k in raw if k != "syntagm")
        if outside:
            raise ConfigError(f"{path}: {', '.join(repr(k) for k in outside)} outside the [syntagm] table, which "
                              "holds the settings when present: move it under [syntagm] (a model table as "
                              "[syntagm.models.NAME]), or drop the [syntagm] header")
    out: dict[str, Any] = {}
    for k, v in table.items():
        if k == "models":
            out["models"] = _check_models(path, v)
            continue
        if k not in _KEYS:
            raise ConfigError(f"{path}: unknown setting {k!r} (known: {', '.join(sorted(_KEYS))})")
        if not isinstance(v, _KEYS[k]) or isinstance(v, bool):
            raise ConfigError(f"{path}: setting {k!r} has the wrong type ({type(v).__name__})")
        out[k] = v
    return out


def model_config(name: str, base: LLMConfig | None, fileconf: Mapping[str, Any],
                 env: Mapping[str, str] | None = None) -> LLMConfig | None:
    """The endpoint of sweep model ``name``: its ``[models.NAME]`` table over the general settings
    (``base``, from flags/env/file), or ``base`` with the model name replaced; ``None`` when
    neither names an endpoint."""
    from dataclasses import replace

    env = os.environ if env is None else env
    table = (fileconf.get("models") or {}).get(name)
    if table is None:
        return None if base is None else replace(base, model=name)
    base_url = table.get("base_url") or (base.base_url if base else None)
    key_env = table.get("api_key_env")
    api_key = env.get(key_env) if key_env else (base.api_key if base else None)
    if not base_url and not api_key:
        return None
    start = base or LLMConfig(model=name)
    try:
        cfg = replace(start, model=str(table.get("model") or name), base_url=base_url, api_key=api_key,
                      timeout_s=float(table.get("timeout_s", start.timeout_s)),
                      max_retries=int(table.get("max_retries", start.max_retries)),
                      json_mode=str(table.get("json_mode", start.json_mode)),
                      max_tokens=table.get("max_tokens", start.max_tokens))
    except (TypeError, ValueError, OverflowError) as e:
        raise ConfigError(f"bad setting of [models.{name}]: {e}") from None
    try:
        check_endpoint_numbers(cfg)
    except ConfigError as e:  # say which table (the message named only the setting)
        raise ConfigError(f"[models.{name}]: {e}") from None
    return cfg


def model_name(fileconf: Mapping[str, Any], env: Mapping[str, str] | None = None) -> str:
    """The model name when no endpoint is configured (for offline re-scoring): ``SYNTAGM_MODEL``,
    ``OPENAI_MODEL``, the config file's ``model``, else the default."""
    env = os.environ if env is None else env
    return str(env.get("SYNTAGM_MODEL") or env.get("OPENAI_MODEL") or fileconf.get("model") or DEFAULT_MODEL)


def resolve(flags: Mapping[str, Any], env: Mapping[str, str] | None = None,
            config_path: str | None = None) -> tuple[LLMConfig | None, dict[str, Any]]:
    """``(LLMConfig or None when no endpoint is configured, file settings)`` from flags, env and file.

    ``flags`` holds the CLI values (``None`` where not given): ``model``,
    ``base_url``, ``timeout_s``, ``max_retries``, ``json_mode``, ``temperature``, and optionally
    ``constrained_decoding``.
    """
    env = os.environ if env is None else env
    fileconf = read_config_file(find_config_file(config_path, env))

    def pick(name: str, *env_names: str, default: Any = None) -> Any:
        if flags.get(name) is not None:
            return flags[name]
        for e in env_names:
            if env.get(e):
                return env[e]
        return fileconf.get(name, default)

    base_url = pick("base_url", "OPENAI_BASE_URL")
    key_env = fileconf.get("api_key_env", "OPENAI_API_KEY")
    api_key = env.get(key_env) or env.get("OPENAI_API_KEY") or fileconf.get("api_key")
    if not base_url and not api_key:
        return None, fileconf
    if base_url:
        from urllib.parse import urlparse

        parsed = urlparse(str(base_url))
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ConfigError(f"the endpoint URL {base_url!r} is not an http(s) URL; "
                              "write it like http://127.0.0.1:8000/v1")
    json_mode = str(pick("json_mode", default="auto"))
    decoding = str(pick("constrained_decoding", default="auto"))
    if decoding not in DECODING_MODES:
        raise ConfigError(f"constrained_decoding must be one of {', '.join(DECODING_MODES)}, not {decoding!r}")
    if json_mode not in ("auto", "on", "off"):
        raise ConfigError(f"json_mode must be auto, on or off, not {json_mode!r}")
    try:
        cfg = LLMConfig(
            model=str(pick("model", "SYNTAGM_MODEL", "OPENAI_MODEL", default=DEFAULT_MODEL)),
            base_url=base_url or None,
            api_key=api_key or None,
            timeout_s=float(pick("timeout_s", default=120.0)),
            max_retries=int(pick("max_retries", default=4)),
            backoff_s=float(pick("backoff_s", default=1.0)),
            backoff_max_s=float(pick("backoff_max_s", default=30.0)),
            json_mode=json_mode,
            constrained_decoding=decoding,
            temperature=(None if pick("temperature") is None else float(pick("temperature"))),
            max_tokens=pick("max_tokens"),
        )
    except (TypeError, ValueError, OverflowError) as e:
        raise ConfigError(f"bad endpoint setting: {e}") from None
    check_endpoint_numbers(cfg)
    return cfg, fileconf


def check_endpoint_numbers(cfg: LLMConfig) -> None:
    """ConfigError naming the first endpoint setting out of its range: ``timeout_s`` a finite number of
    seconds above 0 (``1e400`` or ``inf`` in the file reached the HTTP client as an infinite deadline:
    ``internal error: OverflowError``), ``max_retries`` 0 or more, ``backoff_s``/``backoff_max_s``
    finite and 0 or more (``nan`` made every retry's wait NaN), ``temperature`` 0 to 2 (OpenAI's
    range), ``max_tokens`` 1 or more when set (``--max-tokens`` refuses 0; the file's 0 or -5 was sent
    to the endpoint, which refused every request), ``model`` not empty."""
    import math

    checks = [("timeout_s", cfg.timeout_s, 0.0, True), ("backoff_s", cfg.backoff_s, 0.0, False),
              ("backoff_max_s", cfg.backoff_max_s, 0.0, False)]
    for name, value, low, strict in checks:
        if not math.isfinite(value) or value < low or (strict and value == low):
            raise ConfigError(f"{name} must be a finite number of seconds {'above' if strict else 'of at least'} "
                              f"{low:g}, not {value!r}")
    if cfg.max_retries < 0:
        raise ConfigError(f"max_retries must be 0 or more, not {cfg.max_retries}")
    if cfg.max_tokens is not None and cfg.max_tokens < 1:
        raise ConfigError(f"max_tokens must be 1 or more (or left out: no cap is sent), not {cfg.max_tokens}")
    if cfg.temperature is not None and not (0.0 <= cfg.temperature <= 2.0):
        raise ConfigError(f"temperature must be between 0 and 2, not {cfg.temperature!r}")
    if not cfg.model.strip():
        raise ConfigError("the model name is empty: set `model` (or --model, SYNTAGM_MODEL) to the endpoint's model")
