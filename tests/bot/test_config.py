"""Config: unknown or mistyped keys fail naming the key and the file; secrets come from the env."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path, text: str) -> Path:
    p = tmp_path / "c.yaml"
    p.write_text(text)
    return p


@pytest.mark.parametrize("text, needle", [
    ("servr: {}\n", "unknown key 'servr' (did you mean 'server'?)"),
    ("telegram: {token: t, approver_idz: [1]}\n", "unknown key 'telegram.approver_idz'"),
    ("telegram: {token: t, approver_ids: [alice]}\n", "telegram.approver_ids[0]"),
    ("tiers: {MEDIUM: {timeout: -1}}\n", "tiers.MEDIUM.timeout"),
    ("tiers: {LOW: {without_llm: maybe}}\n", "tiers.LOW.without_llm"),
    ("server: {socket_mode: '0666'}\n", "server.socket_mode"),
    ("policy: {action_tiers: {deploy_docs: PURPLE}}\n", "policy.action_tiers"),
    ("policy: {programs: {mytool: {optons: {-x: command}}}}\n", "policy.programs.mytool: unknown key(s) optons"),
    ("policy: {programs: {mytool: {options: {--run: runs}}}}\n", "policy.programs.mytool.options.--run: 'runs'"),
    ("policy: {programs: {mytool: {options: {-e: 'code:klingon'}}}}\n", "names no language known here"),
    ("policy: {programs: {./bin/mytool: {options: {-e: command}}}}\n", "without a directory ('mytool'"),
    ("- a\n- b\n", "top level must be a mapping"),
    ("server: [\n", "not valid YAML"),
])
def test_bad_config_names_key_and_file(tmp_path, text, needle):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={})
    assert needle in str(info.value) and str(path) in str(info.value)
    assert "policy.programs: policy.programs" not in str(info.value)  # (the key is named once)


def test_token_from_environment_and_missing_token(tmp_path):
    path = write(tmp_path, "telegram: {approval_chat_ids: [1], approver_ids: [2]}\n")
    cfg = load_config(path, environ={"SIGNOFF_TELEGRAM_TOKEN": "123:abc"})
    assert cfg.telegram.token.get_secret_value() == "123:abc"
    assert not cfg.terminal_enabled  # a phone channel turns the terminal off (auto)
    with pytest.raises(ConfigError, match="SIGNOFF_TELEGRAM_TOKEN"):
        load_config(path, environ={})
    assert load_config(path, environ={}, secrets=False).telegram.token is None  # clients need no token


def test_defaults_and_yaml_octal_mode(tmp_path, monkeypatch):
    monkeypatch.delenv("SIGNOFF_CONFIG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = load_config(None, environ={})
    assert cfg.source is None and cfg.terminal_enabled and cfg.server.mode == 0o600
    assert cfg.tiers.timeouts()[2] == 60
    cfg = load_config(write(tmp_path, "server: {socket_mode: 0660}\n"), environ={})
    assert cfg.server.mode == 0o660


def test_missing_named_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.yaml")


def test_example_config_is_valid():
    cfg = load_config(ROOT / "config.example.yaml", environ={"SIGNOFF_TELEGRAM_TOKEN": "1:x"})
    assert cfg.telegram is not None and cfg.discord is None


@pytest.mark.parametrize("secrets", [True, False])
def test_second_opinion_needs_an_llm(tmp_path, secrets):
    """Named whatever the caller (signoff doctor loads without secrets first: it must see this too)."""
    path = tmp_path / "c.yaml"
    path.write_text("crisis: {second_opinion: true}\n")
    with pytest.raises(ConfigError, match="crisis.second_opinion"):
        load_config(path, environ={}, secrets=secrets)
    path.write_text("crisis: {second_opinion: true}\nllm: {base_url: 'http://127.0.0.1:9/v1', model: m}\n")
    assert load_config(path, environ={}, secrets=secrets).crisis.second_opinion
