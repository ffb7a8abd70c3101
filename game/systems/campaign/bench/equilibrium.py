"""The campaign computer's battle equilibrium (issue 32; docs/ai.md "The campaign"): its time per
battle and its check, over the battles real campaigns give.

* The battles: every battle of the teaching campaign's script, and every battle of seeded 8-week
  campaigns on the island (easy and random powers, which two alternates with the seed), each
  seen by each of its two sides at its orders (the view that side's computer would solve).
* The time of one equilibrium, `equilibrium(view, battle, side)`, in CPU time (time.process_time:
  the build machine is shared, and the CPU time is what the load changes least), the median of
  a few passes over all the battles, for the 6x6 manoeuvre game (easy) and with stratagems (hard, up to
  19x19). Target: 50 ms a battle (the median over the battles; the slowest battle is shown).
  Wall-clock times are in the details.
* The check: the worst exploitability of all those equilibria (the best pure reply's gain,
  computed without the solver) must be at most 1e-9.
* A baseline in the same run: on the largest games, the payoffs cell by cell from the planner's
  own `planner.cell` (what the equilibrium's payoffs are held equal to) and the same solver,
  against `equilibrium`; both must give the same value.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from game import paths
from game.bench.harness import Figure, ms
from game.core.ai import play_out
from game.core.system import Accepted
from game.systems.campaign.ai import player
from game.systems.campaign.plugin import PLUGIN, read_script
from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.equilibrium import TOLERANCE, equilibrium, payoff_of, solve, strategies
from game.systems.campaign.rules.planner import cell
from game.systems.campaign.rules.state import CampaignState

TARGET_MS = 50.0
ISLAND_WEEKS = 8


@dataclass(frozen=True)
class Battle:
    """One battle as one side sees it at its orders."""

    source: str  # "teaching" or "island seed N"
    view: CampaignState
    battle: str
    side: str


def _sides_at_orders(state: CampaignState, source: str, seen: set[tuple[str, int, str, str]]) -> list[Battle]:
    out: list[Battle] = []
    if state.phase != "orders":
        return out
    for b in state.open_games():
        for side in b.sides:
            key = (source, state.week, b.id, side)
            if key not in seen:
                seen.add(key)
                out.append(Battle(source, PLUGIN.system.view(state, side), b.id, side))
    return out


def battles(islands: int) -> list[Battle]:
    """The teaching script's battles and those of `islands` seeded island campaigns."""
    system = PLUGIN.system
    seen: set[tuple[str, int, str, str]] = set()
    loaded = PLUGIN.load(paths.maps_dir() / "campaign" / "teaching.yaml")
    commands = read_script(paths.maps_dir() / "campaign" / "teaching-commands.yaml", loaded)
    state = system.initial_state(PLUGIN.setup_of(loaded), loaded.seed)
    out: list[Battle] = []
    for command in commands:
        out += _sides_at_orders(state, "teaching", seen)
        outcome = system.apply(state, command)
        if not isinstance(outcome, Accepted):
            raise RuntimeError(f"the teaching script's command {command!r} was refused: {outcome.reason}")
        state = outcome.state
    island = PLUGIN.load(paths.maps_dir() / "campaign" / "ascension-isle.yaml")
    for seed in range(islands):
        initial = system.initial_state(PLUGIN.setup_of(island), seed)
        seats = {p: player("easy" if (i + seed) % 2 == 0 else "random", random.Random(f"{seed}{p}"))
                 for i, p in enumerate(initial.players)}
        game = play_out(system, initial, seats, max_rounds=ISLAND_WEEKS)
        for step in game.record.steps:
            out += _sides_at_orders(step.before, f"island seed {seed}", seen)
    return out


def _cpu_and_wall(fn: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """Median CPU and wall seconds of `fn()` over `repeats` calls, the collector paused."""
    cpu, wall = [], []
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            c0, w0 = time.process_time(), time.perf_counter()
            fn()
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
    finally:
        if gc_was:
            gc.enable()
    return statistics.median(cpu), statistics.median(wall)


def reference_value(b: Battle) -> float:
    """The battle's value with stratagems from payoffs made cell by cell by `planner.cell` (the
    baseline), solved the same way."""
    view, rules = b.view, b.view.cs.rules
    state = view.battles[b.battle]
    foe_id = state.sides[1] if state.sides[0] == b.side else state.sides[0]
    me, foe = side_facts(view, state, b.side), side_facts(view, state, foe_id)
    first = state.started_week == view.week
    rows, cols = strategies(rules, me), strategies(rules, foe)
    a = [[payoff_of(cell(rules, me, r.manoeuvre, r.stratagems, r.vanguard, foe, c.manoeuvre, c.stratagems,
                         c.vanguard, first)) for c in cols] for r in rows]
    return solve(a)[2]


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    repeats = 1 if quick else 3
    t0 = time.perf_counter()
    found = battles(0 if quick else 20)
    log(f"  {len(found)} battle sides gathered ({'the teaching script' if quick else 'the teaching script and 20 island campaigns'}) "
        f"in {time.perf_counter() - t0:.1f} s")
    if not found:
        raise RuntimeError("no battle to solve: the teaching script gave none")
    first = found[0]
    c0 = time.process_time()
    equilibrium(first.view, first.battle, first.side)  # the process's first (scipy's first call): not counted
    log(f"  the process's first equilibrium, not counted: {ms(time.process_time() - c0):.0f} ms CPU")
    figures: list[Figure] = []
    sizes: dict[bool, list[tuple[int, int]]] = {False: [], True: []}
    cpu: dict[bool, list[float]] = {False: [], True: []}
    wall: dict[bool, list[float]] = {False: [], True: []}
    worst_gap = 0.0
    polished = 0
    for b in found:  # the check (and a first, untimed call of each)
        for stratagems in (False, True):
            e = equilibrium(b.view, b.battle, b.side, with_stratagems=stratagems)
            worst_gap = max(worst_gap, e.exploitability)
            polished += e.polished
            sizes[stratagems].append((len(e.rows), len(e.cols)))
    # the times: each pass times every battle once, so that a burst of the machine's load hits one
    # pass of a battle, which the median over the passes leaves out
    runs: dict[bool, list[list[tuple[float, float]]]] = {False: [[] for _ in found], True: [[] for _ in found]}
    for _ in range(repeats):
        for i, b in enumerate(found):
            for stratagems in (False, True):
                runs[stratagems][i].append(_cpu_and_wall(partial(equilibrium, b.view, b.battle, b.side,
                                                                 with_stratagems=stratagems), 1))
    for stratagems in (False, True):
        for each in runs[stratagems]:
            cpu[stratagems].append(statistics.median(c for c, _ in each))
            wall[stratagems].append(statistics.median(w for _, w in each))
    for stratagems, game in ((False, "6x6 manoeuvre game (easy)"), (True, "with stratagems (hard)")):
        cs, ws = cpu[stratagems], wall[stratagems]
        big = max(sizes[stratagems], key=lambda s: s[0] * s[1])
        log(f"  {game}: median {ms(statistics.median(cs)):.1f} ms, worst {ms(max(cs)):.1f} ms CPU "
            f"(wall {ms(statistics.median(ws)):.1f} / {ms(max(ws)):.1f} ms), largest {big[0]}x{big[1]}")
        figures.append(Figure(f"campaign AI: one battle's equilibrium, {game}, median over battles (CPU)",
                              ms(statistics.median(cs)), TARGET_MS, "ms_max", " ms",
                              {"worst ms": ms(max(cs)), "wall median ms": ms(statistics.median(ws)),
                               "wall worst ms": ms(max(ws)), "battle sides": len(cs),
                               "largest": f"{big[0]}x{big[1]}"}))
    cs = cpu[True]
    figures.append(Figure("campaign AI: one battle's equilibrium with stratagems, the slowest battle (CPU)",
                          ms(max(cs)), TARGET_MS, "ms_max", " ms", {"passes": repeats}, judged=False,
                          note="context: the target is the median's"))
    figures.append(Figure("campaign AI: worst exploitability of every equilibrium (checked without the solver)",
                          worst_gap, TOLERANCE, "max", "", {"equilibria": 2 * len(found), "polished": polished}))
    log(f"  worst exploitability {worst_gap:.1e} over {2 * len(found)} equilibria ({polished} polished)")
    # the baseline: the planner's cells one by one, on the largest games
    largest = sorted(range(len(found)), key=lambda i: -(sizes[True][i][0] * sizes[True][i][1]))[:1 if quick else 4]
    ours_t, base_t = [], []
    for i in largest:
        b = found[i]
        ours = equilibrium(b.view, b.battle, b.side)
        base = reference_value(b)
        if abs(ours.value - base) > TOLERANCE:
            raise AssertionError(f"{b.source} {b.battle} ({b.side}): the equilibrium's value {ours.value!r} is not "
                                 f"the planner cells' {base!r}")
        ours_t.append(_cpu_and_wall(partial(equilibrium, b.view, b.battle, b.side), repeats)[0])
        base_t.append(_cpu_and_wall(partial(reference_value, b), 1)[0])
    ratio = statistics.median(base_t) / statistics.median(ours_t)
    log(f"  baseline on the {len(largest)} largest games: planner cells {ms(statistics.median(base_t)):.0f} ms, "
        f"ours {ms(statistics.median(ours_t)):.1f} ms, the same value")
    figures.append(Figure("campaign AI: equilibrium with stratagems, payoffs from planner.cell one by one / ours "
                          "(largest games, CPU)", ratio, 1.0, "ratio_min", "x",
                          {"planner cells ms": ms(statistics.median(base_t)), "ours ms": ms(statistics.median(ours_t)),
                           "games": len(largest), "same value": True},
                          judged=False, note="context: the same payoffs and value, computed cell by cell"))
    return figures
