"""This release's engine keeps more in a game's state (each player's absence and the reminders
already sent, the parameters a rule-change may set, B Nomic's society and the Emergency): a
state an older release stored lacks them, so ``nomic replay --verify`` of an older game would
differ from its stored state. No table changes; the revision asks for a refold (the meta key
``refold``), so ``nomic upgrade`` folds the journal once more into fresh derived rows
(nomic.game.Game.rebuild: the state this release folds, no mail sent again).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

REFOLD = "refold"  # storage.REFOLD


def upgrade() -> None:
    conn = op.get_bind()
    if conn.execute(sa.text("SELECT 1 FROM event LIMIT 1")).first() is not None:
        conn.execute(sa.text("DELETE FROM meta WHERE key = :key"), {"key": REFOLD})
        conn.execute(sa.text("INSERT INTO meta (key, value) VALUES (:key, :value)"),
                     {"key": REFOLD, "value": "0006: this release keeps absence, reminders and parameters in the state"})


def downgrade() -> None:
    op.get_bind().execute(sa.text("DELETE FROM meta WHERE key = :key"), {"key": REFOLD})
