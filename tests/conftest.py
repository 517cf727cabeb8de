"""Shared fixtures: a real daemon in-process on a temp socket and SQLite file, a loopback fake of
the Telegram Bot API, and a small JSON client for the local API."""

from __future__ import annotations

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
async def telegram() -> AsyncIterator[FakeTelegram]:
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
