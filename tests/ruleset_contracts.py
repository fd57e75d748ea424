"""Import contracts that follow from the one list of rulesets (engine/ruleset.RULESETS), so that a
ruleset added to the list is guarded with no edit of pyproject.toml, which names these classes
(``[tool.importlinter] contract_types``; ``lint-imports`` runs them, from the repository's root).

- ``RulesetsArePlugIns``: no listed ruleset's parts (engine, mail, site, settings) import any
  other listed ruleset's parts (direct imports; a ruleset may import the generic code, which
  imports none).
- ``GenericEngine``: no module of ``engine/`` but the rulesets' own packages imports a listed
  ruleset, directly or through others (``engine/ruleset.py`` imports them by name, on demand).

Both use import-linter's documented interface for contract types of one's own (``Contract``,
``ContractCheck``, ``output``) and grimp's graph queries.
"""
from __future__ import annotations

from collections.abc import Iterable

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain.contract import Contract, ContractCheck

from engine import ruleset

PARTS = ("engine", "mail", "site", "settings")  # a ruleset's parts that live in the linted packages


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def plug_in_breaches(graph: ImportGraph, entries: Iterable[ruleset.Listed]) -> list[str]:
    """Each direct import of one listed ruleset's part from another's: "importer -> imported"."""
    parts = {entry.name: [entry.module(p) for p in PARTS] for entry in entries}  # type: ignore[arg-type]
    found = []
    for name, own in parts.items():
        others = [m for other, modules in parts.items() if other != name for m in modules]
        for module in sorted(m for m in graph.modules if any(_inside(m, p) for p in own)):
            found += [f"{module} -> {target}" for target in sorted(graph.find_modules_directly_imported_by(module))
                      if any(_inside(target, o) for o in others)]
    return found


def generic_breaches(graph: ImportGraph, entries: Iterable[ruleset.Listed]) -> list[str]:
    """Each module of the generic engine that imports a listed ruleset's engine, with the chain."""
    engines = [entry.module("engine") for entry in entries]
    generic = sorted(m for m in graph.find_children("engine") if m not in engines)
    chains = [graph.find_shortest_chain(importer=m, imported=e, as_packages=True) for m in generic
              for e in engines if e in graph.modules]
    return [" -> ".join(chain) for chain in chains if chain]


class _Derived(Contract):
    """A contract whose modules come from the list of rulesets; it takes no options of its own."""

    def breaches(self, graph: ImportGraph) -> list[str]:
        raise NotImplementedError

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        found = self.breaches(graph)
        return ContractCheck(kept=not found, metadata={"breaches": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for breach in check.metadata["breaches"]:
            output.print_error(f"-   {breach}", bold=False)
        output.new_line()


class RulesetsArePlugIns(_Derived):
    def breaches(self, graph: ImportGraph) -> list[str]:
        return plug_in_breaches(graph, ruleset.RULESETS)


class GenericEngine(_Derived):
    def breaches(self, graph: ImportGraph) -> list[str]:
        return generic_breaches(graph, ruleset.RULESETS)
