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
    load: path -> loaded set-up (an object with `.setup`, `.seed`, `.path`, `.name`,
          `.description` and `.system_name`); raises GameFileError naming the file and the place.
    client: the name of the system's client module, imported by name (`client_module`) only when
          a window opens, so the command line never imports pygame for it and the shell has no
          import of any system's package. The module offers
          `open_scene(app, session) -> Scene` and, optionally, `open_replay(app, session, start=None,
          title="")` and `open_gm(app, game_scene)`.
    setup_of: loaded set-up -> what `system.initial_state` takes (default: its `.setup`).
    read_script: (script path, loaded set-up) -> commands, for `run` (default: the tactical
          command-list reader, game/cli/run.py read_commands).
    verify_links: the name ("module:function") of a check of the other saves a save of this
          system refers to, `function(save_path, record) -> [(ok, line)]` (record: the save's
          replayed game.core.record.Record), called by `replay --verify` (the campaign: the
          battles fought out, docs/scales.md). Imported by name, like `client`, so the shell's
          replay imports no system; None when its saves refer to no other save.
    """

    system: RuleSystem
    load: Callable[[Path], Any]
    client: str | None = None
    setup_of: Callable[[Any], Any] = lambda loaded: loaded.setup
    read_script: Callable[[Path, Any], list[Any]] | None = None
    verify_links: str | None = None


def _ail() -> Plugin:
    from game.rules.ail.system import SYSTEM

    def load(path: Path) -> Any:
        from game.io.scenario import load_scenario

        return load_scenario(path)

    def setup_of(loaded: Any) -> Any:
        from game.rules.ail.system import TacticalSetup

        return TacticalSetup(loaded.setup, loaded.board)

    return Plugin(SYSTEM, load, "game.client.ail.plugin", setup_of)


def _mass() -> Plugin:
    from game.rules.mass.system import SYSTEM

    def load(path: Path) -> Any:
        from game.io.mass import load_battle

        return load_battle(path)

    def read_script(path: Path, loaded: Any) -> list[Any]:
        from game.io.mass import load_mass_commands

        return load_mass_commands(path)[1]

    return Plugin(SYSTEM, load, "game.client.mass", read_script=read_script)


def _campaign() -> Plugin:
    from game.rules.campaign import SYSTEM

    def load(path: Path) -> Any:
        from game.io.campaign import load_campaign

        return load_campaign(path)

    def read_script(path: Path, loaded: Any) -> list[Any]:
        from game.io.campaign import read_script

        return read_script(path)

    return Plugin(SYSTEM, load, "game.client.campaign", read_script=read_script,
                  verify_links="game.io.bridge:replay_links")


_BUILDERS: dict[str, Callable[[], Plugin]] = {
    "ail-tactical": _ail,
    "mass-battle": _mass,
    "campaign": _campaign,
}


_BUILT: dict[str, Plugin] = {}


def _build(name: str) -> Plugin:
    if name not in _BUILT:
        _BUILT[name] = _BUILDERS[name]()
    return _BUILT[name]


@cache
def plugins() -> dict[str, Plugin]:
    return {name: _build(name) for name in _BUILDERS}


@cache
def registry() -> Registry:
    reg = Registry()
    for plugin in plugins().values():
        reg.register(plugin.system)
    return reg


def plugin_named(name: str) -> Plugin:
    """The plugin of one system, importing only that system (start-up: a tactical game never
    imports the campaign or mass-battle rules) until something asks for the whole table."""
    if name not in _BUILDERS:
        registry().get(name)  # raises UnknownSystem with the list of known ones
    if plugins.cache_info().currsize:  # the whole table was built (and may have been changed by a test)
        return plugins()[name]
    return _build(name)


def client_module(plugin: Plugin) -> Any:
    """The system's client module (None when it has no window of its own)."""
    if plugin.client is None:
        return None
    import importlib

    return importlib.import_module(plugin.client)


def links_check(plugin: Plugin) -> Callable[[Path, Any], list[tuple[bool, str]]] | None:
    """The system's check of the saves its saves refer to (Plugin.verify_links), or None."""
    if plugin.verify_links is None:
        return None
    import importlib

    module, _, name = plugin.verify_links.partition(":")
    check: Callable[[Path, Any], list[tuple[bool, str]]] = getattr(importlib.import_module(module), name)
    return check


def plugin_of_loaded(loaded: Any) -> Plugin:
    """The plugin a loaded set-up belongs to (its `system_name`; AI:L tactical by default)."""
    return plugin_named(str(getattr(loaded, "system_name", DEFAULT_SYSTEM)))


def load_setup(path: Path, data: Any = None) -> tuple[Plugin, Any]:
    """Load a set-up file with the loader of the system it names (`system:` key)."""
    plugin = plugin_named(system_of_data(data))
    return plugin, plugin.load(path)


def system_of_data(data: Any) -> str:
    """The system a parsed set-up file belongs to (its `system:` key, default AI:L tactical)."""
    if isinstance(data, Mapping):
        name = data.get("system", DEFAULT_SYSTEM)
        if isinstance(name, str):
            return name
    return DEFAULT_SYSTEM
