"""A daemon's site waits for mail to stop arriving (nomic.daemon.Processor): a rebuild and its search
index cost far more than a chunk of the fold, and in a host one game's rebuild came in the middle of
every other game's mail (bench/host.py). Once the intake pauses, or after ``SITE_PATIENCE`` seconds of
mail, the site is built."""
from __future__ import annotations

import threading
import time
from datetime import datetime, timezone

from nomic import daemon
from nomic.daemon import Processor, Turns
from nomic.game import Game
from tests.support import make_mail

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)


def test_the_site_is_built_once_mail_stops_arriving_not_while_it_arrives(play):
    game = Game(play.dir)
    game.inbox.receive(make_mail("p0@players.test", "Proposal: Cake", "Cakes for all.",
                                 message_id="site-waits@players.test"), AT)
    arriving = [True]
    processor = Processor(game, threading.Lock(), Turns(lambda: arriving[0]))
    index = play.dir / "site" / "index.html"
    processor.round()  # the Proposal is folded while mail arrives: the site waits
    assert not index.exists()
    assert processor._wait() == daemon.SITE_RECHECK  # and its processor looks again soon
    arriving[0] = False
    processor.round()  # mail has stopped: built
    assert index.exists()


def test_a_site_waits_for_busy_intake_no_longer_than_its_patience(play, monkeypatch):
    game = Game(play.dir)
    game.inbox.receive(make_mail("p0@players.test", "Proposal: Cake", "Cakes for all.",
                                 message_id="site-patience@players.test"), AT)
    monkeypatch.setattr(daemon, "MAX_YIELD", 0.0)  # the second round need not wait for the first
    processor = Processor(game, threading.Lock(), Turns(lambda: True))
    processor.round()
    assert not (play.dir / "site" / "index.html").exists()
    monkeypatch.setattr(daemon, "SITE_PATIENCE", 0.0)
    time.sleep(0.01)
    processor.round()  # mail still arrives, but the site has waited long enough
    assert (play.dir / "site" / "index.html").exists()
