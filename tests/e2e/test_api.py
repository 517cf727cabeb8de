"""The local API: statuses, errors, limits, who may decide, restarts."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat

import pytest

from bot.app import AlreadyRunning, Daemon
from tests.conftest import ApiClient, make_config

MEDIUM = {"action": "terminal", "command": "git push origin main"}


async def test_malformed_requests_get_clear_errors_and_daemon_keeps_serving(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    cases = [
        (dict(data=b"{not json", headers={"Content-Type": "application/json"}), 400, "malformed_json"),
        (dict(json={"action": 42}), 400, "invalid_request"),
        (dict(json={"action": "terminal", "command": ["rm"]}), 400, "invalid_request"),
        (dict(json={"action": "terminal", "colour": "red"}), 400, "invalid_request"),
        (dict(json={"command": "ls"}), 400, "invalid_request"),
        (dict(json={"action": ""}), 400, "invalid_request"),
        (dict(json=["action"]), 400, "invalid_request"),
        (dict(json={"action": "x" * 201}), 400, "invalid_request"),
        (dict(json={"action": "terminal", "command": "a" * (33 * 1024)}), 400, "invalid_request"),
        (dict(data=json.dumps({"action": "t", "command": "a" * 100 * 1024}).encode(),
              headers={"Content-Type": "application/json"}), 413, "body_too_large"),
        (dict(data=b'{"action": "terminal"}', headers={"Content-Type": "text/plain"}), 415, "unsupported_media_type"),
    ]
    for kwargs, status, code in cases:
        got, body = await api.call("POST", "/v1/approvals", **kwargs)
        assert (got, body["error"]["code"]) == (status, code), kwargs
        assert body["error"]["message"]
    status, body = await api.call("POST", "/v1/approvals", json={"action": "terminal", "colour": "red"})
    assert "colour" in body["error"]["message"]
    assert (await api.call("GET", "/v1/approvals/nope"))[0] == 404
    assert (await api.call("POST", "/v1/approvals/nope/decision", json={"decision": "approve"}))[0] == 404
    assert (await api.call("POST", "/v1/approvals/nope/cancel"))[0] == 404
    assert (await api.call("GET", "/v1/nothing"))[0] == 404
    status, body = await api.call("DELETE", "/v1/approvals")
    assert status == 405 and body["error"]["code"] == "method_not_allowed"
    assert (await api.call("GET", "/v1/approvals/x?wait=soon"))[0] == 400
    # Still serving, and nothing was recorded for the refused requests.
    status, health = await api.call("GET", "/v1/health")
    assert status == 200 and health["status"] == "ok" and health["channels"] == {"terminal": "up"}
    assert await daemon.ledger.count() == 0


async def test_terminal_decision_cancel_and_409(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    status, a = await api.call("POST", "/v1/approvals", json=MEDIUM)
    assert status == 202 and a["status"] == "pending" and a["tier"] == "MEDIUM" and a["deadline"]
    status, pending = await api.call("GET", "/v1/approvals?status=pending")
    assert [p["id"] for p in pending["approvals"]] == [a["id"]]
    status, decided = await api.call("POST", f"/v1/approvals/{a['id']}/decision",
                                     json={"decision": "deny", "note": "not on a Friday"})
    assert status == 200 and decided["status"] == "denied" and decided["note"] == "not on a Friday"
    assert decided["decided_via"] == "cli" and decided["decided_by"].startswith("cli:")
    status, err = await api.call("POST", f"/v1/approvals/{a['id']}/decision", json={"decision": "approve"})
    assert status == 409 and "denied" in err["error"]["message"]
    status, err = await api.call("POST", f"/v1/approvals/{a['id']}/cancel")
    assert status == 409
    _, b = await api.call("POST", "/v1/approvals", json=MEDIUM)
    status, cancelled = await api.call("POST", f"/v1/approvals/{b['id']}/cancel")
    assert status == 200 and cancelled["status"] == "cancelled"
    status, bad = await api.call("POST", f"/v1/approvals/{b['id']}/decision", json={"decision": "maybe"})
    assert status == 400


async def test_concurrent_decisions_one_wins(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    _, a = await api.call("POST", "/v1/approvals", json=MEDIUM)
    decisions = ["approve", "deny"] * 5
    results = await asyncio.gather(*(api.call("POST", f"/v1/approvals/{a['id']}/decision", json={"decision": d})
                                     for d in decisions))
    winners = [body for status, body in results if status == 200]
    losers = [body for status, body in results if status == 409]
    assert len(winners) == 1 and len(losers) == 9
    _, final = await api.call("GET", f"/v1/approvals/{a['id']}")
    assert final["status"] == winners[0]["status"]
    events = (await daemon.ledger.events([a["id"]]))[a["id"]]
    assert [e.kind for e in events].count("decided") == 1


async def test_long_poll_wait_returns_202_then_200(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    _, a = await api.call("POST", "/v1/approvals", json=MEDIUM)
    status, same = await api.call("GET", f"/v1/approvals/{a['id']}?wait=0.2")
    assert status == 202 and same["status"] == "pending"
    waiter = asyncio.create_task(api.call("GET", f"/v1/approvals/{a['id']}?wait=30"))
    other = ApiClient(daemon.socket_path)
    try:
        await other.call("POST", f"/v1/approvals/{a['id']}/decision", json={"decision": "approve"})
    finally:
        await other.close()
    status, final = await asyncio.wait_for(waiter, 5)
    assert status == 200 and final["status"] == "approved"


async def test_socket_mode_and_second_daemon_refused(start_daemon, short_tmp):
    config = make_config(short_tmp)
    daemon, api = await start_daemon(config)
    mode = stat.S_IMODE(os.stat(config.server.path()).st_mode)
    assert mode == 0o600
    with pytest.raises(AlreadyRunning):
        await Daemon(config).start()
    assert (await api.call("GET", "/v1/health"))[0] == 200  # the first one still serves


async def test_stale_socket_file_is_replaced(start_daemon, short_tmp):
    config = make_config(short_tmp)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(config.server.path()))
    stale.close()  # file left behind, nobody listening
    daemon, api = await start_daemon(config)
    assert (await api.call("GET", "/v1/health"))[0] == 200


async def test_pending_approval_survives_restart_and_overdue_escalates(short_tmp):
    config = make_config(short_tmp, timeouts=(0.3, 30, 30))
    daemon = Daemon(config)
    await daemon.start()
    api = ApiClient(config.server.path())
    _, overdue = await api.call("POST", "/v1/approvals", json=MEDIUM)
    _, keeps = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "rm -r build"})
    await daemon.broker.drain()
    _, keeps = await api.call("GET", f"/v1/approvals/{keeps['id']}")  # deadline as moved by the card
    await api.close()
    await daemon.stop()
    await asyncio.sleep(0.5)  # the daemon is down while the MEDIUM deadline passes
    daemon = Daemon(config)
    await daemon.start()
    api = ApiClient(config.server.path())
    try:
        _, a = await api.call("GET", f"/v1/approvals/{overdue['id']}")
        assert a["status"] == "pending" and a["tier"] == "HIGH"  # escalated one step, full HIGH timeout
        _, b = await api.call("GET", f"/v1/approvals/{keeps['id']}")
        assert b["status"] == "pending" and b["tier"] == keeps["tier"] and b["deadline"] == keeps["deadline"]
        status, decided = await api.call("POST", f"/v1/approvals/{keeps['id']}/decision", json={"decision": "approve"})
        assert decided["status"] == "approved"
    finally:
        await api.close()
        await daemon.stop()


async def test_overdue_critical_expires_at_restart(short_tmp):
    config = make_config(short_tmp, timeouts=(30, 30, 0.2))
    daemon = Daemon(config)
    await daemon.start()
    api = ApiClient(config.server.path())
    _, crit = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "rm -rf /"})
    assert crit["tier"] == "CRITICAL"
    await api.close()
    # Stop without letting the deadline run, then restart after it passed.
    daemon.scheduler.cancel(crit["id"])
    await daemon.stop()
    await asyncio.sleep(0.3)
    daemon = Daemon(config)
    await daemon.start()
    api = ApiClient(config.server.path())
    try:
        _, a = await api.call("GET", f"/v1/approvals/{crit['id']}")
        assert a["status"] == "expired" and a["decided_by"] == "timeout"
    finally:
        await api.close()
        await daemon.stop()


async def test_invalid_unicode_is_refused_not_crashed(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    raw = b'{"action": "terminal", "command": "ls \\ud800"}'
    status, body = await api.call("POST", "/v1/approvals", data=raw, headers={"Content-Type": "application/json"})
    assert status == 400 and "surrogate" in body["error"]["message"]
    assert (await api.call("GET", "/v1/health"))[0] == 200


async def test_second_daemon_on_the_same_ledger_is_refused(start_daemon, short_tmp):
    config = make_config(short_tmp)
    await start_daemon(config)
    other = config.model_copy(update={"server": config.server.model_copy(update={"socket_path": short_tmp / "t.sock"})})
    with pytest.raises(AlreadyRunning, match="ledger"):
        await Daemon(other).start()
    assert oct(os.stat(short_tmp / "ledger.db").st_mode & 0o777) == "0o600"


async def test_low_goes_to_a_human_when_an_llm_is_configured_but_unavailable(start_daemon, short_tmp):
    from bot.config import LLMConfig

    config = make_config(short_tmp, llm=LLMConfig(base_url="http://127.0.0.1:9/v1", model="m"))
    daemon, api = await start_daemon(config)
    status, a = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "make test"})
    assert status == 202 and a["status"] == "pending" and a["tier"] == "MEDIUM"
