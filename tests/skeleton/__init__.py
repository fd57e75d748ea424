"""A whole ruleset in a few lines, kept in the tests: Counting Nomic, whose one command ``Count``
adds ``[skeleton] step`` to the game's count and whose one event ``counted`` says so (its mail
part announces it to the list).

It has every part a ruleset needs (docs/architecture.md, "Adding a ruleset"), here as the modules
``tests.skeleton.engine`` (a package, for its ``events``), ``.mail``, ``.site`` and ``.settings``,
and the files ``defaults/skeleton.toml`` and ``rulesets/skeleton.txt``. ``SKELETON`` is its entry:
a test lists it by one line (tests/test_rulesets.py, the ``skeleton`` fixture).
"""
from engine.ruleset import Listed

SKELETON = Listed("skeleton", {"": "skeleton.txt"}, home="tests.skeleton")
