"""core.retry: what is retried, how long it waits, and when it stops (a fake clock: no real sleeping)."""

from __future__ import annotations

import asyncio

import pytest

from core.retry import DeliveryUnknown, Fault, FaultKind, RetryPolicy, call, retry_later


class Boom(Exception):
    def __init__(self, fault: Fault | None):
        super().__init__(repr(fault))
        self.fault = fault


class Clock:
    """A fake monotonic clock advanced by the fake sleep."""

    def __init__(self):
        self.now = 0.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def failing(*faults: Fault | None, result="ok"):
    """An op that raises Boom(fault) for each fault in turn, then returns ``result``; counts attempts."""
    state = {"attempts": 0}

    async def op():
        state["attempts"] += 1
        if state["attempts"] <= len(faults):
            raise Boom(faults[state["attempts"] - 1])
        return result

    return op, state


def by_fault(exc: BaseException) -> Fault | None:
    return exc.fault if isinstance(exc, Boom) else None


NO_JITTER = RetryPolicy(jitter=0.0)


async def run(op, policy=NO_JITTER, clock=None, **kw):
    clock = clock or Clock()
    return await call(op, by_fault, policy, sleep=clock.sleep, clock=clock, **kw), clock


async def test_retry_after_waits_what_was_asked_never_less():
    policy = RetryPolicy(jitter=0.1)
    for _ in range(20):
        op, state = failing(Fault.wait(3.0))
        result, clock = await run(op, policy)
        assert result == "ok" and state["attempts"] == 2
        assert 3.0 <= clock.waits[0] <= 3.3


async def test_transient_backs_off_exponentially_with_a_cap():
    op, state = failing(*[Fault.transient()] * 5)
    result, clock = await run(op, RetryPolicy(first=0.5, factor=2, cap=3, budget=None, max_attempts=None, jitter=0))
    assert result == "ok" and state["attempts"] == 6
    assert clock.waits == [0.5, 1.0, 2.0, 3.0, 3.0]


def test_jitter_only_stretches_and_stays_within_its_fraction():
    policy = RetryPolicy(first=1, factor=2, cap=8, jitter=0.25)
    assert policy.backoff(0, rng=lambda: 0.0) == 1.0
    assert policy.backoff(0, rng=lambda: 1.0) == 1.25
    assert policy.backoff(10, rng=lambda: 1.0) == 10.0  # the cap, then the jitter on top
    delays = [policy.backoff(2) for _ in range(200)]
    assert all(4.0 <= d <= 5.0 for d in delays) and len(set(delays)) > 1


async def test_delivered_unknown_is_not_retried_unless_idempotent():
    op, state = failing(Fault.unknown("read timeout"))
    with pytest.raises(DeliveryUnknown) as info:
        await run(op)
    assert state["attempts"] == 1 and isinstance(info.value.error, Boom) and info.value.__cause__ is info.value.error
    op, state = failing(Fault.unknown("read timeout"))
    result, clock = await run(op, idempotent=True)
    assert result == "ok" and state["attempts"] == 2 and clock.waits == [0.5]


async def test_permanent_and_unclassified_errors_raise_at_once():
    for fault in (Fault.permanent("400"), None):
        op, state = failing(fault)
        with pytest.raises(Boom):
            await run(op)
        assert state["attempts"] == 1


async def test_the_budget_counts_waits_and_a_longer_retry_after_gives_up_at_once():
    op, state = failing(*[Fault.transient()] * 10)
    with pytest.raises(Boom):
        await run(op, RetryPolicy(first=1, factor=2, cap=100, budget=10, max_attempts=None, jitter=0))
    assert state["attempts"] == 4  # waits 1 + 2 + 4 = 7 s; the next (8 s) would end past 10 s
    op, state = failing(Fault.wait(60))
    with pytest.raises(Boom):
        await run(op, RetryPolicy(budget=30))
    assert state["attempts"] == 1


async def test_attempts_and_give_up_stop_retries():
    op, state = failing(*[Fault.transient()] * 10)
    with pytest.raises(Boom):
        await run(op, RetryPolicy(max_attempts=3, budget=None, jitter=0))
    assert state["attempts"] == 3
    op, state = failing(*[Fault.transient()] * 10)
    with pytest.raises(Boom):
        await run(op, give_up=lambda: state["attempts"] >= 2)
    assert state["attempts"] == 2


async def test_cancellation_is_never_swallowed():
    async def op():
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await run(op)


async def test_real_sleep_and_loop_clock_by_default():
    op, state = failing(Fault.transient())
    assert await call(op, by_fault, RetryPolicy(first=0.01, jitter=0)) == "ok"
    assert state["attempts"] == 2


def test_fault_constructors():
    assert Fault.wait(-1).retry_after == 0.0 and Fault.wait(2).kind is FaultKind.RETRY_AFTER
    assert {Fault.transient().kind, Fault.unknown().kind, Fault.permanent().kind} == {
        FaultKind.TRANSIENT, FaultKind.DELIVERED_UNKNOWN, FaultKind.PERMANENT}


def test_retry_later_waits_what_was_asked_at_least_the_cap_and_never_for_a_permanent_fault():
    policy = RetryPolicy(cap=10)
    assert retry_later(Fault.wait(30), policy) == 30 and retry_later(Fault.wait(2), policy) == 10
    assert retry_later(Fault.transient(), policy) == retry_later(Fault.unknown(), policy) == 10
    assert retry_later(Fault.permanent(), policy) is None and retry_later(None, policy) is None
