"""Shared fixtures: a real daemon in-process on a temp socket and SQLite file, a loopback fake of
the Telegram Bot API, and a small JSON client for the local API."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

os.environ.setdefault("PTB_TIMEDELTA", "1")

from bot.app import Daemon  # noqa: E402
from bot.config import Config, LedgerConfig, ServerConfig, TelegramConfig, TerminalConfig, TiersConfig  # noqa: E402
from tests.fakes import FakeTelegram  # noqa: E402

#: The labelled data of shared/eval, beside the repository (CI lays shared/ next to its clone; .ci/run fails
#: without it, so the tests that read it never skip there).
EVAL_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "eval"


def eval_rows(name: str) -> list[dict]:
    """The rows of ``shared/eval/NAME`` (JSON lines); skips the test when the data is not beside the clone."""
    path = EVAL_DIR / name
    if not path.exists():
        pytest.skip(f"labelled data {path} is not beside this clone (CI puts shared/ there)")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

APPROVAL_CHAT, ONCALL_CHAT, CRISIS_CHAT = 100, 200, 300
APPROVER, STRANGER = 111, 666


class ApiClient:
    """JSON over the daemon's Unix socket, as an agent would call it."""

    def __init__(self, socket_path: Path):
        self.session = aiohttp.ClientSession(connector=aiohttp.UnixConnector(path=str(socket_path)))

    async def call(self, method: str, path: str, json: Any = None, data: bytes | None = None,
                   headers: dict | None = None) -> tuple[int, Any]:
        async with self.session.request(method, f"http://signoff{path}", json=json, data=data,
                                        headers=headers) as resp:
            body = await resp.json(content_type=None)
            return resp.status, body

    async def close(self) -> None:
        await self.session.close()


@pytest.fixture
def short_tmp() -> Path:
    """A short temp dir (Unix socket paths are limited to ~107 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="so-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
async def telegram(monkeypatch) -> AsyncIterator[FakeTelegram]:
    import adapters.telegram_channel
    from core.retry import RetryPolicy

    quick = RetryPolicy(first=0.05, cap=0.5, budget=None, max_attempts=None)  # quick recovery
    monkeypatch.setattr(adapters.telegram_channel, "RECONNECT_POLICY", quick)
    async with FakeTelegram() as fake:
        yield fake


def make_config(tmp: Path, telegram: FakeTelegram | None = None, terminal: bool | str = "auto",
                timeouts: tuple[float, float, float] = (60, 30, 10), **extra) -> Config:
    tiers = TiersConfig.model_validate({"MEDIUM": {"timeout": timeouts[0]}, "HIGH": {"timeout": timeouts[1]},
                                        "CRITICAL": {"timeout": timeouts[2]}})
    tg = None
    if telegram is not None:
        tg = TelegramConfig(token=telegram.token, base_url=telegram.base_url, rate_limiter=False,
                            approval_chat_ids=[APPROVAL_CHAT], approver_ids=[APPROVER],
                            oncall_chat_ids=[ONCALL_CHAT], crisis_chat_ids=[CRISIS_CHAT])
    return Config(server=ServerConfig(socket_path=tmp / "s.sock"), ledger=LedgerConfig(url=f"sqlite:///{tmp}/ledger.db"),
                  terminal=TerminalConfig(enabled=terminal), tiers=tiers, telegram=tg, **extra)


@pytest.fixture
async def start_daemon(short_tmp: Path) -> AsyncIterator[Callable[..., Any]]:
    """``await start_daemon(config)`` → (daemon, api client); everything is stopped at the end."""
    started: list[tuple[Daemon, ApiClient]] = []

    async def start(config: Config, channels=None) -> tuple[Daemon, ApiClient]:
        daemon = Daemon(config, channels=channels)
        await daemon.start()
        api = ApiClient(config.server.path())
        started.append((daemon, api))
        return daemon, api

    yield start
    for daemon, api in reversed(started):
        await api.close()
        await daemon.stop()


# Discord ------------------------------------------------------------------------------------------
# The loopback fake of Discord's REST API and gateway (tests/fakes/discord_api.py), one guild with
# these channels and the role ``DISCORD_APPROVER_ROLE``.

DISCORD_APPROVAL, DISCORD_ONCALL, DISCORD_CRISIS, DISCORD_OTHER = 1100, 1200, 1300, 1400
DISCORD_APPROVER, DISCORD_ROLE_MEMBER, DISCORD_STRANGER = 2111, 2222, 2666
DISCORD_APPROVER_ROLE = 7001


@pytest.fixture
async def discord() -> AsyncIterator[Any]:
    """A FakeDiscord; discord.py is pointed at it by the adapter (from the config) and restored after."""
    import discord.backoff

    from tests.fakes.discord_api import FakeDiscord, restore_discord_py

    original_delay = discord.backoff.ExponentialBackoff.delay
    discord.backoff.ExponentialBackoff.delay = lambda self: 0.05  # reconnect quickly after an outage
    try:
        async with FakeDiscord(channel_ids=(DISCORD_APPROVAL, DISCORD_ONCALL, DISCORD_CRISIS, DISCORD_OTHER),
                               roles={DISCORD_APPROVER_ROLE: "approvers"}) as fake:
            yield fake
    finally:
        discord.backoff.ExponentialBackoff.delay = original_delay
        restore_discord_py()


def discord_config(fake: Any, **overrides: Any) -> Any:
    """The ``discord`` config section for ``fake``; pass it to make_config(..., discord=...)."""
    from bot.config import DiscordConfig

    values: dict[str, Any] = dict(
        token=fake.token, api_base_url=fake.api_base_url, gateway_url=fake.gateway_url,
        approval_channel_ids=[DISCORD_APPROVAL], approver_user_ids=[DISCORD_APPROVER],
        approver_role_ids=[DISCORD_APPROVER_ROLE], oncall_channel_ids=[DISCORD_ONCALL],
        crisis_channel_ids=[DISCORD_CRISIS])
    return DiscordConfig(**(values | overrides))


@pytest.fixture
def grey_zone(monkeypatch):
    """Every text the crisis tables do not alert on falls in the model's grey zone (its thresholds moved, its
    weights kept), and the deep reader adds nothing: the grey-zone paths without depending on any one text's
    score."""
    import dataclasses
    import math

    from core.crisis import _deep, _model

    m = _model.model()
    monkeypatch.setattr(_model, "_MODEL", dataclasses.replace(m, alert=math.inf, concern=-math.inf))
    monkeypatch.setattr(_deep.DeepReader, "verdict", lambda self, p: _deep.DeepVerdict(p, False, False))
