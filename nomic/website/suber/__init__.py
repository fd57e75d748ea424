"""The site of a Suber's Nomic game: the turn at a glance, proposals with their vote tables,
scores and the ledger, the rules with their numbers and history, Judgments
(templates: rendering/templates/suber/site/)."""
from nomic.website.rulesets import Guide, SiteParts
from nomic.website.suber.generators import GENERATORS
from nomic.website.suber.model import build_model

SITE = SiteParts(
    model=build_model, generators=GENERATORS,
    nav=(("index.html", "Home"), ("proposals/index.html", "Proposals"), ("rules/index.html", "Rules"),
         ("scores.html", "Scores"), ("players/index.html", "Players"), ("judgments.html", "Judgments"),
         ("list/index.html", "List"), ("how-to-play.html", "How to play"), ("dice.html", "Fair dice")),
    feeds=(("feeds/proposals.xml", "Proposals", "proposals"),),
    offices_heading="Commands of the offices",  # none: every command is a player's
    guide=Guide("Suber's Nomic", """\
N is a proposal's number (from 301) or a rule's; a bare `Call vote`, `Yes` or
`No` in a reply to a proposal's announcement acts on that proposal. Only the
player on turn may propose.""", ""))  # no offices
