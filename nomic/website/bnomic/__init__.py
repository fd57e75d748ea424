"""The site of a B Nomic game: the Clock and the Ministries at a glance, the Ballot with live
Stamina and Strength, each proposal with every vote, results by nweek, Players with their
attributes, the rules by section with history, the dependent actions, society and the Emergency
(templates: rendering/templates/bnomic/site/)."""
from nomic.website.bnomic.generators import GENERATORS
from nomic.website.bnomic.model import build_model
from nomic.website.bnomic.society import society
from nomic.website.rulesets import SiteParts

SITE = SiteParts(
    model=build_model, generators=(*GENERATORS, society),
    nav=(("index.html", "Home"), ("proposals/index.html", "Proposals"), ("rules/index.html", "Rules"),
         ("players/index.html", "Players"), ("actions.html", "Actions"), ("list/index.html", "List"),
         ("how-to-play.html", "How to play"), ("dice.html", "Fair dice")),
    feeds=(("feeds/proposals.xml", "Proposals", "proposals"),),
    offices_heading="Commands of the Ministers")
