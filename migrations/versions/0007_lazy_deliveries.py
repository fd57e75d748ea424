"""A mail's deliveries are written by the sender when it first needs them: outbox.expanded.

The fold stores one outbox row per mail with its recipients; the sender expands a row into its
delivery rows, once, in its own transaction (mailer.outbox.expand). Every row an older release
wrote already has its delivery rows (they were written with it), so every existing row is
marked expanded, and it is sent as before.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Idempotent: create_all may already have made the column (and then no row predates it)."""
    conn = op.get_bind()
    if "expanded" in {c["name"] for c in sa.inspect(conn).get_columns("outbox")}:
        return
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("expanded", sa.Boolean(), nullable=False, server_default=sa.false()))
    conn.execute(sa.text("UPDATE outbox SET expanded = :yes"), {"yes": True})
    op.create_index("ix_outbox_expanded", "outbox", ["expanded"])


# The deliveries of the rows not yet expanded, as mailer.outbox writes them (as of this revision).
EXPAND = {"sqlite": "CROSS JOIN json_each(o.recipients) AS j", "postgresql":
          "CROSS JOIN LATERAL json_array_elements_text(CAST(o.recipients AS json)) AS j(value)"}


def downgrade() -> None:
    """The rows not yet expanded get their deliveries first: the older release's sender reads only those."""
    conn = op.get_bind()
    conn.execute(sa.text(f"""INSERT INTO delivery (outbox_id, rcpt, status, attempts, next_attempt)
        SELECT o.id, j.value, 'queued', 0, '' FROM outbox AS o {EXPAND[conn.dialect.name]}
        WHERE NOT o.expanded ORDER BY o.id"""))
    op.drop_index("ix_outbox_expanded", "outbox")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("expanded")
