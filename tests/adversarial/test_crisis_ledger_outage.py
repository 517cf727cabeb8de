"""Adversarial: a crisis alert raised while the ledger is failing, which later recovers."""

from __future__ import annotations

import asyncio

import core.crisis_desk
from bot.config import CrisisConfig
from tests.conftest import CRISIS_CHAT, ONCALL_CHAT, make_config


def alerts(telegram, chat=CRISIS_CHAT):
    return [m for m in telegram.sent(chat) if "Crisis alert" in m.text]


async def test_crisis_alert_is_recorded_and_realerted_after_a_long_ledger_outage(
        telegram, start_daemon, short_tmp, monkeypatch):
    """Regression (found by an adversarial run, fixed): the crisis desk gives up writing an alert to the ledger after a fixed retry schedule
    (RETRY_DELAYS_S = 0.5+1+2+5+10+30+60 s ≈ 108 s; compressed here to milliseconds so the test is
    quick). A ledger outage longer than that (disk full, a locked SQLite file, a PostgreSQL failover)
    loses the alert for good: it is never recorded, ``on_ack_timeout`` finds no row
    (count_realert → None) and silently stops re-alerting, and a responder who presses
    "I'm on it" is told "This alert is unknown to signoff". Should: keep retrying (the alert is
    held in memory) until the ledger is back, and keep re-alerting meanwhile; an unacknowledged
    crisis must never go quiet. Severity: missed crisis (re-alerts stop; acknowledgement refused)."""
    monkeypatch.setattr(core.crisis_desk, "RETRY_DELAYS_S", (0.01, 0.01, 0.01))
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(ack_timeout=0.5, max_realerts=3))
    daemon, api = await start_daemon(cfg)
    real_insert = daemon.ledger.insert_crisis
    outage = {"on": True}

    async def failing_insert(*args, **kwargs):
        if outage["on"]:
            raise OSError("database or disk is full")
        return await real_insert(*args, **kwargs)

    daemon.ledger.insert_crisis = failing_insert
    status, body = await api.call("POST", "/v1/crisis", json={"text": "I want to kill myself", "agent": "companion"})
    assert status == 200 and body["resources"]
    await telegram.wait_for(lambda: alerts(telegram), what="first alert")
    await asyncio.sleep(0.3)  # longer than the (compressed) retry schedule
    outage["on"] = False  # the ledger is back
    # The alert should now be recorded and, still unacknowledged, re-alerted to responders and on-call.
    await telegram.wait_for(lambda: len(alerts(telegram)) >= 2 and alerts(telegram, ONCALL_CHAT), timeout=5,
                            what="a re-alert of the unacknowledged crisis after the ledger recovered")
    await daemon.broker.drain()  # the ledger is written behind
    assert await daemon.ledger.get_crisis(body["id"]) is not None
