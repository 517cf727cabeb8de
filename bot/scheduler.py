"""Deadlines of pending approvals, run by APScheduler inside the daemon's event loop.

The ledger holds every deadline; this only keeps timers, so a restart rebuilds them from the ledger
(``Broker.recover``), and a sweeper (``Broker.sweep_overdue``) catches any timer that still did not run.
Jobs run however late they are (``misfire_grace_time=None``): APScheduler's default grace of 1 s would
silently drop a deadline that fell due while the loop was busy.

Each arming of a timer is its own APScheduler job (``deadline:<id>#<n>``): a deadline re-armed from inside
its own run (an escalation with a short timeout under load) would otherwise reuse the id of a job that is
still running, and APScheduler skips a run of a job whose instances are all busy; a skipped date job never
runs again, and the approval stayed pending forever (issue 13: 2,435 of a 3,000 burst).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

log = logging.getLogger("signoff.scheduler")


class DeadlineScheduler:
    """Calls ``on_deadline(approval_id)`` at each scheduled time; one job per approval.

    Args:
        on_deadline: the coroutine function to run (``Broker.on_deadline``).
    """

    def __init__(self, on_deadline: Callable[[str], Awaitable[None]]):
        self._on_deadline = on_deadline
        self._scheduler = AsyncIOScheduler(timezone="UTC", job_defaults={"misfire_grace_time": None, "coalesce": True})
        self._armed: dict[str, str] = {}  # our job id -> the APScheduler job id of its current arming
        self._arming = itertools.count(1)

    def start(self) -> None:
        """Start inside the running event loop."""
        self._scheduler.start()

    def shutdown(self) -> None:
        if self._scheduler.running:
            self._scheduler.shutdown(wait=False)

    def schedule(self, approval_id: str, at: datetime) -> None:
        """Run the deadline of ``approval_id`` at ``at`` (UTC-aware); replaces an earlier schedule."""
        self.schedule_job(f"deadline:{approval_id}", at, self._on_deadline, approval_id)

    def cancel(self, approval_id: str) -> None:
        self.cancel_job(f"deadline:{approval_id}")

    def interval_job(self, job_id: str, seconds: float, fn: Callable[[], Awaitable[None]]) -> None:
        """Run ``await fn()`` every ``seconds``; a run still going when the next falls due is skipped
        (a sweep over the ledger need not overlap itself)."""
        self._scheduler.add_job(fn, "interval", seconds=seconds, id=job_id, replace_existing=True,
                                max_instances=1)

    def schedule_job(self, job_id: str, at: datetime, fn: Callable[..., Awaitable[None]], *args) -> None:
        """Run ``await fn(*args)`` at ``at`` (UTC-aware); an earlier arming of ``job_id`` is replaced,
        even one that is running now. A failing job is retried 1 s later, so a timer is never silently lost."""
        self.cancel_job(job_id)
        arming = f"{job_id}#{next(self._arming)}"
        self._armed[job_id] = arming
        self._scheduler.add_job(self._run, DateTrigger(run_date=at), args=[job_id, arming, fn, *args], id=arming)

    def cancel_job(self, job_id: str) -> None:
        arming = self._armed.pop(job_id, None)
        if arming is None:
            return
        try:
            self._scheduler.remove_job(arming)
        except JobLookupError:  # it has fired (a date job leaves the store when it runs)
            pass

    @property
    def armed(self) -> int:
        """How many timers are armed (not yet fired)."""
        return len(self._armed)

    async def _run(self, job_id: str, arming: str, fn: Callable[..., Awaitable[None]], *args) -> None:
        if self._armed.get(job_id) == arming:
            del self._armed[job_id]
        try:
            await fn(*args)
        except Exception:
            # The state stays in the ledger; retry soon rather than leave an approval pending forever.
            log.exception("%s failed; retrying in 1 s", job_id)
            self.schedule_job(job_id, datetime.now(UTC) + timedelta(seconds=1), fn, *args)
