"""A list's recipients are stored once, not in every mail to the list: ``recipient_set``.

An announcement or a list copy used to carry its 1,000 members in its outbox row, written again
for every mail. A set of recipients is now a row of its own, under the digest of its JSON, and
each outbox row to it names it (``outbox.recipient_set``; its own ``recipients`` is then "[]").
Existing rows keep their recipients where they are. Downgrading writes each set back into the
rows that name it, as the older release reads them.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Idempotent: create_all may already have made the table and the column."""
    conn = op.get_bind()
    inspector = sa.inspect(conn)
    if not inspector.has_table("recipient_set"):
        op.create_table("recipient_set", sa.Column("digest", sa.String(), nullable=False),
                        sa.Column("recipients", sa.String(), nullable=False),
                        sa.PrimaryKeyConstraint("digest"))
    if "recipient_set" not in {c["name"] for c in inspector.get_columns("outbox")}:
        with op.batch_alter_table("outbox") as batch:
            batch.add_column(sa.Column("recipient_set", sa.String(), nullable=True))


def downgrade() -> None:
    conn = op.get_bind()
    conn.execute(sa.text("""UPDATE outbox SET recipients =
        (SELECT r.recipients FROM recipient_set AS r WHERE r.digest = outbox.recipient_set)
        WHERE recipient_set IS NOT NULL"""))
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("recipient_set")
    op.drop_table("recipient_set")
