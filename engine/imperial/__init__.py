"""Imperial Nomic (shared/rulesets/imperial-nomic.txt), one module per concern."""
from engine.imperial.ruleset import RULESET

__all__ = ["RULESET"]
