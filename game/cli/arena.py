"""`python -m game arena SCENARIO --seat SIDE=ai:LEVEL ... --games N --seed S`: computer against
computer (issue 32, docs/ai.md).

Each seat is one of the levels the scenario's rule system offers (its Plugin.players); a side
with no --seat plays at random. With two sides the seats swap sides every other game; with more,
game g seats them in the g-th of every order (`seating`), so that each player plays each side
equally often and with every other player beside it, and a scenario that favours one side (or
one pair of sides) favours each player equally often. Every
decision goes through game.core.ai.choose (the side's view only) and every command is applied by
the rules: a refused one stops the arena with exit status 1 (computer games are a soak test).

Prints each player's wins, draws and losses with the win rate's 95 % confidence interval (Wilson),
and each level's mean, median and worst decision time. `--save PATH` writes game `--save-game`
(the first by default) as a save that `replay --verify` accepts, with each computer decision's
why line in its command's log entry, worded as the window words it ("Why (side, computer
level): ..."; game.shell.seats.why_line), so the replay view (F3) shows the reasons as it does for
a game played in the window. A decision that gave no reason has no why line.

A game stopped before its end (`--max-rounds`: a campaign has no end of its own) whose summary
has a `score` (side -> number, game.core.ai.game_summary; the campaign's: enemy units destroyed
minus own units lost) is judged by it [decision]: the seat with the highest score wins; when
several share the highest, it is a draw for them; every other seat loses. The game's line gives
the scores, the results say that those games were judged by score and give each player's mean
score, and, when the summary counts `battles_fought` (the campaign), the battles. A system
without a score prints as before: such a game is "not over".
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from itertools import islice, permutations
from math import factorial
from pathlib import Path
from typing import Any

from game.core.ai import RefusedCommand, parse_seat, play_out, wilson
from game.core.errors import UserError
from game.core.system import counted
from game.io.outpaths import check_destination, write_text_or_keep
from game.io.saves import dump_save, with_whys
from game.io.sniff import peek_system
from game.replay import make_save
from game.shell.seats import why_line


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "arena", help="computer against computer: win rates with confidence intervals, decision times",
        description="Play games between computer players (sides swapped every other game) and print "
                    "win rates with 95% confidence intervals and decision times.")
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
                   help="stop each game after N of its rounds (weeks, waves): a campaign has no end of its own. "
                        "A game stopped so is judged by its score when the rules keep one (the campaign: enemy "
                        "units destroyed minus own units lost): the highest score wins")
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
        raise UserError(f"--save-game must name one of the {counted(args.games, 'game', 'games')}, got {args.save_game}")
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
    stats: dict[str, dict[str, int]] = {lab: {"win": 0, "draw": 0, "loss": 0, "open": 0, "scored": 0}
                                        for lab in labels}
    by_side: dict[str, dict[str, int]] = {lab: {} for lab in labels}
    scores: dict[str, list[float]] = {lab: [] for lab in labels}
    parts: dict[str, dict[str, list[float]]] = {lab: {} for lab in labels}  # units destroyed / lost
    battles: list[int] = []
    times: dict[str, list[float]] = {}
    saved = None
    out = sys.stdout
    print(f"arena: {Path(args.scenario).name} ({system.title}), {counted(args.games, 'game', 'games')} from seed {args.seed}; "
          f"budget {args.seconds:g} s / {args.work} per decision", file=out)
    for g in range(args.games):
        seed = args.seed + g
        who = seating(sides, labels, g)
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
        score = _score(game.summary, sides)
        best = _best(score) if score is not None and not game.over else None
        for side, lab in who.items():
            if best is not None:
                res = ("loss" if side not in best else "win" if len(best) == 1 else "draw")
                stats[lab]["scored"] += 1
            else:
                res = ("open" if not game.over else "draw" if game.winner is None
                       else "win" if game.winner == side else "loss")
            stats[lab][res] += 1
            if res == "win":
                by_side[lab][side] = by_side[lab].get(side, 0) + 1
            if score is not None:
                scores[lab].append(score[side])
                for key in _PARTS:
                    value = game.summary.get(key)
                    if isinstance(value, dict) and isinstance(value.get(side), int | float):
                        parts[lab].setdefault(key, []).append(float(value[side]))
        fought = game.summary.get("battles_fought")
        if isinstance(fought, int):
            battles.append(fought)
        if not args.quiet:
            end = (f"winner {game.winner} ({who[game.winner]})" if game.winner
                   else ("draw" if game.over else "not over"))
            line = (f"game {g + 1} (seed {seed}): " + ", ".join(f"{s}={who[s]}" for s in sides)
                    + f": {end} after {game.commands} commands")
            if isinstance(fought, int):
                line += f"; {fought} battle{'' if fought == 1 else 's'}"
            if score is not None:
                line += "; scores: " + ", ".join(f"{s} {_num(score[s])}" for s in sides)
            if best is not None:
                line += (f": {who[best[0]]} ({best[0]}) wins by score" if len(best) == 1 else
                         ": a draw by score between " + ", ".join(f"{who[s]} ({s})" for s in best))
            print(line, file=out)
        if args.save and g + 1 == args.save_game:
            saved = (game, seed, who)
    scored = max(st["scored"] for st in stats.values())
    if scored:
        print(f"results ({counted(scored, 'game', 'games')} not over, judged by score: the highest score wins, a tie at the top is "
              f"a draw for those tied and a loss for the others):", file=out)
    else:
        print("results:", file=out)
    for lab in labels:
        st = stats[lab]
        lo, hi = wilson(st["win"], args.games)
        sided = ", ".join(f"{n} as {s}" for s, n in sorted(by_side[lab].items()))
        unfinished = f", {st['open']} not over" if st["open"] else ""
        of = f" of {args.games}" + (f" ({st['scored']} by score)" if st["scored"] else "")
        mean = ""
        if scores[lab]:
            mean = f"; mean score {statistics.fmean(scores[lab]):+.2f}"
            extra = [f"{_PARTS[key]} {statistics.fmean(vals):.2f}" for key, vals in parts[lab].items() if vals]
            if extra:
                mean += " (" + ", ".join(extra) + " a game)"
        print(f"  {lab}: {st['win']} won, {st['draw']} drawn, {st['loss']} lost{unfinished}{of}: "
              f"win rate {st['win'] / args.games:.1%} (95% CI {lo:.1%}-{hi:.1%})" + (f"; wins {sided}" if sided else "")
              + mean, file=out)
    if battles:
        print(f"battles: {sum(battles)} in {counted(len(battles), 'game', 'games')}, {statistics.fmean(battles):.1f} a game "
              f"(fewest {min(battles)}, most {max(battles)})", file=out)
    print("decision time:", file=out)
    for level, ts in sorted(times.items()):
        if ts:
            print(f"  {level}: {len(ts)} decisions, mean {statistics.fmean(ts) * 1000:.1f} ms, median "
                  f"{statistics.median(ts) * 1000:.1f} ms, worst {max(ts) * 1000:.1f} ms", file=out)
    if saved is not None:
        _write(system, saved[0], args, saved[1], saved[2])
    return 0


def seating(sides: list[str], labels: list[str], game: int) -> dict[str, str]:
    """side -> the player (label) seated there in game `game` (from 0): the game-th of all the
    orders of the players over the sides, in turn (two sides: swapped every other game; four: 24
    orders), so that over every run of that many games each player sits at each side equally often
    and beside each other player in every arrangement. [decision] A rotation alone (the earlier
    rule) kept two players given neighbouring sides neighbours for ever."""
    orders = permutations(range(len(sides)))
    order = next(islice(orders, game % factorial(len(sides)), None))
    return {sides[order[i]]: labels[i] for i in range(len(sides))}


def _why_lines(system: Any, game: Any, who: dict[str, str]) -> dict[int, str]:
    """The why lines of a game played out (GameOut.whys), by the place of their commands in its
    history, worded as the window words them: the side that decided is the one whose move it was
    before the command (as play_out asked it), named as the game's summary names it."""
    summary = system.summary(game.record.state)
    sides = [str(s) for s in summary.get("sides", ())]
    names = [str(n) for n in summary.get("side_names", sides)]
    name_of = dict(zip(sides, names, strict=False))
    lines: dict[int, str] = {}
    for i, why in sorted(game.whys.items()):
        to_move = system.to_move(game.record.steps[i].before)
        side = str(to_move[0]) if to_move else ""
        if side in who:
            lines[i] = why_line(_level(who[side]), name_of.get(side, side), why)
    return lines


def _level(label: str) -> str:
    return label.split(" ", 1)[1]


# optional parts of a score a summary may give beside it (side -> number), printed as means
_PARTS = {"units_destroyed": "destroyed", "units_lost": "lost"}


def _score(summary: dict[str, Any], sides: list[str]) -> dict[str, float] | None:
    """The summary's `score` entry when it scores every side with a number, else None."""
    score = summary.get("score")
    if not isinstance(score, dict) or not all(isinstance(score.get(s), int | float) for s in sides):
        return None
    return {s: score[s] for s in sides}


def _best(score: dict[str, float]) -> list[str]:
    """The sides with the highest score (several: a draw between them), in the sides' order."""
    top = max(score.values())
    return [s for s, v in score.items() if v == top]


def _num(value: float) -> str:
    """A score as the game line shows it: +3, -1, 0 (a fraction with two decimals)."""
    text = f"{value:+d}" if isinstance(value, int) else f"{value:+.2f}"
    return "0" if value == 0 else text


def _write(system: Any, game: Any, args: argparse.Namespace, seed: int, who: dict[str, str]) -> None:
    save = make_save(system, game.record.state, game.record.steps, scenario_path=args.scenario, seed=seed,
                     title=f"arena game {args.save_game}")
    save = with_whys(save, _why_lines(system, game, who))
    written = write_text_or_keep(args.save, dump_save(save), "save")
    if written.failed:
        raise UserError(f"{written.failed}; the save was kept in {written.path}")
    print(f"-- game {args.save_game} saved to {args.save}")
