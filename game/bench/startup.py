"""Start-up benchmark: from the command to the first drawn frame, in a fresh process.

Runs `python -m game play --frames 1` (the default scenario, quit after one drawn frame) headless
and times the whole process, against `python -c pass` as the bare interpreter baseline.

Both run with the bytecode cache on, as on a player's machine (an installed game has its .pyc
files): PYTHONDONTWRITEBYTECODE is dropped and the cache goes to a temporary folder
(PYTHONPYCACHEPREFIX), filled by the warm-up run, so the checkout gets no __pycache__ folders.
Without it every run compiles every module again (about 0.3 s more on the build machine).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from game import paths
from game.bench.harness import Figure

ROOT = paths.data_root()


def _time(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    return elapsed


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    from game.bench.idle import real_display

    cache = tempfile.mkdtemp(prefix="ail-bench-pyc-")
    try:
        return _run(quick=quick, log=log, cache=cache, display=real_display())
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _run(*, quick: bool, log: Callable[[str], None], cache: str, display: bool) -> list[Figure]:
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1", PYTHONPYCACHEPREFIX=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not display:
        env["SDL_VIDEODRIVER"] = "dummy"
    game_cmd = [sys.executable, "-m", "game", "play", "--frames", "1"]
    bare_cmd = [sys.executable, "-c", "pass"]
    _time(bare_cmd, env)  # warm the file cache and write the .pyc files
    _time(game_cmd, env)
    repeats = 3 if quick else 7
    game_t: list[float] = []
    bare_t: list[float] = []
    for _ in range(repeats):
        bare_t.append(_time(bare_cmd, env))
        game_t.append(_time(game_cmd, env))
    g, b = statistics.median(game_t), statistics.median(bare_t)
    log(f"  start-up: {' '.join(game_cmd[1:])}: median {g:.2f} s over {repeats} runs")
    ratios = [x / y for x, y in zip(game_t, bare_t, strict=True)]
    return [Figure(f"start-up: command to first drawn frame / bare interpreter start (median of {repeats})",
                   g / b, 15.0, "ratio_max",
                   details={"start-up s": g, "min s": min(game_t), "max s": max(game_t), "bare interpreter s": b,
                            "ratio min": min(ratios), "ratio max": max(ratios)},
                   note="" if env.get("SDL_VIDEODRIVER") != "dummy" else "SDL dummy driver (no real window)")]
