"""Adversarial: cards that keep showing "pending" with live buttons after the approval is final.

The Cards contract (interfaces.md): "After a decision, every copy of the card, in every chat and
platform, is edited to show the outcome ... and its buttons are removed. An expired card says so; it
never shows a stale 'pending' or a wrong outcome."
"""

from __future__ import annotations

import asyncio

from bot.app import Daemon
from core.models import Actor, DecidedVia
from tests.conftest import APPROVAL_CHAT, APPROVER, ONCALL_CHAT, ApiClient, make_config

MEDIUM_CMD = {"action": "terminal", "command": "git push origin main", "agent": "claude"}


async def _card(telegram, chat=APPROVAL_CHAT, count: int = 1):
    await telegram.wait_for(lambda: len(telegram.sent(chat)) >= count, what=f"{count} card(s) in {chat}")
    return telegram.sent(chat)[count - 1]


async def test_card_edit_in_flight_when_daemon_stops_is_repaired_after_restart(telegram, short_tmp):
    """Regression (found by an adversarial run, fixed): a decision committed to the ledger whose card edit is still in flight when the daemon
    stops (Telegram slow to answer an edit — PTB read_timeout is 10 s — and a systemctl restart, or
    a kill -9 right after the commit) is never repaired. Stale cards are found at start-up only
    through ``update_card_failed`` events (Broker.load_stale), but a cancelled or killed edit
    records no event: shutdown cancels it (CancelledError is not an Exception) and a kill records
    nothing. After the restart the card shows "pending" with live Approve/Deny buttons forever.
    Should: repair is driven by the ledger's state (final approvals whose cards were not confirmed
    edited), not by a failure event that a crash never writes. Severity: cosmetic / misleading."""
    config = make_config(short_tmp, telegram, timeouts=(60, 60, 60))
    daemon = Daemon(config)
    await daemon.start()
    api = ApiClient(config.server.path())
    try:
        _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
        card = await _card(telegram)
        channel = next(ch for ch in daemon.channels if ch.name == "telegram")

        async def slow_edit(*args, **kwargs):  # Telegram does not answer the edit (yet)
            await asyncio.sleep(3600)

        channel._edit = slow_edit
        status, cancelled = await api.call("POST", f"/v1/approvals/{approval['id']}/cancel")
        assert (status, cancelled["status"]) == (200, "cancelled")
    finally:
        await api.close()
        await daemon.stop()  # drains 2 s, then cancels the edit still in flight
    assert card.reply_markup is not None  # the edit never reached Telegram
    daemon = Daemon(config)
    await daemon.start()
    try:
        await telegram.wait_for(lambda: card.reply_markup is None, timeout=10,
                                what="the cancelled approval's old card is repaired after the restart")
    finally:
        await daemon.stop()


async def test_escalation_edit_retried_after_decision_does_not_resurrect_buttons(telegram, start_daemon, short_tmp):
    """Regression (found by an adversarial run, fixed): card edits are fire-and-forget tasks, each carrying the snapshot of the approval taken
    when it was spawned, with no ordering between them. If the "escalated" edit is delayed (here a
    Telegram flood wait, 429 retry_after=2, which PTB and the adapter honour by sleeping) and a
    decision lands meanwhile, the decision's edit is applied first and the late escalation edit then
    overwrites it: the card goes back to "pending, HIGH" with live Approve/Deny buttons although the
    approval is approved. Should: an edit never replaces a newer state (re-read the approval before
    editing, or serialise edits per card). Severity: cosmetic / misleading (stale pending card)."""
    daemon, api = await start_daemon(make_config(short_tmp, telegram, timeouts=(1.0, 60, 60)))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    card = await _card(telegram)
    telegram.fail_next("editMessageText", status=429, retry_after=2)
    # Wait for the escalation's edit to be refused with a flood wait.
    await telegram.wait_for(lambda: any(c.status == 429 for c in telegram.calls_to("editMessageText")),
                            timeout=5, what="escalation edit hits a flood wait")
    _, now = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert now["tier"] == "HIGH" and now["status"] == "pending"
    telegram.press(APPROVAL_CHAT, card.message_id, f"a:{approval['id']}", APPROVER)
    await telegram.wait_for(lambda: card.reply_markup is None, timeout=5, what="decision edit")
    _, final = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert final["status"] == "approved"
    await asyncio.sleep(3.0)  # the escalation edit's retry after the flood wait
    await daemon.broker.drain()
    assert card.reply_markup is None, f"approved card shows buttons again: {card.text!r}"
    assert "Approved" in card.text


async def test_escalation_racing_a_decision_posts_no_live_oncall_card(telegram, start_daemon, short_tmp):
    """Regression (found by an adversarial run, fixed): when a decision lands between the escalation's compare-and-set and its re-read of the
    approval (Broker._deadline_passed), the broker still calls notify_oncall with the now-final
    approval. Telegram then posts a brand-new "⬆ Escalated: needs a decision" card with live
    Approve/Deny buttons to the on-call chat; its _catch_up sees no change (the snapshot was
    already final) so the buttons are never removed. Should: no on-call card for an approval
    that is already final (or it is posted without buttons / edited at once).
    Severity: cosmetic / misleading (on-call paged for a decided approval, stale buttons)."""
    daemon, api = await start_daemon(make_config(short_tmp, telegram, timeouts=(0.8, 60, 60)))
    _, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)
    await _card(telegram)
    original = daemon.ledger.escalate

    async def escalate_then_someone_presses(approval_id, *args, **kwargs):
        ok = await original(approval_id, *args, **kwargs)
        # The interleaving under test: a press is handled right after the escalation committed.
        await daemon.broker.decide(approval_id, True, Actor(id=f"telegram:{APPROVER}", via=DecidedVia.TELEGRAM,
                                                            name="@alice"))
        return ok

    daemon.ledger.escalate = escalate_then_someone_presses
    _, final = await api.call("GET", f"/v1/approvals/{approval['id']}?wait=5")
    assert final["status"] == "approved"
    await asyncio.sleep(0.5)
    await daemon.broker.drain()
    live = [m for m in telegram.sent(ONCALL_CHAT) if m.reply_markup is not None]
    assert not live, f"on-call chat has a live card for an approved approval: {live[0].text!r}"
