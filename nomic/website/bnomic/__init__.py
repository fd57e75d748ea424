"""The site of a B Nomic game: the Clock with what comes next, the Ministries with their
obligations and the Victory Conditions, the Ballot with live Stamina and Strength, each proposal
with every vote, results by nweek, a page per Player, the rules by section and a page per rule with
its history, the dependent actions, consultations, the economy, the Factions, society and the
Emergency (templates: rendering/templates/bnomic/site/)."""
from nomic.website.bnomic.generators import GENERATORS
from nomic.website.bnomic.model import build_model
from nomic.website.bnomic.society import society
from nomic.website.rulesets import Guide, SiteParts

SITE = SiteParts(
    model=build_model, generators=(*GENERATORS, society),
    nav=(("index.html", "Home"), ("clock.html", "Clock"), ("ministries.html", "Ministries"),
         ("proposals/index.html", "Proposals"), ("rules/index.html", "Rules"), ("players/index.html", "Players"),
         ("actions.html", "Actions"),
         ("consultations.html", "Consultations"), ("economy.html", "Economy"), ("factions.html", "Factions"),
         ("society.html", "Society"),
         ("list/index.html", "List"), ("how-to-play.html", "How to play"), ("dice.html", "Fair dice")),
    feeds=(("feeds/proposals.xml", "Proposals", "proposals"),),
    offices_heading="Commands of the Ministers",
    guide=Guide("B Nomic", """\
N is a Proposal Number (the Chairman gives them; the answer says which); a bare
`FOR`, `AGAINST` or `ABSTAIN` in a reply to a proposal's announcement votes on
that proposal. MINISTRY is `Ministry of Change`, `Minister of Change` or
`Chairman` (and so for each Ministry; `MoM` or `MetaMin` for the Ministry of
Ministry). The Ministries are held in the game, not in game.toml: a Minister's
command is checked against who holds the Ministry now.""", ""))  # its offices are in the game state
