"""What one site's builds remember of each other, kept by whoever builds it again.

The daemon keeps one ``SiteMemory`` for as long as it runs and passes it to every rebuild;
``nomic build`` makes a fresh one. Nothing of a build is kept anywhere else: drop the memory
and the next build starts from what is on disk (the output's manifest) and in the database.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from weakref import WeakKeyDictionary, ref

from nomic.website.reader import Known
from nomic.website.text import Text
from nomic.website.writer import FamilyMemo, Output, Templates


@dataclass
class SiteMemory:
    """- ``text``: player text rendered, by source;
    - ``fingerprints``/``families``: keyed pages' fingerprints with the keys they were made from;
    - ``outputs``: what the last build of each output directory left: its manifest (with its part
      files' identities) and its directories' listings;
    - ``design``: the compiled templates and rendered fragments of the latest design;
    - ``games``: each game's visible events (in order and by kind), list posts (threaded) and public
      mail (as the archive files it) read so far (``reader.Known``);
    - ``paths``: numbered page paths, the same strings each build (compared at C speed by identity);
    - ``states``: what a ruleset's site model keeps of one game state between builds (its own
      type; nomic/website/imperial/index.py), by the state object (held weakly: game states are
      not hashable).
    """
    text: Text = field(default_factory=Text)
    fingerprints: dict[str, tuple[object, str]] = field(default_factory=dict)
    families: FamilyMemo = field(default_factory=dict)
    outputs: dict[Path, Output] = field(default_factory=dict)
    design: tuple[str, str, Templates] | None = None
    games: "WeakKeyDictionary[object, Known]" = field(default_factory=WeakKeyDictionary)
    paths: dict[str, list[str]] = field(default_factory=dict)
    states: dict[int, tuple["ref[object]", object]] = field(default_factory=dict)

    def templates(self, ruleset: str, design: str) -> Templates:
        """The templates of this design, compiled afresh when the design (or the ruleset) changed."""
        if self.design is None or self.design[:2] != (ruleset, design):
            self.design = (ruleset, design, Templates(ruleset))
        return self.design[2]

    def known(self, game: object) -> Known:
        """What the builds read of ``game`` (a ``SiteSource``'s key)."""
        return self.games.setdefault(game, Known())

    def of_state(self, state: object) -> object | None:
        """What was kept of ``state`` (``keep``), if anything."""
        kept = self.states.get(id(state))
        return kept[1] if kept is not None and kept[0]() is state else None

    def keep(self, state: object, value: object) -> None:
        """Keep ``value`` for ``state`` while it lives (what was kept of states gone is let go)."""
        self.states = {k: v for k, v in self.states.items() if v[0]() is not None}
        self.states[id(state)] = (ref(state), value)

    def numbered(self, pattern: str, n: int) -> list[str]:
        """``pattern`` (``"submissions/{}.html"``) for 1 to ``n``, made once each: the kept list itself
        when ``n`` is the most made yet (it is only added to, so the writer finds the last build's
        paths a prefix of it by identity, not by comparing them all), else a copy of its first ``n``."""
        made = self.paths.setdefault(pattern, [])
        made.extend(pattern.format(i) for i in range(len(made) + 1, n + 1))
        return made if n == len(made) else made[:n]
