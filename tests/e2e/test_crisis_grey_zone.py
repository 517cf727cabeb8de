"""The crisis model's grey zone end to end: a gentle check-in with the resources and a quiet note to the
responders (never re-alerted); a grey-zone agent request needs a person and carries the resources on its card;
an LLM second opinion (the real openai client against a loopback fake) can only add an alert."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import CrisisConfig, LLMConfig
from tests.conftest import APPROVAL_CHAT, CRISIS_CHAT, ONCALL_CHAT, make_config
from tests.fakes.openai_api import FakeOpenAI

PERSON = 6161
GREY = "everything feels heavy lately and I keep wondering what the point of any of it is"


@pytest.fixture
async def llm():
    async with FakeOpenAI() as fake:
        yield fake


def notes(telegram, chat=CRISIS_CHAT):
    return [m for m in telegram.sent(chat) if "Possible crisis" in m.text]


def alerts(telegram, chat=CRISIS_CHAT):
    return [m for m in telegram.sent(chat) if "Crisis alert" in m.text]


async def test_grey_zone_message_gets_a_check_in_and_a_quiet_note(grey_zone, telegram, start_daemon, short_tmp):
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(ack_timeout=0.2, max_realerts=3))
    daemon, api = await start_daemon(cfg)
    telegram.send_user_message(PERSON, GREY, PERSON, username="kim")
    await telegram.wait_for(lambda: telegram.sent(PERSON) and notes(telegram), what="check-in and note")
    reply = telegram.sent(PERSON)[0].text
    assert "check in" in reply and "988" in reply and "741741" in reply
    note = notes(telegram)[0].text
    assert "@kim" in note and "no re-alerts" in note
    await asyncio.sleep(0.6)  # an alert would have been sent again twice by now
    await daemon.broker.drain()
    assert len(notes(telegram)) == 1 and not alerts(telegram) and not notes(telegram, ONCALL_CHAT)
    kinds = [e.kind for evs in (await daemon.ledger.events()).values() for e in evs]
    assert "crisis" in kinds and "crisis_realerted" not in kinds


async def test_grey_zone_request_needs_a_person_with_the_resources(grey_zone, telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    status, approval = await api.call("POST", "/v1/approvals", json={"action": "read_file", "command": "notes.txt",
                                                                     "description": GREY})
    assert status == 202 and approval["status"] == "pending"  # a SAFE action, held for a person
    assert approval["tier"] == "MEDIUM" and "possible crisis language" in approval["reason"]
    assert "988" in approval["reason"]
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), what="the card")
    assert "988" in telegram.sent(APPROVAL_CHAT)[0].text


async def test_second_opinion_can_add_an_alert(grey_zone, llm, telegram, start_daemon, short_tmp):
    llm.reply = "CRISIS"
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(second_opinion=True),
                      llm=LLMConfig(base_url=llm.base_url, model="screen-1", api_key="k", timeout=5))
    daemon, api = await start_daemon(cfg)
    telegram.send_user_message(PERSON, GREY, PERSON)
    await telegram.wait_for(lambda: notes(telegram) and alerts(telegram), what="note, then the full alert")
    body = llm.requests[0]
    assert body["model"] == "screen-1" and GREY in body["messages"][1]["content"]
    assert "one word" in body["messages"][0]["content"]
    status, approval = await api.call("POST", "/v1/approvals", json={"action": "send_message", "command": GREY})
    assert status == 200 and approval["status"] == "crisis" and approval["resources"]


@pytest.mark.parametrize("failure", ["no", "error", "slow", "babble"])
async def test_second_opinion_never_removes_or_blocks(failure, grey_zone, llm, telegram, start_daemon, short_tmp):
    llm.reply = {"no": "NO", "babble": "Well, it is hard to say, maybe"}.get(failure, "CRISIS")
    llm.status = 500 if failure == "error" else 200
    llm.delay = 5 if failure == "slow" else 0
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(second_opinion=True),
                      llm=LLMConfig(base_url=llm.base_url, model="m", timeout=0.3, max_retries=0))
    daemon, api = await start_daemon(cfg)
    status, approval = await api.call("POST", "/v1/approvals", json={"action": "send_message", "command": GREY})
    assert status == 202 and approval["status"] == "pending" and approval["tier"] == "MEDIUM"
    # a tables' crisis is a crisis whatever the second opinion says
    status, approval = await api.call("POST", "/v1/approvals", json={"action": "send_message",
                                                                     "command": "i want to kill myself"})
    assert approval["status"] == "crisis"


async def test_a_retry_keeps_the_second_opinions_answer(grey_zone, llm, telegram, start_daemon, short_tmp):
    """The same request with the same idempotency key: once the LLM judged it a crisis, a retry is a crisis
    again even when the LLM times out by then; a pending one stays the same pending one, the LLM not asked."""
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(second_opinion=True),
                      llm=LLMConfig(base_url=llm.base_url, model="m", timeout=0.3, max_retries=0))
    daemon, api = await start_daemon(cfg)
    body = {"action": "send_message", "command": GREY, "idempotency_key": "k-1"}
    llm.reply = "CRISIS"
    _, first = await api.call("POST", "/v1/approvals", json=body)
    llm.delay = 5
    _, again = await api.call("POST", "/v1/approvals", json=body)
    assert first["status"] == again["status"] == "crisis"
    llm.delay, llm.reply = 0, "NO"
    body = {"action": "send_message", "command": GREY + " again", "idempotency_key": "k-2"}
    _, pending = await api.call("POST", "/v1/approvals", json=body)
    asked = len(llm.requests)
    llm.reply = "CRISIS"
    _, retry = await api.call("POST", "/v1/approvals", json=body)
    assert pending["status"] == "pending" and retry["id"] == pending["id"] and len(llm.requests) == asked


async def test_quiet_notes_do_not_stay_in_memory(grey_zone, telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    for k in range(20):
        telegram.send_user_message(PERSON + k, f"{GREY} ({k})", PERSON + k)
    await telegram.wait_for(lambda: len(notes(telegram)) == 20, what="twenty notes")
    await daemon.broker.drain()
    await daemon.broker.crisis.drain()
    assert not [a for a in daemon.broker.crisis._alerts.values() if a.is_concern]
    assert len([r for r in await daemon.ledger.unacknowledged_crises() if r.category == "concern"]) == 20
