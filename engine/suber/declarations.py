"""Suber's Nomic's mail commands (docs/contract.md, "Suber's Nomic"), each declared once.

Every line pattern starts with a literal word: the grammar only tries a pattern on a line whose
first word is one of its leading words (mailer/grammar.Grammar.first_words)."""
from __future__ import annotations

from engine import absence, membership
from engine.commands import Declaration, Help, Line, Subject, pattern
from engine.suber import calls, judgment, proposals, turns, voting
from engine.suber.commands import (
    CallForActionCmd, CallVoteCmd, ConsentCmd, InvokeJudgmentCmd, JoinCmd, JudgmentCmd, OverruleCmd, ProposalCmd,
    SkipVoteCmd, VoteCmd,
)

_N = r"(?:\s+#?(\d{1,9}))?"
P = "Proposal: NAME"


def _number(text: str | None) -> int | None:
    return int(text) if text else None


def _vote(word: str, number: str | None = None) -> VoteCmd:
    return VoteCmd.model_validate({"vote": word.lower(), "number": _number(number)})


COMMANDS: tuple[Declaration, ...] = (
    Declaration("join", JoinCmd, (Line(pattern(r"^join$"), lambda m: JoinCmd()),), turns.join, help=(
        Help("Join the game (before the first proposal); your place in the turn order is by surname.",
             "Join", "Join", "rule 201"),)),
    Declaration("proposal", ProposalCmd, (Subject(pattern(r"^\s*proposal\s*:\s*(.*)$"),
                                                  lambda title, lines, text: ProposalCmd(title=title, text=text)),),
                proposals.propose, help=(
        Help("Propose this turn's rule-change (only the player on turn); numbered from 301.", P,
             "Enact rule: TEXT", "rules 108, 201, 202"),
        Help("Amend a mutable rule: it takes the proposal's number.", P, "Amend rule N: TEXT", "rules 103, 108"),
        Help("Repeal a mutable rule.", P, "Repeal rule N", "rule 103"),
        Help("Transmute a rule between immutable and mutable (immutable to mutable: unanimity).", P,
             "Transmute rule N", "rules 102, 109"))),
    Declaration("call_vote", CallVoteCmd, (Line(pattern(rf"^call\s+(?:the\s+)?vote{_N}$"),
                                                 lambda m: CallVoteCmd(number=_number(m[1]))),),
                voting.call_vote, help=(
        Help("End debate on your proposal and open the vote (in a reply to its announcement, or with N).",
             "Re: Proposal: NAME", "Call vote N", "rule 111"),)),
    Declaration("vote", VoteCmd, (
        Line(pattern(r"^(yes|no)$"), lambda m: _vote(m[1])),
        Line(pattern(rf"^vote\s+(yes|no){_N}$"), lambda m: _vote(m[1], m[2]))),
        voting.vote, help=(
        Help("Vote on the proposal a reply is about; every player votes once.", "Re: Proposal: NAME", "Yes",
             "rules 105, 207"),
        Help("Vote on proposal N.", "Vote", "Vote no N", "rules 105, 207"))),
    Declaration("invoke_judgment", InvokeJudgmentCmd, (
        Subject(pattern(r"^\s*invoke\s+judge?ment\s*:\s*(.*)$"),
                lambda question, lines, text: InvokeJudgmentCmd(question=question, text=text)),),
        judgment.invoke, help=(
        Help("Invoke Judgment: the player before the one on turn judges the question.",
             "Invoke judgment: QUESTION", "", "rule 212"),)),
    Declaration("judgment", JudgmentCmd, (Line(pattern(rf"^(judgment|judgement){_N}\s*:\s*(.+)$"),
                                               lambda m: JudgmentCmd(number=_number(m[2]), text=m[3].strip())),),
                judgment.answer, help=(
        Help("The Judge's answer to the oldest open question (or question N).", "Judgment",
             "Judgment: TEXT", "rule 212"),
        Help("The Judge finds that play cannot continue: the player on turn wins, and the game ends.",
             "Judgment", "Judgment: Rule 213: REASON", "rule 213"))),
    Declaration("overrule", OverruleCmd, (Line(pattern(rf"^overrule(?:\s+judge?ment)?{_N}$"),
                                               lambda m: OverruleCmd(number=_number(m[1]))),),
                judgment.overrule, help=(
        Help("Vote to overrule the Judgment N (all players but the Judge must, before the next turn).",
             "Overruling", "Overrule N", "rule 212"),)),
    Declaration("consent", ConsentCmd, (Line(pattern(r"^consent$"), lambda m: ConsentCmd()),),
                judgment.consent, help=(
        Help("After a turn with Judgment invoked: consent to the next player's turn (a majority must).",
             "Consent", "Consent", "rule 212"),)),
    Declaration("call_for_action", CallForActionCmd, (Line(pattern(r"^call\s+for\s+action$"),
                                                           lambda m: CallForActionCmd()),),
                calls.call, help=(
        Help("A week into a turn without a proposal: call for a vote on skipping the player on turn "
             "(where the game plays rule 305).", "Call for Action", "Call for action", "rule 305"),)),
    Declaration("skip_vote", SkipVoteCmd, (Line(pattern(r"^skip\s+(yes|no)$"),
                                                lambda m: SkipVoteCmd(skip=m[1].lower() == "yes")),),
                calls.skip_vote, help=(
        Help("Vote on skipping the player on turn, two days after a Call for Action.", "Skip", "Skip yes",
             "rule 305"),)),
    *membership.LIST_COMMANDS,
    *absence.ABSENCE_COMMANDS,
)
OFFICE_NOTES: tuple[Help, ...] = ()  # Suber's Nomic has no offices
