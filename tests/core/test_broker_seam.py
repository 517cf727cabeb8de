"""What the broker offers channels instead of its ledger: the approval as it is, card refs, the edit lock."""

from __future__ import annotations

import asyncio

import pytest

from core.broker import Broker, BrokerSettings
from core.channel import APPROVAL, UNCERTAIN, CardRef
from core.ledger import Ledger
from core.models import ApprovalRequest, Status
from core.policy import Policy

PUSH = ApprovalRequest(action="terminal", command="git push origin main")


@pytest.fixture
async def broker(tmp_path):
    ledger = await Ledger.open(f"sqlite:///{tmp_path}/ledger.db")
    b = Broker(ledger, Policy(), BrokerSettings())
    yield b
    await b.drain()
    await ledger.close()


async def test_current_and_pending(broker):
    assert await broker.current("nope") is None
    a = await broker.submit(PUSH)
    assert (await broker.current(a.id)).status is Status.PENDING
    assert [p.id for p in await broker.pending()] == [a.id]
    assert [p.id for p in await broker.approvals(status=Status.PENDING, newest_first=True)] == [a.id]


async def test_card_refs_are_kept_per_owner_channel_and_purpose(broker):
    a = await broker.submit(PUSH)
    assert await broker.card_refs(a.id, "telegram") == []
    made = await broker.record_card(a.id, "telegram", "100:1")
    await broker.record_card(a.id, "telegram", "100:2", UNCERTAIN)
    await broker.record_card(a.id, "discord", "7:9")
    await broker.record_card("alert1", "telegram", "300:5", "crisis:0")  # a crisis alert's refs too
    assert made == CardRef("telegram", "100:1", APPROVAL) and made.place == "100"
    assert await broker.card_refs(a.id, "telegram") == [CardRef("telegram", "100:1"),
                                                        CardRef("telegram", "100:2", UNCERTAIN)]
    assert await broker.card_refs(a.id, "telegram", APPROVAL) == [CardRef("telegram", "100:1")]
    assert await broker.card_refs(a.id, "discord") == [CardRef("discord", "7:9")]
    assert await broker.card_refs("alert1", "telegram", "crisis:0") == [CardRef("telegram", "300:5", "crisis:0")]


async def test_the_edit_lock_serialises_one_channel_and_frees_the_others(broker):
    order: list[str] = []
    inside = asyncio.Event()
    release = asyncio.Event()

    async def slow_telegram():
        async with broker.editing("a1", "telegram"):
            order.append("telegram-1 in")
            inside.set()
            await release.wait()
            order.append("telegram-1 out")

    async def second(channel: str):
        await inside.wait()
        async with broker.editing("a1", channel):
            order.append(f"{channel}-2")

    first = asyncio.ensure_future(slow_telegram())
    tg, dc = asyncio.ensure_future(second("telegram")), asyncio.ensure_future(second("discord"))
    await asyncio.wait_for(dc, 1)  # discord is not held back by telegram's slow edit
    assert order == ["telegram-1 in", "discord-2"]
    assert not tg.done()  # telegram's second edit waits for the first
    release.set()
    await asyncio.gather(first, tg)
    assert order == ["telegram-1 in", "discord-2", "telegram-1 out", "telegram-2"]
    assert broker._edit_locks == {}  # locks live only while used
