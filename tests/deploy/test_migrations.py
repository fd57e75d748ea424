"""Schema migrations: a new game is built by alembic alone, and the models agree with the migrations."""
from __future__ import annotations

import sqlite3

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect

import storage
from storage import migrate


def _alembic(conn) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrate.SCRIPTS))
    cfg.attributes["connection"] = conn
    return cfg


def _engine(url: str, tmp_path):
    return create_engine(url or f"sqlite:///{tmp_path / 'fresh.db'}")


def test_migrations_alone_build_every_table_the_code_uses(tmp_path, new_database_url):
    """No table, column or index may exist only in the models: a deployed game upgrades by migration."""
    eng = _engine(new_database_url(), tmp_path)
    with eng.begin() as conn:
        command.upgrade(_alembic(conn), "head")
    with eng.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": False}),
                                migrate.metadata())
    assert diff == [], f"the models differ from migrations/ (write a revision): {diff}"
    with eng.connect() as conn:
        assert migrate.current(conn) == migrate.head()


def test_a_game_from_before_migrations_is_stamped_and_keeps_its_journal(play):
    """A database made by create_all alone (no alembic_version) is adopted at the baseline, not re-created."""
    play.propose("alice@wonder.land", "Free cake")
    eng = create_engine(play_url(play))
    with eng.begin() as conn:
        conn.exec_driver_sql("DROP TABLE alembic_version")
    assert not inspect(eng).has_table("alembic_version")
    assert "run `nomic upgrade" in play.cli("state", ok=False)
    assert play.cli("upgrade") == (f"{play.dir}: schema from before migrations -> {migrate.head()}\n"
                                   f"{play.dir}: refolded 1 journal entry (0006: this release keeps absence, reminders and parameters in the state)\n")
    assert "Proposal 2" in play.propose("bob@x.org", "More cake")
    with eng.connect() as conn:
        assert migrate.current(conn) == migrate.head()
    assert [s["title"] for s in play.state()["submissions"]] == ["Free cake", "More cake"]
    play.verify()


def test_opening_an_up_to_date_game_changes_no_schema(play):
    play.propose("alice@wonder.land", "Free cake")
    play.judge("Accept 1")
    again = storage.open_database(play_url(play))
    with again.connect() as conn:
        assert migrate.current(conn) == migrate.head()
    assert play.player("alice@wonder.land")["score"] == 3
    play.verify()


def play_url(play) -> str:
    from storage.config import Config
    return Config.load(play.dir).database_url


def test_downgrade_to_nothing_and_upgrade_again(tmp_path):
    """Every revision can be undone (operators roll back a failed upgrade from a backup, but the chain must be sound)."""
    db = tmp_path / "roundtrip.db"
    eng = create_engine(f"sqlite:///{db}")
    with eng.begin() as conn:
        cfg = _alembic(conn)
        command.upgrade(cfg, "head")
        command.downgrade(cfg, "base")
    tables = {r[0] for r in sqlite3.connect(db).execute("select name from sqlite_master where type='table'")}
    assert tables == {"alembic_version"}
    migrate.upgrade(eng)  # a new game: the models' tables, stamped with the newest revision
    with eng.connect() as conn:
        assert migrate.current(conn) == migrate.head()
    assert {"journal", "snapshot", "event", "meta", "outbox"} <= set(inspect(eng).get_table_names())
