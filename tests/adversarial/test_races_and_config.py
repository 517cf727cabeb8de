"""Adversarial: compare-and-set races (guarantees) and start-up with a bad ledger URL."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from core.errors import AlreadyDecided
from core.models import Actor, DecidedVia, Status
from tests.conftest import make_config

CRIT = {"action": "terminal", "command": "rm -rf /"}
MEDIUM = {"action": "terminal", "command": "git push origin main"}
ALICE = Actor(id="cli:alice", name="alice", via=DecidedVia.CLI)


async def test_decision_and_deadline_at_the_same_instant_have_one_outcome(start_daemon, short_tmp):
    """Guarantee (holds): a press and a CRITICAL deadline at the same instant, and a cancel racing a
    decision: exactly one outcome is written, the loser gets AlreadyDecided carrying the true
    outcome, and the ledger's final event agrees with the status (40 rounds each)."""
    daemon, api = await start_daemon(make_config(short_tmp, timeouts=(60, 60, 60)))
    broker = daemon.broker
    for i in range(40):
        _, a = await api.call("POST", "/v1/approvals", json={**CRIT, "cwd": f"/r{i}"})
        row = await daemon.ledger.get_row(a["id"])
        broker.clock = lambda row=row: row.deadline  # "now" is exactly the deadline
        try:
            res = await asyncio.gather(broker.on_deadline(a["id"]), broker.decide(a["id"], True, ALICE),
                                       return_exceptions=True)
        finally:
            from core.models import utcnow
            broker.clock = utcnow
        final = await broker.get(a["id"])
        assert final.status in (Status.APPROVED, Status.EXPIRED)
        if isinstance(res[1], AlreadyDecided):
            assert res[1].approval.status is final.status is Status.EXPIRED
        else:
            assert final.status is Status.APPROVED
        events = [e.kind for e in (await daemon.ledger.events([a["id"]]))[a["id"]]]
        assert events.count("decided") + events.count("expired") == 1
    for i in range(40):
        _, a = await api.call("POST", "/v1/approvals", json={**MEDIUM, "cwd": f"/c{i}"})
        results = await asyncio.gather(
            broker.cancel(a["id"], ALICE), broker.decide(a["id"], False, ALICE), broker.decide(a["id"], True, ALICE),
            return_exceptions=True)
        winners = [r for r in results if not isinstance(r, BaseException)]
        losers = [r for r in results if isinstance(r, AlreadyDecided)]
        assert len(winners) == 1 and len(losers) == 2
        assert all(lo.approval.status is winners[0].status for lo in losers)


def _run_daemon(tmp, ledger_url: str) -> subprocess.CompletedProcess:
    cfg = tmp / "c.yaml"
    cfg.write_text(f"server: {{socket_path: {tmp}/s.sock}}\nledger: {{url: '{ledger_url}'}}\n")
    env = {**os.environ, "HOME": str(tmp)}
    return subprocess.run([sys.executable, "-m", "bot.cli", "run", "--config", str(cfg)], capture_output=True,
                          text=True, timeout=30, env=env, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))


@pytest.mark.parametrize("kind", ["directory", "unsupported_scheme"])
def test_bad_ledger_url_gives_a_clear_error_not_a_traceback(short_tmp, kind):
    """Regression (found by an adversarial run, fixed): ``ledger.url`` pointing at a directory (``sqlite:////some/dir``) or using a database
    that is not installed (``mysql://…``) makes ``signoff run`` die with a raw Python traceback
    (sqlalchemy OperationalError "unable to open database file" / ModuleNotFoundError 'MySQLdb').
    Should: one line naming ``ledger.url`` and the problem, exit 2 (bad config) or 1 (cannot start),
    as it already does for a too-long socket path. Severity: cosmetic (unclear error)."""
    if kind == "directory":
        (short_tmp / "dir.db").mkdir()
        url = f"sqlite:///{short_tmp}/dir.db"
    else:
        url = "mysql://user@localhost/signoff"
    proc = _run_daemon(short_tmp, url)
    assert proc.returncode in (1, 2)
    assert "Traceback" not in proc.stderr, proc.stderr[-600:]
    assert "ledger" in proc.stderr.lower()
