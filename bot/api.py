"""The local HTTP API (HTTP/1.1 + JSON over a Unix domain socket), ``shared/spec/interfaces.md``.

Every answer is JSON; every error is ``{"error": {"code", "message"}}``. Callers are identified by the
socket's peer credentials; only terminal approvers may decide ("Who may decide").
"""

from __future__ import annotations

import asyncio
import errno
import grp
import json
import logging
import os
import pwd
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from core.broker import Broker, Requester
from core.crisis import Resource
from core.crisis_desk import Origin
from core.errors import NotAllowed, NotFound, SignoffError
from core.models import Actor, Approval, ApprovalRequest, DecidedVia, Status, valid_unicode
from core.tiers import Tier

log = logging.getLogger("signoff.api")

MAX_BODY_BYTES = 64 * 1024
MAX_WAIT_SECONDS = 3600.0
#: ``GET /v1/approvals`` pages: ``limit`` defaults to this many approvals, and may be at most the second
DEFAULT_PAGE = 100
MAX_PAGE = 1000
#: the same warning (refused connections, accept() out of file descriptors, malformed HTTP) is logged at
#: most once per this many seconds, with the count since the last line
LOG_EVERY_S = 10.0


@dataclass(frozen=True)
class ServerLimits:
    """How long and how many connections the API serves (``server.*`` in the config).

    Args:
        header_timeout: seconds a connection may take to send a request's line and headers, counted from
            its opening or from the end of its previous answer (idle keep-alive connections close then too).
        body_timeout: seconds a request may take to send its body once its headers arrived (408 after).
        max_connections: open connections served at once; one more is answered 503 at once and closed.
        lingering_s: seconds an unread body is drained after an answer before the connection closes.
    """

    header_timeout: float = 20.0
    body_timeout: float = 30.0
    max_connections: int = 1000
    lingering_s: float = 2.0


def peer_credentials(sock: socket.socket | None) -> Requester:
    """The (uid, pid) of the process at the other end of a Unix socket (Linux ``SO_PEERCRED``)."""
    if sock is None or sock.family != socket.AF_UNIX or not hasattr(socket, "SO_PEERCRED"):
        return Requester()
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", raw)
    return Requester(uid=uid, pid=pid)


def unix_user(uid: int) -> str:
    """The login name of ``uid``, or the number as text when the user is unknown."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


class CrisisReport(BaseModel):
    """``POST /v1/crisis`` body: what the person said, and who / where (all strings)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(min_length=1, max_length=32 * 1024)
    agent: str | None = Field(default=None, max_length=200)
    session: str | None = Field(default=None, max_length=200)
    user: str | None = Field(default=None, max_length=200)

    _unicode = field_validator("text", "agent", "session", "user")(classmethod(lambda cls, v: valid_unicode(v)))


class Decision(BaseModel):
    """``POST /v1/approvals/{id}/decision`` body."""

    model_config = ConfigDict(extra="forbid", strict=True)

    decision: Literal["approve", "deny"]
    note: str | None = Field(default=None, max_length=4096)

    _unicode = field_validator("note")(classmethod(lambda cls, v: valid_unicode(v)))


def _approval_answer() -> type[BaseModel]:
    """The model of ``Approval.to_api()`` (interfaces.md "An approval"), derived from core's
    :class:`~core.models.Approval` so that a field added there is in the OpenAPI document too. Written here is
    only what ``to_api()`` changes: ``tier`` as its name plus ``tier_level``, and ``resources`` left out
    unless a crisis (so not required); every other field is always there (required, possibly null)."""
    fields: dict[str, Any] = {name: (f.annotation, ...) for name, f in Approval.model_fields.items()}
    fields.update(
        tier=(Literal[tuple(t.name for t in Tier)], ...),
        tier_level=(int, Field(ge=int(min(Tier)), le=int(max(Tier)))),
        escalations=(int, Field(ge=0)),
        resources=(list[Resource] | None, Field(default=None, description="crisis only")),
        requester_uid=(int | None, Field(description="the asking process's uid (socket peer credentials)")),
        requester_pid=(int | None, Field(description="the asking process's pid (socket peer credentials)")),
    )
    doc = "An approval as every route answers it (``Approval.to_api()``; interfaces.md \"An approval\")."
    return create_model("ApprovalAnswer", __config__=ConfigDict(extra="forbid"), __doc__=doc, **fields)


ApprovalAnswer = _approval_answer()


class ApprovalList(BaseModel):
    """``GET /v1/approvals``: newest first; ``next`` is the ``before`` of the next page (null: last page)."""

    model_config = ConfigDict(extra="forbid")

    approvals: list[ApprovalAnswer]
    next: str | None = None


class CrisisAlertAnswer(BaseModel):
    """A crisis alert (``POST /v1/crisis``, ``POST /v1/crisis/{id}/ack``)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    status: Literal["crisis"]
    category: str | None
    created_at: datetime
    acknowledged_by: str | None
    acknowledged_by_name: str | None
    acknowledged_at: datetime | None
    realerts: int = Field(ge=0)
    resources: list[Resource]


class Health(BaseModel):
    """``GET /v1/health``."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["ok"]
    version: str
    channels: dict[str, Literal["up", "down"]]


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="stable, machine-readable: invalid_request, not_found, already_decided, …")
    message: str = Field(description="for people: names the field or the reason")
    approval: dict[str, Any] | None = Field(
        default=None, description="already_decided only: the approval as it is now (status, decided_by, …)")
    alert: dict[str, Any] | None = Field(
        default=None, description="already_acknowledged only: the crisis alert as it is now (who is on it)")


class ErrorAnswer(BaseModel):
    """Every error answer: ``{"error": {"code", "message"}}``, plus ``approval`` on an ``already_decided`` 409
    and ``alert`` on an ``already_acknowledged`` 409."""

    model_config = ConfigDict(extra="forbid")

    error: ErrorDetail


class ApiError(SignoffError):
    """An error answer of the API itself (bad JSON, a body too large, …): HTTP ``status`` (also
    ``http_status``), ``code`` and ``message`` of :class:`ErrorAnswer`, given per instance."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status = self.http_status = status
        self.code, self.message = code, message


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The JSON of an error answer (:class:`ErrorAnswer`); ``extra``: the optional fields (``approval``,
    ``alert``), left out when not given."""
    return ErrorAnswer(error=ErrorDetail(code=code, message=message, **extra)).model_dump(exclude_none=True)


def error_response(status: int, code: str, message: str, **extra: Any) -> web.Response:
    """An error answer as an aiohttp response."""
    resp = web.json_response(error_body(code, message, **extra), status=status)
    if status in (408, 413):  # the body was not read to its end: the connection cannot go on
        resp.force_close()
    return resp


_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large",
               415: "unsupported_media_type"}


@web.middleware
async def _errors(request: web.Request, handler):
    """Every error as :class:`ErrorAnswer`: a :class:`~core.errors.SignoffError` with its own ``http_status``,
    ``code`` and ``details()`` (one lookup, no per-handler mapping), aiohttp's HTTP errors by status, and
    anything else as a 500 that approves nothing."""
    try:
        return await handler(request)
    except SignoffError as exc:
        return error_response(exc.http_status, exc.code, str(exc), **exc.details())
    except web.HTTPException as exc:
        if exc.status == 413:
            return error_response(413, "body_too_large", f"the body is larger than {MAX_BODY_BYTES} bytes")
        if exc.status >= 400:
            resp = error_response(exc.status, _HTTP_CODES.get(exc.status, "http_error"), exc.reason)
            if "Allow" in exc.headers:
                resp.headers["Allow"] = exc.headers["Allow"]
            return resp
        raise
    except Exception:
        log.exception("internal error on %s %s", request.method, request.path)
        return error_response(500, "internal", "internal error; the request was not approved")


class _Throttled:
    """A warning logged at most once per ``every`` seconds, with how many times it happened meanwhile: a
    flood of bad clients (or of failed ``accept()`` calls) writes a few lines, not megabytes."""

    def __init__(self, every: float = LOG_EVERY_S, clock: Callable[[], float] = time.monotonic):
        self.every, self.clock = every, clock
        self._last: float | None = None
        self._count = 0

    def hit(self, message: str, *args: Any) -> bool:
        """Count one occurrence; log ``message % args`` (plus the count) if the last line is old enough.
        Returns whether a line was written."""
        self._count += 1
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            return False
        since = "" if self._last is None else f" in the last {now - self._last:.0f} s"
        log.warning(message + " (%d time%s%s)", *args, self._count, "" if self._count == 1 else "s", since)
        self._last, self._count = now, 0
        return True


class _Connection(RequestHandler):
    """aiohttp's connection handler, with the API's error shape for what aiohttp refuses itself (a malformed
    request line, a bad method, an oversized header: ``{"error": …}`` instead of text/plain), and a future
    that is done once the client has gone (a long-poll stops waiting for nobody)."""

    def __init__(self, manager: web.Server, *, loop: asyncio.AbstractEventLoop, site: _LimitedSite, **kwargs: Any):
        super().__init__(manager, loop=loop, **kwargs)
        self.gone: asyncio.Future[None] = loop.create_future()
        self._site = site

    def connection_lost(self, exc: BaseException | None) -> None:
        if not self.gone.done():
            self.gone.set_result(None)
            self._site.closed(self)
        super().connection_lost(exc)

    def handle_error(self, request, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if status >= 500:
            log.error("error answering a request", exc_info=exc)
            code, text = "internal", "internal error; the request was not approved"
        else:
            detail = ((message or (str(exc) if exc else "")).splitlines() or ["unreadable"])[0][:200]
            self._site.malformed_log.hit("malformed HTTP request refused with %d: %s", status, detail)
            code, text = "bad_http_request", f"malformed HTTP request: {detail}"
        if request.writer.output_size > 0:
            raise ConnectionError("an answer was already sent")
        resp = web.json_response(error_body(code, text), status=status)
        resp.force_close()
        return resp


_TOO_MANY = json.dumps(error_body("too_many_connections", "the daemon serves too many connections at "
                                  "once (server.max_connections); try again shortly")).encode()
_REFUSAL = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            b"Content-Length: %d\r\nConnection: close\r\nRetry-After: 1\r\n\r\n%s" % (len(_TOO_MANY), _TOO_MANY))

#: connections being refused (503) at once; beyond that and max_connections, nothing more is accepted until
#: one closes (the kernel's listen queue holds the rest): the descriptors in use stay bounded
MAX_REFUSING = 32
#: accept() calls per event-loop turn, and how long to pause accepting when the process is out of descriptors
ACCEPTS_PER_TURN = 64
ACCEPT_RETRY_S = 1.0
_OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class _Refusal(asyncio.Protocol):
    """A connection over ``max_connections``: answered 503 (JSON error) at once, closed once the request's
    head has been read (closing on unread data would reset the connection before the client reads the
    answer), or after :attr:`LINGER_S` at the latest."""

    LINGER_S = 0.1

    def __init__(self, site: _LimitedSite):
        self._site = site
        self._seen = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        transport.write(_REFUSAL)  # type: ignore[attr-defined]
        self._timer = asyncio.get_running_loop().call_later(self.LINGER_S, transport.close)

    def data_received(self, data: bytes) -> None:
        self._seen = (self._seen + data)[-8192:]
        if b"\r\n\r\n" in self._seen:
            self.transport.close()

    def eof_received(self) -> bool:
        return False  # close

    def connection_lost(self, exc: BaseException | None) -> None:
        self._timer.cancel()
        self._site.closed(self)


class _LimitedSite(web.BaseSite):
    """Serve a runner's app on a listening socket within :class:`ServerLimits`: a header and idle timeout, at
    most ``max_connections`` served at once (then 503, then not even accepted), aiohttp's own refusals in the
    API's error shape. It accepts connections itself (instead of ``loop.create_server``) so that it never
    takes more descriptors than that, and so that running out of them logs one line per
    :data:`LOG_EVERY_S` (asyncio's accept loop logs a traceback per waiting connection: megabytes a second).
    """

    def __init__(self, runner: web.AppRunner, sock: socket.socket, limits: ServerLimits):
        super().__init__(runner)
        self._http = runner.server  # aiohttp's web.Server: what each _Connection serves
        self._sock, self._limits = sock, limits
        self._open: set[asyncio.BaseProtocol] = set()
        self._refusing = 0
        self._reading = False
        self._closed = False
        self._retry: asyncio.TimerHandle | None = None
        self.refused_log = _Throttled()
        self.malformed_log = _Throttled()
        self.accept_log = _Throttled()

    @property
    def name(self) -> str:
        return f"http://unix:{self._sock.getsockname()}:"

    async def start(self) -> None:
        await super().start()
        self._loop = asyncio.get_running_loop()
        self._resume()

    async def stop(self) -> None:
        self.close()
        await super().stop()

    def close(self) -> None:
        """Stop accepting and close the listening socket (open connections are the runner's to close)."""
        self._closed = True
        self._pause()
        if self._retry is not None:
            self._retry.cancel()
        self._sock.close()

    def _resume(self) -> None:
        self._retry = None
        if not self._reading and not self._closed:
            self._loop.add_reader(self._sock.fileno(), self._accept)
            self._reading = True

    def _pause(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._sock.fileno())
            self._reading = False

    def closed(self, protocol: asyncio.BaseProtocol) -> None:
        """A connection has gone: one more may be accepted."""
        if protocol not in self._open:
            return
        self._open.remove(protocol)
        if isinstance(protocol, _Refusal):
            self._refusing -= 1
        if self._retry is None:
            self._resume()

    def _accept(self) -> None:
        for _ in range(ACCEPTS_PER_TURN):
            served = len(self._open) - self._refusing
            if served >= self._limits.max_connections and self._refusing >= MAX_REFUSING:
                self._pause()  # full: the listen queue waits until a connection closes
                return
            try:
                conn, _addr = self._sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as exc:  # EMFILE and the like: out of descriptors (any other error: the same pause)
                what = "out of system resource" if exc.errno in _OUT_OF_RESOURCES else "failed"
                self.accept_log.hit("socket.accept() %s: %s (%d open connections); accepting again in %g s",
                                    what, exc.strerror, len(self._open), ACCEPT_RETRY_S)
                self._pause()
                self._retry = self._loop.call_later(ACCEPT_RETRY_S, self._resume)
                return
            conn.setblocking(False)
            protocol: asyncio.BaseProtocol
            if served >= self._limits.max_connections:
                self.refused_log.hit("refused a connection with 503: %d served (server.max_connections)", served)
                protocol = _Refusal(self)
                self._refusing += 1
            else:
                protocol = _Connection(self._http, loop=self._loop, site=self, access_log=None, tcp_keepalive=False,
                                       keepalive_timeout=self._limits.header_timeout,
                                       lingering_time=self._limits.lingering_s)
            self._open.add(protocol)
            self._loop.create_task(self._connect(conn, protocol))

    async def _connect(self, conn: socket.socket, protocol: asyncio.BaseProtocol) -> None:
        try:
            await self._loop.connect_accepted_socket(lambda: protocol, conn)
        except Exception:  # the client left at once: nothing to serve
            conn.close()
            self.closed(protocol)


class ApiServer:
    """The aiohttp application serving the local API.

    Args:
        broker: the approval state machine.
        channels_health: returns ``{name: "up" | "down"}`` for ``/v1/health``.
        terminal_enabled: whether decisions over the socket are allowed at all.
        approver_uids: uids allowed to decide when the terminal channel is enabled.
        version: signoff's version for ``/v1/health``.
    """

    def __init__(self, broker: Broker, channels_health: Callable[[], dict[str, str]], terminal_enabled: bool,
                 approver_uids: set[int], version: str, limits: ServerLimits | None = None):
        self.broker = broker
        self.channels_health = channels_health
        self.terminal_enabled = terminal_enabled
        self.approver_uids = approver_uids
        self.version = version
        self.limits = limits or ServerLimits()
        self.app = web.Application(middlewares=[_errors], client_max_size=MAX_BODY_BYTES)
        self.app.add_routes([
            web.post("/v1/approvals", self.create),
            web.get("/v1/approvals", self.list),
            web.get("/v1/approvals/{id}", self.get),
            web.post("/v1/approvals/{id}/decision", self.decision),
            web.post("/v1/approvals/{id}/cancel", self.cancel),
            web.post("/v1/crisis", self.crisis),
            web.post("/v1/crisis/{id}/ack", self.crisis_ack),
            web.get("/v1/health", self.health),
            web.get("/v1/openapi.json", self.openapi),
        ])
        self._runner: web.AppRunner | None = None
        self._site: _LimitedSite | None = None
        self._openapi: bytes | None = None

    async def start(self, sock: socket.socket) -> None:
        """Serve on an already bound, listening Unix socket, within :attr:`limits`."""
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        self._site = _LimitedSite(self._runner, sock, self.limits)
        await self._site.start()

    async def stop(self) -> None:
        """Stop serving (in-flight answers get a second); idempotent."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _wait(self, request: web.Request, approval_id: str, wait: float):
        """``broker.wait`` that stops as soon as the client hangs up: a thousand vanished long-polls hold no
        task for their hour (the approval itself stays pending and decidable)."""
        gone = getattr(request.protocol, "gone", None)
        if wait <= 0 or gone is None:
            return await self.broker.wait(approval_id, wait)
        waiting = asyncio.ensure_future(self.broker.wait(approval_id, wait))
        try:
            done, _ = await asyncio.wait((waiting, gone), return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not waiting.done():
                waiting.cancel()
        if waiting not in done:
            raise ApiError(499, "client_gone", "the client hung up")  # an answer to nobody: never written
        return waiting.result()

    # handlers --------------------------------------------------------------------------------

    async def create(self, request: web.Request) -> web.Response:
        wait = _wait_param(request)
        req = _parse(ApprovalRequest, await self._body(request))
        approval = await self.broker.submit(req, _requester(request))
        if wait > 0 and not approval.is_final:
            approval = await self._wait(request, approval.id, wait)
        return _approval_response(approval)

    async def get(self, request: web.Request) -> web.Response:
        wait = _wait_param(request)
        approval_id = request.match_info["id"]
        caller = _requester(request)
        if not self._sees_all(caller):
            row = await self.broker.current(approval_id)
            if row is not None and row.requester_uid not in (None, caller.uid):
                raise NotFound(f"no approval with id {approval_id!r}")  # another user's: not even its existence
        approval = await self._wait(request, approval_id, wait)
        return _approval_response(approval)

    def _sees_all(self, caller: Requester) -> bool:
        """The daemon's own user, root and terminal approvers see every approval; agents see their own."""
        return caller.uid is None or caller.uid in (0, os.getuid()) or caller.uid in self.approver_uids

    async def list(self, request: web.Request) -> web.Response:
        """Approvals newest first, a page of ``limit`` at a time; ``before`` (an approval id: the ``next`` of the
        previous page) continues after that approval."""
        raw = request.query.get("status")
        try:
            status = Status(raw) if raw else None
        except ValueError:
            raise ApiError(400, "invalid_status", f"unknown status {raw!r}; one of {[s.value for s in Status]}") from None
        limit = _int_param(request, "limit", DEFAULT_PAGE, 1, MAX_PAGE)
        caller = _requester(request)
        owner = None if self._sees_all(caller) else caller.uid
        before = request.query.get("before") or None
        if before is not None:
            row = await self.broker.current(before)
            if row is None or (owner is not None and row.requester_uid not in (None, owner)):
                raise ApiError(400, "invalid_before", f"before must be the id of a listed approval (a page's "
                                                      f"next), got {before!r}")
        approvals = await self.broker.approvals(status=status, requester_uid=owner, before=before,
                                                limit=limit + 1, newest_first=True)
        page = approvals[:limit]
        nxt = page[-1].id if len(approvals) > limit else None
        return web.json_response({"approvals": [a.to_api() for a in page], "next": nxt})

    async def decision(self, request: web.Request) -> web.Response:
        approval_id = request.match_info["id"]
        actor = self._terminal_approver(request, "decisions over the socket are off", "decide on the phone card",
                                        "decide")
        body = _parse(Decision, await self._body(request))
        await self.broker.get(approval_id)  # 404 before anything else
        approval = await self.broker.decide(approval_id, body.decision == "approve", actor, body.note)
        return _approval_response(approval)

    def _terminal_approver(self, request: web.Request, off: str, instead: str, verb: str) -> Actor:
        """The caller as an actor, when it may decide from the terminal ("Who may decide"): the terminal channel
        is on and the peer's uid is in terminal.approver_uids.

        Raises:
            NotAllowed: otherwise (an agent must not approve its own request nor silence a crisis alert).
        """
        caller = _requester(request)
        if not self.terminal_enabled:
            raise NotAllowed(f"{off}: the terminal channel is disabled ({instead} instead)")
        if caller.uid not in self.approver_uids:
            raise NotAllowed(f"uid {caller.uid} is not in terminal.approver_uids: only an approver may {verb}")
        name = unix_user(caller.uid)
        return Actor(id=f"cli:{name}", name=name, via=DecidedVia.CLI)

    async def cancel(self, request: web.Request) -> web.Response:
        approval_id = request.match_info["id"]
        caller = _requester(request)
        row = await self.broker.get(approval_id)  # NotFound: 404
        own = row.requester_uid is None or row.requester_uid == caller.uid
        if not own and not (self.terminal_enabled and caller.uid in self.approver_uids):
            raise NotAllowed("only the requester (same uid) or a terminal approver may cancel this approval")
        name = unix_user(caller.uid) if caller.uid is not None else "unknown"
        approval = await self.broker.cancel(approval_id, Actor(id=f"cli:{name}", name=name, via=DecidedVia.CLI))
        return _approval_response(approval)

    async def crisis(self, request: web.Request) -> web.Response:
        """An agent raises a crisis alert itself; the resources come back at once."""
        report = _parse(CrisisReport, await self._body(request))
        origin = Origin("api", user_ref=report.user, agent=report.agent, session=report.session)
        intake = await self.broker.crisis.intake(report.text, origin, reported=True)
        return web.json_response(intake.alert.to_api())

    async def crisis_ack(self, request: web.Request) -> web.Response:
        """A terminal approver acknowledges a crisis alert ("I'm on it": no more re-alerts). ``id`` is the
        alert's id or the id of the crisis approval request that raised it. Only terminal approvers may: an
        agent must not be able to silence the re-alerts."""
        ref = request.match_info["id"]
        actor = self._terminal_approver(request, "acknowledging over the socket is off",
                                        "press I'm on it on the alert", "acknowledge")
        if request.can_read_body:
            body = await self._body(request)
            if body not in ({}, None):
                raise ApiError(400, "invalid_request", "acknowledging takes no body (or an empty object)")
        alert = await self.broker.crisis.find(ref)
        if alert is None:
            raise NotFound(f"no crisis alert (nor crisis approval) with id {ref!r}")
        alert = await self.broker.crisis.acknowledge(alert.id, actor)  # AlreadyAcknowledged: 409
        return web.json_response(alert.to_api())

    async def health(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "version": self.version, "channels": self.channels_health()})

    async def openapi(self, request: web.Request) -> web.Response:
        """This API as an OpenAPI 3.1 document (:func:`openapi_document`)."""
        if self._openapi is None:
            self._openapi = json.dumps(openapi_document(self.version)).encode()
        return web.Response(body=self._openapi, content_type="application/json")

    async def _body(self, request: web.Request):
        """The JSON body, read within ``limits.body_timeout``.

        Raises:
            ApiError: 408 the body did not arrive in time; 413, 415, 400 as :func:`_json_body`.
        """
        try:
            async with asyncio.timeout(self.limits.body_timeout):
                return await _json_body(request)
        except TimeoutError:
            raise ApiError(408, "body_timeout", f"the body did not arrive within {self.limits.body_timeout:g} s "
                                                "(server.body_timeout)") from None


def _requester(request: web.Request) -> Requester:
    return peer_credentials(request.transport.get_extra_info("socket") if request.transport else None)


async def _json_body(request: web.Request):
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise ApiError(413, "body_too_large", f"the body is larger than {MAX_BODY_BYTES} bytes")
    if request.content_type != "application/json":
        raise ApiError(415, "unsupported_media_type", "Content-Type must be application/json")
    raw = await request.read()
    try:
        body = json.loads(raw, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except RecursionError:
        raise ApiError(400, "malformed_json", "the body is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "malformed_json", f"the body is not valid JSON: {exc}") from None
    try:  # a lone surrogate anywhere (escaped, or raw: json reads bytes with surrogatepass) is not text
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "invalid_request", "the body contains a lone surrogate (such as \\ud800): "
                                               "not valid Unicode text") from None
    return body


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    # {"command": "rm -rf /", "command": "ls"} must not be read one way here and another elsewhere.
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ValueError(f"the key {dup!r} appears twice in one object")
    return out


def _no_constants(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _wait_param(request: web.Request) -> float:
    raw = request.query.get("wait")
    if raw is None or raw == "":
        return 0.0
    try:
        wait = float(raw)
    except ValueError:
        raise ApiError(400, "invalid_wait", f"wait must be a number of seconds, got {raw!r}") from None
    if not wait >= 0:  # also refuses NaN
        raise ApiError(400, "invalid_wait", f"wait must be 0 or more seconds, got {raw!r}")
    return min(wait, MAX_WAIT_SECONDS)


def _int_param(request: web.Request, name: str, default: int, lo: int, hi: int) -> int:
    """The integer query parameter ``name`` (``default`` when absent or empty), ``lo`` to ``hi``; else 400."""
    raw = request.query.get(name)
    if raw is None or raw == "":
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9) or not lo <= int(raw) <= hi:
        raise ApiError(400, f"invalid_{name}", f"{name} must be a whole number from {lo} to {hi}, got {raw!r}")
    return int(raw)


def _approval_response(approval) -> web.Response:
    return web.json_response(approval.to_api(), status=200 if approval.is_final else 202)


def _parse(model, body):
    """``model`` validated from a JSON body; a 400 ``invalid_request`` naming the problem otherwise."""
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise ApiError(400, "invalid_request", _validation_message(exc)) from None


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "body"
        if err["type"] == "extra_forbidden":
            parts.append(f"unknown field '{loc}'")
        elif err["type"] == "model_type":
            parts.append("the body must be a JSON object")
        else:
            parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)


# the OpenAPI document -------------------------------------------------------------------------------

_ERRORS_TEXT = {
    400: "malformed JSON, a wrong type, an unknown field, a bad query parameter, or a malformed HTTP request",
    403: "not allowed: only a terminal approver may (interfaces.md \"Who may decide\")",
    404: "no such approval (or another user's)",
    405: "the path does not serve this method",
    408: "the body did not arrive within server.body_timeout",
    409: "no longer pending (the message says its status), or an idempotency key bound to other content",
    413: f"the body is larger than {MAX_BODY_BYTES} bytes",
    415: "Content-Type is not application/json",
    503: "too many connections at once (server.max_connections): the connection is closed; retry shortly",
}


def openapi_document(version: str = "0") -> dict[str, Any]:
    """The local API as an OpenAPI 3.1 document, built from the pydantic models the handlers read and answer
    with (:class:`ApprovalRequest`, :class:`Decision`, :class:`CrisisReport`; :class:`ApprovalAnswer`,
    :class:`ApprovalList`, :class:`CrisisAlertAnswer`, :class:`Health`, :class:`ErrorAnswer`).

    Every operation lists every status it can answer; 400 (a malformed HTTP request), 405 and 503 (too many
    connections) can come from any of them.
    """
    schemas: dict[str, Any] = {}

    def ref(model: type[BaseModel], mode: Literal["validation", "serialization"] = "validation") -> dict:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}", mode=mode)
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    def json_content(schema: dict) -> dict:
        return {"application/json": {"schema": schema}}

    error = ref(ErrorAnswer)
    approval = ref(ApprovalAnswer, "serialization")

    def answers(ok: dict[int, tuple[str, dict]], *errors: int) -> dict[str, Any]:
        out: dict[str, Any] = {str(code): {"description": text, "content": json_content(schema)}
                               for code, (text, schema) in ok.items()}
        for code in sorted({400, 405, 503, *errors}):
            out[str(code)] = {"description": _ERRORS_TEXT[code], "content": json_content(error)}
        return out

    def body(model: type[BaseModel], required: bool = True) -> dict[str, Any]:
        return {"required": required, "content": json_content(ref(model))}

    wait = {"name": "wait", "in": "query", "required": False,
            "description": "seconds to wait for a final status (0: answer at once; more than 3600 is read as 3600)",
            "schema": {"type": "number", "minimum": 0}}
    path_id = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    final_or_pending = {200: ("the approval, final (approved, denied, expired, cancelled, crisis)", approval),
                        202: ("the approval, still pending", approval)}
    body_errors = (408, 413, 415)
    paths = {
        "/v1/approvals": {
            "post": {"operationId": "createApproval", "summary": "ask for an approval",
                     "parameters": [wait], "requestBody": body(ApprovalRequest),
                     "responses": answers(final_or_pending, 409, *body_errors)},
            "get": {"operationId": "listApprovals",
                    "summary": "approvals newest first, a page at a time (an agent sees only its own)",
                    "parameters": [
                        {"name": "status", "in": "query", "required": False,
                         "schema": {"type": "string", "enum": [s.value for s in Status]}},
                        {"name": "limit", "in": "query", "required": False,
                         "description": f"approvals per page (default {DEFAULT_PAGE})",
                         "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}},
                        {"name": "before", "in": "query", "required": False,
                         "description": "an approval id (the previous page's next): the page after it",
                         "schema": {"type": "string"}}],
                    "responses": answers({200: ("a page of approvals", ref(ApprovalList, "serialization"))})},
        },
        "/v1/approvals/{id}": {
            "get": {"operationId": "getApproval", "summary": "one approval (long-poll with wait)",
                    "parameters": [path_id, wait], "responses": answers(final_or_pending, 404)},
        },
        "/v1/approvals/{id}/decision": {
            "post": {"operationId": "decideApproval", "summary": "approve or deny (terminal approvers only)",
                     "parameters": [path_id], "requestBody": body(Decision),
                     "responses": answers({200: ("the decided approval", approval)}, 403, 404, 409, *body_errors)},
        },
        "/v1/approvals/{id}/cancel": {
            "post": {"operationId": "cancelApproval", "summary": "cancel one's own pending approval",
                     "parameters": [path_id],
                     "responses": answers({200: ("the cancelled approval", approval)}, 403, 404, 409)},
        },
        "/v1/crisis": {
            "post": {"operationId": "raiseCrisis", "summary": "raise a crisis alert; the resources come back",
                     "requestBody": body(CrisisReport),
                     "responses": answers({200: ("the alert", ref(CrisisAlertAnswer, "serialization"))},
                                          *body_errors)},
        },
        "/v1/crisis/{id}/ack": {
            "post": {"operationId": "acknowledgeCrisis", "summary": "\"I'm on it\" (terminal approvers only)",
                     "parameters": [path_id],
                     "requestBody": {"required": False, "content": json_content(
                         {"type": "object", "maxProperties": 0, "description": "no body, or {}"})},
                     "responses": answers({200: ("the acknowledged alert", ref(CrisisAlertAnswer, "serialization"))},
                                          403, 404, 409, *body_errors)},
        },
        "/v1/health": {
            "get": {"operationId": "health", "summary": "the daemon and its channels",
                    "responses": answers({200: ("up", ref(Health, "serialization"))})},
        },
        "/v1/openapi.json": {
            "get": {"operationId": "openapi", "summary": "this document",
                    "responses": answers({200: ("OpenAPI 3.1", {"type": "object"})})},
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "signoff local API", "version": version,
                 "description": "HTTP/1.1 + JSON over the daemon's Unix socket (server.socket_path), e.g. "
                                "`curl --unix-socket PATH http://signoff/v1/health`. Every error is "
                                "{\"error\": {\"code\", \"message\"}}. See docs/api.md."},
        "servers": [{"url": "http://signoff", "description": "the Unix socket server.socket_path"}],
        "paths": paths,
        "components": {"schemas": dict(sorted(schemas.items()))},
    }


def bind_unix_socket(path: str, mode: int, group: str | None = None) -> socket.socket:
    """Bind and listen on a Unix socket at ``path`` created with ``mode`` (and ``group``).

    The file is created under a umask that leaves no window with looser permissions.

    Raises:
        OSError: the path is taken or cannot be created, or ``group`` is unknown or not ours to give.
    """
    gid = -1
    if group is not None:
        try:
            gid = grp.getgrnam(group).gr_gid
        except KeyError:
            raise OSError(f"server.socket_group {group!r} is not a group on this machine") from None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(path)
    except BaseException:
        sock.close()
        raise
    finally:
        os.umask(old)
    try:
        if gid != -1:
            os.chown(path, -1, gid)
        os.chmod(path, mode)
    except OSError as exc:
        sock.close()
        os.unlink(path)
        raise OSError(f"cannot give {path} mode {mode:04o} and group {group}: {exc.strerror}") from None
    sock.listen(1024)
    sock.setblocking(False)
    return sock
