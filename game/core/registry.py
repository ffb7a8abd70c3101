"""The table of rule systems, built explicitly (see `game.table`): nothing registers itself
on import. A save names its system; the registry finds it or says which ones exist."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from game.core.system import RuleSystem


class UnknownSystem(LookupError):
    pass


@dataclass
class Registry:
    """The rule systems the shell knows, by name."""
    _systems: dict[str, RuleSystem] = field(default_factory=dict)

    def register(self, system: RuleSystem) -> None:
        if system.name in self._systems and self._systems[system.name] is not system:
            raise ValueError(f"two rule systems are called {system.name!r}")
        self._systems[system.name] = system

    def get(self, name: str) -> RuleSystem:
        try:
            return self._systems[name]
        except KeyError:
            known = ", ".join(sorted(self._systems)) or "none"
            raise UnknownSystem(f"no rule system called {name!r} (this version knows: {known})") from None

    def __contains__(self, name: object) -> bool:
        return name in self._systems

    def __iter__(self) -> Iterator[RuleSystem]:
        return iter(self._systems.values())

    def names(self) -> list[str]:
        return list(self._systems)
