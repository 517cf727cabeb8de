"""event chain: each event's seq, link and hash, the state it pins, and the chain head

Events already in the ledger stay as they are, unchained; the head freezes how many there are, the highest
id and a digest over them (core.ledger.legacy_line), and the chain starts after them. No row is changed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from core.ledger import GENESIS, UTCDateTime, legacy_line

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seq", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("prev_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("state_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("state_fields", sa.String(), nullable=True))
        batch_op.create_index(batch_op.f("ix_events_seq"), ["seq"], unique=True)
    head = op.create_table(
        "chain_head",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("legacy_count", sa.Integer(), nullable=False),
        sa.Column("legacy_max_id", sa.Integer(), nullable=True),
        sa.Column("legacy_digest", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    # The columns as they are at this revision (not the models', which may grow later).
    events = sa.table("events", sa.column("id", sa.Integer()), sa.column("approval_id", sa.String()),
                      sa.column("crisis_id", sa.String()), sa.column("at", UTCDateTime()),
                      sa.column("kind", sa.String()), sa.column("actor", sa.String()),
                      sa.column("channel", sa.String()), sa.column("details_json", sa.String()))
    digest, count, max_id = hashlib.sha256(), 0, None
    result = op.get_bind().execute(sa.select(events).order_by(events.c.id))
    for row in result:
        digest.update(legacy_line(row))
        count, max_id = count + 1, row.id
    op.bulk_insert(head, [{"id": 1, "seq": 0, "hash": GENESIS, "legacy_count": count, "legacy_max_id": max_id,
                           "legacy_digest": digest.hexdigest(),
                           "started_at": datetime.now(UTC).replace(tzinfo=None)}])


def downgrade() -> None:
    op.drop_table("chain_head")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_events_seq"))
        batch_op.drop_column("state_fields")
        batch_op.drop_column("state_hash")
        batch_op.drop_column("hash")
        batch_op.drop_column("prev_hash")
        batch_op.drop_column("seq")
