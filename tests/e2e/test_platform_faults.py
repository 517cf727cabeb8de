"""Platform faults through the loopback fakes, end to end with the real python-telegram-bot and discord.py:
429s, 5xx, timeouts after delivery, connection resets, a bad token, a long outage, a double tap.

Each test prints how long the card took to arrive (``pytest -s``: the figures in the README)."""

from __future__ import annotations

import asyncio
import logging
import time

import adapters.discord_channel
import adapters.telegram_channel
from core.channel import CardChange
from core.retry import RetryPolicy
from tests.conftest import (
    APPROVAL_CHAT,
    APPROVER,
    DISCORD_APPROVAL,
    DISCORD_APPROVER,
    discord_config,
    make_config,
)
from tests.e2e.test_discord_flow import MEDIUM_CMD, embed_text, reply
from tests.fakes.faults import Fault

SEND_TG = "sendMessage"
SEND_DC = f"POST /channels/{DISCORD_APPROVAL}/messages"


def both(tmp, telegram, dc, **kwargs):
    return make_config(tmp, telegram, discord=discord_config(dc), **kwargs)


def channel(daemon, name):
    return next(ch for ch in daemon.channels if ch.name == name)


def cards_tg(telegram):
    """Approval cards in the Telegram approval chat (not notices), in order."""
    return [m for m in telegram.sent(APPROVAL_CHAT) if "Why:" in m.text]


def figure(what: str, seconds: float) -> None:
    print(f"\n[figure] {what}: {seconds:.2f} s")


async def _submit(api, **extra):
    return await api.call("POST", "/v1/approvals", json=MEDIUM_CMD | extra)


async def _press_tg_and_wait(telegram, api, card, approval_id, approve=True):
    telegram.press(APPROVAL_CHAT, card.message_id, card.callback_data[0 if approve else 1], APPROVER)
    status, final = await api.call("GET", f"/v1/approvals/{approval_id}?wait=5")
    return final


# 429 --------------------------------------------------------------------------------------------

async def test_telegram_429_card_arrives_once_after_the_wait_asked(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.inject(SEND_TG, Fault.rate_limit(1))
    t0 = time.monotonic()
    await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), timeout=5, what="the card")
    calls = telegram.calls_to(SEND_TG)
    assert [c.status for c in calls] == [429, 200] and len(telegram.sent(APPROVAL_CHAT)) == 1
    assert calls[1].at - calls[0].at >= 1.0  # not sooner than Telegram asked
    figure("telegram 429 (retry_after 1 s): card after", time.monotonic() - t0)


async def test_discord_429_card_arrives_once_after_the_wait_asked(discord, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, discord=discord_config(discord)))
    discord.inject(SEND_DC, Fault.rate_limit(1.0))
    t0 = time.monotonic()
    await _submit(api)
    await discord.wait_for(lambda: discord.sent(DISCORD_APPROVAL), timeout=5, what="the card")
    calls = discord.calls_to("POST", f"/channels/{DISCORD_APPROVAL}/messages")
    assert [c.status for c in calls] == [429, 200] and len(discord.sent(DISCORD_APPROVAL)) == 1
    assert calls[1].at - calls[0].at >= 1.0
    figure("discord 429 (retry_after 1 s): card after", time.monotonic() - t0)


async def test_telegram_429_longer_than_the_retry_budget_posts_the_card_after_the_wait(
        telegram, start_daemon, short_tmp, monkeypatch):
    monkeypatch.setattr(adapters.telegram_channel, "REQUEST_POLICY", RetryPolicy(budget=1.0, cap=0.5))
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.inject(SEND_TG, Fault.rate_limit(2))
    t0 = time.monotonic()
    _, approval = await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), timeout=5, what="the card")
    calls = telegram.calls_to(SEND_TG)
    assert [c.status for c in calls] == [429, 200] and len(telegram.sent(APPROVAL_CHAT)) == 1
    assert calls[1].at - calls[0].at >= 2.0  # given up inline (2 s > the 1 s budget), posted by a resync
    figure("telegram 429 (retry_after 2 s, past the budget): card after", time.monotonic() - t0)
    await channel(daemon, "telegram")._later  # the resync that posted it
    assert await daemon.broker.ledger.cards(approval["id"], "telegram")


# 5xx ---------------------------------------------------------------------------------------------

async def test_telegram_500s_are_retried_with_backoff_card_once(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.inject(SEND_TG, Fault.server_error(500), times=2)
    t0 = time.monotonic()
    await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), timeout=8, what="the card")
    calls = telegram.calls_to(SEND_TG)
    assert [c.status for c in calls] == [500, 500, 200] and len(telegram.sent(APPROVAL_CHAT)) == 1
    gaps = [b.at - a.at for a, b in zip(calls, calls[1:], strict=False)]
    assert gaps[0] >= 0.5 and gaps[1] >= 1.0  # backing off: 0.5 s, then 1 s (+ up to 10 % jitter)
    figure("telegram two 500s: card after", time.monotonic() - t0)


async def test_discord_500_is_retried_card_once(discord, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, discord=discord_config(discord)))
    discord.inject(SEND_DC, Fault.server_error(500))
    t0 = time.monotonic()
    await _submit(api)
    await discord.wait_for(lambda: discord.sent(DISCORD_APPROVAL), timeout=8, what="the card")
    calls = discord.calls_to("POST", f"/channels/{DISCORD_APPROVAL}/messages")
    assert [c.status for c in calls] == [500, 200] and len(discord.sent(DISCORD_APPROVAL)) == 1
    figure("discord one 500 (discord.py's own 1 s retry): card after", time.monotonic() - t0)


# connection resets -------------------------------------------------------------------------------

async def test_telegram_connection_reset_is_retried_card_once(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.inject(SEND_TG, Fault.reset())
    t0 = time.monotonic()
    await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), timeout=5, what="the card")
    assert [c.status for c in telegram.calls_to(SEND_TG)] == [0, 200] and len(telegram.sent(APPROVAL_CHAT)) == 1
    figure("telegram connection reset: card after", time.monotonic() - t0)


async def test_discord_connection_reset_is_retried_card_once(discord, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, discord=discord_config(discord)))
    discord.inject(SEND_DC, Fault.reset())
    t0 = time.monotonic()
    _, approval = await _submit(api)
    await discord.wait_for(lambda: discord.sent(DISCORD_APPROVAL), timeout=5, what="the card")
    calls = discord.calls_to("POST", f"/channels/{DISCORD_APPROVAL}/messages")
    assert [c.status for c in calls] == [0, 200] and len(discord.sent(DISCORD_APPROVAL)) == 1
    figure("discord connection reset: card after", time.monotonic() - t0)
    await daemon.broker.drain()
    assert await daemon.broker.ledger.cards(approval["id"], "discord")


# a timeout after the message was delivered ------------------------------------------------------

async def test_telegram_timeout_after_delivery_posts_no_duplicate_and_loses_no_card(
        telegram, start_daemon, short_tmp, monkeypatch):
    monkeypatch.setattr(adapters.telegram_channel, "READ_TIMEOUT_S", 0.5)
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.inject(SEND_TG, Fault.timeout_after_delivery())
    t0 = time.monotonic()
    _, approval = await _submit(api)
    # The card arrived (Telegram delivered it), then a notice: Telegram did not confirm it.
    await telegram.wait_for(lambda: len(telegram.sent(APPROVAL_CHAT)) >= 2, timeout=5, what="card and notice")
    figure("telegram timeout after delivery: notice after", time.monotonic() - t0)
    card, notice = telegram.sent(APPROVAL_CHAT)
    assert card.callback_data == [f"a:{approval['id']}", f"d:{approval['id']}"]
    assert notice.callback_data == [f"s:{approval['id']}"] and "did not confirm" in notice.text
    await daemon.broker.drain()
    assert len(cards_tg(telegram)) == 1  # no duplicate card
    events = (await api.call("GET", f"/v1/approvals/{approval['id']}"))[1]
    assert events["status"] == "pending"
    # The approver presses the card that did arrive: it is adopted, decided, edited; the notice too.
    final = await _press_tg_and_wait(telegram, api, card, approval["id"])
    assert final["status"] == "approved"
    await telegram.wait_for(lambda: card.reply_markup is None and notice.reply_markup is None,
                            what="card and notice lose their buttons")
    assert "Approved" in card.text and "Approved" in notice.text


async def test_telegram_timeout_before_delivery_the_notice_brings_the_card(
        telegram, start_daemon, short_tmp, monkeypatch):
    monkeypatch.setattr(adapters.telegram_channel, "READ_TIMEOUT_S", 0.5)
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.inject(SEND_TG, Fault.timeout())
    _, approval = await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), timeout=5, what="the notice")
    (notice,) = telegram.sent(APPROVAL_CHAT)
    t0 = time.monotonic()
    telegram.press(APPROVAL_CHAT, notice.message_id, f"s:{approval['id']}", APPROVER)
    await telegram.wait_for(lambda: len(telegram.sent(APPROVAL_CHAT)) == 2, what="the card, on request")
    figure("telegram lost card: shown on request after", time.monotonic() - t0)
    card = telegram.sent(APPROVAL_CHAT)[1]
    await telegram.wait_for(lambda: notice.reply_markup is None and "the card is below" in notice.text)
    final = await _press_tg_and_wait(telegram, api, card, approval["id"], approve=False)
    assert final["status"] == "denied"
    await telegram.wait_for(lambda: card.reply_markup is None and "Denied" in card.text)


async def test_telegram_lost_card_whose_notice_fails_too_is_posted_again(
        telegram, start_daemon, short_tmp, monkeypatch):
    """Neither the card (a timeout before delivery) nor its notice (5xx past the budget) got through:
    the card is posted again by a resync, so the approval is not left without anything to press."""
    monkeypatch.setattr(adapters.telegram_channel, "READ_TIMEOUT_S", 0.5)
    monkeypatch.setattr(adapters.telegram_channel, "REQUEST_POLICY", RetryPolicy(budget=1.0, cap=0.5))
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.inject(SEND_TG, Fault.timeout())
    telegram.inject(SEND_TG, Fault.server_error(500), times=2)
    _, approval = await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), timeout=8, what="the card, posted again")
    (card,) = telegram.sent(APPROVAL_CHAT)
    assert card.callback_data == [f"a:{approval['id']}", f"d:{approval['id']}"]
    assert [c.status for c in telegram.calls_to(SEND_TG)][1:] == [500, 500, 200]
    final = await _press_tg_and_wait(telegram, api, card, approval["id"], approve=False)
    assert final["status"] == "denied"


async def test_discord_timeout_after_delivery_is_retried_without_a_duplicate(discord, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, discord=discord_config(discord)))
    channel(daemon, "discord").rest_timeout = 0.5
    discord.inject(SEND_DC, Fault.timeout_after_delivery())
    t0 = time.monotonic()
    _, approval = await _submit(api)
    await discord.wait_for(lambda: discord.sent(DISCORD_APPROVAL), timeout=5, what="the card")
    await discord.wait_for(lambda: len(discord.calls_to("POST", f"/channels/{DISCORD_APPROVAL}/messages")) == 2,
                           timeout=5, what="the retry")
    await daemon.broker.drain()
    figure("discord timeout after delivery: card recorded after", time.monotonic() - t0)
    (card,) = discord.sent(DISCORD_APPROVAL)  # the retry's nonce returned the first message: one card
    assert await daemon.broker.ledger.cards(approval["id"], "discord") == [f"{DISCORD_APPROVAL}:{card.id}"]
    discord.press(card.id, card.custom_ids[0], user_id=DISCORD_APPROVER)
    _, final = await api.call("GET", f"/v1/approvals/{approval['id']}?wait=5")
    assert final["status"] == "approved"
    await discord.wait_for(lambda: card.components == [] and "Approved" in embed_text(card))


# a bad token -------------------------------------------------------------------------------------

async def test_bad_telegram_token_leaves_discord_working(telegram, discord, start_daemon, short_tmp, caplog):
    cfg = both(short_tmp, telegram, discord)
    cfg.telegram.token = type(cfg.telegram.token)("123:WRONG")
    with caplog.at_level(logging.ERROR, logger="signoff.telegram"):
        daemon, api = await start_daemon(cfg)
    assert "telegram rejected the bot token" in caplog.text
    assert "WRONG" not in caplog.text
    _, health = await api.call("GET", "/v1/health")
    assert health["channels"] == {"telegram": "down", "discord": "up"}
    assert "token" in channel(daemon, "telegram").problem
    waiting = asyncio.create_task(api.call("POST", "/v1/approvals?wait=10", json=MEDIUM_CMD))
    await discord.wait_for(lambda: discord.sent(DISCORD_APPROVAL), what="discord card")
    card = discord.sent(DISCORD_APPROVAL)[0]
    iid = discord.press(card.id, card.custom_ids[0], user_id=DISCORD_APPROVER)
    status, approval = await asyncio.wait_for(waiting, 5)
    assert approval["status"] == "approved"
    await discord.wait_for(lambda: reply(discord, iid) is not None and card.components == [])
    assert telegram.sent() == []


async def test_bad_discord_token_leaves_telegram_working(telegram, discord, start_daemon, short_tmp, caplog):
    cfg = both(short_tmp, telegram, discord)
    cfg.discord.token = type(cfg.discord.token)("WRONG.TOKEN")
    with caplog.at_level(logging.ERROR, logger="signoff.discord"):
        daemon, api = await start_daemon(cfg)
    assert "discord refused the bot token" in caplog.text and "WRONG" not in caplog.text
    _, health = await api.call("GET", "/v1/health")
    assert health["channels"] == {"telegram": "up", "discord": "down"}
    assert "token" in channel(daemon, "discord").problem
    _, approval = await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), what="telegram card")
    final = await _press_tg_and_wait(telegram, api, telegram.sent(APPROVAL_CHAT)[0], approval["id"], approve=False)
    assert final["status"] == "denied"
    assert discord.sent() == []


# a channel down for a while ----------------------------------------------------------------------

async def _health(api, want: dict, timeout: float = 10.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        _, health = await api.call("GET", "/v1/health")
        if health["channels"] == want:
            return
        assert loop.time() < end, f"health stayed {health['channels']}, wanted {want}"
        await asyncio.sleep(0.05)  # polling the daemon's own answer: there is no event to wait on


async def test_long_outage_deadlines_hold_missed_cards_come_in_order_stale_ones_show_outcome(
        telegram, discord, start_daemon, short_tmp, monkeypatch):
    monkeypatch.setattr(adapters.discord_channel, "RECONNECT_POLICY",
                        RetryPolicy(first=0.05, cap=0.5, budget=None, max_attempts=None))
    daemon, api = await start_daemon(both(short_tmp, telegram, discord, timeouts=(1.0, 1.0, 1.0)))
    # P is shown on both before the outage.
    _, p = await _submit(api, command="git push origin p")
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), what="P on telegram")
    await discord.wait_for(lambda: discord.sent(DISCORD_APPROVAL), what="P on discord")
    tg_p, dc_p = telegram.sent(APPROVAL_CHAT)[0], discord.sent(DISCORD_APPROVAL)[0]
    telegram.down = discord.down = True
    down_at = time.monotonic()
    await _health(api, {"telegram": "down", "discord": "down"})
    # A is asked during the outage; A and P escalate and expire on the core's clock, not the channels'.
    _, a = await _submit(api, command="git push origin a")
    t_a = time.monotonic()
    for approval in (p, a):
        _, final = await api.call("GET", f"/v1/approvals/{approval['id']}?wait=5")
        assert final["status"] == "expired"
    assert 2.9 <= time.monotonic() - t_a < 3.0 + 1.0  # three 1 s tiers: not sooner, and not much later
    # B, then C, are asked just before it comes back.
    _, b = await _submit(api, command="git push origin b")
    _, c = await _submit(api, command="git push origin c")
    telegram.down = discord.down = False
    up_at = time.monotonic()
    await _health(api, {"telegram": "up", "discord": "up"})
    figure("outage: both channels up again after the fakes recovered", time.monotonic() - up_at)
    await telegram.wait_for(lambda: len(cards_tg(telegram)) == 3, what="B and C on telegram")
    await discord.wait_for(lambda: len(discord.sent(DISCORD_APPROVAL)) == 3, what="B and C on discord")
    figure("outage: missed cards posted after recovery", time.monotonic() - up_at)
    print(f"[figure] outage lasted {up_at - down_at:.2f} s")
    # In order, and nothing for A (it expired before anyone could see it).
    assert [m.callback_data[0][2:] for m in cards_tg(telegram)[1:]] == [b["id"], c["id"]]
    assert [m.custom_ids[0].split(":")[2] for m in discord.sent(DISCORD_APPROVAL)[1:]] == [b["id"], c["id"]]
    # P's cards show that it expired, without buttons: no stale "pending".
    await telegram.wait_for(lambda: "Expired" in tg_p.text and tg_p.reply_markup is None, what="P expired (tg)")
    await discord.wait_for(lambda: "Expired" in embed_text(dc_p) and dc_p.components == [], what="P expired (dc)")


# a double tap ------------------------------------------------------------------------------------

async def test_telegram_double_tap_edits_the_card_once(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    _, approval = await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), what="the card")
    card = telegram.sent(APPROVAL_CHAT)[0]
    q1 = telegram.press(APPROVAL_CHAT, card.message_id, card.callback_data[0], APPROVER)
    q2 = telegram.press(APPROVAL_CHAT, card.message_id, card.callback_data[0], APPROVER)
    await telegram.wait_for(lambda: {a["callback_query_id"] for a in telegram.answers} >= {q1, q2}, what="both answered")
    await daemon.broker.drain()
    edits = [c for c in telegram.calls_to("editMessageText") if c.params.get("message_id") == card.message_id]
    assert len(edits) == 1 and edits[0].status == 200
    assert card.reply_markup is None and "Approved" in card.text


async def test_telegram_not_modified_answer_counts_as_success(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    _, approval = await _submit(api)
    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), what="the card")
    await daemon.broker.drain()
    tg = channel(daemon, "telegram")
    tg._contents.clear()  # as after a restart: the daemon no longer knows what the card shows
    telegram.fail_next("editMessageText", status=400, description="Bad Request: message is not modified")
    current = await daemon.broker.get(approval["id"])
    assert await tg.update_card(current, CardChange.ESCALATED) is True  # no error, nothing retried
    assert [c.status for c in telegram.calls_to("editMessageText")] == [400]


async def test_doctor_names_the_channel_with_a_bad_token(telegram, discord, start_daemon, short_tmp, monkeypatch):
    import yaml

    from bot import doctor
    from bot.config import load_config

    data = both(short_tmp, telegram, discord).model_dump(mode="json", exclude_none=True, exclude={"source"})
    data["telegram"]["token"], data["discord"]["token"] = "123:WRONG", discord.token
    path = short_tmp / "config.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    for var in ("SIGNOFF_TELEGRAM_TOKEN", "SIGNOFF_DISCORD_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    await start_daemon(load_config(path))
    report = await asyncio.to_thread(doctor.check, str(path), 5.0)
    assert "telegram: getMe failed: The token `••••` was rejected by the server." in report.problems
    assert "daemon: channel telegram is down" in report.problems
    assert not any(p.startswith("discord") or "channel discord" in p for p in report.problems)
    assert "WRONG" not in report.render()
