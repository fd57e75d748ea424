"""Alembic migration scripts for a game's database (applied by ``storage.migrate`` on every open)."""
