"""`python -m game arena SCENARIO --seat SIDE=ai:LEVEL ... --games N --seed S`: computer against
computer (issue 32, docs/ai.md).

Each seat is one of the levels the scenario's rule system offers (its Plugin.players); a side
with no --seat plays at random. With two sides the seats swap sides every other game (with more,
they rotate), so a scenario that favours one side favours each player equally often. Every
decision goes through game.core.ai.choose (the side's view only) and every command is applied by
the rules: a refused one stops the arena with exit status 1 (computer games are a soak test).

Prints each player's wins, draws and losses with the win rate's 95 % confidence interval (Wilson),
and each level's mean, median and worst decision time. `--save PATH` writes game `--save-game`
(the first by default) as a save that `replay --verify` accepts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from game.core.ai import RefusedCommand, parse_seat, play_out, wilson
from game.core.errors import UserError
from game.io.outpaths import check_destination, write_text_or_keep
from game.io.saves import dump_save
from game.io.sniff import peek_system
from game.replay import make_save


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "arena", help="computer against computer: win rates with confidence intervals, decision times",
        description="Play games between computer players (sides swapped every other game) and print "
                    "win rates with 95%% confidence intervals and decision times.")
    p.add_argument("scenario", help="a set-up file of any rule system (e.g. maps/default.yaml)")
    p.add_argument("--seat", action="append", default=[], metavar="SIDE=ai:LEVEL",
                   help="who plays a side at the start (levels: random, easy, hard; default random)")
    p.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    p.add_argument("--seed", type=int, default=1, help="first game's seed; game i uses SEED+i (default 1)")
    p.add_argument("--seconds", type=float, default=2.0, help="time budget of one decision (default 2)")
    p.add_argument("--work", type=int, default=4000,
                   help="work budget of one decision (positions weighed; default 4000): the limit "
                        "that keeps a game reproducible on any machine")
    p.add_argument("--max-commands", type=int, default=20_000, help=argparse.SUPPRESS)
    p.add_argument("--max-rounds", type=int, default=None, metavar="N",
                   help="stop each game after N of its rounds (weeks, waves): a campaign has no end of its own")
    p.add_argument("--save", metavar="SAVE.yaml", default=None, help="write one game as a save")
    p.add_argument("--save-game", type=int, default=1, metavar="K", help="which game --save writes (default 1)")
    p.add_argument("--quiet", action="store_true", help="no line per game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UserError(f"--games must be at least 1, got {args.games}")
    if args.seconds <= 0 or args.work < 1:
        raise UserError("--seconds must be more than 0 and --work at least 1")
    if not 1 <= args.save_game <= args.games:
        raise UserError(f"--save-game must name one of the {args.games} game(s), got {args.save_game}")
    if args.save:
        check_destination(args.save, "save")
    table = args.table
    plugin = table.plugin_named(peek_system(args.scenario, table.default))
    if not plugin.players:
        raise UserError(f"the {plugin.system.title} rules have no computer players yet")
    loaded = plugin.load(Path(args.scenario))
    system = plugin.system
    setup = plugin.setup_of(loaded)
    sides = [str(s) for s in system.summary(system.initial_state(setup, args.seed)).get("sides", [])]
    levels = sorted(plugin.players)
    seat_level = {side: "random" for side in sides}
    for text in args.seat:
        try:
            side, level = parse_seat(text, sides, levels)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        seat_level[side] = level
    # The players: seat i starts on sides[i] and moves one side along every game.
    labels = [f"P{i + 1} {seat_level[side]}" for i, side in enumerate(sides)]
    stats: dict[str, dict[str, int]] = {lab: {"win": 0, "draw": 0, "loss": 0, "open": 0} for lab in labels}
    by_side: dict[str, dict[str, int]] = {lab: {} for lab in labels}
    times: dict[str, list[float]] = {}
    saved = None
    out = sys.stdout
    print(f"arena: {Path(args.scenario).name} ({system.title}), {args.games} game(s) from seed {args.seed}; "
          f"budget {args.seconds:g} s / {args.work} per decision", file=out)
    for g in range(args.games):
        seed = args.seed + g
        shift = g % len(sides)
        who = {sides[(i + shift) % len(sides)]: labels[i] for i in range(len(sides))}
        seats = {side: plugin.players[_level(who[side])](random.Random(f"{seed}:{side}:{who[side]}"))
                 for side in sides}
        initial = system.initial_state(setup, seed)
        try:
            game = play_out(system, initial, seats, seconds=args.seconds, work=args.work,
                            max_commands=args.max_commands, max_rounds=args.max_rounds)
        except RefusedCommand as exc:
            print(f"game {g + 1} (seed {seed}): REFUSED: {exc}", file=sys.stderr)
            return 1
        for side, ts in game.times.items():
            times.setdefault(_level(who[side]), []).extend(ts)
        for side, lab in who.items():
            res = ("open" if not game.over else "draw" if game.winner is None
                   else "win" if game.winner == side else "loss")
            stats[lab][res] += 1
            if res == "win":
                by_side[lab][side] = by_side[lab].get(side, 0) + 1
        if not args.quiet:
            end = f"winner {game.winner} ({who[game.winner]})" if game.winner else ("draw" if game.over else "not over")
            print(f"game {g + 1} (seed {seed}): " + ", ".join(f"{s}={who[s]}" for s in sides)
                  + f": {end} after {game.commands} commands", file=out)
        if args.save and g + 1 == args.save_game:
            saved = (game, seed)
    print("results:", file=out)
    for lab in labels:
        st = stats[lab]
        lo, hi = wilson(st["win"], args.games)
        sided = ", ".join(f"{n} as {s}" for s, n in sorted(by_side[lab].items()))
        unfinished = f", {st['open']} not over" if st["open"] else ""
        print(f"  {lab}: {st['win']} won, {st['draw']} drawn, {st['loss']} lost{unfinished} of {args.games}: "
              f"win rate {st['win'] / args.games:.1%} (95% CI {lo:.1%}-{hi:.1%})" + (f"; wins {sided}" if sided else ""),
              file=out)
    print("decision time:", file=out)
    for level, ts in sorted(times.items()):
        if ts:
            print(f"  {level}: {len(ts)} decisions, mean {statistics.fmean(ts) * 1000:.1f} ms, median "
                  f"{statistics.median(ts) * 1000:.1f} ms, worst {max(ts) * 1000:.1f} ms", file=out)
    if saved is not None:
        _write(system, saved[0], args, saved[1])
    return 0


def _level(label: str) -> str:
    return label.split(" ", 1)[1]


def _write(system: Any, game: Any, args: argparse.Namespace, seed: int) -> None:
    save = make_save(system, game.record.state, game.record.steps, scenario_path=args.scenario, seed=seed,
                     title=f"arena game {args.save_game}")
    written = write_text_or_keep(args.save, dump_save(save), "save")
    if written.failed:
        raise UserError(f"{written.failed}; the save was kept in {written.path}")
    print(f"-- game {args.save_game} saved to {args.save}")
