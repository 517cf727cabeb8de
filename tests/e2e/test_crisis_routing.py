"""Crisis routing end to end: people writing to the bot, agents raising alerts, responders
acknowledging, re-alerts, privacy, and resources that never wait for a broken ledger or platform."""

from __future__ import annotations

import asyncio
import time

from bot.config import CrisisConfig
from tests.conftest import APPROVAL_CHAT, CRISIS_CHAT, ONCALL_CHAT, make_config

PERSON = 5555


def alerts(telegram, chat=CRISIS_CHAT):
    return [m for m in telegram.sent(chat) if "Crisis alert" in m.text]


async def test_private_message_gets_resources_and_alerts_responders(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.send_user_message(PERSON, "honestly i dont want to be alive anymore", PERSON, username="sam")
    await telegram.wait_for(lambda: telegram.sent(PERSON), what="reply to the person")
    reply = telegram.sent(PERSON)[0]
    assert "988" in reply.text and "741741" in reply.text
    await telegram.wait_for(lambda: alerts(telegram), what="responders alerted")
    alert = alerts(telegram)[0]
    assert f"telegram:{PERSON}" in alert.text and "@sam" in alert.text and "alive anymore" in alert.text
    assert alert.callback_data and alert.callback_data[0].startswith("k:")
    # The reply went out before the alert.
    sends = [c for c in telegram.calls_to("sendMessage")]
    assert int(sends[0].params["chat_id"]) == PERSON


async def test_developer_language_gets_no_reply(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    for text in ("kill the process on port 8080", "this bug is killing me", "kill -9 1234"):
        telegram.send_user_message(PERSON, text, PERSON)
    telegram.send_user_message(PERSON, "thanks", PERSON)
    # An idiom with "die" in it may get the gentle check-in (the TF-IDF model's grey zone: it reads words, not
    # idioms), never the crisis reply or an alert. ("... or die trying" is a known false alarm of the deep
    # reader: docs/crisis.md, "Where it falls short".)
    telegram.send_user_message(PERSON + 2, "I would rather die than use Java again", PERSON + 2)
    # A later crisis message is a marker: once it is answered, the messages above were handled.
    telegram.send_user_message(PERSON + 1, "i want to die", PERSON + 1)
    await telegram.wait_for(lambda: telegram.sent(PERSON + 1) and len(alerts(telegram)) == 1)
    await daemon.broker.drain()
    assert telegram.sent(PERSON) == [] and len(alerts(telegram)) == 1
    assert all("check in" in m.text for m in telegram.sent(PERSON + 2))


async def test_group_third_person_report_alerts(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.send_user_message(-1001, "my friend says she wants to end her life", PERSON, chat_type="supergroup")
    await telegram.wait_for(lambda: telegram.sent(-1001) and alerts(telegram), what="reply and alert")
    assert "988" in telegram.sent(-1001)[0].text
    assert "chat -1001" in alerts(telegram)[0].text


async def test_agent_raises_alert_over_api(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    status, body = await api.call("POST", "/v1/crisis", json={"text": "user said they have pills saved up",
                                                               "agent": "companion", "session": "s1", "user": "u-42"})
    assert status == 200 and body["status"] == "crisis"
    assert any("988" in r["name"] + r["contact"] for r in body["resources"])
    await telegram.wait_for(lambda: alerts(telegram))
    text = alerts(telegram)[0].text
    assert "agent companion (session s1)" in text and "u-42" in text
    status, err = await api.call("POST", "/v1/crisis", json={"text": ""})
    assert status == 400
    status, err = await api.call("POST", "/v1/crisis", json={"text": "x", "mood": "bad"})
    assert status == 400 and "mood" in err["error"]["message"]


async def test_first_responder_is_recorded_and_shown_on_every_copy(telegram, start_daemon, short_tmp):
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(ack_timeout=0.3, max_realerts=1))
    daemon, api = await start_daemon(cfg)
    status, approval = await api.call("POST", "/v1/approvals",
                                      json={"action": "send_message", "command": "I am going to kill myself tonight"})
    assert approval["status"] == "crisis"
    # Unacknowledged: re-alerted to responders and on-call.
    await telegram.wait_for(lambda: len(alerts(telegram)) >= 2 and alerts(telegram, ONCALL_CHAT), timeout=5)
    first, second = alerts(telegram)[:2]
    data = first.callback_data[0]
    assert second.callback_data == [data]
    # Two responders press at once: the first is recorded, the other is told who is on it.
    q1 = telegram.press(CRISIS_CHAT, first.message_id, data, 777, username="rita")
    q2 = telegram.press(CRISIS_CHAT, second.message_id, data, 778, username="tom")
    copies = alerts(telegram) + alerts(telegram, ONCALL_CHAT)
    await telegram.wait_for(lambda: all("@rita is on it" in m.text and m.reply_markup is None for m in copies),
                            what="every copy shows the responder")
    await telegram.wait_for(lambda: {a["callback_query_id"] for a in telegram.answers} >= {q1, q2})
    toasts = {a["callback_query_id"]: a["text"] for a in telegram.answers}
    assert "you are on it" in toasts[q1] and "@rita is already on it" in toasts[q2]
    await daemon.broker.drain()  # the ledger is written behind the acknowledgement
    events = await daemon.ledger.events()
    kinds = [e.kind for evs in events.values() for e in evs]
    assert "crisis_acknowledged" in kinds and "crisis_realerted" in kinds


async def test_realerts_stop_at_bound_and_after_ack(telegram, start_daemon, short_tmp):
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(ack_timeout=0.2, max_realerts=2))
    daemon, api = await start_daemon(cfg)
    await api.call("POST", "/v1/crisis", json={"text": "I want to die"})
    await telegram.wait_for(lambda: len(alerts(telegram)) == 3, timeout=5, what="first alert and 2 re-alerts")
    await asyncio.sleep(0.6)  # would be 2-3 more re-alerts without the bound
    assert len(alerts(telegram)) == 3 and len(alerts(telegram, ONCALL_CHAT)) == 2


async def test_resources_never_wait_for_broken_ledger_or_platforms(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.down = True

    async def broken(*args, **kwargs):
        await asyncio.sleep(30)  # a ledger that hangs
        raise RuntimeError("disk gone")

    daemon.ledger.insert = broken
    daemon.ledger.insert_crisis = broken
    t0 = time.monotonic()
    status, body = await api.call("POST", "/v1/crisis", json={"text": "i want to kill myself"})
    assert status == 200 and body["resources"]
    status, approval = await api.call("POST", "/v1/approvals", json={"action": "send_message",
                                                                     "command": "i want to kill myself"})
    assert status == 200 and approval["status"] == "crisis" and approval["resources"]
    assert time.monotonic() - t0 < 2
    assert telegram.sent(APPROVAL_CHAT) == []


async def test_store_text_false_keeps_only_category_hash_and_origin(telegram, start_daemon, short_tmp):
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(store_text=False))
    daemon, api = await start_daemon(cfg)
    secret = "i have been planning to kill myself on friday"
    _, body = await api.call("POST", "/v1/crisis", json={"text": secret, "agent": "a"})
    _, approval = await api.call("POST", "/v1/approvals", json={"action": "send_message", "command": secret})
    await telegram.wait_for(lambda: len(alerts(telegram)) >= 2)  # responders still see what was said
    assert secret in alerts(telegram)[0].text
    await daemon.broker.drain()
    row = await daemon.ledger.get_crisis(body["id"])
    assert row.text is None and row.evidence is None and len(row.text_hash) == 64 and row.agent == "a"
    stored = await daemon.ledger.get(approval["id"])
    assert stored.command is None and stored.status.value == "crisis"
    import sqlite3

    dump = "\n".join(sqlite3.connect(short_tmp / "ledger.db").iterdump())
    assert "friday" not in dump


async def test_unacknowledged_alert_is_realerted_after_restart(telegram, short_tmp):
    from bot.app import Daemon
    from tests.conftest import ApiClient

    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(ack_timeout=0.5, max_realerts=3))
    daemon = Daemon(cfg)
    await daemon.start()
    api = ApiClient(cfg.server.path())
    await api.call("POST", "/v1/crisis", json={"text": "i want to end my life"})
    await telegram.wait_for(lambda: len(alerts(telegram)) == 1)
    await api.close()
    await daemon.stop()  # down before anyone acknowledged
    daemon = Daemon(cfg)
    await daemon.start()
    try:
        await telegram.wait_for(lambda: len(alerts(telegram)) >= 2, timeout=5, what="re-alert after restart")
        assert "nobody has acknowledged" in alerts(telegram)[1].text
    finally:
        await daemon.stop()


async def test_discord_dm_and_channel_messages_get_resources_and_alert(discord, start_daemon, short_tmp):
    from tests.conftest import DISCORD_CRISIS, DISCORD_OTHER, discord_config

    cfg = make_config(short_tmp, None, discord=discord_config(discord, message_content=True))
    daemon, api = await start_daemon(cfg)
    discord.send_user_message(9100, "i just want to disappear forever and never wake up", 4444, username="kai", dm=True)
    await discord.wait_for(lambda: discord.sent(9100), what="reply in the DM")
    assert "988" in discord.sent(9100)[0].content
    discord.send_user_message(DISCORD_OTHER, "my brother told me he wants to kill himself", 4445)
    await discord.wait_for(lambda: discord.sent(DISCORD_OTHER), what="reply in the channel")

    def crisis_alerts():
        return [m for m in discord.sent(DISCORD_CRISIS) if m.embeds and "Crisis" in (m.embeds[0].get("title") or "")]

    await discord.wait_for(lambda: len(crisis_alerts()) == 2, what="two responder alerts")
    body = str(crisis_alerts()[0].embeds[0])
    assert "discord:4444" in body and "disappear" in body
    discord.send_user_message(DISCORD_OTHER, "ugh this deploy is killing me, kill the old pods", 4446)
    discord.send_user_message(9100, "thanks", 4444, dm=True)
    # A later crisis message is a marker: once it is answered, the two above were read (in order).
    discord.send_user_message(9200, "kms", 4447, dm=True)
    await discord.wait_for(lambda: discord.sent(9200) and len(crisis_alerts()) == 3)
    await daemon.broker.drain()
    assert len(discord.sent(DISCORD_OTHER)) == 1 and len(discord.sent(9100)) == 1


async def test_without_crisis_chats_the_approval_chats_are_alerted(telegram, start_daemon, short_tmp):
    cfg = make_config(short_tmp, telegram)
    cfg.telegram.crisis_chat_ids = []
    daemon, api = await start_daemon(cfg)
    await api.call("POST", "/v1/crisis", json={"text": "i want to die", "user": "u-7"})
    await telegram.wait_for(lambda: alerts(telegram, APPROVAL_CHAT), what="alert in the approval chat")
    alert = alerts(telegram, APPROVAL_CHAT)[0]
    telegram.press(APPROVAL_CHAT, alert.message_id, alert.callback_data[0], 777, username="rita")
    await telegram.wait_for(lambda: "@rita is on it" in alert.text)


async def test_ledger_lists_crisis_alerts(telegram, start_daemon, short_tmp):
    from tests.e2e.test_cli import run_cli, write_config

    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    _, body = await api.call("POST", "/v1/crisis", json={"text": "i want to die", "agent": "companion", "user": "u-9"})
    await daemon.broker.drain()
    cfg = write_config(short_tmp)
    rc, out, err = await run_cli("ledger", "--config", str(cfg), "--json")
    import json as _json

    alerts_ = _json.loads(out)["crisis_alerts"]
    assert rc == 0 and alerts_[0]["id"] == body["id"] and alerts_[0]["user"] == "u-9"
    assert [e["kind"] for e in alerts_[0]["events"]] == ["crisis"]
    rc, out, err = await run_cli("ledger", "--config", str(cfg))
    assert "CRISIS" in out and "NOT acknowledged" in out
