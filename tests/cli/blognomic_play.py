"""A BlogNomic test game through the command line, and the state JSON it must show: shared by the
games of tests/cli/test_blognomic_game.py and tests/cli/test_blognomic_five.py."""
from __future__ import annotations

from typing import Any

from engine.blognomic.ruletext import parse_rules
from storage.config import Config
from tests.cli.ruleset_play import RulesetPlay

ADMIN, ALICE, BOB, CAROL, DAVE = (f"{n}@blog.test" for n in ("admin", "alice", "bob", "carol", "dave"))
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}
TAGS = "the [Core] and [Appendix] tags a change to those rules needs"  # rule Tags' "mechanics" (CONTRACT.md)


def new_game(tmp_path, new_database_url, auto_resolve: bool = True, daily_mail: bool = False,
             start: str = "2026-01-05T00:00:00Z", admission: str = "auto") -> RulesetPlay:
    """A game made by ``nomic init --ruleset blognomic`` with the Admin its only Pactmaker; answers
    are not rate-limited (a test game writes many messages an hour). ``admission``: "auto" (a Join
    makes a Pactmaker at once) unless the game is about admission."""
    flag = {True: "true", False: "false"}
    return RulesetPlay(tmp_path / "blog", "blognomic", new_database_url(), {
        "game": {"start": f'"{start}"'}, "answers": {"per_sender_per_hour": "1000"},
        "blognomic": {"auto_resolve": flag[auto_resolve], "daily_mail": flag[daily_mail],
                      "admission": f'"{admission}"'}})


def t(day: int, hour: int, minute: int = 0, second: int = 0, month: int = 1) -> str:
    return f"2026-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z"


class Expect:
    """The state JSON the game must show, changed step by step as the rules say."""

    def __init__(self, play: RulesetPlay) -> None:
        self.play = play
        rules = parse_rules(Config.load(play.dir).rules_text())
        self.view: dict[str, Any] = {
            "ruleset": "blognomic", "edition": "149", "dynasty": 1, "hiatus": False, "quorum": 1,
            "players": [self.pactmaker(ADMIN, "admin", admin=True)], "applicants": [], "matters": [],
            "parameters": {"max_pending_proposals": 2, "max_daily_proposals": 3, "enact_hours": 12, "fail_hours": 48,
                           "stale_days": 7},
            "rules": [{"name": r.title, "section": r.section, "text": r.text, "repealed": False,
                       "mechanics": [TAGS] if r.title == "Tags" else []} for r in rules]}

    @staticmethod
    def pactmaker(email: str, name: str, admin: bool = False) -> dict[str, Any]:
        return {"email": email, "name": name, "idle": False, "admin": admin, "seraphim": False, "away_until": None}

    def check(self) -> None:
        state = self.play.state()
        assert state.keys() == self.view.keys() | {"subscribers"}  # the list: tests/cli/test_players_hear.py
        for key, value in self.view.items():  # key by key, so that a failure shows the difference
            assert state[key] == value, f"{key}: {_first_difference(state[key], value)}"

    def player(self, email: str) -> dict[str, Any]:
        return next(p for p in self.view["players"] if p["email"] == email)

    def rule(self, name: str) -> dict[str, Any]:
        """The rule in force (or, failing that, the last one) with this name."""
        named = [r for r in self.view["rules"] if r["name"] == name]
        return next((r for r in named if not r["repealed"]), named[-1])

    def open(self, number: int, kind: str, author: str, title: str, at: str) -> None:
        self.view["matters"].append({
            "number": number, "kind": kind, "author": author, "title": title, "status": "pending",
            "opened_at": at, "resolved_at": None, "self_killed": False, "vetoed": False,
            "votes": {author: "FOR"}, "tally": {"for": 1, "against": 0, "deferential": 0}})

    def matter(self, number: int) -> dict[str, Any]:
        return self.view["matters"][number - 1]

    def vote(self, number: int, voter: str, icon: str) -> None:
        """``voter``'s Vote is now ``icon`` (FOR or AGAINST; no DEFERENTIAL pending on the matter)."""
        m = self.matter(number)
        m["votes"][voter] = icon
        m["tally"] = {"for": list(m["votes"].values()).count("FOR"),
                      "against": list(m["votes"].values()).count("AGAINST"), "deferential": 0}

    def board(self, number: int, votes: dict[str, str], tally: tuple[int, int, int]) -> None:
        """Matter ``number`` shows exactly ``votes`` and the tally (for, against, deferential)."""
        self.matter(number).update(votes=votes, tally=dict(zip(("for", "against", "deferential"), tally)))

    def resolve(self, number: int, status: str, at: str) -> None:
        self.matter(number).update(status=status, resolved_at=at)


def _first_difference(got: Any, wanted: Any) -> str:
    """Where two JSON values first differ (this module is no test module: pytest does not explain
    its assertions)."""
    if isinstance(got, list) and isinstance(wanted, list) and len(got) == len(wanted):
        i = next(i for i, (a, b) in enumerate(zip(got, wanted)) if a != b)
        return f"[{i}] {_first_difference(got[i], wanted[i])}"
    if isinstance(got, dict) and isinstance(wanted, dict) and got.keys() == wanted.keys():
        k = next(k for k in got if got[k] != wanted[k])
        return f"[{k!r}] {_first_difference(got[k], wanted[k])}"
    return f"is {got!r}, expected {wanted!r}"
