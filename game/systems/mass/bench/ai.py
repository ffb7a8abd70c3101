"""The mass battle's computer commanders' decision time (issue 32; docs/ai.md "The mass battle").

Each level (hard, easy) plays a fixed, seeded set of games of the example battle
(maps/mass/borderland-valley.yaml), taking each side in turn: against the random player (which
often gives the battle away early) and against the other level (whole battles), with the
window's budget per decision (1 s, 10 000 work units; game.core.ai.play_out). Every decision of
the level measured is timed: wall clock as `choose` measures it (judged against issue 32's
decision-time targets: median <= 0.2 s, worst <= 2 s) and CPU time (time.process_time) beside
it, with the random player's median in the same games (the baseline: listing the legal choices
and picking one).
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
from game.systems.mass.plugin import PLUGIN

GAMES = 20  # per level against random, and half as many against the other level; quick: 2 and 1
MEDIAN_TARGET_MS = 200.0
WORST_TARGET_MS = 2000.0
_OTHER = {"hard": "easy", "easy": "hard"}


def decision_times(level: str, against_random: int, against_other: int) -> Times:
    """`level` on the example battle: seeds 0.. against random, then against the other level."""
    loaded = PLUGIN.load(paths.maps_dir() / "mass" / "borderland-valley.yaml")
    system = PLUGIN.system
    setup = PLUGIN.setup_of(loaded)
    out = Times()
    for seed in range(against_random + against_other):
        foe_level = "random" if seed < against_random else _OTHER[level]
        initial = system.initial_state(setup, seed)
        sides = [str(s) for s in system.summary(initial).get("sides", [])]
        computer = sides[seed % len(sides)]
        clocked = Clocked(PLUGIN.players[level](random.Random(f"{seed}:{computer}:{level}")))
        seats: dict[str, Any] = {s: clocked if s == computer else PLUGIN.players[foe_level](random.Random(f"{seed}:{s}"))
                                 for s in sides}
        game = play_out(system, initial, seats)
        out.wall += game.times[computer]
        out.cpu += clocked.cpu
        if foe_level == "random":
            out.random_wall += [t for s in sides if s != computer for t in game.times[s]]
        out.games += 1
        out.won += game.winner == computer
    return out


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    against_random, against_other = (2, 1) if quick else (GAMES, GAMES // 2)
    figures: list[Figure] = []
    for level in ("hard", "easy"):
        t0 = time.perf_counter()
        t = decision_times(level, against_random, against_other)
        if not t.wall:
            raise RuntimeError(f"the {level} commander made no decision in {counted(t.games, 'game', 'games')}")
        med, worst = statistics.median(t.wall), max(t.wall)
        log(f"  mass {level}: {len(t.wall)} decisions in {t.games} games ({against_random} against random, "
            f"{against_other} against {_OTHER[level]}; {t.won} won) in {time.perf_counter() - t0:.1f} s: "
            f"median {ms(med):.2f} ms, worst {ms(worst):.1f} ms "
            f"(CPU {ms(statistics.median(t.cpu)):.2f} / {ms(max(t.cpu)):.1f} ms)")
        base = statistics.median(t.random_wall) if t.random_wall else 0.0
        details = {"decisions": len(t.wall), "games": t.games, "won": t.won,
                   "cpu median ms": ms(statistics.median(t.cpu)), "cpu worst ms": ms(max(t.cpu)),
                   "random median ms": ms(base)}
        figures.append(Figure(f"mass AI {level}: one decision, median (example battle)", ms(med), MEDIAN_TARGET_MS,
                              "ms_max", " ms", details))
        figures.append(Figure(f"mass AI {level}: one decision, worst (example battle)", ms(worst), WORST_TARGET_MS,
                              "ms_max", " ms", {"decisions": len(t.wall), "cpu worst ms": ms(max(t.cpu))}))
    return figures
