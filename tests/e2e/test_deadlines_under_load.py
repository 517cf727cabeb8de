"""Deadlines hold under load (issue 13): a burst of approvals with short tier timeouts all escalate twice
and expire, in a daemon that keeps running and in one killed with SIGKILL in the middle and restarted; a
timer that is lost anyway is caught by the sweeper."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path

import aiohttp
import yaml

from adapters.terminal import TerminalChannel
from tests.conftest import ApiClient, make_config

ROOT = Path(__file__).resolve().parents[2]
MEDIUM = {"action": "terminal", "command": "git push origin main"}  # MEDIUM → HIGH → CRITICAL → expired


async def _submit(socket_path: Path, n: int, tag: str, concurrency: int = 32) -> list[str]:
    """Create ``n`` MEDIUM approvals over the socket (``concurrency`` at a time); returns their ids."""
    ids: list[str] = []
    sem = asyncio.Semaphore(concurrency)
    async with aiohttp.ClientSession(connector=aiohttp.UnixConnector(path=str(socket_path))) as http:
        async def one(i: int) -> None:
            async with sem, http.post("http://signoff/v1/approvals",
                                      json={**MEDIUM, "idempotency_key": f"{tag}-{i}"}) as resp:
                body = await resp.json()
                assert resp.status == 202, body
                ids.append(body["id"])

        await asyncio.gather(*(one(i) for i in range(n)))
    return ids


def _statuses(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT status, count(*) FROM approvals GROUP BY status").fetchall())


def _events(db: Path, kind: str) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT approval_id, count(*) FROM events WHERE kind = ? GROUP BY approval_id",
                                 (kind,)).fetchall())


async def _until(check, timeout: float, what: str) -> float:
    """Poll ``check()`` until true; returns the seconds it took. Fails naming ``what`` after ``timeout``."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what} not within {timeout} s")
        await asyncio.sleep(0.1)
    return time.monotonic() - start


async def test_a_burst_of_approvals_all_escalate_twice_and_expire(start_daemon, short_tmp) -> None:
    n = 1500
    daemon, _ = await start_daemon(make_config(short_tmp, timeouts=(1, 1, 1)),
                                   channels=[TerminalChannel(out=io.StringIO())])
    db = short_tmp / "ledger.db"
    ids = await _submit(daemon.socket_path, n, "burst")
    await _until(lambda: _statuses(db).get("pending", 0) == 0, 180, f"all {n} approvals final")
    assert _statuses(db) == {"expired": n}
    escalated = _events(db, "escalated")
    assert all(escalated.get(i) == 2 for i in ids), "every approval escalates MEDIUM → HIGH → CRITICAL once each"
    assert set(_events(db, "expired")) == set(ids)
    # The timers carry the deadlines; on a machine loaded enough to make a timer 5 s late the sweeper may
    # take a few (with reused job ids, three in four needed it).
    assert daemon.broker.swept <= n // 20, f"the sweeper had to run {daemon.broker.swept} deadlines"
    assert daemon.scheduler.armed == 0


async def test_a_lost_timer_is_caught_by_the_sweeper(start_daemon, short_tmp, monkeypatch, caplog) -> None:
    import bot.app

    monkeypatch.setattr(bot.app, "SWEEP_INTERVAL_S", 0.1)
    monkeypatch.setattr(bot.app, "SWEEP_GRACE_S", 0.2)
    daemon, api = await start_daemon(make_config(short_tmp, timeouts=(0.3, 60, 60)),
                                     channels=[TerminalChannel(out=io.StringIO())])
    monkeypatch.setattr(daemon.scheduler, "schedule", lambda approval_id, at: None)  # every timer is lost
    status, approval = await api.call("POST", "/v1/approvals", json=MEDIUM)
    assert status == 202
    db = short_tmp / "ledger.db"
    await _until(lambda: _events(db, "escalated").get(approval["id"]) == 1, 10, "the sweeper's escalation")
    _, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert now["status"] == "pending" and now["tier"] == "HIGH"
    assert _events(db, "deadline_swept") == {approval["id"]: 1}
    assert daemon.broker.swept == 1
    assert "its timer did not run" in caplog.text


async def test_a_burst_survives_sigkill_and_restart(short_tmp) -> None:
    n = 800
    cfg = {"server": {"socket_path": str(short_tmp / "s.sock")}, "ledger": {"url": f"sqlite:///{short_tmp}/ledger.db"},
           "tiers": {"MEDIUM": {"timeout": 3}, "HIGH": {"timeout": 3}, "CRITICAL": {"timeout": 3}}}
    cfg_path = short_tmp / "config.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg))
    db = short_tmp / "ledger.db"
    sock = short_tmp / "s.sock"

    async def run() -> asyncio.subprocess.Process:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", "--config", str(cfg_path), cwd=ROOT,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL, env=os.environ.copy())

        async def ready() -> bool:
            try:
                api = ApiClient(sock)
                try:
                    status, _ = await api.call("GET", "/v1/health")
                    return status == 200
                finally:
                    await api.close()
            except (aiohttp.ClientError, OSError):
                return False

        deadline = time.monotonic() + 60
        while not await ready():
            assert proc.returncode is None, "the daemon exited"
            assert time.monotonic() < deadline, "the daemon did not start"
            await asyncio.sleep(0.1)
        return proc

    proc = await run()
    try:
        ids = await _submit(sock, n, "kill")
        await _until(lambda: len(_events(db, "escalated")) > 0, 30, "a first escalation")
        os.kill(proc.pid, signal.SIGKILL)  # in the middle of the burst's deadlines
        await proc.wait()
        assert _statuses(db).get("pending", 0) > 0, "killed too late to test a restart"
        proc = await run()
        await _until(lambda: _statuses(db).get("pending", 0) == 0, 180, f"all {n} approvals final after a restart")
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            await proc.wait()
    assert _statuses(db) == {"expired": n}, "nothing approved, nothing left pending"
    assert set(_events(db, "expired")) == set(ids)
    from core.ledger import verify_ledger

    report = verify_ledger(f"sqlite:///{db}")
    assert report.intact, report.to_json()  # a kill -9 between writes leaves the hash chain whole
