"""The local HTTP API (HTTP/1.1 + JSON over a Unix domain socket), ``shared/spec/interfaces.md``.

Every answer is JSON; every error is ``{"error": {"code", "message"}}``. Callers are identified by the
socket's peer credentials; only terminal approvers may decide ("Who may decide").
"""

from __future__ import annotations

import asyncio
import grp
import json
import logging
import os
import pwd
import socket
import struct
from collections.abc import Callable

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from core.broker import Broker, Requester
from core.crisis import detect_crisis
from core.crisis_desk import AlreadyAcknowledged, Origin
from core.errors import AlreadyDecided, IdempotencyConflict, NotAllowed, NotFound, SignoffError
from core.models import Actor, ApprovalRequest, DecidedVia, Status, valid_unicode

log = logging.getLogger("signoff.api")

MAX_BODY_BYTES = 64 * 1024
MAX_WAIT_SECONDS = 3600.0


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


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": {"code": code, "message": message}}, status=status)


_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large",
               415: "unsupported_media_type"}


@web.middleware
async def _errors(request: web.Request, handler):
    try:
        return await handler(request)
    except ApiError as exc:
        return error_response(exc.status, exc.code, exc.message)
    except NotFound as exc:
        return error_response(404, exc.code, str(exc))
    except (AlreadyDecided, IdempotencyConflict) as exc:
        return error_response(409, exc.code, str(exc))
    except NotAllowed as exc:
        return error_response(403, exc.code, str(exc))
    except SignoffError as exc:
        return error_response(400, exc.code, str(exc))
    except web.HTTPException as exc:
        if exc.status == 413:
            return error_response(413, "body_too_large", f"the body is larger than {MAX_BODY_BYTES} bytes")
        if exc.status >= 400:
            return error_response(exc.status, _HTTP_CODES.get(exc.status, "http_error"), exc.reason)
        raise
    except Exception:
        log.exception("internal error on %s %s", request.method, request.path)
        return error_response(500, "internal", "internal error; the request was not approved")


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
                 approver_uids: set[int], version: str):
        self.broker = broker
        self.channels_health = channels_health
        self.terminal_enabled = terminal_enabled
        self.approver_uids = approver_uids
        self.version = version
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
        ])
        self._runner: web.AppRunner | None = None

    async def start(self, sock: socket.socket) -> None:
        """Serve on an already bound, listening Unix socket."""
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock, backlog=1024).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # handlers --------------------------------------------------------------------------------

    async def create(self, request: web.Request) -> web.Response:
        req = _parse(ApprovalRequest, await _json_body(request))
        wait = _wait_param(request)
        approval = await self.broker.submit(req, _requester(request))
        if wait > 0 and not approval.is_final:
            approval = await self.broker.wait(approval.id, wait)
        return _approval_response(approval)

    async def get(self, request: web.Request) -> web.Response:
        wait = _wait_param(request)
        approval_id = request.match_info["id"]
        caller = _requester(request)
        if not self._sees_all(caller):
            row = await self.broker.ledger.get_row(approval_id)
            if row is not None and row.requester_uid not in (None, caller.uid):
                raise NotFound(f"no approval with id {approval_id!r}")  # another user's: not even its existence
        approval = await self.broker.wait(approval_id, wait)
        return _approval_response(approval)

    def _sees_all(self, caller: Requester) -> bool:
        """The daemon's own user, root and terminal approvers see every approval; agents see their own."""
        return caller.uid is None or caller.uid in (0, os.getuid()) or caller.uid in self.approver_uids

    async def list(self, request: web.Request) -> web.Response:
        raw = request.query.get("status")
        try:
            status = Status(raw) if raw else None
        except ValueError:
            raise ApiError(400, "invalid_status", f"unknown status {raw!r}; one of {[s.value for s in Status]}") from None
        caller = _requester(request)
        owner = None if self._sees_all(caller) else caller.uid
        approvals = await self.broker.ledger.list(status=status, requester_uid=owner)
        return web.json_response({"approvals": [a.to_api() for a in approvals]})

    async def decision(self, request: web.Request) -> web.Response:
        approval_id = request.match_info["id"]
        actor = self._terminal_approver(request, "decisions over the socket are off", "decide on the phone card",
                                        "decide")
        body = await _json_body(request)
        if not isinstance(body, dict) or set(body) - {"decision", "note"}:
            extra = sorted(set(body) - {"decision", "note"}) if isinstance(body, dict) else None
            raise ApiError(400, "invalid_request", f"unknown field(s) {extra}" if extra else "the body must be an object")
        decision, note = body.get("decision"), body.get("note")
        if decision not in ("approve", "deny"):
            raise ApiError(400, "invalid_request", 'decision must be "approve" or "deny"')
        if note is not None and (not isinstance(note, str) or len(note) > 4096):
            raise ApiError(400, "invalid_request", "note must be a string of at most 4096 characters")
        await self.broker.get(approval_id)  # 404 before anything else
        approval = await self.broker.decide(approval_id, decision == "approve", actor, note)
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
        row = await self.broker.ledger.get_row(approval_id)
        if row is None:
            raise NotFound(f"no approval with id {approval_id!r}")
        own = row.requester_uid is None or row.requester_uid == caller.uid
        if not own and not (self.terminal_enabled and caller.uid in self.approver_uids):
            raise NotAllowed("only the requester (same uid) or a terminal approver may cancel this approval")
        name = unix_user(caller.uid) if caller.uid is not None else "unknown"
        approval = await self.broker.cancel(approval_id, Actor(id=f"cli:{name}", name=name, via=DecidedVia.CLI))
        return _approval_response(approval)

    async def crisis(self, request: web.Request) -> web.Response:
        """An agent raises a crisis alert itself; the resources come back at once."""
        report = _parse(CrisisReport, await _json_body(request))
        text = report.text
        match = await asyncio.to_thread(detect_crisis, text) if len(text) > 4096 else detect_crisis(text)
        origin = Origin("api", user_ref=report.user, agent=report.agent, session=report.session)
        alert = self.broker.crisis.raise_alert(text, origin, match)
        return web.json_response(alert.to_api())

    async def crisis_ack(self, request: web.Request) -> web.Response:
        """A terminal approver acknowledges a crisis alert ("I'm on it": no more re-alerts). ``id`` is the
        alert's id or the id of the crisis approval request that raised it. Only terminal approvers may: an
        agent must not be able to silence the re-alerts."""
        ref = request.match_info["id"]
        actor = self._terminal_approver(request, "acknowledging over the socket is off",
                                        "press I'm on it on the alert", "acknowledge")
        if request.can_read_body:
            body = await _json_body(request)
            if body not in ({}, None):
                raise ApiError(400, "invalid_request", "acknowledging takes no body (or an empty object)")
        alert = await self.broker.crisis.find(ref)
        if alert is None:
            raise NotFound(f"no crisis alert (nor crisis approval) with id {ref!r}")
        try:
            alert = await self.broker.crisis.acknowledge(alert.id, actor)
        except AlreadyAcknowledged as exc:
            who = exc.alert.acknowledged_by_name or exc.alert.acknowledged_by
            raise ApiError(409, "already_acknowledged", f"crisis alert {exc.alert.id} is already acknowledged "
                                                        f"by {who}") from None
        return web.json_response(alert.to_api())

    async def health(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "version": self.version, "channels": self.channels_health()})


def _requester(request: web.Request) -> Requester:
    return peer_credentials(request.transport.get_extra_info("socket") if request.transport else None)


async def _json_body(request: web.Request):
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise ApiError(413, "body_too_large", f"the body is larger than {MAX_BODY_BYTES} bytes")
    if request.content_type != "application/json":
        raise ApiError(415, "unsupported_media_type", "Content-Type must be application/json")
    raw = await request.read()
    try:
        return json.loads(raw, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except RecursionError:
        raise ApiError(400, "malformed_json", "the body is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "malformed_json", f"the body is not valid JSON: {exc}") from None


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
