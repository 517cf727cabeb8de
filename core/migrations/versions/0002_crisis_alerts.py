"""crisis alerts: responders' acknowledgements and re-alerts; events may name a crisis alert

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "crisis_alerts",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("category", sa.String(length=40), nullable=False),
        sa.Column("evidence", sa.String(), nullable=True),
        sa.Column("text", sa.String(), nullable=True),
        sa.Column("text_hash", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("chat", sa.String(), nullable=True),
        sa.Column("user_ref", sa.String(), nullable=True),
        sa.Column("user_name", sa.String(), nullable=True),
        sa.Column("agent", sa.String(), nullable=True),
        sa.Column("session", sa.String(), nullable=True),
        sa.Column("approval_id", sa.String(length=32), nullable=True),
        sa.Column("acknowledged_at", sa.DateTime(), nullable=True),
        sa.Column("acknowledged_by", sa.String(), nullable=True),
        sa.Column("acknowledged_by_name", sa.String(), nullable=True),
        sa.Column("realerts", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("crisis_alerts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_crisis_alerts_created_at"), ["created_at"], unique=False)
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("crisis_id", sa.String(length=32), nullable=True))
        batch_op.create_index(batch_op.f("ix_events_crisis_id"), ["crisis_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_events_crisis_id"))
        batch_op.drop_column("crisis_id")
    with op.batch_alter_table("crisis_alerts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_crisis_alerts_created_at"))
    op.drop_table("crisis_alerts")
