"""Events carry their cause: event.cause_what and event.cause_number (engine.events.Cause).

The events of an older release were stored without their cause, and the cause cannot be read
back out of them honestly; the journal can fold them again. So this revision also asks for a
refold (the meta key ``refold``): the game rebuilds its derived rows once when it is next opened
(nomic.game.Game.rebuild: the same state, the events with their causes, no mail sent again).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

REFOLD = "refold"  # storage.REFOLD


def upgrade() -> None:
    conn = op.get_bind()
    columns = {c["name"] for c in sa.inspect(conn).get_columns("event")}
    with op.batch_alter_table("event") as batch:
        if "cause_what" not in columns:
            batch.add_column(sa.Column("cause_what", sa.String(), nullable=True))
        if "cause_number" not in columns:
            batch.add_column(sa.Column("cause_number", sa.Integer(), nullable=True))
    if conn.execute(sa.text("SELECT 1 FROM event LIMIT 1")).first() is not None:
        conn.execute(sa.text("DELETE FROM meta WHERE key = :key"), {"key": REFOLD})
        conn.execute(sa.text("INSERT INTO meta (key, value) VALUES (:key, :value)"),
                     {"key": REFOLD, "value": "0005: events are stored with their cause"})


def downgrade() -> None:
    op.get_bind().execute(sa.text("DELETE FROM meta WHERE key = :key"), {"key": REFOLD})
    with op.batch_alter_table("event") as batch:
        batch.drop_column("cause_number")
        batch.drop_column("cause_what")
