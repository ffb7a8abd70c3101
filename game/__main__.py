"""Command line: `python -m game [COMMAND] ...`. With no command, opens the default scenario.

The shared commands live in their own modules under game/cli/; a rule system's own commands
(and the bridge's) come from the table of systems (game/table.py). Each exposes
`register(subparsers) -> None`, which adds a sub-parser whose `func(args) -> int` runs it;
`args.table` is the table of rule systems.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import Any

import game.cli as cli_pkg
from game import paths, startup_gc
from game.core.errors import GameFileError, UserError
from game.table import TABLE

# Commands listed first appear first in --help; any other module in game/cli/ follows.
_ORDER = ["play", "render", "validate", "run", "odds", "replay", "bench"]


DIST_NAME = "ascension-isle-tactics"
PYDANTIC_PLUGINS_ENV = "PYDANTIC_DISABLE_PLUGINS"


def program_name(argv0: str | None = None) -> str:
    """How the program was started: 'ail-tactics' (the installed command) or 'python -m game'."""
    name = Path(sys.argv[0] if argv0 is None else argv0).name
    if not name or name in ("__main__.py", "-c", "-m") or name.startswith("python"):
        return "python -m game"
    return name.removesuffix(".exe")


def version() -> str:
    # import seam: importlib.metadata (about 20 ms) only for --version; no other command needs it
    import importlib.metadata

    try:
        return importlib.metadata.version(DIST_NAME)
    except importlib.metadata.PackageNotFoundError:  # a checkout that was never installed
        return "unknown (not installed)"


class _LazyVersion(argparse._VersionAction):
    """`--version`, looking the installed version up only when asked (importlib.metadata costs
    about 20 ms of every start otherwise)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        self.version = f"%(prog)s {version()}"
        super().__call__(parser, namespace, values, option_string)


def command_names() -> list[str]:
    """The command modules of game/cli/, in --help order (listed from the folder: pkgutil's
    module scan costs a few milliseconds of every start)."""
    names = sorted({Path(f).stem for folder in cli_pkg.__path__ for f in os.listdir(folder)
                    if f.endswith(".py") and not f.startswith("_")} | set(TABLE.commands))
    names.sort(key=lambda n: (_ORDER.index(n) if n in _ORDER else len(_ORDER), n))
    return names


def build_parser(prog: str | None = None, only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with `only` the top level and that one command (a module of
    game/cli/ registers the command of its own name): running a command imports its module
    alone, not every other command's (start-up time); `--help` and errors use the whole parser."""
    parser = argparse.ArgumentParser(
        prog=prog or program_name(),
        description="Ascension Isle: Legacy, a hex wargame client for three rule systems: the tactical "
        "battle, the island campaign and the mass battle. With no command, opens the default scenario "
        "(a tactical battle) in a window.",
    )
    parser.set_defaults(table=TABLE)  # every command is handed the table of rule systems (args.table)
    parser.add_argument("--version", action=_LazyVersion)
    parser.add_argument("--saves-dir", metavar="DIR",
                        help=f"folder for saves, autosaves and crash reports (default: {paths.saves_dir()}, "
                             f"from {paths.saves_dir_source()}; also ${paths.SAVES_ENV})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = command_names()
    if only is not None and only in names:
        names = [only]
    for name in names:
        if name in TABLE.commands:  # a rule system's own command (or the bridge's)
            TABLE.commands[name]()(sub)
            continue
        module = importlib.import_module(f"game.cli.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the program itself (not a test calling in): start without the collector
        startup_gc.pause()
        # The game uses no pydantic plugins; looking for them reads the entry points of every
        # installed package when the first model is built (~7 ms with this project's 38, more in a
        # crowded environment). A value the player set is kept.
        os.environ.setdefault(PYDANTIC_PLUGINS_ENV, "__all__")
        # pygame greets the terminal with its version on import: not the game's to say
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    finally:
        startup_gc.resume()  # (the window's first frame has normally settled it already)


def _main(argv: list[str]) -> int:
    saves_dir = None
    while argv and (argv[0] == "--saves-dir" or argv[0].startswith("--saves-dir=")):
        head = argv.pop(0)
        if "=" in head:
            saves_dir = head.split("=", 1)[1]
        elif argv:
            saves_dir = argv.pop(0)
        else:
            build_parser().error("--saves-dir needs a folder")
    if saves_dir is not None:
        os.environ[paths.SAVES_ENV] = saves_dir
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = ["play", *argv]
    parser = build_parser(only=argv[0] if argv[0] in command_names() else None)
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if args.command != "play":
        startup_gc.resume()  # only the window's start is worth it (game/startup_gc.py)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except (UserError, GameFileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into `head`, which has seen enough: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
