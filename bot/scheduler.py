"""Deadlines of pending approvals, run by APScheduler inside the daemon's event loop.

The ledger holds every deadline; this only keeps timers, so a restart rebuilds them from the ledger
(``Broker.recover``). Jobs run however late they are (``misfire_grace_time=None``): APScheduler's
default grace of 1 s would silently drop a deadline that fell due while the loop was busy.
"""

from __future__ import annotations

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
        self._scheduler = AsyncIOScheduler(
            # max_instances: a deadline re-armed from inside its own run (an escalation, a deadline that moved)
            # may fall due before that run ends; with one instance APScheduler would skip the new run, and a
            # date trigger never fires again: the approval would stay pending. The callbacks check the ledger
            # (status, deadline, tier) and are safe to overlap.
            timezone="UTC", job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1000}
        )

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

    def schedule_job(self, job_id: str, at: datetime, fn: Callable[..., Awaitable[None]], *args) -> None:
        """Run ``await fn(*args)`` at ``at``; a job with the same id is replaced. A failing job is
        retried 1 s later, so a timer is never silently lost."""
        self._scheduler.add_job(self._run, DateTrigger(run_date=at), args=[job_id, fn, *args], id=job_id,
                                replace_existing=True)

    def cancel_job(self, job_id: str) -> None:
        try:
            self._scheduler.remove_job(job_id)
        except JobLookupError:
            pass

    async def _run(self, job_id: str, fn: Callable[..., Awaitable[None]], *args) -> None:
        try:
            await fn(*args)
        except Exception:
            # The state stays in the ledger; retry soon rather than leave an approval pending forever.
            log.exception("%s failed; retrying in 1 s", job_id)
            self.schedule_job(job_id, datetime.now(UTC) + timedelta(seconds=1), fn, *args)
