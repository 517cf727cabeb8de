"""The card round trip with the real discord.py against the loopback fake of Discord's REST API and
gateway (tests/fakes/discord_api.py)."""

from __future__ import annotations

import asyncio

from adapters.discord_channel import DiscordChannel
from bot.config import CrisisConfig
from tests.conftest import (
    DISCORD_APPROVAL,
    DISCORD_APPROVER,
    DISCORD_APPROVER_ROLE,
    DISCORD_CRISIS,
    DISCORD_ONCALL,
    DISCORD_OTHER,
    DISCORD_ROLE_MEMBER,
    DISCORD_STRANGER,
    discord_config,
    make_config,
)
from tests.fakes.discord_api import EPHEMERAL, FakeDiscord, FakeMessage

MEDIUM_CMD = {"action": "terminal", "command": "git push origin main", "agent": "claude"}


def config(tmp, dc: FakeDiscord, **kwargs):
    return make_config(tmp, discord=discord_config(dc), **kwargs)


async def _card(dc: FakeDiscord, count: int = 1, channel: int = DISCORD_APPROVAL, timeout: float = 5) -> FakeMessage:
    await dc.wait_for(lambda: len(dc.sent(channel)) >= count, timeout, what=f"{count} card(s) in {channel}")
    return dc.sent(channel)[count - 1]


def embed_text(msg: FakeMessage) -> str:
    """Everything an embed shows, as one string."""
    parts = []
    for e in msg.embeds:
        parts += [(e.get("author") or {}).get("name", ""), e.get("title", ""), e.get("description", "")]
        parts += [f"{f['name']}: {f['value']}" for f in e.get("fields") or []]
        parts.append((e.get("footer") or {}).get("text", ""))
    return "\n".join(p for p in parts if p)


def reply(dc: FakeDiscord, iid: str) -> FakeMessage | None:
    """The (ephemeral) message that answered interaction ``iid``, in its current state."""
    found = [m for m in dc.messages.values() if m.interaction_id == iid]
    return found[-1] if found else None


async def _answered(dc: FakeDiscord, iid: str) -> FakeMessage:
    await dc.wait_for(lambda: (m := reply(dc, iid)) is not None and m.content, what=f"answer to {iid}")
    return reply(dc, iid)


def approval_id_of(card: FakeMessage) -> str:
    return card.custom_ids[0].split(":")[2]


async def test_card_has_embed_and_two_buttons_and_approver_press_unblocks_agent(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    _, health = await api.call("GET", "/v1/health")
    assert health["channels"] == {"discord": "up"}
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    card = await _card(dc)
    approval_id = approval_id_of(card)
    assert card.custom_ids == [f"signoff:a:{approval_id}", f"signoff:d:{approval_id}"]
    assert all(len(c) <= 100 for c in card.custom_ids)
    assert [b["label"] for b in card.buttons] == ["Approve", "Deny"]
    assert [b["style"] for b in card.buttons] == [3, 4]  # success, danger
    embed = card.embeds[0]
    assert embed["color"] == 0xF1C40F  # MEDIUM's colour
    text = embed_text(card)
    assert "MEDIUM approval" in text and "claude" in text and "git push origin main" in text
    assert "Time left" in text and approval_id in text
    assert not waiting.done()

    iid = dc.press(card.id, f"signoff:a:{approval_id}", user_id=DISCORD_APPROVER, username="alice")
    status, approval = await asyncio.wait_for(waiting, 5)
    assert status == 200
    assert approval["status"] == "approved"
    assert approval["decided_by"] == f"discord:{DISCORD_APPROVER}"
    assert approval["decided_by_name"] == "@alice"
    assert approval["decided_via"] == "discord"
    await dc.wait_for(lambda: card.components == [], what="card loses its buttons")
    assert "Approved by @alice" in embed_text(card) and "Time left" not in embed_text(card)
    answer = await _answered(dc, iid)
    assert answer.ephemeral and "Approved" in answer.content
    assert [r["type"] for r in dc.interaction_responses] == [4]  # answered once, at once
    assert len(dc.sent(DISCORD_APPROVAL)) == 1  # one card, edited in place
    events = [e.kind for e in (await daemon.ledger.events([approval["id"]]))[approval["id"]]]
    assert "card_posted" in events and "decided" in events


async def test_deny_press_denies_and_edits_card(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    card = await _card(dc)
    dc.press(card.id, card.custom_ids[1], user_id=DISCORD_APPROVER, username="alice")
    status, approval = await asyncio.wait_for(waiting, 5)
    assert (status, approval["status"]) == (200, "denied")
    await dc.wait_for(lambda: card.components == [])
    assert "Denied by @alice" in embed_text(card)


async def test_command_is_masked_escaped_and_cut(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    command = ("git -c http.extraHeader='Authorization: Bearer sk-proj-abcdefghijklmnopqrstuvwxyz123456' "
               "push origin main # ``` " + "A" * 6000)
    status, approval = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": command,
                                                                     "description": "*bold* @everyone"})
    assert status == 202
    card = await _card(dc)
    text = embed_text(card)
    assert "sk-proj-abcdefghijklmnop" not in text and "••••" in text
    assert "more characters cut" in text
    assert card.embeds[0]["description"].count("```") == 2  # the command cannot close its code block
    assert "\\*bold\\*" in text
    _, full = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert full["command"] == command  # the API keeps the full text


async def test_non_approver_gets_ephemeral_refusal_and_is_recorded(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    status, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    assert status == 202
    card = await _card(dc)
    iid = dc.press(card.id, card.custom_ids[0], user_id=DISCORD_STRANGER, username="mallory", role_ids=[999])
    answer = await _answered(dc, iid)
    assert answer.ephemeral and answer.flags & EPHEMERAL
    assert "not an approver" in answer.content
    status, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert (status, now["status"]) == (202, "pending")
    assert card.custom_ids  # buttons still there
    await daemon.broker.drain()
    events = (await daemon.ledger.events([approval["id"]]))[approval["id"]]
    assert any(e.kind == "unauthorised_press" and e.actor == f"discord:{DISCORD_STRANGER}" for e in events)


async def test_role_based_approver_is_accepted(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    card = await _card(dc)
    iid = dc.press(card.id, card.custom_ids[0], user_id=DISCORD_ROLE_MEMBER, username="bob",
                   role_ids=[DISCORD_APPROVER_ROLE])
    status, approval = await asyncio.wait_for(waiting, 5)
    assert (status, approval["status"]) == (200, "approved")
    assert approval["decided_by"] == f"discord:{DISCORD_ROLE_MEMBER}" and approval["decided_by_name"] == "@bob"
    assert "Approved" in (await _answered(dc, iid)).content


async def test_forged_custom_id_is_refused(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    _, first = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    _, second = await api.call("POST", "/v1/approvals", json={**MEDIUM_CMD, "command": "git push origin dev"})
    card1 = await _card(dc, 1)
    await _card(dc, 2)
    other = second["id"] if approval_id_of(card1) == first["id"] else first["id"]
    # An approver's modified client presses card 1 with a custom_id naming the other approval.
    iid = dc.press(card1.id, f"signoff:a:{other}", user_id=DISCORD_APPROVER, forged=True)
    assert "does not belong" in (await _answered(dc, iid)).content
    iid = dc.press(card1.id, "signoff:zz", user_id=DISCORD_APPROVER, forged=True)
    assert "not a signoff button" in (await _answered(dc, iid)).content
    for approval in (first, second):
        _, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
        assert now["status"] == "pending"


async def test_card_outside_the_approval_channels_is_refused(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(dc)
    # A copy of the card's buttons in another channel of the guild (the bot's own message there).
    channel: DiscordChannel = next(c for c in daemon.channels if c.name == "discord")
    from adapters.discord_channel import card_view

    copy = await channel.client.get_partial_messageable(DISCORD_OTHER).send("copy", view=card_view(approval["id"]))
    iid = dc.press(copy.id, card.custom_ids[0], user_id=DISCORD_APPROVER)
    assert "not a signoff approval channel" in (await _answered(dc, iid)).content
    _, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert now["status"] == "pending"


async def test_late_press_is_told_the_true_outcome(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(dc)
    # Two presses dispatched before either is handled: one decides, the other is told what won.
    i1 = dc.press(card.id, card.custom_ids[0], user_id=DISCORD_APPROVER, username="alice")
    i2 = dc.press(card.id, card.custom_ids[1], user_id=DISCORD_ROLE_MEMBER, username="bob",
                  role_ids=[DISCORD_APPROVER_ROLE])
    a1, a2 = await _answered(dc, i1), await _answered(dc, i2)
    _, final = await api.call("GET", f"/v1/approvals/{approval['id']}")
    winner, loser = (a1, a2) if final["status"] == "approved" else (a2, a1)
    assert winner.content in ("Approved ✅", "Denied ⛔")
    who = final["decided_by_name"]
    assert loser.content == f"Already {final['status']} by {who}."
    await dc.wait_for(lambda: card.components == [])


async def test_slow_decision_is_deferred_then_followed_up(discord, start_daemon, short_tmp, monkeypatch):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(dc)
    decide = daemon.broker.decide

    async def slow_decide(*args, **kwargs):
        await asyncio.sleep(2.0)  # past the 1.5 s answer budget, inside Discord's 3 s
        return await decide(*args, **kwargs)

    monkeypatch.setattr(daemon.broker, "decide", slow_decide)
    dc.interaction_timeout = 3.0
    iid = dc.press(card.id, card.custom_ids[0], user_id=DISCORD_APPROVER)
    answer = await _answered(dc, iid)
    assert answer.content == "Approved ✅" and answer.ephemeral
    responses = [r for r in dc.interaction_responses if r["interaction_id"] == iid]
    assert [r["type"] for r in responses] == [5]  # deferred once, then a followup
    assert responses[0]["data"]["flags"] & EPHEMERAL
    _, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert now["status"] == "approved"


async def test_press_on_old_card_after_restart_still_decides(discord, start_daemon, short_tmp):
    dc = discord
    cfg = config(short_tmp, dc, timeouts=(120, 120, 120))
    first, api1 = await start_daemon(cfg)
    _, approval = await api1.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(dc)
    await first.broker.drain()
    await api1.close()
    await first.stop()
    await dc.wait_for(lambda: not dc.connected, what="first daemon disconnected")

    second, api2 = await start_daemon(cfg)
    await dc.wait_for(lambda: dc.connected and dc.identify_count == 2, what="second daemon connected")
    waiting = asyncio.create_task(api2.call("GET", f"/v1/approvals/{approval['id']}?wait=20"))
    iid = dc.press(card.id, card.custom_ids[0], user_id=DISCORD_APPROVER, username="alice")
    status, final = await asyncio.wait_for(waiting, 5)
    assert (status, final["status"], final["decided_via"]) == (200, "approved", "discord")
    assert "Approved" in (await _answered(dc, iid)).content
    await dc.wait_for(lambda: card.components == [], what="old card edited after restart")
    assert "Approved by @alice" in embed_text(card)
    assert len(dc.sent(DISCORD_APPROVAL)) == 1  # the restart posted no second card


async def test_unanswered_medium_escalates_to_oncall_and_expires(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc, timeouts=(0.5, 0.5, 0.5)))
    status, approval = await api.call("POST", "/v1/approvals?wait=10", json=MEDIUM_CMD)
    assert (status, approval["status"]) == (200, "expired")
    assert approval["tier"] == "CRITICAL" and approval["decided_via"] == "timeout"
    card = dc.sent(DISCORD_APPROVAL)[0]
    await dc.wait_for(lambda: "Expired" in embed_text(card) and card.components == [], what="card shows expiry")
    oncall = dc.sent(DISCORD_ONCALL)
    assert oncall, "on-call channel was not notified"
    first = oncall[0].history[0] if oncall[0].history else {"embeds": oncall[0].embeds}
    first_text = embed_text(FakeMessage(0, 0, None, {}, embeds=first["embeds"]))
    assert "Escalated" in first_text and "HIGH" in first_text
    assert oncall[0].history and oncall[0].history[0]["components"]  # it had buttons while pending
    await dc.wait_for(lambda: "Expired" in embed_text(oncall[0]) and oncall[0].components == [],
                      what="on-call copy shows expiry too")
    assert len(oncall) == 2  # the card at HIGH, a short note at CRITICAL
    assert "CRITICAL" in oncall[1].content
    events = [e.kind for e in (await daemon.ledger.events([approval["id"]]))[approval["id"]]]
    assert events.count("escalated") == 2 and "expired" in events


async def test_press_on_oncall_copy_decides(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc, timeouts=(0.3, 30, 30)))
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=20", json=MEDIUM_CMD))
    oncall = await _card(dc, channel=DISCORD_ONCALL)
    dc.press(oncall.id, oncall.custom_ids[1], user_id=DISCORD_APPROVER)
    status, approval = await asyncio.wait_for(waiting, 5)
    assert (status, approval["status"], approval["tier"]) == (200, "denied", "HIGH")
    card = dc.sent(DISCORD_APPROVAL)[0]
    await dc.wait_for(lambda: card.components == [] and oncall.components == [], what="both copies edited")
    assert "Denied by @alice" in embed_text(card) and "Denied by @alice" in embed_text(oncall)


async def test_crisis_request_alerts_crisis_channel_and_responder_takes_it(discord, start_daemon, short_tmp):
    dc = discord
    cfg = config(short_tmp, dc, crisis=CrisisConfig(ack_timeout=0.3, max_realerts=1))
    daemon, api = await start_daemon(cfg)
    status, approval = await api.call("POST", "/v1/approvals?wait=30",
                                      json={"action": "send_message", "command": "I want to kill myself",
                                            "agent": "companion"})
    assert (status, approval["status"], approval["tier"]) == (200, "crisis", "CRITICAL")
    await dc.wait_for(lambda: dc.sent(DISCORD_CRISIS), what="crisis alert")
    alert = dc.sent(DISCORD_CRISIS)[0]
    assert "Crisis alert" in alert.content and "companion" in embed_text(alert)
    assert "kill myself" in embed_text(alert)
    assert [b["label"] for b in alert.buttons] == ["I'm on it"] and alert.custom_ids[0].startswith("signoff:k:")
    assert dc.sent(DISCORD_APPROVAL) == []
    # Nobody took it: re-alerted to the responders and to on-call.
    await dc.wait_for(lambda: len(dc.sent(DISCORD_CRISIS)) >= 2 and dc.sent(DISCORD_ONCALL), what="re-alert")
    oncall = dc.sent(DISCORD_ONCALL)[0]
    assert "nobody has acknowledged" in embed_text(oncall)
    i1 = dc.press(oncall.id, alert.custom_ids[0], user_id=777, username="rita")
    assert "you are on it" in (await _answered(dc, i1)).content
    copies = dc.sent(DISCORD_CRISIS) + dc.sent(DISCORD_ONCALL)
    await dc.wait_for(lambda: all("@rita is on it" in embed_text(m) and m.components == [] for m in copies),
                      what="every copy shows the responder")
    await daemon.broker.drain()  # the ledger is written behind the acknowledgement
    events = await daemon.ledger.events()
    kinds = [e.kind for evs in events.values() for e in evs]
    assert "crisis_acknowledged" in kinds and "crisis_realerted" in kinds


async def test_gateway_drop_is_survived(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(dc)
    await dc.disconnect_gateway(None)  # TCP drop: discord.py resumes
    await dc.wait_for(lambda: dc.resume_count == 1 and dc.connected, what="resumed")
    dc.press(card.id, card.custom_ids[0], user_id=DISCORD_APPROVER)
    await dc.wait_for(lambda: card.components == [])
    _, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert now["status"] == "approved" and dc.identify_count == 1
    _, health = await api.call("GET", "/v1/health")
    assert health["channels"] == {"discord": "up"}


async def test_outage_reports_down_expires_on_time_and_recovers(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc, timeouts=(0.3, 0.3, 0.3)))
    channel = next(c for c in daemon.channels if c.name == "discord")
    channel.rest_timeout = 1.0
    dc.down = True
    loop = asyncio.get_running_loop()

    async def health():
        return (await api.call("GET", "/v1/health"))[1]["channels"]

    deadline = loop.time() + 5
    while (await health()) != {"discord": "down"}:
        assert loop.time() < deadline, "health never said down"
        await asyncio.sleep(0.05)
    started = loop.time()
    status, expired = await api.call("POST", "/v1/approvals?wait=10", json=MEDIUM_CMD)
    assert (status, expired["status"]) == (200, "expired")  # fail closed, on time
    assert loop.time() - started < 3
    # A longer one waits while Discord is down; its card is posted when Discord is back.
    daemon.broker.settings.timeouts = {t: 60 for t in daemon.broker.settings.timeouts}
    _, pending = await api.call("POST", "/v1/approvals", json={**MEDIUM_CMD, "command": "git push origin dev"})
    await asyncio.sleep(0.3)
    dc.down = False
    await dc.wait_for(lambda: any(pending["id"] in (m.custom_ids[0] if m.custom_ids else "")
                                  for m in dc.sent(DISCORD_APPROVAL)), timeout=15, what="missed card posted")
    assert await health() == {"discord": "up"}
    await daemon.broker.drain()
    assert sum(1 for m in dc.sent(DISCORD_APPROVAL) if pending["id"] in "".join(m.custom_ids)) == 1


async def test_outage_at_start_does_not_stop_the_daemon(discord, start_daemon, short_tmp):
    dc = discord
    dc.down = True
    loop = asyncio.get_running_loop()
    started = loop.time()
    daemon, api = await start_daemon(config(short_tmp, dc, timeouts=(30, 30, 30)))
    assert loop.time() - started < 5
    status, health = await api.call("GET", "/v1/health")
    assert status == 200 and health["channels"] == {"discord": "down"}
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    assert approval["status"] == "pending"
    dc.down = False
    await _card(dc, timeout=20)  # posted once Discord is back
    _, health = await api.call("GET", "/v1/health")
    assert health["channels"] == {"discord": "up"}


async def test_bad_token_leaves_channel_down(discord, start_daemon, short_tmp):
    dc = discord
    cfg = make_config(short_tmp, discord=discord_config(dc, token="WRONG.TOKEN"))
    loop = asyncio.get_running_loop()
    started = loop.time()
    daemon, api = await start_daemon(cfg)
    assert loop.time() - started < 2  # a refused token is final: start does not wait it out
    _, health = await api.call("GET", "/v1/health")
    assert health["channels"] == {"discord": "down"}
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    assert approval["status"] == "pending"
    await asyncio.sleep(0.3)
    assert [c.status for c in dc.calls_to("GET", "/users/@me")] == [401]  # no retry storm with a bad token
    assert dc.identify_count == 0


async def test_rate_limited_card_is_posted_once(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc))
    dc.fail_next(f"POST /channels/{DISCORD_APPROVAL}/messages", status=429, retry_after=0.2)
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(dc)
    assert [c.status for c in dc.calls_to("POST", f"/channels/{DISCORD_APPROVAL}/messages")] == [429, 200]
    await daemon.broker.drain()
    assert len(dc.sent(DISCORD_APPROVAL)) == 1 and approval["id"] in card.custom_ids[0]


async def test_decision_while_card_is_being_sent_still_reaches_the_card(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc, terminal=True))
    dc.fail_next(f"POST /channels/{DISCORD_APPROVAL}/messages", status=429, retry_after=0.3)  # a slow send
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    status, decided = await api.call("POST", f"/v1/approvals/{approval['id']}/decision", json={"decision": "deny"})
    assert (status, decided["status"]) == (200, "denied")
    card = await _card(dc)
    await dc.wait_for(lambda: card.components == [] and "Denied" in embed_text(card), what="card catches up")


async def test_doctor_checks_the_discord_token(discord, short_tmp):
    """`signoff doctor` logs in to Discord (here: the loopback fake) and reports a refused token."""
    import asyncio as _asyncio

    from bot.doctor import check
    from tests.e2e.test_cli import write_config

    good = write_config(short_tmp, discord={"token": discord.token, "api_base_url": discord.api_base_url,
                                            "approval_channel_ids": [100], "approver_user_ids": [1]})
    report = await _asyncio.to_thread(check, str(good))
    assert any(line.startswith("discord: token works") for line in report.ok), report.render()
    bad = write_config(short_tmp, discord={"token": "WRONG", "api_base_url": discord.api_base_url,
                                           "approval_channel_ids": [100], "approver_user_ids": []})
    report = await _asyncio.to_thread(check, str(bad))
    text = report.render()
    assert "discord: login failed" in text and "nobody could approve" in text


async def test_card_decided_while_discord_is_down_is_fixed_when_it_is_back(discord, start_daemon, short_tmp):
    dc = discord
    daemon, api = await start_daemon(config(short_tmp, dc, terminal=True))
    channel = next(c for c in daemon.channels if c.name == "discord")
    channel.rest_timeout = 1.0
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(dc)
    dc.down = True
    await dc.wait_for(lambda: daemon.health()["discord"] == "down", timeout=10, what="discord seen down")
    _, decided = await api.call("POST", f"/v1/approvals/{approval['id']}/decision", json={"decision": "deny"})
    assert decided["status"] == "denied"
    await daemon.broker.drain()
    assert card.components  # could not be edited while down
    dc.down = False
    await dc.wait_for(lambda: not card.components and "Denied" in embed_text(card), timeout=15,
                      what="the stale card is brought up to date")
