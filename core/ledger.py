"""The ledger: every approval and an append-only log of what happened to it, in SQL via SQLModel.

SQLite runs in WAL mode with a busy timeout; every call opens its own short session, so concurrent
tasks never share one. Outcomes are written only by compare-and-set
(``UPDATE … WHERE id = ? AND status = 'pending'``), so of two decisions at once exactly one wins.
The schema is managed by Alembic (``core/migrations``): :meth:`Ledger.open` upgrades it to head.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, event, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.types import TypeDecorator
from sqlmodel import Column, Field, SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from core.crisis import Resource
from core.models import Actor, Approval, DecidedVia, Event, Status
from core.tiers import Tier


class UTCDateTime(TypeDecorator):
    """Stores timezone-aware datetimes as naive UTC and gives them back aware (SQLite has no zones)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None:
            if value.tzinfo is None:
                raise ValueError("naive datetime given to the ledger; use UTC-aware datetimes")
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if value is not None:
            value = value.replace(tzinfo=UTC)
        return value


def _dt(**kw) -> Any:
    return Field(default=None, sa_column=Column(UTCDateTime(), **kw))


class ApprovalRow(SQLModel, table=True):
    """One approval (table ``approvals``)."""

    __tablename__ = "approvals"

    id: str = Field(primary_key=True, max_length=32)
    status: str = Field(index=True, max_length=16)
    tier: int
    original_tier: int
    reason: str
    rule: str | None = None
    action: str
    command: str | None = None
    description: str | None = None
    cwd: str | None = None
    agent: str | None = None
    session: str | None = None
    idempotency_key: str | None = Field(default=None, unique=True, max_length=200)
    content_hash: str
    metadata_json: str | None = None
    requester_uid: int | None = None
    requester_pid: int | None = None
    created_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False, index=True))
    deadline: datetime | None = _dt(index=True)
    visible_at: datetime | None = _dt()
    decided_at: datetime | None = _dt()
    decided_by: str | None = None
    decided_by_name: str | None = None
    decided_via: str | None = None
    note: str | None = None
    escalations: int = 0
    crisis_category: str | None = None
    resources_json: str | None = None

    def to_model(self) -> Approval:
        return Approval(
            id=self.id,
            status=Status(self.status),
            tier=Tier(self.tier),
            reason=self.reason,
            rule=self.rule,
            action=self.action,
            command=self.command,
            description=self.description,
            cwd=self.cwd,
            agent=self.agent,
            session=self.session,
            created_at=self.created_at,
            deadline=self.deadline,
            decided_at=self.decided_at,
            decided_by=self.decided_by,
            decided_by_name=self.decided_by_name,
            decided_via=DecidedVia(self.decided_via) if self.decided_via else None,
            note=self.note,
            escalations=self.escalations,
            resources=[Resource(**r) for r in json.loads(self.resources_json)] if self.resources_json else None,
        )


class EventRow(SQLModel, table=True):
    """One event in the append-only log (table ``events``); rows are never updated or deleted."""

    __tablename__ = "events"

    id: int | None = Field(default=None, primary_key=True)
    approval_id: str | None = Field(default=None, index=True, max_length=32)
    crisis_id: str | None = Field(default=None, index=True, max_length=32)
    at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    kind: str = Field(max_length=40)
    actor: str | None = None
    channel: str | None = Field(default=None, max_length=40)
    details_json: str | None = None

    def to_model(self) -> Event:
        return Event(
            at=self.at,
            kind=self.kind,
            actor=self.actor,
            channel=self.channel,
            details=json.loads(self.details_json) if self.details_json else None,
        )


class CrisisAlertRow(SQLModel, table=True):
    """One crisis alert (table ``crisis_alerts``): what was said (or only its hash, when
    ``crisis.store_text`` is false), where, by whom, and who acknowledged it."""

    __tablename__ = "crisis_alerts"

    id: str = Field(primary_key=True, max_length=32)
    created_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False, index=True))
    category: str = Field(max_length=40)
    evidence: str | None = None
    text: str | None = None
    text_hash: str = Field(max_length=64)
    source: str = Field(max_length=20)
    chat: str | None = None
    user_ref: str | None = None
    user_name: str | None = None
    agent: str | None = None
    session: str | None = None
    approval_id: str | None = Field(default=None, max_length=32)
    acknowledged_at: datetime | None = _dt()
    acknowledged_by: str | None = None
    acknowledged_by_name: str | None = None
    realerts: int = 0


class CardRow(SQLModel, table=True):
    """Where a copy of an approval's card was posted, so every copy can be edited later (even after
    a restart). ``ref`` is the channel's own address of the message, e.g. ``"<chat_id>:<message_id>"``."""

    __tablename__ = "cards"

    id: int | None = Field(default=None, primary_key=True)
    approval_id: str = Field(index=True, max_length=32)
    channel: str = Field(max_length=40)
    ref: str = Field(max_length=200)
    purpose: str = Field(default="approval", max_length=20)
    posted_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


def async_url(url: str) -> str:
    """Turn a plain SQLAlchemy URL (``sqlite:///PATH``) into its asyncio driver's URL."""
    if url.startswith("sqlite:///") or url == "sqlite://":
        return "sqlite+aiosqlite" + url[len("sqlite") :]
    if url.startswith("postgresql://"):
        return "postgresql+asyncpg" + url[len("postgresql") :]
    return url


def sync_url(url: str) -> str:
    """The synchronous-driver URL used for migrations."""
    return url.replace("+aiosqlite", "").replace("+asyncpg", "")


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def run_migrations(url: str) -> None:
    """Upgrade the ledger at ``url`` to the newest schema (blocking; call it in a thread).

    Creates the SQLite file's directory when missing. Raises alembic / SQLAlchemy errors as they come.
    """
    from alembic import command
    from alembic.config import Config

    url = sync_url(url)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if path and path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(cfg, "head")


def schema_is_current(url: str) -> bool:
    """True when the ledger at ``url`` is at the newest migration (blocking)."""
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision() == head
    finally:
        engine.dispose()


class Ledger:
    """Async repository over the approvals, events and cards tables.

    Args:
        url: a SQLAlchemy URL, ``sqlite:///PATH`` (the asyncio driver is chosen for you).
    """

    def __init__(self, url: str):
        self.url = url
        self.engine: AsyncEngine = create_async_engine(async_url(url))
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._sessions = async_sessionmaker(self.engine, class_=AsyncSession, expire_on_commit=False)
        # One write transaction at a time: SQLite allows one writer, and letting connections collide
        # means sleeping in its busy handler (milliseconds each); queueing here costs microseconds.
        self._write_lock = asyncio.Lock()
        self._queued: list[tuple[list[SQLModel], asyncio.Future]] = []
        self._flusher: asyncio.Task | None = None

    @contextlib.asynccontextmanager
    async def _write(self):
        async with self._write_lock, self._sessions() as s:
            yield s

    async def _add(self, objs: list[SQLModel]) -> None:
        """Insert new rows. Concurrent calls share one transaction (group commit): under load this
        turns hundreds of commits a second into thousands. Errors reach exactly the caller they belong to.
        """
        fut = asyncio.get_running_loop().create_future()
        self._queued.append((objs, fut))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.ensure_future(self._flush())
        await fut

    async def _flush(self) -> None:
        while self._queued:
            batch, self._queued = self._queued, []
            try:
                await self._insert_rows([obj for objs, _ in batch for obj in objs])
            except Exception as exc:
                if len(batch) == 1:
                    self._settle(batch, exc)
                    continue
                for item in batch:  # find who failed: one transaction each
                    try:
                        await self._insert_rows(item[0])
                    except Exception as one:
                        self._settle([item], one)
                    else:
                        self._settle([item], None)
                continue
            self._settle(batch, None)

    async def _insert_rows(self, objs: list[SQLModel]) -> None:
        """One transaction; one executemany per table (an ORM flush would cost a thread hop per row)."""
        by_table: dict[Any, list[dict]] = {}
        for obj in objs:
            table = type(obj).__table__
            row = {c.name: getattr(obj, c.name) for c in table.columns}
            for c in table.primary_key.columns:
                if row.get(c.name) is None:
                    del row[c.name]  # autoincrement
            by_table.setdefault(table, []).append(row)
        async with self._write_lock, self.engine.begin() as conn:
            for table, rows in by_table.items():
                await conn.execute(table.insert(), rows)

    @staticmethod
    def _settle(batch, exc: BaseException | None) -> None:
        for _objs, fut in batch:
            if fut.done():
                continue
            if exc is None:
                fut.set_result(None)
            else:
                fut.set_exception(exc)

    @classmethod
    async def open(cls, url: str) -> Ledger:
        """Migrate the schema to head (in a worker thread) and return a ready ledger."""
        await asyncio.to_thread(run_migrations, url)
        return cls(url)

    async def close(self) -> None:
        await self.engine.dispose()

    # approvals -----------------------------------------------------------------------------

    async def insert(self, row: ApprovalRow, events: Iterable[EventRow] = ()) -> ApprovalRow:
        """Insert a new approval with its first events in one transaction.

        Raises:
            IntegrityError: the id or the idempotency key already exists.
        """
        await self._add([row, *events])
        return row

    async def get_row(self, approval_id: str) -> ApprovalRow | None:
        async with self._sessions() as s:
            return await s.get(ApprovalRow, approval_id)

    async def get(self, approval_id: str) -> Approval | None:
        row = await self.get_row(approval_id)
        return row.to_model() if row else None

    async def by_idempotency_key(self, key: str) -> ApprovalRow | None:
        async with self._sessions() as s:
            res = await s.exec(select(ApprovalRow).where(ApprovalRow.idempotency_key == key))
            return res.scalars().first()

    async def list(
        self, status: Status | None = None, since: datetime | None = None, limit: int | None = None,
        requester_uid: int | None = None, before: str | None = None, newest_first: bool = False,
    ) -> list[Approval]:
        """Approvals, oldest first (``newest_first``: newest first), at most ``limit``, optionally filtered by
        status, ``created_at >= since``, the uid that asked, and ``before``: only those created before the
        approval with that id (by ``created_at``, then id: the list's order; none when the id is unknown)."""
        if newest_first:
            q = select(ApprovalRow).order_by(ApprovalRow.created_at.desc(), ApprovalRow.id.desc())
        else:
            q = select(ApprovalRow).order_by(ApprovalRow.created_at, ApprovalRow.id)
        if requester_uid is not None:
            q = q.where(ApprovalRow.requester_uid == requester_uid)
        if status is not None:
            q = q.where(ApprovalRow.status == status.value)
        if since is not None:
            q = q.where(ApprovalRow.created_at >= since)
        if before is not None:
            at = select(ApprovalRow.created_at).where(ApprovalRow.id == before).scalar_subquery()
            q = q.where(or_(ApprovalRow.created_at < at, (ApprovalRow.created_at == at) & (ApprovalRow.id < before)))
        if limit is not None:
            q = q.limit(limit)
        async with self._sessions() as s:
            res = await s.exec(q)
            return [r.to_model() for r in res.scalars().all()]

    async def pending_rows(self) -> list[ApprovalRow]:
        async with self._sessions() as s:
            res = await s.exec(select(ApprovalRow).where(ApprovalRow.status == Status.PENDING.value))
            return list(res.scalars().all())

    async def overdue_rows(self, before: datetime) -> list[ApprovalRow]:
        """Pending approvals whose deadline is earlier than ``before`` (UTC), earliest first."""
        q = (select(ApprovalRow)
             .where(ApprovalRow.status == Status.PENDING.value, ApprovalRow.deadline < before)
             .order_by(ApprovalRow.deadline))
        async with self._sessions() as s:
            res = await s.exec(q)
            return list(res.scalars().all())

    async def finalize(
        self,
        approval_id: str,
        status: Status,
        at: datetime,
        actor: Actor | None,
        note: str | None,
        event: EventRow,
    ) -> Approval | None:
        """Compare-and-set a pending approval to a final ``status`` and append ``event``, atomically.

        Returns:
            The approval as decided by this call; None if it was not pending (someone else won).
        """
        values: dict[str, Any] = {"status": status.value, "decided_at": at, "note": note}
        if actor is not None:
            values.update(decided_by=actor.id, decided_by_name=actor.name, decided_via=actor.via.value)
        async with self._write() as s:
            res = await s.exec(
                update(ApprovalRow)
                .where(ApprovalRow.id == approval_id, ApprovalRow.status == Status.PENDING.value)
                .values(**values)
                .returning(ApprovalRow)  # the decided row in the same round trip
            )
            row = res.scalars().first()
            if row is None:
                await s.rollback()
                return None
            approval = row.to_model()
            s.add(event)
            await s.commit()
            return approval

    async def escalate(
        self, approval_id: str, from_tier: Tier, to_tier: Tier, deadline: datetime, event: EventRow
    ) -> bool:
        """Compare-and-set a pending approval from ``from_tier`` to ``to_tier`` with a new deadline.

        Returns:
            False when it was no longer pending at ``from_tier`` (decided, or already escalated).
        """
        async with self._write() as s:
            res = await s.exec(
                update(ApprovalRow)
                .where(
                    ApprovalRow.id == approval_id,
                    ApprovalRow.status == Status.PENDING.value,
                    ApprovalRow.tier == int(from_tier),
                )
                .values(tier=int(to_tier), deadline=deadline, escalations=ApprovalRow.escalations + 1)
            )
            if res.rowcount != 1:
                await s.rollback()
                return False
            s.add(event)
            await s.commit()
            return True

    async def mark_visible(self, approval_id: str, at: datetime, deadline: datetime) -> bool:
        """Record the first moment a card was shown; moves the deadline once (tiers.md deadlines).

        Only the first call for an approval at its original tier changes anything.
        """
        async with self._write() as s:
            res = await s.exec(
                update(ApprovalRow)
                .where(
                    ApprovalRow.id == approval_id,
                    ApprovalRow.status == Status.PENDING.value,
                    ApprovalRow.visible_at.is_(None),
                    ApprovalRow.escalations == 0,
                    ApprovalRow.deadline > at,
                )
                .values(visible_at=at, deadline=deadline)
            )
            await s.commit()
            return res.rowcount == 1

    # crisis alerts -----------------------------------------------------------------------------

    async def insert_crisis(self, row: CrisisAlertRow, event: EventRow) -> None:
        """Insert a crisis alert and its first event; inserting the same id twice is a no-op."""
        async with self._write() as s:
            if await s.get(CrisisAlertRow, row.id) is not None:
                return
            s.add(row)
            s.add(event)
            await s.commit()

    async def get_crisis(self, alert_id: str) -> CrisisAlertRow | None:
        async with self._sessions() as s:
            return await s.get(CrisisAlertRow, alert_id)

    async def crisis_for_approval(self, approval_id: str) -> CrisisAlertRow | None:
        """The crisis alert raised by an approval request (its ``approval_id``), or None."""
        async with self._sessions() as s:
            res = await s.exec(select(CrisisAlertRow).where(CrisisAlertRow.approval_id == approval_id).limit(1))
            return res.first()

    async def acknowledge_crisis(self, alert_id: str, at: datetime, actor_id: str, actor_name: str | None,
                                 event: EventRow) -> bool:
        """Compare-and-set: the first acknowledgement wins. Returns False when it was acknowledged already
        (then nothing is written, so a retried write cannot record the event twice)."""
        async with self._write() as s:
            res = await s.exec(
                update(CrisisAlertRow)
                .where(CrisisAlertRow.id == alert_id, CrisisAlertRow.acknowledged_at.is_(None))
                .values(acknowledged_at=at, acknowledged_by=actor_id, acknowledged_by_name=actor_name)
            )
            if res.rowcount != 1:
                await s.rollback()
                return False
            s.add(event)
            await s.commit()
            return True

    async def set_crisis_realerts(self, alert_id: str, realerts: int, event: EventRow) -> None:
        """Record that an alert has been sent again ``realerts`` times (absolute: safe to retry)."""
        async with self._write() as s:
            await s.exec(update(CrisisAlertRow).where(CrisisAlertRow.id == alert_id).values(realerts=realerts))
            s.add(event)
            await s.commit()

    async def crises(self, since: datetime | None = None) -> list[CrisisAlertRow]:
        """Crisis alerts, oldest first (``created_at >= since``)."""
        q = select(CrisisAlertRow).order_by(CrisisAlertRow.created_at, CrisisAlertRow.id)
        if since is not None:
            q = q.where(CrisisAlertRow.created_at >= since)
        async with self._sessions() as s:
            res = await s.exec(q)
            return list(res.scalars().all())

    async def crisis_events(self, ids: list[str]) -> dict[str, list[Event]]:
        out: dict[str, list[Event]] = {}
        async with self._sessions() as s:
            res = await s.exec(select(EventRow).where(EventRow.crisis_id.in_(ids)).order_by(EventRow.id))
            for row in res.scalars().all():
                out.setdefault(row.crisis_id, []).append(row.to_model())
        return out

    async def unacknowledged_crises(self) -> list[CrisisAlertRow]:
        async with self._sessions() as s:
            res = await s.exec(select(CrisisAlertRow).where(CrisisAlertRow.acknowledged_at.is_(None)))
            return list(res.scalars().all())

    # events --------------------------------------------------------------------------------

    async def add_event(self, event: EventRow) -> None:
        await self._add([event])

    async def events(self, approval_ids: Iterable[str] | None = None) -> dict[str | None, list[Event]]:
        """Events grouped by approval id, in order."""
        q = select(EventRow).order_by(EventRow.id)
        if approval_ids is not None:
            ids = list(approval_ids)
            q = q.where(or_(EventRow.approval_id.in_(ids)))
        out: dict[str | None, list[Event]] = {}
        async with self._sessions() as s:
            res = await s.exec(q)
            for row in res.scalars().all():
                out.setdefault(row.approval_id, []).append(row.to_model())
        return out

    # cards ---------------------------------------------------------------------------------

    async def add_card(self, approval_id: str, channel: str, ref: str, at: datetime, purpose: str = "approval") -> None:
        await self._add([CardRow(approval_id=approval_id, channel=channel, ref=ref, posted_at=at, purpose=purpose)])

    async def cards(self, approval_id: str, channel: str, purpose: str | None = "approval") -> list[str]:
        """Refs of the card copies an approval has on ``channel``, oldest first."""
        q = select(CardRow.ref).where(CardRow.approval_id == approval_id, CardRow.channel == channel)
        if purpose is not None:
            q = q.where(CardRow.purpose == purpose)
        async with self._sessions() as s:
            res = await s.exec(q.order_by(CardRow.id))
            return list(res.scalars().all())

    async def card_refs(self, owner_id: str, channel: str) -> list[tuple[str, str]]:
        """(ref, purpose) of every message posted for an approval or crisis alert on ``channel``."""
        q = select(CardRow.ref, CardRow.purpose).where(CardRow.approval_id == owner_id, CardRow.channel == channel)
        async with self._sessions() as s:
            res = await s.exec(q.order_by(CardRow.id))
            return [(r, p) for r, p in res.all()]

    async def owners_with_event(self, kind: str, channel: str, since: datetime) -> list[str]:
        """Approval ids with an event of ``kind`` on ``channel`` at or after ``since``."""
        q = (select(EventRow.approval_id).distinct()
             .where(EventRow.kind == kind, EventRow.channel == channel, EventRow.at >= since,
                    EventRow.approval_id.is_not(None)))
        async with self._sessions() as s:
            res = await s.exec(q)
            return [r for r in res.scalars().all()]

    async def cards_behind(self, channel: str, since: datetime) -> list[str]:
        """Approvals final since ``since`` with a card on ``channel`` that was not updated after the
        decision (the edit failed, was cut by a stop or a crash, or never ran)."""
        has_card = exists().where(CardRow.approval_id == ApprovalRow.id, CardRow.channel == channel,
                                  CardRow.purpose == "approval")
        updated = exists().where(EventRow.approval_id == ApprovalRow.id, EventRow.channel == channel,
                                 EventRow.kind == "card_updated", EventRow.at >= ApprovalRow.decided_at)
        q = select(ApprovalRow.id).where(ApprovalRow.status != Status.PENDING.value, ApprovalRow.decided_at >= since,
                                         has_card, ~updated)
        async with self._sessions() as s:
            res = await s.exec(q)
            return list(res.scalars().all())

    async def count(self) -> int:
        async with self._sessions() as s:
            res = await s.exec(select(func.count()).select_from(ApprovalRow))
            return int(res.scalar_one())


__all__ = [
    "ApprovalRow",
    "CardRow",
    "CrisisAlertRow",
    "EventRow",
    "IntegrityError",
    "Ledger",
    "run_migrations",
    "schema_is_current",
]
