"""Timing helpers and the result record every benchmark returns.

These machines are noisy, so every figure is a *ratio* of two timings taken in the same run,
interleaved where possible, plus the absolute medians for context. Timings use
`time.perf_counter`; a benchmark is never a unit test (nothing here asserts speed in pytest).
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from game.core.ai import Budget, Decision, Player
from game.core.system import RuleSystem


def median_time(fn: Callable[[], Any], repeats: int, *, warmup: int = 1) -> float:
    """Median wall time of `fn()` in seconds over `repeats` calls (after `warmup` untimed calls)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def interleaved(fns: dict[str, Callable[[], Any]], repeats: int, *, warmup: int = 1) -> dict[str, float]:
    """Median time of each function, calling them in turn so that machine noise hits all alike."""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {k: [] for k in fns}
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            for k, fn in fns.items():
                t0 = time.perf_counter()
                fn()
                times[k].append(time.perf_counter() - t0)
    finally:
        if gc_was:
            gc.enable()
    return {k: statistics.median(v) for k, v in times.items()}


@dataclass
class Figure:
    """One benchmark figure: a measured value against its target.

    kind "ratio_max": value must be <= target (e.g. frame cost / baseline <= 3);
    kind "ratio_min": value must be >= target (e.g. networkx time / ours >= 5);
    kind "seconds_max" / "ms_max": an absolute ceiling; kind "min": value must be >= target.
    """

    name: str
    value: float
    target: float
    kind: str
    unit: str = "x"
    details: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    judged: bool = True  # False: shown for context ("[info]"), not counted as on or off target

    @property
    def passed(self) -> bool:
        if self.kind in ("ratio_min", "min"):
            return self.value >= self.target
        return self.value <= self.target

    def line(self) -> str:
        op = ">=" if self.kind in ("ratio_min", "min") else "<="
        mark = ("ok  " if self.passed else "MISS") if self.judged else "info"
        extra = ", ".join(f"{k} {fmt(v)}" for k, v in self.details.items())
        text = f"[{mark}] {self.name}: {fmt(self.value)}{self.unit} (target {op} {fmt(self.target)}{self.unit})"
        if extra:
            text += f"  [{extra}]"
        if self.note:
            text += f"  -- {self.note}"
        return text

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["passed"] = self.passed if self.judged else None
        return d


def fmt(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, float):
        return str(v)
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    if abs(v) >= 0.01:
        return f"{v:.3g}"
    return f"{v:.2e}"


def ms(seconds: float) -> float:
    return seconds * 1000.0


def real_display() -> bool:
    """Whether a child process would draw into a real window."""
    if os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen"):
        return False
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def child_env() -> dict[str, str]:
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    if not real_display():
        env["SDL_VIDEODRIVER"] = "dummy"
    return env


# ---------------------------------------------------------------- computer players' decision times

@dataclass
class Clocked:
    """A player whose decisions' CPU time is kept (`choose` keeps their wall time)."""

    inner: Player
    cpu: list[float] = field(default_factory=list)

    @property
    def level(self) -> str:
        return self.inner.level

    def decide(self, system: RuleSystem, view: Any, side: str, budget: Budget) -> Decision:
        c0 = time.process_time()
        decision = self.inner.decide(system, view, side, budget)
        self.cpu.append(time.process_time() - c0)
        return decision


@dataclass
class Times:
    """One level's decisions over the games: wall and CPU seconds, and the random player's wall."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    random_wall: list[float] = field(default_factory=list)
    games: int = 0
    won: int = 0
