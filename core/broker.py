"""The approval state machine, and the only writer of outcomes.

    pending ──decide──▶ approved | denied
       │  ├──cancel──▶ cancelled
       │  └──deadline──▶ escalated (MEDIUM → HIGH → CRITICAL, still pending) ──deadline──▶ expired
    (crisis requests are final at once: ``crisis``; SAFE and LOW-without-LLM are approved at once)

State lives in the ledger; memory holds only waiters and in-flight channel tasks. Channels are told
what changed in background tasks so a slow or broken platform never delays an answer or a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal, Protocol

from core.channel import APPROVAL, CardChange, CardRef, Channel
from core.crisis import CrisisMatch, Resource
from core.crisis._second import ask as ask_second_opinion
from core.crisis_desk import CrisisDesk, CrisisSettings, retry_delay
from core.errors import AlreadyDecided, IdempotencyConflict, NotFound
from core.ledger import ApprovalRow, EventRow, IntegrityError, Ledger
from core.models import Actor, Approval, ApprovalRequest, DecidedVia, Origin, Status, new_id, utcnow
from core.policy import Classification, Policy
from core.tiers import DEFAULT_TIMEOUTS, Tier

log = logging.getLogger("signoff.broker")

POLICY_ACTOR = Actor(id="policy", via=DecidedVia.AUTO)
_FAILED = object()  # what _call returns when the channel raised
TIMEOUT_ACTOR = Actor(id="timeout", via=DecidedVia.TIMEOUT)


class DeadlineScheduler(Protocol):
    """Calls ``Broker.on_deadline(approval_id)`` at a time; re-scheduling an id replaces its job."""

    def schedule(self, approval_id: str, at: datetime) -> None: ...

    def cancel(self, approval_id: str) -> None: ...


@dataclass
class BrokerSettings:
    """Per-tier timeouts (seconds), what LOW does without an LLM reviewer, and the crisis resources."""

    timeouts: dict[Tier, float] = field(default_factory=lambda: dict(DEFAULT_TIMEOUTS))
    low_without_llm: Literal["approve", "human"] = "approve"
    crisis: CrisisSettings = field(default_factory=CrisisSettings)

    @property
    def resources(self) -> tuple[Resource, ...]:
        return self.crisis.resources

    def timeout(self, tier: Tier) -> timedelta:
        return timedelta(seconds=self.timeouts[tier])


@dataclass(frozen=True)
class Requester:
    """Who asked, from the socket's peer credentials (None when unknown)."""

    uid: int | None = None
    pid: int | None = None


def _event(approval_id: str | None, kind: str, at: datetime, actor: str | None = None,
           channel: str | None = None, **details) -> EventRow:
    return EventRow(approval_id=approval_id, at=at, kind=kind, actor=actor, channel=channel,
                    details_json=json.dumps(details, default=str) if details else None)


class Broker:
    """Creates, decides, escalates and expires approvals, and wakes whoever waits for them.

    Args:
        ledger: where state lives.
        policy: classifies each request (crisis first, then the tier).
        settings: timeouts and tier behaviour.
        scheduler: runs :meth:`on_deadline` when a deadline comes; set later with :attr:`scheduler`.
        clock: returns the current UTC time (tests may pass their own).
    """

    def __init__(self, ledger: Ledger, policy: Policy, settings: BrokerSettings | None = None,
                 scheduler: DeadlineScheduler | None = None, clock: Callable[[], datetime] = utcnow):
        self.ledger = ledger
        self.policy = policy
        self.settings = settings or BrokerSettings()
        self.scheduler = scheduler
        self.clock = clock
        self.channels: list[Channel] = []
        self.crisis = CrisisDesk(ledger, self.channels, self.settings.crisis, clock=clock)
        self._waiters: dict[str, asyncio.Future] = {}  # approval id -> resolves with the final approval
        self._unrecorded: dict[str, Approval] = {}  # crisis approvals whose ledger write is in flight
        self._second_crises: set[str] = set()  # content hashes the crisis second opinion judged a crisis
        self._stale: dict[str, set[str]] = {}  # channel name -> approvals whose cards missed an update
        self._tasks: set[asyncio.Task] = set()
        self._edit_locks: dict[tuple[str, str], asyncio.Lock] = {}  # (owner id, channel name) -> its edit lock
        self.swept = 0  # deadlines the sweeper had to run (their timer was lost): should stay 0

    # lifecycle -------------------------------------------------------------------------------

    def attach(self, channel: Channel) -> None:
        self.channels.append(channel)

    async def recover(self) -> int:
        """Re-arm every pending approval after a start. An overdue one escalates one step with the
        next tier's full timeout from now, an overdue CRITICAL expires at once (tiers.md); the
        others keep their deadlines. Returns how many approvals are still pending."""
        now = self.clock()
        pending = 0
        rearmed: list[ApprovalRow] = []
        for row in await self.ledger.pending_rows():
            if row.deadline is not None and row.deadline > now:
                self._schedule(row.id, row.deadline)
                rearmed.append(row)
                pending += 1
            elif await self._deadline_passed(row, now, restart=True):  # (its escalation shows the card again)
                pending += 1
        # A channel whose cards died with the old process (the terminal's output) shows the re-armed ones again.
        again = [ch for ch in self.channels if not getattr(ch, "cards_survive_restart", True)]
        for row in sorted(rearmed, key=lambda r: (r.created_at, r.id)):
            for channel in again:
                await self._call(channel, "post_card", row.to_model(), "↻ still pending after a restart")
        return pending

    async def load_stale(self, days: float = 7.0) -> None:
        """Remember the cards that missed an update (the platform was down, even before a restart),
        so each channel brings them up to date when it connects: a card never stays "pending"."""
        since = self.clock() - timedelta(days=days)
        for channel in self.channels:
            stale = self._stale.setdefault(channel.name, set())
            stale.update(await self.ledger.owners_with_event("update_card_failed", channel.name, since))
            stale.update(await self.ledger.cards_behind(channel.name, since))

    async def refresh_stale(self, channel: Channel) -> int:
        """Re-apply the current state to every card of ``channel`` that missed an update (channels
        call this when they (re)connect). Returns how many were brought up to date."""
        done = 0
        for approval_id in list(self._stale.get(channel.name, ())):
            approval = await self.ledger.get(approval_id)
            if approval is None:
                self._stale[channel.name].discard(approval_id)
                continue
            change = {Status.EXPIRED: CardChange.EXPIRED, Status.CANCELLED: CardChange.CANCELLED,
                      Status.PENDING: CardChange.ESCALATED}.get(approval.status, CardChange.DECIDED)
            if await self._call(channel, "update_card", approval, change) is not _FAILED:
                done += 1
        return done

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait (up to ``timeout`` seconds) for in-flight channel tasks, e.g. before stopping."""
        tasks = self._tasks | self.crisis._tasks
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    def cancel_tasks(self) -> int:
        """Cancel channel and ledger tasks still running (at shutdown, after :meth:`drain`); their
        state is in the ledger or is retried at the next start. Returns how many were cancelled."""
        tasks = list(self._tasks) + list(self.crisis._tasks)
        for task in tasks:
            task.cancel()
        return len(tasks)

    # requests --------------------------------------------------------------------------------

    def classify(self, request: ApprovalRequest) -> Classification:
        return self.policy.classify(request.action, request.command, request.description, request.cwd)

    async def submit(self, request: ApprovalRequest, requester: Requester | None = None) -> Approval:
        """Record a request and start its approval.

        Returns:
            The approval: final at once for a crisis, SAFE and (by policy) LOW; else pending, with
            cards being posted in the background.

        Raises:
            IdempotencyConflict: the idempotency key was used before for different content.
        """
        requester = requester or Requester()
        digest = request.content_hash()
        verdict = await asyncio.to_thread(self.classify, request) if _is_long(request) else self.classify(request)
        if verdict.crisis is None and self.crisis.deep is not None:
            text = self.policy.prose_of(request.action, request.command, request.description)
            if text is not None:  # (milliseconds, in the reader's own thread; None on any failure: no change)
                verdict = self.policy.deepen(verdict, await self.crisis.deep.read(text))
        if verdict.crisis is not None:
            return self._submit_crisis(request, verdict, requester, digest)
        if request.idempotency_key:
            existing = await self.ledger.by_idempotency_key(request.idempotency_key)
            if existing is not None:
                return self._same_content(existing, digest)
        if verdict.concern and self.crisis.second_opinion is not None:
            verdict = await self._second_opinion(request, verdict, digest)
            if verdict.crisis is not None:
                return self._submit_crisis(request, verdict, requester, digest)

        now = self.clock()
        tier = verdict.tier
        reason = verdict.reason
        if verdict.concern:  # the card carries the resources: whoever reads it may be the person at risk
            reason += ". If someone may be at risk: " + "; ".join(f"{r.name}: {r.contact}" for r in self.settings.resources)
        row = ApprovalRow(
            id=new_id(), status=Status.PENDING.value, tier=int(tier), original_tier=int(tier),
            reason=reason, rule=verdict.rule, action=request.action, command=request.command,
            description=request.description, cwd=request.cwd, agent=request.agent, session=request.session,
            idempotency_key=request.idempotency_key, content_hash=digest,
            metadata_json=json.dumps(request.metadata) if request.metadata is not None else None,
            requester_uid=requester.uid, requester_pid=requester.pid, created_at=now,
        )
        events = [_event(row.id, "created", now, actor=_uid_actor(requester), tier=tier.name, rule=verdict.rule,
                         **_who(request, requester))]

        auto = tier == Tier.SAFE or (tier == Tier.LOW and self.settings.low_without_llm == "approve")
        if auto and not verdict.concern:  # (a concern is at least MEDIUM already: never approved by policy)
            row.status = Status.APPROVED.value
            _decide_row(row, POLICY_ACTOR, now)
            events.append(_event(row.id, "decided", now, actor="policy", channel="auto", outcome="approved"))
        else:
            if tier == Tier.LOW:  # tiers.LOW.without_llm: human → a MEDIUM approval
                tier = Tier.MEDIUM
                row.tier = int(tier)
                row.reason = f"{verdict.reason} (LOW, sent to a human by tiers.LOW.without_llm)"
            row.deadline = now + self.settings.timeout(tier)

        try:
            await self.ledger.insert(row, events)
        except IntegrityError:
            if request.idempotency_key:  # a concurrent request with the same key won the insert
                existing = await self.ledger.by_idempotency_key(request.idempotency_key)
                if existing is not None:
                    return self._same_content(existing, digest)
            raise
        approval = row.to_model()
        if approval.status is Status.PENDING:
            self._schedule(approval.id, row.deadline)
            self._spawn(self._post_cards(approval))
        return approval

    async def _second_opinion(self, request: ApprovalRequest, verdict: Classification, digest: str
                              ) -> Classification:
        """A grey-zone request asked of the LLM (crisis.second_opinion): a crisis if it says so, else unchanged
        (it only adds; a failure or timeout changes nothing). A crisis answer is remembered for the content, so
        a retry of the same request is a crisis again even when the LLM is down by then."""
        if digest not in self._second_crises:
            text = "\n".join(t for t in (request.description, request.command) if t)
            if not await ask_second_opinion(self.crisis.second_opinion, text,
                                            self.settings.crisis.second_opinion_timeout):
                return verdict
            if len(self._second_crises) >= 4096:
                self._second_crises.clear()
            self._second_crises.add(digest)
        return Classification(Tier.CRITICAL, "crisis language (a second opinion on possible crisis language)",
                              "crisis.second_opinion", CrisisMatch("warning_sign", None, "llm"))

    def _submit_crisis(self, request: ApprovalRequest, verdict: Classification, requester: Requester,
                       digest: str) -> Approval:
        """A crisis is not an approval: final at once with the resources. Nothing here waits for the
        ledger or a platform (both run in the background and retry), so the answer is never blocked."""
        now = self.clock()
        match = verdict.crisis
        row = ApprovalRow(
            id=new_id(), status=Status.CRISIS.value, tier=int(Tier.CRITICAL), original_tier=int(Tier.CRITICAL),
            reason=verdict.reason, rule=verdict.rule, action=request.action, command=request.command,
            description=request.description, cwd=request.cwd, agent=request.agent, session=request.session,
            content_hash=digest, requester_uid=requester.uid, requester_pid=requester.pid, created_at=now,
            crisis_category=match.category,
            resources_json=json.dumps([r.model_dump() for r in self.settings.resources]),
        )
        _decide_row(row, POLICY_ACTOR, now)
        approval = row.to_model()
        text = "\n".join(t for t in (request.description, request.command, request.action) if t)
        self.crisis.raise_alert(text, Origin("approval", agent=request.agent, session=request.session,
                                             approval_id=row.id), match)
        if not self.settings.crisis.store_text:  # crisis.store_text: false keeps category, hash, origin only
            row.command = row.description = None
            row.action = "(crisis text not stored)"
        events = [_event(row.id, "created", now, actor=_uid_actor(requester), tier="CRITICAL", rule=verdict.rule,
                         **_who(request, requester)),
                  _event(row.id, "crisis", now, actor="policy", category=match.category)]
        self._unrecorded[row.id] = approval
        self._spawn(self._persist_crisis(row, events))
        return approval

    async def _persist_crisis(self, row: ApprovalRow, events: list[EventRow]) -> None:
        """Write a crisis approval behind its answer, retrying for as long as it takes (as the crisis
        desk does for its alerts): until then :meth:`get` serves it from memory."""
        attempt = 0
        while True:
            try:
                await self.ledger.insert(row, events)
            except IntegrityError:
                pass  # already recorded
            except Exception as exc:
                delay = retry_delay(attempt)
                log.warning("recording crisis approval %s failed (%r); retrying in %s s", row.id, exc, delay)
                attempt += 1
                await asyncio.sleep(delay)
                continue
            self._unrecorded.pop(row.id, None)
            return

    def _same_content(self, existing: ApprovalRow, digest: str) -> Approval:
        if existing.content_hash != digest:
            raise IdempotencyConflict(
                "this idempotency_key was already used for a different action, command, description or cwd "
                f"(approval {existing.id}); an approval is never reused for another command"
            )
        return existing.to_model()

    # outcomes --------------------------------------------------------------------------------

    async def get(self, approval_id: str) -> Approval:
        """Raises NotFound for an unknown id."""
        approval = await self.ledger.get(approval_id) or self._unrecorded.get(approval_id)
        if approval is None:
            raise NotFound(f"no approval with id {approval_id!r}")
        return approval

    async def decide(self, approval_id: str, approve: bool, actor: Actor, note: str | None = None) -> Approval:
        """Approve or deny a pending approval; the first decision wins.

        Raises:
            NotFound: unknown id.
            AlreadyDecided: it was already final; ``.approval`` tells the true outcome.
        """
        status = Status.APPROVED if approve else Status.DENIED
        return await self._finish(approval_id, status, actor, note, "decided", CardChange.DECIDED)

    async def press(self, approval_id: str, approve: bool, actor: Actor, channel: Channel, ref: str) -> str:
        """A button press on the card ``ref`` of ``channel`` by an approver (the adapter has checked who
        pressed and that the card carries this approval). Returns the short answer for the presser.

        A card copy the ledger does not know (its send timed out but was delivered) is adopted so it is
        kept in step; a late press is recorded and told the true outcome, and its card is refreshed.
        """
        if ref not in {r.ref for r in await self.card_refs(approval_id, channel.name)}:
            await self.record_card(approval_id, channel.name, ref)
        try:
            approval = await self.decide(approval_id, approve, actor)
        except NotFound:
            return "This approval is unknown to signoff; nothing changed."
        except AlreadyDecided as exc:
            current = exc.approval
            await self.record(approval_id, "late_press", actor.id, channel.name, user_name=actor.name,
                              status=current.status.value)
            self._spawn(self._call(channel, "update_card", current, CardChange.DECIDED))
            return press_answer(current, late=True)
        return press_answer(approval)

    async def cancel(self, approval_id: str, actor: Actor) -> Approval:
        """Cancel a pending approval (the agent no longer needs it). Raises like :meth:`decide`."""
        return await self._finish(approval_id, Status.CANCELLED, actor, None, "cancelled", CardChange.CANCELLED)

    async def _finish(self, approval_id: str, status: Status, actor: Actor, note: str | None, kind: str,
                      change: CardChange) -> Approval:
        now = self.clock()
        ev = _event(approval_id, kind, now, actor=actor.id, channel=actor.via.value, outcome=status.value,
                    name=actor.name, note=note)
        decided = await self.ledger.finalize(approval_id, status, now, actor, note, ev)
        if decided is None:
            current = await self.get(approval_id)  # NotFound when unknown
            raise AlreadyDecided(current)
        return self._after_final(decided, change)

    def _after_final(self, approval: Approval, change: CardChange) -> Approval:
        if self.scheduler is not None:
            self.scheduler.cancel(approval.id)
        waiter = self._waiters.pop(approval.id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(approval)
        self._fan_out("update_card", approval, change)
        return approval

    async def on_deadline(self, approval_id: str) -> None:
        """Called by the scheduler when a deadline comes: escalate one tier, or expire (fail closed)."""
        row = await self.ledger.get_row(approval_id)
        if row is None or row.status != Status.PENDING.value:
            return
        now = self.clock()
        if row.deadline is not None and row.deadline > now + timedelta(milliseconds=5):
            self._schedule(row.id, row.deadline)  # the deadline moved (card shown later): wait for it
            return
        await self._deadline_passed(row, now, restart=False)

    async def sweep_overdue(self, grace: timedelta) -> int:
        """The second line behind the timers: escalate or expire every pending approval whose deadline
        passed more than ``grace`` ago (its timer was lost or never ran), with a warning and a
        ``deadline_swept`` event on each. Returns how many were swept (also added to :attr:`swept`)."""
        now = self.clock()
        swept = 0
        for row in await self.ledger.overdue_rows(now - grace):
            late = (now - row.deadline).total_seconds()
            log.warning("approval %s: its deadline passed %.1f s ago and its timer did not run; the sweeper "
                        "escalates or expires it now", row.id, late)
            await self.record(row.id, "deadline_swept", actor="timeout", late_s=round(late, 3))
            await self._deadline_passed(row, now, restart=False)
            swept += 1
        self.swept += swept
        return swept

    async def _deadline_passed(self, row: ApprovalRow, now: datetime, restart: bool) -> bool:
        """Escalate or expire ``row``; True when it is still pending afterwards."""
        tier = Tier(row.tier)
        nxt = tier.escalates_to
        if nxt is None:
            ev = _event(row.id, "expired", now, actor="timeout", channel="timeout", tier=tier.name,
                        after_restart=restart or None)
            expired = await self.ledger.finalize(row.id, Status.EXPIRED, now, TIMEOUT_ACTOR, None, ev)
            if expired is not None:
                self._after_final(expired, CardChange.EXPIRED)
            return False
        deadline = now + self.settings.timeout(nxt)
        ev = _event(row.id, "escalated", now, actor="timeout", from_tier=tier.name, to_tier=nxt.name,
                    after_restart=restart or None)
        if not await self.ledger.escalate(row.id, tier, nxt, deadline, ev):
            return False
        self._schedule(row.id, deadline)
        approval = await self.get(row.id)
        if approval.is_final:  # decided just after the escalation: that decision's update wins
            return False
        self._fan_out("update_card", approval, CardChange.ESCALATED)
        self._fan_out("notify_oncall", approval)
        return True

    async def wait(self, approval_id: str, timeout: float) -> Approval:
        """The approval once final, or as it is after ``timeout`` seconds. Raises NotFound."""
        waiter = self._waiters.get(approval_id)
        # A waiter registered and not done means the approval exists and is pending (the future goes when it
        # is final): share it without a ledger read (hundreds of polls on one approval cost one read).
        if waiter is None or waiter.done() or timeout <= 0:
            approval = await self.get(approval_id)
            if approval.is_final or timeout <= 0:
                return approval
            waiter = self._waiters.get(approval_id)
            if waiter is None:
                waiter = self._waiters[approval_id] = asyncio.get_running_loop().create_future()
                # Re-read after registering: a decision between the read and the registration set nothing.
                approval = await self.get(approval_id)
                if approval.is_final:
                    # Others may have found this future meanwhile: wake them too, and remove it only if it is
                    # still the one registered (a newer waiter's future is not ours to drop).
                    if self._waiters.get(approval_id) is waiter:
                        del self._waiters[approval_id]
                    if not waiter.done():
                        waiter.set_result(approval)
                    return approval
        try:
            # shield: one waiter timing out must not cancel the future the others share
            return await asyncio.wait_for(asyncio.shield(waiter), timeout)
        except TimeoutError:
            return await self.get(approval_id)

    async def record(self, approval_id: str | None, kind: str, actor: str | None = None,
                     channel: str | None = None, **details) -> None:
        """Append an event to the ledger (e.g. ``unauthorised_press``); never raises."""
        try:
            await self.ledger.add_event(_event(approval_id, kind, self.clock(), actor, channel, **details))
        except Exception:  # a ledger failure must not break the caller's answer to a user
            log.exception("could not record event %s for %s", kind, approval_id)

    # what channels may read and record (the seam: a channel never touches the ledger) ------------

    async def current(self, approval_id: str) -> Approval | None:
        """The approval as it is now (None for an unknown id): what a channel renders."""
        return await self.ledger.get(approval_id) or self._unrecorded.get(approval_id)

    async def pending(self) -> list[Approval]:
        """Every pending approval, oldest first (a channel that reconnects posts the cards it missed)."""
        return await self.ledger.list(status=Status.PENDING)

    async def approvals(self, status: Status | None = None, requester_uid: int | None = None,
                        before: str | None = None, limit: int | None = None,
                        newest_first: bool = False) -> list[Approval]:
        """Approvals, filtered and paged as :meth:`core.ledger.Ledger.list` says (the API's listing)."""
        return await self.ledger.list(status=status, requester_uid=requester_uid, before=before, limit=limit,
                                      newest_first=newest_first)

    async def card_refs(self, owner_id: str, channel: str, purpose: str | None = None) -> list[CardRef]:
        """The messages ``channel`` posted for the approval or crisis alert ``owner_id``, oldest first; only
        those of ``purpose`` when given (``approval``, ``uncertain``, ``crisis:<n>``)."""
        refs = [CardRef(channel, ref, p) for ref, p in await self.ledger.card_refs(owner_id, channel)]
        return refs if purpose is None else [r for r in refs if r.purpose == purpose]

    async def record_card(self, owner_id: str, channel: str, ref: str, purpose: str = APPROVAL) -> CardRef:
        """Keep a message ``channel`` just posted for an approval or crisis alert, so later updates edit it
        too (record each at once, under :meth:`editing`: a decision that lands meanwhile then sees it).

        Raises:
            Exception: the ledger's error when it could not be written.
        """
        await self.ledger.add_card(owner_id, channel, ref, self.clock(), purpose=purpose)
        return CardRef(channel, ref, purpose)

    @contextlib.asynccontextmanager
    async def editing(self, owner_id: str, channel: str) -> AsyncIterator[None]:
        """The edit lock of one approval's (or alert's) cards on one channel: posts and edits under it run one
        at a time, and with the state re-read (:meth:`current`) under it the newest state is the last shown.

        One lock per (approval, channel), not per approval: a platform waiting out a rate limit must not hold
        back another platform's edits, and the copies on one platform are what can overtake each other. The
        lock lives only while held or awaited."""
        key = (owner_id, channel)
        lock = self._edit_locks.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if not lock.locked() and not getattr(lock, "_waiters", None):
                self._edit_locks.pop(key, None)

    # channels --------------------------------------------------------------------------------

    async def _post_cards(self, approval: Approval) -> None:
        results = await asyncio.gather(*(self._call(ch, "post_card", approval) for ch in self.channels))
        if any(r is True for r in results):
            now = self.clock()
            deadline = now + self.settings.timeout(approval.tier)
            if await self.ledger.mark_visible(approval.id, now, deadline):
                self._schedule(approval.id, deadline)

    def _fan_out(self, method: str, *args) -> None:
        for ch in self.channels:
            self._spawn(self._call(ch, method, *args))

    async def _call(self, channel: Channel, method: str, approval: Approval, *args):
        try:
            result = await getattr(channel, method)(approval, *args)
        except Exception as exc:
            log.warning("%s.%s failed for %s: %r", channel.name, method, approval.id, exc)
            if method == "update_card":
                self._stale.setdefault(channel.name, set()).add(approval.id)
            await self.record(approval.id, f"{method}_failed", channel=channel.name, error=repr(exc)[:500])
            return _FAILED
        if method == "update_card":
            self._stale.get(channel.name, set()).discard(approval.id)
            if approval.is_final and result:  # lets a restart tell an edited card from one left behind
                await self.record(approval.id, "card_updated", channel=channel.name, status=approval.status.value)
        if method == "post_card":
            await self.record(approval.id, "card_posted" if result else "card_not_shown", channel=channel.name)
        elif method == "notify_oncall":
            await self.record(approval.id, "oncall_notified", channel=channel.name)
        return result

    def _spawn(self, coro: Awaitable) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:  # e.g. the ledger failed after a card was posted
            log.error("background task failed: %r", task.exception(), exc_info=task.exception())

    def _schedule(self, approval_id: str, at: datetime | None) -> None:
        if self.scheduler is not None and at is not None:
            self.scheduler.schedule(approval_id, at)


def press_answer(approval: Approval, late: bool = False) -> str:
    """What a presser is told: "Approved ✅", or for a late press "Already denied by @bob."."""
    if not late:
        return "Approved ✅" if approval.status is Status.APPROVED else "Denied ⛔"
    who = approval.decided_by_name or approval.decided_by or ""
    named = who and approval.status in (Status.APPROVED, Status.DENIED)
    return f"Already {approval.status.value}" + (f" by {who}" if named else "") + "."


def _decide_row(row: ApprovalRow, actor: Actor, at: datetime) -> None:
    row.decided_at = at
    row.decided_by = actor.id
    row.decided_by_name = actor.name
    row.decided_via = actor.via.value


def _uid_actor(requester: Requester) -> str | None:
    return f"uid:{requester.uid}" if requester.uid is not None else None


def _who(request: ApprovalRequest, requester: Requester) -> dict:
    """Who asked, for the request's event: the self-declared agent beside the socket's uid and pid."""
    return {"agent": request.agent, "requester_uid": requester.uid, "requester_pid": requester.pid}


def _is_long(request: ApprovalRequest) -> bool:
    # Classifying a long command takes milliseconds: keep it off the event loop.
    return len(request.command or "") + len(request.description or "") > 4096


__all__ = ["Broker", "BrokerSettings", "DeadlineScheduler", "Requester", "new_id", "press_answer"]
