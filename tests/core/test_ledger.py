"""The ledger's schema is managed by Alembic and matches the models; data survives upgrades."""

from __future__ import annotations

import sqlite3

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from core.ledger import Ledger, run_migrations, schema_is_current


def test_migrations_match_the_models(tmp_path):
    url = f"sqlite:///{tmp_path}/l.db"
    run_migrations(url)
    assert schema_is_current(url)
    engine = create_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    engine.dispose()
    assert diff == [], f"models and migrations differ; add a migration: {diff}"


async def test_wal_mode_and_reopen_keeps_data(tmp_path):
    url = f"sqlite:///{tmp_path}/sub/dir/l.db"
    from core.broker import Broker
    from core.models import ApprovalRequest
    from core.policy import Policy

    ledger = await Ledger.open(url)
    a = await Broker(ledger, Policy()).submit(ApprovalRequest(action="read_file", command="x"))
    await ledger.close()
    ledger = await Ledger.open(url)  # migrating again is a no-op and keeps rows
    assert (await ledger.get(a.id)).status.value == "approved"
    await ledger.close()
    assert sqlite3.connect(tmp_path / "sub/dir/l.db").execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_group_commit_gives_each_caller_its_own_outcome(tmp_path):
    import asyncio

    from sqlalchemy.exc import IntegrityError

    from core.broker import Broker, BrokerSettings
    from core.models import ApprovalRequest
    from core.policy import Policy

    ledger = await Ledger.open(f"sqlite:///{tmp_path}/l.db")
    try:
        broker = Broker(ledger, Policy(), BrokerSettings())
        first = await broker.submit(ApprovalRequest(action="read_file", command="a"))
        dup = ledger.get_row(first.id)
        row = await dup
        row.idempotency_key = None
        # 20 good inserts share a transaction with one that collides (same primary key).
        results = await asyncio.gather(
            *(broker.submit(ApprovalRequest(action="read_file", command=f"f{i}")) for i in range(20)),
            ledger.insert(row), return_exceptions=True)
        errors = [r for r in results if isinstance(r, Exception)]
        assert len(errors) == 1 and isinstance(errors[0], IntegrityError)
        assert await ledger.count() == 21
    finally:
        await ledger.close()
