"""BlogNomic (shared/rulesets/blognomic-149.txt; edition "109"), one module per concern.

The engine is pure: state and a message (or a clock step) in, the new state and events out.

Events: one model per kind in ``events``; a matter's are caused by the matter.
"""
from engine.blognomic.ruleset import RULESET

__all__ = ["RULESET"]
