"""A loopback fake of Discord's REST API and gateway, for driving the real discord.py in tests.

One aiohttp server on 127.0.0.1 (random port) serves the REST API under ``/api/v10`` and the gateway
websocket at ``/gateway``. The real ``discord.Client`` logs in (``GET /users/@me``,
``GET /oauth2/applications/@me``), connects (HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats,
RESUME), receives INTERACTION_CREATE / MESSAGE_CREATE and answers through real REST calls.

discord.py 2.x has no per-client setting for either URL; it reads two class attributes, which
``point_discord_py_at(api_base_url, gateway_url)`` sets (``restore_discord_py()`` puts them back):

* ``discord.http.Route.BASE`` (str) -- REST base incl. version, read whenever a ``Route`` is built
  (bot REST calls *and* the interaction/webhook adapter, which uses the same ``Route``);
* ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (yarl.URL) -- used by ``Client.connect``;
  2.7 does not ask ``/gateway/bot`` (only ``AutoShardedClient`` does; the fake answers it too).
  Resumes go to READY's ``resume_gateway_url`` (the same URL here).

    async with FakeDiscord() as dc:
        point_discord_py_at(dc.api_base_url, dc.gateway_url)
        client = MyClient(intents=..., guild_ready_timeout=0.05)   # default 2 s delays on_ready
        task = asyncio.create_task(client.start(dc.token))
        ...
        iid = dc.press(message_id, "signoff:a:1f", user_id=1, role_ids=[7001])
        await dc.wait_for(lambda: dc.interaction_responses)

The gateway honours ``compress=zlib-stream`` (one zlib stream per connection, Z_SYNC_FLUSH per
message); any other value gets plain text frames, which discord.py also accepts.

discord.py behaviours worth knowing (all reproduced here): JSON is parsed only when Content-Type is
exactly ``application/json``; a 429 without a ``Via`` header is taken for a Cloudflare ban (no retry);
500/502/504 are retried 5 times with 1+3+5+7+9 s sleeps before raising; ``Client.close()`` usually
reaches the wire as close code 4000 (its poll loop closes first), so the session stays resumable;
a re-IDENTIFY after an invalid session sleeps 5 s; ``on_ready`` waits ``guild_ready_timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import inspect
import json
import re
import secrets
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

from .faults import Fault, Injector, hold, reset

DISCORD_EPOCH_MS = 1420070400000
GUILDS, GUILD_MEMBERS, GUILD_PRESENCES = 1 << 0, 1 << 1, 1 << 8
GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 9, 1 << 12, 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
EPHEMERAL, LOADING, COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15
_PERMISSIONS = str((1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 16))  # react, view, send, embed, history
_ORIGINAL = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


def point_discord_py_at(api_base_url: str, gateway_url: str) -> None:
    """Point discord.py (process-wide) at the fake: sets ``discord.http.Route.BASE`` and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``. Call before ``Client.login``."""
    discord.http.Route.BASE = api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def restore_discord_py() -> None:
    """Undo point_discord_py_at() (real Discord URLs again)."""
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _ORIGINAL


class DiscordError(Exception):
    """An error answer in Discord's shape: ``{"message", "code"[, "errors"]}``."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        return {"message": self.message, "code": self.code} | ({"errors": self.errors} if self.errors else {})


def _form_error(path: list[str | int], code: str, message: str) -> DiscordError:
    """400 Invalid Form Body (50035) with the nested ``errors`` object Discord sends."""
    errors: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        errors = {str(key): errors}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def _unknown(what: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


def _max_len(value: Any, limit: int, path: list[str | int]) -> int:
    n = len(str(value)) if value is not None else 0
    if n > limit:
        raise _form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    return n


def check_message_body(p: dict[str, Any], *, creating: bool) -> None:
    """Validate content / embeds / components like Discord does (raises DiscordError 400)."""
    _max_len(p.get("content"), 2000, ["content"])
    embeds = p.get("embeds") or []
    if len(embeds) > 10:
        raise _form_error(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        total += _max_len(e.get("title"), 256, ["embeds", i, "title"])
        total += _max_len(e.get("description"), 4096, ["embeds", i, "description"])
        total += _max_len((e.get("footer") or {}).get("text"), 2048, ["embeds", i, "footer", "text"])
        total += _max_len((e.get("author") or {}).get("name"), 256, ["embeds", i, "author", "name"])
        fields = e.get("fields") or []
        if len(fields) > 25:
            raise _form_error(["embeds", i, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                if not str(f.get(key) or "").strip():
                    raise _form_error(["embeds", i, "fields", j, key], "BASE_TYPE_REQUIRED", "This field is required")
                total += _max_len(f.get(key), limit, ["embeds", i, "fields", j, key])
    if total > 6000:
        raise _form_error(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    rows = p.get("components") or []
    v2 = int(p.get("flags") or 0) & COMPONENTS_V2
    if len(rows) > 5 and not v2:
        raise _form_error(["components"], "BASE_TYPE_BAD_LENGTH", "Must be between 0 and 5 in length.")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if row.get("type") != 1:
            continue
        children = row.get("components") or []
        if not 1 <= len(children) <= 5:
            raise _form_error(["components", i, "components"], "BASE_TYPE_BAD_LENGTH",
                              "Must be between 1 and 5 in length.")
        for j, c in enumerate(children):
            path: list[str | int] = ["components", i, "components", j]
            _max_len(c.get("label"), 80, [*path, "label"])
            cid = c.get("custom_id")
            if c.get("type") == 2 and c.get("style") not in (5, 6) and not cid:
                raise _form_error([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
            if cid is not None:
                _max_len(cid, 100, [*path, "custom_id"])
                if cid in seen:
                    raise _form_error([*path, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED",
                                      "Component custom id cannot be duplicated")
                seen.add(cid)
    if creating and not (p.get("content") or embeds or rows or p.get("sticker_ids") or p.get("poll")):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def _iso(ts: float | None) -> str | None:
    return None if ts is None else dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


@dataclass
class Call:
    """One REST request: method, path below the API base (``/channels/100/messages``), decoded JSON
    body (multipart: its ``payload_json``), query, ``time.monotonic()`` at arrival, status answered."""

    method: str
    path: str
    json: Any
    at: float
    query: dict[str, str] = field(default_factory=dict)
    status: int | None = None


@dataclass
class FakeMessage:
    """Current state of one message as the fake's Discord holds it.

    ``history`` holds earlier states (dicts of content/embeds/components/flags), oldest first.
    ``interaction_id`` is set for interaction responses and followups.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    member: dict[str, Any] | None = None
    interaction_id: str | None = None
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Every button on the message (action rows flattened)."""
        rows = self.components
        return [c for r in rows for c in (r.get("components") or []) if c.get("type") == 2]

    @property
    def custom_ids(self) -> list[str]:
        return [b["custom_id"] for b in self.buttons if "custom_id" in b]

    def apply(self, p: dict[str, Any]) -> None:
        """Apply an edit body: only keys present change; ``components: []`` removes the buttons."""
        self.history.append({"content": self.content, "embeds": self.embeds, "components": self.components,
                             "flags": self.flags})
        for key in ("content", "embeds", "components"):
            if key in p:
                setattr(self, key, p[key] if p[key] is not None else ([] if key != "content" else ""))
        if p.get("flags") is not None:
            self.flags = (self.flags & (EPHEMERAL | COMPONENTS_V2)) | int(p["flags"])
        self.edited_at = time.time()

    def to_api(self, gateway: bool = False) -> dict[str, Any]:
        """The message object as Discord serialises it (gateway events add guild_id and member)."""
        d: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": 0, "author": self.author,
            "content": self.content, "embeds": [{"type": "rich"} | e for e in self.embeds],
            "components": self.components, "attachments": [], "mentions": [], "mention_roles": [],
            "mention_everyone": False, "pinned": False, "tts": False, "flags": self.flags,
            "timestamp": _iso(self.created_at), "edited_timestamp": _iso(self.edited_at),
        }
        if gateway and self.guild_id is not None:
            d["guild_id"] = str(self.guild_id)
            if self.member is not None:
                d["member"] = self.member
        return d


@dataclass
class _Interaction:
    id: str
    token: str
    message_id: int
    at: float
    response_type: int | None = None
    original_id: int | None = None


@dataclass
class _Session:
    id: str
    intents: int
    shard: list[int]
    seq: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    conn: _Conn | None = None
    alive: bool = True


class _Conn:
    """One gateway websocket; every frame goes through one queue so sends keep their order."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request, zstream: Any) -> None:
        self.ws, self.request, self.zstream = ws, request, zstream
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.session: _Session | None = None
        self.server_closed = False
        self.writer = asyncio.create_task(self._write_loop())

    def send(self, payload: dict[str, Any]) -> None:
        self.queue.put_nowait(payload)

    async def _write_loop(self) -> None:
        while (payload := await self.queue.get()) is not None:
            data = json.dumps(payload)
            try:
                if self.zstream is not None:
                    await self.ws.send_bytes(self.zstream.compress(data.encode()) + self.zstream.flush(zlib.Z_SYNC_FLUSH))
                else:
                    await self.ws.send_str(data)
            except (ConnectionError, RuntimeError):
                return


class FakeDiscord:
    """Loopback fake of Discord's REST API and gateway (aiohttp on 127.0.0.1, random port).

    Point discord.py at it with ``point_discord_py_at(fake.api_base_url, fake.gateway_url)`` and
    ``client.start(fake.token)``. Inspect ``calls``, ``messages``, ``sent()``, ``interaction_responses``;
    drive the bot with ``press()`` and ``send_user_message()``; inject failures with ``down``,
    ``fail_next()``, ``inject()`` and ``disconnect_gateway()``. ``interaction_timeout`` (3.0 s) is the window for the
    first interaction callback; ``privileged_intents`` is what the "developer portal" allows
    (MESSAGE_CONTENT by default; asking for more closes the gateway with 4014).
    """

    def __init__(self, token: str = "TEST.TOKEN", app_id: int = 4242, bot_user_id: int = 4242,
                 guild_id: int = 5000, channel_ids: Iterable[int] = (100, 200, 300),
                 roles: dict[int, str] | None = None) -> None:
        self.token, self.app_id, self.guild_id = token, app_id, guild_id
        self.channel_ids = list(channel_ids)
        self.roles = dict({7001: "approvers"} if roles is None else roles)
        self.bot_user: dict[str, Any] = self._user_obj(bot_user_id, "signoff-test", bot=True)
        self.api_base_url = self.gateway_url = ""
        self.calls: list[Call] = []
        self.messages: dict[int, FakeMessage] = {}
        self.interaction_responses: list[dict[str, Any]] = []
        self.identify_count = self.resume_count = 0
        self.interaction_timeout = 3.0
        self.heartbeat_interval_ms = 41250
        self.privileged_intents = MESSAGE_CONTENT
        self.dm_channels: dict[int, int] = {}  # DM channel id -> recipient user id
        self.gateway_queries: list[dict[str, str]] = []  # query of every accepted gateway connection
        self._users: dict[int, dict[str, Any]] = {bot_user_id: self.bot_user}
        self._interactions: dict[str, _Interaction] = {}
        self._sessions: dict[str, _Session] = {}
        self._conns: set[_Conn] = set()
        self._failures: list[tuple[str, int, float]] = []
        self.faults = Injector()  # inject(): see tests/fakes/faults.py
        self.nonce_window_s = 300.0  # enforce_nonce: a repeated nonce within this returns the first message
        self._nonces: dict[tuple[int, str], tuple[float, int]] = {}
        self._snowflake = 0
        self._down = False
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self._routes: list[tuple[str, re.Pattern[str], Callable[..., Any]]] = [
            (m, re.compile(p + "$"), h) for m, p, h in [
                ("GET", r"/users/@me", lambda c: self.bot_user),
                ("GET", r"/oauth2/applications/@me", self._app_info),
                ("GET", r"/gateway", lambda c: {"url": self.gateway_url}),
                ("GET", r"/gateway/bot", self._gateway_bot),
                ("POST", r"/users/@me/channels", self._create_dm),
                ("GET", r"/channels/(\d+)", lambda c, cid: self._channel_obj(self._channel(cid))),
                ("POST", r"/channels/(\d+)/messages", self._post_message),
                ("GET|PATCH|DELETE", r"/channels/(\d+)/messages/(\d+)", self._channel_message),
                ("POST", r"/interactions/(\d+)/([^/]+)/callback", self._callback),
                ("POST", r"/webhooks/(\d+)/([^/]+)", self._followup),
                ("GET|PATCH|DELETE", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._webhook_message),
            ]
        ]

    # -- lifecycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Serve on 127.0.0.1 (random port); sets ``api_base_url`` and ``gateway_url``."""
        self._down = False
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False, handler_cancellation=True,
                                     shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        port = self._runner.addresses[0][1]
        self.api_base_url = f"http://127.0.0.1:{port}/api/v10"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway"

    async def stop(self) -> None:
        """Close every gateway connection (1001) and shut the server down. Close clients first."""
        self._down = True
        await self._close_conns(1001)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- failure injection -------------------------------------------------------------------------
    @property
    def down(self) -> bool:
        """Outage: REST answers 502 (text/html, like Cloudflare), the gateway refuses the websocket
        upgrade with 502 and open gateway connections are dropped. Set False to recover."""
        return self._down

    @down.setter
    def down(self, value: bool) -> None:
        self._down = value
        if value:
            self._spawn(self._close_conns(None))

    def fail_next(self, path_contains: str, status: int = 429, retry_after: float = 0.1, times: int = 1) -> None:
        """Answer the next ``times`` REST calls whose ``"METHOD /path"`` contains ``path_contains``
        with ``status``. 429 is a real Discord rate limit (JSON ``{message, retry_after, global}``,
        ``Retry-After``/``X-RateLimit-*``/``Via`` headers) that discord.py sleeps out and retries."""
        self._failures.extend([(path_contains, status, retry_after)] * times)

    def inject(self, route_contains: str, fault: Fault, times: int = 1) -> None:
        """Answer the next ``times`` REST calls whose ``"METHOD /path"`` contains ``route_contains`` with
        ``fault`` (a 429 with retry_after, a 5xx, a timeout after or before delivery, a reset, a 401: see
        tests/fakes/faults.py). ``faults.seen`` lists the faults used."""
        self.faults.add(route_contains, fault, times)

    async def disconnect_gateway(self, code: int | None = 4000) -> None:
        """Close every gateway connection with ``code`` (None: drop the TCP connection). Sessions stay
        resumable, so discord.py reconnects and RESUMEs; events dispatched meanwhile are replayed."""
        await self._close_conns(code)

    # -- inspection --------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """True while some identified/resumed session has an open websocket."""
        return any(s.conn is not None and not s.conn.ws.closed for s in self._sessions.values())

    def sent(self, channel_id: int | None = None, include_ephemeral: bool = False) -> list[FakeMessage]:
        """Messages the bot created (channel sends, interaction responses, followups), current state,
        in order; ephemeral ones only with ``include_ephemeral``."""
        return [m for m in self.messages.values()
                if m.author["id"] == self.bot_user["id"] and (channel_id is None or m.channel_id == channel_id)
                and (include_ephemeral or not m.ephemeral)]

    def calls_to(self, method: str, path_contains: str) -> list[Call]:
        return [c for c in self.calls if c.method == method.upper() and path_contains in c.path]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str | None = None) -> None:  # noqa: ASYNC109
        """Wait until ``predicate()`` is truthy, re-checking after every REST call / gateway event and
        every 50 ms (so client-side state works too). AssertionError with the last calls on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(f"{c.method} {c.path} -> {c.status} {c.json}" for c in self.calls[-10:])
                try:
                    desc = what or inspect.getsource(predicate).strip()
                except (OSError, TypeError):
                    desc = repr(predicate)
                raise AssertionError(f"timed out after {timeout}s waiting for: {desc}\n"
                                     f"connected={self.connected}; last calls:\n  {recent or '(none)'}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.05))

    async def wait_for_call(self, method: str, path_contains: str, count: int = 1, timeout: float = 5.0) -> list[Call]:  # noqa: ASYNC109
        """Wait until ``count`` answered calls of ``method`` with ``path_contains`` exist; returns them all."""
        def answered() -> list[Call]:
            return [c for c in self.calls_to(method, path_contains) if c.status is not None]
        await self.wait_for(lambda: len(answered()) >= count, timeout, what=f"{count} x {method} {path_contains}")
        return answered()

    # -- driving the bot ---------------------------------------------------------------------------
    def press(self, message_id: int, custom_id: str, user_id: int, role_ids: Iterable[int] = (),
              username: str = "alice", in_guild: bool | None = None, forged: bool = False) -> str:
        """Dispatch INTERACTION_CREATE (type 3, component_type 2) for a press of the button
        ``custom_id`` on the message as the fake holds it: ``member`` (with ``role_ids``) in a guild
        channel, ``user`` in a DM. ``in_guild`` defaults to the message's channel kind; a mismatch is an
        AssertionError, as is a missing or disabled button unless ``forged`` (a modified client).
        The interaction must be answered within ``interaction_timeout``. Returns the interaction id."""
        msg = self._message(message_id)
        button = next((b for b in msg.buttons if b.get("custom_id") == custom_id), None)
        if not forged and (button is None or button.get("disabled")):
            raise AssertionError(f"message {message_id} has no enabled button {custom_id!r}: {msg.custom_ids}")
        if in_guild is not None and in_guild != (msg.guild_id is not None):
            raise AssertionError(f"message {message_id} is {'not ' if msg.guild_id is None else ''}in a guild")
        user = self._user(user_id, username)
        inter = _Interaction(str(self._next_id()), f"itok{secrets.token_hex(16)}", message_id, time.monotonic())
        self._interactions[inter.id] = inter
        channel = self._channel_obj(msg.channel_id)
        d: dict[str, Any] = {
            "id": inter.id, "application_id": str(self.app_id), "type": 3, "token": inter.token, "version": 1,
            "data": {"custom_id": custom_id, "component_type": 2}, "channel": channel,
            "channel_id": str(msg.channel_id), "message": msg.to_api(), "app_permissions": _PERMISSIONS,
            "locale": "en-US", "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024,
        }
        if msg.guild_id is not None:
            d |= {"guild_id": str(msg.guild_id), "guild_locale": "en-US", "context": 0,
                  "guild": {"id": str(msg.guild_id), "locale": "en-US", "features": []},
                  "authorizing_integration_owners": {"0": str(msg.guild_id)},
                  "member": self._member_obj(user, role_ids) | {"permissions": _PERMISSIONS}}
        else:
            d |= {"user": user, "context": 1, "authorizing_integration_owners": {"0": str(self.guild_id)}}
        self._dispatch("INTERACTION_CREATE", d, required=True)
        return inter.id

    def send_user_message(self, channel_id: int, content: str, user_id: int, username: str = "bob",
                          dm: bool = False, role_ids: Iterable[int] = ()) -> FakeMessage:
        """Dispatch MESSAGE_CREATE from a user in a guild channel or (``dm=True``) the DM channel
        ``channel_id`` (registered for that user if new). Without the MESSAGE_CONTENT intent the
        client gets empty content for guild messages that do not mention the bot, as on Discord."""
        user = self._user(user_id, username)
        if dm:
            self.dm_channels.setdefault(channel_id, user_id)
        elif channel_id not in self.channel_ids:
            raise AssertionError(f"{channel_id} is not a guild channel {self.channel_ids}; pass dm=True")
        msg = FakeMessage(self._next_id(), channel_id, None if dm else self.guild_id, user, content,
                          member=None if dm else self._member_obj(user, role_ids, with_user=False))
        self.messages[msg.id] = msg
        mentioned = re.search(rf"<@!?{self.bot_user['id']}>", content) is not None
        self._dispatch("MESSAGE_CREATE", msg.to_api(gateway=True), intent=DIRECT_MESSAGES if dm else GUILD_MESSAGES,
                       redact=not dm and not mentioned, required=True)
        return msg

    # -- internals: objects ------------------------------------------------------------------------
    def _bump(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _next_id(self) -> int:
        self._snowflake = max(self._snowflake + 1, (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22)
        return self._snowflake

    @staticmethod
    def _user_obj(user_id: int, username: str, bot: bool = False) -> dict[str, Any]:
        return {"id": str(user_id), "username": username, "discriminator": "0", "global_name": None,
                "avatar": None, "bot": bot, "public_flags": 0, "flags": 0}

    def _user(self, user_id: int, username: str) -> dict[str, Any]:
        self._users[user_id] = self._user_obj(user_id, username)
        return self._users[user_id]

    def _member_obj(self, user: dict[str, Any], role_ids: Iterable[int], with_user: bool = True) -> dict[str, Any]:
        m = {"roles": [str(r) for r in role_ids], "joined_at": _iso(time.time() - 86400), "nick": None,
             "avatar": None, "premium_since": None, "deaf": False, "mute": False, "pending": False, "flags": 0}
        return m | ({"user": user} if with_user else {})

    def _channel(self, cid: Any) -> int:
        if int(cid) not in self.channel_ids and int(cid) not in self.dm_channels:
            raise _unknown("Channel", 10003)
        return int(cid)

    def _channel_obj(self, cid: int) -> dict[str, Any]:
        if cid in self.dm_channels:
            uid = self.dm_channels[cid]
            return {"id": str(cid), "type": 1, "last_message_id": None,
                    "recipients": [self._users.get(uid) or self._user_obj(uid, f"user{uid}")]}
        return {"id": str(cid), "type": 0, "guild_id": str(self.guild_id), "name": f"channel-{cid}",
                "position": self.channel_ids.index(cid), "permission_overwrites": [], "parent_id": None,
                "topic": None, "nsfw": False, "last_message_id": None, "rate_limit_per_user": 0}

    def _guild_obj(self) -> dict[str, Any]:
        roles = [{"id": str(self.guild_id), "name": "@everyone", "permissions": _PERMISSIONS, "position": 0}]
        roles += [{"id": str(rid), "name": name, "permissions": "0", "position": i + 1}
                  for i, (rid, name) in enumerate(self.roles.items())]
        for r in roles:
            r |= {"color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None}
        return {"id": str(self.guild_id), "name": "Signoff Test Guild", "owner_id": "1", "icon": None,
                "unavailable": False, "large": False, "member_count": 1, "joined_at": _iso(time.time()),
                "roles": roles, "channels": [self._channel_obj(c) for c in self.channel_ids],
                "members": [self._member_obj(self.bot_user, [])], "threads": [], "presences": [],
                "voice_states": [], "emojis": [], "stickers": [], "features": [], "stage_instances": [],
                "guild_scheduled_events": [], "soundboard_sounds": [], "preferred_locale": "en-US"}

    def _message(self, message_id: Any, rest: bool = False) -> FakeMessage:
        msg = self.messages.get(int(message_id))
        if msg is None or msg.deleted:
            if rest:
                raise _unknown("Message", 10008)
            raise AssertionError(f"no message {message_id}; known: {sorted(self.messages)}")
        return msg

    # -- internals: gateway ------------------------------------------------------------------------
    def _dispatch(self, event: str, data: dict[str, Any], intent: int = 0, redact: bool = False,
                  required: bool = False, only: _Session | None = None) -> None:
        sessions = [only] if only is not None else [s for s in self._sessions.values() if s.alive]
        if required and not sessions:
            raise AssertionError(f"cannot dispatch {event}: no gateway session (has the client connected?)")
        for s in sessions:
            if intent and not s.intents & intent:
                continue
            d = data
            if redact and not s.intents & MESSAGE_CONTENT:
                d = data | {"content": "", "embeds": [], "attachments": [], "components": []}
            s.seq += 1
            s.log.append(payload := {"op": 0, "t": event, "s": s.seq, "d": d})
            if s.conn is not None:
                s.conn.send(payload)
        self._bump()

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self._down:
            return web.Response(status=502, text="502 Bad Gateway", content_type="text/html")
        ws = web.WebSocketResponse(max_msg_size=0, timeout=2.0, compress=False)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        zstream = zlib.compressobj() if request.query.get("compress") == "zlib-stream" else None
        conn = _Conn(ws, request, zstream)
        self._conns.add(conn)
        conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_op(conn, json.loads(msg.data))
        finally:
            self._conns.discard(conn)
            conn.queue.put_nowait(None)
            s = conn.session
            if s is not None and s.conn is conn:
                s.conn = None
                if not conn.server_closed and ws.close_code in (1000, 1001):
                    s.alive = False  # a clean client close ends the session, as on Discord
            with contextlib.suppress(asyncio.CancelledError):
                await conn.writer
            self._bump()
        return ws

    async def _close(self, conn: _Conn, code: int | None, reason: str = "") -> None:
        conn.server_closed = True
        if code is None:
            if conn.request.transport is not None:
                conn.request.transport.abort()
        else:
            await conn.ws.close(code=code, message=reason.encode())

    async def _close_conns(self, code: int | None) -> None:
        await asyncio.gather(*(self._close(c, code) for c in list(self._conns)), return_exceptions=True)
        self._bump()

    async def _on_op(self, conn: _Conn, p: dict[str, Any]) -> None:
        op, d = p.get("op"), p.get("d") or {}
        if op == 1:
            conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(conn, d)
        elif op == 6:
            await self._resume(conn, d)
        elif conn.session is None:
            await self._close(conn, 4003, "Not authenticated.")
        elif op not in (3, 4, 8):
            await self._close(conn, 4001, "Unknown opcode.")

    async def _identify(self, conn: _Conn, d: dict[str, Any]) -> None:
        if conn.session is not None:
            return await self._close(conn, 4005, "Already authenticated.")
        if d.get("token") != self.token:
            return await self._close(conn, 4004, "Authentication failed.")
        intents = d.get("intents")
        if not isinstance(intents, int):
            return await self._close(conn, 4013, "Invalid intent(s).")
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            return await self._close(conn, 4014, "Disallowed intent(s).")
        s = _Session(secrets.token_hex(16), intents, list(d.get("shard") or [0, 1]), conn=conn)
        self._sessions[s.id] = s
        conn.session = s
        self.identify_count += 1
        flags = (1 << 19) if self.privileged_intents & MESSAGE_CONTENT else 0
        self._dispatch("READY", only=s, data={
            "v": 10, "user": self.bot_user, "session_id": s.id, "resume_gateway_url": self.gateway_url,
            "session_type": "normal", "shard": s.shard, "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "application": {"id": str(self.app_id), "flags": flags}, "private_channels": [], "relationships": [],
            "presences": [], "geo_ordered_rtc_regions": [], "guild_join_requests": [], "auth": {}, "user_settings": {},
        })
        self._dispatch("GUILD_CREATE", self._guild_obj(), only=s)

    async def _resume(self, conn: _Conn, d: dict[str, Any]) -> None:
        s = self._sessions.get(d.get("session_id") or "")
        if s is None or not s.alive or d.get("token") != self.token:
            conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        if s.conn is not None and s.conn is not conn:
            await self._close(s.conn, 4000, "Session resumed elsewhere.")
        s.conn, conn.session = conn, s
        for payload in s.log:
            if payload["s"] > (d.get("seq") or 0):
                conn.send(payload)
        self.resume_count += 1
        self._dispatch("RESUMED", {}, only=s)

    # -- internals: REST ---------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        with contextlib.suppress(ValueError):
            if request.content_type == "application/json" and request.can_read_body:
                body = await request.json()
            elif request.content_type == "multipart/form-data":
                form = await request.post()
                body = json.loads(str(form.get("payload_json") or "{}"))
        call = Call(request.method, path, body, time.monotonic(), dict(request.query))
        self.calls.append(call)
        self._bump()
        headers: dict[str, str] = {}
        try:
            if self._down:
                call.status = 502
                return web.Response(status=502, text="<html>502 Bad Gateway</html>", content_type="text/html")
            failure = next((f for f in self._failures if f[0] in f"{call.method} {path}"), None)
            if failure is not None:
                self._failures.remove(failure)
                _, status, retry_after = failure
                if status == 429:
                    headers = {"Retry-After": str(max(1, round(retry_after))), "X-RateLimit-Limit": "5",
                               "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                               "X-RateLimit-Reset-After": f"{retry_after:.3f}", "X-RateLimit-Bucket": "fakebucket",
                               "X-RateLimit-Scope": "user", "Via": "1.1 google"}
                    status, result = 429, {"message": "You are being rate limited.", "retry_after": retry_after,
                                           "global": False}
                else:
                    raise DiscordError(status, 0, f"{status}: Injected failure")
            elif (fault := self.faults.take(f"{call.method} {path}", lambda m, k: m in k)) is not None:
                if fault.kind == "reset":
                    call.status = 0
                    self._bump()
                    reset(request)
                    return web.Response(status=500)
                status, result, headers = await self._fault(call, request, fault)
            else:
                status, result = 200, self._route(call, request)
        except DiscordError as err:
            status, result = err.status, err.body()
        call.status = status if result is not None else 204
        self._bump()
        if result is None:
            return web.Response(status=204, headers=headers)
        # Exactly "application/json": discord.py ignores JSON bodies whose Content-Type has a charset.
        return web.Response(status=status, body=json.dumps(result).encode(),
                            headers={"Content-Type": "application/json"} | headers)

    async def _fault(self, call: Call, request: web.Request, fault: Fault) -> tuple[int, Any, dict[str, str]]:
        """Carry out an injected fault; returns (status, body, headers) when there is an answer."""
        if fault.kind in ("timeout", "timeout_after_delivery"):
            if fault.kind == "timeout_after_delivery":
                self._route(call, request)  # done: the message exists, but the answer never comes
            call.status = 408
            self._bump()
            await hold(request, fault.hold)
            raise DiscordError(504, 0, "504: Gateway Timeout")
        if fault.kind == "rate_limit":
            ra = fault.retry_after
            headers = {"Retry-After": str(max(1, round(ra))), "X-RateLimit-Limit": "5",
                       "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": f"{time.time() + ra:.3f}",
                       "X-RateLimit-Reset-After": f"{ra:.3f}", "X-RateLimit-Bucket": "fakebucket",
                       "X-RateLimit-Scope": "user", "Via": "1.1 google"}
            return 429, {"message": "You are being rate limited.", "retry_after": ra, "global": False}, headers
        if fault.kind == "unauthorized":
            raise DiscordError(401, 0, "401: Unauthorized")
        raise DiscordError(fault.status, 0, f"{fault.status}: Injected failure")

    def _route(self, call: Call, request: web.Request) -> Any:
        if not call.path.startswith(("/interactions/", "/webhooks/")):
            if request.headers.get("Authorization") != f"Bot {self.token}":
                raise DiscordError(401, 0, "401: Unauthorized")
        allowed = False
        for methods, pattern, handler in self._routes:
            m = pattern.match(call.path)
            if m is None:
                continue
            if call.method in methods.split("|"):
                return handler(call, *m.groups())
            allowed = True
        raise DiscordError(405, 0, "405: Method Not Allowed") if allowed else DiscordError(404, 0, "404: Not Found")

    def _app_info(self, call: Call) -> dict[str, Any]:
        return {"id": str(self.app_id), "name": "Signoff Test", "icon": None, "description": "", "summary": "",
                "bot_public": False, "bot_require_code_grant": False, "verify_key": "0" * 64, "team": None,
                "owner": self._user_obj(1, "owner"), "flags": (1 << 19) if self.privileged_intents & MESSAGE_CONTENT else 0,
                "interactions_endpoint_url": None, "rpc_origins": [], "tags": [], "redirect_uris": [],
                "bot": self.bot_user}

    def _gateway_bot(self, call: Call) -> dict[str, Any]:
        return {"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 1000 - self.identify_count, "reset_after": 86400000, "max_concurrency": 1}}

    def _create_dm(self, call: Call) -> dict[str, Any]:
        uid = int((call.json or {}).get("recipient_id") or 0)
        if uid not in self._users:
            self._user(uid, f"user{uid}")
        cid = next((c for c, u in self.dm_channels.items() if u == uid), None) or self._next_id()
        self.dm_channels[cid] = uid
        return self._channel_obj(cid)

    def _create(self, channel_id: int, p: dict[str, Any], interaction_id: str | None = None,
                extra_flags: int = 0) -> FakeMessage:
        check_message_body(p, creating=not extra_flags & LOADING)
        msg = FakeMessage(self._next_id(), channel_id, None if channel_id in self.dm_channels else self.guild_id,
                          self.bot_user, str(p.get("content") or ""), list(p.get("embeds") or []),
                          list(p.get("components") or []), int(p.get("flags") or 0) | extra_flags,
                          member=self._member_obj(self.bot_user, [], with_user=False), interaction_id=interaction_id)
        self.messages[msg.id] = msg
        if not msg.ephemeral:
            self._dispatch("MESSAGE_CREATE", msg.to_api(gateway=True),
                           intent=GUILD_MESSAGES if msg.guild_id else DIRECT_MESSAGES)
        return msg

    def _edit(self, msg: FakeMessage, p: dict[str, Any]) -> dict[str, Any]:
        check_message_body({"flags": msg.flags} | p, creating=False)
        msg.apply(p)
        if msg.flags & LOADING:
            msg.flags &= ~LOADING
        if not msg.ephemeral:
            self._dispatch("MESSAGE_UPDATE", msg.to_api(gateway=True),
                           intent=GUILD_MESSAGES if msg.guild_id else DIRECT_MESSAGES)
        return msg.to_api()

    def _post_message(self, call: Call, cid: str) -> dict[str, Any]:
        """Create a message. With ``enforce_nonce`` a nonce seen in this channel within
        ``nonce_window_s`` returns the message it created instead of a new one (as Discord does)."""
        channel_id, p = self._channel(cid), call.json or {}
        nonce = p.get("nonce")
        key = (channel_id, str(nonce))
        if nonce is not None and p.get("enforce_nonce"):
            seen = self._nonces.get(key)
            if seen is not None and time.monotonic() - seen[0] < self.nonce_window_s and seen[1] in self.messages:
                return self.messages[seen[1]].to_api()
        msg = self._create(channel_id, p)
        if nonce is not None:
            self._nonces[key] = (time.monotonic(), msg.id)
        return msg.to_api() | ({"nonce": str(nonce)} if nonce is not None else {})

    def _channel_message(self, call: Call, cid: str, mid: str) -> Any:
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel_id != self._channel(cid) or msg.ephemeral:
            raise _unknown("Message", 10008)
        if call.method == "GET":
            return msg.to_api()
        if msg.author["id"] != self.bot_user["id"] and call.method == "PATCH":
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if call.method == "PATCH":
            return self._edit(msg, call.json or {})
        return self._delete(msg)

    def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            self._dispatch("MESSAGE_DELETE", {"id": str(msg.id), "channel_id": str(msg.channel_id)}
                           | ({"guild_id": str(msg.guild_id)} if msg.guild_id else {}),
                           intent=GUILD_MESSAGES if msg.guild_id else DIRECT_MESSAGES)
        return None

    def _callback(self, call: Call, iid: str, token: str) -> dict[str, Any] | None:
        inter = self._interactions.get(iid)
        if inter is None or inter.token != token:
            raise _unknown("interaction", 10062)
        if inter.response_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - inter.at > self.interaction_timeout:
            raise _unknown("interaction", 10062)
        p = call.json or {}
        rtype, data = p.get("type"), p.get("data") or {}
        target = self._message(inter.message_id, rest=True)
        msg: FakeMessage | None = None
        if rtype == 4:
            msg = self._create(target.channel_id, data, iid)
        elif rtype == 5:
            msg = self._create(target.channel_id, {"flags": int(data.get("flags") or 0)}, iid, LOADING)
        elif rtype == 7:
            self._edit(target, data)
            msg = target
        elif rtype not in (6, 9):
            raise _form_error(["type"], "BASE_TYPE_CHOICES", f"Value must be one of (4, 5, 6, 7, 9); got {rtype}.")
        inter.response_type, inter.original_id = rtype, (msg.id if rtype in (4, 5) else target.id)
        self.interaction_responses.append({"interaction_id": iid, "type": rtype, "data": data, "at": time.monotonic()})
        if call.query.get("with_response") not in ("1", "true", "True"):
            return None
        resource: dict[str, Any] = {"type": rtype} | ({"message": msg.to_api()} if msg is not None else {})
        return {"interaction": {"id": iid, "type": 3, "response_message_id": str(msg.id) if msg else None,
                                "response_message_loading": rtype == 5,
                                "response_message_ephemeral": bool(msg and msg.ephemeral)}, "resource": resource}

    def _token_interaction(self, app_id: str, token: str) -> _Interaction:
        inter = next((i for i in self._interactions.values() if i.token == token), None)
        if int(app_id) != self.app_id or inter is None or inter.response_type is None:
            raise _unknown("Webhook", 10015)  # the token works only after the interaction was acknowledged
        if time.monotonic() - inter.at > 15 * 60:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return inter

    def _followup(self, call: Call, app_id: str, token: str) -> dict[str, Any] | None:
        inter = self._token_interaction(app_id, token)
        original = self.messages.get(inter.original_id or 0)
        if inter.response_type == 5 and original is not None and original.flags & LOADING:
            return self._edit(original, call.json or {})  # the first followup replaces the "thinking" message
        msg = self._create(self._message(inter.message_id, rest=True).channel_id, call.json or {}, inter.id)
        return msg.to_api() if call.query.get("wait") in ("1", "true", "True") else None

    def _webhook_message(self, call: Call, app_id: str, token: str, mid: str) -> Any:
        inter = self._token_interaction(app_id, token)
        msg = self.messages.get(inter.original_id or 0) if mid == "@original" else self.messages.get(int(mid))
        if msg is None or msg.deleted or (mid != "@original" and msg.interaction_id != inter.id):
            raise _unknown("Message", 10008)
        if call.method == "GET":
            return msg.to_api()
        return self._edit(msg, call.json or {}) if call.method == "PATCH" else self._delete(msg)
