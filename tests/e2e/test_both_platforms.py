"""Telegram and Discord side by side (the real python-telegram-bot and discord.py against their
loopback fakes): one decision anywhere ends the approval everywhere."""

from __future__ import annotations

import asyncio

from bot.config import CrisisConfig
from tests.conftest import (
    APPROVAL_CHAT,
    APPROVER,
    CRISIS_CHAT,
    DISCORD_APPROVAL,
    DISCORD_APPROVER,
    DISCORD_CRISIS,
    DISCORD_ONCALL,
    ONCALL_CHAT,
    discord_config,
    make_config,
)
from tests.e2e.test_discord_flow import MEDIUM_CMD, embed_text, reply


def both(tmp, telegram, dc, **kwargs):
    return make_config(tmp, telegram, discord=discord_config(dc), **kwargs)


async def _cards(telegram, dc):
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), what="telegram card")
    await dc.wait_for(lambda: dc.sent(DISCORD_APPROVAL), what="discord card")
    return telegram.sent(APPROVAL_CHAT)[0], dc.sent(DISCORD_APPROVAL)[0]


async def test_health_lists_both_and_terminal_is_off(telegram, discord, start_daemon, short_tmp):
    daemon, api = await start_daemon(both(short_tmp, telegram, discord))
    status, health = await api.call("GET", "/v1/health")
    assert status == 200 and health["channels"] == {"telegram": "up", "discord": "up"}
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    status, err = await api.call("POST", f"/v1/approvals/{approval['id']}/decision", json={"decision": "approve"})
    assert status == 403


async def test_decision_in_discord_edits_the_telegram_card(telegram, discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(both(short_tmp, telegram, dc))
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    tg_card, dc_card = await _cards(telegram, dc)
    assert tg_card.callback_data[0][2:] == dc_card.custom_ids[0].split(":")[2]  # the same approval
    iid = dc.press(dc_card.id, dc_card.custom_ids[0], user_id=DISCORD_APPROVER, username="alice")
    status, approval = await asyncio.wait_for(waiting, 5)
    assert (status, approval["status"], approval["decided_via"]) == (200, "approved", "discord")
    await telegram.wait_for(lambda: tg_card.reply_markup is None, what="telegram card loses its buttons")
    assert "Approved by @alice" in tg_card.text
    await dc.wait_for(lambda: dc_card.components == [])
    assert "Approved by @alice" in embed_text(dc_card)
    await dc.wait_for(lambda: reply(dc, iid) is not None and reply(dc, iid).content)


async def test_simultaneous_presses_on_both_platforms_give_one_outcome(telegram, discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(both(short_tmp, telegram, dc))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    tg_card, dc_card = await _cards(telegram, dc)
    qid = telegram.press(APPROVAL_CHAT, tg_card.message_id, tg_card.callback_data[1], APPROVER, username="bob")
    iid = dc.press(dc_card.id, dc_card.custom_ids[0], user_id=DISCORD_APPROVER, username="alice")
    await telegram.wait_for(lambda: any(a["callback_query_id"] == qid for a in telegram.answers))
    await dc.wait_for(lambda: reply(dc, iid) is not None and reply(dc, iid).content)
    _, final = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert final["status"] in ("approved", "denied")
    outcome = "Approved by @alice" if final["status"] == "approved" else "Denied by @bob"
    await telegram.wait_for(lambda: outcome in tg_card.text and tg_card.reply_markup is None)
    await dc.wait_for(lambda: outcome in embed_text(dc_card) and dc_card.components == [])
    toast = next(a["text"] for a in telegram.answers if a["callback_query_id"] == qid)
    answers = [toast, reply(dc, iid).content]
    assert sum(a.startswith("Already") for a in answers) == 1  # the loser is told the true outcome
    assert any(a.startswith(f"Already {final['status']}") for a in answers)


async def test_decision_in_telegram_edits_the_discord_card(telegram, discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(both(short_tmp, telegram, dc))
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    tg_card, dc_card = await _cards(telegram, dc)
    telegram.press(APPROVAL_CHAT, tg_card.message_id, tg_card.callback_data[1], APPROVER, username="bob")
    status, approval = await asyncio.wait_for(waiting, 5)
    assert (status, approval["status"], approval["decided_via"]) == (200, "denied", "telegram")
    await dc.wait_for(lambda: dc_card.components == [], what="discord card loses its buttons")
    assert "Denied by @bob" in embed_text(dc_card)
    # A press on the (now stale) Discord copy is told the outcome; nothing changes.
    await telegram.wait_for(lambda: tg_card.reply_markup is None)
    iid = dc.press(dc_card.id, f"signoff:a:{approval['id']}", user_id=DISCORD_APPROVER, forged=True)
    await dc.wait_for(lambda: reply(dc, iid) is not None and reply(dc, iid).content)
    assert "does not belong" in reply(dc, iid).content  # the edited card no longer carries that button


async def test_escalation_and_expiry_reach_every_copy(telegram, discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(both(short_tmp, telegram, dc, timeouts=(0.4, 0.4, 0.4)))
    status, approval = await api.call("POST", "/v1/approvals?wait=10", json=MEDIUM_CMD)
    assert (status, approval["status"]) == (200, "expired")
    tg_card, dc_card = telegram.sent(APPROVAL_CHAT)[0], dc.sent(DISCORD_APPROVAL)[0]
    await telegram.wait_for(lambda: telegram.sent(ONCALL_CHAT), what="telegram on-call notified")
    await dc.wait_for(lambda: dc.sent(DISCORD_ONCALL), what="discord on-call notified")
    tg_oncall, dc_oncall = telegram.sent(ONCALL_CHAT)[0], dc.sent(DISCORD_ONCALL)[0]
    await telegram.wait_for(lambda: all("Expired" in m.text and m.reply_markup is None for m in (tg_card, tg_oncall)),
                            what="telegram copies show expiry")
    await dc.wait_for(lambda: all("Expired" in embed_text(m) and m.components == [] for m in (dc_card, dc_oncall)),
                      what="discord copies show expiry")


async def test_crisis_alert_reaches_both_and_one_ack_updates_both(telegram, discord, start_daemon, short_tmp):
    dc = discord
    cfg = both(short_tmp, telegram, dc, crisis=CrisisConfig(ack_timeout=30, max_realerts=1))
    daemon, api = await start_daemon(cfg)
    status, body = await api.call("POST", "/v1/crisis", json={"text": "I want to die", "agent": "companion"})
    assert status == 200
    await telegram.wait_for(lambda: telegram.sent(CRISIS_CHAT), what="telegram crisis alert")
    await dc.wait_for(lambda: dc.sent(DISCORD_CRISIS), what="discord crisis alert")
    dc_alert, tg_alert = dc.sent(DISCORD_CRISIS)[0], telegram.sent(CRISIS_CHAT)[0]
    dc.press(dc_alert.id, dc_alert.custom_ids[0], user_id=777, username="rita")
    await telegram.wait_for(lambda: "@rita is on it" in tg_alert.text and tg_alert.reply_markup is None,
                            what="telegram alert shows the responder")
    await dc.wait_for(lambda: "@rita is on it" in embed_text(dc_alert) and dc_alert.components == [])


async def test_discord_down_does_not_stop_telegram(telegram, discord, start_daemon, short_tmp):
    dc = discord
    dc.down = True
    daemon, api = await start_daemon(both(short_tmp, telegram, dc, timeouts=(30, 30, 30)))
    _, health = await api.call("GET", "/v1/health")
    assert health["channels"] == {"telegram": "up", "discord": "down"}
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT))
    tg_card = telegram.sent(APPROVAL_CHAT)[0]
    telegram.press(APPROVAL_CHAT, tg_card.message_id, tg_card.callback_data[0], APPROVER)
    status, approval = await asyncio.wait_for(waiting, 5)
    assert approval["status"] == "approved"
    dc.down = False
    await dc.wait_for(lambda: dc.connected, timeout=20, what="discord back")
    await daemon.broker.drain()
    assert dc.sent(DISCORD_APPROVAL) == []  # decided while down: no stale card posted afterwards
