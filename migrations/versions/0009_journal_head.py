"""The journal's head is its last entry's hash, read from the journal: no meta row ``journal_head``.

Every append used to move the head in the meta table as well, one more page written and synced
by every group commit; the last entry already holds it (storage.journal). No table changes: the
row goes. Downgrading writes it back from the last entry (an older release reads it, and would
chain a new entry to the genesis hash without it).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

HEAD_KEY = "journal_head"  # the older releases' meta key


def upgrade() -> None:
    op.get_bind().execute(sa.text("DELETE FROM meta WHERE key = :key"), {"key": HEAD_KEY})


def downgrade() -> None:
    conn = op.get_bind()
    conn.execute(sa.text("DELETE FROM meta WHERE key = :key"), {"key": HEAD_KEY})
    conn.execute(sa.text("INSERT INTO meta (key, value) SELECT :key, hash FROM journal ORDER BY seq DESC LIMIT 1"),
                 {"key": HEAD_KEY})
