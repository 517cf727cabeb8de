"""``signoff ledger verify`` and ``signoff doctor`` as a user runs them: subprocesses reading the ledger file of
a real daemon (while it runs, and after it stopped and the file was edited behind its back)."""

from __future__ import annotations

import json
import sqlite3

from tests.conftest import make_config
from tests.e2e.test_cli import run_cli, write_config

MEDIUM = {"action": "terminal", "command": "git push origin main", "agent": "demo"}


async def _approvals(api, n: int) -> list[dict]:
    out = []
    for i in range(n):
        _, a = await api.call("POST", "/v1/approvals", json={**MEDIUM, "cwd": f"/w{i}"})
        decision = "approve" if i % 2 == 0 else "deny"
        _, a = await api.call("POST", f"/v1/approvals/{a['id']}/decision", json={"decision": decision, "note": "n"})
        out.append(a)
    return out


async def test_verify_intact_tampered_and_unreadable(start_daemon, short_tmp):
    cfg = write_config(short_tmp)
    daemon, api = await start_daemon(make_config(short_tmp))
    approved, denied, _ = await _approvals(api, 3)
    assert denied["status"] == "denied"

    rc, out, err = await run_cli("ledger", "verify", "--config", str(cfg))  # the daemon runs: read-only beside it
    assert rc == 0, out + err
    assert "intact" in out and "3 approvals" in out

    await api.close()
    await daemon.stop()
    db = sqlite3.connect(short_tmp / "ledger.db")
    db.execute("UPDATE approvals SET status = 'approved' WHERE id = ?", (denied["id"],))
    (ev,) = db.execute("SELECT id FROM events WHERE approval_id = ? AND kind = 'decided'", (approved["id"],)).fetchone()
    db.execute("UPDATE events SET actor = 'cli:mallory' WHERE id = ?", (ev,))
    db.commit()
    db.close()

    rc, out, err = await run_cli("ledger", "verify", "--config", str(cfg))
    assert rc == 1, out + err
    assert f"event {ev}" in out and "edited" in out
    assert f"approval {denied['id']} disagrees with its events (status" in out
    rc, out, err = await run_cli("--config", str(cfg), "ledger", "verify", "--json")
    assert rc == 1, err
    report = json.loads(out)
    assert report["intact"] is False and report["events"]["chained"] == report["head"]["seq"]
    assert (report["first_bad_event"]["id"], report["first_bad_event"]["problem"]) == (ev, "edited")
    assert [(d["kind"], d["id"], d["problem"], d["fields"]) for d in report["disagreeing"]] == [
        ("approval", denied["id"], "disagrees", ["status"])]

    rc, out, err = await run_cli("doctor", "--config", str(cfg))
    assert rc == 1 and f"PROBLEM  ledger: TAMPERED: approval {denied['id']} disagrees" in out, out

    (short_tmp / "ledger.db").rename(short_tmp / "moved.db")
    rc, out, err = await run_cli("ledger", "verify", "--config", str(cfg), "--json")
    assert rc == 2 and "cannot read the ledger" in err and "no ledger file" in err
    assert json.loads(out)["intact"] is None
    (short_tmp / "ledger.db").write_bytes(b"\x00garbage" * 512)
    rc, out, err = await run_cli("ledger", "verify", "--config", str(cfg))
    assert rc == 2 and "not a database" in err, err


async def test_doctor_reports_an_intact_chain(start_daemon, short_tmp):
    cfg = write_config(short_tmp)
    daemon, api = await start_daemon(make_config(short_tmp))
    await _approvals(api, 2)
    rc, out, err = await run_cli("doctor", "--config", str(cfg))
    assert "ok       ledger: chain intact: " in out and "2 approvals" in out, out
