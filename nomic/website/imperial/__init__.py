"""The site of an Imperial game: submissions, scores and the ledger, Profiles, the Game Profile,
the temperature, the Bell Tower (templates: rendering/templates/imperial/site/)."""
from nomic.website.imperial.generators import GENERATORS
from nomic.website.imperial.model import build_model
from nomic.website.rulesets import Guide, SiteParts

SITE = SiteParts(
    model=build_model, generators=GENERATORS,
    nav=(("index.html", "Home"), ("rules/index.html", "Rules"), ("submissions/index.html", "Submissions"),
         ("scores.html", "Scores"), ("players/index.html", "Players"), ("game-profile.html", "Game Profile"),
         ("temperature.html", "Temperature"), ("bell-tower.html", "Bell Tower"), ("list/index.html", "List"),
         ("how-to-play.html", "How to play"), ("dice.html", "Fair dice")),
    feeds=(("feeds/submissions.xml", "Submissions", "submissions"), ("feeds/chimes.xml", "The Bell Tower", "chimes")),
    offices_heading="Commands for the Emperor and the Scribe",
    guide=Guide("Imperial Nomic", """\
K is a section of a Profile from 1 (the fat end) to 16, N a submission's
number (Proposals and Points of Order share one sequence).""", "For the Emperor (TIE) and the Scribe (THS)",
                variables=True))
