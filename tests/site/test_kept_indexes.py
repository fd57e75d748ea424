"""What a site's builds keep of the list posts and the public mail (posts.Threads, mail_index.MailIndex):
brought up to date with the new posts alone, they place every post and message where a build from
scratch does, and say which threads the new ones changed."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlmodel import Session, col, select

from nomic.game import Game
from nomic.site import GameSite
from nomic.website import SiteMemory
from nomic.website.mail_index import MailIndex
from nomic.website.posts import Threads, threads
from nomic.website.public_mail import GAME, LIST, PublicMail
from nomic.website.reader import HIDDEN_KINDS, ListPost, read
from storage import EventRow
from tests.site.game import play_days

T = datetime(2026, 1, 5, tzinfo=timezone.utc)


def post(seq: int, mid: str, *refs: str) -> ListPost:
    return ListPost(seq=seq, at=T, message_id=mid, sender="a@test", name="A", subject=mid, text="", references=list(refs))


def shape(found) -> list[tuple[str, list[tuple[int, str]]]]:
    return [(root.message_id, [(d, p.message_id) for d, p in posts]) for root, posts in found]


def test_posts_threaded_one_build_at_a_time_are_threaded_as_all_at_once():
    """The hard case last: a reply that came before the post it answers (its thread joins that one's)."""
    arriving = [post(1, "a"), post(2, "b", "a"), post(3, "c"), post(4, "d", "b", "a"), post(5, "e", "x"),
                post(6, "f", "c"), post(7, "x")]
    read: list[ListPost] = []
    kept = Threads()
    for p in arriving:
        read.append(p)
        kept.update(read, "names")
        assert shape(kept.threads()) == shape(threads(read))
    assert shape(kept.threads()) == [("x", [(0, "x"), (1, "e")]), ("c", [(0, "c"), (1, "f")]),
                                     ("a", [(0, "a"), (1, "b"), (2, "d")])]


def test_a_new_post_changes_its_own_thread_alone_and_new_names_change_every_thread():
    read = [post(1, "a"), post(2, "b"), post(3, "c")]
    kept = Threads()
    kept.update(read, "names")
    before = list(kept.keys)
    read.append(post(4, "d", "b"))
    kept.update(read, "names")
    assert (kept.changed, kept.keys[0], kept.keys[1], kept.keys[2]) == ({1}, before[0], (2, 2, 4, "names"), before[2])
    kept.update(read, "new names")
    assert kept.changed == {0, 1, 2}


def mail(id_: int, mid: str, *refs: str, kind: str = LIST) -> PublicMail:
    return PublicMail(id=id_, kind=kind, at=T, message_id=mid, subject=mid, name="A", references=list(refs),
                      text="", raw=b"")


def test_the_mail_index_files_new_mail_alone_in_the_threads_a_full_read_gives():
    """An announcement's mail refers to the proposal's (not public): the answers to both join it; a
    message an earlier one referenced joins that one's thread; a second copy of a mail is left out."""
    read = [mail(1, "ann1", "prop1", kind=GAME), mail(2, "re1", "prop1"), mail(3, "lone")]
    kept = MailIndex()
    kept.update(read, "site")
    read += [mail(4, "ann1", "prop1", kind=GAME), mail(5, "late", "x"), mail(6, "prop1")]
    kept.update(read, "site")
    assert [[kept.mail[i].message_id for i in t] for t in kept.threads] == [["ann1", "re1", "prop1"], ["lone"],
                                                                              ["late"]]
    assert (list(kept.new), kept.grown) == ([3, 4], {0, 2})
    assert kept.page_keys == [(1, 3, 6), (2, 3, 6), (3, 1, 3), (5, 1, 5), (6, 3, 6)]
    assert dict(kept.months) == {("2026-01", GAME): [0], ("2026-01", LIST): [1, 2, 3, 4]}


def test_events_made_again_otherwise_are_all_read_again(make_play):
    """A fold made again (``nomic rebuild``) that came out otherwise: the kept events are not reused."""
    play = make_play(day_mode="fixed")
    play_days(play)
    game, memory = Game(play.dir), SiteMemory()
    read(GameSite(game), memory)
    with Session(game.db) as s:
        last = s.exec(select(EventRow).where(col(EventRow.kind).not_in(HIDDEN_KINDS))
                      .order_by(col(EventRow.id).desc())).first()
        assert last is not None
        last.data, kind = '{"made": "again"}', last.kind
        s.add(last)
        s.commit()
    again, fresh = read(GameSite(game), memory), read(GameSite(Game(play.dir)), SiteMemory())
    assert again.events == fresh.events and again.events[-1].data == {"made": "again"}
    assert again.of_kind(kind) == fresh.of_kind(kind)
