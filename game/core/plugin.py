"""How a rule system plugs into the program, and the table of the systems it has.

Each system's folder builds one `Plugin` in its `plugin.py`; the composition root
(`game/table.py`) lists them in a `Table` and the entry point hands that table to whatever needs to
find a system by name (the window, the replay, the command line). Nothing registers itself on
import, and nothing below the table imports it: the shell, the replay and the file formats are
given it.

    plugin = table.plugin_named(save.header.system)
    plugin.system                 # the RuleSystem (game.core.system), built on first use
    plugin.load(path)             # -> the loaded set-up (io, at the edge)
    plugin.client()               # -> the system's window: open_scene / open_replay / open_gm
    plugin.picture(loaded, state, PictureOptions())   # -> `render`'s image (no window)

A set-up file says which system it belongs to with a top-level `system:` key; a file without
one belongs to the table's default system (AI:L tactical: every file made before there were
several systems).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

from game.core.ai import PlayerFactory
from game.core.registry import Registry, UnknownSystem
from game.core.system import RuleSystem

# register(subparsers) adds one command to the command line (argparse's sub-parsers object).
Register = Callable[[Any], None]
# (table, save path, the save's replayed Record) -> [(ok, line)]: the saves a save refers to.
LinksCheck = Callable[["Table", Path, Any], list[tuple[bool, str]]]


@dataclass(frozen=True)
class FileKinds:
    """A system's own data files, for `validate` and for telling what a file is.

    kinds: the kinds `sniff` may answer.
    sniff: the parsed YAML of a file -> the kind of file of this system it is ('mass-battle',
        'campaign-orders', ...), or '' when it is not one of this system's.
    check: (path, kind) -> one line saying what the file holds; raises GameFileError or
        UserError naming the file and the place when it is wrong.
    setups: which of `kinds` are the system's set-up files (what its Plugin.load reads and
        `play` opens; `render` draws them with Plugin.picture).
    """

    kinds: tuple[str, ...]
    sniff: Callable[[Any], str]
    check: Callable[[Path, str], str]
    setups: tuple[str, ...] = ()


@dataclass(frozen=True)
class PictureOptions:
    """What `render` asks of a system's picture (Plugin.picture).

    scale: zoom factor (1: the map's own pixel size). grid: outline every hex. units: draw the
    counters (units, armies, forces). max_pixels: the largest image to make; a picture that
    would be larger raises UserError saying so before drawing anything.
    """

    scale: float = 1.0
    grid: bool = False
    units: bool = True
    max_pixels: int = 80_000_000


# (loaded set-up, the game's state or None for the set-up as it starts, options) -> the image, a
# pygame Surface (a system's io draws it headless; the core imports no pygame).
Picture = Callable[[Any, Any, PictureOptions], Any]


class SystemClient(Protocol):
    """What a system's window offers the shell (its module or any object with these). Only
    `open_scene` is required; `open_replay` and `open_gm` are looked up when asked for."""

    def open_scene(self, app: Any, session: Any) -> Any: ...


def _setup_attribute(loaded: Any) -> Any:
    return loaded.setup


@dataclass(frozen=True, eq=False)
class Plugin:
    """One rule system as the program sees it.

    name: the system's name, as saves and set-up files write it (`RuleSystem.name`).
    rules: () -> the RuleSystem. A function so that the command line and the window import a
          system's rules only when a game of it opens (start-up time).
    load: path -> the loaded set-up (an object with `.setup`, `.seed`, `.path`, `.name`,
          `.description` and `.system_name`); raises GameFileError naming the file and the place.
    client: () -> the system's window (SystemClient), or None when it has none. Called only when
          a window opens, so the command line never imports pygame for it.
    setup_of: loaded set-up -> what `system.initial_state` takes (default: its `.setup`).
    read_script: (script path, loaded set-up) -> commands, for `run` (None: the tactical
          command-list reader).
    verify_links: the check of the other saves a save of this system refers to, called by
          `replay --verify` (the campaign: its battles fought out, docs/scales.md); None when its
          saves refer to no other save. Wired by the table (it may live above the system).
    commands: the system's own command-line commands, name -> () -> register(subparsers).
    files: the system's own kinds of data file (FileKinds), beside its set-up files.
    picture: draws a set-up or a saved game of this system for `render` (Picture); None when it
          has no picture (`render` says so).
    players: the system's computer players, level name ("random", "easy", "hard") -> a factory
          taking the player's own random.Random (game.core.ai); empty when it has none.
    """

    name: str
    rules: Callable[[], RuleSystem]
    load: Callable[[Path], Any]
    client: Callable[[], SystemClient] | None = None
    setup_of: Callable[[Any], Any] = _setup_attribute
    read_script: Callable[[Path, Any], list[Any]] | None = None
    verify_links: LinksCheck | None = None
    commands: Mapping[str, Callable[[], Register]] = field(default_factory=dict)
    files: FileKinds | None = None
    picture: Picture | None = None
    players: Mapping[str, PlayerFactory] = field(default_factory=dict)

    @cached_property
    def system(self) -> RuleSystem:
        system = self.rules()
        if system.name != self.name:
            raise ValueError(f"the plugin {self.name!r} gave the rule system {system.name!r}")
        return system


class Table:
    """The rule systems this program has, by name, and the command-line commands they add.

    plugins: the systems, the default (a set-up file that names none) first unless `default`
        says otherwise.
    commands: commands that belong to no single system (the bridge between the scales).
    files: kinds of data file that belong to no single system (the bridge's translations).
    """

    def __init__(self, plugins: Sequence[Plugin], *, default: str | None = None,
                 commands: Mapping[str, Callable[[], Register]] | None = None,
                 files: Sequence[FileKinds] = ()) -> None:
        if not plugins:
            raise ValueError("a table needs at least one rule system")
        self._plugins: dict[str, Plugin] = {}
        for plugin in plugins:
            if plugin.name in self._plugins:
                raise ValueError(f"two rule systems are called {plugin.name!r}")
            self._plugins[plugin.name] = plugin
        self.default = default or plugins[0].name
        if self.default not in self._plugins:
            raise ValueError(f"the default system {self.default!r} is not in the table")
        merged: dict[str, Callable[[], Register]] = {}
        for owner in [*(p.commands for p in plugins), commands or {}]:
            for name, command in owner.items():
                if name in merged:
                    raise ValueError(f"two commands are called {name!r}")
                merged[name] = command
        self.commands: Mapping[str, Callable[[], Register]] = merged
        self._extra_files = tuple(files)
        self.files: tuple[FileKinds, ...] = (*(p.files for p in plugins if p.files is not None),
                                             *self._extra_files)

    def __iter__(self) -> Iterator[Plugin]:
        return iter(self._plugins.values())

    def __contains__(self, name: object) -> bool:
        return name in self._plugins

    def names(self) -> list[str]:
        return list(self._plugins)

    def with_plugin(self, plugin: Plugin) -> Table:
        """This table with one more system (or one replaced): how a test plugs a system in."""
        plugins = {**self._plugins, plugin.name: plugin}
        return Table(list(plugins.values()), default=self.default,
                     commands={k: v for k, v in self.commands.items()
                               if all(k not in p.commands for p in self._plugins.values())},
                     files=self._extra_files)

    def plugin_named(self, name: str) -> Plugin:
        """The plugin of one system; UnknownSystem (naming the known ones) for any other name."""
        try:
            return self._plugins[name]
        except KeyError:
            raise UnknownSystem(f"no rule system called {name!r} (this version knows: "
                                f"{', '.join(sorted(self._plugins))})") from None

    def name_in(self, data: Any) -> str:
        """The system a parsed set-up file names (its `system:` key; the default without one)."""
        if isinstance(data, Mapping):
            name = data.get("system", self.default)
            if isinstance(name, str):
                return name
        return self.default

    def plugin_of_loaded(self, loaded: Any) -> Plugin:
        """The plugin a loaded set-up (or anything with a `system_name`) belongs to."""
        return self.plugin_named(str(getattr(loaded, "system_name", self.default)))

    def sniff(self, data: Any) -> str:
        """The kind of a parsed data file of one of the systems (or the bridge), or ''."""
        for kinds in self.files:
            kind = kinds.sniff(data)
            if kind:
                return kind
        return ""

    def plugin_of_setup(self, kind: str) -> Plugin | None:
        """The system whose set-up files are of this kind (FileKinds.setups), or None."""
        for plugin in self._plugins.values():
            if plugin.files is not None and kind in plugin.files.setups:
                return plugin
        return None

    def check_file(self, path: Path, kind: str) -> str | None:
        """`validate` for a file of one of the systems' own kinds (None: not one of theirs)."""
        for kinds in self.files:
            if kind in kinds.kinds:
                return kinds.check(path, kind)
        return None

    @cached_property
    def registry(self) -> Registry:
        """Every system's rules by name (imports every system: for listings, not start-up)."""
        reg = Registry()
        for plugin in self._plugins.values():
            reg.register(plugin.system)
        return reg
