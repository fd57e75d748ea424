"""The initial schema: journal, snapshot, event, meta, outbox.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _text(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.String(), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "journal",
        sa.Column("seq", sa.Integer(), primary_key=True),
        _text("kind"), _text("at"), _text("key"),
        sa.Column("raw", sa.LargeBinary(), nullable=True),
        _text("meta"), _text("prev_hash"), _text("hash"))
    op.create_index("ix_journal_key", "journal", ["key"], unique=True)
    op.create_table("snapshot", sa.Column("seq", sa.Integer(), primary_key=True), _text("state"))
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("seq", sa.Integer(), nullable=False), _text("kind"), _text("data"))
    op.create_index("ix_event_seq", "event", ["seq"])
    op.create_index("ix_event_kind", "event", ["kind"])
    op.create_table("meta", sa.Column("key", sa.String(), primary_key=True), _text("value"))
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        _text("kind"), _text("recipients"), _text("mail_from"), _text("subject"), _text("message_id"),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        _text("status"),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _text("next_attempt", True), _text("last_error", True), _text("created"))
    op.create_index("ix_outbox_seq", "outbox", ["seq"])
    op.create_index("ix_outbox_message_id", "outbox", ["message_id"])
    op.create_index("ix_outbox_status", "outbox", ["status"])


def downgrade() -> None:
    for table in ("outbox", "meta", "event", "snapshot", "journal"):
        op.drop_table(table)
