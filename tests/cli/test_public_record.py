"""Anyone can check the game: ``nomic export --public`` writes the record, ``nomic verify`` checks it
(chain, head, replay to the published state, and the draws once the seed is revealed) and names
the first entry that does not check; nothing private is in it."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nomic.cli import app
from nomic.public_record import canonical, link_hash
from tests.cli.test_demo_rulesets import Demo
from tests.site.game import play_days
from tests.support import EMPEROR, Play, at, make_mail

OLD_RELEASE = Path(__file__).resolve().parent.parent / "fixtures" / "old-release"
PRIVATE = ("Received", "203.0.113.9", "DKIM-Signature", "open sesame", "hidden@bcc.test",
           "private.test", "Secret Stranger")  # a stranger who wrote to the Scribe alone (send_private)


def verify(out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["verify", str(out), *extra], catch_exceptions=False)
    return result.exit_code, result.output


def export(play: Play, out: Path) -> str:
    return play.cli("export", "--public", str(out))


def send_private(play: Play, at_: str) -> None:
    """A mail with what must never be published: a Received line with an IP, a DKIM signature,
    a passphrase line and a Bcc recipient in the envelope."""
    raw = make_mail(EMPEROR, "judgment", "Passphrase: open sesame\nnothing to judge", to=play_address(play),
                    headers={"Received": "from mx.test ([203.0.113.9]) by ths.test",
                             "DKIM-Signature": "v=1; a=rsa-sha256; d=imperial.test; b=AAAA"})
    path = play.dir.parent / "private.eml"
    path.write_bytes(raw)
    play.cli("ingest", "--at", at_, str(path))
    for n, (subject, body) in enumerate([("Subscribe", ""), ("hello?", "Who runs this game?"),
                                         ("judgment", "Accept 1")]):  # refused (Imperial: the Emperor's)
        stranger = play.dir.parent / f"stranger{n}.eml"  # issue 32: their From address is never published
        stranger.write_bytes(make_mail("someone@private.test", subject, body, to=play_address(play),
                                       name="Secret Stranger", message_id=f"s{n}@private.test"))
        play.cli("ingest", "--at", at_, str(stranger))


def play_address(play: Play) -> str:
    return getattr(play, "address", "ths@imperial.test")


def imperial(make_play) -> Play:
    play = make_play(day_mode="fixed")
    play_days(play)
    return play


@pytest.mark.parametrize("ruleset", ["imperial", "blognomic", "suber"])
def test_a_played_game_exports_verifies_and_names_the_one_altered_entry(ruleset, make_play, tmp_path):
    play = imperial(make_play) if ruleset == "imperial" else Demo(tmp_path, ruleset)
    if ruleset != "imperial":
        play.tick("2026-01-06T13:00:00Z")
    send_private(play, "2026-01-07T01:00:00Z")
    out = tmp_path / "public"
    head = re.fullmatch(r".*: (\d+) entries, head ([0-9a-f]{64})\n", export(play, out))
    assert head is not None
    count, digest = int(head[1]), head[2]
    code, said = verify(out, "--head", digest)
    assert code == 0, said
    assert said.startswith(f"{count} entries check, head {digest}; the replay reaches the published state")
    assert said.endswith(f"; {digest} is the record's head after entry {count}\n")
    published = (out / "record.jsonl").read_text() + (out / "game.json").read_text()
    assert [p for p in PRIVATE if p in published] == []
    state = play.state()
    assert "someone@private.test" in [s["email"] for s in state.pop("subscribers")]  # the list's roster: private
    assert json.loads((out / "game.json").read_text())["state"] == state

    lines = (out / "record.jsonl").read_bytes().splitlines(keepends=True)
    mail = next(i for i, line in enumerate(lines) if b'"subject":"' in line and i > 0)
    seq = json.loads(lines[mail])["seq"]
    cut = lines[mail].index(b'"subject":"') + len(b'"subject":"')
    lines[mail] = lines[mail][:cut] + bytes([lines[mail][cut] ^ 1]) + lines[mail][cut + 1:]  # one byte
    (out / "record.jsonl").write_bytes(b"".join(lines))
    code, said = verify(out)
    assert (code, said) == (1, f"nomic: entry {seq} does not check: its content does not hash to "
                               f"{json.loads(lines[mail])['hash']}\n")


def test_a_players_mail_without_a_command_keeps_their_address(tmp_path):
    """A player's "thanks" (no command) keeps them from being idled for seven days: the record shows
    who wrote it (unlike a stranger's), so that the replay refuses the Admin's Idle as the game did."""
    play = Demo(tmp_path, "blognomic")  # Bob joined and voted on 2026-01-05
    for n, (sender, subject, body, at_) in enumerate([
            ("bob@blog.test", "thanks", "Lovely cake.", "2026-01-11T00:00:00Z"),
            ("admin@blog.test", "idling", "Idle bob@blog.test", "2026-01-12T02:00:00Z")]):
        path = tmp_path / f"m{n}.eml"
        path.write_bytes(make_mail(sender, subject, body, to=play_address(play), message_id=f"m{n}@b.test"))
        play.cli("ingest", "--at", at_, str(path))
    assert not next(p for p in play.state()["players"] if p["email"] == "bob@blog.test")["idle"]
    out = tmp_path / "public"
    export(play, out)
    code, said = verify(out)
    assert code == 0, said
    inputs = [json.loads(line)["input"] for line in (out / "record.jsonl").read_text().splitlines()]
    thanks = next(i for i in inputs if i and i.get("subject") == "thanks")
    assert (thanks["sender"], thanks["message_id"]) == ("bob@blog.test", "m0@b.test")


def test_the_head_a_daily_mail_named_is_checked_and_a_wrong_head_or_state_is_named(make_play, tmp_path):
    play = imperial(make_play)
    out = tmp_path / "public"
    export(play, out)
    chime = next(m["text"] for m in play.outbox() if m["kind"] == "chime")
    seq, journal_head = re.search(r"Journal head after entry (\d+):\n  ([0-9a-f]{64})", chime).groups()
    code, said = verify(out, "--head", journal_head)
    assert code == 0 and said.endswith(f"; {journal_head} is the journal's head after entry {seq}\n")
    assert verify(out, "--head", "f" * 64) == (1, f"nomic: no entry of the record has the head {'f' * 64}\n")
    game = json.loads((out / "game.json").read_text())
    game["state"]["players"][0]["score"] += 1
    (out / "game.json").write_text(json.dumps(game))
    assert verify(out) == (1, f"nomic: the replay after all {game['entries']} entries differs from the "
                              "published state in: players\n")


@pytest.mark.parametrize("ruleset", ["blognomic", "suber", "bnomic"])
def test_every_rulesets_daily_mail_names_a_head_verify_checks(ruleset, tmp_path):
    """Issue 32: the daily mail of every ruleset names the journal's head and its entry count, as
    Imperial's chime does, and ``nomic verify --head`` checks it against the export."""
    play = Demo(tmp_path, ruleset)
    play.tick("2026-01-07T00:00:00Z")
    daily = [m["text"] for m in play.outbox() if m["kind"] == "daily"]
    assert daily, [m["kind"] for m in play.outbox()]
    seq, journal_head = re.search(r"\nJournal head after entry (\d+):\n  ([0-9a-f]{64})\n", daily[-1]).groups()
    out = tmp_path / "public"
    export(play, out)
    code, said = verify(out, "--head", journal_head)
    assert code == 0 and said.endswith(f"; {journal_head} is the journal's head after entry {seq}\n"), said


def test_a_revealed_seed_re_derives_every_draw_and_a_forged_draw_is_named(make_play, tmp_path):
    play = imperial(make_play)
    toml = play.dir / "game.toml"
    toml.write_text(toml.read_text().replace('seed = "test-seed"', 'seed = "test-seed"\nreveal_seed = true'))
    out = tmp_path / "public"
    export(play, out)
    code, said = verify(out)
    draws = sum(len(json.loads(line)["draws"]) for line in (out / "record.jsonl").read_text().splitlines())
    assert draws > 0 and code == 0
    assert said.endswith(f"; {draws} draws each re-derived from the revealed seed\n")

    # a forger who rewrites a draw and every hash after it: the revealed seed still catches it
    records = [json.loads(line) for line in (out / "record.jsonl").read_text().splitlines()]
    forged = next(r for r in records if r["draws"])
    label, low, high, result = forged["draws"][0]
    forged["draws"][0][3] = low if result != low else high
    prev = records[0]["prev"]
    for r in records:
        r["prev"] = prev
        r["hash"] = prev = link_hash(r)
    (out / "record.jsonl").write_bytes(b"".join(canonical(r) + b"\n" for r in records))
    code, said = verify(out)
    assert code == 1 and said.startswith(f"nomic: entry {forged['seq']} does not check: draw {label!r} is "), said


def test_verify_refuses_what_is_not_a_record(tmp_path):
    assert verify(tmp_path) == (1, f"nomic: cannot read the record in {tmp_path}: [Errno 2] No such file or "
                                   f"directory: '{tmp_path / 'game.json'}'\n")


def test_a_game_of_an_unknown_ruleset_is_refused_in_one_line(make_play, tmp_path):
    play = make_play(day_mode="fixed")
    out = tmp_path / "public"
    export(play, out)
    game = json.loads((out / "game.json").read_text())
    game["config"]["ruleset"] = "calvinball"
    (out / "game.json").write_text(json.dumps(game))
    code, said = verify(out)
    assert code == 1 and said.startswith("nomic: game.json does not describe a game this package can replay: "
                                         "ValueError(\"unknown ruleset 'calvinball'"), said


def test_an_unreadable_line_is_named_by_its_place(make_play, tmp_path):
    play = imperial(make_play)
    out = tmp_path / "public"
    export(play, out)
    lines = (out / "record.jsonl").read_bytes().splitlines(keepends=True)
    lines[2] = b"{" + lines[2][1:].replace(b"{", b"[", 1)
    (out / "record.jsonl").write_bytes(b"".join(lines))
    assert verify(out) == (1, "nomic: the entry on line 3 of record.jsonl does not check: it is not readable\n")


def footer_head(site: Path) -> tuple[int, str]:
    found = re.search(r"Public record after entry (\d+) \(the last clock step\): head <code class=\"hash\">([0-9a-f]{64})",
                      (site / "how-to-play.html").read_text())
    assert found is not None
    return int(found[1]), found[2]


def test_every_page_names_the_head_of_the_last_clock_step_and_verify_checks_it(make_play, tmp_path):
    play = imperial(make_play)
    site, out = tmp_path / "site", tmp_path / "public"
    play.cli("build", "--out", str(site))
    count, digest = footer_head(site)
    assert f'head <code class="hash">{digest}</code>' in (site / "index.html").read_text()
    play.send("alice@wonder.land", "Proposal: Later", "More.", at=at(4, 5))
    play.cli("build", "--out", str(site))
    assert footer_head(site) == (count, digest)  # a mail does not rewrite every page; a clock step does
    play.tick(at(5, 0))
    play.cli("build", "--out", str(site))
    later = footer_head(site)
    assert later[0] == count + 2 and later[1] != digest
    export(play, out)
    code, said = verify(out, "--head", digest)
    assert code == 0 and said.endswith(f"; {digest} is the record's head after entry {count}\n"), said


def test_a_game_of_the_previous_release_exports_and_verifies_as_it_is(tmp_path):
    """No migration of the chain: its record is derived from the journal it has (docs/operating.md)."""
    game = tmp_path / "game"
    game.mkdir()
    for name in ("game.toml", "game.db"):
        shutil.copy(OLD_RELEASE / name, game / name)
    play = Play.existing(game)
    play.cli("upgrade")
    out = tmp_path / "public"
    count = int(re.search(r": (\d+) entries, head", export(play, out))[1])
    code, said = verify(out)
    assert count > 10 and code == 0 and said.startswith(f"{count} entries check, head "), said


def test_an_address_the_settings_name_keeps_it_on_mail_before_any_move(tmp_path):
    """An address the settings name (here a first player of Suber's) is public already: its first mail,
    no move, shows who wrote it."""
    play = Demo(tmp_path, "suber")  # the settings name Suber's first players; Carol has not written yet
    first = "carol@suber.test"
    path = tmp_path / "hello.eml"
    path.write_bytes(make_mail(first, "hello", "Lovely game.", to=play_address(play), message_id="h@s.test"))
    play.cli("ingest", "--at", "2026-01-11T00:00:00Z", str(path))
    out = tmp_path / "public"
    export(play, out)
    inputs = [json.loads(line)["input"] for line in (out / "record.jsonl").read_text().splitlines()]
    hello = next(i for i in inputs if i and i.get("subject") == "hello")
    assert (hello["sender"], hello["message_id"]) == (first, "h@s.test")
