"""Idle benchmark: the CPU the real window uses while the player does nothing.

Each measurement is a fresh process (`python -m game.bench.idle SCREEN MODE SECONDS`) that opens
the default scenario as `python -m game play` does, lets the first frames settle, then runs the
real `App.run` loop for SECONDS with no input and prints its process CPU time over wall time (1.0 =
one core busy). MODE "event" is the shipped loop (waits for events when nothing moves); MODE "full"
is the same loop forced to 60 frames a second, the way it drew before: the baseline, measured in
the same run. SCREEN "first" is the first screen a player sees (the briefing / hand-off of the
default scenario), "map" the battle map itself (blackout off).

When the environment has a display (DISPLAY or WAYLAND_DISPLAY set and SDL_VIDEODRIVER not
"dummy") the child opens a real window and every frame includes a real flip; otherwise it runs on
SDL's dummy driver, where a flip costs nothing, and the figure says so.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pygame

from game import paths
from game.bench.harness import Figure, child_env, real_display
from game.shell.app import App, Settings
from game.table import TABLE


def measure(screen: str, mode: str, seconds: float) -> dict[str, Any]:
    """Run one child and return what it printed: cpu_s, wall_s, frames."""
    cmd = [sys.executable, "-m", "game.bench.idle", screen, mode, str(seconds)]
    proc = subprocess.run(cmd, cwd=paths.data_root(), env=child_env(), capture_output=True, text=True,
                          timeout=seconds * 4 + 120, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"idle child {screen} {mode} failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    line = proc.stdout.strip().splitlines()[-1]
    result: dict[str, Any] = json.loads(line)
    return result


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    seconds = 3.0 if quick else 10.0
    repeats = 1 if quick else 3
    display = real_display()
    where = "real display, frames include the flip" if display else \
        "NO real display: SDL dummy driver, flips cost nothing (run under Xvfb or X for the real figure)"
    figures: list[Figure] = []
    for screen in ("first", "map"):
        event: list[float] = []
        full: list[float] = []
        frames: list[int] = []
        flips: list[int] = []
        for _ in range(repeats):  # interleaved so that machine noise hits both alike
            e = measure(screen, "event", seconds)
            f = measure(screen, "full", seconds)
            event.append(e["cpu_s"] / e["wall_s"])
            full.append(f["cpu_s"] / f["wall_s"])
            frames.append(int(e["frames"]))
            flips.append(int(e["flips"]))
        med = statistics.median(event)
        log(f"  idle {screen}: event-driven {[round(x, 3) for x in event]}, full rate {[round(x, 3) for x in full]} "
            f"of a core ({seconds:.0f} s each)")
        figures.append(Figure(
            f"idle: CPU of the {'first screen' if screen == 'first' else 'battle map'} with no input, "
            f"share of one core ({seconds:.0f} s, median of {repeats})",
            med, 0.05, "max", unit="",
            details={"min": min(event), "max": max(event), "full-rate loop (before)": statistics.median(full),
                     "ratio to full rate": med / max(statistics.median(full), 1e-9),
                     "frames drawn": statistics.median(frames), "frames flipped": statistics.median(flips)},
            note=where))
    return figures


def _child(screen: str, mode: str, seconds: float) -> None:
    settings = Settings(blackout=screen != "map")
    app = App.for_scenario(TABLE, None, size=(1280, 800), headless=False, settings=settings)
    # let start-up settle (first frames, fonts, the map picture, the modules the loop imports once
    # after its first frame: App.warm_up) outside the measured time
    for _ in range(10):
        app.step()
        app.render()
        pygame.display.flip()
    app.warm_up()
    frames = [0]
    render = app.render

    def counting_render() -> Any:
        frames[0] += 1
        return render()

    app.render = counting_render  # type: ignore[method-assign]

    flips = [0]
    real_flip = pygame.display.flip

    def counting_flip() -> None:
        flips[0] += 1
        real_flip()

    pygame.display.flip = counting_flip
    c0, w0 = time.process_time(), time.perf_counter()
    app.run(max_seconds=seconds, full_rate=mode == "full")
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    print(json.dumps({"cpu_s": cpu, "wall_s": wall, "frames": frames[0], "flips": flips[0], "screen": screen, "mode": mode,
                      "driver": os.environ.get("SDL_VIDEODRIVER", "")}))


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2], float(sys.argv[3]))
