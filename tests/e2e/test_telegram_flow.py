"""The card round trip with the real python-telegram-bot against the loopback fake Bot API."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import APPROVAL_CHAT, APPROVER, CRISIS_CHAT, ONCALL_CHAT, STRANGER, make_config

MEDIUM_CMD = {"action": "terminal", "command": "git push origin main", "agent": "claude"}


async def _card(telegram, count: int = 1):
    await telegram.wait_for(lambda: len(telegram.sent(APPROVAL_CHAT)) >= count, what=f"{count} card(s)")
    return telegram.sent(APPROVAL_CHAT)[count - 1]


async def test_request_posts_one_card_and_approver_press_unblocks_waiting_agent(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    card = await _card(telegram)
    assert card.parse_mode == "HTML"
    assert "git push origin main" in card.text and "claude" in card.text
    approval_id = card.callback_data[0][2:]
    assert card.callback_data == [f"a:{approval_id}", f"d:{approval_id}"]
    assert all(len(d.encode()) <= 64 for d in card.callback_data)
    assert not waiting.done()

    telegram.press(APPROVAL_CHAT, card.message_id, f"a:{approval_id}", APPROVER, username="alice")
    status, approval = await asyncio.wait_for(waiting, 5)
    assert status == 200
    assert approval["status"] == "approved"
    assert approval["decided_by"] == f"telegram:{APPROVER}"
    assert approval["decided_by_name"] == "@alice"
    assert approval["decided_via"] == "telegram"
    await telegram.wait_for(lambda: card.reply_markup is None, what="card loses its buttons")
    assert "Approved by @alice" in card.text
    assert any("Approved" in (a.get("text") or "") for a in telegram.answers)
    assert len(telegram.sent(APPROVAL_CHAT)) == 1  # one card, edited in place


async def test_deny_press_denies_and_edits_card(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    card = await _card(telegram)
    telegram.press(APPROVAL_CHAT, card.message_id, card.callback_data[1], APPROVER)
    status, approval = await asyncio.wait_for(waiting, 5)
    assert (status, approval["status"]) == (200, "denied")
    await telegram.wait_for(lambda: card.reply_markup is None)
    assert "Denied by @alice" in card.text


async def test_non_approver_press_changes_nothing_and_is_recorded(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    status, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    assert status == 202
    card = await _card(telegram)
    qid = telegram.press(APPROVAL_CHAT, card.message_id, card.callback_data[0], STRANGER, username="mallory")
    await telegram.wait_for(lambda: any(a["callback_query_id"] == qid for a in telegram.answers))
    toast = next(a for a in telegram.answers if a["callback_query_id"] == qid)
    assert "not an approver" in toast["text"]
    status, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert (status, now["status"]) == (202, "pending")
    assert card.reply_markup is not None
    events = (await daemon.ledger.events([approval["id"]]))[approval["id"]]
    assert any(e.kind == "unauthorised_press" and e.actor == f"telegram:{STRANGER}" for e in events)


async def test_forged_button_data_is_refused(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    _, first = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    _, second = await api.call("POST", "/v1/approvals", json={**MEDIUM_CMD, "command": "git push origin dev"})
    card1 = await _card(telegram, 1)
    await _card(telegram, 2)
    # An approver's modified client presses card 1 with data naming approval 2.
    qid = telegram.press_forged(APPROVAL_CHAT, card1.message_id, f"a:{second['id']}", APPROVER)
    await telegram.wait_for(lambda: any(a["callback_query_id"] == qid for a in telegram.answers))
    assert "does not belong" in next(a for a in telegram.answers if a["callback_query_id"] == qid)["text"]
    for approval in (first, second):
        _, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
        assert now["status"] == "pending"


async def test_late_press_is_told_the_true_outcome(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(telegram)
    data = card.callback_data[1]
    # Two presses queued before either is handled: one decides, the other is told what won.
    q1 = telegram.press(APPROVAL_CHAT, card.message_id, card.callback_data[0], APPROVER, username="alice")
    q2 = telegram.press(APPROVAL_CHAT, card.message_id, data, APPROVER, username="bob")
    await telegram.wait_for(lambda: {a["callback_query_id"] for a in telegram.answers} >= {q1, q2})
    _, final = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert final["status"] == "approved"
    late = next(a for a in telegram.answers if a["callback_query_id"] == q2)
    assert late["text"].startswith("Already approved by @alice")


async def test_unanswered_medium_escalates_to_oncall_and_expires(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram, timeouts=(0.4, 0.4, 0.4)))
    status, approval = await api.call("POST", "/v1/approvals?wait=10", json=MEDIUM_CMD)
    assert (status, approval["status"]) == (200, "expired")
    assert approval["tier"] == "CRITICAL" and approval["decided_via"] == "timeout"
    assert approval["decided_by"] == "timeout"
    card = telegram.sent(APPROVAL_CHAT)[0]
    await telegram.wait_for(lambda: "Expired" in card.text and card.reply_markup is None, what="card shows expiry")
    oncall = telegram.sent(ONCALL_CHAT)
    assert oncall, "on-call chat was not notified"
    first_text = (oncall[0].history[0]["text"] if oncall[0].history else oncall[0].text)
    assert "Escalated" in first_text and "HIGH" in first_text
    await telegram.wait_for(lambda: "Expired" in oncall[0].text, what="on-call copy shows expiry too")
    events = [e.kind for e in (await daemon.ledger.events([approval["id"]]))[approval["id"]]]
    assert events.count("escalated") == 2 and "expired" in events
    assert [e for e in events if e in ("created", "card_posted")] == ["created", "card_posted"]


async def test_safe_request_is_approved_at_once_with_no_card(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    status, approval = await api.call("POST", "/v1/approvals", json={"action": "read_file", "command": "README.md"})
    assert (status, approval["status"], approval["tier"]) == (200, "approved", "SAFE")
    assert approval["decided_via"] == "auto" and approval["decided_by"] == "policy"
    await daemon.broker.drain()
    assert telegram.sent() == []


async def test_crisis_request_returns_resources_and_alerts_crisis_chat(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    status, approval = await api.call("POST", "/v1/approvals?wait=30",
                                      json={"action": "send_message", "command": "I want to kill myself", "agent": "companion"})
    assert (status, approval["status"], approval["tier"]) == (200, "crisis", "CRITICAL")
    assert approval["decided_by"] == "policy" and approval["decided_via"] == "auto"
    assert any("988" in r["contact"] or "988" in r["name"] for r in approval["resources"])
    await telegram.wait_for(lambda: telegram.sent(CRISIS_CHAT), what="crisis alert")
    assert "companion" in telegram.sent(CRISIS_CHAT)[0].text
    assert telegram.sent(APPROVAL_CHAT) == []


async def test_idempotency_key_gives_same_approval_and_one_card(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    body = {**MEDIUM_CMD, "idempotency_key": "k-1"}
    results = await asyncio.gather(*(api.call("POST", "/v1/approvals", json=body) for _ in range(5)))
    ids = {b["id"] for _, b in results}
    assert len(ids) == 1 and all(s == 202 for s, _ in results)
    await _card(telegram)
    await daemon.broker.drain()
    assert len(telegram.sent(APPROVAL_CHAT)) == 1
    status, err = await api.call("POST", "/v1/approvals", json={**body, "command": "git push --force origin main"})
    assert status == 409 and err["error"]["code"] == "idempotency_conflict"


async def test_telegram_outage_at_start_does_not_stop_the_daemon(telegram, start_daemon, short_tmp):
    telegram.down = True
    daemon, api = await start_daemon(make_config(short_tmp, telegram, timeouts=(30, 30, 30)))
    status, health = await api.call("GET", "/v1/health")
    assert status == 200 and health["channels"] == {"telegram": "down"}
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    assert approval["status"] == "pending"
    telegram.down = False
    # When Telegram is back, the channel comes up and the missed card is posted.
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), timeout=10, what="card posted after outage")
    _, health = await api.call("GET", "/v1/health")
    assert health["channels"] == {"telegram": "up"}


@pytest.mark.parametrize("terminal", [False, "auto"])
async def test_decision_over_socket_refused_when_terminal_off(telegram, start_daemon, short_tmp, terminal):
    daemon, api = await start_daemon(make_config(short_tmp, telegram, terminal=terminal))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    status, err = await api.call("POST", f"/v1/approvals/{approval['id']}/decision", json={"decision": "approve"})
    assert status == 403 and err["error"]["code"] == "forbidden"
    _, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert now["status"] == "pending"


async def test_card_decided_while_telegram_is_down_is_fixed_when_it_is_back(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram, terminal=True))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(telegram)
    telegram.down = True
    await telegram.wait_for(lambda: not daemon.health()["telegram"] == "up", timeout=10, what="telegram seen down")
    status, decided = await api.call("POST", f"/v1/approvals/{approval['id']}/decision", json={"decision": "deny"})
    assert decided["status"] == "denied"
    await daemon.broker.drain()
    assert card.reply_markup is not None  # could not be edited while down
    telegram.down = False
    await telegram.wait_for(lambda: card.reply_markup is None and "Denied" in card.text, timeout=10,
                            what="the stale card is brought up to date")


async def test_card_left_stale_before_a_restart_is_fixed_after_it(telegram, short_tmp):
    from bot.app import Daemon
    from tests.conftest import ApiClient

    config = make_config(short_tmp, telegram, terminal=True)
    daemon = Daemon(config)
    await daemon.start()
    api = ApiClient(config.server.path())
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(telegram)
    telegram.down = True
    await telegram.wait_for(lambda: daemon.health()["telegram"] == "down", timeout=10)
    await api.call("POST", f"/v1/approvals/{approval['id']}/decision", json={"decision": "approve"})
    await api.close()
    await daemon.stop()
    telegram.down = False
    daemon = Daemon(config)
    await daemon.start()
    try:
        await telegram.wait_for(lambda: card.reply_markup is None and "Approved" in card.text, timeout=10)
    finally:
        await daemon.stop()
