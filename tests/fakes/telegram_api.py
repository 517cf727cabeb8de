"""A loopback fake of the Telegram Bot API, for driving the real python-telegram-bot in tests.

It serves ``POST /bot<token>/<method>`` on 127.0.0.1 (random port) and answers like Telegram does
for the methods signoff uses, including its errors: malformed HTML, oversized callback data,
"message is not modified", flood waits (injected) and outages (``down``).

    async with FakeTelegram() as tg:
        app = ApplicationBuilder().token(tg.token).base_url(tg.base_url).build()
        ...
        qid = tg.press(chat_id, message_id, "approve:1", user_id=42)
        await tg.wait_for_call("answerCallbackQuery")
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .faults import Fault, Injector, hold, reset

# Parameters whose value is a plain string; every other form value is JSON-decoded if it parses.
_STRING_PARAMS = frozenset({
    "text", "parse_mode", "callback_query_id", "url", "caption", "inline_message_id",
    "business_connection_id", "language_code", "description", "short_description", "name",
    "title", "secret_token", "ip_address", "emoji", "message_effect_id", "query",
})
_HTML_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "tg-spoiler": "spoiler", "span": "spoiler", "a": "text_link", "code": "code", "pre": "pre",
    "blockquote": "blockquote", "tg-emoji": "custom_emoji",
}
_ENTITY_RE = re.compile(r"&(?:#([0-9]+)|#[xX]([0-9a-fA-F]+)|(lt|gt|amp|quot));")
_TAG_RE = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z_-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'>]+))?)*)\s*>"
)
_ATTR_RE = re.compile(r"([a-zA-Z_-]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+)))?")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden: bot was blocked by the user",
    404: "Not Found", 409: "Conflict: terminated by other getUpdates request; make sure that only"
    " one bot instance is running", 500: "Internal Server Error", 502: "Bad Gateway",
}


class ApiError(Exception):
    """An error answer ``{"ok": false, "error_code": status, "description": ...}``."""

    def __init__(self, status: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.status, self.description, self.retry_after = status, description, retry_after

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error_code": self.status, "description": self.description}
        return body | ({"parameters": {"retry_after": self.retry_after}} if self.retry_after is not None else {})


def _bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


def _entity_char(m: re.Match[str]) -> str | None:
    dec, hexa, named = m.groups()
    if named:
        return _NAMED[named]
    code = int(dec) if dec else int(hexa, 16)
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else None


def parse_html(text: str) -> tuple[str, list[dict[str, Any]]]:
    """Parse Telegram-flavoured HTML into (plain text, entities with UTF-16 offsets).

    Stricter than Telegram about ``&``: a bare ``&`` that does not start ``&lt;``, ``&gt;``,
    ``&amp;``, ``&quot;`` or a numeric entity is refused (it is always a missing escape).
    Raises ApiError 400 "can't parse entities: ..." on malformed input.
    """

    def fail(why: str, pos: int) -> ApiError:
        return _bad(f"can't parse entities: {why} at byte offset {len(text[:pos].encode())}")

    out: list[str] = []
    u16 = 0
    stack: list[tuple[str, dict[str, str], int]] = []
    entities: list[dict[str, Any]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "<":
            m = _TAG_RE.match(text, i)
            if not m:
                raise fail('Unexpected character "<" (escape it as &lt;)', i)
            closing, name, raw_attrs = m.group(1), m.group(2).lower(), m.group(3)
            attrs = {a.lower(): _ENTITY_RE.sub(lambda e: _entity_char(e) or e.group(0), "".join(vals))
                     for a, *vals in _ATTR_RE.findall(raw_attrs)}
            if name not in _HTML_TAGS or (name == "span" and not closing and attrs.get("class") != "tg-spoiler"):
                raise fail(f'Unsupported {"end" if closing else "start"} tag "{name}"', i)
            if not closing:
                stack.append((name, attrs, u16))
            elif not stack:
                raise fail(f'Unexpected end tag "{name}"', i)
            else:
                open_name, open_attrs, start = stack.pop()
                if open_name != name:
                    raise fail(f'Unmatched end tag, expected "</{open_name}>", found "</{name}>"', i)
                if u16 > start:
                    ent: dict[str, Any] = {"type": _HTML_TAGS[name], "offset": start, "length": u16 - start}
                    if name == "a":
                        ent["url"] = open_attrs.get("href", "")
                    elif name == "blockquote" and "expandable" in open_attrs:
                        ent["type"] = "expandable_blockquote"
                    elif name == "tg-emoji":
                        ent["custom_emoji_id"] = open_attrs.get("emoji-id", "")
                    entities.append(ent)
            i = m.end()
            continue
        if c == "&":
            m = _ENTITY_RE.match(text, i)
            ch = _entity_char(m) if m else None
            if ch is None or m is None:
                raise fail('Character "&" does not begin an HTML entity (escape it as &amp;)', i)
            i = m.end()
        else:
            ch = c
            i += 1
        out.append(ch)
        u16 += 2 if ord(ch) > 0xFFFF else 1
    if stack:
        raise _bad(f'can\'t parse entities: Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _check_markup(markup: Any) -> dict[str, Any] | None:
    """Validate reply_markup like Telegram; returns it (None means no keyboard)."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise _bad("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return markup
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise _bad("can't parse inline keyboard button: field \"inline_keyboard\" must be an Array of Arrays")
    for button in itertools.chain.from_iterable(rows):
        if not isinstance(button, dict) or not button.get("text"):
            raise _bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
        if "callback_data" in button:
            data = button["callback_data"]
            if not isinstance(data, str) or not 1 <= len(data.encode()) <= 64:
                raise _bad("BUTTON_DATA_INVALID")
    return markup


@dataclass
class Call:
    """One API request: method name as sent, decoded params, ``time.monotonic()`` at arrival.

    ``status`` is the HTTP status answered (None while in flight, 499 if the client went away).
    """

    method: str
    params: dict[str, Any]
    at: float
    status: int | None = None


@dataclass
class FakeMessage:
    """Current state of one message in a chat, as the fake's Telegram holds it.

    ``text`` is the plain text after entity parsing (what a user sees); ``raw_text`` is what the bot
    sent. ``history`` holds earlier states (dicts of text/raw_text/parse_mode/reply_markup), oldest first.
    """

    chat_id: int
    message_id: int
    text: str
    raw_text: str
    parse_mode: str | None
    reply_markup: dict[str, Any] | None
    entities: list[dict[str, Any]]
    chat_type: str = "private"
    from_user: dict[str, Any] = field(default_factory=dict)
    date: int = field(default_factory=lambda: int(time.time()))
    edit_date: int | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def callback_data(self) -> list[str]:
        """Every callback_data on the current inline keyboard."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [b["callback_data"] for b in itertools.chain.from_iterable(rows) if "callback_data" in b]

    def to_api(self) -> dict[str, Any]:
        """The Message object as the Bot API serialises it."""
        chat: dict[str, Any] = {"id": self.chat_id, "type": self.chat_type}
        chat.update({"first_name": "User"} if self.chat_type == "private" else {"title": f"Chat {self.chat_id}"})
        msg: dict[str, Any] = {"message_id": self.message_id, "date": self.date, "chat": chat,
                               "from": self.from_user, "text": self.text}
        optional = {"entities": self.entities or None, "reply_markup": self.reply_markup, "edit_date": self.edit_date}
        return msg | {k: v for k, v in optional.items() if v is not None}


class FakeTelegram:
    """Loopback fake of the Telegram Bot API (aiohttp on 127.0.0.1, random port).

    Point python-telegram-bot at it with ``ApplicationBuilder().token(fake.token).base_url(fake.base_url)``.
    Inspect ``calls``, ``messages``, ``sent()``, ``answers``; drive the bot with ``press()`` and
    ``send_user_message()``; inject failures with ``down``, ``fail_next()`` and ``inject()``.
    """

    def __init__(self, token: str = "123:TEST", bot_id: int = 999, bot_username: str = "signoff_test_bot") -> None:
        self.token = token
        self.bot_user: dict[str, Any] = {"id": bot_id, "is_bot": True, "first_name": "Signoff Test",
                                         "username": bot_username}
        self.base_url = ""
        self.calls: list[Call] = []
        self.messages: dict[tuple[int, int], FakeMessage] = {}
        self.answers: list[dict[str, Any]] = []
        self.commands: list[dict[str, Any]] = []
        self._down = False
        self.forbidden_chats: set[int] = set()  # sendMessage there -> 403 "bot was blocked by the user"
        self._sent: list[FakeMessage] = []
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._open_queries: set[str] = set()
        self._next_mid: dict[int, int] = {}
        self._chat_types: dict[int, str] = {}
        self._failures: list[tuple[str, ApiError]] = []
        self.faults = Injector()  # inject(): see tests/fakes/faults.py
        self._poll_generation = 0
        self._changed = asyncio.Event()
        self._stopping = False
        self._runner: web.AppRunner | None = None
        self._methods: dict[str, Callable[[dict[str, Any]], Any]] = {
            "getme": lambda p: self.bot_user | {"can_join_groups": True, "can_read_all_group_messages": False,
                                                "supports_inline_queries": False},
            "deletewebhook": lambda p: True, "setmycommands": self._set_my_commands,
            "getmycommands": lambda p: self.commands, "close": lambda p: True, "logout": lambda p: True,
            "sendmessage": self._send_message, "editmessagetext": self._edit_message_text,
            "editmessagereplymarkup": self._edit_reply_markup, "deletemessage": self._delete_message,
            "answercallbackquery": self._answer_callback_query, "getchat": self._get_chat,
        }

    # -- lifecycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start serving on 127.0.0.1 with a random port; sets ``base_url``."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._stopping = False
        self._runner = web.AppRunner(app, handle_signals=False, handler_cancellation=True,
                                     shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}/bot"

    async def stop(self) -> None:
        """Release pending long polls (they answer ``[]`` at once) and shut the server down."""
        self._stopping = True
        self._bump()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def down(self) -> bool:
        """While True every request (the open long poll included) answers 502, like an outage."""
        return self._down

    @down.setter
    def down(self, value: bool) -> None:
        self._down = value
        self._bump()

    # -- inspection --------------------------------------------------------------------------------
    def sent(self, chat_id: int | None = None) -> list[FakeMessage]:
        """Messages created by sendMessage, in order (their current state), optionally for one chat."""
        return [m for m in self._sent if chat_id is None or m.chat_id == chat_id]

    def calls_to(self, method: str) -> list[Call]:
        """Calls of one method (case-insensitive), in order."""
        return [c for c in self.calls if c.method.lower() == method.lower()]

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0, what: str | None = None) -> None:  # noqa: ASYNC109
        """Wait until ``predicate()`` is true, re-checking after every API call and enqueued update.

        Raises AssertionError naming the predicate (or ``what``) and the last calls on timeout.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(f"{c.method} -> {c.status} {c.params}" for c in self.calls[-10:]) or "(none)"
                try:
                    desc = what or inspect.getsource(predicate).strip()
                except (OSError, TypeError):
                    desc = repr(predicate)
                raise AssertionError(f"timed out after {timeout}s waiting for: {desc}\n"
                                     f"{len(self._updates)} update(s) not fetched; last calls:\n  {recent}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def wait_for_call(self, method: str, count: int = 1, timeout: float = 5.0) -> list[Call]:  # noqa: ASYNC109
        """Wait until ``method`` (case-insensitive) has been called ``count`` times; returns all its calls.

        Non-polling methods are handled synchronously, so their effects are visible on return.
        """
        await self.wait_for(lambda: len(self.calls_to(method)) >= count, timeout,
                            what=f"{count} call(s) to {method}")
        return self.calls_to(method)

    # -- driving the bot ---------------------------------------------------------------------------
    def press(self, chat_id: int, message_id: int, data: str, user_id: int,
              username: str = "alice", first_name: str = "Alice") -> str:
        """Enqueue a callback_query as if the user pressed the button carrying ``data``.

        The update's ``message`` is the current copy of the message, keyboard included. Raises
        AssertionError if the message does not exist or has no such button. Returns the query id.
        """
        msg = self._message(chat_id, message_id)
        if data not in msg.callback_data:
            raise AssertionError(f"message {chat_id}/{message_id} has no button {data!r}: {msg.callback_data}")
        return self.press_forged(chat_id, message_id, data, user_id, username, first_name)

    def press_forged(self, chat_id: int, message_id: int, data: str, user_id: int,
                     username: str = "alice", first_name: str = "Alice") -> str:
        """Like press(), but ``data`` need not be on the keyboard (a modified client). Returns the query id."""
        msg = self._message(chat_id, message_id)
        qid = f"{next(self._query_ids)}{message_id:06d}"
        self._open_queries.add(qid)
        user = {"id": user_id, "is_bot": False, "first_name": first_name, "username": username}
        self._enqueue({"callback_query": {"id": qid, "from": user, "message": msg.to_api(),
                                          "chat_instance": str(-abs(chat_id)), "data": data}})
        return qid

    def send_user_message(self, chat_id: int, text: str, user_id: int, chat_type: str = "private",
                          username: str = "bob", first_name: str = "Bob") -> FakeMessage:
        """Enqueue a message update from a user (``chat_type``: private, group, supergroup)."""
        user = {"id": user_id, "is_bot": False, "first_name": first_name, "username": username}
        self._chat_types[chat_id] = chat_type
        msg = FakeMessage(chat_id, self._new_mid(chat_id), text, text, None, None, [], chat_type, user)
        self.messages[(chat_id, msg.message_id)] = msg
        self._enqueue({"message": msg.to_api()})
        return msg

    def fail_next(self, method: str, status: int = 429, retry_after: int | None = 1,
                  description: str | None = None, times: int = 1) -> None:
        """Answer the next ``times`` calls of ``method`` with an error (``"*"`` matches any method).

        ``retry_after`` is sent as ``parameters.retry_after`` for 429 answers only (PTB raises
        RetryAfter whenever it is present). ``description`` defaults to Telegram's wording.
        """
        if description is None:
            description = (f"Too Many Requests: retry after {retry_after}" if status == 429
                           else _DEFAULT_DESCRIPTIONS.get(status, "Error"))
        err = ApiError(status, description, retry_after if status == 429 else None)
        self._failures.extend([(method.lower(), err)] * times)

    def inject(self, method: str, fault: Fault, times: int = 1) -> None:
        """Answer the next ``times`` calls of ``method`` (case-insensitive; ``"*"``: any) with ``fault``
        (a 429 with retry_after, a 5xx, a timeout after or before delivery, a reset, a 401: see
        tests/fakes/faults.py). ``faults.seen`` lists the faults used."""
        self.faults.add(method.lower(), fault, times)

    # -- internals ---------------------------------------------------------------------------------
    def _bump(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _enqueue(self, update: dict[str, Any]) -> None:
        self._updates.append({"update_id": next(self._update_ids), **update})
        self._bump()

    def _new_mid(self, chat_id: int) -> int:
        self._next_mid[chat_id] = self._next_mid.get(chat_id, 0) + 1
        return self._next_mid[chat_id]

    def _message(self, chat_id: Any, message_id: Any) -> FakeMessage:
        msg = self.messages.get((chat_id, message_id))
        if msg is None:
            raise AssertionError(f"no message {chat_id}/{message_id}; known: {sorted(self.messages)}")
        return msg

    @staticmethod
    async def _read_params(request: web.Request) -> dict[str, Any]:
        raw: dict[str, Any] = dict(request.query)
        ctype = request.content_type
        if ctype == "application/json":
            body = await request.json() if request.can_read_body else {}
            raw.update(body if isinstance(body, dict) else {})
        elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            for k, v in (await request.post()).items():
                raw[k] = v if isinstance(v, str) else f"<file {getattr(v, 'filename', '?')}>"
        params: dict[str, Any] = {}
        for k, v in raw.items():
            if isinstance(v, str) and k not in _STRING_PARAMS:
                with contextlib.suppress(ValueError):
                    v = json.loads(v)
            params[k] = v
        return params

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        call = Call(method, {}, time.monotonic())
        with contextlib.suppress(ValueError):  # undecodable body: record the call without params
            call.params = await self._read_params(request)
        self.calls.append(call)
        self._bump()
        try:
            if self.down:
                raise ApiError(502, "Bad Gateway")
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            failure = next((f for f in self._failures if f[0] in (method.lower(), "*")), None)
            if failure is not None:
                self._failures.remove(failure)
                raise failure[1]
            fault = self.faults.take(method.lower(), lambda m, k: m in (k, "*"))
            if fault is not None and fault.kind == "reset":
                call.status = 0
                self._bump()
                reset(request)
                return web.Response(status=500)
            if fault is not None and fault.kind == "timeout":
                call.status = 408
                await hold(request, fault.hold)
                raise ApiError(504, "Gateway Timeout")
            if fault is not None and fault.kind == "rate_limit":
                wait = max(1, math.ceil(fault.retry_after))  # Telegram sends whole seconds
                raise ApiError(429, f"Too Many Requests: retry after {wait}", wait)
            if fault is not None and fault.kind == "server_error":
                raise ApiError(fault.status, _DEFAULT_DESCRIPTIONS.get(fault.status, "Internal Server Error"))
            if fault is not None and fault.kind == "unauthorized":
                raise ApiError(401, "Unauthorized")
            if method.lower() == "getupdates":
                result = await self._get_updates(call.params)
            elif (handler := self._methods.get(method.lower())) is not None:
                result = handler(call.params)
            else:
                raise ApiError(404, "Not Found")
            if fault is not None:  # timeout_after_delivery: done, but the answer never comes
                call.status = 408
                self._bump()
                await hold(request, fault.hold)
                raise ApiError(504, "Gateway Timeout")
            status, body = 200, {"ok": True, "result": result}
        except ApiError as err:
            status, body = err.status, err.body()
        except asyncio.CancelledError:
            call.status = 499
            self._bump()
            raise
        call.status = status
        self._bump()
        return web.json_response(body, status=status)

    async def _get_updates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        offset, limit = int(p.get("offset") or 0), int(p.get("limit") or 100)
        timeout = float(p.get("timeout") or 0)
        self._poll_generation += 1
        generation = self._poll_generation
        self._bump()  # a newer getUpdates terminates an older one with 409, as on Telegram
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self._stopping:
            if self._down:  # an outage cuts the open long poll too, as a real network failure would
                raise ApiError(502, "Bad Gateway")
            if generation != self._poll_generation:
                raise ApiError(409, _DEFAULT_DESCRIPTIONS[409])
            if self._updates:
                return self._updates[:limit]
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        return []

    def _text_and_entities(self, p: dict[str, Any]) -> tuple[str, str, list[dict[str, Any]]]:
        raw = p.get("text")
        if raw is None or raw == "":
            raise _bad("message text is empty")
        raw = str(raw)
        mode = (p.get("parse_mode") or "").lower()
        plain, entities = parse_html(raw) if mode == "html" else (raw, list(p.get("entities") or []))
        if not plain.strip():
            raise _bad("message text is empty")
        if len(plain) > 4096:
            raise _bad("message is too long")
        return raw, plain, entities

    def _send_message(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id = p.get("chat_id")
        if chat_id in (None, ""):
            raise _bad("chat_id is empty")
        if not isinstance(chat_id, int):
            raise _bad("chat not found")
        if chat_id in self.forbidden_chats:
            raise ApiError(403, _DEFAULT_DESCRIPTIONS[403])
        raw, plain, entities = self._text_and_entities(p)
        markup = _check_markup(p.get("reply_markup"))
        msg = FakeMessage(chat_id, self._new_mid(chat_id), plain, raw, p.get("parse_mode"), markup, entities,
                          self._chat_type(chat_id), self.bot_user)
        self.messages[(chat_id, msg.message_id)] = msg
        self._sent.append(msg)
        return msg.to_api()

    def _editable(self, p: dict[str, Any]) -> FakeMessage:
        if "inline_message_id" in p:
            raise _bad("inline messages are not supported by the fake")
        msg = self.messages.get((p.get("chat_id"), p.get("message_id")))
        if msg is None:
            raise _bad("message to edit not found")
        if msg.from_user.get("id") != self.bot_user["id"]:
            raise _bad("message can't be edited")
        return msg

    def _apply_edit(self, msg: FakeMessage, raw: str, plain: str, mode: str | None,
                    entities: list[dict[str, Any]], markup: dict[str, Any] | None) -> dict[str, Any]:
        if (plain, entities, markup) == (msg.text, msg.entities, msg.reply_markup):
            raise _bad("message is not modified: specified new message content and reply markup are exactly"
                       " the same as a current content and reply markup of the message")
        msg.history.append({"text": msg.text, "raw_text": msg.raw_text, "parse_mode": msg.parse_mode,
                            "reply_markup": msg.reply_markup})
        msg.text, msg.raw_text, msg.parse_mode, msg.entities, msg.reply_markup = plain, raw, mode, entities, markup
        msg.edit_date = int(time.time())
        return msg.to_api()

    def _edit_message_text(self, p: dict[str, Any]) -> dict[str, Any]:
        msg = self._editable(p)
        raw, plain, entities = self._text_and_entities(p)
        # Like Telegram: an edit without reply_markup removes the inline keyboard.
        return self._apply_edit(msg, raw, plain, p.get("parse_mode"), entities, _check_markup(p.get("reply_markup")))

    def _edit_reply_markup(self, p: dict[str, Any]) -> dict[str, Any]:
        msg = self._editable(p)
        markup = _check_markup(p.get("reply_markup"))
        return self._apply_edit(msg, msg.raw_text, msg.text, msg.parse_mode, msg.entities, markup)

    def _delete_message(self, p: dict[str, Any]) -> bool:
        msg = self.messages.pop((p.get("chat_id"), p.get("message_id")), None)
        if msg is None:
            raise _bad("message to delete not found")
        msg.deleted = True
        return True

    def _answer_callback_query(self, p: dict[str, Any]) -> bool:
        qid = str(p.get("callback_query_id", ""))
        if qid not in self._open_queries:
            raise _bad("query is too old and response timeout expired or query ID is invalid")
        if len(str(p.get("text") or "")) > 200:
            raise _bad("MESSAGE_TOO_LONG")
        self._open_queries.discard(qid)
        self.answers.append(p)
        return True

    def _chat_type(self, chat_id: int) -> str:
        return self._chat_types.get(chat_id, "private" if chat_id > 0 else "supergroup")

    def _get_chat(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id = p.get("chat_id")
        if not isinstance(chat_id, int):
            raise _bad("chat not found")
        chat_type = self._chat_type(chat_id)
        name = {"first_name": "User"} if chat_type == "private" else {"title": f"Chat {chat_id}"}
        return {"id": chat_id, "type": chat_type, "accent_color_id": 0, "max_reaction_count": 11, **name}

    def _set_my_commands(self, p: dict[str, Any]) -> bool:
        commands = p.get("commands")
        if not isinstance(commands, list) or not all(
            isinstance(c, dict) and c.get("command") and c.get("description") for c in commands
        ):
            raise _bad("can't parse commands JSON object")
        self.commands = commands
        return True
