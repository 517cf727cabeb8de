"""The tamper-evident ledger: a real ledger written through the real Ledger and Broker, then edited
behind signoff's back with sqlite3; ``verify_ledger`` names what was changed (docs/ledger.md)."""

from __future__ import annotations

import asyncio
import io
import shutil
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from adapters.terminal import TerminalChannel
from core.broker import Broker, Requester
from core.ledger import ChainBroken, Ledger
from core.ledger_verify import LedgerUnreadable, verify_ledger
from core.models import Actor, ApprovalRequest, DecidedVia, Status, utcnow
from core.policy import Policy

ALICE = Actor(id="telegram:1", name="@alice", via=DecidedVia.TELEGRAM)
RESPONDER = Actor(id="telegram:9", name="@resp", via=DecidedVia.TELEGRAM)
PUSH = "git push origin main"


class Clock:
    def __init__(self):
        self.now = utcnow()

    def __call__(self):
        return self.now


async def _build(path: Path, policy: Policy) -> dict[str, str]:
    """Every kind of write the daemon makes: auto-approved, shown, denied with a note, approved,
    escalated twice and expired, shown and left pending, a crisis request and its alert acknowledged, an event with no
    approval; the last event written is a decision. Returns the ids by name."""
    clock = Clock()
    ledger = await Ledger.open(f"sqlite:///{path}")
    broker = Broker(ledger, policy, clock=clock)
    broker.attach(TerminalChannel(io.StringIO()))
    ids: dict[str, str] = {}
    try:
        ids["safe"] = (await broker.submit(ApprovalRequest(action="read_file", command="README.md"))).id
        for name in ("denied", "approved", "expired", "pending", "last"):
            a = await broker.submit(ApprovalRequest(action="terminal", command=PUSH, agent=name),
                                    Requester(uid=1000, pid=4242))
            ids[name] = a.id
        await broker.drain()  # cards posted: "card_posted" and "shown" events
        await broker.decide(ids["denied"], False, ALICE, note="not today")
        await broker.decide(ids["approved"], True, ALICE)
        for _ in range(3):  # MEDIUM → HIGH → CRITICAL → expired
            clock.now += timedelta(hours=1)
            await broker.on_deadline(ids["expired"])
        crisis = await broker.submit(ApprovalRequest(action="send_message",
                                                     description="everyone would be better off without me"))
        ids["crisis"] = crisis.id
        await broker.drain()
        alert = await ledger.crisis_for_approval(crisis.id)
        ids["alert"] = alert.id
        await broker.crisis.acknowledge(alert.id, RESPONDER)
        await broker.record(None, "unauthorised_press", actor="telegram:666", channel="telegram")
        await broker.drain()
        broker.channels.clear()  # no card edits after the last decision: it is the newest event
        await broker.decide(ids["last"], True, ALICE)
        await broker.drain()
    finally:
        await ledger.close()
    return ids


@pytest.fixture(scope="module")
def policy() -> Policy:
    return Policy()


@pytest.fixture(scope="module")
def built(tmp_path_factory, policy) -> tuple[Path, dict[str, str]]:
    path = tmp_path_factory.mktemp("chain") / "ledger.db"
    return path, asyncio.run(_build(path, policy))


@pytest.fixture
def ledger_copy(built, tmp_path):
    """A fresh copy of the built ledger, a sqlite3 connection to edit it, and the ids."""
    src, ids = built
    path = tmp_path / "ledger.db"
    shutil.copy(src, path)
    db = sqlite3.connect(path)
    yield path, db, ids
    db.close()


def _verify(path: Path, db: sqlite3.Connection):
    db.commit()
    return verify_ledger(f"sqlite:///{path}")


def _event(db, approval_id: str, kind: str) -> int:
    return db.execute("SELECT id FROM events WHERE approval_id = ? AND kind = ? ORDER BY id",
                      (approval_id, kind)).fetchone()[0]


def test_untouched_ledger_is_intact(ledger_copy):
    path, db, ids = ledger_copy
    report = _verify(path, db)
    assert report.intact, report.lines()
    n = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert report.events == report.chained == report.head_seq == n and report.unchained == 0
    assert report.approvals == 7 and report.crisis_alerts == 1
    # seq follows id, from 1, with no gap; each event links to the one before
    rows = db.execute("SELECT seq, prev_hash, hash FROM events ORDER BY id").fetchall()
    assert [r[0] for r in rows] == list(range(1, n + 1))
    assert all(rows[i][1] == rows[i - 1][2] for i in range(1, n))
    kinds = {k for (k,) in db.execute("SELECT kind FROM events")}
    assert {"created", "shown", "decided", "escalated", "expired", "crisis", "crisis_acknowledged",
            "unauthorised_press", "card_posted"} <= kinds


def test_decision_changed_in_the_approval_row(ledger_copy):
    path, db, ids = ledger_copy
    db.execute("UPDATE approvals SET status = 'approved' WHERE id = ?", (ids["denied"],))
    report = _verify(path, db)
    assert not report.intact and report.first_bad_event is None
    [bad] = report.disagreeing
    assert (bad.subject, bad.id, bad.problem, bad.fields) == ("approval", ids["denied"], "disagrees", ["status"])
    assert f"approval {ids['denied']} disagrees with its events" in bad.message


def test_approval_command_edited(ledger_copy):
    path, db, ids = ledger_copy
    db.execute("UPDATE approvals SET command = 'ls' WHERE id = ?", (ids["approved"],))
    db.execute("UPDATE approvals SET note = NULL, decided_by = 'telegram:2' WHERE id = ?", (ids["denied"],))
    report = _verify(path, db)
    assert report.first_bad_event is None
    assert {(f.id, tuple(f.fields)) for f in report.disagreeing} == {
        (ids["approved"], ("command",)), (ids["denied"], ("decided_by", "note"))}


def test_event_details_edited(ledger_copy):
    path, db, ids = ledger_copy
    ev = _event(db, ids["denied"], "decided")
    db.execute("UPDATE events SET details_json = replace(details_json, 'denied', 'approved') WHERE id = ?", (ev,))
    report = _verify(path, db)
    bad = report.first_bad_event
    assert (bad.id, bad.problem) == (ev, "edited") and f"event {ev}" in bad.message
    assert report.disagreeing == []  # the row still agrees with the pin; the event itself was changed


def test_event_edited_and_rehashed_is_named(ledger_copy):
    from types import SimpleNamespace

    from core.ledger import event_hash

    path, db, ids = ledger_copy
    ev = _event(db, ids["denied"], "decided")
    db.execute("UPDATE events SET actor = 'telegram:2' WHERE id = ?", (ev,))
    cols = ["seq", "prev_hash", "approval_id", "crisis_id", "at", "kind", "actor", "channel", "details_json",
            "state_hash", "state_fields"]
    row = dict(zip(cols, db.execute(f"SELECT {', '.join(cols)} FROM events WHERE id = ?", (ev,)).fetchone(),
                   strict=True))
    from datetime import datetime

    row["at"] = datetime.fromisoformat(row["at"])
    db.execute("UPDATE events SET hash = ? WHERE id = ?", (event_hash(SimpleNamespace(**row)), ev))
    bad = _verify(path, db).first_bad_event
    assert (bad.id, bad.problem) == (ev, "edited") and "re-hashed" in bad.message


def test_event_deleted_in_the_middle(ledger_copy):
    path, db, ids = ledger_copy
    ev = _event(db, ids["approved"], "created")
    seq = db.execute("SELECT seq FROM events WHERE id = ?", (ev,)).fetchone()[0]
    db.execute("DELETE FROM events WHERE id = ?", (ev,))
    bad = _verify(path, db).first_bad_event
    assert (bad.problem, bad.seq, bad.id) == ("deleted", seq, ev + 1)
    assert f"seq {seq}" in bad.message and f"after event {ev - 1}" in bad.message


def test_last_event_deleted(ledger_copy):
    path, db, ids = ledger_copy
    last, seq = db.execute("SELECT id, seq FROM events ORDER BY id DESC LIMIT 1").fetchone()
    assert db.execute("SELECT kind, approval_id FROM events WHERE id = ?", (last,)).fetchone() == ("decided", ids["last"])
    db.execute("DELETE FROM events WHERE id = ?", (last,))
    report = _verify(path, db)
    assert (report.first_bad_event.problem, report.first_bad_event.seq) == ("deleted", seq)
    assert "the last 1 event(s)" in report.first_bad_event.message
    [bad] = report.disagreeing  # and its approval's row says approved, which no event left says
    assert bad.id == ids["last"] and "status" in bad.fields


def test_last_event_deleted_and_chain_head_moved_back(ledger_copy):
    """A careful editor also rewinds the chain head: the approval whose decision went is still caught."""
    path, db, ids = ledger_copy
    (last,) = db.execute("SELECT MAX(id) FROM events").fetchone()
    db.execute("DELETE FROM events WHERE id = ?", (last,))
    db.execute("UPDATE chain_head SET (seq, hash) = (SELECT seq, hash FROM events ORDER BY id DESC LIMIT 1)")
    report = _verify(path, db)
    assert report.first_bad_event is None
    assert [(f.id, f.problem) for f in report.disagreeing] == [(ids["last"], "disagrees")]


def test_event_inserted(ledger_copy):
    path, db, ids = ledger_copy
    db.execute("INSERT INTO events (approval_id, at, kind, actor, channel, details_json) "
               "VALUES (?, '2026-12-01 10:00:00.000000', 'decided', 'telegram:1', 'telegram', "
               "'{\"outcome\": \"approved\"}')", (ids["denied"],))
    new = db.execute("SELECT MAX(id) FROM events").fetchone()[0]
    bad = _verify(path, db).first_bad_event
    assert (bad.id, bad.problem) == (new, "inserted")


def test_event_inserted_with_a_forged_seq(ledger_copy):
    path, db, ids = ledger_copy
    head, prev = db.execute("SELECT seq, hash FROM chain_head").fetchone()
    db.execute("INSERT INTO events (approval_id, at, kind, seq, prev_hash, hash) "
               "VALUES (?, '2026-12-01 10:00:00.000000', 'decided', ?, ?, ?)", (ids["denied"], head + 1, prev, "f" * 64))
    new = db.execute("SELECT MAX(id) FROM events").fetchone()[0]
    bad = _verify(path, db).first_bad_event
    assert (bad.id, bad.problem) == (new, "inserted")


def test_two_events_swapped_by_id(ledger_copy):
    path, db, ids = ledger_copy
    a = _event(db, ids["denied"], "decided")
    b = a + 1
    db.execute("UPDATE events SET id = -1 WHERE id = ?", (a,))
    db.execute("UPDATE events SET id = ? WHERE id = ?", (a, b))
    db.execute("UPDATE events SET id = ? WHERE id = -1", (b,))
    bad = _verify(path, db).first_bad_event
    assert (bad.id, bad.problem) == (a, "reordered") and f"before event {b}" in bad.message


def test_two_events_swapped_by_seq(ledger_copy):
    path, db, ids = ledger_copy
    a = _event(db, ids["denied"], "decided")
    (sa,), (sb,) = db.execute("SELECT seq FROM events WHERE id IN (?, ?) ORDER BY id", (a, a + 1)).fetchall()
    db.execute("UPDATE events SET seq = -1 WHERE id = ?", (a,))
    db.execute("UPDATE events SET seq = ? WHERE id = ?", (sa, a + 1))
    db.execute("UPDATE events SET seq = ? WHERE id = ?", (sb, a))
    bad = _verify(path, db).first_bad_event
    assert (bad.id, bad.problem) == (a, "reordered") and f"written as seq {sa}" in bad.message


def test_crisis_alert_row_edited(ledger_copy):
    path, db, ids = ledger_copy
    db.execute("UPDATE crisis_alerts SET acknowledged_by = 'telegram:7' WHERE id = ?", (ids["alert"],))
    [bad] = _verify(path, db).disagreeing
    assert (bad.subject, bad.id, bad.fields) == ("crisis_alert", ids["alert"], ["acknowledged_by"])


def test_approval_rows_inserted_and_deleted(ledger_copy):
    path, db, ids = ledger_copy
    db.execute("INSERT INTO approvals SELECT 'forged000001', status, tier, original_tier, reason, rule, action, "
               "command, description, cwd, agent, session, NULL, content_hash, metadata_json, requester_uid, "
               "requester_pid, created_at, deadline, visible_at, decided_at, decided_by, decided_by_name, "
               "decided_via, note, escalations, crisis_category, resources_json FROM approvals WHERE id = ?",
               (ids["approved"],))
    db.execute("DELETE FROM approvals WHERE id = ?", (ids["expired"],))
    report = _verify(path, db)
    assert {(f.id, f.problem) for f in report.disagreeing} == {("forged000001", "no_events"),
                                                               (ids["expired"], "deleted")}


def test_what_the_events_record_of_who_asked(ledger_copy):
    path, db, ids = ledger_copy
    import json

    (details,) = db.execute("SELECT details_json FROM events WHERE approval_id = ? AND kind = 'created'",
                            (ids["denied"],)).fetchone()
    assert json.loads(details).items() >= {"agent": "denied", "requester_uid": 1000, "requester_pid": 4242}.items()


def test_unreadable_ledgers(tmp_path):
    with pytest.raises(LedgerUnreadable, match="no ledger file"):
        verify_ledger(f"sqlite:///{tmp_path}/missing.db")
    assert not (tmp_path / "missing.db").exists()  # read-only: nothing was created
    (tmp_path / "text.db").write_text("not a database, just text " * 100)
    with pytest.raises(LedgerUnreadable, match="not a database"):
        verify_ledger(f"sqlite:///{tmp_path}/text.db")
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(LedgerUnreadable, match="not a signoff ledger"):
        verify_ledger(f"sqlite:///{tmp_path}/other.db")
    with pytest.raises(LedgerUnreadable, match="directory"):
        verify_ledger(f"sqlite:///{tmp_path}")


async def test_concurrent_writers_keep_one_serial_chain(tmp_path, policy):
    """Hundreds of requests, decisions and events at once, through the group commit and the
    compare-and-set writes, including a batch where one insert fails: one chain, no gap, intact."""
    from sqlalchemy.exc import IntegrityError

    ledger = await Ledger.open(f"sqlite:///{tmp_path}/l.db")
    try:
        broker = Broker(ledger, policy)
        pending = await asyncio.gather(*(broker.submit(ApprovalRequest(action="terminal", command=f"{PUSH} {i}"))
                                         for i in range(100)))
        dup = await ledger.get_row(pending[0].id)
        dup.idempotency_key = None
        results = await asyncio.gather(
            *(broker.submit(ApprovalRequest(action="read_file", command=f"f{i}")) for i in range(100)),
            *(broker.decide(a.id, i % 2 == 0, ALICE) for i, a in enumerate(pending)),
            *(broker.record(a.id, "note", actor="test") for a in pending),
            ledger.insert(dup), return_exceptions=True)
        assert isinstance(results[-1], IntegrityError)
        assert not [r for r in results[:-1] if isinstance(r, BaseException)]
    finally:
        await ledger.close()
    report = verify_ledger(f"sqlite:///{tmp_path}/l.db")
    assert report.intact, report.lines()
    assert report.chained == report.head_seq == 100 + 200 + 100 + 100


async def test_writes_fail_closed_without_a_chain_head(tmp_path, policy):
    url = f"sqlite:///{tmp_path}/l.db"
    ledger = await Ledger.open(url)
    try:
        broker = Broker(ledger, policy)
        a = await broker.submit(ApprovalRequest(action="terminal", command=PUSH))
        db = sqlite3.connect(tmp_path / "l.db")
        db.execute("DELETE FROM chain_head")
        db.commit()
        db.close()
        with pytest.raises(ChainBroken):
            await broker.decide(a.id, True, ALICE)
        assert (await ledger.get(a.id)).status is Status.PENDING  # nothing approved without its event
    finally:
        await ledger.close()
    bad = verify_ledger(url).first_bad_event
    assert bad.problem == "deleted" and "chain head" in bad.message


# migration from a ledger made before the chain (revision 0002) ---------------------------------


def _make_0002_ledger(path: Path) -> None:
    """A ledger at revision 0002 with what that version wrote: approvals and their events, a crisis
    alert with its event, a pending approval."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).resolve().parents[2] / "core" / "migrations"))
    cfg.set_main_option("sqlalchemy.url", f"sqlite:///{path}")
    command.upgrade(cfg, "0002")
    db = sqlite3.connect(path)
    cols = ("id, status, tier, original_tier, reason, action, command, content_hash, requester_uid, created_at, "
            "deadline, decided_at, decided_by, decided_via, escalations")
    db.executemany(f"INSERT INTO approvals ({cols}) VALUES (?, ?, 2, 2, 'push', 'terminal', ?, 'h', 1000, "
                   "'2026-11-30 10:00:00.000000', '2026-11-30 10:01:00.000000', ?, ?, ?, 0)",
                   [("old000000001", "approved", PUSH, "2026-11-30 10:00:30.000000", "telegram:1", "telegram"),
                    ("old000000002", "pending", PUSH + " 2", None, None, None)])
    db.executemany("INSERT INTO events (approval_id, crisis_id, at, kind, actor, channel, details_json) "
                   "VALUES (?, ?, '2026-11-30 10:00:00.000000', ?, ?, ?, ?)",
                   [("old000000001", None, "created", "uid:1000", None, '{"tier": "MEDIUM"}'),
                    ("old000000001", None, "decided", "telegram:1", "telegram", '{"outcome": "approved"}'),
                    ("old000000002", None, "created", "uid:1000", None, '{"tier": "MEDIUM"}'),
                    (None, "oldalert0001", "crisis", "telegram:5", "telegram", '{"category": "ideation"}')])
    db.execute("INSERT INTO crisis_alerts (id, created_at, category, text_hash, source, realerts) "
               "VALUES ('oldalert0001', '2026-11-30 10:00:00.000000', 'ideation', 'x', 'telegram', 0)")
    db.commit()
    db.close()


async def test_a_0002_ledger_upgrades_intact_and_new_events_chain_on(tmp_path, policy):
    path = tmp_path / "old.db"
    _make_0002_ledger(path)
    before = sqlite3.connect(path).execute("SELECT * FROM events ORDER BY id").fetchall()
    url = f"sqlite:///{path}"
    ledger = await Ledger.open(url)  # migrates to head
    await ledger.close()
    db = sqlite3.connect(path)
    assert [r[:8] for r in db.execute("SELECT * FROM events ORDER BY id")] == before  # no user data lost
    assert db.execute("SELECT COUNT(*) FROM approvals").fetchone()[0] == 2
    report = verify_ledger(url)
    assert report.intact, report.lines()
    assert (report.unchained, report.chained, report.unchained_approvals) == (4, 0, 2)

    ledger = await Ledger.open(url)
    try:
        broker = Broker(ledger, policy)
        await broker.decide("old000000002", False, ALICE, note="stale")  # a legacy approval, now pinned
        await broker.submit(ApprovalRequest(action="read_file", command="x"))
        await broker.record(None, "unauthorised_press", actor="telegram:666")
    finally:
        await ledger.close()
    report = verify_ledger(url)
    assert report.intact, report.lines()
    assert (report.unchained, report.chained, report.unchained_approvals) == (4, 4, 1)
    assert db.execute("SELECT MIN(seq), MIN(id) FROM events WHERE seq IS NOT NULL").fetchone() == (1, 5)

    db.execute("UPDATE approvals SET status = 'approved' WHERE id = 'old000000002'")  # pinned since its decision
    db.commit()
    assert [f.id for f in verify_ledger(url).disagreeing] == ["old000000002"]
    db.execute("UPDATE approvals SET status = 'denied' WHERE id = 'old000000002'")
    db.execute("UPDATE events SET details_json = '{\"outcome\": \"denied\"}' WHERE id = 2")  # a legacy event
    db.commit()
    bad = verify_ledger(url).first_bad_event
    assert bad.problem == "edited" and "before the chain" in bad.message
    db.close()


def test_verify_reads_an_old_schema_without_upgrading_it(tmp_path):
    path = tmp_path / "old.db"
    _make_0002_ledger(path)
    report = verify_ledger(f"sqlite:///{path}")
    assert report.intact and not report.chained_schema and report.unchained == 4
    assert sqlite3.connect(path).execute("SELECT version_num FROM alembic_version").fetchone() == ("0002",)


async def test_verify_beside_a_busy_writer_sees_one_snapshot(tmp_path, policy):
    """verify reads while the ledger is written (the daemon runs): what it reads is one moment's ledger."""
    url = f"sqlite:///{tmp_path}/l.db"
    ledger = await Ledger.open(url)
    broker = Broker(ledger, policy)
    stop = asyncio.Event()

    async def write():
        i = 0
        while not stop.is_set():
            await asyncio.gather(*(broker.submit(ApprovalRequest(action="read_file", command=f"f{i}-{j}"))
                                   for j in range(20)))
            i += 1

    writer = asyncio.ensure_future(write())
    try:
        await broker.submit(ApprovalRequest(action="read_file", command="first"))
        reports = [await asyncio.to_thread(verify_ledger, url) for _ in range(8)]
    finally:
        stop.set()
        await writer
        await ledger.close()
    assert all(r.intact for r in reports), [r.lines() for r in reports if not r.intact][0]
    assert len({r.head_seq for r in reports}) > 1  # the ledger grew while it was read


async def test_two_writers_on_one_file_chain_after_each_other(tmp_path, policy):
    """Another writer (a second process, here a second Ledger) moved the head: this writer's cached head is
    stale, its compare-and-set fails, and it links after the real head instead of forking the chain."""
    url = f"sqlite:///{tmp_path}/l.db"
    one, two = await Ledger.open(url), Ledger(url)
    try:
        a, b = Broker(one, policy), Broker(two, policy)
        for i in range(3):
            await a.submit(ApprovalRequest(action="read_file", command=f"a{i}"))
            pending = await b.submit(ApprovalRequest(action="terminal", command=f"{PUSH} {i}"))
            await a.decide(pending.id, True, ALICE)  # a compare-and-set write through the other ledger
            await b.record(None, "note")
    finally:
        await one.close()
        await two.close()
    report = verify_ledger(url)
    assert report.intact, report.lines()
    assert report.head_seq == 3 * (2 + 1 + 1 + 1)
