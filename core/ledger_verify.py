"""``signoff ledger verify``: checks a ledger's hash chain and every approval and crisis alert row against
the state its events pin (docs/ledger.md), reading the file directly and never writing to it.

The chain itself (what is hashed, how events link, the state pins) is :mod:`core.ledger`'s; this module
only reads it back.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sqlalchemy import func, select

from core.ledger import (
    APPROVAL_STATE_FIELDS,
    CRISIS_STATE_FIELDS,
    GENESIS,
    ApprovalRow,
    ChainHeadRow,
    CrisisAlertRow,
    EventRow,
    differing_fields,
    event_hash,
    legacy_line,
    state_pin,
    sync_url,
)


class LedgerUnreadable(Exception):
    """``verify_ledger`` could not read a ledger at all: no such file, no permission, not SQLite, or
    SQLite without signoff's tables (exit 2 of ``signoff ledger verify``)."""


@dataclass
class Finding:
    """One thing ``verify`` found wrong.

    ``subject`` is ``"event"``, ``"approval"`` or ``"crisis_alert"``; ``id`` the event's id (an int; None
    for the unchained events as a whole) or the approval's / alert's id; ``problem`` one of ``edited``,
    ``inserted``, ``deleted``, ``reordered`` (events) or ``disagrees``, ``no_events``, ``deleted``
    (approvals and alerts); ``fields`` the row's fields that differ from its events, when known.
    """

    subject: str
    id: int | str | None
    problem: str
    message: str
    seq: int | None = None
    fields: list[str] = dataclass_field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "problem": self.problem, "message": self.message}
        if self.subject == "event":
            out["seq"] = self.seq
        else:
            out["fields"] = self.fields
        return out


@dataclass
class ChainReport:
    """What ``verify_ledger`` found. ``intact`` is True when nothing was found wrong."""

    url: str
    chained_schema: bool = True
    events: int = 0
    chained: int = 0
    unchained: int = 0
    head_seq: int | None = None
    head_hash: str | None = None
    approvals: int = 0
    unchained_approvals: int = 0
    crisis_alerts: int = 0
    first_bad_event: Finding | None = None
    disagreeing: list[Finding] = dataclass_field(default_factory=list)

    @property
    def intact(self) -> bool:
        return self.first_bad_event is None and not self.disagreeing

    def to_json(self) -> dict[str, Any]:
        """The machine-readable report (``signoff ledger verify --json``; docs/ledger.md has the shape)."""
        return {
            "intact": self.intact, "ledger": self.url, "chained_schema": self.chained_schema,
            "events": {"total": self.events, "chained": self.chained, "unchained": self.unchained},
            "head": None if self.head_seq is None else {"seq": self.head_seq, "hash": self.head_hash},
            "approvals": {"total": self.approvals, "unchained": self.unchained_approvals},
            "crisis_alerts": {"total": self.crisis_alerts},
            "first_bad_event": self.first_bad_event.to_json() if self.first_bad_event else None,
            "disagreeing": [f.to_json() | {"kind": f.subject} for f in self.disagreeing],
        }

    def lines(self) -> list[str]:
        """The report as text, one finding a line; the first line is the summary."""
        unchained = f", {self.unchained:,} unchained (written before the chain)" if self.unchained else ""
        out = [f"{_n(self.events, 'event')} ({self.chained:,} chained{unchained}), {_n(self.approvals, 'approval')}"
               f"{f' ({self.unchained_approvals:,} unchained)' if self.unchained_approvals else ''}, "
               f"{_n(self.crisis_alerts, 'crisis alert')}"]
        if not self.chained_schema:
            out.append("the schema predates the chain (start the daemon once to upgrade it): nothing is chained yet")
        if self.first_bad_event is not None:
            out.append(f"TAMPERED: {self.first_bad_event.message}")
        out.extend(f"TAMPERED: {f.message}" for f in self.disagreeing)
        if self.intact:
            head = f" to its head (seq {self.head_seq}, {self.head_hash[:16]}…)" if self.head_seq else ""
            out.append(f"intact: every chained event links{head}, and every approval agrees with its events")
        return out


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


_EVENT_COLUMNS = ("id", "approval_id", "crisis_id", "at", "kind", "actor", "channel", "details_json",
                  "seq", "prev_hash", "hash", "state_hash", "state_fields")


def _read_only_engine(url: str):
    """A synchronous engine that cannot write (SQLite: the file opened with ``mode=ro``)."""
    import sqlite3
    from urllib.parse import quote

    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    url = sync_url(url)
    if not url.startswith("sqlite:///"):
        return create_engine(url, poolclass=NullPool, execution_options={"postgresql_readonly": True})
    path = Path(url[len("sqlite:///") :]).expanduser()
    try:
        if not path.is_file():
            raise LedgerUnreadable(f"no ledger file at {path}" + (" (it is a directory)" if path.is_dir() else ""))
    except PermissionError:
        raise LedgerUnreadable(f"{path.parent} cannot be read by uid {os.getuid()}") from None
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    # isolation_level=None: no implicit transactions, so verify's own BEGIN holds one snapshot for every read
    return create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, isolation_level=None),
                         poolclass=NullPool)


def verify_ledger(url: str) -> ChainReport:
    """Check the ledger at ``url`` without writing to it (blocking: call it in a thread from async code).

    Walks the events in id order and checks each chained one: its hash, its link to the one before, that
    ``seq`` counts up by one and that the last one is the chain head; the events from before the chain
    against the digest frozen at the upgrade. Then checks every approval and crisis alert row against the
    state pinned by its newest pinning event. Stops the walk at the first broken event (after it the
    chain cannot be trusted) but checks every row.

    Returns:
        The report; ``.intact`` tells the verdict.

    Raises:
        LedgerUnreadable: no such file, unreadable, not a database, or not a signoff ledger.
    """
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    report = ChainReport(url=url)
    engine = _read_only_engine(url)
    try:
        with engine.connect() as conn:
            try:
                if conn.dialect.name == "sqlite":
                    conn.exec_driver_sql("BEGIN")  # one snapshot: a daemon writing meanwhile is not seen half-way
                tables = set(inspect(conn).get_table_names())
            except SQLAlchemyError as exc:
                raise LedgerUnreadable(_first_line(exc)) from None
            if not {"approvals", "events"} <= tables:
                raise LedgerUnreadable("not a signoff ledger (no approvals and events tables)")
            event_cols = {c["name"] for c in inspect(conn).get_columns("events")}
            report.chained_schema = "chain_head" in tables and "seq" in event_cols
            _verify(conn, report, has_crisis="crisis_alerts" in tables)
    except SQLAlchemyError as exc:
        raise LedgerUnreadable(_first_line(exc)) from None
    finally:
        engine.dispose()
    return report


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.splitlines()[0] if text else type(exc).__name__


def _verify(conn, report: ChainReport, has_crisis: bool) -> None:
    t = EventRow.__table__
    head = None
    if report.chained_schema:
        h = ChainHeadRow.__table__
        head = conn.execute(select(h).where(h.c.id == 1)).mappings().first()
        if head is None:
            report.first_bad_event = Finding("event", None, "deleted", "the chain head (table chain_head) was deleted")
    legacy_max = head["legacy_max_id"] if head else None
    if head is not None:
        report.head_seq, report.head_hash = head["seq"], head["hash"]
    cols = [t.c[c] for c in _EVENT_COLUMNS if report.chained_schema or c in _EVENT_COLUMNS[:8]]
    dup_seqs: set[int] = set()
    if report.chained_schema:
        dup_seqs = set(conn.execute(select(t.c.seq).where(t.c.seq.is_not(None)).group_by(t.c.seq)
                                    .having(func.count() > 1)).scalars())

    legacy = hashlib.sha256()
    legacy_owners: set[str] = set()
    pins: dict[tuple[str, str], tuple[int, str, str | None, int]] = {}  # (subject, id) -> (seq, hash, fields, ev id)
    prev = None  # the last good chained event
    first_seq: int | None = None
    for ev in conn.execute(select(*cols).order_by(t.c.id)).mappings():
        ev = SimpleNamespace(**{c: ev.get(c) for c in _EVENT_COLUMNS})
        report.events += 1
        if ev.seq is None and (not report.chained_schema or (legacy_max is not None and ev.id <= legacy_max)):
            report.unchained += 1
            legacy.update(legacy_line(ev))
            for owner in (ev.approval_id, ev.crisis_id):
                if owner:
                    legacy_owners.add(owner)
            continue
        if ev.seq is not None:
            report.chained += 1
            for key in (("approval", ev.approval_id), ("crisis_alert", ev.crisis_id)) if ev.state_hash else ():
                if key[1] and (key not in pins or pins[key][0] < ev.seq):
                    pins[key] = (ev.seq, ev.state_hash, ev.state_fields, ev.id)
        if report.first_bad_event is None:
            report.first_bad_event = _check_event(conn, ev, prev, dup_seqs, report.head_seq)
            if report.first_bad_event is None:
                prev = ev
                first_seq = ev.seq if first_seq is None else first_seq

    if head is not None and report.first_bad_event is None:
        if (report.unchained, legacy.hexdigest()) != (head["legacy_count"], head["legacy_digest"]):
            report.first_bad_event = Finding(
                "event", None, "edited",
                f"the events written before the chain changed since the upgrade ({head['legacy_count']:,} were "
                f"frozen, {report.unchained:,} are there now, and their digest differs): one was edited, "
                "inserted or deleted")
        elif prev is None and head["seq"] > 0:
            report.first_bad_event = Finding("event", None, "deleted",
                                             f"every chained event is gone: the chain head says {head['seq']:,}")
        elif prev is not None and prev.seq < head["seq"]:
            n = head["seq"] - prev.seq
            report.first_bad_event = Finding(
                "event", None, "deleted", f"the last {n:,} event(s) "
                f"(seq {prev.seq + 1}{'' if n == 1 else '–' + str(head['seq'])}) were deleted: "
                f"the chain ends at event {prev.id} (seq {prev.seq}) but its head says seq {head['seq']}",
                seq=prev.seq + 1)
        elif prev is not None and prev.seq > head["seq"]:
            past = conn.execute(select(t.c.id).where(t.c.seq == head["seq"] + 1)).scalar()
            report.first_bad_event = Finding(
                "event", past, "inserted", f"event {past} (seq {head['seq'] + 1}) and any after it were inserted: "
                f"the chain head says seq {head['seq']}", seq=head["seq"] + 1)
        elif prev is not None and prev.hash != head["hash"]:
            report.first_bad_event = Finding(
                "event", prev.id, "edited", f"event {prev.id} (seq {prev.seq}), the last, is not the chain head "
                f"(seq {head['seq']}): the head or the last event was edited", seq=prev.seq)

    _verify_rows(conn, report, "approval", ApprovalRow.__table__, APPROVAL_STATE_FIELDS, pins, legacy_owners)
    if has_crisis:
        _verify_rows(conn, report, "crisis_alert", CrisisAlertRow.__table__, CRISIS_STATE_FIELDS, pins,
                     legacy_owners)


def _check_event(conn, ev, prev, dup_seqs: set[int], head_seq: int | None) -> Finding | None:
    """The first problem of chained event ``ev`` given the last good one ``prev`` (None: ``ev`` is first)."""
    where = f"event {ev.id}" + (f" (seq {ev.seq})" if ev.seq is not None else "")
    if ev.seq is None:
        return Finding("event", ev.id, "inserted", f"{where} was inserted: it has no place in the chain "
                       f"(it comes after the chain began, with no seq or hash)")
    if head_seq is not None and ev.seq > head_seq:
        return Finding("event", ev.id, "inserted", f"{where} was inserted: it is past the chain head "
                       f"(seq {head_seq})", seq=ev.seq)
    expected = 1 if prev is None else prev.seq + 1
    expected_prev = GENESIS if prev is None else prev.hash
    if ev.seq in dup_seqs and (event_hash(ev) != ev.hash or ev.prev_hash != expected_prev):
        return Finding("event", ev.id, "inserted", f"{where} was inserted: another event has the same seq",
                       seq=ev.seq)
    if event_hash(ev) != ev.hash:
        moved = SimpleNamespace(**{**vars(ev), "seq": expected})
        if ev.seq != expected and event_hash(moved) == ev.hash:
            return Finding("event", ev.id, "reordered", f"{where} was moved: it was written as seq {expected}",
                           seq=ev.seq)
        return Finding("event", ev.id, "edited", f"{where} was edited: its content does not match its hash",
                       seq=ev.seq)
    if ev.seq > expected:
        t = EventRow.__table__
        later = conn.execute(select(t.c.id).where(t.c.seq == expected).limit(1)).scalar()
        if later is not None:
            return Finding("event", ev.id, "reordered", f"{where} comes before event {later} (seq {expected}): "
                           "events were reordered", seq=ev.seq)
        gap = f"seq {expected}" if ev.seq == expected + 1 else f"seq {expected}–{ev.seq - 1}"
        after = f"after event {prev.id}" if prev is not None else "at the start of the chain"
        return Finding("event", ev.id, "deleted", f"{ev.seq - expected:,} event(s) ({gap}) were deleted "
                       f"{after}, before {where}", seq=expected)
    if ev.seq < expected:
        return Finding("event", ev.id, "reordered", f"{where} comes after seq {prev.seq}: events were reordered",
                       seq=ev.seq)
    if ev.prev_hash != expected_prev:
        if prev is None:
            return Finding("event", ev.id, "edited", f"{where}, the first chained event, does not start the chain",
                           seq=ev.seq)
        return Finding("event", prev.id, "edited", f"event {prev.id} (seq {prev.seq}) was edited and re-hashed: "
                       f"the next event ({ev.id}) links to a different hash", seq=prev.seq)
    return None


def _verify_rows(conn, report: ChainReport, subject: str, table, fields: tuple[str, ...],
                 pins: dict, legacy_owners: set[str]) -> None:
    """Each row of ``table`` against its newest pin; pins whose row is gone."""
    name = "approval" if subject == "approval" else "crisis alert"
    seen: set[str] = set()
    for row in conn.execute(select(*[table.c[f] for f in fields]).order_by(table.c.id)).mappings():
        row = dict(row)
        seen.add(row["id"])
        if subject == "approval":
            report.approvals += 1
        else:
            report.crisis_alerts += 1
        pin = pins.get((subject, row["id"]))
        if pin is None:
            if row["id"] in legacy_owners or not report.chained_schema:
                if subject == "approval":
                    report.unchained_approvals += 1
            else:
                report.disagreeing.append(Finding(subject, row["id"], "no_events",
                                                  f"{name} {row['id']} has no events: it was inserted"))
            continue
        _, state_hash, state_fields, ev_id = pin
        if state_pin(row)[0] != state_hash:
            diff = differing_fields(row, state_fields)
            what = ", ".join(diff) if diff else "the pinned state"
            report.disagreeing.append(Finding(
                subject, row["id"], "disagrees",
                f"{name} {row['id']} disagrees with its events ({what}; pinned by event {ev_id})", fields=diff))
    for (subj, owner), (_seq, _h, _f, ev_id) in pins.items():
        if subj == subject and owner not in seen:
            report.disagreeing.append(Finding(subject, owner, "deleted",
                                              f"{name} {owner} was deleted: event {ev_id} pins it"))


__all__ = ["ChainReport", "Finding", "LedgerUnreadable", "verify_ledger"]
