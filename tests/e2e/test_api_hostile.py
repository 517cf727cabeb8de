"""Hostile clients of the local API, over the real Unix socket: each is answered (or closed) without harm,
then a normal request still succeeds and the pending approval made before is still pending and decidable."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path

import aiohttp
import yaml

from tests.conftest import ApiClient, make_config

ROOT = Path(__file__).resolve().parents[2]
MEDIUM = {"action": "terminal", "command": "git push origin main"}


def limited(tmp: Path, **server):
    """make_config with ``server.*`` limits (header_timeout, body_timeout, max_connections)."""
    config = make_config(tmp)
    return config.model_copy(update={"server": config.server.model_copy(update=server)})


async def raw(path: Path, data: bytes, timeout: float = 5) -> bytes:
    """Send ``data`` as it is and read until the daemon closes the connection."""
    reader, writer = await asyncio.open_unix_connection(str(path))
    try:
        writer.write(data)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()


def answer(data: bytes) -> tuple[int, dict]:
    """(status, JSON body) of one raw HTTP/1.1 answer."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    assert headers.get("content-type", "").startswith("application/json"), head
    return int(lines[0].split()[1]), json.loads(body)


def is_error(body: dict, code: str | None = None) -> bool:
    ok = set(body) == {"error"} and set(body["error"]) == {"code", "message"} and body["error"]["message"]
    return bool(ok) and (code is None or body["error"]["code"] == code)


async def still_serving(api: ApiClient, pending_id: str) -> None:
    """A normal request succeeds, and the approval made before the attack is pending, then decidable."""
    status, health = await api.call("GET", "/v1/health")
    assert status == 200 and health["status"] == "ok"
    status, a = await api.call("GET", f"/v1/approvals/{pending_id}")
    assert status == 202 and a["status"] == "pending"
    status, a = await api.call("POST", f"/v1/approvals/{pending_id}/decision", json={"decision": "approve"})
    assert status == 200 and a["status"] == "approved"


async def _pending(api: ApiClient) -> str:
    status, a = await api.call("POST", "/v1/approvals", json=MEDIUM)
    assert status == 202
    return a["id"]


async def test_deeply_nested_json_is_refused(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    pending = await _pending(api)
    json_h = {"Content-Type": "application/json"}
    status, err = await api.call("POST", "/v1/approvals", data=b"[" * 100_000, headers=json_h)
    assert status == 413 and is_error(err, "body_too_large")  # over 64 KiB: not even parsed
    for body in (b"[" * 60_000, b'{"action": "x", "metadata": ' + b'{"a":' * 10_000 + b"1" + b"}" * 10_001):
        status, err = await api.call("POST", "/v1/approvals", data=body, headers=json_h)
        assert status == 400 and is_error(err, "malformed_json") and "deeply" in err["error"]["message"]
    # nested just below the parser's limit: read and refused or kept, never a 500
    body = b'{"action": "x", "metadata": ' + b'{"a": ' * 900 + b"1" + b"}" * 901
    status, got = await api.call("POST", "/v1/approvals", data=body, headers=json_h)
    assert status in (200, 202, 400), got
    for path in ("/v1/approvals/x/decision", "/v1/crisis"):
        status, err = await api.call("POST", path, data=b"[" * 60_000, headers=json_h)
        assert status == 400 and is_error(err, "malformed_json")
    await still_serving(api, pending)


async def test_invalid_utf8_and_lone_surrogates_are_refused(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    pending = await _pending(api)
    before = await daemon.ledger.count()
    json_h = {"Content-Type": "application/json"}
    bodies = [
        b'{"action": "terminal", "command": "ls \xff\xfe"}',  # invalid UTF-8
        b'{"action": "terminal\xc3"}',
        b'{"action": "terminal", "command": "ls \\ud800"}',  # a lone surrogate, escaped
        b'{"action": "terminal", "agent": "\\udfff"}',
        b'{"action": "terminal", "metadata": {"k": "\\ud800"}}',
        b'{"action": "terminal", "metadata": {"\\ud800": 1}}',
        b'{"action": "terminal", "metadata": {"k": ["ok", {"deep": "\\udc00x"}]}}',
    ]
    for body in bodies:
        status, err = await api.call("POST", "/v1/approvals", data=body, headers=json_h)
        assert status == 400 and is_error(err), (body, status, err)
    status, err = await api.call("POST", f"/v1/approvals/{pending}/decision",
                                 data=b'{"decision": "deny", "note": "\\ud800"}', headers=json_h)
    assert status == 400 and is_error(err, "invalid_request")
    status, err = await api.call("POST", "/v1/crisis", data=b'{"text": "\\ud83d"}', headers=json_h)
    assert status == 400 and is_error(err, "invalid_request")
    # in the query and the path, percent-encoded
    for path in ("/v1/approvals?status=%ED%A0%80", "/v1/approvals?before=%ff", "/v1/approvals?limit=%ff",
                 "/v1/approvals/%ED%A0%80", "/v1/approvals/%ff?wait=%ff"):
        status, err = await api.call("GET", path)
        assert status in (400, 404) and is_error(err), (path, status, err)
    assert await daemon.ledger.count() == before  # nothing was recorded for them
    await still_serving(api, pending)


async def test_aiohttps_own_refusals_are_json_errors(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    pending = await _pending(api)
    path = daemon.socket_path
    cases = {
        "a bad method": b"G(T /v1/health HTTP/1.1\r\nHost: signoff\r\n\r\n",
        "a malformed request line": b"GARBAGE\r\n\r\n",
        "an unknown HTTP version": b"GET /v1/health HTTP/7.1\r\nHost: signoff\r\n\r\n",
        "an oversized header": b"GET /v1/health HTTP/1.1\r\nHost: signoff\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n",
        "an oversized request line": b"GET /v1/" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: signoff\r\n\r\n",
        "too many headers": b"GET /v1/health HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(500)) + b"\r\n",
        "a bad Content-Length": b"POST /v1/approvals HTTP/1.1\r\nHost: signoff\r\nContent-Length: -5\r\n\r\n",
        "a bad chunk": b"POST /v1/approvals HTTP/1.1\r\nHost: signoff\r\nContent-Type: application/json\r\n"
                       b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        "a header without colon": b"GET /v1/health HTTP/1.1\r\nHost signoff\r\n\r\n",
    }
    for name, data in cases.items():
        status, body = answer(await raw(path, data))
        assert 400 <= status < 500 and is_error(body), (name, status, body)
    await still_serving(api, pending)


async def test_clients_that_never_finish_their_headers_are_closed(start_daemon, short_tmp):
    daemon, api = await start_daemon(limited(short_tmp, header_timeout=0.5, max_connections=2000))
    pending = await _pending(api)
    conns = []
    for i in range(300):
        reader, writer = await asyncio.open_unix_connection(str(daemon.socket_path))
        writer.write(b"GET /v1/health HTTP/1.1\r\nHost: signoff\r\n" if i % 2 else b"POST /v1/appr")
        conns.append((reader, writer))
    started = time.monotonic()
    # each one is closed by the daemon (EOF, no answer), about header_timeout after it opened
    closed = await asyncio.wait_for(asyncio.gather(*(r.read() for r, _ in conns)), 10)
    assert all(data == b"" for data in closed)
    assert time.monotonic() - started < 5
    for _, w in conns:
        w.close()
    await still_serving(api, pending)


async def test_a_body_that_never_ends_gets_408(start_daemon, short_tmp):
    daemon, api = await start_daemon(limited(short_tmp, body_timeout=0.5, max_connections=2000))
    pending = await _pending(api)
    head = (b"POST /v1/approvals HTTP/1.1\r\nHost: signoff\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n")
    chunked = head.replace(b"Content-Length: 1000", b"Transfer-Encoding: chunked") + b'5\r\n{"act'
    decision = head.replace(b"/v1/approvals", f"/v1/approvals/{pending}/decision".encode()) + b"{"
    started = time.monotonic()
    answers = await asyncio.gather(*(raw(daemon.socket_path, head + b'{"action": "ter') for _ in range(100)),
                                   raw(daemon.socket_path, chunked), raw(daemon.socket_path, decision))
    for data in answers:  # never ending: a plain body, a chunked one, a decision's
        status, body = answer(data)
        assert status == 408 and is_error(body, "body_timeout")
    assert time.monotonic() - started < 5  # 0.5 s, then 2 s of lingering before the connection closes
    assert await daemon.ledger.count() == 1
    await still_serving(api, pending)


async def test_a_thousand_long_polls_that_hang_up_leave_nothing_behind(start_daemon, short_tmp):
    daemon, api = await start_daemon(limited(short_tmp, max_connections=2000))
    pending = await _pending(api)
    await api.call("GET", "/v1/health")
    gc.collect()
    baseline = len(asyncio.all_tasks())
    path = daemon.socket_path
    conns = []
    n_post = 200
    for i in range(1000):
        reader, writer = await asyncio.open_unix_connection(str(path))
        if i < n_post:
            body = json.dumps({"action": "terminal", "command": f"git push origin b{i}"}).encode()
            writer.write(b"POST /v1/approvals?wait=600 HTTP/1.1\r\nHost: signoff\r\nContent-Type: application/json"
                         b"\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        else:
            writer.write(f"GET /v1/approvals/{pending}?wait=600 HTTP/1.1\r\nHost: signoff\r\n\r\n".encode())
        conns.append((reader, writer))
    await asyncio.gather(*(w.drain() for _, w in conns))

    async def until(cond, what: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not cond():
            assert time.monotonic() < deadline, what
            await asyncio.sleep(0.05)

    await until(lambda: daemon.ledger is not None and len(daemon.broker._waiters) >= n_post + 1,
                "every long-poll waiting")
    assert len(asyncio.all_tasks()) >= baseline + 1000
    for _, writer in conns:  # all hang up in the middle of their wait
        writer.close()
    await until(lambda: len(asyncio.all_tasks()) <= baseline + 5, "the waits' tasks gone", 10)
    await until(lambda: len(daemon.api._runner.server.connections) <= 2, "the connections gone", 10)
    # the waiters kept are one shared future per pending approval, woken by its decision
    assert len(daemon.broker._waiters) <= n_post + 1
    status, listed = await api.call("GET", "/v1/approvals?status=pending&limit=1000")
    assert len(listed["approvals"]) == n_post + 1
    await still_serving(api, pending)
    status, a = await api.call("POST", f"/v1/approvals/{listed['approvals'][0]['id']}/decision",
                               json={"decision": "deny"})
    assert status == 200 and a["status"] == "denied"


async def test_connections_over_max_connections_get_503_at_once(start_daemon, short_tmp):
    daemon, api = await start_daemon(limited(short_tmp, max_connections=20, header_timeout=0.5))
    pending = await _pending(api)
    await api.close()  # its keep-alive connection would count
    idle = [await asyncio.open_unix_connection(str(daemon.socket_path)) for _ in range(20)]
    status, body = answer(await raw(daemon.socket_path, b"GET /v1/health HTTP/1.1\r\nHost: signoff\r\n\r\n", 2))
    assert status == 503 and is_error(body, "too_many_connections")
    await asyncio.wait_for(asyncio.gather(*(r.read() for r, _ in idle)), 5)  # the idle ones time out…
    for _, w in idle:
        w.close()
    api = ApiClient(daemon.socket_path)  # …and then a normal request is served
    try:
        await still_serving(api, pending)
    finally:
        await api.close()


# The daemon as its own process, under a low open-files limit ----------------------------------------------


def _nofile(limit: tuple[int, int]):
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, limit)


async def _daemon(tmp: Path, limit: tuple[int, int], **server) -> tuple[asyncio.subprocess.Process, Path]:
    sock = tmp / "s.sock"
    cfg = {"server": {"socket_path": str(sock), **server}, "ledger": {"url": f"sqlite:///{tmp}/ledger.db"}}
    (tmp / "config.yaml").write_text(yaml.safe_dump(cfg))
    log = open(tmp / "daemon.log", "wb")  # noqa: SIM115 (the daemon writes it; closed with the test's tmp)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", "--config", str(tmp / "config.yaml"), cwd=ROOT,
        stdout=asyncio.subprocess.DEVNULL, stderr=log, env=os.environ.copy(), preexec_fn=_nofile(limit))
    log.close()
    deadline = time.monotonic() + 60
    while "listening on" not in (tmp / "daemon.log").read_text() or not await _healthy(sock):
        assert proc.returncode is None, (tmp / "daemon.log").read_text()
        assert time.monotonic() < deadline, "the daemon did not start"
        await asyncio.sleep(0.1)
    return proc, sock


async def _healthy(sock: Path) -> bool:
    try:
        api = ApiClient(sock)
        try:
            return (await api.call("GET", "/v1/health"))[0] == 200
        finally:
            await api.close()
    except (aiohttp.ClientError, OSError):
        return False


def _soft_limit(pid: int) -> int:
    return resource.prlimit(pid, resource.RLIMIT_NOFILE)[0]


async def _stop(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 20)


async def _open_idle(sock: Path, n: int) -> list:
    """Up to ``n`` connections that send nothing (a connect refused once the listen backlog is full is
    skipped: that is the kernel's refusal, not the daemon's)."""
    conns = []
    for _ in range(n):
        try:
            conns.append(await asyncio.open_unix_connection(str(sock)))
        except ConnectionRefusedError:
            pass
    return conns


async def _answered(sock: Path, within: float) -> tuple[int, float]:
    """(200, seconds) once a normal request is answered; a 503 is tried again after 0.05 s."""
    started = time.monotonic()
    while True:
        status, _ = answer(await raw(sock, b"GET /v1/health HTTP/1.1\r\nHost: signoff\r\n\r\n", within))
        if status == 200:
            return status, time.monotonic() - started
        assert status == 503 and time.monotonic() - started < within
        await asyncio.sleep(0.05)


async def test_idle_clients_under_a_low_hard_limit_do_not_stop_the_daemon(short_tmp):
    # soft and hard limit 256: the daemon cannot raise it and serves at most 160 connections at once
    proc, sock = await _daemon(short_tmp, (256, 256), header_timeout=1)
    try:
        assert _soft_limit(proc.pid) == 256
        idle = await _open_idle(sock, 1000)
        assert len(idle) == 1000  # accepted, refused (503) or waiting in the listen queue: none refused
        status, took = await _answered(sock, 20)  # once the idle ones have timed out
        print(f"1000 idle connections at RLIMIT_NOFILE 256: a normal request answered after {took:.1f} s")
        for _, w in idle:
            w.close()
        assert (await _answered(sock, 5))[0] == 200
    finally:
        await _stop(proc)
    assert proc.returncode == 0
    log = (short_tmp / "daemon.log").read_text()
    assert "max_connections lowered from 1000 to 160" in log
    assert "Traceback" not in log and len(log) < 5_000, log[-2000:]


async def test_running_out_of_descriptors_logs_a_few_lines_and_recovers(short_tmp):
    proc, sock = await _daemon(short_tmp, (256, 4096), header_timeout=1)
    try:
        assert _soft_limit(proc.pid) == 4096  # raised to the hard limit at start
        resource.prlimit(proc.pid, resource.RLIMIT_NOFILE, (128, 128))  # then the descriptors run out
        idle = await _open_idle(sock, 400)
        status, took = await _answered(sock, 20)
        print(f"400 idle connections at RLIMIT_NOFILE 128 (lowered at run time): answered after {took:.1f} s")
        for _, w in idle:
            w.close()
        api = ApiClient(sock)
        try:
            status, a = await api.call("POST", "/v1/approvals", json=MEDIUM)
            assert status == 202  # the ledger still has its descriptors
            await still_serving(api, a["id"])
        finally:
            await api.close()
    finally:
        await _stop(proc)
    assert proc.returncode == 0
    log = (short_tmp / "daemon.log").read_text()
    assert 1 <= log.count("socket.accept() out of system resource") <= 3, log[-3000:]
    assert "Traceback" not in log and len(log) < 5_000, log[-2000:]
