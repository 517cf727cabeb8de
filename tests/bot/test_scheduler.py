"""The deadline timers (bot/scheduler.py, the real APScheduler): a deadline re-armed from inside its own run,
for a time that comes before that run ends (an escalation with a short timeout under load), still fires."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.scheduler import DeadlineScheduler


async def test_a_job_rearmed_during_its_own_run_still_fires() -> None:
    calls: list[str] = []
    second = asyncio.Event()

    async def on_deadline(approval_id: str) -> None:
        calls.append(approval_id)
        if len(calls) == 1:
            sched.schedule(approval_id, datetime.now(UTC) + timedelta(milliseconds=20))
            await asyncio.sleep(0.3)  # still running when the new deadline falls due
        else:
            second.set()

    sched = DeadlineScheduler(on_deadline)
    sched.start()
    try:
        sched.schedule("a1", datetime.now(UTC))
        await asyncio.wait_for(second.wait(), 5)
    finally:
        sched.shutdown()
    assert calls == ["a1", "a1"]
