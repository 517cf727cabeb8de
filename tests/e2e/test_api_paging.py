"""``GET /v1/approvals`` pages (``limit``, ``before``, ``next``; newest first), and ``signoff pending`` still
shows every pending approval across pages; the ``server.*`` limit keys of the config."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
import yaml

from bot.config import ConfigError, load_config
from core.broker import Requester
from core.models import ApprovalRequest, Status
from tests.conftest import make_config

ROOT = Path(__file__).resolve().parents[2]


async def _submit(daemon, n: int, uid: int | None = None) -> list[str]:
    ids = []
    for i in range(n):
        a = await daemon.broker.submit(ApprovalRequest(action="terminal", command=f"git push origin b{i}"),
                                       Requester(uid=uid))
        ids.append(a.id)
    return ids


async def test_pages_newest_first_with_a_next_cursor(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    ids = await _submit(daemon, 7)
    _, ls = await api.call("POST", "/v1/approvals", json={"action": "read_file", "command": "README.md"})
    assert ls["status"] == "approved"
    newest_first = [ls["id"], *reversed(ids)]
    status, page = await api.call("GET", "/v1/approvals")
    assert status == 200 and [a["id"] for a in page["approvals"]] == newest_first and page["next"] is None
    seen, before = [], None
    while True:
        status, page = await api.call("GET", "/v1/approvals?limit=3" + (f"&before={before}" if before else ""))
        assert status == 200 and len(page["approvals"]) <= 3
        seen += [a["id"] for a in page["approvals"]]
        before = page["next"]
        if before is None:
            break
        assert before == seen[-1]
    assert seen == newest_first  # each once, in order
    status, page = await api.call("GET", f"/v1/approvals?status=pending&limit=4&before={ids[5]}")
    assert [a["id"] for a in page["approvals"]] == list(reversed(ids[:5]))[:4] and page["next"] == ids[1]
    status, page = await api.call("GET", "/v1/approvals?status=approved")
    assert [a["id"] for a in page["approvals"]] == [ls["id"]] and page["next"] is None
    status, page = await api.call("GET", "/v1/approvals?limit=8")
    assert len(page["approvals"]) == 8 and page["next"] is None  # exactly one full page: no empty page after


@pytest.mark.parametrize("query, code", [
    ("limit=0", "invalid_limit"), ("limit=1001", "invalid_limit"), ("limit=-1", "invalid_limit"),
    ("limit=ten", "invalid_limit"), ("limit=1.5", "invalid_limit"), ("limit=%D9%A1", "invalid_limit"),
    ("limit=" + "9" * 5000, "invalid_limit"), ("before=nope", "invalid_before"), ("status=done", "invalid_status"),
])
async def test_bad_paging_values_are_400(start_daemon, short_tmp, query, code):
    daemon, api = await start_daemon(make_config(short_tmp))
    status, body = await api.call("GET", f"/v1/approvals?{query}")
    assert status == 400 and body["error"]["code"] == code and body["error"]["message"]


async def test_an_agent_pages_through_its_own_only(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    theirs = await _submit(daemon, 2, uid=os.getuid() + 1)  # another user's
    mine = await _submit(daemon, 2, uid=os.getuid())
    status, page = await api.call("GET", "/v1/approvals?limit=1")
    assert page["approvals"][0]["id"] == mine[1]  # the daemon's own user sees all, newest first
    daemon.api.approver_uids = set()  # as an agent would: not the daemon's user
    daemon.api._sees_all = lambda caller: False
    status, page = await api.call("GET", "/v1/approvals?limit=1")
    assert [a["id"] for a in page["approvals"]] == [mine[1]] and page["next"] == mine[1]
    status, page = await api.call("GET", f"/v1/approvals?before={mine[1]}")
    assert [a["id"] for a in page["approvals"]] == [mine[0]] and page["next"] is None
    status, body = await api.call("GET", f"/v1/approvals?before={theirs[1]}")  # not even a cursor
    assert status == 400 and body["error"]["code"] == "invalid_before"


async def test_signoff_pending_shows_every_page(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, timeouts=(3600, 3600, 3600)), channels=[])
    await asyncio.gather(*(_submit(daemon, 201) for _ in range(5)))  # more than one page of 1,000
    ids = [a.id for a in await daemon.ledger.list(status=Status.PENDING)]  # oldest first
    assert len(ids) == 1005
    cfg = short_tmp / "cli.yaml"
    cfg.write_text(yaml.safe_dump({"server": {"socket_path": str(daemon.socket_path)}}))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "pending", "--json", "--config", str(cfg), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=os.environ.copy())
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert [a["id"] for a in json.loads(out)["approvals"]] == ids  # all of them, oldest first as before
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "pending", "--config", str(cfg), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=os.environ.copy())
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = out.decode().splitlines()
    assert proc.returncode == 0 and len(lines) == 1005 and lines[0].startswith(ids[0])


@pytest.mark.parametrize("text, needle", [
    ("server: {header_timeout: 0}\n", "server.header_timeout"),
    ("server: {body_timeout: -1}\n", "server.body_timeout"),
    ("server: {body_timeout: soon}\n", "server.body_timeout"),
    ("server: {max_connections: 0}\n", "server.max_connections"),
    ("server: {max_conections: 10}\n", "unknown key 'server.max_conections'"),
])
def test_bad_server_limits_name_the_key(tmp_path, text, needle):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={})
    assert needle in str(info.value) and str(path) in str(info.value)


def test_server_limits_default_and_are_read(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("server: {header_timeout: 5, body_timeout: 7.5, max_connections: 300}\n")
    server = load_config(path, environ={}).server
    assert (server.header_timeout, server.body_timeout, server.max_connections) == (5, 7.5, 300)
    path.write_text("server: {}\n")
    server = load_config(path, environ={}).server
    assert (server.header_timeout, server.body_timeout, server.max_connections) == (20, 30, 1000)
    example = load_config(ROOT / "config.example.yaml", environ={"SIGNOFF_TELEGRAM_TOKEN": "1:a"}).server
    assert (example.header_timeout, example.body_timeout, example.max_connections) == (20, 30, 1000)
