"""initial ledger: approvals, events, cards

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-30 00:43:12.241947
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

def upgrade() -> None:

    op.create_table('approvals',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('tier', sa.Integer(), nullable=False),
    sa.Column('original_tier', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(), nullable=False),
    sa.Column('rule', sa.String(), nullable=True),
    sa.Column('action', sa.String(), nullable=False),
    sa.Column('command', sa.String(), nullable=True),
    sa.Column('description', sa.String(), nullable=True),
    sa.Column('cwd', sa.String(), nullable=True),
    sa.Column('agent', sa.String(), nullable=True),
    sa.Column('session', sa.String(), nullable=True),
    sa.Column('idempotency_key', sa.String(length=200), nullable=True),
    sa.Column('content_hash', sa.String(), nullable=False),
    sa.Column('metadata_json', sa.String(), nullable=True),
    sa.Column('requester_uid', sa.Integer(), nullable=True),
    sa.Column('requester_pid', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('deadline', sa.DateTime(), nullable=True),
    sa.Column('visible_at', sa.DateTime(), nullable=True),
    sa.Column('decided_at', sa.DateTime(), nullable=True),
    sa.Column('decided_by', sa.String(), nullable=True),
    sa.Column('decided_by_name', sa.String(), nullable=True),
    sa.Column('decided_via', sa.String(), nullable=True),
    sa.Column('note', sa.String(), nullable=True),
    sa.Column('escalations', sa.Integer(), nullable=False),
    sa.Column('crisis_category', sa.String(), nullable=True),
    sa.Column('resources_json', sa.String(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('idempotency_key')
    )
    with op.batch_alter_table('approvals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_approvals_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_approvals_deadline'), ['deadline'], unique=False)
        batch_op.create_index(batch_op.f('ix_approvals_status'), ['status'], unique=False)

    op.create_table('cards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('approval_id', sa.String(length=32), nullable=False),
    sa.Column('channel', sa.String(length=40), nullable=False),
    sa.Column('ref', sa.String(length=200), nullable=False),
    sa.Column('purpose', sa.String(length=20), nullable=False),
    sa.Column('posted_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_cards_approval_id'), ['approval_id'], unique=False)

    op.create_table('events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('approval_id', sa.String(length=32), nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('actor', sa.String(), nullable=True),
    sa.Column('channel', sa.String(length=40), nullable=True),
    sa.Column('details_json', sa.String(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_events_approval_id'), ['approval_id'], unique=False)

def downgrade() -> None:

    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_events_approval_id'))

    op.drop_table('events')
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_cards_approval_id'))

    op.drop_table('cards')
    with op.batch_alter_table('approvals', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_approvals_status'))
        batch_op.drop_index(batch_op.f('ix_approvals_deadline'))
        batch_op.drop_index(batch_op.f('ix_approvals_created_at'))

    op.drop_table('approvals')

