"""`python -m game replay SAVE [--verify]`: re-apply a save's command log from the scenario's
initial state.

Without --verify every command is printed with what it did (the events, dice with their parts)
so a GM can read a game back. With --verify only a summary is printed. Either way the exit status
is 1, with one line naming the first command that went wrong, if a recorded roll, a state after a
command or the final state differs from what the save holds. With --verify the saves this one
refers to are checked too, by the save's system (a campaign: every battle fought out, replayed
and translated again; docs/scales.md); a problem there is exit status 1 as well.

What a player may not read yet stays hidden in the printed game, as in the replay view (F3): a
sealed choice (the rules' `sealed`, e.g. a mass battle's appointments) is printed only as made
until a later command shows the game announced it, with the computer's reason for it; a system's
client may word its steps so (`terminal_lines`: the mass battle also keeps the faces the GM queued
for the next rolls to the GM). `--gm` prints everything, after asking for the save's GM passphrase
when one is set.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.cli.play import desktop_size, fitted_size
from game.core import gm_lock
from game.core.errors import GameFileError
from game.core.system import RuleSystem, counted
from game.io import saves
from game.replay import Step, verify_save
from game.shell.app import App
from game.shell.launch import open_replay_file
from game.shell.savegame import run_guarded
from game.shell.seats import is_sealed


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
    p.add_argument("--gm", action="store_true",
                   help="print what the players may not read yet too (a sealed choice before the game announced "
                        "it, the faces the GM queued); asks for the save's GM passphrase when one is set")
    p.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)  # smoke tests: quit after N frames
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.view:
        missing = _no_view(args.table, args.save)
        if missing is not None:  # said before the replay, not after a whole game printed
            print(f"error: {missing}", file=sys.stderr)
            return 1

    gm = bool(getattr(args, "gm", False))
    if gm and not args.verify:
        refused = _not_the_gm(args.save)
        if refused is not None:  # nothing printed
            print(f"error: {refused}", file=sys.stderr)
            return 1
    steps: list[tuple[int, Step, RuleSystem, str | None]] = []

    def keep(index: int, step: Step, system: RuleSystem, why: str | None) -> None:
        steps.append((index, step, system, why))  # printed once the whole log is known (what it announces)

    try:
        try:
            report = verify_save(args.table, args.save, on_step=None if args.verify else keep,
                                 follow_links=args.verify)
        finally:  # (a replay that goes wrong prints the commands before the one that did)
            _print_steps(steps, _lines_of(args.table, args.save, steps), gm, out)
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
        print(f"{args.save}: {counted(len(bad), 'linked save does', 'linked saves do')} not check out", file=sys.stderr)
        return 1
    if args.view:
        return _view(args.table, args.save, args.frames)
    return 0


Lines = Callable[..., tuple[str, list[str]]]


def _generic_lines(system: RuleSystem, step: Step, *, reveal: bool, gm: bool) -> tuple[str, list[str]]:
    """A step in the rules' words; a sealed choice not yet announced only as made (by whom)."""
    if is_sealed(system, step.before, step.command) and not reveal:
        summary = system.summary(step.before)
        names = dict(zip(summary.get("sides") or [], summary.get("side_names") or [], strict=False))
        side = getattr(step.command, "force", None) or getattr(step.command, "side", None)
        said = f"{names.get(side, side) or 'a side'} makes its sealed choice"
    else:
        said = system.describe_command(step.before, step.command)
    return said, [system.describe_event(step.after, e) for e in step.events]


def _lines_of(table: Any, path: str, steps: list[tuple[int, Step, RuleSystem, str | None]]) -> Lines:
    """How the steps are worded: the system client's `terminal_lines` (the replay view's hiding)
    when it has one and the game has a sealed choice or a GM command to word; else the rules'."""
    if not any(is_sealed(sy, st.before, st.command) or st.gm for _, st, sy, _ in steps):
        return _generic_lines
    try:
        plugin = table.plugin_named(saves.read_header(path).system)
        client = plugin.client() if plugin.client is not None else None
    except (GameFileError, OSError, LookupError, ValueError):
        client = None
    hook: Lines | None = getattr(client, "terminal_lines", None)
    return hook if hook is not None else _generic_lines


def _print_steps(steps: list[tuple[int, Step, RuleSystem, str | None]], lines: Lines, gm: bool, out: Any) -> None:
    """Every step replayed, as a player may read it (everything, to the `gm`). A sealed choice is
    shown at its own step when a later command shows the game announced it (its state no longer
    seals it), as the replay view does."""
    for k, (index, step, system, why) in enumerate(steps):
        sealed = is_sealed(system, step.before, step.command)
        reveal = gm or not sealed or any(not is_sealed(system, later.after, step.command)
                                         for _, later, _, _ in steps[k + 1:])
        said, events = lines(system, step, reveal=reveal, gm=gm)
        mark = "GM " if step.gm and not said.startswith("GM") else ""
        rnd = system.summary(step.before).get("round", "?")
        print(f"[{index + 1}] round {rnd}: {mark}{said}", file=out)
        if why is not None and reveal:  # a computer's command: the reason it gave, as the window showed it
            print(f"      {why}", file=out)
        for line in events:
            print(f"      {line}", file=out)


def _not_the_gm(path: str) -> str | None:
    """`--gm`: None when the reader may see everything (the save has no GM passphrase, or the one
    typed is it), else why not. A save that cannot be read is left to the replay to name."""
    try:
        lock = saves.read_header(path).gm_lock
    except (GameFileError, OSError, ValueError):
        return None
    if lock is None:
        return None
    typed = getpass.getpass("GM passphrase: ")
    if gm_lock.opens(gm_lock.Lock(lock.salt, lock.iterations, lock.digest), typed):
        return None
    return f"{path}: that is not this game's GM passphrase (--gm prints the sealed choices only to the GM)"


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
    app = App(table, size=fitted_size(desktop_size()))  # (the window fits the screen, as `play`'s does)
    problem = open_replay_file(app, Path(path))
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    return run_guarded(app, max_frames=frames)
