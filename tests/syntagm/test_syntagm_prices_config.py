"""Price table and endpoint configuration."""
from __future__ import annotations

import json

import pytest

from syntagm.config import resolve
from syntagm.errors import ConfigError
from syntagm.prices import Price, load_prices


def test_shipped_table_has_date_source_and_known_models():
    t = load_prices()
    assert t.date and "pricing" in t.source
    assert t.lookup("gpt-4o-mini") is not None
    assert t.lookup("gpt-4o-mini-2024-07-18") == t.lookup("gpt-4o-mini")  # dated snapshot -> longest prefix
    assert t.lookup("openai/gpt-4o") == t.lookup("gpt-4o")
    assert t.lookup("some-local-model") is None


def test_cost_counts_cached_prompt_tokens_at_the_cached_price():
    p = Price(input=2.0, output=8.0, cached_input=0.5)
    assert p.cost(1_000_000, 0) == pytest.approx(2.0)
    assert p.cost(1_000_000, 1_000_000, cached_tokens=1_000_000) == pytest.approx(8.5)


def test_user_override_adds_and_replaces(tmp_path):
    f = tmp_path / "prices.json"
    f.write_text(json.dumps({"date": "2030-01-01", "models": {"gpt-4o": {"input": 1, "output": 2},
                                                              "my-llama": {"input": 0, "output": 0}}}))
    t = load_prices(f)
    assert t.lookup("gpt-4o") == Price(1.0, 2.0, 1.0)
    assert t.lookup("my-llama") is not None and t.lookup("gpt-4o-mini") is not None
    assert t.date == "2030-01-01"


@pytest.mark.parametrize("content, fragment", [
    ("{", "not valid JSON"), ('{"models": {"m": {"input": "x"}}}', "numeric"),
    # were taken: the run then cost $-0.0074, $nan (which no --max-cost-usd cap ever reaches) or $inf
    ('{"models": {"m": {"input": -5, "output": 1}}}', "the input price -5.0"),
    ('{"models": {"m": {"input": NaN, "output": 1}}}', "the input price nan"),
    ('{"models": {"m": {"input": 1, "output": 1e308}}}', "the output price 1e\\+308"),
    ('{"models": {"m": {"input": 1, "output": 1, "cached_input": -1}}}', "the cached_input price -1.0"),
])
def test_bad_override_is_a_config_error(tmp_path, content, fragment):
    f = tmp_path / "p.json"
    f.write_text(content)
    with pytest.raises(ConfigError, match=fragment):
        load_prices(f)
    with pytest.raises(ConfigError, match="cannot read"):
        load_prices(tmp_path / "missing.json")


def test_a_price_table_that_is_not_utf8_is_a_config_error(tmp_path):
    f = tmp_path / "p.json"
    f.write_bytes(b'{"models": {"m\xff": {"input": 1, "output": 1}}}')   # was internal error: UnicodeDecodeError
    with pytest.raises(ConfigError, match=r"p.json: not UTF-8 text \(byte 14\)"):
        load_prices(f)


def test_no_endpoint_without_base_url_or_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg, _ = resolve({}, env={})
    assert cfg is None


def test_precedence_flags_env_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "syntagm.toml").write_text('base_url = "http://file/v1"\nmodel = "file-model"\ntimeout_s = 7\n')
    cfg, _ = resolve({}, env={})
    assert (cfg.base_url, cfg.model, cfg.timeout_s, cfg.api_key) == ("http://file/v1", "file-model", 7.0, None)
    cfg, _ = resolve({}, env={"OPENAI_BASE_URL": "http://env/v1", "SYNTAGM_MODEL": "env-model", "OPENAI_API_KEY": "k"})
    assert (cfg.base_url, cfg.model, cfg.api_key) == ("http://env/v1", "env-model", "k")
    cfg, _ = resolve({"base_url": "http://flag/v1", "model": "flag-model"}, env={"OPENAI_BASE_URL": "http://env/v1"})
    assert (cfg.base_url, cfg.model) == ("http://flag/v1", "flag-model")


def test_temperature_is_unset_unless_a_flag_or_the_file_sets_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg, _ = resolve({"base_url": "http://flag/v1"}, env={})
    assert cfg.temperature is None  # not sent: the endpoint's own default applies
    (tmp_path / "syntagm.toml").write_text('base_url = "http://file/v1"\ntemperature = 0\n')
    cfg, _ = resolve({}, env={})
    assert cfg.temperature == 0.0 and isinstance(cfg.temperature, float)
    cfg, _ = resolve({"temperature": 0.7}, env={})
    assert cfg.temperature == 0.7


def test_bad_config_file_is_a_clear_error(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("colour = 'blue'\n")
    with pytest.raises(ConfigError, match="unknown setting 'colour'"):
        resolve({}, env={}, config_path=str(f))
    f.write_text("base_url = [\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        resolve({}, env={}, config_path=str(f))
    with pytest.raises(ConfigError, match="does not exist"):
        resolve({}, env={}, config_path=str(tmp_path / "nope.toml"))


def test_config_file_mistakes_found_on_a_fresh_read(tmp_path):
    """Each was silent or an internal error: a non-UTF-8 file (UnicodeDecodeError), a folder ('does
    not exist'), and settings beside a [syntagm] table (ignored: [models.m1] at the top level dropped
    the sweep model's endpoint without a word)."""
    f = tmp_path / "c.toml"
    f.write_bytes(b'model = "\xff"\n')
    with pytest.raises(ConfigError, match=r"c.toml: not UTF-8 text \(byte 9\)"):
        resolve({}, env={}, config_path=str(f))
    with pytest.raises(ConfigError, match="is a folder, not a file"):
        resolve({}, env={}, config_path=str(tmp_path))
    f.write_text('[syntagm]\nmodel = "a"\n[models.m1]\nbase_url = "http://127.0.0.1:9/v1"\n')
    with pytest.raises(ConfigError, match=r"'models' outside the \[syntagm\] table.*\[syntagm.models.NAME\]"):
        resolve({}, env={}, config_path=str(f))
    f.write_text('timeout_s = 5\n[syntagm]\nmodel = "a"\n')
    with pytest.raises(ConfigError, match=r"'timeout_s' outside the \[syntagm\] table"):
        resolve({}, env={}, config_path=str(f))
    f.write_text('[syntagm]\nmodel = "a"\nbase_url = "http://127.0.0.1:9/v1"\n'
                 '[syntagm.models.m1]\nbase_url = "http://127.0.0.1:9/v1"\n')
    cfg, fileconf = resolve({}, env={}, config_path=str(f))
    assert cfg.model == "a" and fileconf["models"]["m1"]["base_url"] == "http://127.0.0.1:9/v1"


def test_endpoint_url_must_be_http(tmp_path, monkeypatch):
    import subprocess
    import sys

    problem = tmp_path / "p.txt"
    problem.write_text("Maximise 3x + 2y with x + y <= 4.")
    p = subprocess.run([sys.executable, "-m", "syntagm", "solve", str(problem), "--base-url", "not-a-url",
                        "--model", "m", "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "not an http(s) URL" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("line, fragment", [
    ("timeout_s = 1e400", "timeout_s must be a finite number"),   # was internal error: OverflowError
    ("timeout_s = inf", "timeout_s must be a finite number"),
    ("backoff_s = nan", "backoff_s must be a finite number"),
    ("backoff_max_s = -1.0", "backoff_max_s must be a finite number of seconds of at least 0"),
    ("max_retries = -1", "max_retries must be 0 or more"),
    ("temperature = 9", "temperature must be between 0 and 2"),
    ("model = '  '", "the model name is empty"),
    ("max_tokens = 0", "max_tokens must be 1 or more"),   # was sent to the endpoint as is
    ("max_tokens = -5", "max_tokens must be 1 or more"),
])
def test_endpoint_numbers_out_of_range_are_config_errors(tmp_path, line, fragment):
    f = tmp_path / "c.toml"
    f.write_text('base_url = "http://127.0.0.1:9/v1"\n%s\n' % line)
    with pytest.raises(ConfigError, match=fragment):
        resolve({}, env={}, config_path=str(f))


def test_an_infinite_timeout_flag_is_a_usage_error(tmp_path):
    import subprocess
    import sys

    problem = tmp_path / "p.txt"
    problem.write_text("Maximise 3x + 2y with x + y <= 4.")
    p = subprocess.run([sys.executable, "-m", "syntagm", "solve", str(problem), "--base-url", "http://127.0.0.1:9/v1",
                        "--timeout", "inf", "--model", "m", "--out", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "expected a finite number, got 'inf'" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("price", ["-1.0", "nan", "inf", "'free'"])
def test_an_inline_model_price_out_of_range_is_a_config_error(tmp_path, price):
    f = tmp_path / "c.toml"
    f.write_text('base_url = "http://127.0.0.1:9/v1"\n[models.local]\nprices = { input = 1.0, output = 1.0, '
                 'cached_input = %s }\n' % price)
    with pytest.raises(ConfigError, match="cached_input price"):
        resolve({}, env={}, config_path=str(f))


@pytest.mark.parametrize("line, fragment", [
    ("max_tokens = 0", "[models.m1]: max_tokens must be 1 or more"),
    ("timeout_s = -1.0", "[models.m1]: timeout_s must be a finite number"),
])
def test_a_sweep_model_table_out_of_range_names_its_table(tmp_path, line, fragment):
    """The message named the setting only, not which [models.NAME] table holds it."""
    from syntagm.config import model_config, read_config_file

    f = tmp_path / "c.toml"
    f.write_text('[models.m1]\nbase_url = "http://127.0.0.1:9/v1"\n%s\n' % line)
    with pytest.raises(ConfigError) as e:
        model_config("m1", None, read_config_file(f), env={})
    assert str(e.value).startswith(fragment)
