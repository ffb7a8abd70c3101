"""Mass-battle benchmark: exact roll-and-keep tables against icepool, and one whole Wave.

* Every XkY table for X, Y <= 10 (55 tables, exploding) computed cold, ours against icepool:
  each side runs in a fresh Python process (so no cache of either is warm), timing itself;
  the figure is icepool's median time over ours (>= 1: ours is faster).
* 10k10 exploding on a first call, the same way.
* One decision (issue 30): the legal choices (found directly, rules/choices.py) and the odds of
  every one of them, timed at every decision of the example battle played to its end by a seeded
  client; the judged figure is the slowest decision of a second pass (the dice tables of the
  battle's pools are then made), the first pass's slowest and the median are shown beside it.
* One whole Wave of the teaching battle resolved through the RuleSystem as the client drives it
  (legal_commands and the odds preview before every command, then apply), in milliseconds.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from game.bench.harness import Figure, ms
from game.io.datafiles import ROOT
from game.systems.mass.io.files import load_battle, load_mass_commands
from game.systems.mass.rules import choices
from game.systems.mass.rules.system import SYSTEM

_OURS_ALL = """
import time, json
t = time.perf_counter()
from game.core import rollkeep as rk
for x in range(1, 11):
    for y in range(1, x + 1):
        rk.table(x, y)
print(json.dumps(time.perf_counter() - t))
"""
_THEIRS_ALL = """
import time, json
t = time.perf_counter()
import icepool
die = icepool.d10.explode(depth=14)
for x in range(1, 11):
    for y in range(1, x + 1):
        die.pool(x).highest(y).sum().probabilities()
print(json.dumps(time.perf_counter() - t))
"""
_OURS_ONE = _OURS_ALL.replace("for x in range(1, 11):\n    for y in range(1, x + 1):\n        rk.table(x, y)",
                              "rk.table(10, 10)")
_THEIRS_ONE = _THEIRS_ALL.replace(
    "for x in range(1, 11):\n    for y in range(1, x + 1):\n        die.pool(x).highest(y).sum().probabilities()",
    "die.pool(10).highest(10).sum().probabilities()")


def _fresh(code: str) -> float:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    value: float = json.loads(out.stdout.strip().splitlines()[-1])
    return value


def _pair(ours: str, theirs: str, runs: int) -> tuple[float, float]:
    a, b = [], []
    for _ in range(runs):
        a.append(_fresh(ours))
        b.append(_fresh(theirs))
    return statistics.median(a), statistics.median(b)


def one_wave(seed: int = 1) -> float:
    """Seconds to play the teaching battle's first Wave (as a client would: legal list and odds
    before each command), from its Strategy roll to the casualties."""
    battle, cmds = load_mass_commands(_script())
    lb = load_battle(battle)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    for cmd in cmds[:8]:  # the assessments before the Wave
        s = SYSTEM.apply(s, cmd).state  # type: ignore[union-attr]
    rng = random.Random(seed)
    t0 = time.perf_counter()
    wave = s.wave
    while s.wave == wave and s.stage != "ended":
        legal = [c for c in SYSTEM.legal_commands(s) if getattr(c, "kind", "") not in ("surrender", "cede")
                 and getattr(c, "action", "") != "flee"]
        cmd = rng.choice(legal)
        SYSTEM.preview(s, cmd)
        s = SYSTEM.apply(s, cmd).state  # type: ignore[union-attr]
    return time.perf_counter() - t0


def decisions(seed: int = 1) -> list[float]:
    """Seconds per decision of the example battle, played to its end by a seeded client: the
    legal choices and the odds of every one of them (what the board can show at a decision)."""
    lb = load_battle(_battle())
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    rng = random.Random(seed)
    out: list[float] = []
    while s.stage != "ended":
        t0 = time.perf_counter()
        legal = SYSTEM.legal_commands(s)
        for cmd in legal:
            choices.preview(s, cmd)
        out.append(time.perf_counter() - t0)
        quiet = [c for c in legal if getattr(c, "kind", "") not in ("surrender", "cede")
                 and getattr(c, "action", "") != "flee"]
        s = SYSTEM.apply(s, rng.choice(quiet)).state  # type: ignore[union-attr]
    return out


def _battle() -> str:
    return str(ROOT / "maps" / "mass" / "borderland-valley.yaml")


def _script() -> str:
    return str(ROOT / "maps" / "mass" / "borderland-valley-commands.yaml")


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    runs = 1 if quick else 3
    figures: list[Figure] = []
    ours, theirs = _pair(_OURS_ALL, _THEIRS_ALL, runs)
    log(f"  55 XkY tables cold: ours {ours:.2f} s, icepool {theirs:.2f} s")
    figures.append(Figure("mass: all 55 XkY tables (X, Y <= 10, exploding) cold, icepool time / ours",
                          theirs / ours, 1.0, "ratio_min", details={"ours s": ours, "icepool s": theirs}))
    ours, theirs = _pair(_OURS_ONE, _THEIRS_ONE, runs)
    log(f"  10k10 first call: ours {ours:.3f} s, icepool {theirs:.3f} s")
    figures.append(Figure("mass: 10k10 exploding, first call, icepool time / ours", theirs / ours, 1.0,
                          "ratio_min", details={"ours s": ours, "icepool s": theirs}))
    first = decisions(1)
    again = decisions(1)
    log(f"  one decision, choices + odds of each: slowest {ms(max(again)):.1f} ms (first pass {ms(max(first)):.1f} ms), "
        f"median {ms(statistics.median(again)):.1f} ms, {len(again)} decisions")
    figures.append(Figure("mass: one decision, the legal choices and the odds of every one (slowest, example battle)",
                          ms(max(again)), 50.0, "ms_max", unit=" ms",
                          details={"first pass slowest ms": ms(max(first)), "median ms": ms(statistics.median(again)),
                                   "decisions": len(again)}))
    times = [one_wave(seed) for seed in range(1 if quick else 5)]
    figures.append(Figure("mass: one whole Wave (legal list + odds before each command)", ms(statistics.median(times)),
                          250.0, "ms_max", unit=" ms"))
    return figures
