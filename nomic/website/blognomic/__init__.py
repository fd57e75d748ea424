"""The site of a BlogNomic game: the queue with live vote boards, every matter with its ballots,
the ruleset by section, the dynasties, the Pactmakers (templates: rendering/templates/blognomic/site/)."""
from nomic.website.blognomic.generators import GENERATORS
from nomic.website.blognomic.model import build_model
from nomic.website.rulesets import Guide, SiteParts

SITE = SiteParts(
    model=build_model, generators=GENERATORS,
    nav=(("index.html", "Queue"), ("matters/index.html", "Matters"), ("rules/index.html", "Ruleset"),
         ("dynasties.html", "Dynasties"), ("players/index.html", "Pactmakers"), ("list/index.html", "List"),
         ("how-to-play.html", "How to play"), ("dice.html", "Dice")),
    feeds=(("feeds/matters.xml", "Votable Matters", "matters"),),
    offices_heading="Commands for the Admins and the Seraphims",
    guide=Guide("BlogNomic", """\
N is a Votable Matter's number (Proposals, Calls for Judgement and Declarations
of Victory share one sequence); a bare `FOR`, `AGAINST`, `DEFERENTIAL` or `VETO`
in a reply to a matter's announcement votes on that matter. NAME is a rule's
name as the ruleset prints it.""", "For Admins"))
