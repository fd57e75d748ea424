"""Outgoing mail: per-recipient deliveries, bounce scores, digest issues; outbox.personal.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Idempotent: a database stamped at the baseline may already hold these (create_all made them)."""
    have = sa.inspect(op.get_bind())
    if "personal" not in {c["name"] for c in have.get_columns("outbox")}:
        with op.batch_alter_table("outbox") as batch:
            batch.add_column(sa.Column("personal", sa.Boolean(), nullable=False, server_default=sa.false()))
    tables = set(have.get_table_names())
    if "delivery" not in tables:
        _delivery()
    if "bounce" not in tables:
        op.create_table(
            "bounce",
            sa.Column("address", sa.String(), primary_key=True),
            sa.Column("score", sa.Integer(), nullable=False),
            sa.Column("last_day", sa.String(), nullable=False),
            sa.Column("disabled", sa.Boolean(), nullable=False))
    if "digest" not in tables:
        op.create_table(
            "digest",
            sa.Column("id", sa.Integer(), primary_key=True),
            sa.Column("volume", sa.Integer(), nullable=False),
            sa.Column("issue", sa.Integer(), nullable=False),
            sa.Column("day", sa.Integer(), nullable=False),
            sa.Column("seq", sa.Integer(), nullable=False),
            sa.Column("last_outbox_id", sa.Integer(), nullable=False))


def _delivery() -> None:
    op.create_table(
        "delivery",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("outbox_id", sa.Integer(), nullable=False),
        sa.Column("rcpt", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt", sa.String(), nullable=False),
        sa.Column("claim", sa.String(), nullable=True),
        sa.Column("claimed_at", sa.String(), nullable=True),
        sa.Column("last_error", sa.String(), nullable=True),
        sa.Column("sent_at", sa.String(), nullable=True))
    op.create_index("ix_delivery_outbox_status", "delivery", ["outbox_id", "status"])
    op.create_index("ix_delivery_status", "delivery", ["status"])


def downgrade() -> None:
    for table in ("digest", "bounce", "delivery"):
        op.drop_table(table)
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("personal")
