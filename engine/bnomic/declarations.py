"""B Nomic's mail commands (CONTRACT.md "B Nomic"), each declared once.

Every line pattern starts with a literal word: the grammar only tries a pattern on a line whose
first word is one of its leading words (mailer/grammar.Grammar.first_words). The Ministries are
held in the game state, so no declaration names an office of game.toml: each handler checks who
holds the Ministry now."""
from __future__ import annotations

import re
from typing import Any

from engine import absence, membership
from engine.bnomic import (
    actions, assertions, auctions, factions, chairman, consultations, clock, emergency, goods, ministries, offices, players,
    procedure, proposals, schedule, threat, votes)
from engine.bnomic.commands import (
    ApplyCmd, FulfilledCmd, MiniMinistryCmd, RulekeeperCmd, ChairmanCmd, ChangeNameCmd, ClockCmd, ExpelCmd, ForfeitCmd, JoinCmd, ProposalCmd, RecognizeCmd, ResignCmd,
    SupportCmd, TakeCmd, UsurpCmd, VoteCmd, VotePowerCmd, WithdrawCmd, AssertCmd, AtCmd, RepeatCmd, TransactionCmd,
    AnswerCmd, ClaimCmd, ConsultationCmd, PriestCmd, ZotCmd, ExchangeCmd, GiveCmd,
    BidCmd, BlueprintCmd, BuyCmd, DeviceCmd, PriceCmd, FactionCmd, FactionVoteCmd,
    ForeignCmd, HoistCmd, MessageCmd, PanicCmd, ProcedureCmd, RefreshProposalCmd, RenumberConsultationCmd,
    TidinessCmd,
)
from engine.commands import Block, Cmd, Declaration, Help, Line, Prefix, Rest, Subject, pattern

_N = r"#?(\d{1,9})"
_A = r"(?:a|action\s+)(\d{1,9})"


def _vote(word: str, number: str | None = None) -> VoteCmd:
    return VoteCmd.model_validate({"vote": word.upper(), "number": int(number) if number else None})


# mX: bounded digits, so that every sum of amounts from mail is exact (engine/bnomic/goods.py)
_M = r"(?:m(\d{1,12}(?:\.\d{1,6})?)|(\d{1,12}(?:\.\d{1,6})?)\s+(?:mackerel|macks?))"


def _amount(m: re.Match[str], at: int) -> str:
    """The decimal of an ``_M`` match whose groups start at ``at``."""
    return m[at] or m[at + 1] or "0"


def _blueprint(name: str, lines: list[str], text: str) -> BlueprintCmd:
    """``Blueprint: NAME``; body lines ``Unique``/``Non-unique``, ``Price: mX``, ``Attribute N: V``,
    ``Property N`` (other lines are commentary)."""
    fields: dict[str, Any] = {"name": name, "attributes": {}, "properties": []}
    for ln in (ln.strip() for ln in text.split("\n")[:200]):
        if m := re.fullmatch(r"(non-?)?unique", ln, re.I):
            fields["unique"] = m[1] is None
        elif m := re.fullmatch(rf"price\s*:\s*{_M}", ln, re.I):
            fields["price"] = _amount(m, 1)
        elif m := re.fullmatch(r"attribute\s+(.{1,64}?)\s*:\s*(.{0,200})", ln, re.I):
            fields["attributes"][m[1]] = m[2]
        elif m := re.fullmatch(r"property\s+(.{1,64})", ln, re.I):
            fields["properties"].append(m[1])
    return BlueprintCmd.model_validate(fields)


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",")[:101] if n.strip()]


def _faction(name: str, lines: list[str], text: str) -> FactionCmd:
    """``Faction: NAME``; body lines ``Parties: PLAYER, PLAYER`` and ``Agreement: URL``."""
    fields: dict[str, Any] = {"what": "register", "name": name}
    for ln in (ln.strip() for ln in text.split("\n")[:200]):
        if m := re.fullmatch(r"parties\s*:\s*(.{0,2000})", ln, re.I):
            fields["parties"] = _names(m[1])
        elif m := re.fullmatch(r"agreement\s*:\s*(.{0,500})", ln, re.I):
            fields["agreement"] = m[1]
    return FactionCmd.model_validate(fields)


def _faction_vote(word: str, number: str, faction: str) -> FactionVoteCmd:
    return FactionVoteCmd.model_validate({"vote": word.upper(), "number": int(number), "faction": faction})


_RULE = r'(\d{1,6}(?:-\d{1,6})?|"[^"]+")'


def _keep(what: str, target: str, value: str = "") -> RulekeeperCmd:
    return RulekeeperCmd.model_validate({"what": what, "target": target, "value": value})


def _revision(head: str, lines: list[str], text: str) -> ProposalCmd:
    """``Revise proposal N: TITLE``: ``head`` is ``N: TITLE``."""
    number, _, title = head.lstrip("#").partition(":")
    return ProposalCmd(title=title.strip(), text=text, revise=int(number))


def _assert(what: str, subject: str = "", value: str = "") -> AssertCmd:
    return AssertCmd.model_validate({"what": what, "subject": subject, "value": value})


def _wrapped(cmd: Cmd | None) -> dict[str, Any] | None:
    return None if cmd is None else cmd.model_dump(mode="json")


_TIME = r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|the\s+(?:start|end)\s+of\s+[^:]{1,60}?)"
_ASSERTS = (
    Line(pattern(r"^assert\s+mackerel\s+of\s+(.+?)\s+is\s+(m?\d{1,12}(?:\.\d{1,6})?)$"),
         lambda m: _assert("mackerel", m[1], m[2])),
    Line(pattern(r"^assert\s+points\s+of\s+(.+?)\s+is\s+(\d{1,9})$"), lambda m: _assert("points", m[1], m[2])),
    Line(pattern(r"^assert\s+vote\s+power\s+of\s+(.+?)\s+is\s+(\d{1,9}(?:/\d{1,9}|\.\d{1,9})?)$"),
         lambda m: _assert("vote_power", m[1], m[2])),
    Line(pattern(r"^assert\s+(nday|nweek)\s+is\s+(\d{1,9})$"), lambda m: _assert(m[1].lower(), value=m[2])),
    Line(pattern(r"^assert\s+the\s+clock\s+is\s+(on|off)$"), lambda m: _assert("clock", value=m[1])),
    Line(pattern(rf"^assert\s+proposal\s+{_N}\s+is\s+(pending|open|historical|won|lost|undecided)$"),
         lambda m: _assert("proposal", m[1], m[2])),
    Line(pattern(r"^assert\s+(.+?)\s+is\s+vacant$"), lambda m: _assert("vacant", m[1])),
    Line(pattern(r"^assert\s+(.+?)\s+holds\s+(.+)$"), lambda m: _assert("holds", m[1], m[2])),
)

def _consultation(question: str, lines: list[str], text: str) -> ConsultationCmd:
    """``Consultation: QUESTION``: the body its Reasoning, but an ``Unbeliever: PLAYER`` line."""
    unbeliever = next((ln.split(":", 1)[1].strip() for ln in lines if re.match(r"^unbeliever\s*:", ln, re.I)), None)
    reasoning = "\n".join(ln for ln in text.split("\n") if not re.match(r"^\s*unbeliever\s*:", ln, re.I))
    return ConsultationCmd(question=question, reasoning=reasoning.strip(), unbeliever=unbeliever)


_YES = ("yes", "true", "affirmative", "correct")
_ANSWER = r"(yes|no|true|affirmative|correct|false|negative|incorrect)"

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
        ministries.take, help=(Help("Take a Vacant Ministry (or 'Assign MINISTRY to myself').", "Ministry",
                                    "Take the Ministry of Change", "6-2"),)),
    Declaration("resign", ResignCmd, (Line(pattern(r"^resign\s+(.+)$"), lambda m: ResignCmd(ministry=m[1])),),
                ministries.resign, help=(Help("Resign a Ministry you hold.", "Ministry", "Resign MINISTRY", "6-3"),)),
    Declaration("usurp", UsurpCmd, (Line(pattern(r"^usurp\s+(.+)$"), lambda m: UsurpCmd(ministry=m[1])),),
                actions.usurp, help=(Help("Take a held Ministry unless 2 Players object within 2 rdays.", "Ministry",
                                          "Usurp MINISTRY", "6-4"),)),
    Declaration("clock", ClockCmd, (
        Line(pattern(r"^clock\s+(on|off)$"), lambda m: ClockCmd(on=m[1].lower() == "on")),
        Line(pattern(r"^(start|stop)\s+the\s+clock$"), lambda m: ClockCmd(on=m[1].lower() == "start"))),
        clock.set_clock, help=(Help("The MoM starts the Clock (no Vacant Ministry); the Chairman starts it after his "
                                    "Ballot (or 'Start the clock').", "Clock", "Clock on", "2-1"),
                               Help("The MoM stops the Clock (or 'Stop the clock').", "Clock", "Clock off", "2-1"))),
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
        votes.vote, help=(Help("Vote FOR, AGAINST or ABSTAIN on Open proposal N (or 'Vote FOR 12'); your last Vote "
                               "is your Final Vote.", "Vote", "FOR 12", "2-2"),
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
        offices.rulekeeper, help=(
        Help("The Rulekeeper gives a rule a new number.", "Rules", "Renumber rule 2-13 to 2-14", "1-8"),
        Help("The Rulekeeper takes a rule's number away.", "Rules", "Unnumber rule 2-13", "1-8"),
        Help("The Rulekeeper creates a section.", "Rules", 'Create section 4 "Goods"', "1-8"),
        Help("The Rulekeeper renumbers a section.", "Rules", "Renumber section 4 to 7", "1-8"),
        Help("The Rulekeeper renames a section.", "Rules", 'Rename section 4 to "Trade"', "1-8"),
        Help("The Rulekeeper removes a section: its rules are in none.", "Rules", "Remove section 4", "1-8"),
        Help("The Rulekeeper moves a rule into a section.", "Rules", "Move rule 2-13 to section 4", "1-8"))),
    Declaration("fulfilled", FulfilledCmd, (
        Line(pattern(rf"^fulfilled\s+obligation\s+{_N}\s*:\s*(.*)$"),
             lambda m: FulfilledCmd(obligation=int(m[1]), note=m[2])),
        Line(pattern(r'^fulfilled\s+"([^"]+)"\s*:\s*(.+)$'),
             lambda m: FulfilledCmd(name=m[1], victors=[v for v in m[2].split(",") if v.strip()]))),
        offices.fulfilled, help=(Help("The Rulekeeper: a Victory Condition's Trigger happened; each Victor gets a "
                                      "Trophy.", "Victory", 'Fulfilled "NAME": PLAYER, PLAYER', "2-3"),
                                 Help("The obliged Minister has fulfilled obligation N.", "Obligation",
                                      "Fulfilled obligation 2: NOTE", "6-10"))),
    Declaration("consultation", ConsultationCmd, (
        Subject(pattern(r"^\s*consultation\s*:\s*(.*)$"), _consultation),), consultations.submit,
        help=(Help("Ask a yes-or-no Question; the body is its Reasoning, a line 'Unbeliever: PLAYER' names one.",
                   "Consultation: QUESTION", "", "2-5"),)),
    Declaration("priest", PriestCmd, (
        Line(pattern(rf"^priest\s+{_N}\s*:\s*(.+)$"), lambda m: PriestCmd(number=int(m[1]), player=m[2])),),
        consultations.priest, help=(Help("The Oracle selects an eligible Priest for Consultation N.", "Oracle",
                                         "Priest 3: Carol", "2-5"),)),
    Declaration("answer", AnswerCmd, (
        Rest(pattern(rf"^answer\s+{_N}\s*:\s*{_ANSWER}\s*$"),
             lambda m, rest: AnswerCmd(number=int(m[1]), yes=m[2].lower() in _YES, text=rest)),),
        consultations.answer, help=(Help("The Priest answers: the lines after are the Reasoning, those after a line "
                                         "'Oracularity:' its change lines.", "Answer", "Answer 3: YES", "2-5"),)),
    Declaration("claim", ClaimCmd, (
        Line(pattern(rf"^claim\s+{_N}\s+(consistent|inconsistent)$"),
             lambda m: ClaimCmd(number=int(m[1]), consistent=m[2].lower() == "consistent")),),
        consultations.claim, help=(Help("Claim an Answer Consistent or Inconsistent; your last claim counts.",
                                        "Claim", "Claim 3 inconsistent", "2-5"),)),
    Declaration("zot", ZotCmd, (
        Line(pattern(rf"^zot\s+{_N}$"), lambda m: ZotCmd(number=int(m[1]))),
        Line(pattern(rf"^request\s+zot\s+{_N}$"), lambda m: ZotCmd(number=int(m[1]), request=True))),
        consultations.zot, help=(Help("The Oracle ZOTs a Waiting Consultation with no Priest yet, or whose Priest "
                                      "asked.", "Oracle", "ZOT 3", "2-5"),
                                 Help("The Priest asks the Oracle to ZOT his Consultation.", "Priest",
                                      "Request ZOT 3", "2-5"))),
    Declaration("give", GiveCmd, (
        Line(pattern(rf"^give\s+{_M}\s+to\s+(.+)$"), lambda m: GiveCmd(amount=_amount(m, 1), player=m[3])),
        Line(pattern(rf"^pay\s+(.+?)\s+{_M}$"), lambda m: GiveCmd(amount=_amount(m, 2), player=m[1]))),
        goods.give, help=(Help("Give another Player some of your mackerel, exact decimals (or 'Pay Bob m10.15').",
                               "Mackerel", "Give m10.15 to Bob", "3-10"),)),
    Declaration("exchange", ExchangeCmd, (
        Line(pattern(r"^exchange\s+(\d{1,9})\s+points?\s+for\s+(?:mackerel|macks?)$"),
             lambda m: ExchangeCmd(points=int(m[1]))),),
        goods.exchange, help=(Help("Exchange points for mackerel: m5 a point.", "Mackerel",
                                   "Exchange 3 points for mackerel", "3-10, 3-11"),)),
    Declaration("blueprint", BlueprintCmd, (
        Subject(pattern(r"^\s*blueprint\s*:\s*(.{0,200})$"), _blueprint),), actions.blueprint, help=(
        Help("The Artisan creates a blueprint, unless 2 Players object within 2 ndays; body lines 'Unique' or "
             "'Non-unique', 'Price: mX', 'Attribute NAME: VALUE', 'Property NAME'.", "Blueprint: NAME", "", "3-14"),)),
    Declaration("price", PriceCmd, (
        Line(pattern(rf"^set\s+(?:the\s+)?price\s+of\s+(.+?)\s+to\s+{_M}$"),
             lambda m: PriceCmd(name=m[1], price=_amount(m, 2))),),
        actions.set_price, help=(Help("The Artisan changes a non-unique blueprint's price, unless 2 Players object "
                                      "within 2 ndays.", "Price", "Set price of Lamp to m12.5", "3-14"),)),
    Declaration("buy", BuyCmd, (Line(pattern(r"^buy\s+(?:an?\s+)?(.+)$"), lambda m: BuyCmd(name=m[1])),),
                goods.buy, help=(Help("Buy a device of a non-unique blueprint at its price.", "Device", "Buy Lamp",
                                      "3-14"),)),
    Declaration("bid", BidCmd, (
        Line(pattern(rf"^bid\s+{_M}\s+on\s+(.+)$"), lambda m: BidCmd(amount=_amount(m, 1), name=m[3])),),
        auctions.bid, help=(Help("Bid on a unique blueprint until the start of Zarpint; the highest bidder buys "
                                 "it then (or after a grace nday).", "Bid", "Bid m60 on Crown", "3-14"),)),
    Declaration("device", DeviceCmd, (
        Line(pattern(rf"^give\s+device\s+{_N}\s+to\s+(.+)$"), lambda m: DeviceCmd(number=int(m[1]), player=m[2])),
        Line(pattern(rf"^destroy\s+device\s+{_N}$"), lambda m: DeviceCmd(number=int(m[1])))),
        goods.device, help=(Help("Give your device to another Player.", "Device", "Give device 3 to Bob", "3-12"),
                            Help("Destroy your device.", "Device", "Destroy device 3", "3-12"))),
    Declaration("faction", FactionCmd, (
        Subject(pattern(r"^\s*faction\s*:\s*(.{0,200})$"), _faction),
        Line(pattern(r"^parties\s+of\s+(.+?)\s*:\s*(.{1,2000})$"),
             lambda m: FactionCmd(what="parties", name=m[1], parties=_names(m[2]))),
        Line(pattern(r"^dissolve\s+faction\s+(.+)$"), lambda m: FactionCmd(what="dissolve", name=m[1])),
        Line(pattern(r"^give\s+(?:my\s+)?allegiance\s+to\s+(.+)$"), lambda m: FactionCmd(what="allegiance", name=m[1]))),
        factions.act, help=(
        Help("Register an Agreement you are a party to as a Faction; you are its agent. Body lines "
             "'Parties: PLAYER, PLAYER' and 'Agreement: URL'.", "Faction: NAME", "", "5-1, 5-2"),
        Help("The agent changes the Faction's parties.", "Agent", "Parties of Guild: Alice, Bob", "5-2"),
        Help("The agent dissolves the Faction.", "Agent", "Dissolve faction Guild", "5-2"),
        Help("A party gives the Faction his Allegiance (ndays 1 to 8, once a nweek): its Vote Power +1, his 0 "
             "from Ballotday.", "Allegiance", "Give allegiance to Guild", "5-3, 2-7"))),
    Declaration("faction_vote", FactionVoteCmd, (
        Line(pattern(rf"^(for|against|abstain)\s+(?:proposal\s+)?{_N}\s+as\s+(.+)$"),
             lambda m: _faction_vote(m[1], m[2], m[3])),
        Line(pattern(rf"^vote\s+(for|against|abstain)\s+(?:proposal\s+)?{_N}\s+as\s+(.+)$"),
             lambda m: _faction_vote(m[1], m[2], m[3])),
        Line(pattern(r"^set\s+(?:the\s+)?vote\s+power\s+of\s+(.+?)\s+to\s+(\S+)$"),
             lambda m: FactionVoteCmd(faction=m[1], power=m[2]))),
        factions.vote, help=(Help("The agent casts the Faction's Vote (or 'FOR 12 as Guild').", "Agent",
                                  "Vote FOR 12 as Guild", "5-3"),
                             Help("The agent lowers the Faction's Vote Power.", "Agent",
                                  "Set vote power of Guild to 1/2", "2-2"))),
    Declaration("renumber_consultation", RenumberConsultationCmd, (
        Line(pattern(rf"^renumber\s+consultation\s+{_N}\s+to\s+{_N}$"),
             lambda m: RenumberConsultationCmd(number=int(m[1]), to=int(m[2]))),),
        consultations.renumber, help=(Help("The Oracle gives a new Consultation, before its Priest is selected, a "
                                           "number of his liking.", "Oracle", "Renumber consultation 3 to 7",
                                           "2-5"),)),
    Declaration("tidiness", TidinessCmd, (
        Subject(pattern(r"^\s*tidiness\s+list\s*:?\s*(.{0,200})$"), lambda title, lines, text: TidinessCmd(text=text)),),
        actions.tidiness_list, help=(Help("Correct trivial errors in the rules, unless a Player objects within 5 "
                                          "ndays: body lines 'Rule 2-5: \"WRONG\" -> \"RIGHT\"'; a point per 3 "
                                          "corrected.", "Tidiness List", "", "3-9"),)),
    Declaration("foreign", ForeignCmd, (
        Line(pattern(r"^foreign\s+action\s*:\s*(.{1,2000})$"), lambda m: ForeignCmd(text=m[1])),
        Line(pattern(r"^relation\s+with\s+(.{1,100}?)\s*:\s*(.{1,2000})$"),
             lambda m: ForeignCmd(nomic=m[1], text=m[2]))),
        actions.foreign, help=(Help("The Ambassador acts for B Nomic in another Nomic, with 2 supporters and "
                                    "without objection within 2 ndays.", "Foreign Relations",
                                    "Foreign action: TEXT", "2-10"),
                               Help("The Ambassador records B Nomic's relation with another Nomic.",
                                    "Foreign Relations", "Relation with Agora: TEXT", "2-10"))),
    Declaration("motnw", MessageCmd, (
        Line(pattern(r"^set\s+the\s+message\s+of\s+the\s+nweek\s*(?:to\s*)?:\s*(.+)$"),
             lambda m: MessageCmd(text=m[1])),),
        actions.message, help=(Help("The Registrar changes the Message of the nweek, with 1 supporter, once an "
                                    "nweek.", "Message", "Set the message of the nweek: TEXT", "3-16"),)),
    Declaration("hoist", HoistCmd, (
        Line(pattern(r"^hoist\s+the\s+(.+?)\s+flag$"), lambda m: HoistCmd(flag=m[1])),
        Line(pattern(r"^set\s+the\s+threat\s+flag\s+to\s+(.+)$"), lambda m: HoistCmd(flag=m[1]))),
        threat.hoist, help=(Help("The MoM changes the Threat Flag, at most once per nday (never to Black Watch "
                                 "Plaid; or 'Set the Threat Flag to Polka Dots').", "Threat Flag",
                                 "Hoist the Polka Dots flag", "3-17"),)),
    Declaration("panic", PanicCmd, (
        Line(pattern(r"^(hit|stop)\s+my\s+panic\s+button$"), lambda m: PanicCmd(on=m[1].lower() == "hit")),
        Line(pattern(r"^i\s+am\s+(hitting|stopping)\s+my\s+panic\s+button$"),
             lambda m: PanicCmd(on=m[1].lower() == "hitting"))),
        emergency.press, help=(Help("A PEP turns his Panic Button On (or 'I am hitting my Panic Button'); four On "
                                    "make a State of Emergency.",
                                    "Panic Button", "Hit my Panic Button", "0"),
                               Help("A PEP turns his Panic Button Off (or 'I am stopping my Panic Button').",
                                    "Panic Button", "Stop my Panic Button", "0"))),
    Declaration("procedure", ProcedureCmd, (
        Line(pattern(r"^(organize|organise)\s+the\s+procedure$"), lambda m: ProcedureCmd(what="organize")),
        Line(pattern(r"^emergency\s+forum\s*:\s*(.+)$"), lambda m: ProcedureCmd(what="forum", text=m[1])),
        Line(pattern(r"^(initialize|initialise)\s+the\s+pause$"), lambda m: ProcedureCmd(what="initialize")),
        Line(pattern(r"^increment\s+the\s+pause$"), lambda m: ProcedureCmd(what="increment")),
        Line(pattern(r"^object\s+to\s+the\s+increment$"), lambda m: ProcedureCmd(what="object")),
        Line(pattern(rf"^refresh\s+vote\s+{_N}$"), lambda m: ProcedureCmd(what="vote", number=int(m[1]))),
        Line(pattern(rf"^select\s+refresh\s+proposal\s+{_N}$"),
             lambda m: ProcedureCmd(what="select", number=int(m[1]))),
        Line(pattern(rf"^applied\s+refresh\s+{_N}\s*:\s*(.+)$"),
             lambda m: ProcedureCmd(what="applied", number=int(m[1]), text=m[2]))),
        procedure.act, help=(
        Help("A PEP with no Emergency Coordinator yet becomes it.", "Emergency", "Organize the Procedure", "0"),
        Help("The Emergency Coordinator names the Emergency Forum; every PEP is told.", "Emergency",
             "Emergency forum: TEXT", "0"),
        Help("The Emergency Coordinator initializes the Pause: 0, then +1 at every 00:00 UTC.", "Emergency",
             "Initialize the Pause", "0"),
        Help("The Emergency Coordinator, once a day: the Pause +1 in 24 hours unless a PEP objects.", "Emergency",
             "Increment the Pause", "0"),
        Help("A PEP stops the announced increment.", "Emergency", "Object to the increment", "0"),
        Help("A PEP's single vote in the current Ballot's round.", "Emergency", "Refresh vote 2", "0"),
        Help("The Emergency Coordinator selects one of a second round's tied Refresh Proposals.", "Emergency",
             "Select refresh proposal 2", "0"),
        Help("The Emergency Coordinator records how he implemented a selected Refresh Proposal's prose.",
             "Emergency", "Applied refresh 2: NOTE", "0"))),
    Declaration("refresh_proposal", RefreshProposalCmd, (
        Subject(pattern(r"^\s*refresh\s+proposal\s*:\s*(.{0,200})$"),
                lambda title, lines, text: RefreshProposalCmd(title=title, text=text)),),
        procedure.submit, help=(Help("A PEP's one Refresh Proposal in an Emergency, before the first Ballot: the "
                                     "body its change lines.", "Refresh Proposal: TITLE", "", "0"),)),
    # A Transaction and a Repeat run the commands they wrap: the ruleset performs them (ruleset.perform)
    Declaration("transaction", TransactionCmd, (
        Block(pattern(r"^begin\s+transaction$"), pattern(r"^end\s+transaction$"),
              lambda inner, unread: TransactionCmd(lines=[c.model_dump(mode="json") for c in inner], unread=unread)),),
        None, help=(Help("All or nothing: the lines between are done only if every one is legal and every "
                         "Assert true; else none is.", "Transaction",
                         "BEGIN TRANSACTION\nGive m10 to Bob\nAssert mackerel of Bob is m60\nEND TRANSACTION",
                         "1-16"),)),
    Declaration("assert", AssertCmd, _ASSERTS, assertions.outside, help=(
        Help("In a Transaction: it fails unless this is so; also 'Assert mackerel of PLAYER is m60', 'Assert vote "
             "power of PLAYER is 1/2', 'Assert nday is 9', 'Assert nweek is 2', 'Assert the clock is on' (or off), "
             "'Assert PLAYER holds MINISTRY', 'Assert MINISTRY is vacant', 'Assert proposal 12 is open' (pending, "
             "historical, won, lost, undecided).",
             "Transaction", "Assert points of Alice is 3", "1-16"),)),
    Declaration("repeat", RepeatCmd, (
        Prefix(pattern(r"^repeat\s+(\d{1,9})\s+times?\s*:\s*(.+)$"),
               lambda m, inner: RepeatCmd(times=int(m[1]), command=_wrapped(inner), text=m[2])),),
        None, help=(Help("Take an action N times, each if legal (at most 20).", "Repeat", "Repeat 3 times: LINE",
                         "1-10"),)),
    Declaration("at", AtCmd, (
        Prefix(pattern(rf"^at\s+{_TIME}\s*:\s*(.+)$"),
               lambda m, inner: AtCmd(when=m[1], command=_wrapped(inner), text=m[2])),),
        schedule.announce, help=(Help("Take an action later, judged then: TIME is 2026-01-09T12:00:00Z or the "
                                      "start/end of nday N [of nweek W].", "At", "At the start of nday 9: LINE",
                                      "1-10"),)),
    *membership.LIST_COMMANDS,
    *absence.ABSENCE_COMMANDS,
)
OFFICE_NOTES: tuple[Help, ...] = ()  # B Nomic's offices are Ministries, held in the game state
