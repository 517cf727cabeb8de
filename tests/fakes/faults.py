"""Faults the loopback fakes can inject, per method (Telegram) or route (Discord).

    fake.inject("sendMessage", Fault.rate_limit(2))            # Telegram: 429, retry_after 2 s
    fake.inject("POST /channels/1100/messages", Fault.reset())  # Discord: the TCP connection is reset

Kinds:

* ``rate_limit``: 429 with the platform's retry-after (Telegram ``parameters.retry_after``, Discord
  the JSON ``retry_after`` and ``Retry-After`` headers);
* ``server_error``: a 5xx answer (``status``, default 500);
* ``timeout_after_delivery``: the request is carried out (the message exists), then the answer never
  comes: the fake holds the connection until the client gives up (or ``hold`` seconds);
* ``timeout``: the same, but the request is not carried out;
* ``reset``: the connection is reset (RST) before the request is carried out;
* ``unauthorized``: 401, as for a revoked token.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from dataclasses import dataclass
from typing import Literal

from aiohttp import web

FaultKind = Literal["rate_limit", "server_error", "timeout_after_delivery", "timeout", "reset", "unauthorized"]


@dataclass(frozen=True)
class Fault:
    """One injected fault (see the module docstring)."""

    kind: FaultKind
    retry_after: float = 1.0
    status: int = 500
    hold: float = 30.0  # the longest a timeout holds the connection, seconds

    @classmethod
    def rate_limit(cls, retry_after: float = 1.0) -> Fault:
        return cls("rate_limit", retry_after=retry_after)

    @classmethod
    def server_error(cls, status: int = 500) -> Fault:
        return cls("server_error", status=status)

    @classmethod
    def timeout_after_delivery(cls, hold: float = 30.0) -> Fault:
        return cls("timeout_after_delivery", hold=hold)

    @classmethod
    def timeout(cls, hold: float = 30.0) -> Fault:
        return cls("timeout", hold=hold)

    @classmethod
    def reset(cls) -> Fault:
        return cls("reset")

    @classmethod
    def unauthorized(cls) -> Fault:
        return cls("unauthorized", status=401)


class Injector:
    """A list of (match, fault) consumed in order; ``seen`` records (match, kind) of every fault used."""

    def __init__(self) -> None:
        self._pending: list[tuple[str, Fault]] = []
        self.seen: list[tuple[str, str]] = []

    def add(self, match: str, fault: Fault, times: int = 1) -> None:
        self._pending.extend([(match, fault)] * times)

    def take(self, key: str, matches) -> Fault | None:
        """The first pending fault whose match ``matches(match, key)``, removed; None if none."""
        for i, (match, fault) in enumerate(self._pending):
            if matches(match, key):
                del self._pending[i]
                self.seen.append((key, fault.kind))
                return fault
        return None

    def clear(self) -> None:
        self._pending.clear()


async def hold(request: web.Request, seconds: float) -> None:
    """Keep the request open until the client goes away (aiohttp cancels the handler) or ``seconds``."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.Event().wait(), seconds)


def reset(request: web.Request) -> None:
    """Reset the request's TCP connection (SO_LINGER 0, then abort: the client reads ECONNRESET)."""
    transport = request.transport
    if transport is None:
        return
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()
