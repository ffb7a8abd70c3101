"""Command line: `python -m game [COMMAND] ...`. With no command, opens the default scenario.

Each command lives in its own module under game/cli/ and exposes
`register(subparsers) -> None`, which adds a sub-parser whose `func(args) -> int` runs it.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import game.cli as cli_pkg
from game.errors import GameFileError, UserError

# Commands listed first appear first in --help; any other module in game/cli/ follows.
_ORDER = ["play", "render", "validate", "run", "odds", "replay", "bench"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m game",
        description="Ascension Isle: Legacy tactical wargame client. "
        "With no command, opens the default scenario in a window.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = [m.name for m in pkgutil.iter_modules(cli_pkg.__path__) if not m.name.startswith("_")]
    names.sort(key=lambda n: (_ORDER.index(n) if n in _ORDER else len(_ORDER), n))
    for name in names:
        module = importlib.import_module(f"game.cli.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["play", *argv]
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except (UserError, GameFileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
