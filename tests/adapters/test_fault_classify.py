"""Each adapter's one mapping of its library's errors to core.retry faults."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import aiohttp
import discord
import httpx
from telegram.error import BadRequest, Conflict, Forbidden, InvalidToken, NetworkError, RetryAfter, TimedOut

from adapters import discord_channel, telegram_channel
from core.retry import FaultKind


def _timed_out(cause: Exception) -> TimedOut:
    try:
        raise TimedOut from cause
    except TimedOut as exc:
        return exc


def test_telegram_errors():
    kind = lambda exc: telegram_channel.classify(exc).kind  # noqa: E731
    wait = telegram_channel.classify(RetryAfter(dt.timedelta(seconds=3)))
    assert (wait.kind, wait.retry_after) == (FaultKind.RETRY_AFTER, 3.0)
    assert kind(_timed_out(httpx.ReadTimeout("read"))) is FaultKind.DELIVERED_UNKNOWN
    assert kind(_timed_out(httpx.WriteTimeout("write"))) is FaultKind.DELIVERED_UNKNOWN
    assert kind(_timed_out(httpx.ConnectTimeout("connect"))) is FaultKind.TRANSIENT
    assert kind(_timed_out(httpx.PoolTimeout("pool"))) is FaultKind.TRANSIENT
    assert kind(NetworkError("Internal Server Error")) is FaultKind.TRANSIENT
    assert kind(NetworkError("httpx.ReadError: [Errno 104] Connection reset by peer")) is FaultKind.TRANSIENT
    for permanent in (BadRequest("Bad Request: chat not found"), Forbidden("blocked"), InvalidToken("no"),
                      Conflict("409")):
        assert kind(permanent) is FaultKind.PERMANENT  # BadRequest is a NetworkError in PTB: never retried
    assert telegram_channel.classify(ValueError("a bug")) is None


def test_discord_errors():
    kind = lambda exc: discord_channel.classify(exc).kind  # noqa: E731

    def http(exc_type, status, headers=None):
        return exc_type(SimpleNamespace(status=status, reason="x", headers=headers or {}), {"message": "x", "code": 0})

    wait = discord_channel.classify(discord.RateLimited(42.0))
    assert (wait.kind, wait.retry_after) == (FaultKind.RETRY_AFTER, 42.0)
    assert discord_channel.classify(http(discord.HTTPException, 429, {"Retry-After": "7"})).retry_after == 7.0
    assert kind(TimeoutError()) is FaultKind.DELIVERED_UNKNOWN
    assert kind(aiohttp.ServerTimeoutError()) is FaultKind.DELIVERED_UNKNOWN
    assert kind(aiohttp.ServerDisconnectedError()) is FaultKind.TRANSIENT
    assert kind(aiohttp.ClientOSError(104, "Connection reset by peer")) is FaultKind.TRANSIENT
    assert kind(ConnectionRefusedError()) is FaultKind.TRANSIENT
    assert kind(http(discord.DiscordServerError, 503)) is FaultKind.TRANSIENT
    for status, exc_type in ((400, discord.HTTPException), (403, discord.Forbidden), (404, discord.NotFound)):
        assert kind(http(exc_type, status)) is FaultKind.PERMANENT
    assert kind(discord.LoginFailure("bad token")) is FaultKind.PERMANENT
    assert discord_channel.classify(ValueError("a bug")) is None
