"""The tactical computer players' decision time (issue 32; docs/ai.md "The tactical battle").

Each level (hard, easy) plays a fixed, seeded set of games of the default scenario against the
random player, taking each side in turn, with the window's budget per decision (1 s, 10 000
work units; game.core.ai.play_out). Every one of its decisions is timed: wall clock, as
`choose` measures it (what a person waits for, judged against the targets: median <= 0.2 s,
worst <= 2 s), and CPU time (time.process_time, which the shared machine's load changes less),
shown beside it with the random player's median in the same games (the baseline: listing the
legal commands and picking one).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from game import paths
from game.bench.harness import Clocked, Figure, Times, ms
from game.core.ai import play_out
from game.core.system import counted
from game.systems.tactical.plugin import PLUGIN

GAMES = 6  # per level; quick: 1, cut short
QUICK_COMMANDS = 60
MEDIAN_TARGET_MS = 200.0
WORST_TARGET_MS = 2000.0


def decision_times(level: str, games: int, *, max_commands: int = 20_000) -> Times:
    """`level` against random on the default scenario, seeds 0.. `games` - 1, sides alternating."""
    loaded = PLUGIN.load(paths.default_scenario())
    system = PLUGIN.system
    setup = PLUGIN.setup_of(loaded)
    out = Times()
    for seed in range(games):
        initial = system.initial_state(setup, seed)
        sides = [str(s) for s in system.summary(initial).get("sides", [])]
        computer = sides[seed % len(sides)]
        clocked = Clocked(PLUGIN.players[level](random.Random(f"{seed}:{computer}:{level}")))
        seats: dict[str, Any] = {s: clocked if s == computer else PLUGIN.players["random"](random.Random(f"{seed}:{s}"))
                                 for s in sides}
        game = play_out(system, initial, seats, max_commands=max_commands)
        out.wall += game.times[computer]
        out.cpu += clocked.cpu
        out.random_wall += [t for s in sides if s != computer for t in game.times[s]]
        out.games += 1
        out.won += game.winner == computer
    return out


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    games = 1 if quick else GAMES
    figures: list[Figure] = []
    for level in ("hard", "easy"):
        t0 = time.perf_counter()
        t = decision_times(level, games, max_commands=QUICK_COMMANDS if quick else 20_000)
        if not t.wall:
            raise RuntimeError(f"the {level} player made no decision in {counted(games, 'game', 'games')}")
        med, worst = statistics.median(t.wall), max(t.wall)
        log(f"  tactical {level}: {len(t.wall)} decisions in {t.games} games ({t.won} won against random) "
            f"in {time.perf_counter() - t0:.1f} s: median {ms(med):.1f} ms, worst {ms(worst):.0f} ms "
            f"(CPU {ms(statistics.median(t.cpu)):.1f} / {ms(max(t.cpu)):.0f} ms)")
        base = statistics.median(t.random_wall) if t.random_wall else 0.0
        details = {"decisions": len(t.wall), "games": t.games, "won": t.won,
                   "cpu median ms": ms(statistics.median(t.cpu)), "cpu worst ms": ms(max(t.cpu)),
                   "random median ms": ms(base)}
        figures.append(Figure(f"tactical AI {level}: one decision, median (default scenario, against random)",
                              ms(med), MEDIAN_TARGET_MS, "ms_max", " ms", details))
        figures.append(Figure(f"tactical AI {level}: one decision, worst (default scenario, against random)",
                              ms(worst), WORST_TARGET_MS, "ms_max", " ms",
                              {"decisions": len(t.wall), "cpu worst ms": ms(max(t.cpu))}))
    return figures
