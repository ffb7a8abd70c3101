"""Start-up benchmark: from the command to the first drawn frame, in a fresh process.

Runs `python -m game play --frames 1` (the default scenario, quit after one drawn frame; in a real
window when there is a display, else headless) and times it from the command to the line the game
prints right after that frame (the clean-up of the interpreter after it, about 0.2 s of freeing
modules, is not what a player waits for; it was timed until 1 December 2026), against `python -c pass` (the whole process) as the bare
interpreter baseline. Alongside, for context (`[info]`): the same time for
game/bench/startup_floor.py, which only imports the libraries the first frame needs, opens the
window and flips one toolkit frame: what is left of the ratio above it is the game's own work.

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
from pathlib import Path

from game import paths
from game.bench.harness import Figure, real_display
from game.shell.app import FRAMES_DRAWN

ROOT = paths.data_root()
FLOOR_SCRIPT = Path(__file__).with_name("startup_floor.py")


def _time(cmd: list[str], env: dict[str, str], mark: str | None = None) -> float:
    """Seconds from starting `cmd` to the line starting with `mark` on its standard output (the
    game prints it right after its first frame: what a player waits for), or to its end when
    `mark` is None. Raises when the command fails or never prints the mark."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: float | None = None
    assert proc.stdout is not None
    if mark is not None:
        for line in proc.stdout:
            if line.startswith(mark):
                seen = time.perf_counter() - t0
                break
    try:
        _out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise RuntimeError(f"{' '.join(cmd)} did not end within 120 s") from None
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err.strip()[-400:]}")
    if mark is not None and seen is None:
        raise RuntimeError(f"{' '.join(cmd)} never printed {mark!r}")
    return seen if seen is not None else elapsed


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
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
    floor_cmd = [sys.executable, str(FLOOR_SCRIPT)]
    _time(bare_cmd, env)  # warm the file cache and write the .pyc files
    _time(game_cmd, env, FRAMES_DRAWN)
    _time(floor_cmd, env, FRAMES_DRAWN)
    repeats = 3 if quick else 7
    game_t: list[float] = []
    bare_t: list[float] = []
    floor_t: list[float] = []
    for _ in range(repeats):
        bare_t.append(_time(bare_cmd, env))
        game_t.append(_time(game_cmd, env, FRAMES_DRAWN))
        floor_t.append(_time(floor_cmd, env, FRAMES_DRAWN))
    g, b, f = statistics.median(game_t), statistics.median(bare_t), statistics.median(floor_t)
    log(f"  start-up: {' '.join(game_cmd[1:])}: median {g:.2f} s over {repeats} runs; the libraries and "
        f"window alone {f:.2f} s")
    ratios = [x / y for x, y in zip(game_t, bare_t, strict=True)]
    note = "" if env.get("SDL_VIDEODRIVER") != "dummy" else "SDL dummy driver (no real window)"
    return [Figure(f"start-up: command to first drawn frame / bare interpreter start (median of {repeats})",
                   g / b, 15.0, "ratio_max",
                   details={"start-up s": g, "min s": min(game_t), "max s": max(game_t), "bare interpreter s": b,
                            "ratio min": min(ratios), "ratio max": max(ratios)},
                   note=note),
            Figure(f"start-up floor (informational): the libraries and the window alone / bare interpreter start "
                   f"(median of {repeats})", f / b, 15.0, "ratio_max", judged=False,
                   details={"floor s": f, "min s": min(floor_t), "max s": max(floor_t),
                            "the game's own share of the start-up ratio": (g - f) / b},
                   note="game/bench/startup_floor.py: pygame, pygame_gui, PyYAML, pydantic and one model, the "
                        "window, a toolkit manager, one frame")]
