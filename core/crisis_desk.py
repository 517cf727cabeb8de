"""Crisis routing: answer a person in crisis at once, alert the responders, re-alert until someone
acknowledges.

The resources never wait for anything: :meth:`CrisisDesk.raise_alert` returns them at once, while the
ledger write and every platform alert run as separate background tasks that retry on failure. A
failing ledger or a platform outage is logged and retried; it never delays or blocks the answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from pydantic import BaseModel

from core.crisis import (
    DEFAULT_RESOURCES,
    CrisisAssessment,
    CrisisMatch,
    Resource,
    assess_crisis,
    check_in_message,
    support_message,
)
from core.crisis._deep import DeepReader, deepen
from core.crisis._second import SecondOpinion
from core.crisis._second import ask as ask_second_opinion
from core.errors import AlreadyAcknowledged, UnknownAlert
from core.ledger import CrisisAlertRow, EventRow, Ledger
from core.models import CONCERN, Actor, CrisisAlert, Origin, new_id, utcnow

log = logging.getLogger("signoff.crisis")

#: Seconds between attempts to write a crisis alert to the ledger or deliver it to a platform.
RETRY_DELAYS_S = (0.5, 1, 2, 5, 10, 30, 60)


def retry_delay(attempt: int) -> float:
    """Seconds to wait before the next attempt after ``attempt`` failed ones (0-based), from :data:`RETRY_DELAYS_S`
    (its last delay repeats); the broker's crisis approvals retry by it too."""
    return RETRY_DELAYS_S[min(attempt, len(RETRY_DELAYS_S) - 1)]


class CrisisSettings(BaseModel):
    """``crisis.*`` settings: resources, ack timeout (seconds), re-alert bound, whether text is kept."""

    resources: tuple[Resource, ...] = DEFAULT_RESOURCES
    ack_timeout: float = 120.0
    max_realerts: int = 10
    store_text: bool = True
    second_opinion_timeout: float = 10.0  # seconds an LLM second opinion may take (llm.timeout)


class JobScheduler(Protocol):
    def schedule_job(self, job_id: str, at: datetime, fn: Callable[..., Awaitable[None]], *args) -> None: ...

    def cancel_job(self, job_id: str) -> None: ...


@dataclass(frozen=True)
class IntakeResult:
    """What :meth:`CrisisDesk.intake` did: the ``verdict``, the ``reply`` the person was sent (None: nothing)
    and the ``alert`` the responders got (None: none; a quiet note has category ``concern``)."""

    verdict: CrisisAssessment
    reply: str | None
    alert: CrisisAlert | None


@dataclass
class CrisisDesk:
    """Raises, persists, delivers, re-alerts and acknowledges crisis alerts, and the quiet notes of the grey
    zone (:meth:`raise_concern`).

    While the daemon runs, the alerts in memory are the authority (an acknowledgement is a check and
    a set with no await between them, so the first responder wins); the ledger is written behind, one
    alert's writes in order, retried for as long as it takes. A ledger outage therefore never delays
    the resources, never stops re-alerts and never refuses an acknowledgement. At start-up the
    unacknowledged alerts are read back from the ledger.

    Args:
        ledger: where alerts are recorded.
        channels: the platform channels (the broker's list: shared, so later attachments count).
        settings: resources, ack timeout, re-alert bound, privacy.
        scheduler: runs re-alert timers; None disables re-alerts.
        second_opinion: asked about grey-zone messages (an LLM, where configured); it can only add an alert.
        deep: the deep reader (:mod:`core.crisis._deep`), read on messages and prose requests the fast check
            did not alert on; it can only add an alert or a concern. None: off (``crisis.deep_reader: false``).
    """

    ledger: Ledger
    channels: list
    settings: CrisisSettings = field(default_factory=CrisisSettings)
    scheduler: JobScheduler | None = None
    clock: Callable[[], datetime] = utcnow
    second_opinion: SecondOpinion | None = None
    deep: DeepReader | None = None
    _alerts: dict[str, CrisisAlert] = field(default_factory=dict)
    _writes: dict[str, list[Callable[[], Awaitable]]] = field(default_factory=dict)
    _writers: dict[str, asyncio.Task] = field(default_factory=dict)
    _tasks: set[asyncio.Task] = field(default_factory=set)

    def raise_alert(self, text: str, origin: Origin, match: CrisisMatch | None, alert_id: str | None = None
                    ) -> CrisisAlert:
        """Start a crisis alert and return it (with the resources) at once; never awaits I/O.

        ``match`` None means the caller judged it a crisis itself (``POST /v1/crisis``): category
        ``reported``.
        """
        alert = self._raise(text, origin, match.category if match else "reported",
                            match.evidence if match else None, alert_id)
        self._schedule(alert)
        return alert.model_copy()

    async def intake(self, text: str, origin: Origin, answer: Callable[[str], Awaitable[object]] | None = None,
                     reported: bool = False) -> IntakeResult:
        """Crisis intake of what a person wrote (a chat message, an agent's report): detect, answer, alert.
        The one way in for Telegram, Discord and ``POST /v1/crisis``.

        1. The text is assessed (off the event loop when long), and where the fast check found nothing, read by
           the deep reader (:attr:`deep`, in its own thread; it can only add an alert or a concern).
        2. Crisis language gets the support message, the grey zone the gentle check-in (both with the
           resources), sent through ``answer`` before anything else; a failing ``answer`` is logged and never
           stops the alert. Nothing is sent for ordinary text.
        3. The responders get an alert (:meth:`raise_alert`), a quiet note for the grey zone
           (:meth:`raise_concern`), or nothing.

        Args:
            text: what was said.
            origin: where and who.
            answer: sends the reply to the person (None: the caller answers itself, as the API does with the
                alert's resources).
            reported: the sender judged it a crisis itself (``POST /v1/crisis``): always an alert, category
                ``reported`` unless the text says more; no grey zone.

        Returns:
            The verdict, what the person was told (None: nothing) and the alert raised (None: none).
        """
        verdict = await asyncio.to_thread(assess_crisis, text) if len(text) > 4096 else assess_crisis(text)
        if not reported and verdict.match is None and self.deep is not None:
            verdict = deepen(verdict, await self.deep.read(text))
        if reported:
            return IntakeResult(verdict, None, self.raise_alert(text, origin, verdict.match))
        if verdict.match is not None:
            reply = support_message(self.settings.resources)
        elif verdict.concern:
            reply = check_in_message(self.settings.resources)
        else:
            return IntakeResult(verdict, None, None)
        if answer is not None:
            try:  # the person first: the reply goes out before anything else is attempted
                await answer(reply)
            except Exception as exc:  # never let a failed reply stop the alert
                log.error("could not answer a crisis message from %s (%s): %r", origin.source, origin.chat, exc)
        if verdict.match is not None:
            alert = self.raise_alert(text, origin, verdict.match)
        else:
            alert = self.raise_concern(text, origin)
        return IntakeResult(verdict, reply, alert)

    def raise_concern(self, text: str, origin: Origin) -> CrisisAlert:
        """A quiet note for the grey zone (the model's score is below the alert): category ``concern``,
        delivered to the responders once, recorded, never re-alerted. Where a second opinion is configured it
        is asked in the background, and a full alert (category ``warning_sign``) follows if it says crisis.
        Never awaits I/O."""
        alert = self._raise(text, origin, CONCERN, None, None)
        if self.second_opinion is not None:
            self._spawn(self._second_opinion(text, origin))
        return alert.model_copy()

    async def _second_opinion(self, text: str, origin: Origin) -> None:
        if await ask_second_opinion(self.second_opinion, text, self.settings.second_opinion_timeout):
            log.warning("the crisis second opinion judged a grey-zone message a crisis: alerting")
            self.raise_alert(text, origin, CrisisMatch("warning_sign", None, "llm"))

    def _raise(self, text: str, origin: Origin, category: str, evidence: str | None,
               alert_id: str | None) -> CrisisAlert:
        alert = CrisisAlert(
            id=alert_id or new_id(), created_at=self.clock(), category=category, evidence=evidence, text=text,
            source=origin.source, chat=origin.chat, user_ref=origin.user_ref, user_name=origin.user_name,
            agent=origin.agent, session=origin.session, approval_id=origin.approval_id,
            resources=self.settings.resources,
        )
        self._alerts[alert.id] = alert
        row, ev = self._row(alert), self._raised_event(alert)
        self._write(alert.id, lambda: self.ledger.insert_crisis(row, ev))
        for channel in self.channels:
            self._spawn(self._deliver(channel, "alert_crisis", alert.model_copy(), 0))
        return alert

    async def acknowledge(self, alert_id: str, actor: Actor) -> CrisisAlert:
        """Record the first responder ("I'm on it"); every copy of the alert is edited to show them.

        Raises:
            UnknownAlert: no alert with that id.
            AlreadyAcknowledged: someone else was first.
        """
        alert = await self._load(alert_id)
        if alert.acknowledged_by:
            raise AlreadyAcknowledged(alert.model_copy())
        now = self.clock()
        alert.acknowledged_at, alert.acknowledged_by, alert.acknowledged_by_name = now, actor.id, actor.name
        ev = _event(alert_id, "crisis_acknowledged", now, actor.id, actor.via.value, name=actor.name)
        self._write(alert_id, lambda: self.ledger.acknowledge_crisis(alert_id, now, actor.id, actor.name, ev))
        if self.scheduler is not None:
            self.scheduler.cancel_job(f"crisis:{alert_id}")
        for channel in self.channels:
            self._spawn(self._deliver(channel, "update_crisis", alert.model_copy()))
        return alert.model_copy()

    async def find(self, ref: str) -> CrisisAlert | None:
        """The alert with id ``ref``, or the one a crisis approval request ``ref`` raised (the id ``signoff
        request`` printed); None when there is neither."""
        alert = await self.get(ref)
        if alert is not None:
            return alert
        for a in self._alerts.values():
            if a.approval_id == ref:
                return a.model_copy()
        row = await self.ledger.crisis_for_approval(ref)
        return self._merge(row) if row is not None else None

    async def get(self, alert_id: str) -> CrisisAlert | None:
        if alert_id in self._alerts:
            return self._alerts[alert_id].model_copy()
        row = await self.ledger.get_crisis(alert_id)
        return self._merge(row) if row is not None else None

    async def recover(self) -> int:
        """After a start: re-arm re-alerts of every unacknowledged alert still under its bound."""
        count = 0
        for row in await self.ledger.unacknowledged_crises():
            if row.category == CONCERN:
                continue  # a quiet note is never re-alerted
            alert = self._alerts.setdefault(row.id, self._merge(row))
            if alert.realerts < self.settings.max_realerts:
                self._schedule(alert, due=max(self.clock(), row.created_at + self._interval * (row.realerts + 1)))
                count += 1
        return count

    async def drain(self, timeout: float = 5.0) -> None:
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    async def on_ack_timeout(self, alert_id: str) -> None:
        """Nobody acknowledged in time: alert the responders and on-call again, and schedule the next."""
        alert = self._alerts.get(alert_id)
        if alert is None or alert.acknowledged_by:
            return
        alert.realerts += 1
        n = alert.realerts
        ev = _event(alert_id, "crisis_realerted", self.clock(), "timeout", realert=n)
        self._write(alert_id, lambda: self.ledger.set_crisis_realerts(alert_id, n, ev))
        for channel in self.channels:
            self._spawn(self._deliver(channel, "alert_crisis", alert.model_copy(), n))
        if n < self.settings.max_realerts:
            self._schedule(alert)

    # internals -------------------------------------------------------------------------------

    @property
    def _interval(self) -> timedelta:
        return timedelta(seconds=self.settings.ack_timeout)

    async def _load(self, alert_id: str) -> CrisisAlert:
        if alert_id not in self._alerts:
            row = await self.ledger.get_crisis(alert_id)
            if row is None:
                raise UnknownAlert(alert_id)
            self._alerts.setdefault(alert_id, self._merge(row))  # a concurrent load may have won
        return self._alerts[alert_id]

    def _schedule(self, alert: CrisisAlert, due: datetime | None = None) -> None:
        if self.scheduler is not None and self.settings.max_realerts > 0:
            self.scheduler.schedule_job(f"crisis:{alert.id}", due or self.clock() + self._interval,
                                        self.on_ack_timeout, alert.id)

    def _row(self, alert: CrisisAlert) -> CrisisAlertRow:
        keep = self.settings.store_text
        return CrisisAlertRow(
            id=alert.id, created_at=alert.created_at, category=alert.category,
            evidence=alert.evidence if keep else None, text=alert.text if keep else None,
            text_hash=hashlib.sha256((alert.text or "").encode("utf-8", "surrogatepass")).hexdigest(),
            source=alert.source, chat=alert.chat, user_ref=alert.user_ref, user_name=alert.user_name,
            agent=alert.agent, session=alert.session, approval_id=alert.approval_id,
        )

    @staticmethod
    def _raised_event(alert: CrisisAlert) -> EventRow:
        actor = alert.user_ref or (f"agent:{alert.agent}" if alert.agent else None)
        return _event(alert.id, "crisis", alert.created_at, actor, alert.source, category=alert.category,
                      approval_id=alert.approval_id)

    def _merge(self, row: CrisisAlertRow) -> CrisisAlert:
        return CrisisAlert(
            id=row.id, created_at=row.created_at, category=row.category, evidence=row.evidence, text=row.text,
            source=row.source, chat=row.chat, user_ref=row.user_ref, user_name=row.user_name, agent=row.agent,
            session=row.session, approval_id=row.approval_id, acknowledged_at=row.acknowledged_at,
            acknowledged_by=row.acknowledged_by, acknowledged_by_name=row.acknowledged_by_name,
            realerts=row.realerts, resources=self.settings.resources,
        )

    def _write(self, alert_id: str, write: Callable[[], Awaitable]) -> None:
        """Queue a ledger write for this alert; its writes run in order, each retried until it lands."""
        self._writes.setdefault(alert_id, []).append(write)
        writer = self._writers.get(alert_id)
        if writer is None or writer.done():
            self._writers[alert_id] = self._spawn(self._run_writes(alert_id))

    async def _run_writes(self, alert_id: str) -> None:
        queue = self._writes[alert_id]
        attempt = 0
        while queue:
            try:
                await queue[0]()
            except Exception as exc:
                delay = retry_delay(attempt)
                log.warning("recording crisis alert %s failed (%r); retrying in %s s", alert_id, exc, delay)
                attempt += 1
                await asyncio.sleep(delay)
                continue
            queue.pop(0)
            attempt = 0
        del self._writes[alert_id]
        self._writers.pop(alert_id, None)
        alert = self._alerts.get(alert_id)
        if alert is not None and (alert.acknowledged_by or alert.is_concern):
            del self._alerts[alert_id]  # settled (or a note, never re-alerted) and recorded: the ledger has it

    async def _deliver(self, channel, method: str, alert: CrisisAlert, *args) -> None:
        for attempt, delay in enumerate((*RETRY_DELAYS_S, None)):
            try:
                await getattr(channel, method)(alert, *args)
                return
            except Exception as exc:
                if delay is None:
                    log.error("%s.%s for crisis %s failed %d times: %r", channel.name, method, alert.id, attempt + 1, exc)
                    return
                log.warning("%s.%s for crisis %s failed (%r); retrying in %s s", channel.name, method, alert.id,
                            exc, delay)
                await asyncio.sleep(delay)

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


def _event(crisis_id: str, kind: str, at: datetime, actor: str | None = None, channel: str | None = None,
           **details) -> EventRow:
    details = {k: v for k, v in details.items() if v is not None}
    return EventRow(crisis_id=crisis_id, at=at, kind=kind, actor=actor, channel=channel,
                    details_json=json.dumps(details) if details else None)


__all__ = ["CONCERN", "RETRY_DELAYS_S", "AlreadyAcknowledged", "CrisisAlert", "CrisisDesk", "CrisisSettings",
           "IntakeResult", "JobScheduler", "Origin", "retry_delay"]
