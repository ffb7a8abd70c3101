"""`python -m game play [PATH]`: open the game window on a scenario (default: maps/default.yaml)."""

from __future__ import annotations

import argparse
import os


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="open the game window (default command)",
                       description="Open the game window on a scenario or a save. "
                                   "With no PATH, the default scenario maps/default.yaml.")
    p.add_argument("path", nargs="?", help="scenario .yaml (or a save file)")
    p.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    p.add_argument("--fast", action="store_true", help="fast animations")
    p.add_argument("--instant", action="store_true", help="no animations")
    p.add_argument("--no-blackout", action="store_true",
                   help="do not hide the map between sides (a GM at the table)")
    p.add_argument("--frames", type=int, default=0,
                   help="quit after drawing this many frames (start-up timing, smoke tests)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from game.errors import UserError

    try:
        w, h = (int(x) for x in str(args.size).lower().split("x"))
    except ValueError:
        raise UserError(f"--size: expected WIDTHxHEIGHT such as 1280x800, got {args.size!r}") from None
    frames = args.frames or int(os.environ.get("AIL_EXIT_AFTER_FRAMES", "0") or 0)
    from game.client.app import App, Settings
    from game.client.savegame import clean_leftovers

    clean_leftovers()  # temporary files of a save killed half-way, from an earlier session

    settings = Settings(animation="instant" if args.instant else "fast" if args.fast else "normal",
                        blackout=not args.no_blackout)
    app = App.for_scenario(args.path, size=(w, h), headless=False, settings=settings)
    from game.client.savegame import run_guarded  # emergency save + crash report on a bug

    return run_guarded(app, max_frames=frames)
