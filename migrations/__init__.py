"""Alembic migration scripts for a game's database (applied by ``nomic.migrate`` on every open)."""
