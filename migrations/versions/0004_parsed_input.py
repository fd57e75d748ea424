"""The cache of parsed engine inputs: parsed_input (storage/__init__.py ParsedInput).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Idempotent: create_all may already have made it. Games from before it fill it as they go
    (and `nomic replay` parses what it does not hold)."""
    if "parsed_input" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "parsed_input",
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("parser", sa.String(), nullable=False),
        sa.Column("input", sa.String(), nullable=False))


def downgrade() -> None:
    op.drop_table("parsed_input")
