"""`python -m game replay SAVE [--verify]`: re-apply a save's command log from the scenario's
initial state.

Without --verify every command is printed with what it did (the events, dice with their parts)
so a GM can read a game back. With --verify only a summary is printed. Either way the exit status
is 1, with one line naming the first command that went wrong, if a recorded roll, a state after a
command or the final state differs from what the save holds. With --verify the saves this one
refers to are checked too, by the save's system (a campaign: every battle fought out, replayed
and translated again; docs/scales.md); a problem there is exit status 1 as well.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from game.core.errors import GameFileError
from game.core.system import RuleSystem
from game.io import saves
from game.replay import Step, verify_save
from game.shell.app import App
from game.shell.launch import open_replay_file
from game.shell.savegame import run_guarded


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "replay", help="re-apply a saved game's command log (--verify: check it bit for bit)",
        description="Re-apply the command log of a save from its scenario's initial state. "
                    "Exit status 1 names the first command whose dice or resulting state differ.")
    p.add_argument("save", help="a save file (saves/*.yaml)")
    p.add_argument("--verify", action="store_true",
                   help="only check: print a one-line summary instead of the whole battle")
    p.add_argument("--view", action="store_true",
                   help="open the replay view in a window (step with the arrow keys) after checking (the "
                        "tactical battle, the campaign (the GM's: every side's orders, behind the GM's "
                        "passphrase when one is set) and the mass battle)")
    p.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)  # smoke tests: quit after N frames
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.view:
        missing = _no_view(args.table, args.save)
        if missing is not None:  # said before the replay, not after a whole game printed
            print(f"error: {missing}", file=sys.stderr)
            return 1

    def show(index: int, step: Step, system: RuleSystem, why: str | None) -> None:
        mark = "GM " if step.gm else ""
        rnd = system.summary(step.before).get("round", "?")
        print(f"[{index + 1}] round {rnd}: {mark}{system.describe_command(step.before, step.command)}", file=out)
        if why is not None:  # a computer's command: the reason it gave, as the window showed it
            print(f"      {why}", file=out)
        for event in step.events:
            print(f"      {system.describe_event(step.after, event)}", file=out)

    try:
        report = verify_save(args.table, args.save, on_step=None if args.verify else show, follow_links=args.verify)
    except BrokenPipeError:  # `replay SAVE | head`: the reader has seen enough
        sys.stdout = open(os.devnull, "w")  # keeps Python quiet at exit
        return 0
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"{args.save}: OK: {report.commands} commands re-applied ({report.rolls} dice, "
          f"{report.gm_actions} GM actions); every roll and the final state match "
          f"(state {report.final_checksum})", file=out)
    for ok, line in report.links:
        print(f"  {'linked' if ok else 'PROBLEM'}: {line}", file=out)
    bad = [line for ok, line in report.links if not ok]
    if bad:
        print(f"{args.save}: {len(bad)} linked save(s) do not check out", file=sys.stderr)
        return 1
    if args.view:
        return _view(args.table, args.save, args.frames)
    return 0


def _no_view(table: Any, path: str) -> str | None:
    """Why `--view` cannot open the save's replay view (its system's client has none), or None.
    A save that cannot be read is left to the replay, which names the problem."""
    try:
        system = saves.read_header(path).system
        plugin = table.plugin_named(system)
    except (GameFileError, OSError, LookupError, ValueError):
        return None
    client = plugin.client() if plugin.client is not None else None
    if getattr(client, "open_replay", None) is None:
        return (f"{path}: the {plugin.system.title} has no replay view yet; `python -m game replay {path}` "
                "prints the game command by command")
    return None


def _view(table: Any, path: str, frames: int) -> int:
    """The replay view alone in a window, from the first command; Esc closes it."""
    app = App(table)
    problem = open_replay_file(app, Path(path))
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    return run_guarded(app, max_frames=frames)
