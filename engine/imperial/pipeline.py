"""Ordered lists of steps that rule modules extend: the judgment and day-end pipelines.

A step is a plain function; a pipeline is a plain list run in order. A rule
module registers its step once, at import time, relative to a named step of
the owning module, so the order stays the order the rules ask for.
"""
from __future__ import annotations

from typing import TypeVar

Step = TypeVar("Step")


def insert_step(steps: list[Step], step: Step, *, before: Step | None = None,
                after: Step | None = None) -> None:
    """Put ``step`` into ``steps`` before or after an existing step (else at the end); idempotent."""
    if step in steps:
        return
    if before is not None:
        steps.insert(steps.index(before), step)
    elif after is not None:
        steps.insert(steps.index(after) + 1, step)
    else:
        steps.append(step)
