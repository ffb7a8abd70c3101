"""`python -m game validate PATH...`: check maps, tilesets, scenarios, unit catalogues, rules files
and saves. Prints one line per problem; exit 0 when everything is valid, 1 otherwise.
A folder is searched for .tmx, .tsx and .yaml files.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from game import paths
from game.cli.run import read_commands
from game.core.errors import GameFileError, UserError
from game.core.plugin import Table
from game.core.system import counted
from game.io.datafiles import problems_of, read_yaml
from game.io.safe_read import MAX_LARGE_FILE_BYTES
from game.io.sniff import sniff_kind
from game.replay import load_game

KINDS = "a map (.tmx), tileset (.tsx), scenario, unit catalogue, rules file, save or command list (.yaml)"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "validate", help="check maps, scenarios, unit catalogues, rules files and saves",
        description="Check each PATH (a file, or a folder searched for .tmx/.tsx/.yaml files). "
        "Prints one line per problem; exit status 0 when all are valid, 1 otherwise.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to check")
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    p.set_defaults(func=run)


def _expand(path: Path) -> Iterator[Path]:
    if paths.is_dir(path):
        for p in sorted(path.rglob("*")):
            if p.is_file() and p.suffix.lower() in (".tmx", ".tsx", ".yaml", ".yml"):
                yield p
    else:
        yield path


def clock_word(system: Any) -> str:
    """What the system's summary `round` counts ("round", "week", "wave"): its `clock`."""
    word = getattr(system, "clock", "round")
    return word if isinstance(word, str) and word else "round"


def check_file(table: Table, path: Path) -> str:
    """Check one file; return what it is. Raises GameFileError/UserError on a problem."""
    if not paths.exists(path) and not paths.is_symlink(path):  # (a symbolic link loop is reported by the reader)
        raise UserError(f"{path}: no such file")
    kind = sniff_kind(path, table.sniff)
    if path.suffix.lower() in (".tmj", ".tsj", ".tj"):  # JSON: refused saying how to re-save
        kind = "map"
    owned = table.check_file(path, kind)  # a map, scenario, catalogue, rules, campaign, mass or bridge file
    if owned is not None:
        return owned
    if kind == "save":
        game = load_game(table, path, verify=True)
        summary = game.system.summary(game.state)
        return (f"save of {game.system.title}, {clock_word(game.system).capitalize()} {summary.get('round')}, "
                f"{len(game.record.steps)} commands")
    if kind in ("broken", "yaml"):
        read_yaml(path, "text file: " + KINDS, limit=MAX_LARGE_FILE_BYTES)  # the located syntax error or limit
    if kind == "commands":
        return f"command list, {len(read_commands(str(path)))} commands"
    raise UserError(f"{path}: not {KINDS}")


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    bad = 0
    checked = 0
    for raw in args.paths:
        for path in _expand(Path(raw)):
            checked += 1
            try:
                what = check_file(args.table, path)
            except GameFileError as exc:
                bad += 1
                for problem in problems_of(exc):
                    print(f"error: {problem}", file=sys.stderr)
                continue
            except UserError as exc:
                bad += 1
                print(f"error: {exc}", file=sys.stderr)
                continue
            if not args.quiet:
                print(f"ok: {path} ({what})")
    if checked == 0:
        raise UserError("nothing to check: no .tmx, .tsx or .yaml files found")
    if bad:
        print(f"{bad} of {counted(checked, 'file', 'files')} {'has' if bad == 1 else 'have'} problems", file=sys.stderr)
        return 1
    return 0
