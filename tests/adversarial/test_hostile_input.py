"""Adversarial: hostile bodies and query strings against the local API."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from tests.conftest import make_config

JSON = {"Content-Type": "application/json"}


async def _raw(api, method: str, path: str, data: bytes):
    async with api.session.request(method, f"http://signoff{path}", data=data, headers=JSON) as resp:
        text = await resp.read()
        try:
            return resp.status, json.loads(text)
        except ValueError:
            return resp.status, {"raw": text[:200]}


@pytest.mark.parametrize("depth", [960, 5_000, 30_000])
async def test_deeply_nested_metadata_is_a_400_not_a_500(start_daemon, short_tmp, depth):
    """Regression (found by an adversarial run, fixed): a body that is valid JSON but nested deeper than Python's recursion limit (a 60 KB
    ``{"metadata": {"a": [[[[...]]]]}}`` fits well under the 64 KiB limit) makes ``json.loads`` raise
    RecursionError, which ``_json_body`` does not catch (only ValueError/UnicodeDecodeError): the
    catch-all answers 500 ``internal``. Should: 400 with a clear message (e.g. "nested too deeply"),
    like any other refused body. The daemon itself survives. Severity: wrong status code."""
    daemon, api = await start_daemon(make_config(short_tmp))
    body = (b'{"action":"terminal","command":"git push","metadata":{"a":' + b"[" * depth + b"]" * depth + b"}}")
    assert len(body) < 64 * 1024
    status, answer = await _raw(api, "POST", "/v1/approvals", body)
    assert (await api.call("GET", "/v1/health"))[0] == 200
    assert status == 400, f"got {status} {answer}"
    assert answer["error"]["code"] != "internal"


async def test_deeply_nested_crisis_and_decision_bodies_are_400(start_daemon, short_tmp):
    """Regression (found by an adversarial run, fixed): same RecursionError path on every JSON endpoint: ``POST /v1/crisis`` and ``POST
    /v1/approvals/{id}/decision`` with a deeply nested body answer 500 instead of 400.
    Severity: wrong status code."""
    daemon, api = await start_daemon(make_config(short_tmp))
    nested = b"[" * 20_000 + b"]" * 20_000
    got = {}
    got["crisis"] = (await _raw(api, "POST", "/v1/crisis", b'{"text":' + nested + b"}"))[0]
    _, approval = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "git push"})
    got["decision"] = (await _raw(api, "POST", f"/v1/approvals/{approval['id']}/decision",
                                  b'{"decision":"approve","note":' + nested + b"}"))[0]
    assert got == {"crisis": 400, "decision": 400}


async def test_slow_partial_request_does_not_block_other_clients(start_daemon, short_tmp):
    """Guarantee (holds): a slowloris-style client holding half-sent requests open does not stop
    others from being served, and its half body is never read as a request."""
    daemon, api = await start_daemon(make_config(short_tmp))
    slow = []
    for _ in range(50):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setblocking(False)
        await asyncio.get_running_loop().sock_connect(s, str(short_tmp / "s.sock"))
        s.send(b"POST /v1/approvals HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"act")
        slow.append(s)
    try:
        status, body = await asyncio.wait_for(api.call("POST", "/v1/approvals",
                                                       json={"action": "read_file", "command": "README.md"}), 5)
        assert (status, body["status"]) == (200, "approved")
        assert (await api.call("GET", "/v1/health"))[0] == 200
    finally:
        for s in slow:
            s.close()
    assert await daemon.ledger.count() == 1


async def test_chunked_body_over_the_limit_without_content_length_is_413(start_daemon, short_tmp):
    """Guarantee (holds): a chunked body larger than 64 KiB, sent without Content-Length, gets 413 and
    nothing is recorded."""
    daemon, api = await start_daemon(make_config(short_tmp))

    async def gen():
        yield b'{"action":"terminal","command":"'
        for _ in range(100):
            yield b"a" * 1024
        yield b'"}'

    async with api.session.post("http://signoff/v1/approvals", data=gen(), headers=JSON) as resp:
        assert resp.status == 413
        assert (await resp.json())["error"]["code"] == "body_too_large"
    assert await daemon.ledger.count() == 0


async def test_many_long_polls_on_one_approval_all_wake_on_decision(start_daemon, short_tmp):
    """Guarantee (holds): 500 concurrent long polls (wait=3600) on one approval, plus 100 on unknown
    ids (404 at once), and clients that disconnect mid-wait: one decision wakes every waiter with 200."""
    import aiohttp

    daemon, api = await start_daemon(make_config(short_tmp))
    _, approval = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "git push"})
    conn = aiohttp.UnixConnector(path=str(short_tmp / "s.sock"), limit=0)
    async with aiohttp.ClientSession(connector=conn) as session:
        async def poll(path):
            async with session.get(f"http://signoff{path}") as r:
                return r.status, await r.json()

        unknown = await asyncio.gather(*(poll(f"/v1/approvals/nope{i}?wait=3600") for i in range(100)))
        assert {s for s, _ in unknown} == {404}
        waiters, quitters = [], []
        waiters += [asyncio.create_task(poll(f"/v1/approvals/{approval['id']}?wait=3600")) for _ in range(500)]
        quitters += [asyncio.create_task(poll(f"/v1/approvals/{approval['id']}?wait=3600")) for _ in range(50)]
        for _ in range(3000):  # until every poll is held by the daemon (each has its connection)
            if len(daemon.api._runner.server.connections) >= 551:  # + the test's own api client
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(f"only {len(daemon.api._runner.server.connections)} connections held")
        for q in quitters:
            q.cancel()
        status, decided = await api.call("POST", f"/v1/approvals/{approval['id']}/decision", json={"decision": "deny"})
        assert decided["status"] == "denied"
        results = await asyncio.wait_for(asyncio.gather(*waiters), 10)
        assert {(s, b["status"]) for s, b in results} == {(200, "denied")}
    assert daemon.broker._waiters == {} or approval["id"] not in daemon.broker._waiters
