"""Answers: answer_log, for the per-sender hourly answer limit (mailer/answers.py).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Idempotent: create_all may already have made it."""
    if "answer_log" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "answer_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("sender", sa.String(), nullable=False),
        sa.Column("at", sa.String(), nullable=False))
    op.create_index("ix_answer_log_sender", "answer_log", ["sender"])
    op.create_index("ix_answer_log_at", "answer_log", ["at"])


def downgrade() -> None:
    op.drop_table("answer_log")
