"""The composition root: which rule systems this program has, and how each one's files are
opened. Built explicitly here (nothing registers itself on import); the shell asks this table
and never imports a rule system's package.

    plugin = plugin_for_file(path)        # the system a scenario / set-up file belongs to
    plugin = plugin_named(save.header.system)
    plugin.system                          # the RuleSystem (game.core.system)
    plugin.load(path)                      # -> a loaded set-up (io, at the edge)

A file says which system it belongs to with a top-level `system:` key; a file without one is
an AI:L tactical scenario (every file made before there were several systems).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from game.core.registry import Registry
from game.core.system import RuleSystem

DEFAULT_SYSTEM = "ail-tactical"


@dataclass(frozen=True)
class Plugin:
    """One rule system as the shell sees it.

    system: the rules.
    load: path -> loaded set-up (an object with `.setup` for `initial_state`, `.seed`, `.path`,
          `.name`, `.description`); raises GameFileError naming the file and the place.
    client: a function returning the client factory `(app, session) -> Scene`, imported only when
          a window opens (so the command line never imports pygame for it).
    """

    system: RuleSystem
    load: Callable[[Path], Any]
    client: Callable[[], Callable[..., Any]] | None = None


def _ail() -> Plugin:
    from game.rules.ail.system import SYSTEM

    def load(path: Path) -> Any:
        from game.io.scenario import load_scenario

        return load_scenario(path)

    def client() -> Callable[..., Any]:
        from game.client.ail import open_scene

        factory: Callable[..., Any] = open_scene
        return factory

    return Plugin(SYSTEM, load, client)


def _campaign() -> Plugin:
    from game.rules.campaign import SYSTEM

    def load(path: Path) -> Any:
        from game.io.campaign import load_campaign

        return load_campaign(path)

    def client() -> Callable[..., Any]:
        from game.client.campaign import open_scene

        factory: Callable[..., Any] = open_scene
        return factory

    return Plugin(SYSTEM, load, client)


_BUILDERS: dict[str, Callable[[], Plugin]] = {
    "ail-tactical": _ail,
    "campaign": _campaign,
}


@cache
def plugins() -> dict[str, Plugin]:
    return {name: build() for name, build in _BUILDERS.items()}


@cache
def registry() -> Registry:
    reg = Registry()
    for plugin in plugins().values():
        reg.register(plugin.system)
    return reg


def plugin_named(name: str) -> Plugin:
    registry().get(name)  # raises UnknownSystem with the list of known ones
    return plugins()[name]


def system_of_data(data: Any) -> str:
    """The system a parsed set-up file belongs to (its `system:` key, default AI:L tactical)."""
    if isinstance(data, Mapping):
        name = data.get("system", DEFAULT_SYSTEM)
        if isinstance(name, str):
            return name
    return DEFAULT_SYSTEM
