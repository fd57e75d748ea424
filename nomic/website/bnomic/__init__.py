"""The site of a B Nomic game: the Clock and the Ministries at a glance, the Clock with what comes
next, the Ministries with their obligations and the Victory Conditions, the Ballot with live
Stamina and Strength, each proposal with every vote, results by nweek, a page per Player, the rules
by section and a page per rule with its history, the dependent actions, consultations, the economy
and the Factions (templates: rendering/templates/bnomic/site/)."""
from nomic.website.bnomic.generators import GENERATORS
from nomic.website.bnomic.model import build_model
from nomic.website.rulesets import SiteParts

SITE = SiteParts(
    model=build_model, generators=GENERATORS,
    nav=(("index.html", "Home"), ("clock.html", "Clock"), ("ministries.html", "Ministries"),
         ("proposals/index.html", "Proposals"), ("rules/index.html", "Rules"), ("players/index.html", "Players"),
         ("actions.html", "Actions"),
         ("consultations.html", "Consultations"), ("economy.html", "Economy"), ("factions.html", "Factions"),
         ("list/index.html", "List"), ("how-to-play.html", "How to play"), ("dice.html", "Fair dice")),
    feeds=(("feeds/proposals.xml", "Proposals", "proposals"),),
    offices_heading="Commands of the Ministers")
