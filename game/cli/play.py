"""`python -m game play [PATH]`: open the game window on a scenario (default: maps/default.yaml),
a save, or a Tiled map whose object layers place the units (`scenario_for_map`).

`--seat SIDE=ai:LEVEL` hands a side to the computer in every rule system (a tactical side, a
campaign power, a mass-battle force), before the game's screen is made, so that it opens for the
people (no hand-off to a computer side)."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path
from typing import Any

import pygame
import yaml

from game import paths
from game.core.ai import parse_seat
from game.core.errors import UserError
from game.core.palette import palette_colour
from game.io.tmx import load_map
from game.shell import launch
from game.shell.actions import offer_recovery
from game.shell.app import App, Settings
from game.shell.contracts import live_game, tell
from game.shell.savegame import clean_leftovers, run_guarded
from game.shell.seats import THINK_LIMITS, THINK_SECONDS


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="open the game window (default command)",
                       description="Open the game window on a scenario or a save. "
                                   "With no PATH, the default scenario maps/default.yaml.")
    p.add_argument("path", nargs="?", help="scenario .yaml, a save file, or a Tiled map .tmx whose object "
                                           "layer places the units")
    p.add_argument("--size", default=None,
                   help="window size WxH (default 1280x800, or smaller to fit a smaller screen; at least 960x600)")
    p.add_argument("--fast", action="store_true", help="fast animations")
    p.add_argument("--instant", action="store_true", help="no animations")
    p.add_argument("--no-blackout", action="store_true",
                   help="do not hide the map between sides (a GM at the table)")
    p.add_argument("--seat", action="append", default=[], metavar="SIDE=ai:LEVEL",
                   help="the computer plays this side at this level (as `arena`; repeat for more sides), or "
                        "SIDE=human: at the screen; sides not named are played at the screen (a save: as saved)")
    p.add_argument("--think", type=float, default=THINK_SECONDS, metavar="SECONDS",
                   help=f"how long the computer may think over one decision (default {THINK_SECONDS:g}; "
                        f"{THINK_LIMITS[0]:g} to {THINK_LIMITS[1]:g}; the players dialog, P, changes it too)")
    p.add_argument("--seed", default="fresh", metavar="N|scenario|fresh",
                   help="the dice of a new game: fresh ones each time (default), the scenario file's own "
                        "seed ('scenario': the same dice every time, as `run` and the demonstration scripts "
                        "use), or seed N; a save goes on with its own")
    p.add_argument("--frames", type=int, default=0,
                   help="quit after drawing this many frames (start-up timing, smoke tests)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.size is None:
        w, h = fitted_size(desktop_size())
    else:
        try:
            w, h = (int(x) for x in str(args.size).lower().split("x"))
        except ValueError:
            raise UserError(f"--size: expected WIDTHxHEIGHT such as 1280x800, got {args.size!r}") from None
        if w < SMALLEST[0] or h < SMALLEST[1]:  # (the help promised it; a smaller window cut the screens)
            raise UserError(f"--size: at least {SMALLEST[0]}x{SMALLEST[1]}, the smallest window every screen is "
                            f"laid out for, got {w}x{h}")
    low, high = THINK_LIMITS
    if not low <= args.think <= high:
        raise UserError(f"--think: the computer's thinking time must be {low:g} to {high:g} seconds, got {args.think:g}")
    frames = args.frames or int(os.environ.get("AIL_EXIT_AFTER_FRAMES", "0") or 0)
    clean_leftovers()  # temporary files of a save killed half-way, from an earlier session

    settings = Settings(animation="instant" if args.instant else "fast" if args.fast else "normal",
                        blackout=not args.no_blackout, think_seconds=args.think)
    path = args.path
    if path is not None and Path(path).suffix.lower() in (".tmx", ".tmj"):
        path = scenario_for_map(args.table, Path(path))
        print(f"playing {args.path} with the default rules and catalogue; its scenario is {path} "
              "(edit it to change the sides, commanders or objectives)")
    seed_text = str(getattr(args, "seed", "scenario"))
    app = open_window(args.table, path, (w, h), settings, seats=list(getattr(args, "seat", []) or []),
                      seed=new_game_seed(seed_text), fresh_dice=seed_text == "fresh")
    return run_guarded(app, max_frames=frames)  # emergency save + crash report on a bug


WINDOW = (1280, 800)  # the window the screens are laid out for
SMALLEST = (960, 600)  # the smallest window every screen is checked at
FRAME = (40, 110)  # kept free of the screen: window borders and title bar, a task bar or panel


def desktop_size() -> tuple[int, int] | None:
    """The size of the first screen, or None when there is no real one (SDL's dummy driver:
    tests, `render`) or SDL cannot tell."""
    pygame.display.init()
    if pygame.display.get_driver() in ("dummy", "offscreen"):
        return None
    sizes = pygame.display.get_desktop_sizes()
    return tuple(sizes[0]) if sizes else None  # type: ignore[return-value]


def fitted_size(desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The window's size when `--size` is not given [decision]: 1280x800, made smaller to fit a
    screen that cannot show it whole with its title bar and a task bar (a 1366x768 laptop gets
    1280x658, so the buttons along the bottom are not hidden below the screen), but never
    smaller than 960x600 (the smallest size the screens are laid out for)."""
    if desktop is None:
        return WINDOW
    return (max(SMALLEST[0], min(WINDOW[0], desktop[0] - FRAME[0])),
            max(SMALLEST[1], min(WINDOW[1], desktop[1] - FRAME[1])))


def new_game_seed(text: str) -> int | None:
    """`--seed`: 'fresh' -> a seed nobody chose (so a new game, or the same scenario started again,
    does not roll the dice of the last one) [decision]; 'scenario' -> None (the file's own seed);
    a whole number -> that seed. UserError otherwise."""
    if text == "fresh":
        return secrets.randbelow(2 ** 32)
    if text == "scenario":
        return None
    try:
        return int(text)
    except ValueError:
        raise UserError(f"--seed: expected a whole number, 'scenario' or 'fresh', got {text!r}") from None


def open_window(table: Any, path: str | Path | None, size: tuple[int, int], settings: Any, *, headless: bool = False,
                seats: list[str] | None = None, seed: int | None = None, fresh_dice: bool = False) -> Any:
    """The game window on `path`, `seats` (`--seat SIDE=ai:LEVEL`) given to the computer before
    its screen is made; when a game of that file was left unfinished (a recovery save in
    saves/recovery/), a dialog over it offers to resume that one, with the same `seats`."""
    session = launch.open_game(table, path, seed=seed)  # errors here reach the command line as one clear line
    if not session.history and session.save_path is None:
        session.fresh_dice = fresh_dice  # a new game: its restart deals fresh dice too (a save keeps its own)
    seat_session(table, session, seats or [])
    app = App(table, size=size, headless=headless, settings=settings)
    app.push(launch.scene_for(app, session))
    # only a game of the file opened (any game when none was named); `--seat` applies to it too
    offer_recovery(app, path, on_resume=lambda: seat_resumed(app, seats or []))
    return app


def seat_resumed(app: Any, seat_args: list[str]) -> str | None:
    """`--seat` on the game resumed from a recovery save at start-up (which came back with the
    seats it was left with): applied, and said; or, when it cannot be (a game of another system
    or with other sides, resumed when no file was named), said why not, on the screen and the
    terminal. Returns what was said (None: no --seat)."""
    if not seat_args:
        return None
    game = live_game(app)
    try:
        seat_computers(app, seat_args)
    except UserError as exc:
        text = f"--seat was not applied to the resumed game (it keeps the seats it was left with): {exc}"
        problem = True
    else:
        text = f"Resumed with the seats of the command line: {', '.join(seat_args)}"
        problem = False
    print(text, file=sys.stderr if problem else sys.stdout, flush=True)
    game = live_game(app) or game
    if game is not None:
        tell(game, text, 10.0, problem=problem)
    return text


def seat_session(table: Any, session: Any, seat_args: list[str]) -> None:
    """Hand the sides named by `--seat SIDE=ai:LEVEL` to the computer, in any rule system (the
    sides its summary names: tactical sides, campaign powers, mass-battle forces; UserError naming
    the side or level expected). A loaded save keeps the seats it recorded unless --seat names others."""
    if not seat_args:
        return
    sides = [str(s) for s in session.system.summary(session.state).get("sides", ())]
    players = table.plugin_named(session.system.name).players
    if not players:
        raise UserError(f"--seat: the {session.system.title} has no computer players")
    try:
        chosen = [parse_seat(text, sides, list(players), human=True) for text in seat_args]
    except ValueError as exc:
        raise UserError(str(exc)) from None
    for side, level in chosen:  # (SIDE=human gives back to the screen a side a save had the computer play)
        session.seats.set(side, level)


def seat_computers(app: Any, seat_args: list[str]) -> None:
    """`seat_session` for the game open in a window (its screen follows: `after_change`)."""
    if not seat_args:
        return
    game = live_game(app)
    if game is None:
        raise UserError("--seat: no game is open to seat the computer in")
    seat_session(app.table, game.session, seat_args)
    game.after_change()


def scenario_for_map(table: Any, map_path: Path, folder: Path | None = None) -> Path:
    """Write (into the saves folder's scenarios/) and check a scenario that plays a Tiled map as it
    is: the units of its object layers, one side per `side` value (in the order they first appear),
    the default rules and unit catalogue, each side out to destroy the others. Raises UserError
    with one sentence naming what is missing when the map cannot be played so."""
    if not paths.is_file(map_path):
        raise UserError(f"{map_path}: no such file")
    md = load_map(map_path)
    cannot = f"{map_path}: cannot play this map directly:"
    if not md.has_terrain:
        raise UserError(f"{cannot} none of its tiles has a 'terrain' property; write a scenario for it with a "
                        "terrain_map saying which tile means which terrain (docs/formats.md, 'Terrain mapping')")
    sides = list(dict.fromkeys(u.side for u in md.units))
    if not sides:
        raise UserError(f"{cannot} it places no units; put objects with 'unit_type' and 'side' properties on an "
                        "object layer (or write a scenario naming the units)")
    if len(sides) < 2:
        raise UserError(f"{cannot} all its units are of side '{sides[0]}'; a battle needs units of at least two sides")
    title = str(md.properties.get("name") or map_path.stem.replace("-", " ").replace("_", " ").title())

    def side(i: int, sid: str) -> dict[str, Any]:
        name = sid.replace("_", " ").replace("-", " ").title()
        return {"id": sid, "name": name, "colour": palette_colour(i),  # the one palette (game/core/palette.py)
                "commander": {"name": f"{name} Commander",
                              "stats": {"physique": 3, "senses": 3, "intellect": 3, "aether": 1}}}

    data = {
        "name": title,
        "description": f"The units placed on {map_path.name}, each side out to destroy the others.",
        "map": str(map_path.resolve()),
        "map_units": True,
        "sides": [side(i, s) for i, s in enumerate(sides)],
        "objectives": [{"kind": "destroy_all", "side": s} for s in sides],
    }
    out_dir = folder or paths.saves_dir() / "scenarios"
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{map_path.stem}-from-map.yaml"
    out.write_text(f"# Made by `play {map_path.name}`: the map's own units and sides.\n"
                   + yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    table.plugin_named(table.default).load(out)  # problems (unknown unit types, units on impassable hexes...) say file and object
    return out
