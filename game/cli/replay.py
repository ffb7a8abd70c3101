"""`python -m game replay SAVE [--verify]`: re-apply a save's command log from the scenario's
initial state.

Without --verify every command is printed with what it did (the events, dice with their parts)
so a GM can read a game back. With --verify only a summary is printed. Either way the exit status
is 1, with one line naming the first command that went wrong, if a recorded roll, a state after a
command or the final state differs from what the save holds.
"""

from __future__ import annotations

import argparse
import os
import sys

from game.replay import Step, describe_command, verify_save


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "replay", help="re-apply a saved game's command log (--verify: check it bit for bit)",
        description="Re-apply the command log of a save from its scenario's initial state. "
                    "Exit status 1 names the first command whose dice or resulting state differ.")
    p.add_argument("save", help="a save file (saves/*.yaml)")
    p.add_argument("--verify", action="store_true",
                   help="only check: print a one-line summary instead of the whole battle")
    p.add_argument("--view", action="store_true",
                   help="open the replay view in a window (step with the arrow keys) after checking")
    p.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)  # smoke tests: quit after N frames
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = sys.stdout

    def show(index: int, step: Step) -> None:
        names = step.after.unit_name
        mark = "GM " if step.gm else ""

        def name(uid: str) -> str:
            try:
                return names(uid)
            except KeyError:
                return uid

        print(f"[{index + 1}] round {step.round}: {mark}{describe_command(step.command)}", file=out)
        from game.rules.ail.events import board_where, event_text

        where = board_where(step.after.board)
        for event in step.events:
            print(f"      {event_text(event, name, where)}", file=out)

    try:
        report = verify_save(args.save, on_step=None if args.verify else show)
    except BrokenPipeError:  # `replay SAVE | head`: the reader has seen enough
        sys.stdout = open(os.devnull, "w")  # keeps Python quiet at exit
        return 0
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"{args.save}: OK: {report.commands} commands re-applied ({report.rolls} dice, "
          f"{report.gm_actions} GM actions); every roll and the final state match "
          f"(state {report.final_checksum})", file=out)
    if args.view:
        return _view(args.save, args.frames)
    return 0


def _view(path: str, frames: int) -> int:
    """The replay view alone in a window, from the first command; Esc closes it."""
    from pathlib import Path

    from game.client.app import App
    from game.client.savegame import run_guarded, session_from_save
    from game.client.scenes.replay import ReplayScene

    session = session_from_save(Path(path))
    assert session is not None  # verify_save has read it as a save
    app = App()
    app.push(ReplayScene(app, session, session.history, title=Path(path).name, start=0))
    return run_guarded(app, max_frames=frames)
