"""The ledger: every approval and an append-only log of what happened to it, in SQL via SQLModel.

SQLite runs in WAL mode with a busy timeout; every call opens its own short session, so concurrent
tasks never share one. Outcomes are written only by compare-and-set
(``UPDATE … WHERE id = ? AND status = 'pending'``), so of two decisions at once exactly one wins.
The schema is managed by Alembic (``core/migrations``): :meth:`Ledger.open` upgrades it to head.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, event, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.types import TypeDecorator
from sqlmodel import Column, Field, SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from core.crisis import Resource
from core.models import Actor, Approval, DecidedVia, Event, Status, rfc3339
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
            requester_uid=self.requester_uid,
            requester_pid=self.requester_pid,
            resources=[Resource(**r) for r in json.loads(self.resources_json)] if self.resources_json else None,
        )


class EventRow(SQLModel, table=True):
    """One event in the append-only log (table ``events``); rows are never updated or deleted.

    The chain columns are set by the ledger as the event is written (never by the caller): ``seq``
    (1, 2, 3, … across the whole ledger), ``prev_hash`` (the previous event's ``hash``, or
    :data:`GENESIS`) and ``hash`` (SHA-256 of this event's content and links, :func:`event_hash`).
    An event written in the same transaction as a change to its approval or crisis alert also
    carries ``state_hash``, SHA-256 of that row's every field afterwards (:func:`state_pin`), and
    ``state_fields``, a short digest per field that lets ``verify`` name the fields that differ.
    Events written before the chain existed (migration 0003) have all five empty: "unchained".
    """

    __tablename__ = "events"

    id: int | None = Field(default=None, primary_key=True)
    approval_id: str | None = Field(default=None, index=True, max_length=32)
    crisis_id: str | None = Field(default=None, index=True, max_length=32)
    at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    kind: str = Field(max_length=40)
    actor: str | None = None
    channel: str | None = Field(default=None, max_length=40)
    details_json: str | None = None
    seq: int | None = Field(default=None, unique=True, index=True)
    prev_hash: str | None = Field(default=None, max_length=64)
    hash: str | None = Field(default=None, max_length=64)
    state_hash: str | None = Field(default=None, max_length=64)
    state_fields: str | None = None

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


class ChainHeadRow(SQLModel, table=True):
    """The head of the event chain (table ``chain_head``, one row, ``id`` 1): the ``seq`` and ``hash`` of
    the newest event, moved in the same transaction as every event written. It is what shows that events
    at the end of the chain were deleted. ``legacy_count``, ``legacy_max_id`` and ``legacy_digest``
    freeze the events written before the chain existed (migration 0003): how many, the highest id and
    a SHA-256 over them (:func:`legacy_line`), so they too cannot change unseen after the upgrade."""

    __tablename__ = "chain_head"

    id: int = Field(default=1, primary_key=True)
    seq: int = 0
    hash: str = Field(max_length=64)
    legacy_count: int = 0
    legacy_max_id: int | None = None
    legacy_digest: str = Field(max_length=64)
    started_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


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


# the chain ---------------------------------------------------------------------------------
# What is hashed is frozen ("v1"): a field added to a table later is not pinned until a new version says so.

#: The ``prev_hash`` of the first chained event.
GENESIS = "0" * 64
#: The approval fields an event's ``state_hash`` pins (every column of ``approvals`` at migration 0003).
APPROVAL_STATE_FIELDS: tuple[str, ...] = (
    "id", "status", "tier", "original_tier", "reason", "rule", "action", "command", "description", "cwd",
    "agent", "session", "idempotency_key", "content_hash", "metadata_json", "requester_uid", "requester_pid",
    "created_at", "deadline", "visible_at", "decided_at", "decided_by", "decided_by_name", "decided_via", "note",
    "escalations", "crisis_category", "resources_json",
)
#: The crisis alert fields an event's ``state_hash`` pins (every column of ``crisis_alerts``).
CRISIS_STATE_FIELDS: tuple[str, ...] = (
    "id", "created_at", "category", "evidence", "text", "text_hash", "source", "chat", "user_ref", "user_name",
    "agent", "session", "approval_id", "acknowledged_at", "acknowledged_by", "acknowledged_by_name", "realerts",
)
_FIELD_DIGEST_CHARS = 6  # per field in ``state_fields``: enough to name a field, never trusted alone


def _canon(value: Any) -> Any:
    """A stored value as hashed: datetimes as naive UTC ISO text with microseconds; the rest as they are."""
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value.isoformat(timespec="microseconds")
    return value


def _sha(parts: list[Any]) -> str:
    blob = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def event_hash(ev: Any) -> str:
    """SHA-256 hex of an event (an :class:`EventRow` or any object with its attributes): its ``seq``,
    ``prev_hash``, owner ids, time, kind, actor, channel, details and state pin. Not its ``id``: the order
    is ``seq``'s, and ``verify`` checks that ids follow it."""
    return _sha(["signoff.event.v1", ev.seq, ev.prev_hash, ev.approval_id, ev.crisis_id, _canon(ev.at), ev.kind,
                 ev.actor, ev.channel, ev.details_json, ev.state_hash, ev.state_fields])


def _token(value: Any) -> bytes:
    """One field's value as bytes, its type marked: None, an integer, or text (datetimes as :func:`_canon`)."""
    value = _canon(value)
    if value is None:
        return b"n"
    if isinstance(value, int):
        return b"i%d" % value
    return b"s" + str(value).encode("utf-8", "surrogatepass")


def _state_fields_of(row: Any) -> tuple[str, ...]:
    crisis = isinstance(row, CrisisAlertRow) or (isinstance(row, Mapping) and "text_hash" in row)
    return CRISIS_STATE_FIELDS if crisis else APPROVAL_STATE_FIELDS


def state_pin(row: Any) -> tuple[str, str]:
    """``(state_hash, state_fields)`` of an approval or crisis alert row (or a mapping of its columns):
    SHA-256 hex over every field of :data:`APPROVAL_STATE_FIELDS` / :data:`CRISIS_STATE_FIELDS`, and a
    six-character BLAKE2b digest of each field, concatenated in that order (only to name a field that
    differs: the verdict is the SHA-256's)."""
    fields = _state_fields_of(row)
    get = row.__getitem__ if isinstance(row, Mapping) else row.__getattribute__
    tokens = [_token(get(f)) for f in fields]
    full = hashlib.sha256(b"signoff.crisis.v1" if fields is CRISIS_STATE_FIELDS else b"signoff.approval.v1")
    for tok in tokens:  # length-prefixed: no two sequences of values encode alike
        full.update(len(tok).to_bytes(8, "big"))
        full.update(tok)
    short = "".join(hashlib.blake2b(tok, digest_size=_FIELD_DIGEST_CHARS // 2).hexdigest() for tok in tokens)
    return full.hexdigest(), short


def differing_fields(row: Any, state_fields: str | None) -> list[str]:
    """The fields of ``row`` whose digest differs from the pinned ``state_fields`` (may be empty when
    only the full hash tells: then the pin itself was edited)."""
    fields = _state_fields_of(row)
    _, now = state_pin(row)
    n = _FIELD_DIGEST_CHARS
    return [f for i, f in enumerate(fields) if (state_fields or "")[i * n:(i + 1) * n] != now[i * n:(i + 1) * n]]


def legacy_line(ev: Any) -> bytes:
    """What an event written before the chain adds to ``chain_head.legacy_digest`` (its id and content)."""
    return (_sha(["signoff.legacy.v1", ev.id, ev.approval_id, ev.crisis_id, _canon(ev.at), ev.kind, ev.actor,
                  ev.channel, ev.details_json]) + "\n").encode()


def _pin(events: list[EventRow], rows: Iterable[SQLModel]) -> None:
    """Give the last event of each approval or crisis alert in ``rows`` that row's state pin (call it
    with the events written in the same transaction as the rows, and nothing else)."""
    for row in rows:
        key = "crisis_id" if isinstance(row, CrisisAlertRow) else "approval_id"
        mine = [ev for ev in events if getattr(ev, key) == row.id]
        if mine:
            mine[-1].state_hash, mine[-1].state_fields = state_pin(row)


def _values(obj: SQLModel) -> dict[str, Any]:
    """A new row's column values for a Core insert (an autoincrement primary key left out)."""
    table = type(obj).__table__
    row = {c.name: getattr(obj, c.name) for c in table.columns}
    for c in table.primary_key.columns:
        if row.get(c.name) is None:
            del row[c.name]
    return row


class ChainBroken(RuntimeError):
    """The ledger cannot append to its chain: the ``chain_head`` row is missing (not migrated, or
    deleted). Writing fails closed: no event, and so no decision, is recorded without its link."""


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
        self._head: tuple[int, str] | None = None  # the chain head as this writer last moved it (None: read it)

    @contextlib.asynccontextmanager
    async def _write(self):
        """A write transaction on a bare connection (SQLAlchemy Core: cheaper than the ORM's bulk paths)."""
        async with self._write_lock:
            try:
                async with self.engine.begin() as conn:
                    yield conn
            except BaseException:
                self._head = None  # the transaction may have moved the head and then failed: read it again
                raise

    async def _link(self, conn: AsyncConnection, events: list[EventRow]) -> None:
        """Chain ``events`` (in order) after the head and move the head, inside the caller's transaction
        (which holds the ledger's write lock, so this process's transactions chain one at a time).

        One statement: a compare-and-set of the head from the seq this writer last left it at. When
        another process moved it meanwhile (or this writer has not read it yet), the head is read again,
        inside the same transaction, and the events are linked after it; SQLite's write lock, taken by the
        first attempt, keeps it still. Raises :class:`ChainBroken` when there is no head.
        """
        if not events:
            return
        head = ChainHeadRow.__table__
        for _attempt in range(2):
            if self._head is None:
                got = (await conn.execute(select(head.c.seq, head.c.hash).where(head.c.id == 1))).first()
                if got is None:
                    raise ChainBroken("the ledger has no chain head (table chain_head is empty): "
                                      "events cannot be chained")
                self._head = (got[0], got[1])
            old, prev = self._head
            seq = old
            for ev in events:
                seq += 1
                ev.seq, ev.prev_hash = seq, prev
                ev.hash = prev = event_hash(ev)
            res = await conn.execute(update(head).where(head.c.id == 1, head.c.seq == old)
                                     .values(seq=seq, hash=prev))
            if res.rowcount == 1:
                self._head = (seq, prev)
                return
            self._head = None
        raise ChainBroken("the chain head moved while it was being read (another process writes this ledger)")

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
        """One transaction; one executemany per table (an ORM flush would cost a thread hop per row).
        The events are chained in the order given (a retry links them again, in its own transaction)."""
        events = [obj for obj in objs if isinstance(obj, EventRow)]
        async with self._write() as conn:
            await self._link(conn, events)
            by_table: dict[Any, list[dict]] = {}
            for obj in objs:
                by_table.setdefault(type(obj).__table__, []).append(_values(obj))
            for table, rows in by_table.items():
                await conn.execute(table.insert(), rows)

    async def _append(self, conn: AsyncConnection, event: EventRow, row: Any = None) -> None:
        """Insert ``event`` in the connection's transaction, pinned by ``row`` (the approval or crisis alert
        as changed by it: a row or a mapping of its columns; None: unpinned) and chained."""
        if row is not None:
            event.state_hash, event.state_fields = state_pin(row)
        await self._link(conn, [event])
        await conn.execute(EventRow.__table__.insert(), [_values(event)])

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

        The last of ``events`` about this approval is pinned by its state (the approval as inserted).

        Raises:
            IntegrityError: the id or the idempotency key already exists.
        """
        events = list(events)
        _pin(events, [row])
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
        t = ApprovalRow.__table__
        async with self._write() as conn:
            res = await conn.execute(
                update(t)
                .where(t.c.id == approval_id, t.c.status == Status.PENDING.value)
                .values(**values)
                .returning(*t.c)  # the decided row in the same round trip
            )
            row = res.mappings().first()
            if row is None:
                return None  # (nothing changed: the empty transaction commits)
            row = dict(row)
            await self._append(conn, event, row)
            return ApprovalRow(**row).to_model()

    async def escalate(
        self, approval_id: str, from_tier: Tier, to_tier: Tier, deadline: datetime, event: EventRow
    ) -> bool:
        """Compare-and-set a pending approval from ``from_tier`` to ``to_tier`` with a new deadline.

        Returns:
            False when it was no longer pending at ``from_tier`` (decided, or already escalated).
        """
        t = ApprovalRow.__table__
        async with self._write() as conn:
            res = await conn.execute(
                update(t)
                .where(t.c.id == approval_id, t.c.status == Status.PENDING.value, t.c.tier == int(from_tier))
                .values(tier=int(to_tier), deadline=deadline, escalations=t.c.escalations + 1)
                .returning(*(t.c[f] for f in APPROVAL_STATE_FIELDS))
            )
            row = res.mappings().first()
            if row is None:
                return False
            await self._append(conn, event, dict(row))
            return True

    async def mark_visible(self, approval_id: str, at: datetime, deadline: datetime) -> bool:
        """Record the first moment a card was shown; moves the deadline once (tiers.md deadlines), with
        a ``shown`` event (details: the new ``deadline``) that pins the change.

        Only the first call for an approval at its original tier changes anything.
        """
        t = ApprovalRow.__table__
        async with self._write() as conn:
            res = await conn.execute(
                update(t)
                .where(t.c.id == approval_id, t.c.status == Status.PENDING.value, t.c.visible_at.is_(None),
                       t.c.escalations == 0, t.c.deadline > at)
                .values(visible_at=at, deadline=deadline)
                .returning(*(t.c[f] for f in APPROVAL_STATE_FIELDS))
            )
            row = res.mappings().first()
            if row is None:
                return False  # (nothing changed: the empty transaction commits)
            event = EventRow(approval_id=approval_id, at=at, kind="shown",
                             details_json=json.dumps({"deadline": rfc3339(deadline)}))
            await self._append(conn, event, dict(row))
            return True

    # crisis alerts -----------------------------------------------------------------------------

    async def insert_crisis(self, row: CrisisAlertRow, event: EventRow) -> None:
        """Insert a crisis alert and its first event; inserting the same id twice is a no-op."""
        t = CrisisAlertRow.__table__
        async with self._write() as conn:
            if (await conn.execute(select(t.c.id).where(t.c.id == row.id))).first() is not None:
                return
            await conn.execute(t.insert(), [_values(row)])
            await self._append(conn, event, row)

    async def get_crisis(self, alert_id: str) -> CrisisAlertRow | None:
        async with self._sessions() as s:
            return await s.get(CrisisAlertRow, alert_id)

    async def crisis_for_approval(self, approval_id: str) -> CrisisAlertRow | None:
        """The crisis alert raised by an approval request (its ``approval_id``), or None."""
        async with self._sessions() as s:
            res = await s.exec(select(CrisisAlertRow).where(CrisisAlertRow.approval_id == approval_id).limit(1))
            return res.scalars().first()

    async def acknowledge_crisis(self, alert_id: str, at: datetime, actor_id: str, actor_name: str | None,
                                 event: EventRow) -> bool:
        """Compare-and-set: the first acknowledgement wins. Returns False when it was acknowledged already
        (then nothing is written, so a retried write cannot record the event twice)."""
        t = CrisisAlertRow.__table__
        async with self._write() as conn:
            res = await conn.execute(
                update(t)
                .where(t.c.id == alert_id, t.c.acknowledged_at.is_(None))
                .values(acknowledged_at=at, acknowledged_by=actor_id, acknowledged_by_name=actor_name)
                .returning(*t.c)
            )
            row = res.mappings().first()
            if row is None:
                return False
            await self._append(conn, event, dict(row))
            return True

    async def set_crisis_realerts(self, alert_id: str, realerts: int, event: EventRow) -> None:
        """Record that an alert has been sent again ``realerts`` times (absolute: safe to retry)."""
        t = CrisisAlertRow.__table__
        async with self._write() as conn:
            res = await conn.execute(update(t).where(t.c.id == alert_id).values(realerts=realerts).returning(*t.c))
            row = res.mappings().first()
            await self._append(conn, event, dict(row) if row is not None else None)

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


_VERIFY_NAMES = ("ChainReport", "Finding", "LedgerUnreadable", "verify_ledger")


def __getattr__(name: str) -> Any:
    """The verifier's names, still importable from here: they live in :mod:`core.ledger_verify` (loaded on use)."""
    if name in _VERIFY_NAMES:
        from core import ledger_verify

        return getattr(ledger_verify, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ApprovalRow",
    "CardRow",
    "ChainBroken",
    "ChainHeadRow",
    "CrisisAlertRow",
    "EventRow",
    "GENESIS",
    "IntegrityError",
    "Ledger",
    "event_hash",
    "legacy_line",
    "run_migrations",
    "schema_is_current",
    "state_pin",
]
