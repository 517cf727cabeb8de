"""The approval state machine against a real SQLite ledger (no API, no channels but a recorder)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from core.broker import Broker, BrokerSettings
from core.channel import CardChange
from core.errors import AlreadyDecided, IdempotencyConflict, NotFound
from core.ledger import Ledger
from core.models import Actor, ApprovalRequest, DecidedVia, Status, utcnow
from core.policy import Policy
from core.tiers import Tier

ALICE = Actor(id="telegram:1", name="@alice", via=DecidedVia.TELEGRAM)
BOB = Actor(id="telegram:2", name="@bob", via=DecidedVia.TELEGRAM)
PUSH = ApprovalRequest(action="terminal", command="git push origin main")


class Recorder:
    """A channel that records what the broker tells it."""

    name = "recorder"

    def __init__(self, shown: bool = True):
        self.shown = shown
        self.calls: list[tuple] = []

    async def post_card(self, approval):
        self.calls.append(("post", approval.id))
        return self.shown

    async def update_card(self, approval, change):
        self.calls.append(("update", approval.id, change, approval.status))

    async def notify_oncall(self, approval):
        self.calls.append(("oncall", approval.id, approval.tier))

    async def alert_crisis(self, alert, realert):
        self.calls.append(("crisis", alert.approval_id, alert.category, realert))

    async def update_crisis(self, alert):
        self.calls.append(("crisis_update", alert.id, alert.acknowledged_by))


class ManualScheduler:
    def __init__(self):
        self.jobs = {}

    def schedule(self, approval_id, at):
        self.jobs[approval_id] = at

    def cancel(self, approval_id):
        self.jobs.pop(approval_id, None)


@pytest.fixture
async def broker(tmp_path):
    ledger = await Ledger.open(f"sqlite:///{tmp_path}/ledger.db")
    b = Broker(ledger, Policy(), BrokerSettings(), scheduler=ManualScheduler())
    b.attach(Recorder())
    yield b
    await b.drain()
    await ledger.close()


async def test_two_decisions_at_once_one_wins(broker):
    for _ in range(5):
        a = await broker.submit(PUSH)
        results = await asyncio.gather(broker.decide(a.id, True, ALICE), broker.decide(a.id, False, BOB),
                                       return_exceptions=True)
        won = [r for r in results if not isinstance(r, Exception)]
        lost = [r for r in results if isinstance(r, AlreadyDecided)]
        assert len(won) == 1 and len(lost) == 1
        assert lost[0].approval.status == won[0].status  # the loser is told the true outcome
        final = await broker.get(a.id)
        assert final.decided_by == won[0].decided_by


async def test_decide_unknown_and_final(broker):
    with pytest.raises(NotFound):
        await broker.decide("nope", True, ALICE)
    a = await broker.submit(PUSH)
    await broker.cancel(a.id, ALICE)
    with pytest.raises(AlreadyDecided) as info:
        await broker.decide(a.id, True, ALICE)
    assert info.value.approval.status is Status.CANCELLED


async def test_escalation_ladder_then_expiry(broker):
    rec = broker.channels[0]
    a = await broker.submit(PUSH)
    assert a.tier is Tier.MEDIUM and a.status is Status.PENDING
    await broker.drain()
    sched = broker.scheduler
    for expected in (Tier.HIGH, Tier.CRITICAL):
        broker.clock = lambda at=sched.jobs[a.id]: at + timedelta(milliseconds=10)
        await broker.on_deadline(a.id)
        now = await broker.get(a.id)
        assert now.status is Status.PENDING and now.tier is expected
        assert sched.jobs[a.id] == now.deadline
        assert now.deadline - broker.clock() > timedelta(seconds=BrokerSettings().timeouts[expected] - 1)
    broker.clock = lambda at=sched.jobs[a.id]: at + timedelta(milliseconds=10)
    await broker.on_deadline(a.id)
    final = await broker.get(a.id)
    assert final.status is Status.EXPIRED and final.decided_via is DecidedVia.TIMEOUT
    await broker.drain()
    assert [c[2] for c in rec.calls if c[0] == "oncall"] == [Tier.HIGH, Tier.CRITICAL]
    assert ("update", a.id, CardChange.EXPIRED, Status.EXPIRED) in rec.calls
    assert a.id not in sched.jobs


async def test_early_deadline_call_does_not_escalate(broker):
    a = await broker.submit(PUSH)
    await broker.on_deadline(a.id)  # fired early (the card moved the deadline): nothing happens
    assert (await broker.get(a.id)).tier is Tier.MEDIUM


async def test_deadline_counts_from_card_shown_not_later_than_creation_clock(tmp_path):
    ledger = await Ledger.open(f"sqlite:///{tmp_path}/l.db")
    try:
        hidden = Broker(ledger, Policy(), scheduler=ManualScheduler())
        hidden.attach(Recorder(shown=False))
        a = await hidden.submit(PUSH)
        await hidden.drain()
        assert (await hidden.get(a.id)).deadline == a.deadline  # nobody saw it: creation clock
        assert a.deadline - a.created_at == timedelta(seconds=60)
        shown = Broker(ledger, Policy(), scheduler=ManualScheduler())
        shown.attach(Recorder(shown=True))
        b = await shown.submit(PUSH)
        await shown.drain()
        assert (await shown.get(b.id)).deadline >= b.deadline
    finally:
        await ledger.close()


async def test_safe_and_low_are_approved_without_a_card(broker):
    rec = broker.channels[0]
    safe = await broker.submit(ApprovalRequest(action="read_file", command="README.md"))
    low = await broker.submit(ApprovalRequest(action="terminal", command="make test"))
    assert (safe.status, safe.tier, safe.decided_by) == (Status.APPROVED, Tier.SAFE, "policy")
    assert (low.status, low.tier) == (Status.APPROVED, Tier.LOW)
    await broker.drain()
    assert rec.calls == []


async def test_low_goes_to_a_human_when_configured(tmp_path):
    ledger = await Ledger.open(f"sqlite:///{tmp_path}/l.db")
    try:
        b = Broker(ledger, Policy(), BrokerSettings(low_without_llm="human"), scheduler=ManualScheduler())
        a = await b.submit(ApprovalRequest(action="terminal", command="make test"))
        assert a.status is Status.PENDING and a.tier is Tier.MEDIUM
    finally:
        await ledger.close()


async def test_crisis_is_final_with_resources_and_alerts(broker):
    rec = broker.channels[0]
    a = await broker.submit(ApprovalRequest(action="send_message", command="I want to kill myself tonight"))
    assert a.status is Status.CRISIS and a.tier is Tier.CRITICAL and a.resources
    assert a.decided_by == "policy" and a.decided_via is DecidedVia.AUTO
    await broker.drain()
    assert rec.calls == [("crisis", a.id, a.resources and rec.calls[0][2], 0)]
    assert (await broker.get(a.id)).status is Status.CRISIS  # recorded in the background


async def test_idempotency(broker):
    req = ApprovalRequest(action="terminal", command="git push", idempotency_key="k")
    a = await broker.submit(req)
    b = await broker.submit(req)
    assert a.id == b.id
    with pytest.raises(IdempotencyConflict):
        await broker.submit(ApprovalRequest(action="terminal", command="git push -f", idempotency_key="k"))
    with pytest.raises(IdempotencyConflict):
        await broker.submit(ApprovalRequest(action="terminal", command="git push", cwd="/elsewhere",
                                            idempotency_key="k"))


async def test_wait_wakes_on_decision(broker):
    a = await broker.submit(PUSH)
    waiter = asyncio.create_task(broker.wait(a.id, 30))
    await asyncio.sleep(0)
    await broker.decide(a.id, True, ALICE)
    assert (await asyncio.wait_for(waiter, 5)).status is Status.APPROVED
    pending = await broker.submit(PUSH)
    t0 = utcnow()
    assert (await broker.wait(pending.id, 0.1)).status is Status.PENDING
    assert utcnow() - t0 >= timedelta(seconds=0.09)


async def test_channel_failure_is_recorded_and_changes_nothing(tmp_path):
    class Broken(Recorder):
        async def post_card(self, approval):
            raise ConnectionError("platform down")

    ledger = await Ledger.open(f"sqlite:///{tmp_path}/l.db")
    try:
        b = Broker(ledger, Policy(), scheduler=ManualScheduler())
        b.attach(Broken())
        a = await b.submit(PUSH)
        await b.drain()
        assert (await b.get(a.id)).status is Status.PENDING
        kinds = [e.kind for e in (await ledger.events([a.id]))[a.id]]
        assert "post_card_failed" in kinds
    finally:
        await ledger.close()


async def test_waiters_sharing_a_future_made_after_the_decision_all_wake(broker, monkeypatch):
    """Three long polls whose reads interleave with a decision (the order 500 concurrent polls can take):
    W3 and W4 read "pending", the decision lands, W3 registers a new future and W4 finds it; W3's re-read
    sees the decision. W4 must wake then, not at its timeout."""
    a = await broker.submit(PUSH)
    real_get = broker.get
    gates: dict[str, list[asyncio.Event]] = {"w3": [asyncio.Event(), asyncio.Event()], "w4": [asyncio.Event()]}
    reads: dict[str, int] = {"w3": 0, "w4": 0}
    read_done = {"w3": asyncio.Event(), "w4": asyncio.Event()}

    async def gated_get(approval_id):
        name = asyncio.current_task().get_name()
        result = await real_get(approval_id)
        if name in gates and reads[name] < len(gates[name]):
            reads[name] += 1
            read_done[name].set()
            await gates[name][reads[name] - 1].wait()
        return result

    monkeypatch.setattr(broker, "get", gated_get)
    w3 = asyncio.create_task(broker.wait(a.id, 30), name="w3")
    w4 = asyncio.create_task(broker.wait(a.id, 30), name="w4")
    await read_done["w3"].wait()
    await read_done["w4"].wait()  # both read "pending"
    await broker.decide(a.id, False, ALICE)  # no future registered yet: nothing to wake
    read_done["w3"].clear()
    gates["w3"][0].set()  # W3 registers a future and re-reads (held after the read)
    await read_done["w3"].wait()
    gates["w4"][0].set()  # W4 finds W3's future and waits on it
    for _ in range(20):
        await asyncio.sleep(0)
    gates["w3"][1].set()  # W3's re-read: final
    assert (await asyncio.wait_for(w3, 5)).status is Status.DENIED
    assert (await asyncio.wait_for(w4, 2)).status is Status.DENIED
    assert a.id not in broker._waiters
