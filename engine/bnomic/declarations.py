"""B Nomic's mail commands (CONTRACT.md "B Nomic"), each declared once.

Every line pattern starts with a literal word: the grammar only tries a pattern on a line whose
first word is one of its leading words (mailer/grammar.Grammar.first_words). The Ministries are
held in the game state, so no declaration names an office of game.toml: each handler checks who
holds the Ministry now."""
from __future__ import annotations

from engine import membership
from engine.bnomic import actions, chairman, clock, ministries, offices, players, proposals, votes
from engine.bnomic.commands import (
    ApplyCmd, FulfilledCmd, MiniMinistryCmd, RulekeeperCmd, ChairmanCmd, ChangeNameCmd, ClockCmd, ExpelCmd, ForfeitCmd, JoinCmd, ProposalCmd, RecognizeCmd, ResignCmd,
    SupportCmd, TakeCmd, UsurpCmd, VoteCmd, VotePowerCmd, WithdrawCmd,
)
from engine.commands import Declaration, Help, Line, Rest, Subject, pattern

_N = r"#?(\d{1,9})"
_A = r"(?:a|action\s+)(\d{1,9})"


def _vote(word: str, number: str | None = None) -> VoteCmd:
    return VoteCmd.model_validate({"vote": word.upper(), "number": int(number) if number else None})


_RULE = r'(\d{1,6}(?:-\d{1,6})?|"[^"]+")'


def _keep(what: str, target: str, value: str = "") -> RulekeeperCmd:
    return RulekeeperCmd.model_validate({"what": what, "target": target, "value": value})


def _revision(head: str, lines: list[str], text: str) -> ProposalCmd:
    """``Revise proposal N: TITLE``: ``head`` is ``N: TITLE``."""
    number, _, title = head.lstrip("#").partition(":")
    return ProposalCmd(title=title.strip(), text=text, revise=int(number))


COMMANDS: tuple[Declaration, ...] = (
    Declaration("join", JoinCmd, (Line(pattern(r"^join\s+as\s+(.+)$"), lambda m: JoinCmd(name=m[1])),),
                players.join, help=(Help("Become a Player named NAME: m50, 0 points, Vote Power 0.", "Join",
                                         "Join as NAME", "1-4"),)),
    Declaration("forfeit", ForfeitCmd, (Line(pattern(r"^forfeit(?:\s+the\s+game)?$"), lambda m: ForfeitCmd()),),
                players.forfeit, help=(Help("Stop being a Player, at once; your Ministries become Vacant.",
                                            "Forfeit", "Forfeit", "1-4"),)),
    Declaration("change_name", ChangeNameCmd, (
        Line(pattern(r"^change\s+name\s+from\s+(.+?)\s+to\s+(.+)$"), lambda m: ChangeNameCmd(old=m[1], new=m[2])),),
        players.change_name, help=(Help("Ask to change your name; the Registrar recognizes it.", "Name",
                                        "Change name from OLD to NEW", "1-4"),)),
    Declaration("recognize", RecognizeCmd, (
        Line(pattern(r"^(recognize|recognise)\s+name\s+change\s+of\s+(.+)$"), lambda m: RecognizeCmd(player=m[2])),),
        players.recognize, help=(Help("The Registrar: a pending name change takes effect.", "Name",
                                      "Recognize name change of PLAYER", "1-4"),)),
    Declaration("expel", ExpelCmd, (
        Line(pattern(r"^expel\s+(.+?)\s+because\s+(.+)$"), lambda m: ExpelCmd(player=m[1], reason=m[2])),),
        actions.expel, help=(Help("Expel a Player who joined within 12 ndays, with 3 supporters.", "Expel",
                                  "Expel PLAYER because REASON", "1-4, 2-9"),)),
    Declaration("support", SupportCmd, (
        Line(pattern(rf"^support\s+{_A}$"), lambda m: SupportCmd(number=int(m[1]), support=True)),
        Line(pattern(rf"^object\s+to\s+{_A}$"), lambda m: SupportCmd(number=int(m[1]), support=False))),
        actions.support, help=(Help("Support a dependent action.", "Support", "Support A3", "2-9"),
                               Help("Object to a dependent action.", "Object", "Object to A3", "2-8"))),
    Declaration("take", TakeCmd, (
        Line(pattern(r"^take\s+(.+)$"), lambda m: TakeCmd(ministry=m[1])),
        Line(pattern(r"^assign\s+(.+?)\s+to\s+myself$"), lambda m: TakeCmd(ministry=m[1]))),
        ministries.take, help=(Help("Take a Vacant Ministry.", "Ministry", "Take the Ministry of Change", "6-2"),)),
    Declaration("resign", ResignCmd, (Line(pattern(r"^resign\s+(.+)$"), lambda m: ResignCmd(ministry=m[1])),),
                ministries.resign, help=(Help("Resign a Ministry you hold.", "Ministry", "Resign MINISTRY", "6-3"),)),
    Declaration("usurp", UsurpCmd, (Line(pattern(r"^usurp\s+(.+)$"), lambda m: UsurpCmd(ministry=m[1])),),
                actions.usurp, help=(Help("Take a held Ministry unless 2 Players object within 2 rdays.", "Ministry",
                                          "Usurp MINISTRY", "6-4"),)),
    Declaration("clock", ClockCmd, (
        Line(pattern(r"^clock\s+(on|off)$"), lambda m: ClockCmd(on=m[1].lower() == "on")),
        Line(pattern(r"^(start|stop)\s+the\s+clock$"), lambda m: ClockCmd(on=m[1].lower() == "start"))),
        clock.set_clock, help=(Help("The MoM starts (no Vacant Ministry) or stops the Clock; the Chairman starts it "
                                    "after his Ballot.", "Clock", "Clock on", "2-1"),)),
    Declaration("chairman", ChairmanCmd, (
        Line(pattern(r"^publish\s+(?:the\s+)?(ballot|results)$"), lambda m: ChairmanCmd.model_validate({"what": m[1].lower()})),
        Line(pattern(r"^number\s+(?:the\s+)?proposals$"), lambda m: ChairmanCmd(what="number"))),
        chairman.act, help=(Help("The Chairman mails the list the Ballot of the Open proposals.", "Ballot",
                                 "Publish ballot", "2-1, 2-2"),
                            Help("The Chairman mails the list the last Voting's results.", "Results",
                                 "Publish results", "2-2"),
                            Help("The Chairman numbers every proposal without a number.", "Numbers",
                                 "Number proposals", "2-2"))),
    Declaration("proposal", ProposalCmd, (
        Subject(pattern(r"^\s*revise\s+proposal\s+(#?\d{1,9}\s*:.*)$"), _revision),
        Subject(pattern(r"^\s*proposal\s*:\s*(.*)$"), lambda title, lines, text: ProposalCmd(title=title, text=text))),
        proposals.propose, help=(
        Help("Submit a proposal: its Body holds change lines and prose; 'Conflicts: N' and 'Depends on: N' lines.",
             "Proposal: TITLE", "Enact rule 2-13 \"Tea\": TEXT", "2-2"),
        Help("Revise your Pending proposal N: the body replaces its Body.", "Revise proposal N: TITLE", "", "2-2"))),
    Declaration("withdraw", WithdrawCmd, (Line(pattern(rf"^withdraw\s+(?:proposal\s+)?{_N}$"),
                                               lambda m: WithdrawCmd(number=int(m[1]))),),
                proposals.withdraw, help=(Help("Withdraw your Pending proposal: Historical, Lost, scored.", "Withdraw",
                                               "Withdraw N", "2-2, 2-6"),)),
    Declaration("vote", VoteCmd, (
        Line(pattern(r"^(for|against|abstain)$"), lambda m: _vote(m[1])),
        Line(pattern(rf"^(for|against|abstain)\s+(?:proposal\s+)?{_N}$"), lambda m: _vote(m[1], m[2])),
        Line(pattern(rf"^vote\s+(for|against|abstain)\s+(?:proposal\s+)?{_N}$"), lambda m: _vote(m[1], m[2]))),
        votes.vote, help=(Help("Vote on Open proposal N; your last Vote is your Final Vote.", "Vote", "FOR 12", "2-2"),
                          Help("Vote on the proposal a reply is about.", "Re: Proposal", "AGAINST", "2-2"))),
    Declaration("vote_power", VotePowerCmd, (
        Line(pattern(r"^set\s+my\s+vote\s+power\s+to\s+(\S+)$"), lambda m: VotePowerCmd(power=m[1])),),
        votes.vote_power, help=(Help("Lower your Vote Power.", "Vote Power", "Set my vote power to 1/2", "2-2"),)),
    Declaration("apply", ApplyCmd, (
        Rest(pattern(rf"^apply\s+(?:proposal\s+)?{_N}\s*:\s*$"), lambda m, rest: ApplyCmd(number=int(m[1]), text=rest)),
        Line(pattern(rf"^applied\s+(?:proposal\s+)?{_N}\s*:\s*(.+)$"), lambda m: ApplyCmd(number=int(m[1]), note=m[2]))),
        offices.apply, help=(Help("The Chairman applies a Passed proposal's prose: change lines follow.", "Apply",
                                  "Apply 12:", "2-2"),
                             Help("The Chairman records how he applied a Passed proposal's prose.", "Apply",
                                  "Applied 12: NOTE", "2-2"))),
    Declaration("miniministry", MiniMinistryCmd, (
        Line(pattern(r'^create\s+miniministry\s+"([^"]+)"\s*:\s*(.+)$'),
             lambda m: MiniMinistryCmd(name=m[1], responsibilities=m[2])),
        Line(pattern(r'^dissolve\s+miniministry\s+"([^"]+)"$'), lambda m: MiniMinistryCmd(name=m[1]))),
        offices.miniministry, help=(Help("The MetaMin creates a MiniMinistry.", "MiniMinistry",
                                         'Create miniministry "NAME": RESPONSIBILITIES', "6-9"),
                                    Help("The MetaMin dissolves one.", "MiniMinistry", 'Dissolve miniministry "NAME"',
                                         "6-9"))),
    Declaration("rulekeeper", RulekeeperCmd, (
        Line(pattern(rf'^renumber\s+rule\s+{_RULE}\s+to\s+(\S+)$'), lambda m: _keep("renumber_rule", m[1], m[2])),
        Line(pattern(rf'^unnumber\s+rule\s+{_RULE}$'), lambda m: _keep("unnumber_rule", m[1])),
        Line(pattern(r'^create\s+section\s+(\d{1,6})\s+"([^"]+)"$'), lambda m: _keep("create_section", m[1], m[2])),
        Line(pattern(r'^renumber\s+section\s+(\d{1,6})\s+to\s+(\d{1,6})$'),
             lambda m: _keep("renumber_section", m[1], m[2])),
        Line(pattern(r'^rename\s+section\s+(\d{1,6})\s+to\s+"([^"]+)"$'), lambda m: _keep("rename_section", m[1], m[2])),
        Line(pattern(r'^remove\s+section\s+(\d{1,6})$'), lambda m: _keep("remove_section", m[1])),
        Line(pattern(rf'^move\s+rule\s+{_RULE}\s+to\s+section\s+(\d{{1,6}})$'),
             lambda m: _keep("move_rule", m[1], m[2]))),
        offices.rulekeeper, help=(Help("The Rulekeeper renumbers a rule (or Unnumber rule RULE).", "Rules",
                                       "Renumber rule 2-13 to 2-14", "1-8"),
                                  Help("The Rulekeeper creates, renumbers, renames and removes sections, and moves rules.",
                                       "Rules", 'Create section 4 "Goods"', "1-8"))),
    Declaration("fulfilled", FulfilledCmd, (
        Line(pattern(rf"^fulfilled\s+obligation\s+{_N}\s*:\s*(.*)$"),
             lambda m: FulfilledCmd(obligation=int(m[1]), note=m[2])),
        Line(pattern(r'^fulfilled\s+"([^"]+)"\s*:\s*(.+)$'),
             lambda m: FulfilledCmd(name=m[1], victors=[v for v in m[2].split(",") if v.strip()]))),
        offices.fulfilled, help=(Help("The Rulekeeper: a Victory Condition's Trigger happened; each Victor gets a "
                                      "Trophy.", "Victory", 'Fulfilled "NAME": PLAYER, PLAYER', "2-3"),
                                 Help("The obliged Minister has fulfilled obligation N.", "Obligation",
                                      "Fulfilled obligation 2: NOTE", "6-10"))),
    *membership.LIST_COMMANDS,
)
OFFICE_NOTES: tuple[Help, ...] = ()  # B Nomic's offices are Ministries, held in the game state
